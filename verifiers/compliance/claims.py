"""Deterministic claim extraction: which card a response says has which term.

A *claim* is a number with ``%`` near an APR word, a dollar amount near a fee word, or a "no
annual fee" style statement, typed by the cue words around it and attributed to a card.

Inside a unit (a sentence, list item or table cell, see ``_compliance_units``) every figure gets a
*window*: the text from the previous figure to the next, split at the last clause boundary
between them (a comma, "and", "then", ...). The window's cue words type the figure -
"19.99%-29.99% variable APR on purchases" is a purchase APR, "0% intro APR on balance transfers
for 18 months" an intro offer with its months, "then 19.99%" the rate after it, "3% of each
transfer (min $5)" a balance transfer fee with its dollar minimum. A window that names no term
falls back to the whole stretch between the neighbouring figures, then to the unit's lead-in
("APRs: purchases 19.99%, cash advances 29.99%"); coordinated figures ("$95 and $150") share a
type.

Attribution: the nearest card named before the figure in its unit (or all cards of an "X and Y"
subject), else the first named after it in the unit, else - for "both cards" / "all three
cards" - the last two / three cards named, else the card the text was last talking about, else
the only card the response names. "..., respectively" pairs figures with cards in order.
Sentences about cards in general ("most cards charge ...") attribute to nothing, and a quoted
figure in a sentence that reports or corrects it ("the draft says \"$50 annual fee\", which is
wrong") is not the response's own claim.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import Any

from replicas.verifiers.compliance import lexicon as lex
from replicas.verifiers.compliance.claim_types import (
    APR_CLAIM,
    FEE_CLAIM,
    INTRO_CLAIM,
    Draft,
    type_value,
)
from replicas.verifiers.compliance.mentions import UNKNOWN, NameMention
from replicas.verifiers.compliance.units import CueIndex, MentionIndex, Unit, ranked, unit_spans
from replicas.verifiers.compliance.values import (
    NONE,
    PCT,
    USD,
    Durations,
    Value,
    cell_none,
    find_values,
)
from replicas.verifiers.compliance.windows import windows_of

__all__ = [
    "APR_CLAIM",
    "FEE_CLAIM",
    "INTRO_CLAIM",
    "NONE",
    "PCT",
    "USD",
    "Claim",
    "Extraction",
    "extract",
]


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
    # The terms the figure may be about: the words around it named one ({kind}) or left several
    # open (a fee figure with no fee word next to it may be any fee of the card). Empty: {kind}.
    kinds: frozenset[str] = frozenset()
    # How ``cards`` were found: "cell" (a table row or column), "clause" (a card named in the
    # figure's own clause), "unit" (its sentence or list item names one card), "context" (the card
    # the text was last talking about), "collective" ("both cards"), "respectively", "only" (the
    # one card the response names) - or "union": several cards could be meant and the figure
    # only has to be right for one of them.
    binding: str = ""

    def __post_init__(self) -> None:
        if self.family not in (APR_CLAIM, INTRO_CLAIM, FEE_CLAIM):
            raise ValueError(f"unknown claim family {self.family!r}")
        if self.binding not in BINDINGS:
            raise ValueError(f"unknown claim binding {self.binding!r}")

    @property
    def any_card(self) -> bool:
        """The figure is right when it is right for any one of its cards (binding ambiguous)."""
        return self.binding == UNION

    @property
    def certain(self) -> bool:
        """Bound to exactly one card by the text's own structure (disclosure rules need this)."""
        return len(self.cards) == 1 and self.binding in _CERTAIN_BINDINGS

    @property
    def admissible(self) -> frozenset[str]:
        return self.kinds or frozenset((self.kind,))


UNION = "union"
BINDINGS = frozenset(
    {"", "cell", "clause", "unit", "context", "collective", "respectively", "only", UNION}
)
_CERTAIN_BINDINGS = frozenset({"cell", "clause", "unit", "context", "respectively", "only"})


# Every field in declaration order (required ones as placeholders every draft overwrites), so a
# claim's ``__dict__`` reads as if built by its ``__init__``.
_CLAIM_TEMPLATE: dict[str, Any] = {
    f.name: None if f.default is MISSING else f.default for f in fields(Claim)
}


