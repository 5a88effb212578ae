"""Trajectories: the record of one episode, one JSON object per episode.

Shape (``schema_version`` 1)::

    {
      "schema_version": 1,
      "task_id": "...", "replica": "...", "family": "...", "seed": 7, "scale": 0.01, "variant": 3,
      "agent": "my-agent", "instruction": "...", "tools": ["sql", ..., "submit"],
      "steps": [{"index": 0, "tool": "sql", "arguments": {...}, "observation": "...",
                 "error": false, "wall_ms": 1.2, "tokens_in": 812, "tokens_out": 40}, ...],
      "verdict": {...} | null,          # Verdict.to_dict() after submit / truncation
      "outcome": "submitted" | "truncated" | "running",
      "totals": {"steps": 3, "error_steps": 0, "wall_s": 0.8, "tokens_in": 2000, "tokens_out": 90}
    }

The environment writes these (the runner stores one file per episode); the SFT export, the env
checker and the tests read them back through :class:`TrajectoryRecord`, whose problems
:func:`validate_trajectory` lists.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from replicas.records.fields import problems as validation_problems
from replicas.verifiers.verdict import Verdict

__all__ = [
    "OUTCOMES",
    "SCHEMA_VERSION",
    "StepRecord",
    "TrajectoryRecord",
    "totals",
    "validate_trajectory",
]

SCHEMA_VERSION = 1
Outcome = Literal["running", "submitted", "truncated"]
OUTCOMES: tuple[str, ...] = get_args(Outcome)


class StepRecord(BaseModel):
    """One tool call as recorded (arguments as parsed, or the raw text when they did not parse)."""

    model_config = ConfigDict(frozen=True)

    index: int = Field(ge=0)
    tool: str
    arguments: Any = None
    observation: str = ""
    error: bool = False
    wall_ms: float = Field(default=0.0, ge=0)
    tokens_in: StrictInt | None = Field(default=None, ge=0)
    tokens_out: StrictInt | None = Field(default=None, ge=0)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "index": self.index,
            "tool": self.tool,
            "arguments": self.arguments,
            "observation": self.observation,
            "error": self.error,
            "wall_ms": round(self.wall_ms, 3),
        }
        if self.tokens_in is not None:
            out["tokens_in"] = self.tokens_in
        if self.tokens_out is not None:
            out["tokens_out"] = self.tokens_out
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StepRecord:
        return cls.model_validate(dict(data))


class TrajectoryRecord(BaseModel):
    """One trajectory file. Keys beyond the contract are kept (``extra="allow"``)."""

    model_config = ConfigDict(frozen=True, extra="allow")

    schema_version: Literal[1]
    task_id: StrictStr
    replica: StrictStr
    family: StrictStr
    seed: StrictInt
    scale: float | None = None
    variant: int | None = None
    agent: StrictStr
    instruction: str | None = None
    tools: list[Any] | None = None
    steps: list[StepRecord]
    outcome: Outcome
    # validated even when absent: a finished episode must carry one
    verdict: dict[str, Any] | None = Field(default=None, validate_default=True)
    totals: dict[str, Any]

    @field_validator("steps")
    @classmethod
    def _steps_in_order(cls, steps: list[StepRecord]) -> list[StepRecord]:
        for i, step in enumerate(steps):
            if step.index != i:
                raise ValueError(f"step {i}: index {step.index} out of order")
        return steps

    @field_validator("verdict")
    @classmethod
    def _verdict_when_finished(
        cls, verdict: dict[str, Any] | None, info: ValidationInfo
    ) -> dict[str, Any] | None:
        outcome = info.data.get("outcome")
        if verdict is None:
            if outcome is not None and outcome != "running":
                raise ValueError("a finished episode needs a verdict")
            return None
        try:
            Verdict.from_dict(verdict)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a verdict: {exc!r}") from None
        return verdict


def totals(steps: list[StepRecord], wall_s: float) -> dict[str, Any]:
    tokens_in = [s.tokens_in for s in steps if s.tokens_in is not None]
    tokens_out = [s.tokens_out for s in steps if s.tokens_out is not None]
    return {
        "steps": len(steps),
        "error_steps": sum(1 for s in steps if s.error),
        "wall_s": round(wall_s, 4),
        "tokens_in": sum(tokens_in) if tokens_in else None,
        "tokens_out": sum(tokens_out) if tokens_out else None,
    }


def validate_trajectory(data: Mapping[str, Any]) -> list[str]:
    """Problems with a trajectory object (empty list = valid), one line per problem."""
    problems: list[str] = []
    if not isinstance(data, Mapping):
        return [f"a trajectory is a JSON object, not {type(data).__name__}"]
    try:
        TrajectoryRecord.model_validate(dict(data))
    except ValidationError as exc:
        problems.extend(validation_problems(exc))
    try:
        json.dumps(data, allow_nan=False)
    except (TypeError, ValueError) as exc:
        problems.append(f"not JSON-serialisable: {exc}")
    return problems
