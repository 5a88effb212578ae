"""Ruleset 18: spoken figures, quoted forum lines, call transcripts, "respectively" after the
figures and "no penalty APR" after paying late (issue 13).

The s20 blind set (an eighth writer, seeds 121-124: voice-assistant transcripts, forum replies,
advisor e-mails, CRM shorthand) was scored first with ruleset 17 as published: **64 of its 300
held-out compliant answers flagged (21.3 %)**. Its tuning part (seed 121) showed these classes:

* **Decimals spoken out** (``spoken_18``): "twenty-two point nine nine to thirty-two point nine
  nine percent" is 22.99-32.99 %; ruleset 17 read number words only as whole numbers before
  "percent" or "dollars", so a spoken APR range was no range and an intro offer's go-to rate
  was never stated (``missing_disclosure`` on a complete disclosure). Read as digits
  (``rewrite_18``); the words stay the span.
* **"A year and nine months", "a year and a quarter"** (``spoken_18``): durations of a year and
  some months are that many months (21, 15); ruleset 10 reads "a year and a half" only.
* **"Annual fee: $0 → $95"** (``spoken_18``): an arrow from $0 to a fee is the first year's fee
  and the fee after it, as "$0 the first year, then $95" is.
* **"If you pay late there's no penalty APR"** (``spoken_18``): ruleset 7 reads "pay late,
  there's no penalty" as "there is no late fee"; a penalty *APR* or *rate* is the rate, not the
  fee. It is read as "no default APR", which every ruleset reads as the penalty APR.
* **A forum post's quoted line** (``turns_18``): "> someone said the X has no foreign
  transaction fees" then "Not so: it has a foreign transaction fee of 2.7%". A line opening
  with ">" is another person's words, as a customer's transcript turn is (ruleset 17); its
  claims are dropped when a later claim about the same card corrects them with another value,
  never otherwise - so a false figure a quote repeats and the answer does not correct still
  counts.
* **The caller's turn** (``turns_18``): "Caller: my friend said the X charges three percent
  abroad?" / "Assistant: Actually it has zero foreign transaction fees". "Caller", "you",
  "visitor" and "asker" open a customer's turn as "User" does; "voice assistant" and "banker"
  answer as "Assistant" does.
* **"The Low-Rate Plus", "the Reset"** (``tails_18``): a comparison names "Compass Low-Rate
  Plus" and "Liberty Reset" in full, then writes "The Low-Rate Plus offers 0% ..." and "With the
  Reset ...". Ruleset 17 reads a short label only before a colon; "the" and one to three
  capitalised words that are the first or last words of exactly one card the response names
  now name that card; of several cards ("the Preferred"), they are ambiguous and their figures
  stay unverified - no longer the card named before them.
* **A question is no claim** (``questions_18``): an FAQ's "**Can I use the Liberty Build abroad
  without fees?**" read as "no foreign transaction fee". A figure in a sentence that ends with a
  question mark and opens with an interrogative word ("can", "does", "is", "what", ...) is
  unverified - not "did you know ...?" or "isn't it ...?", which assert.
* **A generic subject** (``questions_18``): "A 0% promo is only useful with a payoff plan", "a
  basic cash back card with no annual fee is a fine default": a sentence whose subject is an
  indefinite "a/an/any ... card/promo/offer" and that names no card is about cards in general;
  its figures bound only by context (or because the response names one card) are unverified -
  not "a card like this" or "such a card", which point back at the card just named.
* **"respectively" with the cards after the figures** (``respectively_18``): "Ongoing APRs:
  24.74%-30.74% and 24.24%-32.24% for the Evergreen Scholar and Prism Student respectively".
  Ruleset 3's pairing takes the cards named before the first figure, else the cards named last
  before the sentence; when the sentence names exactly as many cards after its last figure of
  the kind as it has figures of that kind, and none before, those are paired in order.

The s21 blind set (a ninth writer, seeds 131-134: newsletters, JSON and YAML tool output,
complaint replies, FAQs, SMS, essays with worked arithmetic) was scored with the classes above
in place (held out: 43 of 300 compliant answers flagged, 14.3 %; ruleset 17: 46), then its
tuning part (seed 131) gave these, folded in before publication:

* **Worked fee arithmetic** (``questions_18``): "Say you move $2,400 ... The fee is 3% of each
  transfer or $5, whichever is greater - on $2,400 that works out to $72" read $2,400 and $72
  as the card's fees. A dollar figure read as a fee that is a fee-sized percentage (10 % or
  less) of a principal of its paragraph - $100 or more after "on", "move", "transfer", "a
  balance of", "an advance of", ... (never a bare "of": "an annual fee of $102" is no
  principal) - is arithmetic, not a term, and so is such a principal
  when a percentage of it is another dollar figure of the paragraph: unverified. (Without the
  principal's cue, "$250 annual fee" and "after $5,000 in 6 months" made the 5 % transfer fee's
  "$250" arithmetic by chance.)
* **"You assumed ...", "the 18.49% figure you saw online isn't ..."** (``turns_18``): more
  ways of stating somebody's belief before correcting it; dropped, as every belief is, only
  when a later claim about the same card corrects it with another value.
* **"no 0% on purchases, but ..."** (``spoken_18``): read as "no intro APR on purchases".

Precision first, as everywhere: a figure unbound is unverified, not passed as true.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import FEE_CLAIM
from replicas.verifiers.compliance.claims import unbind_claims
from replicas.verifiers.compliance.expansions import apply_first_replacements, apply_replacements
from replicas.verifiers.compliance.matchers import at_word_start
from replicas.verifiers.compliance.mentions import AMBIGUOUS, EXACT, NameMention, tokens_of
from replicas.verifiers.compliance.numwords import NUMBER_WORDS, parse_number_words
from replicas.verifiers.compliance.prefilter import finditer_from, finditer_lines
from replicas.verifiers.compliance.ruleset17 import (
    belief_spans_17,
    drop_corrected_17,
    user_turns,
)
from replicas.verifiers.compliance.spans import SpanIndex
from replicas.verifiers.compliance.values import USD

if TYPE_CHECKING:
    from collections.abc import Sequence

    from replicas.verifiers.compliance.claims import Claim, Extraction
    from replicas.verifiers.compliance.names import NameIndex
    from replicas.verifiers.compliance.ruleset import Ruleset
    from replicas.verifiers.compliance.text import NormalizedText

# == rewrites =====================================================================================

_DIGIT_WORDS_18 = {
    "zero": "0",
    "oh": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
}
_DIGIT_WORD_18 = "|".join(_DIGIT_WORDS_18)
# "twenty-two point nine nine", "one point five", "nineteen point two four"
_SPOKEN_DECIMAL_18 = re.compile(
    rf"(?<![a-z0-9-])(?P<n>{NUMBER_WORDS})[ \t-]{{1,2}}point"
    rf"(?P<d>(?:[ \t-]{{1,2}}(?:{_DIGIT_WORD_18})){{1,2}})(?![a-z0-9])"
)
_WORD_18 = re.compile(r"[a-z]+")
# "a year and nine months", "one year and 3 months", "a year and a quarter"
_YEAR_AND_18 = re.compile(
    rf"\b(?:a|one)[ \t]+year[ \t]+and[ \t]+(?:(?P<q>a[ \t]+quarter|three[ \t]+quarters)"
    rf"|(?P<n>\d{{1,2}}|{NUMBER_WORDS})[ \t]+months?)\b"
)
# "$0 → $95", "$0 -> $95": the first year's fee, then the fee
_ARROW_FEE_18 = re.compile(
    r"(?<![\d.,])\$0(?:\.00)?[ \t]*(?:→|->|=>|⟶|➔)[ \t]*(?P<fee>\$\d[\d,]*(?:\.\d\d)?)(?![\d%])"
)
# "no 0% on purchases": no intro APR on purchases
_NO_ZERO_ON_18 = re.compile(
    r"\bno[ \t]+0[ \t]?%(?:[ \t]+(?:apr|intro|introductory|promo|period|offer|rate))?[ \t]+"
    r"(?=(?:on|for)[ \t]+(?:new[ \t]+)?(?:purchases|balance[ \t]+transfers|transfers)\b)"
)
# "no penalty APR", "no penalty rate": the penalty rate, read as ruleset 7's late-fee rewrite
# would not read it
_NO_PENALTY_RATE_18 = re.compile(r"\bno(?P<gap>[ \t]+)penalty(?=[ \t]+(?:apr|rate)\b)")
# what every match of _NO_PENALTY_RATE_18 holds (a literal the engine skips ahead to)
_NO_PENALTY_HINT_18 = re.compile(r"no[ \t]+penalty")
# and of _SPOKEN_DECIMAL_18 and _YEAR_AND_18, on one line (``prefilter.finditer_lines``)
_POINT_WORDS_18 = ("point",)
_YEAR_WORDS_18 = ("year",)


def _spoken_decimals(lower: str) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    if "point" not in lower:
        return out
    for m in finditer_lines(_SPOKEN_DECIMAL_18, _POINT_WORDS_18, lower):
        digits = "".join(_DIGIT_WORDS_18[w] for w in _WORD_18.findall(m.group("d")))
        out.append((m.start(), m.end(), f"{parse_number_words(m.group('n'))}.{digits}"))
    return out


def _year_and_months(lower: str) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    if "year and" not in lower:
        return out
    for m in finditer_lines(_YEAR_AND_18, _YEAR_WORDS_18, lower):
        if m.group("q") is not None:
            extra = 3 if m.group("q").startswith("a") else 9
        else:
            word = m.group("n")
            extra = int(word) if word.isdigit() else parse_number_words(word)
        if 0 < extra < 12:
            out.append((m.start(), m.end(), f"{12 + extra} months"))
    return out


def penalty_rate_18(norm: NormalizedText) -> NormalizedText:
    """``norm`` with "no penalty APR" / "no penalty rate" as "no default APR" (module
    docstring): run before ruleset 7's rewrites, which would read "pay late, there's no
    penalty" as "there is no late fee"."""
    if "penalty" not in norm.lower or _NO_PENALTY_HINT_18.search(norm.lower) is None:
        return norm
    found = [
        (m.start(), m.end(), "no" + m.group("gap") + "default")
        for m in _NO_PENALTY_RATE_18.finditer(norm.lower)
    ]
    return apply_replacements(norm, found) if found else norm


