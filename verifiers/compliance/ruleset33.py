"""Ruleset 33's reading of worked figures, for precision (``worked_33``).

A dollar figure bound to a card as a fee is checked against that fee. Answers that explain a
card also work sums on the reader's own amounts, and those results sit where a fee would. A
figure that is wrong for each of its cards is left unverified (no flag) when it is one of:

* **a percentage fee worked out on money the answer moves** - "say you're moving $6,000 ...
  Summit Clear: fee = $180", "Transfer fee: 3% (minimum $5), so $120", "-> $100 on $2,000",
  "Quick maths on $6,000:\n- X: $300 fee": the card's own balance transfer, cash advance or
  foreign transaction fee (with its minimum), the figure a fee of no named kind or of a percentage
  kind, where its own line shows the working - on a dollar amount of at least $100 before it on
  its line, right after it after "on", or on its list's lead line when that line is a worked
  example's ("maths", "example", "say", "moving", "transfer", "balance" - not a budget, a spend or
  a card's heading); or, after "=" or "->" (or "so", "that's" with a rate on the line), on an
  amount that words of moving, owing, borrowing, spending abroad or a worked example stand beside
  ("moving $6,000", "a $3,000 balance"). Ruleset 30's ``worked_30`` read this too, but not when
  the fee itself stood beside such words ("fee = $180. you now owe $6,180"). A fee stated with
  "has a" or "charges a", or in a table cell, never counts. An amount a fee is said to be worked
  on ("Upfront fee on $6,000") is that amount, no fee;
* **a total of the cards' own fees** - "between the A ($29) and the B ($39), you're paying $68 a
  year in fees", "together you're paying $720/yr in fees", "pay late twice ... $78 in late fees":
  with words of a total or a difference around it ("in fees", "combined", "together", "total";
  "difference", "more", "less", "extra", "cheaper"), the sum of the annual fees of two or more
  named cards, the card's own among them, or the difference of its own and another's - of cards
  its sentence names, when the figure's own words bind it to its card or it is a difference; for
  a late fee after a count of late payments ("twice", "two late payments"; not with "one late
  payment"), two to five times its late fee;
* **a result the answer marks as worked** - "$3,948 x 5% = $197 vs $79 -> **+$118 a year**",
  "- Fee: $270 -> total $9,270" under "Example: $9,000 balance": with words of a result right
  before or after it ("=", "->", "that's", "total", "net", "earns", "ahead", "back", a sign) - after
  a fee word only an arrow ("annual fee = $550", "the yearly fee comes to $300" are the fee), none
  after words of keeping the card ("to keep it open, that's $150 a year" is its price) - and, to
  the dollar, the sum or difference of two dollar figures before it on its line, the line above or
  its list's lead line, or a reward rate on its line (at most 10 %, a "4x" read as 4 %) times one
  of them (as is, times twelve, over twelve);
* **a bonus added in** - "comes with a $250 bonus ... plus $250 in year one": after "plus" or
  "+" and before "in year one", "the first year" or "bonus", a figure equal to a bonus the answer
  states ("a $250 bonus", "bonus of $75", "$500 SUB") - not "plus $95 a year after that", the way
  an ongoing fee is stated.

What the reading does not take, after eight red teams (RULESETS.md, "Ruleset 33"): an amount only
echoed from elsewhere in the answer (a deposit, a budget, a heading: copying a nearby number into
a fee is a hallucination); a figure a fee word governs, unless an arrow or a total of fees marks it; the
card's own true fee as an operand ("true fee minus a nearby $100 credit"); figures stated after
the result ("fee = $360. you now owe $6,360" - a wrong fee's own sums); operands or rates from
other paragraphs; a "Card: $N fee" line whose working is shown nowhere on it; "plus $N a year";
and a whole-number APR inside the card's range (``round_33``, dropped: stating a card's APR as
"27%" is the likeliest hallucination).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import combinations
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import FEE_CLAIM, PCT_FEE_KINDS
from replicas.verifiers.compliance.ruleset32 import _governed
from replicas.verifiers.compliance.term_checks import check_fee

if TYPE_CHECKING:
    from replicas.verifiers.compliance.catalog import Catalog
    from replicas.verifiers.compliance.claims import Claim, Extraction

__all__ = ["checked_33", "worked_33"]

_DOLLARS_33 = re.compile(
    r"(?<![\w.])\$[ \t]?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?(?![\d,]\d)(?:[ \t]?([kK])\b)?"
)
_PERCENT_33 = re.compile(r"(?<![\w.])(\d{1,2}(?:\.\d{1,2})?)[ \t]?%")
# a reward multiplier read as a rate: "4x dining" (points at a cent each: 4 %)
_MULTIPLIER_33 = re.compile(r"(?<![\w.])(\d{1,2}(?:\.\d{1,2})?)[ \t]?x\b", re.IGNORECASE)
_BASE_FLOOR_33 = 100.0  # an amount a percentage fee is worked on is at least this
_PCT_FEES_33 = (
    ("bt", "bt_fee_pct", "bt_fee_min_usd"),
    ("cash_advance", "cash_advance_fee_pct", "cash_advance_fee_min_usd"),
    ("foreign", "foreign_txn_fee_pct", None),
)
# what is done with an amount a percentage fee is worked on: moved, owed, borrowed, spent abroad;
# or the amount of a worked example ("Quick maths on $6,000:", "say you move $5,000")
_MOVED_33 = re.compile(
    r"\b(?:transfer\w*|mov(?:e|es|ed|ing)|balances?|debt|owe\w*|advance\w*|withdraw\w*|borrow\w*"
    r"|carry\w*|bts?|abroad|overseas|foreign|trip|travel(?:l?ing)?[ \t]+abroad|atm|example|say"
    r"|suppose|imagine|maths?)\b",
    re.IGNORECASE,
)
_MOVED_REACH_33 = 40
# a lead line of worked examples: "Quick maths on $6,000:", "Moving a $5,000 balance:" - not a
# budget or a spend ("for a $5,000 trip budget:", "60,000 miles after $3,000 in spend")
_LEAD_WORK_33 = re.compile(
    r"\b(?:transfer\w*|mov(?:e|es|ed|ing)|balances?|debt|owe\w*|advance\w*|withdraw\w*|borrow\w*"
    r"|bts?|example|say|suppose|imagine|maths?)\b",
    re.IGNORECASE,
)
# words of keeping a card before a figure: its price ("to keep it open, that's $150 a year")
_KEEPING_33 = re.compile(
    r"\b(?:keep(?:s|ing)?|hold(?:s|ing)?|carry(?:ing)?|hav(?:e|ing)|own(?:s|ing)?)[ \t]+"
    r"(?:it|this|that|them|the|your|one|#)",
    re.IGNORECASE,
)
# a total or a difference of fees: "$68 a year in fees", "Total annual fees: $440", "combined"
_FEES_TOTAL_AFTER_33 = re.compile(
    r"(?:\*\*|__)?[ \t]*(?:(?:a|per)[ \t]+year[ \t]+|/[ \t]*(?:yr|year)[ \t]+)?"
    r"(?:in[ \t]+(?:total[ \t]+|combined[ \t]+)?(?:annual[ \t]+|late[ \t]+|yearly[ \t]+)?fees"
    r"|(?:in[ \t]+)?(?:combined|total)(?:[ \t]+(?:annual[ \t]+)?fees)?|together|between[ \t]+them"
    r"|altogether)\b",
    re.IGNORECASE,
)
_FEES_TOTAL_BEFORE_33 = re.compile(
    r"\b(?:total(?:s|ling|ing)?|combined|together|altogether|difference|between[ \t]+them)"
    r"(?:[ \t]+(?:annual|yearly|late))?(?:[ \t]+fees?)?[ \t]*(?:of|is|are|:|=)?[ \t]*"
    r"(?:about|around|roughly|~|\u2248)?[ \t]*(?:\*\*|__)?[ \t]*$",
    re.IGNORECASE,
)
# words right before a figure that mark it a result: "= $468", "-> +$118", "that's $180", "an
# extra $15", "total $9,270", "comes to $342", a sign
_RESULT_BEFORE_33 = re.compile(
    r"(?:[=\u2192\u2248]|->|\b(?:that's|that[ \t]+is|that[ \t]+comes[ \t]+to|total(?:s|ling)?"
    r"|net|(?:comes?|adds?[ \t]+up)[ \t]+to|works?[ \t]+out[ \t]+(?:to|at)|in[ \t]+all|earns?"
    r"|earning|saves?|saving|worth))[ \t]*(?:of|is|:)?[ \t]*(?:about|around|roughly|~|\u2248)?"
    r"[ \t]*(?:\*\*|__)?[ \t]*[-+\u2212]?[ \t]*$",
    re.IGNORECASE,
)
# words right after a figure that mark it a result: "$55 more a year", "$110 ahead", "$40 back"
_RESULT_AFTER_33 = re.compile(
    r"(?:\*\*|__)?[ \t]*(?:(?:a|per)[ \t]+(?:year|month)[ \t]+|/[ \t]*(?:yr|year|mo|month)[ \t]+)?"
    r"(?:ahead|behind|back|net|saved|in[ \t]+(?:rewards|cash[ \t]*back"
    r"|value|savings|points))\b",
    re.IGNORECASE,
)
# a base amount a fee is worked on: "Upfront fee on $6,000", "a 3% fee on your $5,000"
_BASE_BEFORE_33 = re.compile(
    r"\bfees?[ \t]+on[ \t]+(?:a|an|the|your|that|this|every|each)?[ \t]*(?:\*\*|__)?[ \t]*$",
    re.IGNORECASE,
)
# a bonus figure: "a $250 bonus", "$75 bonus after", "bonus of $500", "$500 SUB"
_BONUS_AFTER_33 = re.compile(
    r"(?:\*\*|__)?[ \t]*(?:cash[ \t]+|sign-?up[ \t]+|welcome[ \t]+|intro(?:ductory)?[ \t]+)?"
    r"(?:bonus|sub|welcome[ \t]+offer|sign-?up[ \t]+offer)\b",
    re.IGNORECASE,
)
_BONUS_BEFORE_33 = re.compile(
    r"\b(?:bonus|sub|welcome[ \t]+offer|sign-?up[ \t]+offer)[ \t]*(?:of|is|:|=|worth)?[ \t]*"
    r"(?:about|around|~)?[ \t]*(?:\*\*|__)?[ \t]*$",
    re.IGNORECASE,
)
# "has a $150 fee", "charges a $95 fee": the card's own fee stated, never worked on an amount
_STATED_33 = re.compile(
    r"\b(?:has|have|had|charges?|charging|carries|carry|comes[ \t]+with|with)[ \t]+(?:an?|the)"
    r"[ \t]*(?:\*\*|__)?[ \t]*$",
    re.IGNORECASE,
)
# words of a difference of fees: "the fee difference is $55", "costs $55 more a year"
_DIFFERENCE_33 = re.compile(
    r"\b(?:difference|gap)[ \t]*(?:in[ \t]+(?:annual[ \t]+)?fees?)?[ \t]*(?:of|is|:|=)?[ \t]*"
    r"(?:about|around|roughly|~|only|just)?[ \t]*(?:\*\*|__)?[ \t]*$",
    re.IGNORECASE,
)
_DIFFERENCE_AFTER_33 = re.compile(
    r"(?:\*\*|__)?[ \t]*(?:(?:a|per)[ \t]+year[ \t]+|/[ \t]*(?:yr|year)[ \t]+)?(?:more|less|cheaper"
    r"|extra)\b",
    re.IGNORECASE,
)
# "$100 on $2,000", "$180 on a $6,000 transfer": the amount right after the fee
_ON_AFTER_33 = re.compile(r"[ \t]*(?:\*\*|__)?[ \t]*on[ \t]+(?:a|an|the|your|that)?[ \t]*")
# a count of late payments before a late-fee total: "pay late twice", "two late payments"
_COUNT_33 = re.compile(
    r"\b(?:twice|(?:two|three|four|five|[2-5])[ \t]+(?:late[ \t]+payments?|missed[ \t]+payments?"
    r"|late[ \t]+fees|times)|(?:pay|paid|paying)[ \t]+late[ \t]+(?:twice|two|three|[2-3]))\b",
    re.IGNORECASE,
)
_ONE_LATE_33 = re.compile(r"\b(?:one|a[ \t]+single|1)[ \t]+(?:late|missed)\b", re.IGNORECASE)
# where a sentence ends
_SENTENCE_END_33 = re.compile(r"[.!?](?=[ \t\n*_)]|$)|\n")
# words that mark a figure as worked out on its own line: "fee = $180", "so $120", "-> $100"
_WORKED_BEFORE_33 = re.compile(
    r"(?:[=\u2192\u2248]|->|\b(?:so|that's|that[ \t]+is|comes[ \t]+to|works[ \t]+out[ \t]+to))"
    r"[ \t]*(?:about|around|roughly|~|\u2248)?[ \t]*(?:\*\*|__)?[ \t]*$",
    re.IGNORECASE,
)
# the markers of a result that need no rate on the line: "fee = $180", "-> $100"
_ARROW_33 = re.compile(r"[=\u2192\u2248]|->")
# an arrow, the one result word that also overrides a fee word: "- Fee: $270 -> total $9,270"
# (not "annual fee = $550", "the yearly fee comes to $300")
_ARROW_ONLY_33 = re.compile(r"\u2192|->")
# a list item: "- ", "* ", "1. ", "• "
_ITEM_33 = re.compile(r"[ \t]*(?:[-*+\u2022]|\d{1,2}[.)])[ \t]")
# what follows a bonus added in: "in year one", "the first year", "sub", "bonus"
_BONUS_YEAR_33 = re.compile(
    r"(?:\*\*|__)?[ \t]*(?:(?:sign-?up[ \t]+)?(?:bonus|sub)\b|(?:in|for|during)?[ \t]*(?:(?:the|your)[ \t]+)?"
    r"(?:first|1st)[ \t]+year\b|in[ \t]+year[ \t]+(?:one|1)\b)",
    re.IGNORECASE,
)
_PLUS_BEFORE_33 = re.compile(r"(?:\bplus|\+)[ \t]*(?:the|a|an|another)?[ \t]*(?:\*\*|__)?[ \t]*$")
_TOLERANCE_USD_33 = 0.5  # whole dollars
_RATE_CEILING_33 = 10.0  # a reward or fee rate; an APR times an amount is interest
_MULTIPLES_33 = range(2, 6)
# bounds on any input: operands around a figure, rates, named fees summed, figures read
_OPERANDS_33 = 24
_PERCENTS_33 = 12
_NAMED_FEES_33 = 8
_READ_33 = 64
_REACH_33 = 48  # how far before a figure its words are read


def _amounts(masked: str) -> list[tuple[int, int, float]]:
    """The dollar figures of the text: (start, end, value), "$6k" read as $6,000."""
    out = []
    for m in _DOLLARS_33.finditer(masked):
        value = float(m[1].replace(",", "")) + (float("0." + m[2]) if m[2] else 0.0)
        out.append((m.start(), m.end(), value * 1000 if m[3] else value))
    return out


def _near(value: float, target: float, tolerance: float = _TOLERANCE_USD_33) -> bool:
    return abs(value - target) <= tolerance


def _pct_fee_worked(claim: Claim, catalog: Catalog, bases: Sequence[float]) -> bool:
    """The figure is one of its cards' percentage fees on an amount the answer moves."""
    value = claim.low or 0.0
    kinds = claim.admissible
    for card_id in claim.cards[:_NAMED_FEES_33]:
        card = catalog.card(card_id)
        for kind, pct_field, min_field in _PCT_FEES_33:
            if claim.kind != "any" and kind not in kinds:
                continue
            pct = getattr(card, pct_field)
            if not pct:
                continue
            floor = (getattr(card, min_field) if min_field else 0.0) or 0.0
            if any(_near(max(base * pct / 100, floor), value) for base in bases):
                return True
    return False


