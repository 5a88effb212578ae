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

import itertools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import MISSING, dataclass, fields
from typing import Any

from replicas.verifiers import _compliance_lexicon as lex
from replicas.verifiers._compliance_names import UNKNOWN, NameMention
from replicas.verifiers._compliance_units import CueIndex, MentionIndex, Unit, build_units
from replicas.verifiers._compliance_values import (
    NONE,
    PCT,
    USD,
    Durations,
    Value,
    cell_none,
    find_values,
)

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

Draft = dict[str, Any]  # a claim's fields before attribution

# Claim families and kinds.
APR_CLAIM = "apr"  # kinds: purchase, cash_advance, penalty
INTRO_CLAIM = "intro"  # kinds: purchase, bt, any
FEE_CLAIM = "fee"  # kinds: annual, bt, cash_advance, foreign, late, min_interest, any

_NONE_KINDS = {
    "none_annual": (FEE_CLAIM, "annual"),
    "none_foreign": (FEE_CLAIM, "foreign"),
    "none_bt": (FEE_CLAIM, "bt"),
    "none_penalty": (APR_CLAIM, "penalty"),
}


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


# -- typing values -----------------------------------------------------------------------------


def _draft(family: str, kind: str, start: int, end: int, unit: str, *args: Any, **kw: Any) -> Draft:
    """The fields of a claim before it is attributed (built into a ``Claim`` exactly once)."""
    draft = {"family": family, "kind": kind, "start": start, "end": end, "unit": unit}
    if args:
        draft.update(zip(("low", "high", "min_usd"), args, strict=False))
    if kw:
        draft.update(kw)
    return draft


class _UnitCues:
    """The cue words and durations of one unit, for cheap range look-ups."""

    __slots__ = (
        "_lead",
        "_lead_range",
        "context",
        "cues",
        "has_reward",
        "month_positions",
        "months",
        "positions",
    )

    def __init__(
        self,
        cues: Sequence[tuple[str, int]],
        months: Sequence[tuple[int, int, int]],
        unit: Unit,
        first_value: int,
    ) -> None:
        self.cues = cues
        self.positions = [c[1] for c in cues]
        self.months = months
        self.month_positions = [m[0] for m in months]
        self.context = tuple(unit.context_cues)
        self.has_reward = any(c[0] == lex.REWARD for c in cues)
        self._lead_range = (unit.start, first_value)
        self._lead: tuple[tuple[str, int], ...] | None = None

    @property
    def lead(self) -> tuple[tuple[str, int], ...]:
        """The cues before the unit's first figure (its lead-in), computed when first asked."""
        if self._lead is None:
            self._lead = self.between(*self._lead_range)
        return self._lead

    def between(self, start: int, end: int) -> tuple[tuple[str, int], ...]:
        lo, hi = bisect_left(self.positions, start), bisect_left(self.positions, end)
        return tuple(self.cues[lo:hi]) + self.context

    def months_between(self, start: int, end: int) -> tuple[tuple[int, int, int], ...]:
        lo, hi = bisect_left(self.month_positions, start), bisect_left(self.month_positions, end)
        return tuple(self.months[lo:hi])


@dataclass(slots=True)
class _Window:
    """The cue words and durations around one value: ``cues``/``months`` between the clause
    boundaries next to it; ``wide_*`` (computed on demand) over the whole stretch between its
    neighbouring values, used when the clause alone names no term ("...; after that, 19.99%").

    Not frozen only to be cheap to build (one per figure); nothing mutates it."""

    start: int
    end: int
    cues: tuple[tuple[str, int], ...]
    months: tuple[tuple[int, int, int], ...]  # (start, end, months)
    wide_start: int = 0
    wide_end: int = 0
    unit_cues: _UnitCues | None = None

    @property
    def wide_cues(self) -> tuple[tuple[str, int], ...]:
        return self.unit_cues.between(self.wide_start, self.wide_end) if self.unit_cues else ()

    @property
    def wide_months(self) -> tuple[tuple[int, int, int], ...]:
        if self.unit_cues is None:
            return ()
        return self.unit_cues.months_between(self.wide_start, self.wide_end)

    @property
    def lead_cues(self) -> tuple[tuple[str, int], ...]:
        return self.unit_cues.lead if self.unit_cues else ()

    @property
    def unit_has_reward(self) -> bool:
        return self.unit_cues.has_reward if self.unit_cues else False


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


