"""Playing a fixed list of tool calls through a real :class:`~replicas.env.Env` episode.

Two jobs use it: oracle demonstrations take their observations from it (never made up), and
re-grading replays an exported record's calls — parsed back from what was written — in a fresh
sandbox, so a record is only kept when exactly what a trainer will read scores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from replicas.env import Env

if TYPE_CHECKING:
    from replicas.tasks import Task


@dataclass(frozen=True)
class Replay:
    """What one scripted episode produced: an observation per call played, and the outcome."""

    observations: tuple[str, ...]
    errors: tuple[bool, ...]
    score: float
    passed: bool
    terminated: bool
    reasons: tuple[str, ...]
    tools: tuple[Mapping[str, Any], ...]

    @property
    def solved(self) -> bool:
        return self.terminated and self.passed


def replay(
    task: Task, calls: Sequence[tuple[str, Mapping[str, Any]]], *, agent_name: str = "export"
) -> Replay:
    """Play ``calls`` (name, arguments) in order in a fresh sandbox; stop at the episode's end.

    Never raises for a bad call: the env answers it with an error observation, as it would an
    agent. Raises only when the task's environment cannot be set up.
    """

    env = Env.from_task(task, agent_name=agent_name)
    observations: list[str] = []
    errors: list[bool] = []
    score, passed, terminated = 0.0, False, False
    reasons: tuple[str, ...] = ()
    try:
        _, info = env.reset()
        tools = tuple(info.get("tools", []))
        for name, arguments in calls:
            obs, reward, term, trunc, step_info = env.step(
                {"name": name, "arguments": dict(arguments)}
            )
            observations.append(str(obs))
            errors.append(bool(step_info.get("error")))
            if term or trunc:
                verdict = step_info.get("verdict") or {}
                score = float(reward)
                passed = bool(verdict.get("passed", False))
                terminated = bool(term)
                reasons = tuple(str(r.get("code", "")) for r in verdict.get("reasons", []))
                break
    finally:
        env.close()
    return Replay(tuple(observations), tuple(errors), score, passed, terminated, reasons, tools)
