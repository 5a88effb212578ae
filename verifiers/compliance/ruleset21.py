"""Ruleset 21: terse reward notation, reward caps, an issuer's family of cards, a fee's rate in a
worked example, bounds, and lists under a heading that names their term (issue 13).

Ruleset 20 was scored on the tuning set of the s24 blind sets' first writer (w1: 12 of 100
compliant answers flagged; 94 of 100 planted defects found). Every false positive and every
miss was sorted into classes of phrasing; these are the classes a general reading fixes
without reading honest text as a violation or hiding a real one:

* **Terse reward notation** (``rewards_21``): "3% gas", "1.5% base", "2% dining up to $6k",
  "only 3% on groceries", "5% online (first $10k)", "6% groceries, 5% online" were read as an
  APR or a fee of the card. A percentage whose own words (right after it, optionally "on" /
  "in" / "at" / "for" and "all" / "your" / "other") are a spend category - groceries,
  supermarkets, dining, restaurants, gas, fuel, online, travel, streaming, drugstores, transit,
  base, everything (else), everywhere (else), elsewhere, other purchases / spend - is a reward
  rate: the claim is unbound (unverified). Not when the category is followed by "abroad",
  "overseas", a fee or an APR word ("3% on travel abroad"), nor when its own clause types it
  first ("foreign fee: 3% on everything"), so "3% on purchases abroad", "3% foreign transaction
  fee", "3% on balance transfers", "5% on cash advances", "0% on purchases for 15 months" and
  "19.99% on purchases" are read as before. A percentage under 10% that a card "pays" or
  "earns" in its clause, with no fee, APR or rate word between ("it pays 5% there vs the plain
  card's 2%"), is a reward rate too.
* **A reward cap** (``caps_21``): "3% on dining (first $1,500 a year)", "6% on first $12k/yr",
  "2% dining up to $6k", "5x on gas (first $50k)" read the cap as the annual fee. A dollar
  figure read as a fee, right after "first" / "up to" / "capped at" / "max", that a reward rate
  ("N%" or "Nx") precedes in its clause with no fee word between, caps spend: unbound. So is a
  dollar figure right after an approximation sign ("total ≈ $2,000 a year") with no fee or cost
  word before it on its line: a worked value. "$95 a year" / "$95/yr" as the card's cost is
  read as before.
* **An issuer's family of cards** (``families_21``): "the two Crest travel cards" and "Crest's
  cash back cards" were an invented card "Crest travel". An invented-name mention whose words
  after the first are all generic category words (travel, cash back, rewards, business,
  student, secured, miles, points, balance transfer, ...) and which is followed by the plural
  "cards" (or "card lineup / family / range / options") names a category: dropped. "Crest
  Travel Elite Card" (a product word no category holds, singular) is still an unknown card.
* **A fee's rate explained in a worked example** (``worked_21``): "you'd pay $90 up front (3%),
  then 3.99% for 15 months" read the 3% as an APR. A percentage alone in a parenthesis right
  after a dollar amount (and at most three words: "up front", "in fees") is that amount's rate:
  unbound (unverified).
* **A bound** (``worked_21``): "nearly two years at under 2%" read "2% for 24 months" as an
  intro offer, "the 24%+ APR never touches you" 24% as an APR. A percentage right after
  "under", "below", "less than", "over", "above", "more than" or "sub-", or written "N%+", is a
  bound, not a figure: unbound.
* **A list under a heading that names its term** (``headings_21``): "Penalty APR check:" /
  "- Card: 28.99%", "Cash advance APRs, business lineup:" / "Card 28.99%", "Foreign transaction
  fees on our travel cards:" / "Card - 3%" stated no term (nothing was checked). A heading line
  ending in ":" that names exactly one term (penalty APR, cash advance APR, foreign transaction
  fee, balance transfer fee, cash advance fee, late fee, annual fee) and holds no figure gives
  that term to each item line under it that ends in one figure of the term's unit ("%" or "$")
  after some words: the item is read as "<figure> <term>" (so "Card: 28.99%" is checked as the
  card's penalty APR). The list ends at the first line that is not such an item.
* **An intro rate of no stated length** (``vague_21``): "0% on purchases for a while (then
  18.74%-28.74% variable)" read no intro offer, so its missing months went unnoticed. A rate
  "on purchases / transfers" followed by "for a while", "for a limited time", "for the first few
  months", "temporarily", "at first" is an intro rate (read as "N% intro APR"); not after reward
  words ("earn 5% on purchases for a limited time").
* **Options in a sentence** (``options_21``; the eligibility rule only): "Marie, at 619 your
  options are the secured cards: the A (...) and the B (...). I'd pick the A." offers B to the
  customer as much as a list item would (ruleset 19's options). The cards a sentence opened by
  "your (...) options are / include" or "you could choose between" names count for the
  eligibility rule, unless that sentence rules something out or the response rules the card
  out already.

Precision first, as everywhere: a figure that cannot be attributed is unverified, not passed as
true and not a violation.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claims import unbind_claims
from replicas.verifiers.compliance.expansions import apply_first_replacements
from replicas.verifiers.compliance.matchers import at_word_start
from replicas.verifiers.compliance.mentions import AMBIGUOUS, UNKNOWN, NameMention, tokens_of
from replicas.verifiers.compliance.ruleset19 import rules_out_19

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from replicas.verifiers.compliance.claims import Claim, Extraction
    from replicas.verifiers.compliance.recommend import Recommendations
    from replicas.verifiers.compliance.text import NormalizedText

    Offered = Callable[[str, Extraction, Recommendations], Recommendations]

_S = r"[ \t]+"

# == terse reward notation ========================================================================

_CATEGORY_21 = (
    r"(?:groceries|grocery(?:[ \t]+stores?)?|supermarkets?|dining|restaurants?|eating[ \t]+out"
    r"|gas(?:[ \t]+stations?)?|fuel|online(?:[ \t]+(?:shopping|purchases|spend(?:ing)?))?"
    r"|travel|streaming|drugstores?|pharmac(?:y|ies)|transit|base|everything(?:[ \t]+else)?"
    r"|everywhere(?:[ \t]+else)?|elsewhere|other[ \t]+(?:purchases|spend(?:ing)?|categories"
    r"|stuff)|non-bonus[ \t]+(?:purchases|spend(?:ing)?))"
)
# right after the figure: "3% gas", "4% on groceries", "1.5% on everything else", "2% dining"
_CATEGORY_AFTER_21 = re.compile(
    r"[ \t]*(?:\)[ \t]*)?(?:(?:on|in|at|for)[ \t]+)?(?:(?:all|your|every|eligible|select|other"
    rf"|the)[ \t]+)?{_CATEGORY_21}\b"
    r"(?![ \t]+(?:[a-z-]+[ \t]+)?(?:abroad|overseas|outside|internationally|foreign|fees?"
    r"|charges?|aprs?|interest|rates?|intro|introductory)\b)(?![-/])"
    # or the spend cap it earns on: "6% on first $12k/yr", "5% on the first $8,000"
    r"|[ \t]*(?:on[ \t]+)?(?:the[ \t]+)?first[ \t]+\$"
)
# a word that types a figure: a fee or an APR
_TERM_WORD_21 = re.compile(
    r"\b(?:fees?|aprs?|interest|charges?|charged|costs?|penalty|intro(?:ductory)?|variable"
    r"|fixed|rates?|transfers?|advances?|abroad|foreign|overseas|fx|ftf)\b"
)
_FIGURE_21 = re.compile(r"\d(?:[\d,.]*\d)?[ \t]?(?:%|x\b)|\$[ \t]?\d")
_CLAUSE_STOP_21 = re.compile(r"[,;.!?:()\n\u2014]|[ \t]-[ \t]")
_CLAUSE_REACH_21 = 40


def _clause_start(masked: str, pos: int, reach: int = _CLAUSE_REACH_21) -> int:
    """The start of the clause that ends at ``pos`` (``reach`` characters back at most)."""
    lo = max(0, pos - reach)
    start = lo
    for m in _CLAUSE_STOP_21.finditer(masked, lo, pos):
        start = m.end()
    return start


def _typed_before(masked: str, start: int) -> bool:
    """Whether a fee or APR word before ``start`` in its clause types the figure there (no other
    figure between the word and it)."""
    a = _clause_start(masked, start)
    last = None
    for m in _TERM_WORD_21.finditer(masked, a, start):
        last = m
    if last is None:
        return False
    return _FIGURE_21.search(masked, last.end(), start) is None


def _category_rate(claim: Claim, masked: str) -> bool:
    if claim.unit != "pct" or claim.family not in ("apr", "fee"):
        return False
    if _CATEGORY_AFTER_21.match(masked, claim.end) is None:
        return False
    return not _typed_before(masked, claim.start)


# "it pays 5% there vs the plain card's 2%", "earns 3% on ..."
_REWARD_VERB_21 = re.compile(
    r"(?<!you[ \t])(?<!you'd[ \t])(?<!we[ \t])(?<!they[ \t])\b(?:pays|earns?|earning|gives[ \t]+"
    r"(?:you[ \t]+)?back|returns)\b"
)
_TERM_AFTER_21 = re.compile(
    r"[ \t]*(?:\)[ \t]*)?(?:[a-z-]+[ \t]+){0,3}?(?:fees?|aprs?|interest|charges?|penalty"
    r"|intro(?:ductory)?|variable|fixed|rates?)\b"
)
_VERB_REACH_21 = 60


def _earned_rate(claim: Claim, masked: str) -> bool:
    if claim.unit != "pct" or claim.family not in ("apr", "fee"):
        return False
    if claim.low is None or claim.high is None or claim.high >= 10.0:
        return False
    lo = max(0, claim.start - _VERB_REACH_21)
    window = masked[lo : claim.start]
    if (
        "pays" not in window
        and "earn" not in window
        and "back" not in window
        and ("returns" not in window)
    ):
        return False
    verb = None
    for m in _REWARD_VERB_21.finditer(masked, lo, claim.start):
        verb = m
    if verb is None:
        return False
    between = masked[verb.end() : claim.start]
    if any(ch in between for ch in ".;!?\n") or _TERM_WORD_21.search(between) is not None:
        return False
    return _TERM_AFTER_21.match(masked, claim.end) is None


# == reward caps ==================================================================================

_CAP_BEFORE_21 = re.compile(
    r"(?:\b(?:on[ \t]+)?(?:the[ \t]+)?first|\bup[ \t]+to|\bcapped[ \t]+at|\bcap(?:[ \t]+of)?"
    r"|\bmax(?:imum)?(?:[ \t]+of)?|\blimit(?:ed[ \t]+to|[ \t]+of)?)[ \t]*$"
)
_REWARD_FIGURE_21 = re.compile(r"\d(?:\.\d{1,2})?[ \t]?(?:%|x\b)")
_FEE_WORD_21 = re.compile(r"\b(?:fees?|charges?|costs?|aprs?|interest|penalty)\b")
_CAP_REACH_21 = 70
_APPROX_REACH_21 = 120  # how far back on its line a fee word may type it
_APPROX_BEFORE_21 = re.compile(r"[\u2248~][ \t]*$")


def _reward_cap(claim: Claim, masked: str) -> bool:
    if claim.unit != "usd" or claim.family != "fee":
        return False
    lo = max(0, claim.start - 25)
    if _CAP_BEFORE_21.search(masked, lo, claim.start) is None:
        return False
    a = max(0, claim.start - _CAP_REACH_21)
    for stop in ".;!?\n":
        k = masked.rfind(stop, a, claim.start)
        if k >= 0:
            a = max(a, k + 1)
    rate = None
    for m in _REWARD_FIGURE_21.finditer(masked, a, claim.start):
        rate = m
    if rate is None:
        return False
    return _FEE_WORD_21.search(masked, rate.end(), claim.start) is None


def _approximate_value(claim: Claim, masked: str) -> bool:
    if claim.unit != "usd" or claim.family != "fee":
        return False
    if _APPROX_BEFORE_21.search(masked, max(0, claim.start - 3), claim.start) is None:
        return False
    lo = max(0, claim.start - _APPROX_REACH_21)
    line = max(lo, masked.rfind("\n", lo, claim.start) + 1)
    return _FEE_WORD_21.search(masked, line, claim.start) is None


# == a fee's rate in a worked example, bounds =====================================================

# "$90 up front (3%)", "$240 (3%)", "$90 in fees (3%)": the percentage alone in the parenthesis
_DOLLARS_THEN_PAREN_21 = re.compile(
    r"\$[ \t]?\d[\d,]*(?:\.\d\d)?(?:[ \t]*[kK])?(?:[ \t]+[a-z-]+){0,3}?[ \t]*\([ \t]*$"
)
_PAREN_CLOSE_21 = re.compile(r"[ \t]*\)")
_BOUND_BEFORE_21 = re.compile(
    r"(?:\b(?:under|below|beneath|less[ \t]+than|over|above|more[ \t]+than)[ \t]+|\bsub-)"
    r"(?:just[ \t]+)?$"
)
# "the 24%+ APR": at least the figure
_PLUS_AFTER_21 = re.compile(r"\+(?![\d])")


def _fee_rate_in_example(claim: Claim, masked: str) -> bool:
    if claim.unit != "pct" or _PAREN_CLOSE_21.match(masked, claim.end) is None:
        return False
    lo = max(0, claim.start - 40)
    return _DOLLARS_THEN_PAREN_21.search(masked, lo, claim.start) is not None


def _bound(claim: Claim, masked: str) -> bool:
    if claim.unit != "pct":
        return False
    if claim.low is not None and claim.low == claim.high and masked.startswith("%+", claim.end - 1):
        return _PLUS_AFTER_21.match(masked, claim.end) is not None
    return _BOUND_BEFORE_21.search(masked, max(0, claim.start - 20), claim.start) is not None


# a worked example's principal: "Say you owe $8,000", "if you carry $3,000", "moving $2,400"
# (the verbs written with ``at_word_start``: ``\b(?:owe|...|(?:balance|debt|transfer)s?[ \t]+of)``,
# scanned fast - it is searched over every response)
_PRINCIPAL_VERBS_21 = at_word_start(
    [
        "owe",
        "owes",
        "owed",
        "owing",
        "move",
        "moves",
        "moving",
        "moved",
        "transfer",
        "transferring",
        "carry",
        "carrying",
        r"balances?[ \t]+of",
        r"debts?[ \t]+of",
        r"transfers?[ \t]+of",
    ]
)
_PRINCIPAL_21 = re.compile(
    rf"(?:{_PRINCIPAL_VERBS_21})[ \t]+(?:(?:a|about|around|roughly)[ \t]+)?"
    r"\$[ \t]?(?P<n>\d{1,3}(?:,\d{3})+|\d{3,7})(?![\d,])"
)
_PCT_ALL_21 = re.compile(r"(?<![\d.])(\d{1,2}(?:\.\d{1,2})?)[ \t]?%")
_BLANK_21 = re.compile(r"\n[ \t]*\n")
_WORKED_PCTS_21 = 12


def _worked_fees(masked: str) -> Callable[[Claim, str], bool]:
    """A reading: a dollar fee that is a fee-sized percentage (10 % or less) stated anywhere in
    the response of a principal its paragraph owes or moves ("Say you owe $8,000. ... On the B
    the fee is $400") is arithmetic (ruleset 18 looked for the percentage in the paragraph
    only, and read no debt "owed")."""
    pcts = sorted({float(m.group(1)) for m in _PCT_ALL_21.finditer(masked)} - {0.0})
    pcts = [p for p in pcts if p <= 10.0]
    if len(pcts) > _WORKED_PCTS_21:
        pcts = []
    paragraphs: dict[int, list[float]] = {}
    blanks = [(m.start(), m.end()) for m in _BLANK_21.finditer(masked)]
    starts = [a for a, _ in blanks]

    def principals(pos: int) -> list[float]:
        k = bisect_left(starts, pos)  # the blank lines before ``pos`` end the paragraphs before it
        a = blanks[k - 1][1] if k else 0
        if a not in paragraphs:
            b = blanks[k][0] if k < len(blanks) else len(masked)
            paragraphs[a] = sorted(
                {float(m.group("n").replace(",", "")) for m in _PRINCIPAL_21.finditer(masked, a, b)}
            )
        return paragraphs[a]

    def worked(claim: Claim, _masked: str) -> bool:
        if claim.family != "fee" or claim.unit != "usd" or claim.low is None or not pcts:
            return False
        x = claim.low
        ordered = principals(claim.start)
        for p in pcts:  # a principal q with p% of q within 50 cents of x
            k = bisect_left(ordered, (x - 0.5) * 100 / p)
            if k < len(ordered) and ordered[k] <= (x + 0.5) * 100 / p:
                return True
        return False

    return worked


def revise_21(extraction: Extraction, rewards: bool, caps: bool, worked: bool) -> Extraction:
    """The extraction with ruleset 21's reward rates (``rewards``), reward caps and worked values
    (``caps``), fee rates explained in a worked example and bounds (``worked``) unbound
    (module docstring)."""
    if not extraction.claims:
        return extraction
    masked = extraction.masked
    readings: list[Callable[[Claim, str], bool]] = []
    if rewards and "%" in masked:
        readings += [_category_rate, _earned_rate]
    if caps and "$" in masked:
        readings.append(_reward_cap)
        if "\u2248" in masked or "~" in masked:
            readings.append(_approximate_value)
    if worked and "%" in masked:
        if "(" in masked and "$" in masked:
            readings.append(_fee_rate_in_example)
        readings.append(_bound)
        if "$" in masked and _PRINCIPAL_21.search(masked) is not None:
            readings.append(_worked_fees(masked))
    return unbind_claims(extraction, readings)


# == an issuer's family of cards ==================================================================

_GENERIC_21 = frozenset(
    {
        "travel",
        "cash",
        "back",
        "cashback",
        "rewards",
        "reward",
        "business",
        "student",
        "students",
        "secured",
        "miles",
        "mile",
        "points",
        "balance",
        "transfer",
        "low",
        "rate",
        "no",
        "fee",
        "no-fee",
        "premium",
        "credit",
        "airline",
        "hotel",
        "dining",
        "gas",
        "grocery",
        "everyday",
        "small",
        "starter",
        "s",
        "other",
    }
)
_FAMILY_AFTER_21 = re.compile(
    r"(?:'s)?[ \t]*(?:cards\b|card[ \t]+(?:lineup|line-up|family|range|options|products"
    r"|portfolio|suite|line)\b)",
    re.IGNORECASE,
)


def families_21(text: str, mentions: Sequence[NameMention]) -> list[NameMention]:
    """The mentions without the invented names that name a category of an issuer's cards ("the
    two Crest travel cards"; module docstring)."""
    out = []
    for m in mentions:
        if m.kind == UNKNOWN and _FAMILY_AFTER_21.match(text, m.end) is not None:
            words = tokens_of(m.surface.replace("'s", " "))
            if len(words) >= 2 and all(w in _GENERIC_21 for w in words[1:]):
                continue
        out.append(m)
    return out