def _claim(draft: Draft, cards: tuple[str, ...], text: str) -> Claim:
    """``Claim(**draft, cards=cards, text=text)`` at a third of the cost.

    A frozen dataclass sets each of its fourteen fields through ``object.__setattr__``; a
    response makes dozens of claims, so the extractor fills the instance dictionary in one step
    instead. The result is the same object (fields, equality, hash, repr) and is still validated.
    """
    values = _CLAIM_TEMPLATE.copy()
    values.update(draft)
    values["cards"] = cards
    values["text"] = text
    claim = object.__new__(Claim)
    object.__setattr__(claim, "__dict__", values)
    claim.__post_init__()
    return claim


@dataclass(frozen=True)
class Extraction:
    claims: tuple[Claim, ...]
    mentions: tuple[NameMention, ...]
    units: tuple[tuple[int, int], ...]
    # every dollar amount and percentage range of the text, and the durations of each unit that
    # holds a figure (start of the unit -> months), whatever they were typed as
    amounts: tuple[float, ...] = ()
    ranges: tuple[tuple[float, float], ...] = ()
    unit_months: dict[int, tuple[int, ...]] = field(default_factory=dict)
    masked: str = ""  # the lower-cased text with card names blanked out

    def months_in_unit(self, pos: int) -> tuple[int, ...]:
        k = bisect_right(self.units, (pos, 1 << 62)) - 1
        if k < 0:
            return ()
        return self.unit_months.get(self.units[k][0], ())

    def states_range(self, low: float | None, high: float | None) -> bool:
        """Whether the text states this percentage range anywhere (a purchase APR is the only
        range a card has, so a range is that APR whatever the words around it)."""
        if low is None or high is None or low == high:
            return False
        return any(abs(a - low) <= 0.005 and abs(b - high) <= 0.005 for a, b in self.ranges)


# -- attribution -----------------------------------------------------------------------------


def _group_of(lower: str, unit_mentions: Sequence[NameMention], index: int) -> list[NameMention]:
    """The mention at ``index`` plus any joined to it by "and"/","/"or" ("X and Y both ...")."""
    group = [unit_mentions[index]]
    i = index
    while i > 0:
        gap = lower[unit_mentions[i - 1].end : unit_mentions[i].start]
        # The link next to the figure's card needs a conjunction ("X and Y"); "Unlike X, the Y"
        # names Y alone. Links further back may be commas ("X, Y and Z").
        if not lex.NAME_JOINER.match(gap) or (i == index and not _CONJUNCTION.search(gap)):
            break
        group.insert(0, unit_mentions[i - 1])
        i -= 1
    return group


_CONJUNCTION = re.compile(r"\b(?:and|or|as[ \t]well[ \t]as)\b|&")


def _cards_of(mentions: Sequence[NameMention]) -> tuple[str, ...]:
    """Card ids of mentions; an unknown product contributes nothing (its claims are unverifiable)."""
    seen: list[str] = []
    for mention in mentions:
        if mention.card_id is not None and mention.card_id not in seen:
            seen.append(mention.card_id)
    return tuple(seen)


def mask_names(lower: str, mentions: Sequence[NameMention]) -> str:
    """``lower`` with every card reference blanked out ("#"), same length.

    Card names are full of term words - "Cascade Low Rate", "Willow Balance Transfer", "Horizon
    Cash Rewards 360" - that say nothing about the figures next to them; cue words, negation
    scopes, durations and figures are all read from this masked copy.
    """
    if not mentions:
        return lower
    parts: list[str] = []
    pos = 0
    for mention in mentions:
        if mention.end <= pos:
            continue
        start = max(pos, mention.start)
        parts.append(lower[pos:start])
        parts.append("#" * (mention.end - start))
        pos = mention.end
    parts.append(lower[pos:])
    return "".join(parts)