def rewrite_18(norm: NormalizedText) -> NormalizedText:
    """``norm`` with spoken decimals as digits, "a year and N months" as months and "$0 → $95"
    as a first-year waiver (module docstring); the map back to the original keeps spans quoting
    what the agent wrote."""
    lower = norm.lower
    found = _spoken_decimals(lower) + _year_and_months(lower)
    if "no 0" in lower:
        found += [(m.start(), m.end(), "no intro apr ") for m in _NO_ZERO_ON_18.finditer(lower)]
    if "$0" in lower:
        found += [
            (m.start(), m.end(), f"$0 the first year, then {m.group('fee')}")
            for m in _ARROW_FEE_18.finditer(lower)
        ]
    if not found:
        return norm
    return apply_first_replacements(norm, found)


# == turns ========================================================================================

# a forum post's quoted line(s): "> someone said the X has no annual fee"
_QUOTED_LINES_18 = re.compile(r"(?m)^[ \t]{0,3}>[^\n]*(?:\n[ \t]{0,3}>[^\n]*)*")
# the customer's turn of a call or chat transcript, and the turn that answers it
_CALLER_TURN_18 = re.compile(
    r"(?m)^[ \t>]{0,4}(?:\*\*|__)?(?:caller|you|visitor|asker|customer|user|client|human|member"
    r"|cardholder|me|q)(?:\*\*|__)?[ \t]?:(?:\*\*|__)?"
)
_ANSWER_TURN_18 = re.compile(
    r"(?m)^[ \t>]{0,4}(?:\*\*|__)?(?:(?:voice|virtual|ai)[ \t]+assistant|assistant|agent|bot"
    r"|ai|advisor|adviser|support|rep|representative|banker|a)(?:\*\*|__)?[ \t]?:"
)


