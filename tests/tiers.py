"""Which parametrized cases run in the fast tier (``make test``) and which only in ``make
test-slow``: a broad sample stays fast (one case per family, say) and the repetitions that cost
minutes move to the slow tier, where they still run in full."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest


def slow(value: Any, *, id: str | None = None) -> Any:
    """``value`` as a case of the slow tier (a ``pytest.param`` keeps its id and marks)."""
    if isinstance(value, type(pytest.param(None))):
        return pytest.param(*value.values, id=value.id, marks=(*value.marks, pytest.mark.slow))
    return pytest.param(value, id=id, marks=pytest.mark.slow)


def first_per_key(values: Iterable[Any], key: Callable[[Any], object], keep: int = 1) -> list[Any]:
    """Every value, with the first ``keep`` of each ``key`` in the fast tier and the rest slow."""
    seen: dict[object, int] = {}
    out = []
    for value in values:
        k = key(value)
        seen[k] = seen.get(k, 0) + 1
        out.append(value if seen[k] <= keep else slow(value))
    return out