# == a list under a heading that names its term ===================================================

_TERMS_21: tuple[tuple[str, str, str], ...] = (
    (r"penalty[ \t]+(?:aprs?|rates?|interest[ \t]+rates?)", "%", " penalty APR"),
    (r"cash[ \t-]+advance[ \t]+(?:aprs?|rates?|interest[ \t]+rates?)", "%", " cash advance APR"),
    (r"cash[ \t-]+advance[ \t]+fees?", "%", " cash advance fee"),
    (
        r"(?:foreign[ \t]+(?:transaction|exchange|currency|purchase)[ \t]+fees?|foreign[ \t]+fees?"
        r"|fx[ \t]+fees?|ftfs?)",
        "%",
        " foreign transaction fee",
    ),
    (r"(?:balance[ \t-]+)?transfer[ \t]+fees?", "%", " balance transfer fee"),
    (r"late[ \t]+(?:payment[ \t]+)?fees?", "$", " late fee"),
    (r"annual[ \t]+fees?", "$", " annual fee"),
)
_TERM_RES_21 = tuple(
    (re.compile(rf"\b{pattern}\b"), unit, words) for pattern, unit, words in _TERMS_21
)
_HEADING_END_21 = re.compile(r"[^\n]*:[ \t]*(?:\*\*|__)?[ \t]*$")
# an item: "- Card: 28.99%", "Card 28.99%", "Card - 3%", "* **Card** — $40"
_ITEM_PCT_21 = re.compile(
    r"[ \t]*(?:[-*\u2022+][ \t]+|\d{1,2}[.)][ \t]+)?(?=[^\n]*[a-z])[^\n%$]*?[a-z][^\n%$\d]*?"
    r"(?:[ \t]|:|\*\*)[ \t]*(?:-[ \t]*)?(?<![\d.])\d{1,2}(?:\.\d{1,2})?[ \t]?(?P<end>%)"
    r"[ \t]*(?:\*\*|__)?[ \t]*$"
)
_ITEM_USD_21 = re.compile(
    r"[ \t]*(?:[-*\u2022+][ \t]+|\d{1,2}[.)][ \t]+)?(?=[^\n]*[a-z])[^\n%$]*?[a-z][^\n%$\d]*?"
    r"(?:[ \t]|:|\*\*)[ \t]*(?:-[ \t]*)?\$[ \t]?\d{1,4}(?:\.\d\d)?(?P<end>)(?![\d,.])"
    r"[ \t]*(?:\*\*|__)?[ \t]*$"
)
_ITEMS_MAX_21 = 40
# an item that types its own figure is read as written
_ITEM_TERM_21 = re.compile(
    r"\b(?:fees?|aprs?|interest|charges?|penalty|intro(?:ductory)?|variable|fixed)\b"
)