class _Nearest:
    """The cue of each kind nearest to one position, from one pass over a window's cues.

    ``of(kinds)`` is the nearest cue of any of ``kinds`` - the first in cue order among equally
    near ones - exactly what scanning the cues for those kinds would return.
    """

    __slots__ = ("_best", "kinds")

    def __init__(self, cues: Sequence[tuple[str, int]], pos: int) -> None:
        best: dict[str, tuple[int, int, tuple[str, int]]] = {}
        for index, cue in enumerate(cues):
            distance = abs(cue[1] - pos)
            held = best.get(cue[0])
            if held is None or distance < held[0]:
                best[cue[0]] = (distance, index, cue)
        self._best = best
        self.kinds = best.keys()

    def of(self, kinds: Sequence[str]) -> tuple[str, int] | None:
        found: tuple[int, int, tuple[str, int]] | None = None
        for kind in kinds:
            held = self._best.get(kind)
            if held is not None and (found is None or held[:2] < found[:2]):
                found = held
        return None if found is None else found[2]


_FEE_SCOPES = (lex.FOREIGN, lex.BT, lex.CASH, lex.OTHER_FEE)
_IMPLIED_RATE = (lex.VARIABLE, lex.FIXED, lex.AFTER, lex.REGULAR)
_USD_SCOPES = tuple(sorted(_FEE_TYPES - {lex.MIN_INTEREST}))
_APR_SCOPE_KINDS = tuple(sorted(_APR_SCOPES))


def type_value(value: Value, window: _Window) -> Draft | None:
    """The claim a value makes given the cue words of its window (None: not a claim)."""
    if value.unit == NONE:
        family, kind = _NONE_KINDS[value.none_kind or ""]
        return _draft(family, kind, value.start, value.end, NONE, is_none=True)
    pos = value.start
    cues, months = window.cues, window.months
    near = _Nearest(cues, pos)
    if not months and _TYPING_CUES.isdisjoint(near.kinds):
        cues, months = window.wide_cues, window.wide_months
        if not months and not any(c[0] in _TYPING_CUES for c in cues):
            # "APRs: purchases 19.99%, cash advances 29.99%": the unit's lead-in types its list.
            cues = cues + tuple(c for c in window.lead_cues if c[0] in (lex.APR, lex.FEE))
        near = _Nearest(cues, pos)
    kinds = near.kinds
    reward = near.of((lex.REWARD,))
    if value.unit == USD:
        return _type_usd(value, near, reward, pos, window.unit_has_reward)
    fee = near.of((lex.FEE,))
    apr = near.of((lex.APR, lex.INTRO))
    if value.min_usd is not None and fee is None:
        fee = (lex.FEE, value.end)  # a dollar minimum only ever belongs to a fee
    if fee is None and apr is None:
        if lex.FOREIGN in kinds and reward is None:
            return _draft(FEE_CLAIM, "foreign", value.start, value.end, PCT, value.low, value.high)
        # "0% for the first 15 months on purchases", "19.99% to 29.99% variable", "then 19.99%":
        # a rate without the word APR.
        implied = near.of(_IMPLIED_RATE)
        if implied is None and months and (lex.PURCHASE in kinds or lex.BT in kinds):
            implied = (lex.INTRO, months[0][0])
        if implied is None or reward is not None:
            return None
        apr = implied
    if reward is not None and _distance(reward, pos) < min(
        _distance(fee, pos), _distance(apr, pos)
    ):
        return None
    if fee is not None and _distance(fee, pos) <= _distance(apr, pos):
        scope = near.of(_FEE_SCOPES)
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
    after = near.of((lex.AFTER, lex.REGULAR))
    intro = near.of((lex.INTRO,))
    if intro is None and months:
        intro = (lex.INTRO, months[0][0])
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
            split = _split_scopes(cues, months, value)
            if split is not None:
                return split
        return _draft(
            INTRO_CLAIM,
            "any" if not scopes else "+".join(sorted(scopes)),
            value.start,
            value.end,
            PCT,
            value.low,
            value.high,
            months=_months_after(months, value),
            scopes=scopes,
        )
    scope = near.of(_APR_SCOPE_KINDS)
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


def _split_scopes(
    cues: Sequence[tuple[str, int]], durations: Sequence[tuple[int, int, int]], value: Value
) -> Draft | None:
    """ "0% intro APR on purchases for 15 months and on balance transfers for 21 months": one rate,
    two offers. Each duration goes with the nearest scope word; returned as a two-claim draft."""
    months = [m for m in durations if m[0] >= value.end]
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
            _draft(
                INTRO_CLAIM,
                kind,
                value.start,
                value.end,
                PCT,
                value.low,
                value.high,
                months=count,
                scopes=frozenset({kind}),
            )
            for kind, count in per_scope.items()
        ]
    }


