"""Deterministic claim extraction: which card a response says has which term.

A *claim* is a number with ``%`` near an APR word, a dollar amount near a fee word, or a "no
annual fee" style statement, typed by the cue words around it and attributed to a card.

The text is cut into *units*: sentences (and list items, headings) of prose, and the cells of
markdown tables - a cell borrows the cue words of its column header and the card of its row (or,
in a transposed table, the other way round). Inside a unit every value gets a *window*: the text
from the previous value to the next, split at the last clause boundary between them (a comma,
"and", "then", ...). The window's cue words type the value - "19.99%-29.99% variable APR on
purchases" is a purchase APR, "0% intro APR on balance transfers for 18 months" an intro offer
with its months, "then 19.99%" the rate after it, "3% of each transfer (min $5)" a balance
transfer fee with its dollar minimum.

Attribution: the nearest card named before the value in its unit (or all cards of a "X and Y"
subject), else the first named after it in the unit, else - for "all three cards" - every card
named so far, else the card the text was last talking about, else the only card the response
names. Sentences about cards in general ("most cards charge ...") attribute to nothing.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from replicas.verifiers import _compliance_lexicon as lex
from replicas.verifiers._compliance_names import UNKNOWN, NameMention

Draft = dict[str, Any]  # a claim's fields before attribution

# Claim families and kinds.
APR_CLAIM = "apr"  # kinds: purchase, cash_advance, penalty
INTRO_CLAIM = "intro"  # kinds: purchase, bt, any
FEE_CLAIM = "fee"  # kinds: annual, bt, cash_advance, foreign, late, min_interest, any

PCT, USD, NONE = "pct", "usd", "none"
_NONE_KINDS = {
    "none_annual": (FEE_CLAIM, "annual"),
    "none_foreign": (FEE_CLAIM, "foreign"),
    "none_bt": (FEE_CLAIM, "bt"),
    "none_penalty": (APR_CLAIM, "penalty"),
}
_SENTENCE_END = re.compile(r"[.!?]+(?=[ \t\n\"')\]*]|$)|\n")
_NO_SPLIT_BEFORE_DOT = frozenset(
    [
        "vs",
        "e.g",
        "i.e",
        "u.s",
        "etc",
        "approx",
        "min",
        "max",
        "no",
        "mo",
        "mos",
        "yr",
        "inc",
        "est",
        "avg",
        "incl",
        "ca",
    ]
)
# Two or more consecutive lines with at least two "|" each: a markdown table.
_TABLE_BLOCK = re.compile(r"(?m)^[^\n|]*\|[^\n|]*\|[^\n]*(?:\n[^\n|]*\|[^\n|]*\|[^\n]*)+")
_TABLE_SEPARATOR = re.compile(r"^[\s|:\-]+$")
_CELL_NONE = re.compile(r"^[\s*_]*(?:none|no|no fee|waived|free)[\s*_.]*$", re.I)
_CARD_HEADER = re.compile(r"\b(?:card|product|name)s?\b", re.I)


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


@dataclass(frozen=True)
class Claim:
    """A typed, attributed statement about one or more cards' terms."""

    family: str
    kind: str
    start: int
    end: int
    unit: str
    low: float | None = None
    high: float | None = None
    min_usd: float | None = None
    months: int | None = None
    scopes: frozenset[str] = frozenset()
    variability: str | None = None  # "variable" | "fixed" when the text says so
    is_none: bool = False
    cards: tuple[str, ...] = ()
    text: str = ""

    def __post_init__(self) -> None:
        if self.family not in (APR_CLAIM, INTRO_CLAIM, FEE_CLAIM):
            raise ValueError(f"unknown claim family {self.family!r}")


@dataclass
class Unit:
    """A sentence, list item, heading or table cell; claims are typed within one unit."""

    start: int
    end: int
    context_cues: list[tuple[str, int]] = field(default_factory=list)
    cards: tuple[str, ...] | None = None  # preset by a table row/column (None: use the text)
    is_cell: bool = False


@dataclass(frozen=True)
class Extraction:
    claims: tuple[Claim, ...]
    mentions: tuple[NameMention, ...]
    units: tuple[tuple[int, int], ...]


