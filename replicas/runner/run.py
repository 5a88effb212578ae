"""``run(config)``: a suite × agent × attempts execution into a run directory.

Order of work: validate everything that can be wrong with the input (agent, suite, glob, the
run directory) before anything runs; build the tasks; write ``run.json``; run the episodes that
are not recorded yet; append each one as it finishes; finally ask the report package for
``summary.json`` (when it exists). An interrupted run leaves a valid run directory that
``resume=True`` completes without duplicates.
"""

from __future__ import annotations

import importlib
import platform
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from replicas import osbox
from replicas._version import __version__
from replicas.agents import AgentOptions, get_agent
from replicas.records import RUN_SCHEMA_VERSION, EpisodeRecord
from replicas.runner.executors import get_executor
from replicas.runner.plan import load_tasks, plan_episodes, remaining, select_task_ids
from replicas.runner.progress import NullProgress, Progress
from replicas.runner.records import EpisodeSpec
from replicas.runner.store import ResultsStore, read_results

DEFAULT_SUITE = "core-v1"


class RunDirError(ValueError):
    """The output directory holds something a new run must not overwrite or mix with."""


@dataclass(frozen=True)
class RunConfig:
    """What to run and where. ``task_ids`` (API only) replaces suite selection when given."""

    out: Path
    agent: str
    suite: str = DEFAULT_SUITE
    tasks: str | None = None
    task_ids: tuple[str, ...] | None = None
    attempts: int = 1
    workers: int = 1
    executor: str = "local"
    ray_address: str | None = None
    resume: bool = False
    max_episodes: int | None = None
    options: AgentOptions = field(default_factory=AgentOptions)

    def __post_init__(self) -> None:
        object.__setattr__(self, "out", Path(self.out))
        if not isinstance(self.attempts, int) or self.attempts < 1:
            raise ValueError(f"--attempts must be an int >= 1, got {self.attempts!r}")
        if not isinstance(self.workers, int) or self.workers < 0:
            raise ValueError(f"--workers must be an int >= 0, got {self.workers!r}")
        if self.max_episodes is not None and (
            not isinstance(self.max_episodes, int) or self.max_episodes < 1
        ):
            raise ValueError(f"--max-episodes must be an int >= 1, got {self.max_episodes!r}")
        if self.task_ids is not None:
            ids = tuple(self.task_ids)
            if not ids:
                raise ValueError("task_ids must not be empty")
            object.__setattr__(self, "task_ids", ids)


@dataclass(frozen=True)
class RunOutcome:
    """What one invocation did (the run directory holds the full results)."""

    run_dir: Path
    planned: int
    already_done: int
    ran: int
    passed: int
    errors: int
    wall_s: float
    summary: dict[str, Any] | None = None
    summary_error: str | None = None

    @property
    def complete(self) -> bool:
        return self.already_done + self.ran >= self.planned


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _check_run_dir(store: ResultsStore, config: RunConfig, agent_name: str) -> dict[str, Any]:
    """Refuse to mix runs; returns the previous run.json (or {})."""
    previous = store.read_run_config() or {}
    has_results = store.results_path.exists() and store.results_path.stat().st_size > 0
    if not config.resume:
        if has_results or previous:
            raise RunDirError(
                f"{store.run_dir} already holds a run; pass --resume to continue it "
                "or choose another --out"
            )
        return {}
    if previous:
        mismatched = [
            f"{key} {previous.get(key)!r} (now {value!r})"
            for key, value in (("agent", agent_name), ("suite", _suite_label(config)))
            if previous.get(key) != value
        ]
        if mismatched:
            raise RunDirError(
                f"{store.run_dir} holds a run with a different "
                + ", ".join(mismatched)
                + "; use another --out"
            )
    return previous


def _suite_label(config: RunConfig) -> str:
    return config.suite if config.task_ids is None else "(explicit task ids)"


def _write_run_json(
    store: ResultsStore,
    config: RunConfig,
    agent_name: str,
    task_ids: Sequence[str],
    planned: int,
    previous: dict[str, Any],
    isolation: str,
) -> None:
    store.write_run_config(
        {
            "schema_version": RUN_SCHEMA_VERSION,
            "kit_version": __version__,
            "suite": _suite_label(config),
            "agent": agent_name,
            "attempts": config.attempts,
            "tasks": config.tasks,
            "task_count": len(task_ids),
            "task_ids": list(task_ids),
            "episodes_planned": planned,
            "executor": config.executor,
            "workers": config.workers,
            "agent_options": config.options.to_public_dict(),
            "created_at": previous.get("created_at") or _now(),
            "updated_at": _now(),
            "resumed": bool(previous),
            "python": platform.python_version(),
            "isolation": isolation,
        }
    )