# "Annual fee - $95", "1) Ongoing APR = 19.99%", "| Plus - $95": a short label opening a line,
# list item or segment, then a dash or equals sign - the separator of a label and its value, which
# reads like the colon of "Annual fee: $95" (a dash elsewhere separates clauses).
_LABEL_SEPARATOR = re.compile(
    r"[ \t]*(?:(?:[-*+>\u2022]|\d{1,2}[.)])[ \t]+)?(?:\*\*|__)?"
    r"(?:[^\n|:;=$%\d.!?\s-]|-(?=\S))+(?:[ \t]+(?:[^\n|:;=$%\d.!?\s-]|-(?=\S))+){0,5}"
    r"(?:\*\*|__)?[ \t]([-=]|\.{2,4})[ \t]"
)


def _segment_starts(text: str, separators: tuple[str, ...]) -> list[int]:
    """Where a label ending in one of ``separators`` may open: the start of the line (or of
    the table cell, after a "|") holding an occurrence of one."""
    starts: set[int] = set()
    for separator in separators:
        pos = text.find(separator)
        while pos >= 0:
            starts.add(max(text.rfind("\n", 0, pos), text.rfind("|", 0, pos)) + 1)
            pos = text.find(separator, pos + 1)
    return sorted(starts)


def label_separators(masked: str) -> str:
    """``masked`` with label dashes ("Annual fee - $95", "Late fee ... none") turned into
    colons (and blanks), same length."""
    if " - " not in masked and " = " not in masked and ".. " not in masked:
        return masked
    spans = []
    for pos in _segment_starts(masked, (" - ", " = ", ".. ")):
        match = _LABEL_SEPARATOR.match(masked, pos)
        if match is not None:
            spans.append(match.span(1))
    if not spans:
        return masked
    parts: list[str] = []
    pos = 0
    for start, end in spans:
        parts += (masked[pos:start], ":", " " * (end - start - 1))
        pos = end
    parts.append(masked[pos:])
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class UnitReading:
    """What one unit says, read from its own masked text alone (positions within the unit).

    A pure function of the unit's text and the cue words its table header or question lends it,
    so it is cached across responses: answers repeat their phrasing, and a unit read once is not
    read again. Drafts are shared between readers and never mutated.
    """

    values: tuple[Value, ...]
    drafts: tuple[Draft | None, ...]
    months: tuple[int, ...]
    amounts: tuple[float, ...] = ()  # every dollar figure
    ranges: tuple[tuple[float, float], ...] = ()  # every percentage range


_EMPTY_READING = UnitReading((), (), ())


def _reading(
    values: Sequence[Value], drafts: Sequence[Draft | None], months: tuple[int, ...]
) -> UnitReading:
    return UnitReading(
        tuple(values),
        tuple(drafts),
        months,
        tuple(v.low for v in values if v.unit == USD and v.low is not None),
        tuple(
            (v.low, v.high)
            for v in values
            if v.unit == PCT and v.low is not None and v.high is not None and v.low < v.high
        ),
    )


_READINGS: dict[tuple[str, tuple[tuple[str, int], ...]], UnitReading] = {}
_READINGS_LIMIT = 100_000
_CACHEABLE_UNIT = 2_000  # longer units (a 1 MB run-on sentence) are read, never kept


def read_unit(
    unit_text: str, context: tuple[tuple[str, int], ...] = (), is_cell: bool = False
) -> UnitReading:
    """The figures of one unit and the claims they make (``unit_text`` masked and lower-cased;
    ``context``: the cue words a header or a question lends it, at negative positions)."""
    key = (unit_text, context)
    reading = _READINGS.get(key)
    if reading is not None:
        return reading
    reading = _read_unit(unit_text, context, is_cell)
    if len(unit_text) <= _CACHEABLE_UNIT:
        if len(_READINGS) >= _READINGS_LIMIT:
            _READINGS.clear()  # the simplest bound; a verdict never depends on the cache
        _READINGS[key] = reading
    return reading


def _read_unit(text: str, context: tuple[tuple[str, int], ...], is_cell: bool) -> UnitReading:
    unit = Unit(0, len(text), context, None, is_cell)
    values = find_values(text)
    if not values and is_cell:
        values = cell_none(text, unit)
    if not values:
        return _EMPTY_READING
    cue_index = CueIndex(text, ())
    months = Durations(text).within(0, len(text))
    if (
        not months
        and not context
        and not any(v.unit == NONE for v in values)
        and not cue_index.within(0, len(text))
    ):
        # numbers with no word around them that could make them a claim (still figures of the
        # response: a recommended card's fee may be stated so)
        return _reading(values, (None,) * len(values), ())
    values = _drop_disavowed(text, unit, values, text)
    if not values:
        return _EMPTY_READING
    windows = windows_of(text, cue_index, unit, values, months)
    drafts = [type_value(v, w) for v, w in zip(values, windows, strict=True)]
    _share_coordinated(text, values, drafts)
    _after_first_year(text, values, drafts, len(text))
    return _reading(values, drafts, tuple(m[2] for m in months))