# -- units -----------------------------------------------------------------------------------


def _sentence_units(text: str, start: int, end: int, out: list[Unit]) -> None:
    cursor = start
    for match in _SENTENCE_END.finditer(text, start, end):
        stop = match.start()
        if match.group(0) != "\n" and text.count('"', cursor, stop) % 2 == 1:
            continue  # inside a quotation: "0% APR for 24 months!" is not a sentence end
        if match.group(0) != "\n" and stop > 0 and text[stop - 1].isalpha():
            # "vs." / "e.g." / "U.S." / "min." do not end a sentence.
            head = text[max(cursor, stop - 8) : stop].lower()
            word = head.rsplit(None, 1)[-1].lstrip("(*[\"'") if head.strip() else ""
            if word in _NO_SPLIT_BEFORE_DOT or len(word) == 1:
                continue
        if match.end() > cursor:
            out.append(Unit(cursor, match.end()))
        cursor = match.end()
    if cursor < end:
        out.append(Unit(cursor, end))


def _line_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    spans = []
    pos = start
    for line in text[start:end].split("\n"):
        spans.append((pos, pos + len(line)))
        pos += len(line) + 1
    return spans


def _cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Cell spans of one table row (outer pipes dropped, cell text trimmed)."""
    cells = []
    pos = start
    line = text[start:end]
    parts = line.split("|")
    for index, part in enumerate(parts):
        cell_start, cell_end = pos, pos + len(part)
        pos = cell_end + 1
        if (index == 0 or index == len(parts) - 1) and not part.strip():
            continue
        stripped_left = len(part) - len(part.lstrip())
        stripped_right = len(part) - len(part.rstrip())
        cells.append(
            (cell_start + stripped_left, max(cell_start + stripped_left, cell_end - stripped_right))
        )
    return cells


def build_units(text: str, cues: CueIndex, mentions: MentionIndex) -> list[Unit]:
    """Prose sentences and table cells, in document order, covering the whole text."""
    units: list[Unit] = []
    cursor = 0
    if "|" in text:
        for block in _TABLE_BLOCK.finditer(text):
            if block.start() > cursor:
                _sentence_units(text, cursor, block.start(), units)
            _table_units(text, cues, _line_spans(text, *block.span()), mentions, units)
            cursor = block.end()
    if cursor < len(text):
        _sentence_units(text, cursor, len(text), units)
    return units


class CueIndex:
    """Every cue word of the text, tagged once, minus those inside card names.

    "Atlas Business Rewards", "Harbor Sky Miles" and "Prism Low Rate" contain reward and rate
    words that say nothing about the value next to them.
    """

    def __init__(self, lower: str, mentions: Sequence[NameMention]) -> None:
        spans = [(m.start, m.end) for m in mentions]
        starts = [m.start for m in mentions]
        tokens = [(m.start(), m.group(0)) for m in lex.CUE_TOKEN.finditer(lower)]
        words = [w if not w[0].isdigit() else "#" for _, w in tokens]
        cues: list[tuple[str, int]] = []
        i = 0
        n = len(tokens)
        while i < n:
            word = words[i]
            cue = None
            width = 1
            for rest, phrase_cue in lex.CUE_PHRASES.get(word, ()):
                if tuple(words[i + 1 : i + 1 + len(rest)]) == rest:
                    cue, width = phrase_cue, 1 + len(rest)
                    break
            if cue is None:
                cue = lex.CUE_WORDS.get(word)
            if cue is not None:
                pos = tokens[i][0]
                k = bisect_right(starts, pos) - 1
                if not (k >= 0 and spans[k][0] <= pos < spans[k][1]):
                    cues.append((cue, pos))
            i += width
        self._cues = cues
        self._positions = [pos for _, pos in cues]

    def within(self, start: int, end: int) -> list[tuple[str, int]]:
        return self._cues[bisect_left(self._positions, start) : bisect_left(self._positions, end)]


class MentionIndex:
    """Card mentions in text order with their start positions, for range look-ups."""

    def __init__(self, mentions: Sequence[NameMention]) -> None:
        self.all = list(mentions)
        self.starts = [m.start for m in self.all]

    def within(self, start: int, end: int) -> list[NameMention]:
        return self.all[bisect_left(self.starts, start) : bisect_left(self.starts, end)]


def _table_units(
    text: str,
    cues: CueIndex,
    rows: Sequence[tuple[int, int]],
    mentions: MentionIndex,
    out: list[Unit],
) -> None:
    header = _cells(text, *rows[0])
    body = [r for r in rows[1:] if not _TABLE_SEPARATOR.match(text[r[0] : r[1]])]
    header_cards = [_cell_cards(mentions, cell) for cell in header]
    column_cues = [
        [] if _CARD_HEADER.search(text[cell[0] : cell[1]]) else cues.within(*cell)
        for cell in header
    ]
    transposed = sum(1 for cards in header_cards[1:] if cards is not None) >= 1
    # Header cells are units of their own so the names in them are seen, but carry no claims.
    for cell in header:
        out.append(Unit(cell[0], cell[1], is_cell=True, cards=None))
    for row in body:
        cells = _cells(text, *row)
        if transposed:
            label_cues = cues.within(*cells[0]) if cells else []
            for column, cell in enumerate(cells):
                cards = header_cards[column] if column < len(header_cards) else None
                if column == 0:
                    out.append(Unit(cell[0], cell[1], is_cell=True))
                    continue
                out.append(Unit(cell[0], cell[1], list(label_cues), cards or (), True))
            continue
        row_cards = None
        for cell in cells:
            row_cards = _cell_cards(mentions, cell)
            if row_cards is not None:
                break
        first_is_label = bool(cells) and _cell_cards(mentions, cells[0]) is None
        label_cues = cues.within(*cells[0]) if first_is_label and row_cards is None else []
        for column, cell in enumerate(cells):
            header_cues = column_cues[column] if column < len(column_cues) else []
            out.append(Unit(cell[0], cell[1], header_cues + label_cues, row_cards, True))


def _cell_cards(mentions: MentionIndex, cell: tuple[int, int]) -> tuple[str, ...] | None:
    """The card(s) a cell names (``()`` for an unknown product), or None when it names none."""
    found = mentions.within(*cell)
    if not found:
        return None
    return tuple(m.card_id for m in found if m.card_id is not None)


# -- values ----------------------------------------------------------------------------------


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
            kind = next(k for k in _NONE_KINDS if match.group(k) is not None)
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


def _cell_none(text: str, unit: Unit) -> list[Value]:
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


# -- typing values -----------------------------------------------------------------------------


def _draft(family: str, kind: str, start: int, end: int, unit: str, *args: Any, **kw: Any) -> Draft:
    """The fields of a claim before it is attributed (built into a ``Claim`` exactly once)."""
    fields = dict(zip(("low", "high", "min_usd"), args, strict=False))
    fields.update(kw)
    return {"family": family, "kind": kind, "start": start, "end": end, "unit": unit, **fields}


@dataclass(frozen=True)
class _Window:
    """The cue words and durations around one value: ``cues``/``months`` between the clause
    boundaries next to it, ``wide_*`` over the whole stretch between its neighbouring values
    (used when the clause alone names no term, as in "...; after that, 19.99% to 29.99%")."""

    start: int
    end: int
    cues: tuple[tuple[str, int], ...]
    months: tuple[tuple[int, int, int], ...]  # (start, end, months)
    wide_cues: tuple[tuple[str, int], ...] = ()
    wide_months: tuple[tuple[int, int, int], ...] = ()
    lead_cues: tuple[tuple[str, int], ...] = ()


def _nearest(
    cues: Sequence[tuple[str, int]], kinds: frozenset[str] | set[str], pos: int
) -> tuple[str, int] | None:
    best: tuple[str, int] | None = None
    best_distance = 1 << 30
    for kind, where in cues:
        if kind in kinds:
            distance = abs(where - pos)
            if distance < best_distance:
                best, best_distance = (kind, where), distance
    return best


_FEE_TYPES = frozenset(
    {lex.FOREIGN, lex.BT, lex.CASH, lex.LATE, lex.ANNUAL, lex.MIN_INTEREST, lex.OTHER_FEE}
)
_APR_SCOPES = frozenset({lex.CASH, lex.PENALTY, lex.PURCHASE, lex.BT, lex.LATE})


def _distance(cue: tuple[str, int] | None, pos: int) -> int:
    return abs(cue[1] - pos) if cue is not None else 1 << 30


_TYPING_CUES = frozenset(
    {
        lex.FEE,
        lex.APR,
        lex.INTRO,
        lex.FOREIGN,
        lex.VARIABLE,
        lex.FIXED,
        lex.ANNUAL,
        lex.LATE,
        lex.MIN_INTEREST,
        lex.AFTER,
        lex.REGULAR,
    }
)


def type_value(value: Value, window: _Window) -> Draft | None:
    """The claim a value makes given the cue words of its window (None: not a claim)."""
    if value.unit == NONE:
        family, kind = _NONE_KINDS[value.none_kind or ""]
        return _draft(family, kind, value.start, value.end, NONE, is_none=True)
    if not any(c[0] in _TYPING_CUES for c in window.cues) and not window.months:
        wide = window.wide_cues
        if not any(c[0] in _TYPING_CUES for c in wide) and not window.wide_months:
            # "APRs: purchases 19.99%, cash advances 29.99%": the unit's lead-in types its list.
            wide = wide + tuple(c for c in window.lead_cues if c[0] in (lex.APR, lex.FEE))
        window = _Window(window.start, window.end, wide, window.wide_months)
    cues = window.cues
    kinds = {c[0] for c in cues}
    pos = value.start
    reward = _nearest(cues, {lex.REWARD}, pos)
    if value.unit == USD:
        return _type_usd(value, cues, kinds, reward, pos)
    fee = _nearest(cues, {lex.FEE}, pos)
    apr = _nearest(cues, {lex.APR, lex.INTRO}, pos)
    if value.min_usd is not None and fee is None:
        fee = (lex.FEE, value.end)  # a dollar minimum only ever belongs to a fee
    if fee is None and apr is None:
        if lex.FOREIGN in kinds and reward is None:
            return _draft(FEE_CLAIM, "foreign", value.start, value.end, PCT, value.low, value.high)
        # "0% for the first 15 months on purchases", "19.99% to 29.99% variable", "then 19.99%":
        # a rate without the word APR.
        implied = _nearest(cues, {lex.VARIABLE, lex.FIXED, lex.AFTER, lex.REGULAR}, pos)
        if implied is None and window.months and kinds & {lex.PURCHASE, lex.BT}:
            implied = (lex.INTRO, window.months[0][0])
        if implied is None or reward is not None:
            return None
        apr = implied
    if reward is not None and _distance(reward, pos) < min(
        _distance(fee, pos), _distance(apr, pos)
    ):
        return None
    if fee is not None and _distance(fee, pos) <= _distance(apr, pos):
        scope = _nearest(cues, {lex.FOREIGN, lex.BT, lex.CASH, lex.OTHER_FEE}, pos)
        if scope is not None and scope[0] == lex.OTHER_FEE:
            return None
        kind = {lex.FOREIGN: "foreign", lex.BT: "bt", lex.CASH: "cash_advance"}.get(
            scope[0] if scope else "", "any"
        )
        return _draft(
            FEE_CLAIM, kind, value.start, value.end, PCT, value.low, value.high, value.min_usd
        )
    variability = None
    if lex.VARIABLE in kinds:
        variability = "variable"
    elif lex.FIXED in kinds:
        variability = "fixed"
    # "then 19.99%" / "19.99% after the intro period" is the rate after an offer; "0% intro APR
    # for 15 months, then the standard APR" is the offer itself: the nearer cue decides.
    after = _nearest(cues, {lex.AFTER, lex.REGULAR}, pos)
    intro = _nearest(cues, {lex.INTRO}, pos)
    if intro is None and window.months:
        intro = (lex.INTRO, window.months[0][0])
    is_after = after is not None and _distance(after, pos) < _distance(intro, pos)
    is_intro = not is_after and intro is not None
    if is_intro and value.low == value.high:
        scopes = frozenset(
            {
                "purchase" if k == lex.PURCHASE else "bt"
                for k in kinds
                if k in (lex.PURCHASE, lex.BT)
            }
        )
        if len(scopes) == 2:
            split = _split_scopes(cues, window, value)
            if split is not None:
                return split
        months = _months_after(window, value)
        end = value.end
        return _draft(
            INTRO_CLAIM,
            "any" if not scopes else "+".join(sorted(scopes)),
            value.start,
            end,
            PCT,
            value.low,
            value.high,
            months=months,
            scopes=scopes,
        )
    scope = _nearest(cues, _APR_SCOPES, pos)
    kind = {lex.CASH: "cash_advance", lex.PENALTY: "penalty", lex.LATE: "penalty"}.get(
        scope[0] if scope else "", "purchase"
    )
    if lex.PENALTY in kinds and kind == "purchase" and lex.PURCHASE not in kinds:
        kind = "penalty"
    return _draft(
        APR_CLAIM,
        kind,
        value.start,
        value.end,
        PCT,
        value.low,
        value.high,
        variability=variability if kind == "purchase" else None,
    )


def _split_scopes(cues: Sequence[tuple[str, int]], window: _Window, value: Value) -> Draft | None:
    """ "0% intro APR on purchases for 15 months and on balance transfers for 21 months": one rate,
    two offers. Each duration goes with the nearest scope word; returned as a two-claim draft."""
    months = [m for m in window.months if m[0] >= value.end]
    scope_cues = [c for c in cues if c[0] in (lex.PURCHASE, lex.BT) and c[1] >= value.start]
    if len(months) < 2 or not scope_cues:
        return None
    per_scope: dict[str, int] = {}
    for start, _end, count in months[:2]:
        kind, _ = min(scope_cues, key=lambda c: abs(c[1] - start))
        per_scope.setdefault("purchase" if kind == lex.PURCHASE else "bt", count)
    if len(per_scope) != 2:
        return None
    return {
        "split": [
            _draft(INTRO_CLAIM, kind, value.start, value.end, PCT, value.low, value.high,
                   months=count, scopes=frozenset({kind}))
            for kind, count in per_scope.items()
        ]
    }


def _months_after(window: _Window, value: Value) -> int | None:
    for start, _end, months in window.months:
        if start >= value.end:
            return months
    return window.months[0][2] if window.months else None


def _type_usd(
    value: Value,
    cues: Sequence[tuple[str, int]],
    kinds: set[str],
    reward: tuple[str, int] | None,
    pos: int,
) -> Draft | None:
    if lex.MIN_INTEREST in kinds:
        return _draft(FEE_CLAIM, "min_interest", value.start, value.end, USD, value.low, value.high)
    fee = _nearest(cues, {lex.FEE}, pos)
    if fee is None and reward is not None:
        return None
    if reward is not None and fee is not None and _distance(reward, pos) < _distance(fee, pos):
        return None
    scope = _nearest(cues, _FEE_TYPES - {lex.MIN_INTEREST}, pos)
    if scope is not None and scope[0] == lex.OTHER_FEE:
        return None  # a fee the catalog does not state (returned payment, replacement card)
    if scope is not None and scope[0] == lex.ANNUAL and lex.FIRST_YEAR in kinds:
        return None  # a first-year or intro annual fee: the catalog states the ongoing fee only
    if scope is None:
        if fee is None:
            return None
        return _draft(FEE_CLAIM, "any", value.start, value.end, USD, value.low, value.high)
    if fee is None and scope[0] not in (lex.ANNUAL, lex.LATE) and lex.MINIMUM not in kinds:
        return None
    if fee is None and scope[0] == lex.ANNUAL and not 0 <= scope[1] - value.end <= 12:
        return None  # "$95 a year" / "$95 annually" are fees; "$1,000 ... for a year" is not
    kind = {
        lex.ANNUAL: "annual",
        lex.LATE: "late",
        lex.BT: "bt",
        lex.CASH: "cash_advance",
        lex.FOREIGN: "foreign",
    }[scope[0]]
    if kind in ("bt", "cash_advance"):
        # A dollar amount on a percentage fee is its minimum ("$5 minimum balance transfer fee").
        return _draft(FEE_CLAIM, kind, value.start, value.end, USD, None, None, value.low)
    if kind == "foreign":
        return None  # foreign transaction fees are percentages; a dollar figure is an example
    return _draft(FEE_CLAIM, kind, value.start, value.end, USD, value.low, value.high)


def _windows(
    lower: str,
    cue_index: CueIndex,
    unit: Unit,
    values: Sequence[Value],
    months: Sequence[tuple[int, int, int]],
) -> list[_Window]:
    cuts = [unit.start]
    for left, right in itertools.pairwise(values):
        gap_start, gap_end = left.end, right.start
        last = None
        if gap_end - gap_start > 0:
            for match in lex.SOFT_BOUNDARY.finditer(lower, gap_start, gap_end):
                last = match.start()
        cuts.append(last if last is not None else gap_start)
    cuts.append(unit.end)
    unit_cues = cue_index.within(unit.start, unit.end)
    cue_positions = [c[1] for c in unit_cues]
    month_positions = [m[0] for m in months]
    context = list(unit.context_cues)

    def cues_between(start: int, end: int) -> tuple[tuple[str, int], ...]:
        lo, hi = bisect_left(cue_positions, start), bisect_left(cue_positions, end)
        return tuple(unit_cues[lo:hi]) + tuple(context)

    def months_between(start: int, end: int) -> tuple[tuple[int, int, int], ...]:
        lo, hi = bisect_left(month_positions, start), bisect_left(month_positions, end)
        return tuple(months[lo:hi])

    lead = cues_between(unit.start, values[0].start) if values else ()
    windows = []
    for index in range(len(values)):
        start, end = cuts[index], cuts[index + 1]
        wide_start = values[index - 1].end if index else unit.start
        wide_end = values[index + 1].start if index + 1 < len(values) else unit.end
        windows.append(
            _Window(
                start,
                end,
                cues_between(start, end),
                months_between(start, end),
                cues_between(wide_start, wide_end),
                months_between(wide_start, wide_end),
                lead,
            )
        )
    return windows


# -- attribution -----------------------------------------------------------------------------


def _group_of(lower: str, unit_mentions: Sequence[NameMention], index: int) -> list[NameMention]:
    """The mention at ``index`` plus any joined to it by "and"/","/"or" ("X and Y both ...")."""
    group = [unit_mentions[index]]
    i = index
    while i > 0 and lex.NAME_JOINER.match(lower[unit_mentions[i - 1].end : unit_mentions[i].start]):
        group.insert(0, unit_mentions[i - 1])
        i -= 1
    return group


def _cards_of(mentions: Sequence[NameMention]) -> tuple[str, ...]:
    """Card ids of mentions; an unknown product contributes nothing (its claims are unverifiable)."""
    seen: list[str] = []
    for mention in mentions:
        if mention.card_id is not None and mention.card_id not in seen:
            seen.append(mention.card_id)
    return tuple(seen)


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


def extract(text: str, lower: str, mentions: Sequence[NameMention]) -> Extraction:
    """Every claim of the response, typed and attributed."""
    index = MentionIndex(mentions)
    cue_index = CueIndex(lower, mentions)
    units = build_units(text, cue_index, index)
    values = find_values(lower)
    months = find_months(lower) if values else []
    value_starts = [v.start for v in values]
    month_starts = [m[0] for m in months]
    distinct_cards = _cards_of([m for m in mentions if m.kind != UNKNOWN])
    claims: list[Claim] = []
    for unit in units:
        lo, hi = bisect_left(value_starts, unit.start), bisect_left(value_starts, unit.end)
        unit_values = [v for v in values[lo:hi] if v.end <= unit.end]
        if not unit_values and unit.is_cell:
            unit_values = _cell_none(text, unit)
        if not unit_values:
            continue
        m_lo, m_hi = bisect_left(month_starts, unit.start), bisect_left(month_starts, unit.end)
        if (
            m_lo == m_hi
            and not unit.context_cues
            and not any(v.unit == NONE for v in unit_values)
            and not cue_index.within(unit.start, unit.end)
        ):
            continue  # numbers with no word around them that could make them a claim
        windows = _windows(lower, cue_index, unit, unit_values, months[m_lo:m_hi])
        unit_mentions = index.within(unit.start, unit.end)
        unit_text = lower[unit.start : unit.end]
        if '"' in unit_text and lex.REPORTING.search(unit_text):
            quoted = [
                (m.start() + unit.start, m.end() + unit.start)
                for m in lex.QUOTED.finditer(unit_text)
            ]
            kept = [v for v in unit_values if not any(a <= v.start < b for a, b in quoted)]
            if len(kept) != len(unit_values):
                unit_values = kept
                if not unit_values:
                    continue
                windows = _windows(lower, cue_index, unit, unit_values, months[m_lo:m_hi])
        generic = not unit_mentions and bool(lex.GENERIC_SUBJECT.search(unit_text))
        subject = lex.COLLECTIVE_SUBJECT.search(unit_text)
        # "all three cards", "both cards": the last N cards named (None: every card so far).
        collective: int | None = (
            (lex.collective_count(subject) or 0) if subject and _is_collective(subject) else None
        )
        unit_claims: list[Claim] = []
        for value, window in zip(unit_values, windows, strict=True):
            draft = type_value(value, window)
            if draft is None:
                continue
            if unit.cards is not None:
                cards = unit.cards
            elif generic:
                cards = ()
            else:
                cards = _attribute(
                    lower, value.start, unit_mentions, collective, index, unit.start, distinct_cards
                )
            for part in draft.get("split", [draft]):
                unit_claims.append(
                    Claim(**part, cards=cards, text=text[part["start"] : part["end"]])
                )
        if unit_claims and lex.RESPECTIVELY.search(unit_text):
            unit_claims = _respectively(unit_claims, unit_mentions, index, unit.start)
        claims.extend(unit_claims)
    return Extraction(tuple(claims), tuple(mentions), tuple((u.start, u.end) for u in units))


def _respectively(
    claims: list[Claim], unit_mentions: Sequence[NameMention], index: MentionIndex, start: int
) -> list[Claim]:
    """ "... APRs are 19.99% and 14.24%, respectively": the n-th figure of a kind goes to the n-th
    card named (in the sentence, else the last cards named before it, in text order)."""
    from dataclasses import replace

    by_kind: dict[tuple[str, str], list[int]] = {}
    for i, claim in enumerate(claims):
        by_kind.setdefault((claim.family, claim.kind), []).append(i)
    out = list(claims)
    for positions in by_kind.values():
        n = len(positions)
        if n < 2:
            continue
        cards = list(_cards_of([m for m in unit_mentions if m.end <= claims[positions[0]].start]))
        if len(cards) != n:
            before = index.all[: bisect_left(index.starts, start)]
            recent = list(_cards_of([m for m in reversed(before) if m.kind != UNKNOWN]))[:n]
            cards = recent[::-1]
        if len(cards) != n:
            continue
        for position, card_id in zip(positions, cards, strict=True):
            out[position] = replace(claims[position], cards=(card_id,))
    return out


def _is_collective(match: re.Match[str]) -> bool:
    """A quantifier with a noun ("both cards", "all three") rather than "both" alone."""
    text = match.group(0)
    return bool(match.group("n")) or text.rstrip().endswith(("card", "cards", "options", "products", "them"))


def _attribute(
    lower: str,
    pos: int,
    unit_mentions: Sequence[NameMention],
    collective: int | None,
    mentions: MentionIndex,
    unit_start: int,
    distinct_cards: tuple[str, ...],
) -> tuple[str, ...]:
    before = [i for i, m in enumerate(unit_mentions) if m.end <= pos]
    if before:
        return _cards_of(_group_of(lower, unit_mentions, before[-1]))
    if unit_mentions:
        return _cards_of([unit_mentions[0]])
    if collective is not None:
        upto = bisect_right(mentions.starts, pos)
        named = _cards_of([m for m in reversed(mentions.all[:upto]) if m.kind != UNKNOWN])
        return named[:collective] if collective else named
    upto = bisect_left(mentions.starts, unit_start)
    if upto > 0:
        return _cards_of([mentions.all[upto - 1]])
    if len(distinct_cards) == 1 and not any(m.kind == UNKNOWN for m in mentions.all):
        return distinct_cards
    return ()
