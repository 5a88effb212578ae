"""The result record: one JSON line per episode in ``DIR/results.jsonl``.

Reports, compare and resume all read these lines, so the shape is a contract (``schema_version``
bumps on any incompatible change). A record is built once, in the process that collects results,
from what the worker returned; it is never edited afterwards.

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
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

RESULTS_SCHEMA_VERSION = 1
RUN_SCHEMA_VERSION = 1

#: The identity of an episode within a run: (task_id, agent, attempt, strategy or "").
EpisodeKey = tuple[str, str, int, str]

_SLUG_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def agent_slug(agent: str) -> str:
    """A file-name-safe form of an agent spec (``openai:gpt-4o`` → ``openai-gpt-4o``).

    Commands are long and full of spaces and slashes, so ``cmd:…`` agents become ``cmd-<hash>``;
    the full spec stays in the record and in ``run.json``.
    """
    if agent.startswith("cmd:"):
        import hashlib

        return "cmd-" + hashlib.sha256(agent.encode()).hexdigest()[:10]
    slug = _SLUG_UNSAFE.sub("-", agent).strip("-.")
    return slug[:80] or "agent"


def trajectory_relpath(task_id: str, agent: str, attempt: int, strategy: str | None) -> str:
    """``trajectories/<task_id>__<agent>__a<attempt>.json``; adversary strategies add a suffix."""
    name = f"{task_id}__{agent_slug(agent)}__a{attempt}"
    if strategy:
        name += f"__{_SLUG_UNSAFE.sub('-', strategy)}"
    return f"trajectories/{name}.json"


@dataclass(frozen=True)
class EpisodeSpec:
    """One planned episode: what a worker needs to play it (picklable, small)."""

    task_id: str
    agent: str
    attempt: int
    strategy: str | None = None

    def __post_init__(self) -> None:
        if not self.task_id or not self.agent:
            raise ValueError("an episode needs a task id and an agent")
        if not isinstance(self.attempt, int) or self.attempt < 0:
            raise ValueError(f"attempt must be an int >= 0, got {self.attempt!r}")
        if self.strategy is not None and not self.strategy:
            raise ValueError("strategy must be None or a non-empty name")

    @property
    def key(self) -> EpisodeKey:
        return (self.task_id, self.agent, self.attempt, self.strategy or "")

    @property
    def trajectory(self) -> str:
        return trajectory_relpath(self.task_id, self.agent, self.attempt, self.strategy)


@dataclass(frozen=True)
class EpisodeRecord:
    """One line of ``results.jsonl`` (see the module docstring for the meaning of each field)."""

    task_id: str
    replica: str
    family: str
    difficulty: str
    agent: str
    attempt: int
    score: float
    passed: bool
    reasons: tuple[str, ...]
    steps: int
    error_steps: int
    tokens_in: int
    tokens_out: int
    cost_usd: float
    wall_s: float
    trajectory: str
    strategy: str | None = None
    error: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not (isinstance(self.score, (int, float)) and 0.0 <= self.score <= 1.0):
            raise ValueError(f"score must lie in [0, 1], got {self.score!r}")
        for name in ("steps", "error_steps", "tokens_in", "tokens_out", "attempt"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be an int >= 0, got {value!r}")
        for name in ("cost_usd", "wall_s"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
        object.__setattr__(self, "reasons", tuple(str(r) for r in self.reasons))

    @property
    def key(self) -> EpisodeKey:
        return (self.task_id, self.agent, self.attempt, self.strategy or "")

    def to_dict(self) -> dict[str, Any]:
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
                "score": float(self.score),
                "passed": bool(self.passed),
                "reasons": list(self.reasons),
                "steps": self.steps,
                "error_steps": self.error_steps,
                "tokens_in": self.tokens_in,
                "tokens_out": self.tokens_out,
                "cost_usd": round(float(self.cost_usd), 6),
                "wall_s": round(float(self.wall_s), 4),
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
