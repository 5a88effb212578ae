"""The result record: one JSON line per episode in ``DIR/results.jsonl``.

The runner writes these lines; reports, compare and resume read them back through the same
model, so the shape is one contract (``schema_version`` bumps on any incompatible change). A
record is built once, in the process that collects results, from what the worker returned; it is
never edited afterwards.

Fields (``schema_version`` 1)::

    schema_version  1
    task_id         "ecommerce.revenue_period-v1.s1.0"
    replica         "ecommerce"
    family          "ecommerce.revenue_period-v1"
    difficulty      "easy" | "medium" | "hard"
    agent           the agent spec as given ("oracle", "openai:gpt-4o-mini", "cmd:python a.py")
    attempt         0-based attempt index
    strategy        adversary strategy name (only for adversary episodes)
    score           verdict score in [0, 1] (0 when nothing was submitted)
    passed          verdict success bit
    reasons         verdict reason codes (["no_submission"] when the episode ended unsubmitted)
    steps           tool calls made
    error_steps     tool calls that returned an error observation
    tokens_in       prompt tokens the agent reported (0 for scripted agents)
    tokens_out      completion tokens
    cost_usd        from the price table (0.0 for scripted agents and unpriced models)
    wall_s          wall time of the episode in the worker
    error           agent failure text (only when the agent crashed, hung, spoke garbage, or the
                    model server kept failing); such an episode scores 0
    trajectory      path of the episode's trajectory, relative to the run directory

Readers are tolerant where a JSON writer may differ (``3.0`` for a count, reasons as verdict
objects, the zero-valued counters absent) and strict where statistics would go wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from replicas.records.fields import (
    Amount,
    Codes,
    Count,
    Name,
    OptionalText,
    Score,
    StrictFlag,
)

__all__ = ["RESULTS_SCHEMA_VERSION", "EpisodeKey", "EpisodeRecord", "record_key"]

RESULTS_SCHEMA_VERSION = 1

#: The identity of an episode within a run: (task_id, agent, attempt, strategy or "").
EpisodeKey = tuple[str, str, int, str]


class EpisodeRecord(BaseModel):
    """One line of ``results.jsonl`` (see the module docstring for the meaning of each field)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    schema_version: Literal[1] = 1
    task_id: Name
    replica: Name
    family: Name
    difficulty: Name
    agent: Name
    attempt: Count
    strategy: OptionalText = None
    score: Score
    passed: StrictFlag
    reasons: Codes = ()
    steps: Count
    error_steps: Count = 0
    tokens_in: Count = 0
    tokens_out: Count = 0
    cost_usd: Amount = 0.0
    wall_s: Amount = 0.0
    error: OptionalText = None
    trajectory: OptionalText = None
    #: Writer-only additions appended to the line (e.g. an agent's own counters); never read.
    extra: Mapping[str, Any] = Field(default_factory=dict, exclude=True)

    @property
    def key(self) -> EpisodeKey:
        """Identity of an episode in a run; a resume must never record the same key twice."""
        return (self.task_id, self.agent, self.attempt, self.strategy or "")

    @property
    def agent_error(self) -> bool:
        return bool(self.error)

    @property
    def total_tokens(self) -> int:
        return self.tokens_in + self.tokens_out

    def to_dict(self) -> dict[str, Any]:
        """The JSON line: fixed key order, money and time rounded, optional keys only when set."""
        out: dict[str, Any] = {
            "schema_version": RESULTS_SCHEMA_VERSION,
            "task_id": self.task_id,
            "replica": self.replica,
            "family": self.family,
            "difficulty": self.difficulty,
            "agent": self.agent,
            "attempt": self.attempt,
        }
        if self.strategy:
            out["strategy"] = self.strategy
        out.update(
            {
                "score": self.score,
                "passed": self.passed,
                "reasons": list(self.reasons),
                "steps": self.steps,
                "error_steps": self.error_steps,
                "tokens_in": self.tokens_in,
                "tokens_out": self.tokens_out,
                "cost_usd": round(self.cost_usd, 6),
                "wall_s": round(self.wall_s, 4),
            }
        )
        if self.error:
            out["error"] = self.error
        out["trajectory"] = self.trajectory
        out.update(dict(self.extra))
        return out


def record_key(data: Mapping[str, Any]) -> EpisodeKey:
    """The episode key of a parsed results line (ValueError when it lacks the key fields)."""
    try:
        return (
            str(data["task_id"]),
            str(data["agent"]),
            int(data["attempt"]),
            str(data.get("strategy") or ""),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a result record: {exc}") from None
