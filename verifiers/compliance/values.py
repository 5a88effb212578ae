"""Finding the figures of a response: percentages, ranges, dollar amounts, "no ... fee"
statements and durations, before any of them is typed as a claim.

Python's regex engine only skips ahead quickly when a pattern starts with a literal or a
character class, so figures are found from their unit ("%", "$", "percent", "dollars", "month")
and the number pattern then runs on the few characters around it. Every pattern is bounded, so
the work stays linear on 1 MB of adversarial text.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

from ahocorasick_rs import AhoCorasick

from replicas.verifiers.compliance import cue_words, matchers
from replicas.verifiers.compliance import lexicon as lex
from replicas.verifiers.compliance import negation as neg
from replicas.verifiers.compliance.negation import NONE_KINDS
from replicas.verifiers.compliance.negation5 import (
    FEE_FORMS_5_TRIGGERS,
    drop_negated_waivers,
    more_none_values_5,
)
from replicas.verifiers.compliance.negation6 import drop_on_time_late_fees
from replicas.verifiers.compliance.negation_more import MORE_TRIGGERS, more_none_values
from replicas.verifiers.compliance.numwords import NUMBER_WORDS, parse_number_words
from replicas.verifiers.compliance.units import Unit

PCT, USD, NONE = "pct", "usd", "none"
# Only words that say "none": a dash or "n/a" in a table may as well mean "not listed here".
_CELL_NONE = re.compile(
    r"^[\s*_]*(?:none|no|no fee|waived|free|nil|nothing|zero|not (?:offered|charged))[\s*_.]*$",
    re.I,
)


@dataclass(slots=True)
class Value:
    """A number (or a "no fee" statement) found in the text, before it is typed.

    Not frozen only because a frozen dataclass costs five times as much to build and a response
    holds dozens of these; nothing mutates one after it is made.
    """

    start: int
    end: int
    unit: str  # pct | usd | none
    low: float | None = None
    high: float | None = None
    min_usd: float | None = None  # a fee's dollar minimum joined to its percentage
    none_kind: str | None = None
    # "no interest" / "interest-free": a 0 % that is only a claim as an intro offer (a duration
    # goes with it); "pay in full without interest" is the grace period, not a rate.
    intro_only: bool = False

    def __post_init__(self) -> None:
        if self.unit not in (PCT, USD, NONE):
            raise ValueError(f"unknown value unit {self.unit!r}")
        if self.end <= self.start:
            raise ValueError("a value covers at least one character")
        if (self.unit == NONE) != (self.none_kind in NONE_KINDS):
            raise ValueError(f"a 'no ...' value needs a kind, got {self.none_kind!r}")


def _number(raw: str) -> float:
    return float(raw.replace(",", ""))


def _left_ok(lower: str, start: int, forbidden: str) -> bool:
    """The character before ``start`` is not one of ``forbidden`` (a lookbehind, done cheaply)."""
    return start == 0 or lower[start - 1] not in forbidden


def may_hold_values(lower: str) -> bool:
    """False only if ``find_values`` is sure to find nothing in ``lower`` (any ruleset).

    Each finder below looks for its figures only near words it cannot do without (a unit, a
    negation's attribute, a trigger word) and returns nothing when none occurs; most sentences of
    an answer (advice, no figure) hold none of them. One pass of an automaton over those words
    replaces the finders' own ~80 ``str.find`` calls and a dozen function calls there.
    """
    return _VALUE_GATE.find_matches_as_indexes(lower, overlapping=False) != []


def find_values(
    lower: str,
    *,
    more_negations: bool = False,
    fee_forms_5: bool = False,
    on_time_6: bool = False,
) -> list[Value]:
    """Every percentage, dollar amount and "no ... fee" statement, in text order.

    Numbers are found from their unit - a "%", a "$", the words percent / dollars / usd - which
    are quick to search for; the number pattern then runs on a few characters around it. A
    finder whose words (``_GATE_WORDS``) the text lacks would find nothing and is not called.
    """
    values: list[Value] = []
    taken: list[tuple[int, int]] = []
    present = {_GATE_WORDS[i] for i, _, _ in _VALUE_GATE.find_matches_as_indexes(lower, True)}
    if "between" in present or "zero" in present or "usd" in present:
        for match in matchers.find_starting_with(
            lex.WORD_VALUES, lower, ("between", "zero", "usd")
        ):
            if not _left_ok(lower, match.start(), _WORD_CHARS):
                continue
            groups = match.groupdict()
            if groups["ba"] is not None:
                _add_range(values, match, "ba", "bb")
            elif groups["zero"] is not None:
                values.append(Value(match.start(), match.end(), PCT, 0.0, 0.0))
            else:
                amount = _number(groups["usdp"])
                values.append(Value(match.start(), match.end(), USD, amount, amount))
            taken.append(match.span())
    numbers = lex.NUMBERS
    for lo, hi in _anchor_spans(lower) if not present.isdisjoint(_ANCHOR_WORDS) else ():
        for match in numbers.finditer(lower, lo, hi):
            start, end = match.span()
            if taken and any(s < end and start < e for s, e in taken):
                continue
            usd, cents, range_a, _range_b, pct, usd_words = match.groups()
            if usd is not None:
                amount = _number(usd + (cents or ""))
                values.append(Value(start, end, USD, amount, amount))
            elif start and lower[start - 1] in "0123456789.$,":
                continue
            elif range_a is not None:
                _add_range(values, match, "ra", "rb")
            elif pct is not None:
                number = _number(pct)
                values.append(Value(start, end, PCT, number, number))
            else:
                amount = _number(usd_words)
                values.append(Value(start, end, USD, amount, amount))
    if not present.isdisjoint(_WORD_NUMBER_ANCHORS):
        values.extend(_word_number_values(lower))
    nones = neg.none_values(lower) if not present.isdisjoint(_NONE_WORDS) else []
    if more_negations and not present.isdisjoint(MORE_TRIGGERS):  # ruleset 4
        nones += more_none_values(lower, nones)
    if fee_forms_5:  # ruleset 5
        nones = drop_negated_waivers(lower, nones)
        if not present.isdisjoint(FEE_FORMS_5_TRIGGERS):
            nones += more_none_values_5(lower, nones)
        nones.sort()
    if on_time_6:  # ruleset 6
        nones = drop_on_time_late_fees(lower, nones)
    if nones:
        values.extend(Value(s, e, NONE, none_kind=kind) for s, e, kind in nones)
    if "interest" in present:
        values.extend(
            Value(s, e, PCT, 0.0, 0.0, intro_only=True) for s, e in neg.zero_interest_values(lower)
        )
    if not values:
        return values
    values.sort(key=_start_of)
    kept = [v for v in _drop_overlaps(values) if not _withdrawn(lower, v)]
    return _join_fee_pairs(lower, kept)


def _withdrawn(lower: str, value: Value) -> bool:
    """ "not the $95 you may have seen", "instead of 3%": a figure the response takes back."""
    if value.unit == NONE or value.start < 3:
        return False
    return neg.WITHDRAWN.search(lower, max(0, value.start - 20), value.start) is not None


_WORD_NUMBER_VALUE = re.compile(
    rf"(?P<n>{NUMBER_WORDS})[ \t-]{{1,2}}(?:(?P<usd>dollars?|bucks)|(?P<pct>percent|per[ \t]cent))\b"
)
_WORD_NUMBER_ANCHORS = ("dollar", "bucks", "percent", "per cent")


def _word_number_values(lower: str) -> list[Value]:
    """ "ninety-five dollars", "three percent": figures written in words."""
    out: list[Value] = []
    seen: set[int] = set()
    for anchor in _WORD_NUMBER_ANCHORS:
        pos = lower.find(anchor)
        while pos >= 0:
            lo = max(0, pos - 48)
            for match in _WORD_NUMBER_VALUE.finditer(lower, lo, min(len(lower), pos + 12)):
                start = match.start()
                if match.end() <= pos or start in seen or not _left_ok(lower, start, _WORD_CHARS):
                    continue
                seen.add(start)
                number = float(parse_number_words(match.group("n")))
                unit = USD if match.group("usd") else PCT
                out.append(Value(start, match.end(), unit, number, number))
            pos = lower.find(anchor, pos + len(anchor))
    return out


def _start_of(value: Value) -> int:
    return value.start


_WORD_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_"
# The literal alternatives of ``lex.NUMBER_ANCHOR`` ("pct" only before a word boundary).
_ANCHOR_WORDS = ("%", "$", "percent", "per cent", "per\tcent", "pct", "dollar", "bucks")


def _anchors(lower: str) -> list[tuple[int, int]]:
    """The matches of ``lex.NUMBER_ANCHOR`` as ``(start, end)``, found with ``str.find``.

    No alternative can overlap another occurrence of itself or of another alternative, so the
    occurrences of each, merged in text order, are exactly the pattern's matches - found at
    memchr speed instead of by the regex engine visiting every character.
    """
    out: list[tuple[int, int]] = []
    size = len(lower)
    for word in _ANCHOR_WORDS:
        length = len(word)
        pos = lower.find(word)
        while pos >= 0:
            after = pos + length
            if (
                word != "pct"
                or after == size
                or not (lower[after].isalnum() or lower[after] == "_")
            ):
                out.append((pos, after))
            pos = lower.find(word, after)
    out.sort()
    return out


def _anchor_spans(lower: str) -> list[tuple[int, int]]:
    """Stretches of text around "%", "$", "percent", "dollars"..., overlapping ones merged.

    The number pattern then runs once over each stretch: linear however dense the anchors are.
    """
    spans: list[tuple[int, int]] = []
    size = len(lower)
    for start, end in _anchors(lower):
        lo = start if lower[start] == "$" else max(0, start - 28)
        hi = min(size, end + 24)
        if spans and lo <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], hi))
        else:
            spans.append((lo, hi))
    return spans


# Every word a finder of ``find_values`` needs (see ``may_hold_values``): the unit anchors of
# numbers and of numbers in words, the word values ("between", "zero", "usd"), the anchors of
# negations and postfix "none" forms, ruleset 4's and 5's triggers and "no interest".
_GATE_WORDS: list[str] = sorted(
    {
        *_ANCHOR_WORDS,
        *_WORD_NUMBER_ANCHORS,
        "between",
        "zero",
        "usd",
        *neg.ATTRIBUTE_ANCHORS,
        *neg.POSTFIX_ANCHORS,
        *MORE_TRIGGERS,
        *FEE_FORMS_5_TRIGGERS,
        "interest",
    }
)
_VALUE_GATE = AhoCorasick(_GATE_WORDS)
# the words without which ``neg.none_values`` finds nothing (its two windowed searches)
_NONE_WORDS = frozenset((*neg.ATTRIBUTE_ANCHORS, *neg.POSTFIX_ANCHORS))


def _add_range(values: list[Value], match: re.Match[str], first: str, second: str) -> None:
    low, high = _number(match.group(first)), _number(match.group(second))
    between = match.string[match.end(first) : match.start(second)]
    if low > high and low <= 100 and "%" in between:
        # "99.99%-28.99%": both numbers are percentages, so both are claims (a reversed range
        # is no card's APR, and its first figure must not slip through as a name's number).
        end_first = match.end(first) + between.index("%") + 1
        values.append(Value(match.start(first), end_first, PCT, low, low))
        values.append(Value(match.start(second), match.end(), PCT, high, high))
        return
    if low > 100 or low > high:
        # "Pinnacle Cash Reward 360 - 2.99%": a name's number before a dash, not a range.
        values.append(Value(match.start(second), match.end(), PCT, high, high))
        return
    if low == 0 and high > 0:
        # "from 0% to 19.99% after 15 months": an intro rate and the rate after it.
        values.append(Value(match.start(first), match.end(first), PCT, 0.0, 0.0))
        values.append(Value(match.start(second), match.end(), PCT, high, high))
        return
    values.append(Value(match.start(), match.end(), PCT, min(low, high), max(low, high)))


def _drop_overlaps(values: list[Value]) -> list[Value]:
    out: list[Value] = []
    for value in values:
        if out and value.start < out[-1].end:
            continue
        out.append(value)
    return out


_CELL_NONE_KINDS = (
    (cue_words.ANNUAL, neg.NONE_ANNUAL),
    (cue_words.FOREIGN, neg.NONE_FOREIGN),
    (cue_words.LATE, neg.NONE_LATE),
    (cue_words.CASH, neg.NONE_CASH),
    (cue_words.BT, neg.NONE_BT),
    (cue_words.PENALTY, neg.NONE_PENALTY),
)


def cell_none(text: str, unit: Unit) -> list[Value]:
    """A table cell reading "None" under a fee or intro column: the card has no such term."""
    if unit.end <= unit.start or not _CELL_NONE.match(text[unit.start : unit.end]):
        return []
    kinds = {kind for kind, _ in unit.context_cues}
    if cue_words.INTRO in kinds:
        none_kind = neg.NONE_INTRO
        if cue_words.BT in kinds and cue_words.PURCHASE not in kinds:
            none_kind = neg.NONE_INTRO_BT
        elif cue_words.PURCHASE in kinds and cue_words.BT not in kinds:
            none_kind = neg.NONE_INTRO_PURCHASE
        return [Value(unit.start, unit.end, NONE, none_kind=none_kind)]
    if (
        cue_words.FEE not in kinds
        and cue_words.PENALTY not in kinds
        and cue_words.COST not in kinds
    ):
        return []  # "none" under "Cash advance APR", "Rewards" or "0% transfers?" is no fee claim
    for cue, none_kind in _CELL_NONE_KINDS:
        if cue in kinds:
            return [Value(unit.start, unit.end, NONE, none_kind=none_kind)]
    return []


def _join_fee_pairs(lower: str, values: list[Value]) -> list[Value]:
    """Merge "3% of each transfer, minimum $5" / "$5 or 3%, whichever is greater" into one value.

    A percentage followed by a dollar amount joins when a minimum word sits between them or
    right after the amount ("3% ($5 minimum)"); a dollar amount followed by a percentage only in
    the "$5 or 3% ..., whichever is greater" form.
    """
    out: list[Value] = []
    i = 0
    while i < len(values):
        current = values[i]
        following = values[i + 1] if i + 1 < len(values) else None
        joined = _fee_pair(lower, current, following) if following is not None else None
        if joined is not None:
            out.append(joined)
            i += 2
            continue
        out.append(current)
        i += 1
    return out


# "$5 or 3%", "5% of the amount or $10" (", whichever is greater" follows)
_EITHER_OR_GAP = re.compile(
    r"[ \t]{1,3}(?:of[ \t]{1,3}(?:the|each|every|any)[ \t]{1,3}(?:amount|transfer|advance|"
    r"transaction|withdrawal)s?(?:[ \t]{1,3}(?:transferred|advanced|withdrawn))?[ \t]{0,2},?"
    r"[ \t]{1,3})?or[ \t]{1,3}"
)


def _fee_pair(lower: str, first: Value, second: Value) -> Value | None:
    pct_then_usd = first.unit == PCT and second.unit == USD and first.low == first.high
    usd_then_pct = first.unit == USD and second.unit == PCT and second.low == second.high
    if not (pct_then_usd or usd_then_pct):
        return None
    gap = lower[first.end : second.start]
    if (
        len(gap) > 60
        or "." in gap.replace("min.", "").replace("max.", "")
        or ";" in gap
        or "\n" in gap
        or "|" in gap
    ):
        return None
    after = lower[second.end : second.end + 60]
    either_or = bool(_EITHER_OR_GAP.fullmatch(gap)) and "whichever" in after
    if pct_then_usd and (
        lex.FEE_MINIMUM_WORD.search(gap)
        or lex.FEE_MINIMUM_WORD.match(after.lstrip(" ("))
        or either_or
    ):
        return Value(first.start, second.end, PCT, first.low, first.high, second.low)
    if usd_then_pct and either_or:
        return Value(first.start, second.end, PCT, second.low, second.high, first.low)
    return None


# Which duration patterns can contain each unit word ``lex.MONTH_ANCHOR`` finds: "15 months"
# and "fifteen months" hold "month"; only the word pattern holds "year" ("first year"), only the
# numeric one "period" and "mo"/"mos" ("12 mos."). A pattern that cannot contain the anchor could
# not yield a duration for it.
_DURATION_PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {
    "month": (lex.MONTHS, lex.WORD_MONTHS),
    "cycle": (lex.MONTHS, lex.WORD_MONTHS),
    "mo": (lex.MONTHS,),
    "mos": (lex.MONTHS,),
    "period": (lex.MONTHS,),
    "year": (lex.WORD_MONTHS,),
}


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def month_anchors(lower: str) -> list[tuple[int, int, str]]:
    """The matches of ``lex.MONTH_ANCHOR`` (``month|mos?\\b|cycle|period|year``) as
    ``(start, end, word)``, found with ``str.find``: no two can overlap, so they are simply every
    occurrence of each word, "mo" read as "month" where it is one and kept only before a word
    boundary otherwise."""
    out: list[tuple[int, int, str]] = []
    size = len(lower)
    pos = lower.find("mo")
    while pos >= 0:
        if lower.startswith("month", pos):
            out.append((pos, pos + 5, "month"))
            pos = lower.find("mo", pos + 5)
            continue
        if lower.startswith("mos", pos) and (pos + 3 == size or not _is_word_char(lower[pos + 3])):
            out.append((pos, pos + 3, "mos"))
        elif pos + 2 == size or not _is_word_char(lower[pos + 2]):
            out.append((pos, pos + 2, "mo"))
        pos = lower.find("mo", pos + 2)
    for word in ("cycle", "period", "year"):
        length = len(word)
        pos = lower.find(word)
        while pos >= 0:
            out.append((pos, pos + length, word))
            pos = lower.find(word, pos + length)
    out.sort()
    return out


class Durations:
    """The durations of a text, unit by unit: the unit words are found once for the whole
    response; each unit then reads only the few around its own."""

    __slots__ = ("_anchors", "_lower", "_starts")

    def __init__(self, lower: str) -> None:
        self._lower = lower
        self._anchors = month_anchors(lower)
        self._starts = [a[0] for a in self._anchors]

    def within(self, start: int, end: int) -> list[tuple[int, int, int]]:
        """``(start, end, months)`` of the durations starting in the unit ``[start, end)``: a
        duration never spans a unit edge, so these are the ones around the unit's own words."""
        lo, hi = bisect_left(self._starts, start), bisect_left(self._starts, end)
        if lo == hi:
            return []
        return _durations(self._lower, self._anchors[lo:hi])


def _durations(lower: str, anchors: Sequence[tuple[int, int, str]]) -> list[tuple[int, int, int]]:
    out: list[tuple[int, int, int]] = []
    size = len(lower)
    for a_start, a_end, word in anchors:
        lo = max(0, a_start - 30)
        for pattern in _DURATION_PATTERNS[word]:
            for match in pattern.finditer(lower, lo, min(size, a_end + 12)):
                if match.start() <= a_start < match.end() and _left_ok(
                    lower, match.start(), _WORD_CHARS + "."
                ):
                    out.append((match.start(), match.end(), lex.months_value(match)))
    return sorted(set(out))
