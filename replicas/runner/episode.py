"""Playing one episode in a worker process (local pool or Ray): spec in, record + trajectory out.

Workers are long-lived: agents (and their HTTP clients) and built tasks are cached per process,
and the sandbox layer keeps one read-only DuckDB connection per snapshot per process, so the
per-episode cost is the episode itself. Nothing here writes to the run directory — the
collecting process is the single writer — so the same function serves a remote Ray cluster.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import time
import traceback
from collections.abc import Mapping
from typing import Any

from replicas.agents import Agent, AgentOptions, EpisodeOutcome, get_agent
from replicas.env import Env
from replicas.records import EpisodeRecord
from replicas.runner.records import EpisodeSpec
from replicas.tasks import task_from_id

_AGENTS: dict[tuple[str, str], Agent] = {}

#: Codes added to ``reasons`` when the env produced no verdict of its own.
NO_SUBMISSION = "no_submission"
AGENT_ERROR = "agent_error"


def init_worker(environment: Mapping[str, str]) -> None:
    """Pool initializer: the parent owns Ctrl-C (it stops the pool); share its cache dir."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.update(environment)


def _agent(spec: EpisodeSpec, options: AgentOptions) -> Agent:
    key = (spec.agent, repr(options))
    agent = _AGENTS.get(key)
    if agent is None:
        agent = get_agent(spec.agent, options)
        _AGENTS[key] = agent
    return agent


@atexit.register
def _close_agents() -> None:
    for agent in _AGENTS.values():
        with contextlib.suppress(Exception):  # best effort at interpreter exit
            agent.close()
    _AGENTS.clear()


def _crash_text(exc: BaseException) -> str:
    last = traceback.format_exception_only(type(exc), exc)[-1].strip()
    return f"agent crashed: {last[:800]}"


def play_episode(spec: EpisodeSpec, options: AgentOptions) -> tuple[EpisodeRecord, dict[str, Any]]:
    """Run ``spec`` to the end and describe it. Never raises for agent trouble: a crashing agent
    becomes an episode with ``error`` set. Raises only when the task itself cannot be built."""

    task = task_from_id(spec.task_id)
    agent = _agent(spec, options)
    started = time.perf_counter()
    env = Env(task, agent_name=spec.agent)
    try:
        try:
            outcome = agent.run_episode(env, strategy=spec.strategy)
        except Exception as exc:  # an agent bug must cost one episode, not the run
            outcome = EpisodeOutcome(error=_crash_text(exc))
        trajectory = env.trajectory()
    finally:
        env.close()
    wall_s = time.perf_counter() - started
    if spec.strategy:
        trajectory["strategy"] = spec.strategy
    if outcome.error:
        trajectory["agent_error"] = outcome.error
    return _record(spec, task, trajectory, outcome, wall_s), trajectory


def _record(
    spec: EpisodeSpec,
    task: Any,
    trajectory: Mapping[str, Any],
    outcome: EpisodeOutcome,
    wall_s: float,
) -> EpisodeRecord:
    verdict = trajectory.get("verdict") if isinstance(trajectory.get("verdict"), dict) else None
    totals = trajectory.get("totals") or {}
    if verdict is not None:
        score = float(verdict.get("score", 0.0))
        passed = bool(verdict.get("passed", False))
        reasons = [str(r.get("code")) for r in verdict.get("reasons", []) if isinstance(r, dict)]
    else:
        score, passed = 0.0, False
        reasons = [AGENT_ERROR if outcome.error else NO_SUBMISSION]
    tokens_in = outcome.tokens_in or int(totals.get("tokens_in") or 0)
    tokens_out = outcome.tokens_out or int(totals.get("tokens_out") or 0)
    return EpisodeRecord(
        task_id=task.id,
        replica=task.replica,
        family=task.family,
        difficulty=task.difficulty,
        agent=spec.agent,
        attempt=spec.attempt,
        strategy=spec.strategy,
        score=min(1.0, max(0.0, score)),
        passed=passed,
        reasons=tuple(reasons),
        steps=int(totals.get("steps") or 0),
        error_steps=int(totals.get("error_steps") or 0),
        tokens_in=tokens_in,
        tokens_out=tokens_out,
        cost_usd=float(outcome.cost_usd),
        wall_s=wall_s,
        trajectory=spec.trajectory,
        error=outcome.error,
        extra=dict(outcome.extra),
    )
