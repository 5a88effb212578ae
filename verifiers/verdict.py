"""The verdict every verifier returns.

A verdict is data, not behaviour: the runtime turns ``score`` into the episode reward, the runner
groups failures by ``reasons[*].code``, and ``feedback`` is the one paragraph a person (or a prompt
optimiser such as GEPA) reads to learn what went wrong.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Span:
    """Half-open character range ``[start, end)`` of the submitted text a reason points at."""

    start: int
    end: int
    text: str = ""

    def __post_init__(self) -> None:
        if self.start < 0 or self.end < self.start:
            raise ValueError(f"invalid span [{self.start}, {self.end})")

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "text": self.text}


@dataclass(frozen=True)
class Reason:
    """One machine-readable finding: a stable ``code`` plus a human message and optional evidence."""

    code: str
    message: str
    span: Span | None = None
    expected: Any = None
    found: Any = None

    def __post_init__(self) -> None:
        if not self.code or not self.code.replace("_", "").isalnum():
            raise ValueError(f"reason code must be a snake_case identifier, got {self.code!r}")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.span is not None:
            out["span"] = self.span.to_dict()
        if self.expected is not None:
            out["expected"] = self.expected
        if self.found is not None:
            out["found"] = self.found
        return out


@dataclass(frozen=True)
class Verdict:
    """``score`` in [0, 1]; ``passed`` is the task's success bit (not always ``score == 1``)."""

    score: float
    passed: bool
    reasons: tuple[Reason, ...] = ()
    feedback: str = ""
    objective_scores: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not (isinstance(self.score, (int, float)) and math.isfinite(self.score)):
            raise ValueError(f"score must be a finite number, got {self.score!r}")
        if not 0.0 <= self.score <= 1.0:
            raise ValueError(f"score must lie in [0, 1], got {self.score}")
        object.__setattr__(self, "reasons", tuple(self.reasons))

    @property
    def codes(self) -> list[str]:
        return [r.code for r in self.reasons]

    def to_dict(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "passed": self.passed,
            "reasons": [r.to_dict() for r in self.reasons],
            "feedback": self.feedback,
            "objective_scores": dict(self.objective_scores),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Verdict:
        reasons = tuple(
            Reason(
                code=r["code"],
                message=r.get("message", ""),
                span=Span(**r["span"]) if r.get("span") else None,
                expected=r.get("expected"),
                found=r.get("found"),
            )
            for r in data.get("reasons", [])
        )
        return cls(
            score=float(data["score"]),
            passed=bool(data["passed"]),
            reasons=reasons,
            feedback=str(data.get("feedback", "")),
            objective_scores=dict(data.get("objective_scores", {})),
        )


def fail(code: str, message: str, **evidence: Any) -> Verdict:
    """A zero-score verdict with one reason; the common case for malformed answers."""
    return Verdict(
        score=0.0, passed=False, reasons=(Reason(code, message, **evidence),), feedback=message
    )