def required_isolation(tasks: Sequence[Any]) -> str:
    """How the run's agent-controlled processes will be isolated; ``ValueError`` (the CLI's
    exit 2) when dbt tasks are selected, no OS sandbox exists and the user did not opt out."""
    if not any("dbt" in task.tools for task in tasks):
        return "none-needed"
    try:
        return osbox.isolation_mode()
    except osbox.OsSandboxUnavailable as exc:
        raise ValueError(str(exc)) from None


def _failure_record(spec: EpisodeSpec, task: Any, exc: BaseException) -> EpisodeRecord:
    last = traceback.format_exception_only(type(exc), exc)[-1].strip()
    return EpisodeRecord(
        task_id=spec.task_id,
        replica=task.replica,
        family=task.family,
        difficulty=task.difficulty,
        agent=spec.agent,
        attempt=spec.attempt,
        strategy=spec.strategy,
        score=0.0,
        passed=False,
        reasons=("episode_setup_error",),
        steps=0,
        error_steps=0,
        tokens_in=0,
        tokens_out=0,
        cost_usd=0.0,
        wall_s=0.0,
        trajectory=spec.trajectory,
        error=f"episode could not run: {last[:800]}",
    )


def _failure_trajectory(record: EpisodeRecord) -> dict[str, Any]:
    """A minimal trajectory for an episode that never started, so every record has one."""
    return {
        "schema_version": 1,
        "task_id": record.task_id,
        "replica": record.replica,
        "family": record.family,
        "agent": record.agent,
        "steps": [],
        "verdict": None,
        "outcome": "running",
        "totals": {
            "steps": 0,
            "error_steps": 0,
            "wall_s": 0.0,
            "tokens_in": None,
            "tokens_out": None,
        },
        "agent_error": record.error,
        **({"strategy": record.strategy} if record.strategy else {}),
    }


def write_summary_if_available(run_dir: Path) -> dict[str, Any] | None:
    """``replicas.report.write_summary(run_dir)`` when the report package provides it."""
    try:
        module = importlib.import_module("replicas.report")
    except ModuleNotFoundError as exc:
        if exc.name not in ("replicas.report",):
            raise
        return None
    writer = getattr(module, "write_summary", None)
    if writer is None:
        return None
    result = writer(run_dir)
    return result if isinstance(result, dict) else None


def run(config: RunConfig, *, progress: Progress | None = None) -> RunOutcome:
    """Execute (or resume) a run. Bad input raises ValueError before any episode starts;
    Ctrl-C raises KeyboardInterrupt after the workers stopped, with everything so far saved.

    The local executor starts worker processes with the ``spawn`` method, so a script that calls
    ``run`` must do so under ``if __name__ == "__main__":``.
    """
    started = time.perf_counter()
    agent = get_agent(config.agent, config.options)
    executor = get_executor(config.executor, config.workers, config.ray_address)
    task_ids = (
        list(config.task_ids)
        if config.task_ids is not None
        else select_task_ids(config.suite, config.tasks)
    )
    store = ResultsStore(config.out)
    previous = _check_run_dir(store, config, agent.name)
    sink = progress or NullProgress()
    sink.note(f"preparing {len(task_ids)} tasks (snapshots are built on first use)")
    tasks = load_tasks(task_ids)
    isolation = required_isolation(tasks)
    if config.resume:
        store.repair()
    by_id = {t.id: t for t in tasks}
    planned = plan_episodes(tasks, agent, config.attempts)
    done_keys = store.read().keys
    todo = remaining(planned, done_keys)
    already = len(planned) - len(todo)
    if config.max_episodes is not None:
        todo = todo[: config.max_episodes]
    _write_run_json(store, config, agent.name, task_ids, len(planned), previous, isolation)

    counts = {"ran": 0, "passed": 0, "errors": 0}

    def on_result(record: EpisodeRecord, trajectory: dict[str, Any]) -> None:
        store.append(record, trajectory)
        counts["ran"] += 1
        counts["passed"] += int(record.passed)
        counts["errors"] += int(bool(record.error))
        sink.advance(record)

    def on_failure(spec: EpisodeSpec, exc: BaseException) -> None:
        record = _failure_record(spec, by_id[spec.task_id], exc)
        on_result(record, _failure_trajectory(record))

    sink.start(len(todo), already)
    try:
        executor.run(todo, config.options, on_result, on_failure)
    finally:
        sink.stop()
        agent.close()
    summary, summary_error = None, None
    try:
        summary = write_summary_if_available(config.out)
    except Exception as exc:  # a report bug must not fail a finished run
        summary_error = f"{type(exc).__name__}: {exc}"
    return RunOutcome(
        run_dir=config.out,
        planned=len(planned),
        already_done=already,
        ran=counts["ran"],
        passed=counts["passed"],
        errors=counts["errors"],
        wall_s=time.perf_counter() - started,
        summary=summary,
        summary_error=summary_error,
    )


__all__ = [
    "DEFAULT_SUITE",
    "RunConfig",
    "RunDirError",
    "RunOutcome",
    "read_results",
    "run",
    "write_summary_if_available",
]
