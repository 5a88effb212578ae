"""The kit's environments as an OpenEnv environment server (``openenv-core`` 0.3).

    replicas serve openenv --port 8000 --suite core-v1

    from openenv.core import GenericEnvClient
    with GenericEnvClient(base_url="http://127.0.0.1:8000").sync() as client:
        first = client.reset(task_id="ecommerce.revenue_period-v1.s1.0")
        first.observation["text"]                                  # the instruction
        result = client.step({"name": "sql", "arguments": {"query": "select 1"}})
        result = client.step({"name": "submit", "arguments": {"answer": "42"}})
        result.reward, result.done, result.observation["verdict"]

Each WebSocket connection (``/ws``, what OpenEnv's ``EnvClient`` speaks) is one session with
its own :class:`ReplicaEnvironment`, and so its own episode and sandbox; ``reset(task_id=...)``
picks the task among those the server offers (the only one when it offers one). An action is
one tool call ``{"name", "arguments"}``; an observation carries the text, ``error``,
``truncated``, the tools (after reset) and the verifier's ``verdict`` when the episode ends.

OpenEnv's stateless HTTP ``/step`` would build a fresh environment per request — an episode
cannot live there — so this server answers it with HTTP 409 and a message pointing at the
WebSocket session, instead of failing with a 500. Needs ``pip install "replica-kit[openenv]"``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

try:
    from fastapi import FastAPI
    from fastapi.responses import JSONResponse
    from fastapi.routing import APIRoute
    from openenv.core.env_server import (
        Action,
        ConcurrencyConfig,
        Environment,
        Observation,
        State,
        create_fastapi_app,
    )
    from pydantic import Field
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        'replicas.integrations.openenv needs OpenEnv: pip install "replica-kit[openenv]"'
    ) from exc

from replicas.env import Env, make
from replicas.integrations import agent_verdict

__all__ = [
    "STATELESS_STEP_MESSAGE",
    "ReplicaAction",
    "ReplicaEnvironment",
    "ReplicaObservation",
    "ReplicaState",
    "create_server_app",
]

STATELESS_STEP_MESSAGE = (
    "stateless HTTP /step is not supported: an episode lives in a session. Connect to the "
    "WebSocket endpoint /ws (OpenEnv's EnvClient does: EnvClient(base_url=...)), call "
    "reset(task_id=...) and then step(...) on that connection."
)


class ReplicaAction(Action):
    """One tool call: ``{"name": "sql", "arguments": {"query": "..."}}``."""

    name: str = Field(description="The tool to call (see the tools of the reset observation).")
    arguments: dict[str, Any] = Field(default_factory=dict, description="The tool's arguments.")


class ReplicaObservation(Observation):
    """What the agent sees after ``reset`` (the instruction) or ``step`` (a tool's answer)."""

    text: str = Field(description="The instruction after reset, the tool's answer after step.")
    task_id: str
    step: int = 0
    error: bool = False
    truncated: bool = False
    tools: list[dict[str, Any]] | None = Field(
        default=None, description="The episode's tools as OpenAI function schemas (reset only)."
    )
    verdict: dict[str, Any] | None = Field(
        default=None,
        description="The verifier's verdict once the episode has ended (without the expected "
        "answer: see replicas.integrations.agent_verdict).",
    )


class ReplicaState(State):
    task_id: str | None = None
    outcome: str = "not started"


class ReplicaEnvironment(Environment[ReplicaAction, ReplicaObservation, ReplicaState]):
    """One session's environment: builds a :class:`replicas.Env` on ``reset(task_id=...)``."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, task_ids: Sequence[str] = (), agent_name: str = "openenv-client") -> None:
        super().__init__()
        self._task_ids = tuple(task_ids)
        self._agent_name = agent_name
        self._env: Env | None = None
        self._state = ReplicaState()

    def reset(
        self,
        seed: int | None = None,
        episode_id: str | None = None,
        task_id: str | None = None,
        **kwargs: Any,
    ) -> ReplicaObservation:
        chosen = self._choose(task_id)
        if self._env is None or self._env.task_id != chosen:
            self.close()
            self._env = make(chosen, agent_name=self._agent_name)
        text, info = self._env.reset(seed=seed)
        self._state = ReplicaState(
            episode_id=episode_id, step_count=0, task_id=chosen, outcome="running"
        )
        return ReplicaObservation(text=text, task_id=chosen, tools=info["tools"])

    def step(
        self, action: ReplicaAction, timeout_s: float | None = None, **kwargs: Any
    ) -> ReplicaObservation:
        if self._env is None:
            raise RuntimeError("call reset(task_id=...) before step")
        text, reward, terminated, truncated, info = self._env.step(
            {"name": action.name, "arguments": action.arguments}
        )
        self._state.step_count = int(info.get("step", self._state.step_count + 1))
        if terminated or truncated:
            self._state.outcome = "submitted" if terminated else "truncated"
        return ReplicaObservation(
            text=text,
            task_id=self._env.task_id,
            step=self._state.step_count,
            error=bool(info.get("error")),
            truncated=bool(truncated),
            verdict=agent_verdict(info.get("verdict")),
            done=bool(terminated or truncated),
            reward=float(reward),
        )

    @property
    def state(self) -> ReplicaState:
        return self._state

    def close(self) -> None:
        if self._env is not None:
            self._env.close()
            self._env = None

    def _choose(self, task_id: str | None) -> str:
        if task_id is None:
            if len(self._task_ids) == 1:
                return self._task_ids[0]
            raise ValueError(
                f"reset needs task_id=...: this server offers {len(self._task_ids)} tasks "
                f"(e.g. {', '.join(self._task_ids[:3])})"
            )
        if self._task_ids and task_id not in self._task_ids:
            raise ValueError(
                f"task {task_id!r} is not served here; served: {', '.join(self._task_ids[:5])}"
                + (" …" if len(self._task_ids) > 5 else "")
            )
        return task_id


def create_server_app(task_ids: Sequence[str], *, max_sessions: int = 4) -> FastAPI:
    """The OpenEnv FastAPI app serving ``task_ids`` (see the module docstring)."""
    ids = tuple(dict.fromkeys(task_ids))
    if not ids:
        raise ValueError("the server needs at least one task id")
    if max_sessions < 1:
        raise ValueError(f"max_sessions must be >= 1, got {max_sessions}")
    app = create_fastapi_app(
        functools.partial(ReplicaEnvironment, ids),
        ReplicaAction,
        ReplicaObservation,
        concurrency_config=ConcurrencyConfig(max_concurrent_envs=max_sessions),
    )
    app.router.routes[:] = [
        route
        for route in app.router.routes
        if not (isinstance(route, APIRoute) and route.path == "/step")
    ]

    @app.post("/step", status_code=409, tags=["Environment Control"])
    async def stateless_step() -> JSONResponse:
        """Refused: episodes live in WebSocket sessions (see ``STATELESS_STEP_MESSAGE``)."""
        return JSONResponse(status_code=409, content={"detail": STATELESS_STEP_MESSAGE})

    return app