# "you assumed ...", "the 18.49% figure you saw online isn't ...": somebody's belief, up to the
# word that declares it wrong
_BELIEF_18 = re.compile(
    r"\byou(?:[ \t]+(?:may|might|probably|also))?[ \t]+(?:have[ \t]+)?(?:assumed|believed"
    r"|expected|understood|figured|were[ \t]+told|heard|read|thought|were[ \t]+under)\b"
    r"|(?:[\d.]+[ \t]?%|\$[\d,.]+)[ \t]+(?:(?:apr|rate|fee|figure|number|quote)[ \t]+)?(?:that[ \t]+)?"
    r"you[ \t]+(?:saw|heard|read|found|got|were[ \t]+quoted|were[ \t]+given|were[ \t]+told"
    r"|mentioned|quoted|cited)\b"
)
_CORRECTION_18 = re.compile(
    r"\b(?:isn't|is[ \t]+not|wasn't|was[ \t]+not|doesn't|does[ \t]+not|not[ \t]+(?:right|correct"
    r"|accurate|the[ \t]+case)|incorrect|inaccurate|wrong|outdated|mistaken|actually|in[ \t]+fact"
    r"|unfortunately|however|but)\b"
)
_BELIEF_REACH_18 = 400


def _belief_spans(masked: str) -> list[tuple[int, int]]:
    spans = []
    for m in _BELIEF_18.finditer(masked):
        cue = _CORRECTION_18.search(masked, m.end(), min(len(masked), m.end() + _BELIEF_REACH_18))
        if cue is not None:
            spans.append((m.start(), cue.start()))
    return spans


