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

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from replicas.verifiers import _compliance_lexicon as lex
from replicas.verifiers._compliance_names import UNKNOWN, NameMention

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
    "vs e.g i.e u.s etc approx min max no mo mos yr inc est avg incl ca".split()
)
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
        if match.group(0) != "\n":
            head = text[max(cursor, match.start() - 8) : match.start()].lower()
            word = head.rsplit(None, 1)[-1] if head.strip() else ""
            word = word.lstrip("(*[\"'")
            if word in _NO_SPLIT_BEFORE_DOT or (len(word) == 1 and word.isalpha()):
                continue
        if match.end() > cursor:
            out.append(Unit(cursor, match.end()))
        cursor = match.end()
    if cursor < end:
        out.append(Unit(cursor, end))


def _line_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    pos = 0
    for line in text.split("\n"):
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
        cells.append((cell_start + stripped_left, max(cell_start + stripped_left, cell_end - stripped_right)))
    return cells


def build_units(text: str, cues: CueIndex, mentions: Sequence[NameMention]) -> list[Unit]:
    """Prose sentences and table cells, in document order, covering the whole text."""
    units: list[Unit] = []
    lines = _line_spans(text)
    index = 0
    prose_start: int | None = None
    while index < len(lines):
        start, end = lines[index]
        block_end = index
        while block_end < len(lines) and text.count("|", *lines[block_end]) >= 2:
            block_end += 1
        if block_end - index >= 2:
            if prose_start is not None:
                _sentence_units(text, prose_start, start, units)
                prose_start = None
            _table_units(text, cues, lines[index:block_end], mentions, units)
            index = block_end
            continue
        if prose_start is None:
            prose_start = start
        index += 1
    if prose_start is not None:
        _sentence_units(text, prose_start, len(text), units)
    return units


class CueIndex:
    """Every cue word of the text, found once, minus those inside card names.

    "Atlas Business Rewards", "Harbor Sky Miles" and "Prism Low Rate" contain reward and rate
    words that say nothing about the value next to them.
    """

    def __init__(self, lower: str, mentions: Sequence[NameMention]) -> None:
        spans = [(m.start, m.end) for m in mentions]
        starts = [s for s, _ in spans]
        cues: list[tuple[str, int]] = []
        for match in lex.CUES.finditer(lower):
            pos = match.start()
            i = bisect_right(starts, pos) - 1
            if i >= 0 and spans[i][0] <= pos < spans[i][1]:
                continue
            cues.append((lex.CUE_TYPE[match.lastgroup or ""], pos))
        self._cues = cues
        self._positions = [pos for _, pos in cues]

    def within(self, start: int, end: int) -> list[tuple[str, int]]:
        return self._cues[bisect_left(self._positions, start) : bisect_left(self._positions, end)]


def _mentions_in(mentions: Sequence[NameMention], start: int, end: int) -> list[NameMention]:
    starts = [m.start for m in mentions]
    lo = bisect_left(starts, start)
    hi = bisect_left(starts, end)
    return list(mentions[lo:hi])


def _table_units(
    text: str,
    cues: CueIndex,
    rows: Sequence[tuple[int, int]],
    mentions: Sequence[NameMention],
    out: list[Unit],
) -> None:
    header = _cells(text, *rows[0])
    body = [r for r in rows[1:] if not _TABLE_SEPARATOR.match(text[r[0] : r[1]])]
    header_cards = [_cell_cards(mentions, cell) for cell in header]
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
            header_cues = cues.within(*header[column]) if column < len(header) else []
            if _CARD_HEADER.search(text[header[column][0] : header[column][1]] if column < len(header) else ""):
                header_cues = []
            out.append(
                Unit(cell[0], cell[1], header_cues + label_cues, row_cards, True)
            )


def _cell_cards(mentions: Sequence[NameMention], cell: tuple[int, int]) -> tuple[str, ...] | None:
    """The card(s) a cell names (``()`` for an unknown product), or None when it names none."""
    found = _mentions_in(mentions, *cell)
    if not found:
        return None
    return tuple(m.card_id for m in found if m.card_id is not None)


# -- values ----------------------------------------------------------------------------------


def _number(raw: str) -> float:
    return float(raw.replace(",", ""))


