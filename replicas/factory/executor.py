"""Where the factory's validations run: local worker processes or Ray tasks.

:func:`map_jobs` calls one function on every job (a seed's validations, in ``replicas factory``)
and returns the results in job order, whatever order they finish in, so both executors give the
same report. ``local`` runs the jobs in this process (one worker, or one job) or on a process
pool; ``ray`` submits each job as a Ray task, on a local ``ray.init()`` with ``workers`` CPUs or
on the cluster at ``ray_address`` (the pattern of the seed farm, ``replicas.build.farm``). Ray
workers get this process's ``REPLICAS_HOME``, so they read and fill the same caches.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from replicas.paths import replicas_home

__all__ = ["EXECUTORS", "check_executor", "map_jobs"]

EXECUTORS = ("local", "ray")

T = TypeVar("T")


def check_executor(executor: str, ray_address: str | None) -> None:
    """ValueError for an unknown executor or an address given to the local one."""
    if executor not in EXECUTORS:
        raise ValueError(f"unknown executor {executor!r}; choose one of {', '.join(EXECUTORS)}")
    if ray_address and executor != "ray":
        raise ValueError("--ray-address only applies to --executor ray")


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
    if not jobs:
        return []
    if executor == "ray":
        return _map_ray(fn, jobs, workers, ray_address)
    if workers == 1 or len(jobs) == 1:
        return [fn(*job) for job in jobs]
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
        return list(pool.map(fn, *zip(*jobs, strict=True)))


def _runtime_env() -> dict[str, Any]:
    env = {"REPLICAS_HOME": str(replicas_home().resolve())}
    # Ray workers do not start in the caller's directory; let them import what it can.
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in [os.getcwd(), os.environ.get("PYTHONPATH", "")] if p
    )
    return {"env_vars": env}


def _map_ray(
    fn: Callable[..., T], jobs: Sequence[tuple[Any, ...]], workers: int, address: str | None
) -> list[T]:
    try:
        import ray  # optional extra: only this executor needs it
    except ImportError:
        raise RuntimeError("the ray executor needs Ray: pip install 'replica-kit[ray]'") from None
    started_here = False
    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, runtime_env=_runtime_env(), log_to_driver=False)
            else:
                ray.init(
                    num_cpus=max(1, workers),
                    include_dashboard=False,
                    log_to_driver=False,
                    runtime_env=_runtime_env(),
                )
        except Exception as exc:
            raise RuntimeError(f"cannot start or join Ray ({address or 'local'}): {exc}") from None
        started_here = True
    remote = ray.remote(num_cpus=1, max_retries=0)(fn)
    refs: list[Any] = []
    try:
        refs = [remote.remote(*job) for job in jobs]
        return [ray.get(ref) for ref in refs]
    except BaseException:
        for ref in refs:
            with contextlib.suppress(Exception):  # already finished or gone
                ray.cancel(ref, force=True)
        raise
    finally:
        if started_here:
            ray.shutdown()