def extract(text: str, lower: str, mentions: Sequence[NameMention]) -> Extraction:
    """Every claim of the response, typed and attributed.

    Each unit (sentence, list item, table cell) is read on its own (``read_unit``); figures are
    then bound to cards, which needs the whole response.
    """
    masked = label_separators(mask_names(lower, mentions))
    index = MentionIndex(mentions)
    cue_index = CueIndex(masked, ())
    # "Late fee ... none": the label's dots are no sentence end either
    spans, cells = unit_spans(label_separators(text), cue_index, index)
    unit_starts = [start for start, _ in spans]
    named = [m for m in mentions if m.kind != UNKNOWN]
    distinct_cards = _cards_of(named)
    only = distinct_cards if len(distinct_cards) == 1 and len(named) == len(mentions) else ()
    context = _Context(spans, cells, unit_starts, index)
    claims: list[Claim] = []
    months_of: dict[int, tuple[int, ...]] = {}
    amounts: list[float] = []
    ranges: list[tuple[float, float]] = []
    answers = "?" in masked
    readings = _READINGS
    for k, (unit_start, unit_end) in enumerate(spans):
        unit_text = masked[unit_start:unit_end]
        cell = cells.get(k) if cells else None
        if cell is not None:
            lent_key = tuple(cell.context_cues)
            reading = readings.get((unit_text, lent_key)) or read_unit(unit_text, lent_key, True)
        elif answers and k and _ANSWER.match(unit_text):
            q_start, q_end = spans[k - 1]
            lent_key = ()
            if masked[q_start:q_end].rstrip().endswith("?"):
                # "Is there a promo on purchases? Yes: 1.99% APR ...": the question types the
                # answer
                lent_key = ranked(cue_index.within(q_start, q_end))
            reading = readings.get((unit_text, lent_key)) or read_unit(unit_text, lent_key)
        else:
            reading = readings.get((unit_text, ())) or read_unit(unit_text)
        if not reading.values:
            continue
        amounts += reading.amounts
        ranges += reading.ranges
        if not any(reading.drafts):
            continue
        unit = cell or Unit(unit_start, unit_end)
        unit_mentions = index.within(unit_start, unit_end)
        binder = _Binder(masked, unit, unit_mentions, index, context, only)
        unit_claims: list[Claim] = []
        for value, draft in zip(reading.values, reading.drafts, strict=True):
            if draft is None:
                continue
            cards, binding = binder.bind(value.start + unit_start, value.end + unit_start)
            for part in draft.get("split", [draft]):
                start, end = part["start"] + unit_start, part["end"] + unit_start
                unit_claims.append(
                    _claim(
                        {**part, "start": start, "end": end, "binding": binding},
                        cards,
                        text[start:end],
                    )
                )
        if unit_claims and "respectively" in unit_text and lex.RESPECTIVELY.search(unit_text):
            unit_claims = _respectively(unit_claims, unit_mentions, index, unit_start)
        claims.extend(unit_claims)
        if reading.months and len(_cards_of(unit_mentions)) <= 1:
            months_of[unit_start] = reading.months
    return Extraction(
        tuple(claims),
        tuple(mentions),
        tuple(spans),
        tuple(amounts),
        tuple(ranges),
        months_of,
        masked,
    )


_ANSWER = re.compile(r"[ \t>*-]{0,4}(?:yes|yep|yeah|sure|absolutely|indeed|no|nope)\b")