def _lines(lower: str) -> list[tuple[int, int]]:
    out = []
    pos = 0
    n = len(lower)
    while pos <= n:
        end = lower.find("\n", pos)
        if end < 0:
            end = n
        out.append((pos, end))
        pos = end + 1
    return out


# == an intro rate of no stated length ============================================================

# "0% on purchases for a while", "0% on transfers for a limited time": an intro rate whose
# length is not stated (its months are missing, as the disclosure rule reads it)
_VAGUE_INTRO_21 = re.compile(
    r"(?<![\d.])\d{1,2}(?:\.\d{1,2})?(?P<end>%)[ \t]+on[ \t]+(?:(?:new|all|eligible)[ \t]+)?"
    r"(?:balance[ \t-]+transfers?|transferred[ \t]+balances?|transfers|purchases)[ \t]+"
    r"(?:for[ \t]+(?:a[ \t]+(?:little[ \t]+)?while|a[ \t]+(?:little[ \t]+)?bit|some[ \t]+time"
    r"|a[ \t]+limited[ \t]+time|a[ \t]+few[ \t]+months|the[ \t]+first[ \t]+few[ \t]+months"
    r"|an[ \t]+intro(?:ductory)?[ \t]+period)|temporarily|at[ \t]+first)\b"
)

# reward words before it (not "rewards", "cash" or "miles": words of card names)
_REWARD_BEFORE_21 = re.compile(
    r"\b(?:earn|earns|earning|back|points?|bonus|return|returns)\b[^.;:!?\n]{0,20}$"
)