def _fees_total(
    value: float,
    claim: Claim,
    catalog: Catalog,
    figures: _Figures,
    difference: bool,
    counted: bool,
    sentence: tuple[int, int],
) -> bool:
    """``value`` is a total of fees: the sum of the annual fees of two or more named cards, its
    own card's among them; their difference (``difference``: words of a difference stand beside
    it); or, for a late fee with a count before it (``counted``: "pay late twice"), two to five
    times its card's late fee ("$78 in late fees")."""
    cards = claim.cards[:_NAMED_FEES_33]
    if counted and "late" in claim.admissible:
        late = [catalog.card(c).late_fee_usd or 0.0 for c in cards]
        if any(_near(k * fee, value) for fee in late if fee for k in _MULTIPLES_33):
            return True
    own = [c for c in cards if (catalog.card(c).annual_fee_usd or 0.0) > 0]
    if not own:
        return False
    lo, hi = sentence
    if difference or claim.binding not in ("context", ""):
        # a difference, or a total its own words tie to a card: of the cards its sentence names
        pool = sorted({m.card_id for m in figures.mentions if m.card_id and lo <= m.start < hi})
    else:
        pool = figures.named
    others = [c for c in pool if c not in own and (catalog.card(c).annual_fee_usd or 0.0) > 0]
    group_of = (own + others)[:_NAMED_FEES_33]
    fee = {c: catalog.card(c).annual_fee_usd or 0.0 for c in group_of}
    if difference:
        return any(
            _near(abs(fee[a] - fee[b]), value) and (a in own or b in own)
            for a, b in combinations(group_of, 2)
        )
    return any(
        _near(sum(fee[c] for c in group), value) and any(c in own for c in group)
        for size in range(2, len(group_of) + 1)
        for group in combinations(group_of, size)
    )


