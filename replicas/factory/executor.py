"""Where the factory's validations run: local worker processes or Ray tasks.

:func:`map_jobs` calls one function on every job (a seed's validations, in ``replicas factory``)
and returns the results in job order, whatever order they finish in, so both executors give the
same report. ``local`` runs the jobs in this process (one worker, or one job) or on a process
pool; ``ray`` submits each job as a Ray task, on a local ``ray.init()`` with ``workers`` CPUs or
on the cluster at ``ray_address``. Both are the seed farm's loops
(:func:`replicas.build.jobs.run_jobs`): an interrupt stops the workers, and Ray workers get this
process's ``REPLICAS_HOME``, so they read and fill the same caches.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from replicas.build.jobs import EXECUTORS, check_executor, run_jobs

__all__ = ["EXECUTORS", "check_executor", "map_jobs"]

T = TypeVar("T")


def map_jobs(
    fn: Callable[..., T],
    jobs: Sequence[tuple[Any, ...]],
    *,
    workers: int,
    executor: str = "local",
    ray_address: str | None = None,
) -> list[T]:
    """``[fn(*job) for job in jobs]``, computed by ``executor`` with ``workers`` in parallel."""
    check_executor(executor, ray_address)
    if executor == "local" and (workers == 1 or len(jobs) <= 1):
        return [fn(*job) for job in jobs]
    results: dict[int, T] = {}

    def keep(index: int, result: T) -> None:
        results[index] = result

    # fork, as the pool always did here: workers inherit replicas registered in this process
    run_jobs(
        fn,
        jobs,
        keep,
        workers=workers,
        executor=executor,
        ray_address=ray_address,
        mp_context="fork",
    )
    return [results[i] for i in range(len(jobs))]
