"""Finding the figures of a response: percentages, ranges, dollar amounts, "no ... fee"
statements and durations, before any of them is typed as a claim.

Python's regex engine only skips ahead quickly when a pattern starts with a literal or a
character class, so figures are found from their unit ("%", "$", "percent", "dollars", "month")
and the number pattern then runs on the few characters around it. Every pattern is bounded, so
the work stays linear on 1 MB of adversarial text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from replicas.verifiers import _compliance_lexicon as lex
from replicas.verifiers._compliance_units import Unit

PCT, USD, NONE = "pct", "usd", "none"
NONE_KINDS = (
    "none_annual",
    "none_foreign",
    "none_bt",
    "none_penalty",
)
_CELL_NONE = re.compile(r"^[\s*_]*(?:none|no|no fee|waived|free)[\s*_.]*$", re.I)


@dataclass(frozen=True)
class Value:
    """A number (or a "no fee" statement) found in the text, before it is typed."""

    start: int
    end: int
    unit: str  # pct | usd | none
    low: float | None = None
    high: float | None = None
    min_usd: float | None = None  # a fee's dollar minimum joined to its percentage
    none_kind: str | None = None

    def __post_init__(self) -> None:
        if self.unit not in (PCT, USD, NONE):
            raise ValueError(f"unknown value unit {self.unit!r}")
        if self.end <= self.start:
            raise ValueError("a value covers at least one character")


def _number(raw: str) -> float:
    return float(raw.replace(",", ""))


def _left_ok(lower: str, start: int, forbidden: str) -> bool:
    """The character before ``start`` is not one of ``forbidden`` (a lookbehind, done cheaply)."""
    return start == 0 or lower[start - 1] not in forbidden


def find_values(lower: str) -> list[Value]:
    """Every percentage, dollar amount and "no ... fee" statement, in text order.

    Numbers are found from their unit - a "%", a "$", the words percent / dollars / usd - which
    are quick to search for; the number pattern then runs on a few characters around it.
    """
    values: list[Value] = []
    taken: list[tuple[int, int]] = []
    if "between" in lower or "zero" in lower or "usd" in lower:
        for match in lex.WORD_VALUES.finditer(lower):
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
    for lo, hi in _anchor_spans(lower):
        for match in lex.NUMBERS.finditer(lower, lo, hi):
            start, end = match.span()
            if taken and any(s < end and start < e for s, e in taken):
                continue
            groups = match.groupdict()
            if groups["usd"] is not None:
                amount = _number(groups["usd"] + (groups["cents"] or ""))
                values.append(Value(start, end, USD, amount, amount))
            elif not _left_ok(lower, start, "0123456789.$,"):
                continue
            elif groups["ra"] is not None:
                _add_range(values, match, "ra", "rb")
            elif groups["pct"] is not None:
                number = _number(groups["pct"])
                values.append(Value(start, end, PCT, number, number))
            else:
                amount = _number(groups["usdw"])
                values.append(Value(start, end, USD, amount, amount))
    values.extend(_none_values(lower))
    values.sort(key=lambda v: v.start)
    return _join_fee_pairs(lower, _drop_overlaps(values))


_WORD_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_"


def _anchor_spans(lower: str) -> list[tuple[int, int]]:
    """Stretches of text around "%", "$", "percent", "dollars"..., overlapping ones merged.

    The number pattern then runs once over each stretch: linear however dense the anchors are.
    """
    spans: list[tuple[int, int]] = []
    for anchor in lex.NUMBER_ANCHOR.finditer(lower):
        lo = anchor.start() if anchor.group(0) == "$" else max(0, anchor.start() - 28)
        hi = min(len(lower), anchor.end() + 24)
        if spans and lo <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], hi))
        else:
            spans.append((lo, hi))
    return spans


def _add_range(values: list[Value], match: re.Match[str], first: str, second: str) -> None:
    low, high = _number(match.group(first)), _number(match.group(second))
    if low == 0 and high > 0:
        # "from 0% to 19.99% after 15 months": an intro rate and the rate after it.
        values.append(Value(match.start(first), match.end(first), PCT, 0.0, 0.0))
        values.append(Value(match.start(second), match.end(), PCT, high, high))
        return
    values.append(Value(match.start(), match.end(), PCT, min(low, high), max(low, high)))


_NONE_HINTS = ("no", "zero", "n't", "never", "without", "free")


def _none_values(lower: str) -> list[Value]:
    """ "No annual fee"-style statements, searched only just before fee and penalty words."""
    found: dict[int, Value] = {}
    for anchor in lex.NONE_ANCHOR.finditer(lower):
        lo = max(0, anchor.start() - 70)
        hi = min(len(lower), anchor.end() + 30)
        window = lower[lo:hi]
        if not any(hint in window for hint in _NONE_HINTS):
            continue
        for match in lex.NONE_PHRASES.finditer(lower, lo, hi):
            if match.start() in found:
                continue
            kind = next(k for k in NONE_KINDS if match.group(k) is not None)
            found[match.start()] = Value(match.start(), match.end(), NONE, none_kind=kind)
    return list(found.values())


def _drop_overlaps(values: list[Value]) -> list[Value]:
    out: list[Value] = []
    for value in values:
        if out and value.start < out[-1].end:
            continue
        out.append(value)
    return out


_CELL_NONE_KINDS = (
    (lex.ANNUAL, "none_annual"),
    (lex.FOREIGN, "none_foreign"),
    (lex.BT, "none_bt"),
    (lex.PENALTY, "none_penalty"),
)


def cell_none(text: str, unit: Unit) -> list[Value]:
    """A table cell reading "None" under a fee column states that the card has no such fee."""
    if unit.end <= unit.start or not _CELL_NONE.match(text[unit.start : unit.end]):
        return []
    kinds = {kind for kind, _ in unit.context_cues}
    if lex.FEE not in kinds and lex.PENALTY not in kinds:
        return []
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


def _fee_pair(lower: str, first: Value, second: Value) -> Value | None:
    gap = lower[first.end : second.start]
    if len(gap) > 60 or any(c in gap for c in ".;\n|"):
        return None
    after = lower[second.end : second.end + 60]
    either_or = bool(re.fullmatch(r"[ \t]{1,3}or[ \t]{1,3}", gap)) and "whichever" in after
    if (
        first.unit == PCT
        and second.unit == USD
        and first.low == first.high
        and (
            lex.FEE_MINIMUM_WORD.search(gap)
            or lex.FEE_MINIMUM_WORD.match(after.lstrip(" ("))
            or either_or
        )
    ):
        return Value(first.start, second.end, PCT, first.low, first.high, second.low)
    if first.unit == USD and second.unit == PCT and second.low == second.high and either_or:
        return Value(first.start, second.end, PCT, second.low, second.high, first.low)
    return None


def find_months(lower: str) -> list[tuple[int, int, int]]:
    """Durations ("15 months", "18 billing cycles", "fifteen months", "first year"), as
    ``(start, end, months)``; found from the unit word backwards, which is cheap to search for."""
    out: list[tuple[int, int, int]] = []
    for anchor in lex.MONTH_ANCHOR.finditer(lower):
        lo = max(0, anchor.start() - 30)
        for pattern in (lex.MONTHS, lex.WORD_MONTHS):
            for match in pattern.finditer(lower, lo, min(len(lower), anchor.end() + 12)):
                if match.start() <= anchor.start() < match.end() and _left_ok(
                    lower, match.start(), _WORD_CHARS + "."
                ):
                    out.append((match.start(), match.end(), lex.months_value(match)))
    return sorted(set(out))