def _arithmetic(value: float, amounts: Sequence[float], rates: Sequence[float]) -> bool:
    """``value`` is, to the dollar, a sum or difference of two of ``amounts``, or one of
    ``rates`` (a reward or fee rate, at most 10 %) of one of them (as is, times twelve, or over
    twelve)."""
    ops = sorted(a for a in amounts if a > 0 and not _near(a, value))
    for i, a in enumerate(ops):
        # another operand b = value - a (a sum), a - value or a + value (a difference)
        for b in (value - a, a - value, a + value):
            k = bisect_left(ops, b - _TOLERANCE_USD_33)
            while k < len(ops) and ops[k] <= b + _TOLERANCE_USD_33:
                if k != i:
                    return True
                k += 1
    for rate in rates:
        for a in ops:
            worked = a * rate / 100
            for d in (worked, worked * 12, worked / 12):
                if _near(d, value, max(_TOLERANCE_USD_33, 0.005 * d)):
                    return True
    return False


def _sentence(masked: str, start: int, end: int) -> tuple[int, int]:
    """The sentence around a figure: from the last sentence end before ``start`` to the next
    after ``end`` (a line break ends one)."""
    lo = max(0, start - 400)
    ends = [m.end() for m in _SENTENCE_END_33.finditer(masked, lo, start)]
    after = _SENTENCE_END_33.search(masked, end, end + 400)
    return (ends[-1] if ends else lo), (after.start() if after else min(len(masked), end + 400))