def _drop_disavowed(masked: str, unit: Unit, values: list[Value], unit_text: str) -> list[Value]:
    """Figures the response quotes only to reject them are not its claims.

    "the headline \"0% APR for 24 months!\" is inaccurate" (a quoted figure in a sentence that
    reports or corrects it); "$95 - not the $99 you may have seen", "up to $40; ignore the $50
    figure on old forum posts", "$325 (older listings say $295)": a figure in a clause that
    disowns it, next to another figure of the same unit that the clause does not disown.
    """
    if '"' in unit_text and lex.REPORTING.search(unit_text):
        quoted = [
            (m.start() + unit.start, m.end() + unit.start) for m in lex.QUOTED.finditer(unit_text)
        ]
        values = [v for v in values if not any(a <= v.start < b for a, b in quoted)]
    if len(values) < 2 or not lex.DISAVOWAL.search(unit_text):
        return values
    cuts = [unit.start]
    cuts += [m.end() + unit.start for m in lex.DISAVOWAL_CLAUSE.finditer(unit_text)]
    cuts.append(unit.end)
    keep: list[Value] = []
    dropped: list[Value] = []
    for value in values:
        k = bisect_right(cuts, value.start) - 1
        lo, hi = cuts[max(k, 0)], cuts[min(k + 1, len(cuts) - 1)]
        clause = masked[lo:hi]
        if value.unit != NONE and lex.DISAVOWAL.search(clause):
            dropped.append(value)
        else:
            keep.append(value)
    if not dropped or not any(v.unit != NONE for v in keep):
        return values  # nothing left standing: the words disown something else
    return keep


class _Context:
    """The cards the text was talking about before a unit: those named by the last unit (or
    table) that names any."""

    __slots__ = ("_cells", "_index", "_memo", "_spans", "_starts")

    def __init__(
        self,
        spans: Sequence[tuple[int, int]],
        cells: dict[int, Unit],
        starts: Sequence[int],
        index: MentionIndex,
    ) -> None:
        self._spans = spans
        self._cells = cells
        self._starts = starts
        self._index = index
        self._memo: dict[int, tuple[str, ...]] = {}

    def before(self, pos: int) -> tuple[str, ...]:
        """Distinct cards of the last unit before ``pos`` that names a card (an unknown
        product names none: what follows it is about no catalog card)."""
        upto = bisect_left(self._index.starts, pos)
        if upto == 0:
            return ()
        last = self._index.all[upto - 1]
        k = bisect_right(self._starts, last.start) - 1
        if k < 0:
            return ()
        cached = self._memo.get(k)
        if cached is not None:
            return cached
        cell = self._cells.get(k)
        lo, hi = cell.block if cell is not None and cell.block is not None else self._spans[k]
        found = _cards_of(self._index.within(lo, min(hi, pos)))
        if any(m.kind == UNKNOWN for m in self._index.within(lo, min(hi, pos))) and not found:
            found = ()
        self._memo[k] = found
        return found


# A figure followed by the card it is about: "$150 for the Summit Cash Preferred".
_ATTACHED_AFTER = re.compile(
    r"[ \t]{0,3}(?:(?:a|per|each|every)[ \t]{1,3}year|annually|yearly|/yr|/year)?[ \t,]{0,3}"
    r"(?:for|on|with|from|at|of)[ \t]{1,3}(?:the[ \t]{1,3})?(?:\*\*)?#"
)


