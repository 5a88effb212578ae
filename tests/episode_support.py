"""Playing an episode through ``env.step`` in tests: a tool call that must succeed, and the final
submission (shared by the factory, import and red-team tests)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from replicas.env import Env
from replicas.tasks import Task, ToolCall


def step(env: Env, name: str, **arguments: Any) -> str:
    """Call tool ``name``; the call must neither end the episode nor come back as an error."""
    obs, _, terminated, truncated, info = env.step({"name": name, "arguments": arguments})
    assert not (terminated or truncated), obs
    assert not info["error"], obs
    return str(obs)


def submit_done(env: Env) -> tuple[float, dict[str, Any]]:
    """Submit "done" (a dbt task grades the project, not the text): the reward and verdict."""
    _, reward, terminated, _, info = env.step({"name": "submit", "arguments": {"answer": "done"}})
    assert terminated
    return float(reward), info["verdict"]


def play(task: Task, calls: Sequence[ToolCall]) -> float:
    """The reward of ``calls`` (then a submission) in a fresh episode of ``task``."""
    with Env.from_task(task) as env:
        env.reset()
        for call in calls:
            env.step(call.to_action())
        return submit_done(env)[0]


def assert_every_defect_needs_its_fix(task: Task) -> None:
    """A combined fix task: its oracle scores 1, the untouched sandbox 0, and restoring any one
    broken file (then building) still scores 0."""
    restores = [c for c in task.oracle if c.name == "write_file"]
    build = next(c for c in task.oracle if c.name == "dbt")
    assert len(restores) == len(task.metadata["candidates"]) >= 2
    assert play(task, list(task.oracle[:-1])) == 1.0
    assert play(task, []) == 0.0
    for restore in restores:  # one defect fixed, the others left: still wrong
        assert play(task, [restore, build]) == 0.0, restore.arguments["path"]