def find_values(lower: str) -> list[Value]:
    values: list[Value] = []
    for match in lex.VALUES.finditer(lower):
        groups = match.groupdict()
        start, end = match.span()
        if groups["ra"] is not None or groups["ba"] is not None:
            low = _number(groups["ra"] if groups["ra"] is not None else groups["ba"])
            high = _number(groups["rb"] if groups["rb"] is not None else groups["bb"])
            if low == 0 and high > 0:
                # "from 0% to 19.99% after 15 months": an intro rate and the rate after it.
                first = "ra" if groups["ra"] is not None else "ba"
                second = "rb" if groups["rb"] is not None else "bb"
                values.append(Value(match.start(first), match.end(first), PCT, 0.0, 0.0))
                values.append(Value(match.start(second), end, PCT, high, high))
                continue
            values.append(Value(start, end, PCT, min(low, high), max(low, high)))
        elif groups["pct"] is not None:
            number = _number(groups["pct"])
            values.append(Value(start, end, PCT, number, number))
        elif groups["zero"] is not None:
            values.append(Value(start, end, PCT, 0.0, 0.0))
        elif groups["usd"] is not None:
            amount = _number(groups["usd"] + (groups["cents"] or ""))
            values.append(Value(start, end, USD, amount, amount))
        elif groups["usdw"] is not None or groups["usdp"] is not None:
            amount = _number(groups["usdw"] or groups["usdp"])
            values.append(Value(start, end, USD, amount, amount))
        else:
            kind = next(k for k in _NONE_KINDS if groups.get(k) is not None)
            values.append(Value(start, end, NONE, none_kind=kind))
    return _join_fee_pairs(lower, values)


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
    if first.unit == PCT and second.unit == USD and first.low == first.high:
        if (
            lex.FEE_MINIMUM_WORD.search(gap)
            or lex.FEE_MINIMUM_WORD.match(after.lstrip(" ("))
            or either_or
        ):
            return Value(first.start, second.end, PCT, first.low, first.high, second.low)
    if first.unit == USD and second.unit == PCT and second.low == second.high:
        if either_or:
            return Value(first.start, second.end, PCT, second.low, second.high, first.low)
    return None


# -- typing values -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Window:
    start: int
    end: int
    cues: tuple[tuple[str, int], ...]
    months: tuple[tuple[int, int, int], ...]  # (start, end, months)


def _nearest(cues: Sequence[tuple[str, int]], kinds: frozenset[str] | set[str], pos: int) -> tuple[str, int] | None:
    best: tuple[str, int] | None = None
    best_distance = 1 << 30
    for kind, where in cues:
        if kind in kinds:
            distance = abs(where - pos)
            if distance < best_distance:
                best, best_distance = (kind, where), distance
    return best


_FEE_TYPES = frozenset({lex.FOREIGN, lex.BT, lex.CASH, lex.LATE, lex.ANNUAL, lex.MIN_INTEREST})
_APR_SCOPES = frozenset({lex.CASH, lex.PENALTY, lex.PURCHASE, lex.BT, lex.LATE})


def _distance(cue: tuple[str, int] | None, pos: int) -> int:
    return abs(cue[1] - pos) if cue is not None else 1 << 30


def type_value(value: Value, window: _Window) -> Claim | None:
    """The claim a value makes given the cue words of its window (None: not a claim)."""
    if value.unit == NONE:
        family, kind = _NONE_KINDS[value.none_kind or ""]
        return Claim(family, kind, value.start, value.end, NONE, is_none=True)
    cues = [c for c in window.cues if not value.start <= c[1] < value.end]
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
            return Claim(FEE_CLAIM, "foreign", value.start, value.end, PCT, value.low, value.high)
        if not window.months or lex.INTRO not in kinds:
            return None
    if reward is not None and _distance(reward, pos) < min(_distance(fee, pos), _distance(apr, pos)):
        return None
    if fee is not None and _distance(fee, pos) <= _distance(apr, pos):
        scope = _nearest(cues, {lex.FOREIGN, lex.BT, lex.CASH}, pos)
        kind = {lex.FOREIGN: "foreign", lex.BT: "bt", lex.CASH: "cash_advance"}.get(
            scope[0] if scope else "", "any"
        )
        return Claim(FEE_CLAIM, kind, value.start, value.end, PCT, value.low, value.high, value.min_usd)
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
            {"purchase" if k == lex.PURCHASE else "bt" for k in kinds if k in (lex.PURCHASE, lex.BT)}
        )
        months = _months_after(window, value)
        end = value.end
        return Claim(INTRO_CLAIM, "any" if not scopes else "+".join(sorted(scopes)), value.start, end,
                     PCT, value.low, value.high, months=months, scopes=scopes)
    scope = _nearest(cues, _APR_SCOPES, pos)
    kind = {lex.CASH: "cash_advance", lex.PENALTY: "penalty", lex.LATE: "penalty"}.get(
        scope[0] if scope else "", "purchase"
    )
    if lex.PENALTY in kinds and kind == "purchase" and not (lex.PURCHASE in kinds):
        kind = "penalty"
    return Claim(APR_CLAIM, kind, value.start, value.end, PCT, value.low, value.high,
                 variability=variability if kind == "purchase" else None)


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
) -> Claim | None:
    if lex.MIN_INTEREST in kinds:
        return Claim(FEE_CLAIM, "min_interest", value.start, value.end, USD, value.low, value.high)
    fee = _nearest(cues, {lex.FEE}, pos)
    if fee is None and reward is not None:
        return None
    if reward is not None and fee is not None and _distance(reward, pos) < _distance(fee, pos):
        return None
    scope = _nearest(cues, _FEE_TYPES - {lex.MIN_INTEREST}, pos)
    if scope is not None and scope[0] == lex.ANNUAL and lex.FIRST_YEAR in kinds:
        return None  # a first-year or intro annual fee: the catalog states the ongoing fee only
    if scope is None:
        if fee is None:
            return None
        return Claim(FEE_CLAIM, "any", value.start, value.end, USD, value.low, value.high)
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
        return Claim(FEE_CLAIM, kind, value.start, value.end, USD, None, None, value.low)
    if kind == "foreign":
        return None  # foreign transaction fees are percentages; a dollar figure is an example
    return Claim(FEE_CLAIM, kind, value.start, value.end, USD, value.low, value.high)