def _lead_line(masked: str, line: int) -> tuple[int, int] | None:
    """The lead line of the list item starting at ``line`` ("Quick maths on $6,000:",
    "**Example: $9,000 balance**"): the first line above it that is no list item, if the items
    between are list items (at most ``_OPERANDS_33`` lines up)."""
    if not _ITEM_33.match(masked, line):
        return None
    end = line - 1
    for _ in range(_OPERANDS_33):
        if end <= 0:
            return None
        start = masked.rfind("\n", 0, end) + 1
        if not masked[start:end].strip():
            return None
        if not _ITEM_33.match(masked, start):
            return start, end
        end = start - 1
    return None


class _Figures:
    """The answer's figures, read once: dollar amounts, rates, moved amounts, bonuses and the
    named cards."""

    def __init__(self, extraction: Extraction, catalog: Catalog) -> None:
        masked = extraction.masked
        self.amounts = _amounts(masked)
        self.starts = [s for s, _, _ in self.amounts]
        rates = sorted(
            (m.start(), float(m[1]))
            for pattern in (_PERCENT_33, _MULTIPLIER_33)
            for m in pattern.finditer(masked)
            if 0 < float(m[1]) <= _RATE_CEILING_33
        )
        self.rate_starts = [s for s, _ in rates]
        self.rates = [r for _, r in rates]
        self.moved = [
            (s, v)
            for s, e, v in self.amounts
            if v >= _BASE_FLOOR_33
            and _MOVED_33.search(masked, max(0, s - _MOVED_REACH_33), e + _MOVED_REACH_33)
        ]
        self.moved_starts = [s for s, _ in self.moved]
        self.bonuses = {
            v
            for s, e, v in self.amounts
            if _BONUS_AFTER_33.match(masked, e)
            or _BONUS_BEFORE_33.search(masked, max(0, s - _REACH_33), s)
        }
        self.mentions = extraction.mentions
        named = sorted({m.card_id for m in extraction.mentions if m.card_id is not None})
        self.named = named

    def bases(self, masked: str, claim: Claim) -> list[float]:
        """The amounts a percentage fee of ``claim`` is worked on, where its own line shows the
        working: after words that mark a result ("fee = $180", "3% (min $5), so $120"), moved
        amounts stated before it (the last ``_OPERANDS_33``); and always an amount of at least
        $100 before it on its own line, right after it after "on" ("-> $100 on $2,000"), or on
        the lead line of its list ("Quick maths on $6,000:\n- X: $300 fee"). A "Card: $N fee" line with the amount only elsewhere in
        the answer shows no working (red team W)."""
        line = masked.rfind("\n", 0, claim.start) + 1
        out: list[float] = []
        marker = _WORKED_BEFORE_33.search(masked, max(line, claim.start - _REACH_33), claim.start)
        if marker is not None and (
            _ARROW_33.search(marker[0]) is not None or "%" in masked[line : marker.start()]
        ):
            at = bisect_left(self.moved_starts, claim.start)
            out += [v for s, v in self.moved[max(0, at - _OPERANDS_33) : at]]
        after = _ON_AFTER_33.match(masked, claim.end)
        if after is not None:
            k = bisect_left(self.starts, after.end())
            if k < len(self.amounts) and self.amounts[k][0] == after.end():
                out.append(self.amounts[k][2])
        spans = [(line, claim.start)]
        lead = _lead_line(masked, line)
        if (
            lead is not None
            and "#" not in masked[lead[0] : lead[1]]
            and _LEAD_WORK_33.search(masked, lead[0], lead[1])
        ):
            spans.append(lead)  # a worked example's lead, not a card's heading or a budget
        for lo, hi in spans:
            k = bisect_left(self.starts, lo)
            while k < len(self.amounts) and self.amounts[k][0] < hi and len(out) < 2 * _OPERANDS_33:
                start, _, value = self.amounts[k]
                if start != claim.start and value >= _BASE_FLOOR_33:
                    out.append(value)
                k += 1
        return out

    def before(self, masked: str, start: int) -> tuple[list[float], list[float]]:
        """The dollar amounts before ``start`` on its line, the line above and its list's lead
        line (at most ``_OPERANDS_33`` of each), and the rates before it on its line: a result is
        worked from figures stated before it (the figures after a wrong fee are often worked from
        it - "fee = $360. you now owe $6,360" - and would make it look worked)."""
        line = masked.rfind("\n", 0, start) + 1
        above = masked.rfind("\n", 0, max(0, line - 1)) + 1 if line else 0
        spans = [(above, start)]
        lead = _lead_line(masked, line)
        if lead is not None and lead[0] < above:
            spans.append(lead)
        amounts: list[float] = []
        for lo, hi in spans:
            first = max(bisect_left(self.starts, lo), bisect_left(self.starts, hi) - _OPERANDS_33)
            amounts += [v for s, _, v in self.amounts[first:] if s < hi]
        r = bisect_left(self.rate_starts, start)
        rates = [
            rate
            for s, rate in zip(
                self.rate_starts[max(0, r - _PERCENTS_33) : r],
                self.rates[max(0, r - _PERCENTS_33) : r],
                strict=True,
            )
            if s >= line
        ]
        return amounts, rates