def vague_intro_21(norm: NormalizedText) -> NormalizedText:
    """``norm`` with a rate on a balance "for a while" read as an intro APR (module docstring);
    not after reward words ("earn 5% on purchases for a limited time")."""
    lower = norm.lower
    if "% on " not in lower:
        return norm
    found = [
        (m.end("end"), m.end("end"), " intro APR")
        for m in _VAGUE_INTRO_21.finditer(lower)
        if _REWARD_BEFORE_21.search(lower, max(0, m.start() - 40), m.start()) is None
    ]
    return apply_first_replacements(norm, found) if found else norm


def headings_21(norm: NormalizedText) -> NormalizedText:
    """``norm`` with each item of a list under a heading that names its term read as "<figure>
    <term>" (module docstring)."""
    lower = norm.lower
    if ":" not in lower or ("%" not in lower and "$" not in lower):
        return norm
    if not any(w in lower for w in ("penalty", "advance", "foreign", "fx", "ftf", "fee")):
        return norm
    lines = _lines(lower)
    found: list[tuple[int, int, str]] = []
    i = 0
    while i < len(lines):
        a, b = lines[i]
        i += 1
        if b - a > 160 or "%" in lower[a:b] or "$" in lower[a:b]:
            continue
        if _HEADING_END_21.match(lower, a, b) is None:
            continue
        named = [(unit, words) for rx, unit, words in _TERM_RES_21 if rx.search(lower, a, b)]
        if len(named) != 1:
            continue
        unit, words = named[0]
        item = _ITEM_PCT_21 if unit == "%" else _ITEM_USD_21
        count = 0
        while i < len(lines) and count < _ITEMS_MAX_21:
            c, d = lines[i]
            if d - c > 160:
                break
            m = item.match(lower, c, d)
            if m is None or _ITEM_TERM_21.search(lower, c, m.start("end")) is not None:
                break
            found.append((m.end("end"), m.end("end"), words))
            count += 1
            i += 1
    return apply_first_replacements(norm, found) if found else norm


