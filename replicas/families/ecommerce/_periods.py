"""Reporting periods inside the ecommerce data window (2024-01-01 … 2026-06-30).

A period is a half-open range of calendar dates ``[start, end)`` with a human label
("2025-03", "2025-Q1", "2025-H2", "2025") so instructions can name it without ambiguity.
Drawing one is a single seeded choice, so task parameters stay reproducible.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

import numpy as np

FIRST_MONTH = dt.date(2024, 1, 1)
LAST_MONTH = dt.date(2026, 6, 1)  # the last month with data (inclusive)
N_MONTHS = (LAST_MONTH.year - FIRST_MONTH.year) * 12 + LAST_MONTH.month - FIRST_MONTH.month + 1

PeriodKind = Literal["month", "quarter", "half", "year", "range"]


def add_months(day: dt.date, months: int) -> dt.date:
    index = day.year * 12 + day.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1)


def month_label(day: dt.date) -> str:
    return f"{day.year}-{day.month:02d}"


@dataclass(frozen=True)
class Period:
    """Calendar dates ``[start, end)``; ``label`` is how the instruction names it."""

    kind: PeriodKind
    start: dt.date
    end: dt.date

    def __post_init__(self) -> None:
        if self.start.day != 1 or self.end.day != 1 or self.end <= self.start:
            raise ValueError(f"a period spans whole months: {self.start} .. {self.end}")
        if self.start < FIRST_MONTH or self.end > add_months(LAST_MONTH, 1):
            raise ValueError(f"period {self.start} .. {self.end} lies outside the data window")

    @property
    def label(self) -> str:
        if self.kind == "month":
            return month_label(self.start)
        if self.kind == "quarter":
            return f"{self.start.year}-Q{(self.start.month - 1) // 3 + 1}"
        if self.kind == "half":
            return f"{self.start.year}-H{(self.start.month - 1) // 6 + 1}"
        if self.kind == "year":
            return str(self.start.year)
        return f"{month_label(self.start)} to {month_label(add_months(self.end, -1))}"

    @property
    def months(self) -> list[dt.date]:
        out, day = [], self.start
        while day < self.end:
            out.append(day)
            day = add_months(day, 1)
        return out

    def describe(self) -> str:
        """'2025-Q1 (from 2025-01-01 through 2025-03-31)'."""
        last = self.end - dt.timedelta(days=1)
        return f"{self.label} (from {self.start.isoformat()} through {last.isoformat()})"


_MONTHS_PER_KIND: dict[str, int] = {"month": 1, "quarter": 3, "half": 6, "year": 12}


def draw_period(rng: np.random.Generator, kind: PeriodKind) -> Period:
    """A uniformly drawn, aligned period of ``kind`` inside the data window."""
    size = _MONTHS_PER_KIND[kind]
    starts = [
        add_months(FIRST_MONTH, i)
        for i in range(0, N_MONTHS - size + 1)
        if (add_months(FIRST_MONTH, i).month - 1) % size == 0
    ]
    start = starts[int(rng.integers(0, len(starts)))]
    return Period(kind, start, add_months(start, size))


def month_range(start: dt.date, n_months: int) -> Period:
    """A run of ``n_months`` whole months starting at ``start``."""
    return Period("range", start, add_months(start, n_months))


def draw_month_run(rng: np.random.Generator, n_months: int) -> Period:
    """``n_months`` consecutive months inside the window."""
    first = int(rng.integers(0, N_MONTHS - n_months + 1))
    return month_range(add_months(FIRST_MONTH, first), n_months)