def _worked(claim: Claim, masked: str, catalog: Catalog, figures: _Figures) -> bool:
    value = claim.low or 0.0
    reach = max(0, masked.rfind("\n", 0, claim.start) + 1, claim.start - _REACH_33)
    if (
        (claim.kind == "any" or claim.admissible & PCT_FEE_KINDS)
        and claim.binding != "cell"
        and not _STATED_33.search(masked, reach, claim.start)
        and _pct_fee_worked(claim, catalog, figures.bases(masked, claim))
    ):
        return True
    if value >= _BASE_FLOOR_33 and _BASE_BEFORE_33.search(masked, reach, claim.start):
        return True  # "fee on $6,000": the amount the fee is worked on
    total = _FEES_TOTAL_AFTER_33.match(masked, claim.end) or _FEES_TOTAL_BEFORE_33.search(
        masked, reach, claim.start
    )
    difference = _DIFFERENCE_33.search(masked, reach, claim.start) or _DIFFERENCE_AFTER_33.match(
        masked, claim.end
    )
    lo, hi = _sentence(masked, claim.start, claim.end)
    counted = (
        _COUNT_33.search(masked, lo, claim.start) is not None
        and _ONE_LATE_33.search(masked, lo, hi) is None
    )
    if (total or difference) and _fees_total(
        value, claim, catalog, figures, bool(difference), counted, (lo, hi)
    ):
        return True
    governed = _governed(masked, claim)
    keeping = _KEEPING_33.search(masked, lo, claim.start) is not None
    marker = _RESULT_BEFORE_33.search(masked, reach, claim.start) or _RESULT_AFTER_33.match(
        masked, claim.end
    )
    if (
        marker
        and not keeping
        and (
            not governed
            or _ARROW_ONLY_33.search(masked, max(reach, marker.start() - 4), marker.end())
        )
    ):
        amounts, rates = figures.before(masked, claim.start)
        if _arithmetic(value, amounts, rates):
            return True
    return (
        value in figures.bonuses
        and _PLUS_BEFORE_33.search(masked, reach, claim.start) is not None
        and _BONUS_YEAR_33.match(masked, claim.end) is not None
        and not governed
    )