class _Binder:
    """Which card(s) each figure of one unit is about, and how sure the text makes that."""

    __slots__ = (
        "_clauses",
        "_context",
        "_index",
        "_masked",
        "_mentions",
        "_only",
        "_plain",
        "_unit",
    )

    def __init__(
        self,
        masked: str,
        unit: Unit,
        unit_mentions: Sequence[NameMention],
        index: MentionIndex,
        context: _Context,
        only: tuple[str, ...],
    ) -> None:
        self._masked = masked
        self._unit = unit
        self._mentions = unit_mentions
        self._index = index
        self._context = context
        self._only = only
        self._clauses: list[int] | None = None
        # the binding of every figure of a unit naming no card (the same for all of them)
        self._plain: tuple[tuple[str, ...], str] | None = None

    def _clause(self, pos: int) -> tuple[int, int]:
        if self._clauses is None:
            unit = self._unit
            self._clauses = [
                m.end() for m in lex.CONTRAST_CUT.finditer(self._masked, unit.start, unit.end)
            ]
        i = bisect_right(self._clauses, pos)
        lo = self._clauses[i - 1] if i else self._unit.start
        hi = self._clauses[i] if i < len(self._clauses) else self._unit.end
        return lo, hi

    def bind(self, start: int, end: int) -> tuple[tuple[str, ...], str]:
        unit = self._unit
        if unit.cards is not None:
            return unit.cards, "cell" if len(unit.cards) <= 1 else UNION
        mentions = self._mentions
        if not mentions:
            if self._plain is None:
                self._plain = self._bind_plain(start)
            return self._plain
        masked = self._masked
        lo, hi = self._clause(start)
        attached = _ATTACHED_AFTER.match(masked, end, min(hi, end + 40))
        if attached is not None:
            hit = self._index.within(attached.end() - 1, attached.end())
            if hit and hit[0].card_id is not None:
                return (hit[0].card_id,), "clause"
        last = -1
        for i, m in enumerate(mentions):
            if m.end > start:
                break
            if lo <= m.start:
                last = i
        if last >= 0:
            group = _group_of(masked, mentions, last)
            cards = _cards_of(group)
            if len(cards) <= 1:
                return cards, "clause"
            both = _collective(masked[lo:hi])
            return cards, "collective" if both is not None else UNION
        in_clause = [m for m in mentions if lo <= m.start < hi]
        if in_clause:
            cards = _cards_of(in_clause)
            return cards, "clause" if len(cards) == 1 else UNION
        if _generic(masked[lo:hi]):
            return (), ""
        subject = _clause_collective(masked, start, unit, mentions, self._index)
        if subject is not None:
            return subject, "collective"
        cards = _cards_of(mentions)
        return cards, "unit" if len(cards) <= 1 else UNION

    def _bind_plain(self, start: int) -> tuple[tuple[str, ...], str]:
        """A unit naming no card: generic, a collective subject, the card(s) the text was
        talking about, or the one card the response names."""
        unit = self._unit
        unit_text = self._masked[unit.start : unit.end]
        if _generic(unit_text):
            return (), ""
        count = _collective(unit_text)
        if count is not None:
            upto = bisect_right(self._index.starts, start)
            named = _cards_of([m for m in reversed(self._index.all[:upto]) if m.kind != UNKNOWN])
            return (named[:count] if count else named), "collective"
        cards = self._context.before(unit.start)
        if cards:
            return cards, "context" if len(cards) == 1 else UNION
        if self._only and not self._index.all[: bisect_left(self._index.starts, unit.start)]:
            return self._only, "only"
        return (), ""


def _generic(text: str) -> bool:
    """A sentence about cards in general ("most cards charge ...") is about no card."""
    return "card" in text and bool(lex.GENERIC_SUBJECT.search(text))


# "both" opening a clause is its subject ("...; both then go to 19.99%").
_BOTH_FIRST = re.compile(r"[ \t]{0,3}(?:and[ \t]{1,3})?both\b")


def _clause_collective(
    lower: str,
    pos: int,
    unit: Unit,
    unit_mentions: Sequence[NameMention],
    mentions: MentionIndex,
) -> tuple[str, ...] | None:
    """ "...; both then go to 19.99%": a collective subject in the figure's own clause (after the
    last contrast before it) that names no card covers the cards named before it."""
    if not unit_mentions:
        return None  # the unit-level rule covers a unit naming no card
    cuts = [m.end() for m in lex.CONTRAST_CUT.finditer(lower, unit.start, pos)]
    if not cuts:
        return None
    clause_start = cuts[-1]
    if any(clause_start <= m.start < pos for m in unit_mentions):
        return None
    clause = lower[clause_start:pos]
    count = 2 if _BOTH_FIRST.match(clause) else _collective(clause)
    if count is None:
        return None
    upto = bisect_right(mentions.starts, pos)
    named = _cards_of([m for m in reversed(mentions.all[:upto]) if m.kind != UNKNOWN])
    return named[:count] if count else named


# Every quantifier ``lex.COLLECTIVE_SUBJECT`` starts with contains one of these ("neither" holds
# "either"); a unit without them needs no search.
_COLLECTIVE_WORDS = ("all", "both", "each", "every", "either")


