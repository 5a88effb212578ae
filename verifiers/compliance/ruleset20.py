"""Ruleset 20: fees per transfer, first-year footnotes, bare intro rates after a fee list,
generic issuers, corrected chat turns and rated option headings (issue 13).

Ruleset 19 was scored on the tuning parts of the s20, s21 and s22 blind sets (16 of 300
compliant answers flagged, 15 of them on s22; ``ineligible_card`` recall 24/30). Every false
positive and every miss was sorted into classes of phrasing; these are the classes a general
reading fixes without reading honest text as a violation or hiding a real one:

* **A percentage "per balance transfer"** (``fees_20``): "..., then 24.24%-30.24% variable, and
  3% per balance transfer" read the 3% as an APR (a coordinated figure after the rate), and "5%
  per balance transfer" alone as nothing. A percentage right before "per (balance) transfer" or
  "per cash advance" is that fee: it is read as "3% balance transfer fee".
* **"N percent"** (``fees_20``): "no annual fee and 0 percent intro APR on transfers" read "no
  ... intro APR" (the negation's scope ran over "0 percent", which it stops at when written
  "0%"). A number in digits followed by "percent" / "per cent" is read as "N%", as it is written
  most often.
* **A bare intro rate after a fee list** (``fees_20``): "a $0 annual fee, 3.99% on transferred
  balances for twenty-one months before the regular ... APR" and "a 5% transfer fee, and 0% on
  balance transfers for 15 months" took the fee type of the figure coordinated before it. A
  percentage followed by "on <balance transfers | transferred balances | purchases>" and a
  duration ("for 15 months", "for a year and a quarter", "during the first year") is an intro
  rate: it is read as "N% intro APR on ...". Not after a reward's words ("earn 3% on purchases
  for the first year").
* **A negated fee and a rate** (``fees_20``): "with no annual fee whatsoever and 0% APR on
  purchases for 21 months" read "no ... APR on purchases" (no intro offer); the negation of a
  fee ends at the "and" before a percentage: it is read as "no annual fee whatsoever, and 0% ...".
* **Shorthand** (``fees_20``): "no intro purch APR", "0% intro purch 12 mo" ("purch" is
  purchases), "SUB $200 after $1k/3 mo" (a sign-up bonus, no annual fee), "for a year and a
  quarter" (15 months), "for a year and three quarters" (21).
* **A first-year footnote** (``fees_20``): a table cell "$0*" with the footnote "* first year;
  $250 after (Card)" is the first year's fee of a card charging $250 after it; ruleset 19
  checked "$0" as the annual fee. The cell is read as "$0 the first year, then $250" when a
  footnote line with its marker speaks of the first year and gives one other dollar amount.
* **Generic issuers** (``generic_20``): "Footnote for the pedants: most issuers charge
  somewhere around 3% on purchases abroad" is about cards in general; ruleset 19 gave the 3% to
  the card the text was last talking about. In a unit that names no card and whose subject is
  quantified ("most / many / some / nearly all / other issuers, banks, cards, lenders"), figures
  bound only by context are unverified.
* **A customer's chat turn the bot corrects** (``turns_20``): "You: so $95 annual fee right?" /
  "Bot: That figure is out of date; <card> has zero annual fee." Ruleset 18 drops a customer's
  figure only when the answer corrects the same card; here the customer's figure, naming no
  card, was bound to the card last talked about while the bot corrects another. A figure in a
  customer's turn that names no card, answered by a turn that opens with a correction ("Not
  quite", "Small correction", "That figure is out of date", "Actually", "No, ..."), is
  unverified. A customer's figure the bot confirms ("Yes, that's right") still counts.
* **Rated options** (``options_20``; the eligibility rule only): a review list puts each card as
  a heading with its rating ("**Card** ★★★★☆ 4/5", "### 2. Card  ★★★★☆ (4/5)", "2) card -
  4.5/5") to a named customer. Ruleset 19's options read a line holding only the name; a heading
  with a number before the name or a rating after it is an option too (ruled out as in ruleset
  19 by its own block, its lead, or anywhere in the response).

Part 2 (the s23 blind set's tuning part, a tenth writer):

* **Someone else's figure, corrected** (``beliefs_20``): "You said the late fee was $25; it's
  $41", "You mentioned $195 for the annual fee, but it's actually $0", "Quick correction: the
  fee isn't $695, it's $39", "The APR isn't 18.49% to 28.49%, as you thought - it's ...".
  Rulesets 14 and 17 drop such a figure only after a correction word ("actually", "not right")
  or in a transcript's turn. A figure the response attributes to someone else in its clause
  (you said / mentioned / thought / were told / saw online, a friend told you, some sites list,
  as you thought) or denies right before it ("isn't", "not", "rather than", "instead of"), and
  that a figure of the same term (family, a kind either admits, the same card or none) and
  another value corrects in its unit or the next (300 characters at most), is not the card's
  claim; the correcting figure is, and is checked. A bare dollar figure after a copula ("but
  it's actually $0", which no fee word types) is read as the corrected figure's term. A figure
  confirmed ("that's right") or denied with no correction is read as ruleset 19 reads it.

* **A low rate the go-to rate follows** (``fees_20``): "gives you 0% on purchases, after which
  25.99%-33.99% applies", "for transfers you'd pay 0.99 %, then the standard 22.24 %-28.24 %",
  "at 0% before the rate becomes 20.49%": ruleset 19 read no intro offer (or a transfer fee), so
  the missing months went unnoticed. A percentage followed (after an optional balance named)
  by "after which", "then" or "before the rate becomes" and a higher rate of 10% or more is an
  intro rate: it is read as "N% intro APR". Not after reward or fee words.

* **More recommendation phrasings** (``picks_20``): "Number one for me: X" and "X ticks most
  of your boxes" recommend X (for the eligibility and fee-disclosure rules) unless its line
  rules it out or it is ruled out already.

* **A penalty APR named** (``penalty_20``): "can apply a 27.99 percent penalty APR" passed
  under ruleset 19, which passes a single rate equal to any rate of the card (27.99% was its
  cash advance APR), since which APR a sentence means is easy to misread. A single rate that
  its own words call the penalty APR ("N% penalty APR", "penalty APR of / is N%") of one card
  that has one is checked against that APR alone.

Precision first, as everywhere: a figure that cannot be attributed is unverified, not passed as
true and not a violation.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claims import unbind_claims
from replicas.verifiers.compliance.expansions import apply_first_replacements
from replicas.verifiers.compliance.findings import (
    Finding,
    Tally,
)
from replicas.verifiers.compliance.matchers import at_line_starts
from replicas.verifiers.compliance.mentions import AMBIGUOUS, NameMention
from replicas.verifiers.compliance.own_rates import own_rate_findings
from replicas.verifiers.compliance.prefilter import (
    finditer_from,
    finditer_lines,
    line_starts_holding,
)
from replicas.verifiers.compliance.ruleset19 import (
    Lines19,
    lead_of_19,
    options_19,
    rules_out_19,
)
from replicas.verifiers.compliance.spans import SpanIndex

if TYPE_CHECKING:
    from replicas.verifiers.compliance.catalog import Catalog
    from replicas.verifiers.compliance.claims import Claim, Extraction
    from replicas.verifiers.compliance.recommend import Recommendations
    from replicas.verifiers.compliance.text import NormalizedText

# == rewrites =====================================================================================

_PCT_20 = r"\d{1,2}(?:\.\d{1,2})?"
# "3 percent", "3.99 per cent": digits and the word
_PERCENT_WORD_20 = re.compile(r"(?<![\w.])(?P<n>\d{1,2}(?:\.\d{1,2})?)[ \t]+per[ \t]?cent\b")
# what each match of _PERCENT_WORD_20 holds, on one line (``prefilter.finditer_lines``)
_PERCENT_WORDS_20 = ("percent", "per cent", "per\tcent")
# "3% per balance transfer", "5% per transfer", "5% per cash advance"
_PER_EVENT_20 = re.compile(
    rf"(?<![\d.])(?P<pct>{_PCT_20}%)[ \t]+per[ \t]+(?:(?P<bt>(?:balance[ \t-]+)?transfer"
    r"|bt)|(?P<ca>cash[ \t-]+advance|(?:atm[ \t]+)?withdrawal))s?\b"
)
# a duration right after the balance named: "for 15 months", "for a year and a quarter",
# "for the first twenty-one months", "during a year"
_DURATION_20 = (
    r"(?:for|during|over)[ \t]+(?:the[ \t]+)?(?:first[ \t]+)?(?:(?:\d{1,2}|[a-z]+(?:-[a-z]+)?)"
    r"[ \t]+(?:full[ \t]+)?(?:months?|billing[ \t]+cycles?|statement[ \t]+cycles?|mo)\b"
    r"|(?:a|one|1|two|2)[ \t]+(?:full[ \t]+)?years?\b|(?:a|one|two)[ \t]+year[ \t]+and[ \t]+a"
    r"[ \t]+(?:half|quarter)\b|year[ \t]+one\b|(?:first[ \t]+)?year\b)"
)
# "0% on balance transfers for 15 months", "3.99% on transferred balances for twenty-one months"
_BARE_INTRO_20 = re.compile(
    rf"(?<![\d.])(?P<pct>{_PCT_20}%)(?P<on>[ \t]+on[ \t]+(?:(?:new|all|eligible)[ \t]+)?"
    r"(?:balance[ \t-]+transfers?|transferred[ \t]+balances?|transfers|purchases)[ \t]+)"
    + _DURATION_20
)
# "0% on purchases, after which 25.99%-33.99% applies", "0.99 %, then the standard 22.24 %",
# "at 0% before the rate becomes 20.49%": a low rate the go-to rate follows is an intro rate
_THEN_RATE_20 = re.compile(
    r"%(?:[ \t]+on[ \t]+(?:(?:new|all|eligible)[ \t]+)?"
    r"(?:balance[ \t-]+transfers?|transferred[ \t]+balances?|transfers|purchases))?"
    r"(?:[ \t]+(?:at[ \t]+first|initially|to[ \t]+start(?:[ \t]+with)?|up[ \t]+front))?"
    r"[ \t]*,?[ \t]+(?:after[ \t]+which|and[ \t]+then|then|before[ \t]+(?:the[ \t]+rate|it"
    r"|that|your[ \t]+rate|the[ \t]+apr)[ \t]+(?:becomes|goes[ \t]+(?:up[ \t]+)?to|jumps[ \t]+to"
    r"|rises[ \t]+to|reverts[ \t]+to|climbs[ \t]+to|moves[ \t]+to|switches[ \t]+to|resets[ \t]+to"
    r"|is))[ \t]+(?:(?:the|a|your|its)[ \t]+)?(?:(?:standard|regular|usual|ongoing|go-to|normal"
    r"|variable|full)[ \t]+)?(?:(?:rate|apr)[ \t]+(?:of[ \t]+)?)?(?:(?:of|is|at)[ \t]+)?"
    rf"(?P<next>{_PCT_20})[ \t]?%"
)
# reward words before it (not "rewards", "cash" or "miles": words of card names)
# the rate a "%" closes: "0.99 %", "0%"
_PCT_END_20 = re.compile(rf"(?<![\d.])(?P<n>{_PCT_20})[ \t]?$")
_EARN_BEFORE_20 = re.compile(
    r"\b(?:earn|earns|earning|back|points?|bonus|return|returns)\b[^.;:!?\n]{0,20}$"
)
_FEE_BEFORE_20 = re.compile(r"\b(?:fees?|charges?|costs?|minimum|min)\b[^.;:!?\n]{0,25}$")
_REWARD_BEFORE_20 = re.compile(
    r"\b(?:earn|earns|earning|back|cash[ \t]?back|rewards?|points?|bonus|miles|return|returns"
    r"|x)\b[^.;:!?\n]{0,20}$"
)
# "no annual fee whatsoever and 0% on purchases ...": the negation ends before the rate
_NO_FEE_AND_RATE_20 = re.compile(
    r"\b(?:no|zero)[ \t]+(?:[a-z-]+[ \t]+){0,3}?fees?(?:[ \t]+(?:whatsoever|at[ \t]+all))?"
    rf"(?=[ \t]+and[ \t]+{_PCT_20}%)"
)
# "SUB $200 after $1k/3 mo": a sign-up bonus, abbreviated (no fee)
_SUB_20 = re.compile(r"sub(?=[ \t]*:?[ \t]*\$)")
# "no intro purch APR", "0% intro purch 12 mo": purchases, abbreviated
_PURCH_20 = re.compile(r"purchs?\b(?!\.?[ \t]*\w*@)")
# "for a year and a quarter", "a year and three quarters": months (ruleset 10 reads "a year and
# a half" so)
_QUARTERS_20 = re.compile(
    r"\b(?:a|one)[ \t]+year[ \t]+and[ \t]+(?P<q>a[ \t]+quarter|three[ \t]+quarters)\b"
)
# a footnote line: "* first year; $250 after (Card)", "** $0 in year one, then $95"
_NOTE_LINE_20 = re.compile(
    r"(?m)^[ \t]*(?P<marker>\*{1,3}|\u2020{1,2}|\u2021)[ \t]*(?P<body>[^\n]*)"
)
_FIRST_YEAR_20 = re.compile(
    r"\b(?:first|1st)[ \t]+(?:year|yr)\b|\byear[ \t]+(?:one|1)\b|\bintro(?:ductory)?[ \t]+year\b"
)
_DOLLARS_20 = re.compile(r"\$[ \t]?(?P<n>\d{1,4}(?:,\d{3})?(?:\.\d\d)?)(?![\d,])")
# "$0*", "$0**" in a cell or a sentence
_MARKED_FEE_20 = re.compile(r"\$0(?:\.00)?(?P<marker>\*{1,3}|\u2020{1,2}|\u2021)(?![*\u2020])")


# cheap necessary conditions, searched from a literal: a text without them has no match of the
# pattern they guard ("%" and "per" for ``_PER_EVENT_20``, "and <rate>" for
# ``_NO_FEE_AND_RATE_20``)
_PER_GATE_20 = re.compile(r"%[ \t]+per[ \t]")
_AND_RATE_GATE_20 = re.compile(rf"and[ \t]+{_PCT_20}%")


def _word_starts(lower: str, pos: int) -> bool:
    """Whether a word starts at ``pos`` (``\\b`` before a letter, checked after a literal
    search: patterns that open with a literal are found by a fast scan)."""
    return pos == 0 or not (lower[pos - 1].isalnum() or lower[pos - 1] == "_")


def _first_year_notes(text: str) -> dict[str, str]:
    """Footnote markers whose line speaks of the first year and names one non-zero dollar
    amount, to that amount ("$250")."""
    notes: dict[str, str] = {}
    for m in at_line_starts(_NOTE_LINE_20, text):
        body = m.group("body")
        if _FIRST_YEAR_20.search(body.lower()) is None:
            continue
        amounts = {
            d.group("n").replace(",", "")
            for d in _DOLLARS_20.finditer(body)
            if float(d.group("n").replace(",", "")) > 0
        }
        marker = m.group("marker")
        if len(amounts) != 1 or marker in notes:
            notes[marker] = ""  # two notes for one marker, or no single amount: no one's
            continue
        notes[marker] = f"${amounts.pop()}"
    return {k: v for k, v in notes.items() if v}


def percent_20(norm: NormalizedText) -> NormalizedText:
    """``norm`` with "N percent" as "N%" (module docstring), before any other reading."""
    if "cent" not in norm.lower:
        return norm
    found = [
        (m.start(), m.end(), f"{m.group('n')}%")
        for m in finditer_lines(_PERCENT_WORD_20, _PERCENT_WORDS_20, norm.lower)
    ]
    return apply_first_replacements(norm, found) if found else norm


def rewrite_20(norm: NormalizedText) -> NormalizedText:
    """``norm`` with "3% per balance transfer" as "3% balance transfer fee", a comma after a
    negated fee followed by "and <rate>", "SUB $200" as a sign-up bonus, a bare rate on a
    balance with a duration as an intro APR, "purch" as "purchases", a year and a quarter in
    months and a "$0*" first-year footnote spelled out (module docstring); the map back keeps
    spans quoting what was written."""
    lower = norm.lower
    found: list[tuple[int, int, str]] = []
    if "per " in lower and _PER_GATE_20.search(lower) is not None:
        for m in _PER_EVENT_20.finditer(lower):
            kind = "balance transfer fee" if m.group("bt") else "cash advance fee"
            found.append((m.start(), m.end(), f"{m.group('pct')} {kind}"))
    if "% on " in lower:
        for m in _BARE_INTRO_20.finditer(lower):
            if _REWARD_BEFORE_20.search(lower, max(0, m.start() - 40), m.start()) is None:
                if lower.startswith(", ", m.start() - 2):
                    # the fee listed before it does not type it: a clause of its own
                    found.append((m.start() - 2, m.start() - 1, ";"))
                found.append((m.end("pct"), m.end("pct"), " intro APR"))
    if "%" in lower and ("then" in lower or "after which" in lower or "before" in lower):
        # searched from the literal "%" the rate ends with, its number read before it
        for m in _THEN_RATE_20.finditer(lower):
            num = _PCT_END_20.search(lower, max(0, m.start() - 7), m.start())
            if num is None:
                continue
            rate, start, end = float(num.group("n")), num.start(), m.start() + 1
            if rate >= float(m.group("next")) or float(m.group("next")) < 10.0:
                continue  # an intro rate is below the go-to rate that follows it
            before = max(0, start - 40)
            if (
                _EARN_BEFORE_20.search(lower, before, start) is None
                and _FEE_BEFORE_20.search(lower, before, start) is None
            ):
                found.append((end, end, " intro APR"))
    if "fee" in lower and " and " in lower and _AND_RATE_GATE_20.search(lower) is not None:
        found += [(m.end(), m.end(), ",") for m in _NO_FEE_AND_RATE_20.finditer(lower)]
    if "sub" in lower:
        found += [
            (m.start(), m.end(), "sign-up bonus")
            for m in _SUB_20.finditer(lower)
            if _word_starts(lower, m.start())
        ]
    if "purch" in lower:
        found += [
            (m.start(), m.end(), "purchases")
            for m in _PURCH_20.finditer(lower)
            if _word_starts(lower, m.start())
        ]
    if "quarter" in lower:
        for m in _QUARTERS_20.finditer(lower):
            months = "15 months" if m.group("q").startswith("a") else "21 months"
            found.append((m.start(), m.end(), months))
    text = norm.text
    if "$0" in text and any(ch in text for ch in "*\u2020\u2021"):
        notes = _first_year_notes(text)
        if notes:
            for m in _MARKED_FEE_20.finditer(text):
                after = notes.get(m.group("marker"))
                line_start = text.rfind("\n", 0, m.start()) + 1
                if after and _NOTE_LINE_20.match(text, line_start) is None:
                    found.append((m.start(), m.end(), f"$0 the first year, then {after}"))
    if not found:
        return norm
    return apply_first_replacements(norm, found)


# == claims =======================================================================================

_MARKUP_20 = " \t\n*_#>-•|"
# a quantified generic subject, after a short label ("Footnote for the pedants:") or a condition
_QUANTIFIED_20 = re.compile(
    r"(?:[^:.!?\n]{0,40}:[ \t]*)?(?:(?:if|when|for|in|generally|typically|usually|in[ \t]+general"
    r"|by[ \t]+comparison)[^,.;:!?\n]{0,60},[ \t]*)?(?:most|many|some|several|nearly[ \t]+all"
    r"|almost[ \t]+all|all|other|lots[ \t]+of|plenty[ \t]+of|the[ \t]+(?:typical|average|usual))"
    r"[ \t]+(?:[\w-]+[ \t]+){0,2}?(?:issuers|banks|lenders|cards|card[ \t]+issuers|providers"
    r"|credit[ \t]+unions|companies)\b"
)
_LOOSE_BINDINGS_20 = frozenset({"context", "only"})


def _generic_reading(extraction: Extraction, loose: list[int]) -> list[tuple[int, int]]:
    """The units that name no card and open with a quantified generic subject (only those
    holding one of the ``loose`` claim starts, sorted, are read: no other unit's reading
    matters)."""
    out = []
    named = [m.start for m in extraction.mentions]
    masked = extraction.masked
    for a, b in extraction.units:
        i = bisect_left(loose, a)
        if i == len(loose) or loose[i] >= b:
            continue
        j = bisect_right(named, a - 1)
        if j < len(named) and named[j] < b:
            continue
        body = masked[a:b].strip(_MARKUP_20)
        if _QUANTIFIED_20.match(body) is not None:
            out.append((a, b))
    return out


# -- a customer's chat turn the bot corrects ------------------------------------------------------

_CUSTOMER_TURN_20 = re.compile(
    r"(?m)^[ \t>]{0,4}(?:\*\*|__)?(?:caller|you|visitor|asker|customer|user|client|human|member"
    r"|cardholder|me|q)(?:\*\*|__)?[ \t]?:(?:\*\*|__)?"
)
_BOT_TURN_20 = re.compile(
    r"(?m)^[ \t>]{0,4}(?:\*\*|__)?(?:(?:voice|virtual|ai)[ \t]+assistant|assistant|agent|bot"
    r"|ai|advisor|adviser|support|rep|representative|banker|a)(?:\*\*|__)?[ \t]?:(?:\*\*|__)?"
)
# the answer opens with a correction
_CORRECTS_20 = re.compile(
    r"[ \t]*(?:not[ \t]+quite|not[ \t]+exactly|not[ \t]+so|small[ \t]+correction|correction"
    r"|quick[ \t]+correction|actually|that(?:'s|[ \t]+is)[ \t]+(?:not[ \t]+(?:right|correct"
    r"|accurate)|(?:out[ \t]+of[ \t]+date|outdated|incorrect|wrong|old))|that[ \t]+(?:figure"
    r"|number|rate|info(?:rmation)?)[ \t]+(?:is|was|'s)[ \t]+(?:out[ \t]+of[ \t]+date|outdated"
    r"|wrong|incorrect|old|not[ \t]+right)|close,?[ \t]+but|no\b|nope\b|i'm[ \t]+afraid[ \t]+not"
    r"|unfortunately[ \t]+not)"
)
_TURN_REACH_20 = 1000


def _corrected_turns(masked: str) -> list[tuple[int, int]]:
    """Each customer's turn (up to the turn that answers it, 1,000 characters at most) whose
    answer opens with a correction."""
    if ":" not in masked:
        return []
    # every turn's label ends in a colon on its line
    turns = list(line_starts_holding(masked, ":"))
    replies = [(m.start(), m.end()) for m in finditer_from(_BOT_TURN_20, masked, turns)]
    starts = [a for a, _ in replies]
    out = []
    for m in finditer_from(_CUSTOMER_TURN_20, masked, turns):
        k = bisect_right(starts, m.end())
        if k >= len(replies):
            continue
        a, b = replies[k]
        if a - m.start() > _TURN_REACH_20:
            continue
        if _CORRECTS_20.match(masked, b) is not None:
            out.append((m.start(), a))
    return out


def revise_20(extraction: Extraction, generic: bool, turns: bool) -> Extraction:
    """The extraction with the figures of units about cards in general (``generic``) and of
    customers' turns the bot corrects (``turns``) unbound when only context bound them (module
    docstring)."""
    if not extraction.claims or not extraction.units:
        return extraction
    loose = sorted(
        c.start for c in extraction.claims if c.cards and c.binding in _LOOSE_BINDINGS_20
    )
    if not loose:
        return extraction  # nothing only context bound: nothing to unbind
    spans: list[tuple[int, int]] = []
    if generic:
        spans += _generic_reading(extraction, loose)
    if turns:
        spans += _corrected_turns(extraction.masked)
    if not spans:
        return extraction
    index = SpanIndex(spans)

    def unanchored(claim: Claim, _masked: str) -> bool:
        return claim.binding in _LOOSE_BINDINGS_20 and index.holding(claim.start) is not None

    return unbind_claims(extraction, [unanchored])


# == options ======================================================================================

# a rated heading: "**card** ★★★★☆ 4/5", "### 2. card  ★★★★☆ (4/5)", "2) card — ★★★★½"
_RATED_HEAD_20 = re.compile(
    r"[ \t]*(?:#{1,6}[ \t]+)?(?:(?:\*\*|__)[ \t]*)?(?:\d{1,2}[.)][ \t]+)?(?:\*\*|__)?[ \t]*"
    r"(?:the[ \t]+)?$"
)
_RATED_TAIL_20 = re.compile(
    r"[ \t]*(?:\*\*|__)?[ \t]*(?:[-:|,\u2014\u2013][ \t]*)?\(?(?:[\u2605\u2606\u00bd]{3,6}"
    r"(?:[ \t]*\(?\d(?:\.\d)?[ \t]*/[ \t]*5\)?)?|\d(?:\.\d)?[ \t]*/[ \t]*5)\)?[ \t]*(?:\*\*|__)?"
    r"[ \t]*$"
)
_HEAD_REACH_20 = 40


def _rated_heading(masked: str, m: NameMention, a: int, b: int) -> bool:
    """Whether the mention (on the line ``[a, b)``) opens a rated heading (module docstring)."""
    return (
        m.start - a <= _HEAD_REACH_20
        and b - m.end <= _HEAD_REACH_20
        and _RATED_HEAD_20.fullmatch(masked, a, m.start) is not None
        and _RATED_TAIL_20.fullmatch(masked, m.end, b) is not None
    )


_BLANK_LINE_20 = re.compile(r"\n[ \t]*\n")
_BLOCK_REACH_20 = 800


def _block_end(masked: str, line_end: int) -> int:
    """The end of a rated heading's block: its pros and cons, up to the next blank line (800
    characters at most)."""
    stop = min(len(masked), line_end + _BLOCK_REACH_20)
    blank = _BLANK_LINE_20.search(masked, line_end, stop)
    return blank.start() if blank else stop


def options_20(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """Ruleset 19's options, plus the cards of rated headings (module docstring), ruled out as
    ruleset 19 rules out its options: anywhere in the response, in the heading's block or in
    the list's lead; a heading's block runs to the next blank line. ``masked``: the lower-case
    text with card names as "#" runs."""
    from replicas.verifiers.compliance.recommend import Recommendations

    recs = options_19(masked, extraction, recs)
    if "/5" not in masked and "\u2605" not in masked:
        return recs
    mentions = [m for m in extraction.mentions if m.card_id is not None and m.kind != AMBIGUOUS]
    lines = Lines19(masked)
    by_line: dict[tuple[int, int], list[NameMention]] = {}
    for m in mentions:
        by_line.setdefault(lines.of(m.start), []).append(m)
    ruled: set[str] = set(recs.negated)
    for (a, b), named in by_line.items():
        only = {m.card_id for m in named if m.card_id is not None}
        if len(only) == 1 and rules_out_19(masked, a, b):
            ruled |= only
    positive = dict(recs.positive)
    changed = False
    for (a, b), named in by_line.items():
        for m in named:
            card_id = m.card_id
            assert card_id is not None
            if card_id in positive or card_id in ruled or not _rated_heading(masked, m, a, b):
                continue
            if rules_out_19(masked, a, _block_end(masked, b)):
                continue
            lead = lead_of_19(masked, a)
            if lead and rules_out_19(lead, 0, len(lead)):
                continue
            positive[card_id] = m
            changed = True
    return Recommendations(positive, recs.negated) if changed else recs


# == picks ========================================================================================

# "Number one for me: X", "My number one: X", "Top of my list: X", "#1 for you - X"
_PICK_BEFORE_20 = re.compile(
    r"(?:\b(?:number[ \t]+one|no\.?[ \t]?1|top[ \t]+of[ \t]+(?:my|the)[ \t]+list|top[ \t]+spot"
    r"|first[ \t]+place|first[ \t]+pick|my[ \t]+#?1)|#1)(?:[ \t]+(?:for|from)[ \t]+(?:me|you"
    r"|your[ \t]+needs))?[ \t]*(?:[:\u2014\u2013]|[ \t]-|,)[ \t]*(?:the[ \t]+)?$"
)
# "X ticks most of your boxes", "X checks all the boxes for you", "X is my number one"
_PICK_AFTER_20 = re.compile(
    r"[ \t]+(?:(?:ticks|checks|hits)[ \t]+(?:most|all|nearly[ \t]+all|almost[ \t]+all|every"
    r"|the[ \t]+most)[ \t]+(?:of[ \t]+)?(?:your|the|my)?[ \t]*boxes\b|is[ \t]+my[ \t]+(?:number"
    r"[ \t]+one|no\.?[ \t]?1|#1)\b)"
)
_PICK_REACH_20 = 60
# literals one of which every "Number one for me:" lead holds
_PICK_LEADS_20 = ("number", "no.", "no 1", "no\t1", "no1", "#1", "top", "first", "my 1", "my\t1")


def picks_20(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """``recs`` with the card of "Number one for me: X" and "X ticks most of your boxes"
    recommended, unless its line rules it out or it is ruled out already (``masked``: the
    lower-case text with card names as "#" runs)."""
    from replicas.verifiers.compliance.recommend import Recommendations

    lead = any(w in masked for w in _PICK_LEADS_20)
    tail = "boxes" in masked or "is my" in masked
    if not lead and not tail:
        return recs
    positive = dict(recs.positive)
    changed = False
    lines: Lines19 | None = None
    for m in extraction.mentions:
        card_id = m.card_id
        if card_id is None or m.kind == AMBIGUOUS or card_id in positive:
            continue
        if card_id in recs.negated:
            continue
        before = lead and (
            _PICK_BEFORE_20.search(masked, max(0, m.start - _PICK_REACH_20), m.start) is not None
        )
        if not before and not (tail and _PICK_AFTER_20.match(masked, m.end) is not None):
            continue
        lines = lines or Lines19(masked)
        a, b = lines.of(m.start)
        if rules_out_19(masked, a, b):
            continue
        positive[card_id] = m
        changed = True
    return Recommendations(positive, recs.negated) if changed else recs


# == penalty APRs =================================================================================

# a rate its own words call the penalty APR: "27.99% penalty APR", "penalty APR of 27.99%",
# "the penalty rate is 27.99%"
_PENALTY_AFTER_20 = re.compile(r"[ \t]*(?:variable[ \t]+)?penalty[ \t]+(?:apr|rate)\b")
_PENALTY_BEFORE_20 = re.compile(
    r"\bpenalty[ \t]+(?:apr|rate|interest(?:[ \t]+rate)?)[ \t]*(?:of|is|at|:|=|-|runs|goes"
    r"[ \t]+up[ \t]+to|jumps[ \t]+to|can[ \t]+(?:reach|hit|go[ \t]+to))?[ \t]*(?:up[ \t]+to"
    r"[ \t]+)?$"
)


def penalty_findings_20(
    catalog: Catalog, extraction: Extraction, findings: list[Finding], tally: Tally
) -> list[Finding]:
    """Findings for a single rate that its own words call the penalty APR ("27.99% penalty
    APR") of one card that has a penalty APR, when it is not that APR: ruleset 19 passed any
    rate of the card (27.99% was its cash advance APR). The rate is counted once more in the
    APR objective."""
    if "penalty" not in extraction.masked:
        return findings
    return own_rate_findings(
        catalog,
        extraction,
        findings,
        tally,
        kind="penalty",
        label="penalty APR",
        after=_PENALTY_AFTER_20,
        before=_PENALTY_BEFORE_20,
        window=50,
    )


__all__ = [
    "options_20",
    "penalty_findings_20",
    "percent_20",
    "picks_20",
    "revise_20",
    "rewrite_20",
]

#: For ``ruleset20b``'s attributions (the same word-start test).
word_starts = _word_starts
