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

The runner appends these as JSONL; the SFT export reads them back. ``validate_trajectory`` is the
contract check both sides (and the tests) use.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from replicas.verifiers.verdict import Verdict

SCHEMA_VERSION = 1
OUTCOMES = ("running", "submitted", "truncated")


@dataclass(frozen=True)
class StepRecord:
    """One tool call as recorded (arguments as parsed, or the raw text when they did not parse)."""

    index: int
    tool: str
    arguments: Any
    observation: str
    error: bool
    wall_ms: float
    tokens_in: int | None = None
    tokens_out: int | None = None

    def __post_init__(self) -> None:
        if self.index < 0 or self.wall_ms < 0:
            raise ValueError("step index and wall_ms must be >= 0")
        for name in ("tokens_in", "tokens_out"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 0):
                raise ValueError(f"{name} must be a non-negative int or None, got {value!r}")

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
        return cls(
            index=int(data["index"]),
            tool=str(data["tool"]),
            arguments=data.get("arguments"),
            observation=str(data.get("observation", "")),
            error=bool(data.get("error", False)),
            wall_ms=float(data.get("wall_ms", 0.0)),
            tokens_in=data.get("tokens_in"),
            tokens_out=data.get("tokens_out"),
        )


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
    """Problems with a trajectory object (empty list = valid)."""
    problems: list[str] = []
    if data.get("schema_version") != SCHEMA_VERSION:
        problems.append(f"schema_version must be {SCHEMA_VERSION}")
    for key, kind in (
        ("task_id", str),
        ("replica", str),
        ("family", str),
        ("seed", int),
        ("agent", str),
        ("steps", list),
        ("totals", dict),
    ):
        if not isinstance(data.get(key), kind):
            problems.append(f"{key} must be a {kind.__name__}")
    if data.get("outcome") not in OUTCOMES:
        problems.append(f"outcome must be one of {OUTCOMES}")
    for i, step in enumerate(data.get("steps") or []):
        try:
            record = StepRecord.from_dict(step)
        except (KeyError, TypeError, ValueError) as exc:
            problems.append(f"step {i}: {exc}")
            continue
        if record.index != i:
            problems.append(f"step {i}: index {record.index} out of order")
    verdict = data.get("verdict")
    if data.get("outcome") != "running" and not isinstance(verdict, dict):
        problems.append("a finished episode needs a verdict")
    if isinstance(verdict, dict):
        try:
            Verdict.from_dict(verdict)
        except (KeyError, TypeError, ValueError) as exc:
            problems.append(f"verdict: {exc}")
    try:
        json.dumps(data, allow_nan=False)
    except (TypeError, ValueError) as exc:
        problems.append(f"not JSON-serialisable: {exc}")
    return problems
