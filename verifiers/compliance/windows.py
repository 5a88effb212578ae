"""A figure's window: the cue words and durations around it that decide what it is about.

Inside a unit every figure gets a window - the text from the previous figure to the next, split
at the last clause boundary between them and never across a contrast ("..., but it's waived the
first year"). ``claim_types`` types a figure from its window's cues; when the clause alone names
no term, the wider stretch between the neighbouring figures and the unit's lead-in are read too.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from replicas.verifiers.compliance import cue_words
from replicas.verifiers.compliance import lexicon as lex
from replicas.verifiers.compliance.units import CueIndex, Unit
from replicas.verifiers.compliance.values import Value


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
        self.has_reward = any(c[0] == cue_words.REWARD for c in cues)
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
class Window:
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


def _own_clause(
    lower: str,
    shared: _UnitCues,
    value: Value,
    start: int,
    end: int,
    index: int,
    count: int,
) -> tuple[int, int]:
    """The first figure's window starts at the last clause boundary before it, the last one's
    ends at the first boundary after it - when the clause left holds a cue word of its own.

    Between two figures the window is already cut at a boundary; at the edges of a unit it
    would otherwise take in every clause up to the unit's start or end ("costs nothing per year,
    nothing extra abroad, cash withdrawals are 31.99%": the 31.99% is about cash, not travel).
    """
    lo, hi = start, end
    if index == 0:
        for match in _CLAUSE_SEPARATOR.finditer(lower, start, value.start):
            lo = match.end()
        if lo != start and not _STATEMENT_CUES.intersection(
            c[0] for c in shared.between(start, lo)
        ):
            lo = start  # "For 18 months, ...", "If you pay late, ...": this figure's own clause
    if index == count - 1:
        after = _CLAUSE_SEPARATOR.search(lower, value.end, end)
        if after is not None:
            hi = after.start()
        if hi != end and not _STATEMENT_CUES.intersection(c[0] for c in shared.between(hi, end)):
            hi = end
    if (lo, hi) != (start, end) and shared.between(lo, hi) != shared.context:
        return lo, hi
    return start, end


# Separators of list-like clauses; a clause before (or after) the first (last) figure that names a
# term of its own ("costs nothing per year, nothing extra abroad, ...") is another statement.
_CLAUSE_SEPARATOR = re.compile(r"[,;|]|[ \t][-/][ \t]")
_STATEMENT_CUES = frozenset(
    {
        cue_words.FEE,
        cue_words.APR,
        cue_words.INTRO,
        cue_words.COST,
        cue_words.ANNUAL,
        cue_words.REWARD,
        cue_words.FOREIGN,
        cue_words.ESTIMATE,
    }
)


def windows_of(
    lower: str,
    cue_index: CueIndex,
    unit: Unit,
    values: Sequence[Value],
    months: Sequence[tuple[int, int, int]],
) -> list[Window]:
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
    # A figure's words never cross a contrast ("..., but it's waived the first year"; "...; the
    # other card has no intro offer"), even when no other figure stands beyond it.
    contrasts = [m.span() for m in lex.CONTRAST_CUT.finditer(lower, unit.start, unit.end)]
    # the matches do not overlap, so their starts and ends both ascend: the last contrast ending
    # before a figure and the first starting after it are found by bisection (a long unit holds
    # many of both)
    c_starts = [a for a, _ in contrasts]
    c_ends = [b for _, b in contrasts]
    windows = []
    for index, value in enumerate(values):
        start, end = cuts[index], cuts[index + 1]
        wide_start = values[index - 1].end if index else unit.start
        wide_end = values[index + 1].start if index + 1 < len(values) else unit.end
        before = bisect_right(c_ends, value.start)
        if before:
            c_end = c_ends[before - 1]
            start, wide_start = max(start, c_end), max(wide_start, c_end)
        after = bisect_left(c_starts, value.end)
        if after < len(c_starts):
            c_start = c_starts[after]
            end, wide_end = min(end, c_start), min(wide_end, c_start)
        if index == 0 or index == len(values) - 1:
            start, end = _own_clause(lower, shared, value, start, end, index, len(values))
        windows.append(
            Window(
                start,
                end,
                shared.between(start, end),
                shared.months_between(start, end),
                wide_start,
                wide_end,
                shared,
            )
        )
    return windows
