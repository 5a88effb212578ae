"""Drawing task parameters until every recorded wrong reading is discriminated.

``TaskFamily.build`` already retries ``make`` with a new attempt (a fresh random stream) until
every wrong reading fails the verifier, but each attempt re-runs the whole ``make``. Families
whose parameters are cheap to evaluate search a few draws inside one ``make`` instead: the
first draw whose readings all fail the task's verifier wins; when none does, the draw with the
fewest inert readings is returned unchanged and the outer loop retries. Deterministic: draws
come from the family's seeded generator in order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from replicas.verifiers.answers import check_answer
from replicas.verifiers.config import VerifierConfig

P = TypeVar("P")


@dataclass(frozen=True)
class Candidate(Generic[P]):
    """One drawn parameter set with its expected answer and its wrong readings' answers."""

    params: P
    expected: Any
    readings: Mapping[str, Any] = field(default_factory=dict)

    def inert(self, kind: str, verifier: VerifierConfig) -> list[str]:
        """Readings the verifier would accept (they do not discriminate)."""
        return [
            name
            for name, value in self.readings.items()
            if check_answer(kind, value, self.expected, verifier).passed
        ]


def search(
    draw: Callable[[], P],
    evaluate: Callable[[P], Candidate[P]],
    *,
    kind: str,
    verifier: VerifierConfig,
    max_draws: int = 8,
) -> Candidate[P]:
    """The first candidate whose readings all fail ``verifier``, else the least inert one."""
    if max_draws < 1:
        raise ValueError("max_draws must be >= 1")
    best = evaluate(draw())
    best_inert = len(best.inert(kind, verifier))
    for _ in range(max_draws - 1):
        if best_inert == 0:
            break
        candidate = evaluate(draw())
        n_inert = len(candidate.inert(kind, verifier))
        if n_inert < best_inert:
            best, best_inert = candidate, n_inert
    return best