def _collective(unit_text: str) -> int | None:
    """ "all three cards", "both cards": the last N cards named (0: every card so far; None: the
    unit has no collective subject)."""
    if not any(word in unit_text for word in _COLLECTIVE_WORDS):
        return None
    subject = lex.COLLECTIVE_SUBJECT.search(unit_text)
    return (lex.collective_count(subject) or 0) if subject and _is_collective(subject) else None


_COORDINATOR = re.compile(r"[ \t]{0,3}(?:,|and|or|/|&|vs\.?|versus|,[ \t]{0,3}and)[ \t]{0,3}")


def _share_coordinated(lower: str, values: Sequence[Value], drafts: list[Draft | None]) -> None:
    """Coordinated figures share their type: "18.24%-27.24% and 19.99%-29.99% variable APR"
    (the later one types the earlier), "annual fees of $95 and $150" (the earlier one types the
    later, which alone would only read as some fee)."""

    def coordinated(i: int, j: int) -> bool:
        a, b = values[i], values[j]
        return (
            a.unit == b.unit
            and a.unit != NONE
            and bool(_COORDINATOR.fullmatch(lower, a.end, b.start))
        )

    def copy(model: Draft, value: Value) -> Draft:
        return {
            **model,
            "start": value.start,
            "end": value.end,
            "low": value.low,
            "high": value.high,
            "min_usd": value.min_usd,
        }

    for i in range(len(values) - 2, -1, -1):
        model = drafts[i + 1]
        if (
            drafts[i] is None
            and model is not None
            and "split" not in model
            and coordinated(i, i + 1)
        ):
            drafts[i] = copy(model, values[i])
    for i in range(1, len(values)):
        model, current = drafts[i - 1], drafts[i]
        if model is None or "split" in model or not coordinated(i - 1, i):
            continue
        weaker = current is None or (
            current.get("kind") == "any"
            and current.get("family") == model["family"]
            and model["kind"] != "any"
        )
        if weaker:
            drafts[i] = copy(model, values[i])


_ONGOING = re.compile(
    r"\b(?:then|thereafter|after[ \t]{1,3}that|afterwards?|after[ \t]{1,3}(?:the[ \t]{1,3})?"
    r"(?:first[ \t]{1,3}year|year[ \t]{1,3}one)|from[ \t]{1,3}(?:the[ \t]{1,3})?(?:second|2nd)[ \t]"
    r"{1,3}year(?:[ \t]{1,3}on)?|(?:every|each)[ \t]{1,3}year[ \t]{1,3}after|ongoing|going[ \t]forward"
    r"|(?:second|2nd|following|subsequent|later)[ \t]{1,3}years?|years?[ \t]{1,3}(?:two|2)"
    r"|from[ \t]{1,3}then[ \t]{1,3}on|later|after(?=[ \t]{0,2}(?:[.,;)\n]|$)))\b"
)


def _after_first_year(
    lower: str, values: Sequence[Value], drafts: list[Draft | None], unit_end: int
) -> None:
    """ "No annual fee the first year, then $95" / "$0 in the first year and $95 after that":
    the dollar figure after a first-year fee is the ongoing annual fee."""
    for i in range(1, len(values)):
        model, value = drafts[i - 1], values[i]
        if model is None or model.get("kind") != "annual_first_year" or value.unit != USD:
            continue
        current = drafts[i]
        if current is not None and current.get("kind") not in ("any", "annual_first_year"):
            continue
        around = lower[values[i - 1].end : min(unit_end, value.end + 24)]
        if _ONGOING.search(around):
            drafts[i] = _draft_fee_annual(value)


def _draft_fee_annual(value: Value) -> Draft:
    return {
        "family": FEE_CLAIM,
        "kind": "annual",
        "start": value.start,
        "end": value.end,
        "unit": USD,
        "low": value.low,
        "high": value.high,
    }


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
            out[position] = replace(claims[position], cards=(card_id,), binding="respectively")
    return out


def _is_collective(match: re.Match[str]) -> bool:
    """A quantifier with a noun ("both cards", "all three") rather than "both" alone."""
    text = match.group(0)
    return bool(match.group("n")) or text.rstrip().endswith(
        ("card", "cards", "options", "products", "them")
    )
