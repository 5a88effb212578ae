"""Planned episodes and where their files go; the records themselves are ``replicas.records``.

An :class:`EpisodeSpec` is what a worker needs to play one episode; its trajectory file is named
from the spec (``trajectories/<task_id>__<agent>__a<attempt>[__<strategy>].json``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from replicas.records import EpisodeKey

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
