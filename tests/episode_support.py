"""Playing an episode through ``env.step`` in tests: a tool call that must succeed, and the final
submission (shared by the factory, import and red-team tests)."""

from __future__ import annotations

from typing import Any

from replicas.env import Env


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