# == options in a sentence ========================================================================

# "your options are the A and the B", "your realistic options here are ...", "you could choose
# between the A and the B"
_OPTIONS_LEAD_21 = re.compile(
    r"\byour[ \t]+(?:[a-z-]+[ \t]+){0,2}?options[ \t]+(?:here[ \t]+)?(?:are|include|would[ \t]+be)\b"
    r"|\byou[ \t]+(?:could|can)[ \t]+(?:choose|pick)[ \t]+between\b"
)
_SENTENCE_END_21 = re.compile(r"[.!?](?=[ \t\n]|$)|\n")
_OPTIONS_REACH_21 = 400


def options_21(
    masked: str, extraction: Extraction, recs: Recommendations, offered: Offered
) -> Recommendations:
    """``offered``'s options (ruleset 20's), plus the cards a sentence offers the customer as
    options ("your options are the A and the B"), for the eligibility rule only: unless the
    sentence rules one out or the response rules it out already (module docstring)."""
    from replicas.verifiers.compliance.recommend import Recommendations

    recs = offered(masked, extraction, recs)
    if "option" not in masked and "between" not in masked:
        return recs
    starts = [m.start for m in extraction.mentions]
    positive = dict(recs.positive)
    changed = False
    for lead in _OPTIONS_LEAD_21.finditer(masked):
        stop = min(len(masked), lead.end() + _OPTIONS_REACH_21)
        end = _SENTENCE_END_21.search(masked, lead.end(), stop)
        b = end.start() if end else stop
        if rules_out_19(masked, lead.start(), b):
            continue
        for m in extraction.mentions[bisect_left(starts, lead.end()) : bisect_left(starts, b)]:
            card_id = m.card_id
            if card_id is None or m.kind == AMBIGUOUS or card_id in positive:
                continue
            if card_id in recs.negated:
                continue
            positive[card_id] = m
            changed = True
    return Recommendations(positive, recs.negated) if changed else recs


__all__ = ["families_21", "headings_21", "options_21", "revise_21", "vague_intro_21"]