def turn_spans_18(masked: str) -> list[tuple[int, int]]:
    """The quoted lines of a forum reply, each customer's (or caller's) turn of a transcript up
    to the turn that answers it (a turn no answer follows is none), and the beliefs stated with
    "you assumed" or "the figure you saw" up to the word that declares them wrong."""
    spans = (
        [(m.start(), m.end()) for m in _QUOTED_LINES_18.finditer(masked)] if ">" in masked else []
    )
    if "you" in masked:
        spans += _belief_spans(masked)
    if ":" in masked:
        spans += user_turns(masked, _CALLER_TURN_18, _ANSWER_TURN_18)
    return spans


def drop_beliefs_18(extraction: Extraction) -> Extraction:
    """Ruleset 17's corrected beliefs, plus the claims of quoted forum lines and callers' turns
    that a later claim about the same card corrects (module docstring)."""
    if not extraction.claims:
        return extraction
    masked = extraction.masked
    return drop_corrected_17(extraction, belief_spans_17(masked) + turn_spans_18(masked))


# == names ========================================================================================

# "The Low-Rate Plus offers ...", "with the Reset": "the" and one to three capitalised words
_THE_TAIL_18 = re.compile(
    r"[Tt](?<!\w[Tt])he[ \t]+(?P<label>[A-Z][A-Za-z'-]{1,20}(?:[ \t][A-Z][A-Za-z'-]{1,20}){0,2})"
    r"(?![\w'-])(?![ \t]+[A-Z0-9])"
)
# every match of _THE_TAIL_18 starts one character before one of these
_THE_TAIL_HINT_18 = re.compile(r"he[ \t]+[A-Z]")


def tails_18(index: NameIndex, text: str, mentions: Sequence[NameMention]) -> list[NameMention]:
    """The mentions with "the <first or last words of one card named>" added (module
    docstring); words that begin or end several named cards are an ambiguous mention."""
    out = list(mentions)
    named = sorted({m.card_id for m in out if m.card_id is not None})
    if not named or "he " not in text:
        return out
    taken = SpanIndex((m.start, m.end) for m in out)
    # the first and last words (all but one) of each named card -> the cards they begin or end
    ends: dict[tuple[str, ...], set[str]] = {}
    for c in named:
        words = tuple(index.words_by_card[c])
        for n in range(1, len(words)):
            ends.setdefault(words[:n], set()).add(c)
            ends.setdefault(words[-n:], set()).add(c)
    found = []
    candidates = (h.start() - 1 for h in _THE_TAIL_HINT_18.finditer(text) if h.start())
    for match in finditer_from(_THE_TAIL_18, text, candidates):
        start, end = match.span("label")
        if taken.overlaps(start, end):
            continue
        fits = sorted(ends.get(tuple(tokens_of(match.group("label"))), ()))
        if len(fits) == 1:
            found.append(NameMention(start, end, EXACT, fits[0], text[start:end]))
        elif fits:
            found.append(NameMention(start, end, AMBIGUOUS, None, text[start:end]))
    if not found:
        return out
    return sorted([*out, *found], key=lambda m: m.start)


# == claims =======================================================================================