def worked_33(claims: Sequence[Claim], extraction: Extraction, catalog: Catalog) -> Sequence[Claim]:
    """``worked_33`` (module docstring): worked dollar figures bound as fees, and wrong for each
    of their cards, are unverified (at most ``_READ_33`` figures an answer)."""
    masked = extraction.masked
    if "$" not in masked:
        return claims
    out: list[Claim] | None = None
    figures: _Figures | None = None
    read = 0
    for i, claim in enumerate(claims):
        if (
            claim.family != FEE_CLAIM
            or not claim.cards
            or claim.is_none
            or not claim.low  # "$0" denies a fee: never a worked figure
            or claim.unit != "usd"
            or not claim.text.lstrip("*_~ ").startswith("$")
            or read >= _READ_33
            or not any(check_fee(claim, catalog.card(c), c) for c in claim.cards)
        ):
            continue
        read += 1
        if figures is None:
            figures = _Figures(extraction, catalog)
        if _worked(claim, masked, catalog, figures):
            if out is None:
                out = list(claims)
            out[i] = replace(claim, cards=(), binding="")
    return claims if out is None else out


def checked_33(
    previous: Callable[[Extraction], Sequence[Claim]] | None, catalog: Catalog
) -> Callable[[Extraction], Sequence[Claim]]:
    """The claims as ruleset 33 checks them: ruleset 32's, then ``worked_33``."""

    def checked(extraction: Extraction) -> Sequence[Claim]:
        claims = extraction.claims if previous is None else previous(extraction)
        return worked_33(claims, extraction, catalog)

    return checked