def _months_after(durations: Sequence[tuple[int, int, int]], value: Value) -> int | None:
    for start, _end, months in durations:
        if start >= value.end:
            return months
    return durations[0][2] if durations else None


def _type_usd(
    value: Value,
    near: _Nearest,
    reward: tuple[str, int] | None,
    pos: int,
    unit_has_reward: bool = False,
) -> Draft | None:
    kinds = near.kinds
    if lex.MIN_INTEREST in kinds:
        return _draft(FEE_CLAIM, "min_interest", value.start, value.end, USD, value.low, value.high)
    fee = near.of((lex.FEE,))
    if fee is None and reward is not None:
        return None
    if reward is not None and fee is not None and _distance(reward, pos) < _distance(fee, pos):
        return None
    scope = near.of(_USD_SCOPES)
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
    if (
        fee is None
        and scope[0] == lex.ANNUAL
        and (unit_has_reward or not 0 <= scope[1] - value.end <= 12)
    ):
        # "$95 a year" is a fee; "$1,000 ... for a year" and "(up to $6,000/year)" in a sentence
        # about rewards are not.
        return None
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
    shared = _UnitCues(
        cue_index.within(unit.start, unit.end), months, unit, values[0].start if values else 0
    )
    windows = []
    for index in range(len(values)):
        start, end = cuts[index], cuts[index + 1]
        windows.append(
            _Window(
                start,
                end,
                shared.between(start, end),
                shared.months_between(start, end),
                values[index - 1].end if index else unit.start,
                values[index + 1].start if index + 1 < len(values) else unit.end,
                shared,
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


def extract(text: str, lower: str, mentions: Sequence[NameMention]) -> Extraction:
    """Every claim of the response, typed and attributed.

    Only units holding a figure (and table cells, which may read "None") are read further; in a
    typical answer that is a fifth of the text, the rest being advice around the figures.
    """
    index = MentionIndex(mentions)
    cue_index = CueIndex(lower, mentions)
    units = build_units(text, cue_index, index)
    values = find_values(lower)
    unit_starts = [u.start for u in units]
    by_unit: dict[int, list[Value]] = {}
    for value in values:
        k = bisect_right(unit_starts, value.start) - 1
        if k >= 0 and value.start < units[k].end and value.end <= units[k].end:
            by_unit.setdefault(k, []).append(value)
    durations = Durations(lower) if values else None
    todo = set(by_unit)
    todo.update(k for k, u in enumerate(units) if u.is_cell)
    distinct_cards = _cards_of([m for m in mentions if m.kind != UNKNOWN])
    claims: list[Claim] = []
    for k in sorted(todo):
        unit = units[k]
        unit_values = by_unit.get(k) or (cell_none(text, unit) if unit.is_cell else [])
        if not unit_values:
            continue
        unit_months = durations.within(unit.start, unit.end) if durations is not None else []
        if (
            not unit_months
            and not unit.context_cues
            and not any(v.unit == NONE for v in unit_values)
            and not cue_index.within(unit.start, unit.end)
        ):
            continue  # numbers with no word around them that could make them a claim
        windows = _windows(lower, cue_index, unit, unit_values, unit_months)
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
                windows = _windows(lower, cue_index, unit, unit_values, unit_months)
        generic = (
            not unit_mentions
            and "card" in unit_text
            and bool(lex.GENERIC_SUBJECT.search(unit_text))
        )
        drafts = [type_value(v, w) for v, w in zip(unit_values, windows, strict=True)]
        _share_coordinated(lower, unit_values, drafts)
        # "all three cards", "both cards" - attribution needs it only in a unit naming no card.
        collective = _collective(unit_text) if not unit_mentions else None
        unit_claims: list[Claim] = []
        for value, draft in zip(unit_values, drafts, strict=True):
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
                unit_claims.append(_claim(part, cards, text[part["start"] : part["end"]]))
        if unit_claims and "respectively" in unit_text and lex.RESPECTIVELY.search(unit_text):
            unit_claims = _respectively(unit_claims, unit_mentions, index, unit.start)
        claims.extend(unit_claims)
    return Extraction(tuple(claims), tuple(mentions), tuple((u.start, u.end) for u in units))


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
    return bool(match.group("n")) or text.rstrip().endswith(
        ("card", "cards", "options", "products", "them")
    )


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