_MARKUP_18 = " \t\n*_#>-•|"
# a question: an interrogative word first - not "did you know", "isn't it", "don't forget"
_QUESTION_18 = re.compile(
    r"(?:can|could|does|do|is|are|will|would|should|what|which|how|when|where|why|who)\b"
    r"(?![ \t]+you[ \t]+know)"
)
# a generic subject: "a 0% promo ...", "if neither fits, a basic cash back card with ..."
_GENERIC_SUBJECT_18 = re.compile(
    r"(?:(?:if|when|for|in)[^,.;:!?\n]{0,60},[ \t]*)?(?:a|an|any)[ \t]+(?:[\w%$.-]+[ \t]+){0,4}?"
    r"(?:card|cards|promo|promos|offer|offers|deal|deals)\b"
)
_DEICTIC_18 = re.compile(r"\blike[ \t]+(?:this|that|it|these|those|them)\b|\bsuch\b|\bthis\b")
_LOOSE_BINDINGS_18 = frozenset({"context", "only"})


def revise_18(extraction: Extraction, rules: Ruleset) -> Extraction:
    """The extraction with the figures of questions and of sentences about cards in general
    unbound (module docstring)."""
    units = extraction.units
    if not units or not extraction.claims:
        return extraction
    starts = [u[0] for u in units]
    masked = extraction.masked
    named = [m.start for m in extraction.mentions]
    # each unit read once, however many figures it holds (an agent's one-sentence megabyte)
    unit_reading: dict[int, tuple[bool, bool]] = {}

    def reading_of(claim: Claim) -> tuple[bool, bool]:
        """Whether the claim's unit is a question, and whether it is about cards in general."""
        k = bisect_right(starts, claim.start) - 1
        if k < 0 or claim.start >= units[k][1]:
            return False, False
        a, b = units[k]
        if a not in unit_reading:
            body = masked[a:b].strip(_MARKUP_18)
            question = body.endswith("?") and _QUESTION_18.match(body) is not None
            j = bisect_right(named, a - 1)
            subject = None if j < len(named) and named[j] < b else _GENERIC_SUBJECT_18.match(body)
            # "a card like this", "such a card": the card just named
            generic = subject is not None and not _DEICTIC_18.search(body, 0, subject.end() + 16)
            unit_reading[a] = (question, generic)
        return unit_reading[a]

    def in_question(claim: Claim, _masked: str) -> bool:
        return reading_of(claim)[0]

    def about_any_card(claim: Claim, _masked: str) -> bool:
        return claim.binding in _LOOSE_BINDINGS_18 and reading_of(claim)[1]

    breaks = _blank_lines(masked)
    paragraphs: dict[int, tuple[list[float], list[float], list[float]]] = {}

    def figures_of(pos: int) -> tuple[list[float], list[float], list[float]]:
        """The fee-sized percentages (distinct; none when a paragraph holds more than a worked
        example could), the dollar amounts and the principals (dollar amounts after "on",
        "move", "a balance of", ...) of the paragraph holding ``pos``, sorted (digits only)."""
        k = bisect_left(breaks, pos - 1)  # the blank lines that end before ``pos``
        start = breaks[k - 1] + 1 if k else 0
        if start not in paragraphs:
            stop = breaks[k] if k < len(breaks) else len(masked)
            text = masked[start:stop]
            pcts = {
                float(m.group(1))
                for m in _PCT_18.finditer(text)
                if 0 < float(m.group(1)) <= _FEE_PCT_18
            }
            dollars = [
                (float(m.group(1).replace(",", "")), m.start()) for m in _USD_18.finditer(text)
            ]
            paragraphs[start] = (
                sorted(pcts) if len(pcts) <= _MAX_PCTS_18 else [],
                sorted(x for x, _ in dollars if x),
                sorted(
                    x
                    for x, at in dollars
                    if x >= _PRINCIPAL_18 and _PRINCIPAL_CUE_18.search(text, max(0, at - 24), at)
                ),
            )
        return paragraphs[start]

    near: dict[int, bool] = {}

    def principal_near(pos: int) -> bool:
        """Whether the paragraph holding ``pos`` has an amount after a principal's cue - what
        a worked example needs, and much cheaper to look for than reading its figures."""
        k = bisect_left(breaks, pos - 1)
        start = breaks[k - 1] + 1 if k else 0
        if start not in near:
            stop = breaks[k] if k < len(breaks) else len(masked)
            near[start] = _PRINCIPAL_NEAR_18.search(masked, start, stop) is not None
        return near[start]

    def arithmetic(claim: Claim, _masked: str) -> bool:
        if claim.family != FEE_CLAIM or "$" not in claim.text:
            return False
        cue_before = _PRINCIPAL_CUE_18.search(masked, max(0, claim.start - 24), claim.start)
        if cue_before is None and not principal_near(claim.start):
            return False
        pcts, dollars, principals = figures_of(claim.start)
        if not pcts:
            return False
        amounts = [x for x in (claim.low if claim.unit == USD else None, claim.min_usd) if x]
        # the fee worked out on a principal ("on $2,400 that works out to $72") ...
        if any(
            _any_within(principals, (x - _CENTS_18) * 100 / p, (x + _CENTS_18) * 100 / p)
            for x in amounts
            for p in pcts
        ):
            return True
        # ... or the principal itself ("Say you move $2,400 ...")
        return cue_before is not None and any(
            _any_within(dollars, p * x / 100 - _CENTS_18, p * x / 100 + _CENTS_18)
            for x in amounts
            for p in pcts
        )

    readings = [in_question, about_any_card] if rules.questions_18 else []
    if rules.arithmetic_18 and "$" in masked and "%" in masked:
        readings.append(arithmetic)
    return unbind_claims(extraction, readings)


