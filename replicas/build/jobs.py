"""One function over many jobs, on worker processes or as Ray tasks, results reported as they come.

The seed farm (:mod:`replicas.build.farm`, which reports each seed as it finishes) and the
factory (:mod:`replicas.factory.executor`, which wants its results in job order) share this loop
so that stopping, cancelling and joining Ray are written once.

``local`` runs a process pool (``spawn`` by default: the caller may hold DuckDB connections and
threads that a fork would copy) with at most ``2 × workers`` jobs queued, so an interrupt has
little to cancel. ``ray`` submits every job as a Ray task (``num_cpus=1``, no retries) on a local
``ray.init()`` with ``workers`` CPUs, or on the cluster at ``ray_address``; a Ray already
initialised in this process is used as it is. Workers get ``env`` (the cache root, at least).

Interrupts: the parent owns Ctrl-C. Pool workers ignore SIGINT; when the caller is interrupted
(``KeyboardInterrupt``, which ``sigterm_as_interrupt`` also makes of SIGTERM) the pool is
stopped: queued jobs are cancelled and every worker gets SIGTERM, which inside a job unwinds it
like Ctrl-C (its ``finally`` blocks remove temporary files) and then ends the process; an idle
worker just ends. Ray tasks are cancelled with ``force=True``.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

from replicas.paths import replicas_home

__all__ = ["EXECUTORS", "check_executor", "run_jobs", "shared_environment", "stop_pool"]

EXECUTORS = ("local", "ray")
#: Exit status of a pool worker stopped in a job (128 + SIGTERM, as a default SIGTERM gives).
_STOPPED = 128 + signal.SIGTERM

T = TypeVar("T")


def check_executor(executor: str, ray_address: str | None) -> None:
    """ValueError for an unknown executor or an address given to the local one."""
    if executor not in EXECUTORS:
        raise ValueError(f"unknown executor {executor!r}; choose one of {', '.join(EXECUTORS)}")
    if ray_address and executor != "ray":
        raise ValueError("--ray-address only applies to --executor ray")


def shared_environment() -> dict[str, str]:
    """What workers must share with the caller: the cache root, resolved (Ray workers start
    elsewhere)."""
    return {"REPLICAS_HOME": str(replicas_home().resolve())}


def run_jobs(
    fn: Callable[..., T],
    jobs: Sequence[tuple[Any, ...]],
    on_outcome: Callable[[int, T], None],
    *,
    workers: int,
    executor: str = "local",
    ray_address: str | None = None,
    env: Mapping[str, str] | None = None,
    mp_context: str = "spawn",
) -> None:
    """Call ``fn(*jobs[i])`` for every job; ``on_outcome(i, result)`` in this process as each
    finishes (completion order). An exception from a job, or an interrupt, stops the others and
    propagates."""
    check_executor(executor, ray_address)
    if not jobs:
        return
    environment = shared_environment() if env is None else dict(env)
    if executor == "ray":
        _run_ray(fn, jobs, on_outcome, workers, ray_address, environment)
    else:
        _run_local(fn, jobs, on_outcome, workers, environment, mp_context)


# --------------------------------------------------------------------------------------------
# local process pool


def _init_worker(env: Mapping[str, str]) -> None:
    """Pool initializer: share the caller's cache; leave Ctrl-C to the parent (it stops us)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.environ.update(env)


class _Stopped(KeyboardInterrupt):
    """SIGTERM arrived while a job ran: unwind the job like Ctrl-C."""


def _stop_job(signum: int, frame: object) -> None:
    raise _Stopped


def _call(fn: Callable[..., T], *args: Any) -> T:
    """Run one job so that SIGTERM unwinds it (cleaning up) and then ends this worker."""
    signal.signal(signal.SIGTERM, _stop_job)
    try:
        return fn(*args)
    except _Stopped:
        # The parent is stopping the pool: the job's finally blocks have run; no result is
        # wanted, and an exit now leaves the pool no idle worker to wait for.
        os._exit(_STOPPED)
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


#: Seconds a stopped worker gets to unwind its job before it is killed. A signal handler runs
#: only between bytecodes, so a worker inside one long DuckDB query hears SIGTERM late.
_UNWIND_S = 20.0


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel queued work and end the workers now: SIGTERM (see the module's docstring), then
    SIGKILL for any still running after :data:`_UNWIND_S` seconds."""
    processes = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + _UNWIND_S
    for process in processes:
        process.join(timeout=max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            process.kill()
            process.join(timeout=5)


def _run_local(
    fn: Callable[..., T],
    jobs: Sequence[tuple[Any, ...]],
    on_outcome: Callable[[int, T], None],
    workers: int,
    env: Mapping[str, str],
    mp_context: str,
) -> None:
    pool = ProcessPoolExecutor(
        max_workers=max(1, min(workers, len(jobs))),
        mp_context=multiprocessing.get_context(mp_context),
        initializer=_init_worker,
        initargs=(dict(env),),
    )
    pending: dict[Future[T], int] = {}
    queue = list(reversed(range(len(jobs))))
    window = 2 * max(1, workers)
    try:
        while queue or pending:
            while queue and len(pending) < window:
                index = queue.pop()
                pending[pool.submit(_call, fn, *jobs[index])] = index
            done, _ = wait(set(pending), return_when=FIRST_COMPLETED)
            for future in done:
                index = pending.pop(future)
                on_outcome(index, future.result())
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown(wait=True)


# --------------------------------------------------------------------------------------------
# Ray


def _run_ray(
    fn: Callable[..., T],
    jobs: Sequence[tuple[Any, ...]],
    on_outcome: Callable[[int, T], None],
    workers: int,
    address: str | None,
    env: Mapping[str, str],
) -> None:
    try:
        import ray  # optional extra: only this executor needs it
    except ImportError:
        raise RuntimeError("the ray executor needs Ray: pip install 'replica-kit[ray]'") from None
    started_here = False
    if not ray.is_initialized():
        env_vars = dict(env)
        # Ray workers do not start in the caller's directory; let them import what it can.
        env_vars["PYTHONPATH"] = os.pathsep.join(
            p for p in [os.getcwd(), os.environ.get("PYTHONPATH", "")] if p
        )
        runtime_env = {"env_vars": env_vars}
        try:
            if address:
                ray.init(address=address, runtime_env=runtime_env, log_to_driver=False)
            else:
                ray.init(
                    num_cpus=max(1, workers),
                    include_dashboard=False,
                    log_to_driver=False,
                    runtime_env=runtime_env,
                )
        except Exception as exc:
            raise RuntimeError(f"cannot start or join Ray ({address or 'local'}): {exc}") from None
        started_here = True
    remote = ray.remote(num_cpus=1, max_retries=0)(fn)
    refs: list[Any] = []
    try:
        index_of = {remote.remote(*job): i for i, job in enumerate(jobs)}
        refs = list(index_of)
        while refs:
            done, refs = ray.wait(refs, num_returns=1)
            for ref in done:
                on_outcome(index_of[ref], ray.get(ref))
    except BaseException:
        for ref in refs:
            with contextlib.suppress(Exception):  # already finished or gone
                ray.cancel(ref, force=True)
        raise
    finally:
        if started_here:
            ray.shutdown()