def _windows(
    lower: str,
    cue_index: CueIndex,
    unit: Unit,
    values: Sequence[Value],
    months: Sequence[tuple[int, int, int]],
) -> list[_Window]:
    cuts = [unit.start]
    for left, right in zip(values, values[1:], strict=False):
        gap_start, gap_end = left.end, right.start
        last = None
        for match in lex.SOFT_BOUNDARY.finditer(lower, gap_start, gap_end):
            last = match.start()
        cuts.append(last if last is not None else gap_start)
    cuts.append(unit.end)
    unit_cues = cue_index.within(unit.start, unit.end)
    windows = []
    for index, _value in enumerate(values):
        start, end = cuts[index], cuts[index + 1]
        cues = [c for c in unit_cues if start <= c[1] < end] + list(unit.context_cues)
        window_months = tuple(m for m in months if start <= m[0] < end)
        windows.append(_Window(start, end, tuple(cues), window_months))
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


def extract(text: str, lower: str, mentions: Sequence[NameMention]) -> Extraction:
    """Every claim of the response, typed and attributed."""
    cue_index = CueIndex(lower, mentions)
    units = build_units(text, cue_index, mentions)
    values = find_values(lower)
    months = [(m.start(), m.end(), lex.months_value(m)) for m in lex.MONTHS.finditer(lower)]
    value_starts = [v.start for v in values]
    month_starts = [m[0] for m in months]
    mention_starts = [m.start for m in mentions]
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
        windows = _windows(lower, cue_index, unit, unit_values, months[m_lo:m_hi])
        unit_mentions = _mentions_in(mentions, unit.start, unit.end)
        unit_text = lower[unit.start : unit.end]
        generic = bool(lex.GENERIC_SUBJECT.search(unit_text)) and not unit_mentions
        collective = bool(lex.COLLECTIVE_SUBJECT.search(unit_text))
        for value, window in zip(unit_values, windows, strict=True):
            claim = type_value(value, window)
            if claim is None:
                continue
            if unit.cards is not None:
                cards = unit.cards
            elif generic:
                cards = ()
            else:
                cards = _attribute(lower, value.start, unit_mentions, collective, mentions,
                                   mention_starts, unit.start, distinct_cards)
            claims.append(_with(claim, cards=cards, text=text[claim.start : claim.end]))
    return Extraction(tuple(claims), tuple(mentions), tuple((u.start, u.end) for u in units))


def _attribute(
    lower: str,
    pos: int,
    unit_mentions: Sequence[NameMention],
    collective: bool,
    mentions: Sequence[NameMention],
    mention_starts: Sequence[int],
    unit_start: int,
    distinct_cards: tuple[str, ...],
) -> tuple[str, ...]:
    before = [i for i, m in enumerate(unit_mentions) if m.end <= pos]
    if before:
        return _cards_of(_group_of(lower, unit_mentions, before[-1]))
    if unit_mentions:
        return _cards_of([unit_mentions[0]])
    if collective:
        upto = bisect_right(mention_starts, pos)
        return _cards_of([m for m in mentions[:upto] if m.kind != UNKNOWN])
    upto = bisect_left(mention_starts, unit_start)
    if upto > 0:
        return _cards_of([mentions[upto - 1]])
    if len(distinct_cards) == 1 and not any(m.kind == UNKNOWN for m in mentions):
        return distinct_cards
    return ()


def _with(claim: Claim, **changes: object) -> Claim:
    from dataclasses import replace

    return replace(claim, **changes)  # type: ignore[arg-type]