def _blank_lines(text: str) -> list[int]:
    """Every position a blank line starts at, as ``re.finditer("(?=\\n\\n)", text)`` gives them
    (runs of line breaks included: each position followed by two)."""
    out = []
    pos = text.find("\n\n")
    while pos >= 0:
        out.append(pos)
        pos = text.find("\n\n", pos + 1)
    return out


# the figures of a worked example, in digits (spoken decimals are digits by now)
_PCT_18 = re.compile(r"(?<![\d.])(\d{1,2}(?:\.\d{1,2})?)[ \t]?(?:%|percent\b|per[ \t]cent\b)")
_USD_18 = re.compile(r"\$[ \t]?(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d{1,7}(?:\.\d{1,2})?)(?![\d,])")
# a paragraph with more distinct fee-sized percentages than this is no worked example
_MAX_PCTS_18 = 12


def _any_within(ordered: list[float], low: float, high: float) -> bool:
    """Whether the sorted ``ordered`` holds a value in ``[low, high]``."""
    k = bisect_left(ordered, low)
    return k < len(ordered) and ordered[k] <= high


# how far a worked fee may be from the exact product (rounded to the dollar); a fee's percentage
# is at most 10 % (an APR times a dollar figure is interest, and would match fees by chance);
# the amount it is taken of is a principal of $100 or more
_CENTS_18 = 0.5
_FEE_PCT_18 = 10.0
_PRINCIPAL_18 = 100.0
# what introduces the amount a worked example takes a fee of
# ("of" only after what is moved: "a balance of $2,000", never "an annual fee of $95")
# (``\b(?:on|move|...|(?:balance|...)s?[ \t]+of)``, written by ``at_word_start`` to scan fast)
_CUE_WORDS_18 = (
    "(?:"
    + at_word_start(
        [
            *("on", "move", "moves", "moving", "moved", "transfer", "transferring"),
            *("transferred", "withdraw", "withdrawing", "withdrew", "borrow", "borrowing"),
            *("carry", "carrying", "shift", "shifting", "bring", "bringing", "put", "putting"),
            *(
                rf"{w}s?[ \t]+of"
                for w in ("balance", "advance", "transfer", "purchase", "withdrawal", "loan")
            ),
            r"debts?[ \t]+of",
        ]
    )
    + r")[ \t]+(?:(?:a|an|the|about|around|roughly|over|over[ \t]+to)[ \t]+)?"
)
_PRINCIPAL_CUE_18 = re.compile(_CUE_WORDS_18 + "$")
# ... with the amount after it (a dollar sign or a digit)
_PRINCIPAL_NEAR_18 = re.compile(_CUE_WORDS_18 + r"(?=[$\d])")


__all__ = [
    "drop_beliefs_18",
    "penalty_rate_18",
    "revise_18",
    "rewrite_18",
    "tails_18",
    "turn_spans_18",
]
