"""Half-open text spans ``[start, end)`` that answer "which overlap this?" without a scan.

The rulesets keep lists of spans (names taken, myths, labels) and ask, per mention or claim,
whether one overlaps or holds a position. A scan of the list per question is quadratic in a long
text that repeats a phrase (1 MB of one repeated label held tens of thousands of spans); this
index keeps the spans sorted by start with the longest span's length, so a question looks only at
the spans that start within that length before it (``bisect``).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections.abc import Iterable, Iterator


class SpanIndex:
    """Spans sorted by start; each remembers the order it was added in (``first_holding``
    answers as a scan of the spans in that order would)."""

    __slots__ = ("_longest", "_n", "_spans")

    def __init__(self, spans: Iterable[tuple[int, int]] = ()) -> None:
        items = [(a, b, i) for i, (a, b) in enumerate(spans)]
        items.sort()
        self._spans = items
        self._n = len(items)
        self._longest = max([b - a for a, b, _ in items], default=0)

    def __len__(self) -> int:
        return self._n

    def __iter__(self) -> Iterator[tuple[int, int]]:
        """The spans, by start."""
        return ((a, b) for a, b, _ in self._spans)

    def add(self, start: int, end: int) -> None:
        insort(self._spans, (start, end, self._n))
        self._n += 1
        self._longest = max(self._longest, end - start)

    def _starting_in(self, lo: int, hi: int) -> list[tuple[int, int, int]]:
        """The spans whose start is in ``[lo, hi)``."""
        return self._spans[bisect_left(self._spans, (lo,)) : bisect_left(self._spans, (hi,))]

    def overlaps(self, start: int, end: int) -> bool:
        """Whether a span ``(x, y)`` has ``x < end and start < y``."""
        spans = self._spans
        hi = bisect_left(spans, (end,))
        for k in range(bisect_left(spans, (start - self._longest,)), hi):
            if start < spans[k][1]:
                return True
        return False

    def holding(self, pos: int) -> tuple[int, int] | None:
        """The first span added that holds ``pos`` (``x <= pos < y``), or None."""
        lo = bisect_left(self._spans, (pos - self._longest,))
        hi = bisect_right(self._spans, (pos, 1 << 62))
        best: tuple[int, int, int] | None = None
        for span in self._spans[lo:hi]:
            if span[1] > pos and (best is None or span[2] < best[2]):
                best = span
        return None if best is None else (best[0], best[1])


__all__ = ["SpanIndex"]
