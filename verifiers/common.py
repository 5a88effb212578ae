"""What the answer and table verifiers share: the pass verdict, failure verdicts built from
reasons, and the numeric tolerance rule."""

from __future__ import annotations

import math
from collections.abc import Sequence

from replicas.verifiers.config import VerifierConfig
from replicas.verifiers.parse import ParseError
from replicas.verifiers.verdict import Reason, Verdict

__all__ = ["MAX_REPORTED", "PASS", "failure", "numbers_match", "parse_failure"]

#: At most this many reasons are spelled out in a verdict's feedback.
MAX_REPORTED = 5
PASS = Verdict(score=1.0, passed=True, feedback="Correct.")


def failure(reasons: Sequence[Reason], objective: dict[str, float] | None = None) -> Verdict:
    feedback = " ".join(r.message for r in reasons[:MAX_REPORTED])
    return Verdict(
        score=0.0,
        passed=False,
        reasons=tuple(reasons),
        feedback=feedback,
        objective_scores=objective or {},
    )


def parse_failure(err: ParseError) -> Verdict:
    return failure([Reason(err.code, err.message)])


def numbers_match(
    got: float, want: float, config: VerifierConfig, abs_tol: float | None = None
) -> bool:
    """The tolerance rule: absolute OR relative, both measured on the signed difference."""
    if math.isnan(got) or math.isnan(want):
        return False
    diff = abs(got - want)
    tol = config.abs_tol if abs_tol is None else abs_tol
    return diff <= tol + 1e-12 * max(1.0, abs(want)) or diff <= config.rel_tol * abs(want)
