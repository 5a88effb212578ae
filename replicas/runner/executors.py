"""Executors: where episodes run. ``local`` (a process pool) and ``ray`` (Ray tasks).

Both take the same planned episodes and call ``on_result(record, trajectory)`` in the calling
process as each episode finishes, so the results store stays the single writer and a Ray run
produces the same records as a local one (wall times aside). Completion order is not plan order.

Ctrl-C: the caller gets ``KeyboardInterrupt`` after the executor has stopped its workers; every
episode reported before that is on disk, so ``--resume`` finishes the run.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Protocol

from replicas.agents import AgentOptions
from replicas.osbox import UNSAFE_ENV
from replicas.records import EpisodeRecord
from replicas.runner.episode import init_worker, play_episode
from replicas.runner.records import EpisodeSpec

OnResult = Callable[[EpisodeRecord, dict[str, Any]], None]
#: Called when an episode could not even be set up (the worker raised); the runner records it
#: as an error episode so the run goes on.
OnFailure = Callable[[EpisodeSpec, BaseException], None]

#: Environment variables workers must share with the parent (the build/task cache).
SHARED_ENV = ("REPLICAS_HOME", "REPLICAS_PRICES", UNSAFE_ENV)


class ExecutorError(RuntimeError):
    """The executor itself failed (a worker process died, Ray is missing or unreachable)."""


def shared_environment() -> dict[str, str]:
    return {k: os.environ[k] for k in SHARED_ENV if k in os.environ}


class Executor(Protocol):
    name: str

    def run(
        self,
        specs: Sequence[EpisodeSpec],
        options: AgentOptions,
        on_result: OnResult,
        on_failure: OnFailure,
    ) -> None: ...


@dataclass
class InlineExecutor:
    """Runs episodes one by one in this process (``--workers 0``: debugging, profiling)."""

    name: str = "inline"

    def run(
        self,
        specs: Sequence[EpisodeSpec],
        options: AgentOptions,
        on_result: OnResult,
        on_failure: OnFailure,
    ) -> None:
        for spec in specs:
            try:
                record, trajectory = play_episode(spec, options)
            except Exception as exc:
                on_failure(spec, exc)
                continue
            on_result(record, trajectory)


@dataclass
class LocalExecutor:
    """A spawn-context process pool; workers live for the whole run and reuse their caches.

    At most ``2 × workers`` episodes are queued at once, so Ctrl-C has little to cancel and a
    long run does not pickle every spec up front.
    """

    workers: int = 1
    name: str = "local"

    def run(
        self,
        specs: Sequence[EpisodeSpec],
        options: AgentOptions,
        on_result: OnResult,
        on_failure: OnFailure,
    ) -> None:
        if not specs:
            return
        pool = ProcessPoolExecutor(
            max_workers=max(1, min(self.workers, len(specs))),
            mp_context=multiprocessing.get_context("spawn"),
            initializer=init_worker,
            initargs=(shared_environment(),),
        )
        pending: dict[Future[tuple[EpisodeRecord, dict[str, Any]]], EpisodeSpec] = {}
        queue = list(reversed(specs))
        window = 2 * max(1, self.workers)
        try:
            while queue or pending:
                while queue and len(pending) < window:
                    spec = queue.pop()
                    pending[pool.submit(play_episode, spec, options)] = spec
                done, _ = wait(set(pending), return_when=FIRST_COMPLETED)
                for future in done:
                    spec = pending.pop(future)
                    try:
                        record, trajectory = future.result()
                    except BrokenProcessPool:
                        raise
                    except Exception as exc:
                        on_failure(spec, exc)
                        continue
                    on_result(record, trajectory)
        except BrokenProcessPool as exc:
            stop_pool(pool)
            raise ExecutorError(
                f"a worker process died ({exc}); finished episodes are saved, rerun with --resume"
            ) from None
        except BaseException:
            stop_pool(pool)
            raise
        pool.shutdown(wait=True)


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel queued work and end the workers now (they ignore SIGINT; the parent decides)."""
    processes = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)


@dataclass
class RayExecutor:
    """Each episode is a Ray task (``num_cpus=1``). Joins ``address`` when given, otherwise
    starts a local Ray instance with ``workers`` CPUs (and shuts it down afterwards). A Ray
    instance already initialised in this process is reused as it is.

    Cluster nodes need replica-kit installed and the same ``REPLICAS_HOME`` contents (snapshots
    are built on first use on each node otherwise).
    """

    workers: int = 1
    address: str | None = None
    name: str = "ray"

    def run(
        self,
        specs: Sequence[EpisodeSpec],
        options: AgentOptions,
        on_result: OnResult,
        on_failure: OnFailure,
    ) -> None:
        try:
            import ray
        except ImportError:
            raise ExecutorError(
                "the ray executor needs Ray: pip install 'replica-kit[ray]'"
            ) from None
        if not specs:
            return
        started_here = False
        if not ray.is_initialized():
            runtime_env = {"env_vars": shared_environment()}
            try:
                if self.address:
                    ray.init(address=self.address, runtime_env=runtime_env, log_to_driver=False)
                else:
                    ray.init(
                        num_cpus=max(1, self.workers),
                        include_dashboard=False,
                        runtime_env=runtime_env,
                        log_to_driver=False,
                    )
            except Exception as exc:
                raise ExecutorError(
                    f"cannot start or join Ray ({self.address or 'local'}): {exc}"
                ) from None
            started_here = True
        remote = ray.remote(num_cpus=1, max_retries=0)(play_episode)
        refs: list[Any] = []
        try:
            by_ref = {remote.remote(spec, options): spec for spec in specs}
            refs = list(by_ref)
            while refs:
                done, refs = ray.wait(refs, num_returns=1)
                for ref in done:
                    try:
                        record, trajectory = ray.get(ref)
                    except ray.exceptions.WorkerCrashedError as exc:
                        raise ExecutorError(
                            f"a Ray worker died ({exc}); finished episodes are saved, "
                            "rerun with --resume"
                        ) from None
                    except ray.exceptions.RayTaskError as exc:
                        on_failure(by_ref[ref], exc)
                        continue
                    on_result(record, trajectory)
        except BaseException:
            for ref in refs:
                with contextlib.suppress(Exception):  # already finished or gone
                    ray.cancel(ref, force=True)
            raise
        finally:
            if started_here:
                ray.shutdown()


EXECUTORS: dict[str, Callable[[int, str | None], Executor]] = {
    "local": lambda workers, address: (
        InlineExecutor() if workers == 0 else LocalExecutor(workers=workers)
    ),
    "ray": lambda workers, address: RayExecutor(workers=max(1, workers), address=address),
}


def get_executor(name: str, workers: int, address: str | None = None) -> Executor:
    """The executor ``name`` (``local`` or ``ray``); ValueError otherwise."""
    if name not in EXECUTORS:
        raise ValueError(f"unknown executor {name!r}; choose one of {sorted(EXECUTORS)}")
    if not isinstance(workers, int) or workers < 0:
        raise ValueError(f"workers must be an int >= 0, got {workers!r}")
    if address and name != "ray":
        raise ValueError("--ray-address only applies to --executor ray")
    return EXECUTORS[name](workers, address)
