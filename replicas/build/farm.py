"""Seed farms: build many seeds of one replica in parallel, resumably.

:func:`build_many` runs :func:`~replicas.build.ensure_snapshot` for every seed on a process pool
(``executor="local"``) or as Ray tasks (``executor="ray"``, a local ``ray.init()`` or a cluster
address). Both run the very same function, so they produce the same snapshots; a seed whose
snapshot is already cached and intact is skipped (that is what makes a farm resumable), a seed that
fails is reported and the farm goes on. The first seed of a code fingerprint is built by dbt (it
compiles the project); the other workers wait for it, then replay. The pool and Ray loops are
:func:`replicas.build.jobs.run_jobs` (an interrupt stops the workers; a stopped build leaves no
temporary directory).
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable, Iterable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from typing import Any

from replicas.build.jobs import EXECUTORS, run_jobs
from replicas.build.pipeline import ENGINES, ensure_snapshot, is_cached
from replicas.build.snapshot import MANIFEST, BuildError, BuildKey, build_info
from replicas.replica import ReplicaSpec, get_replica, register_replica

__all__ = [
    "EXECUTORS",
    "FarmReport",
    "SeedOutcome",
    "build_many",
    "parse_seeds",
    "rich_farm_progress",
]

STATUSES = ("built", "cached", "failed")
#: Seeds in a farm at most (a typo like 1-5000000 should not queue for days).
MAX_SEEDS = 1_000_000

Progress = Callable[["SeedOutcome", int, int], None]


@dataclass(frozen=True)
class SeedOutcome:
    """One seed of a farm: built now, served from the cache, or failed (with the error)."""

    seed: int
    slug: str
    status: str
    seconds: float
    engine: str | None = None
    fallback_reason: str | None = None
    error: str | None = None
    manifest_sha256: str | None = None

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {self.status!r}")
        if (self.status == "failed") != (self.error is not None):
            raise ValueError("a failed seed carries an error, and only a failed seed does")


@dataclass(frozen=True)
class FarmReport:
    """Every seed's outcome (in seed order) and the farm's throughput."""

    replica: str
    scale: float
    engine: str
    executor: str
    workers: int
    wall_s: float
    outcomes: tuple[SeedOutcome, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        object.__setattr__(self, "outcomes", tuple(sorted(self.outcomes, key=lambda o: o.seed)))

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def built(self) -> int:
        return self.count("built")

    @property
    def cached(self) -> int:
        return self.count("cached")

    @property
    def failed(self) -> int:
        return self.count("failed")

    @property
    def ok(self) -> bool:
        return self.failed == 0

    @property
    def seeds_per_min(self) -> float:
        """Seeds built (not served from the cache) per minute of farm wall time."""
        return 60.0 * self.built / self.wall_s if self.wall_s > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        engines: dict[str, int] = {}
        for o in self.outcomes:
            if o.status == "built" and o.engine:
                engines[o.engine] = engines.get(o.engine, 0) + 1
        return {
            "schema_version": 1,
            "replica": self.replica,
            "scale": self.scale,
            "engine": self.engine,
            "executor": self.executor,
            "workers": self.workers,
            "seeds": len(self.outcomes),
            "built": self.built,
            "cached": self.cached,
            "failed": self.failed,
            "built_by_engine": engines,
            "wall_s": round(self.wall_s, 3),
            "seeds_per_min": round(self.seeds_per_min, 2),
            "outcomes": [asdict(o) for o in self.outcomes],
        }


_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


def parse_seeds(text: str) -> list[int]:
    """``"1-500"``, ``"7"``, ``"1-3,10,20-22"`` → the seeds in order, without duplicates."""
    seeds: dict[int, None] = {}
    for part in str(text).split(","):
        match = _RANGE.match(part)
        if not match:
            raise ValueError(f"bad seed list {text!r}: use e.g. 1-500 or 1,5,9-12")
        first = int(match.group(1))
        last = int(match.group(2)) if match.group(2) is not None else first
        if last < first:
            raise ValueError(f"bad seed range {part.strip()!r}: the end is before the start")
        if last - first + 1 + len(seeds) > MAX_SEEDS:
            raise ValueError(f"at most {MAX_SEEDS:,} seeds per farm")
        seeds.update(dict.fromkeys(range(first, last + 1)))
    return list(seeds)


def _ensure_registered(spec: ReplicaSpec) -> None:
    """Workers start with only the shipped replicas registered; bring the caller's spec along."""
    try:
        known = get_replica(spec.name)
    except ValueError:
        register_replica(spec)
        return
    if known != spec:
        register_replica(spec, replace=True)


def farm_build_one(
    spec: ReplicaSpec, seed: int, scale: float, engine: str, force: bool
) -> SeedOutcome:
    """Build (or find cached) one seed; never raises for a failed build (the farm goes on)."""
    _ensure_registered(spec)
    t0 = time.perf_counter()
    slug = BuildKey(spec.name, seed, scale).slug
    try:
        cached = not force and is_cached(spec.name, seed, scale)
        snapshot = ensure_snapshot(spec.name, seed, scale, force=force, engine=engine)
    except BuildError as exc:
        return SeedOutcome(seed, slug, "failed", time.perf_counter() - t0, error=str(exc))
    except Exception as exc:  # a bug in one seed must not lose the others' results
        error = f"{type(exc).__name__}: {exc}"
        return SeedOutcome(seed, slug, "failed", time.perf_counter() - t0, error=error)
    info = build_info(snapshot)
    digest = hashlib.sha256((snapshot.path / MANIFEST).read_bytes()).hexdigest()
    return SeedOutcome(
        seed=seed,
        slug=slug,
        status="cached" if cached else "built",
        seconds=time.perf_counter() - t0,
        engine=info.get("engine"),
        fallback_reason=None if cached else info.get("fallback_reason"),
        manifest_sha256=digest,
    )


def build_many(
    replica: str,
    seeds: Iterable[int],
    scale: float | None = None,
    *,
    workers: int = 2,
    executor: str = "local",
    ray_address: str | None = None,
    engine: str = "replay",
    force: bool = False,
    progress: Progress | None = None,
) -> FarmReport:
    """Build every seed of ``replica`` at ``scale``; skip cached ones (unless ``force``).

    ``progress(outcome, done, total)`` is called in this process as each seed finishes.
    Raises ``ValueError`` for bad input before any work starts; a seed that fails to build is a
    ``failed`` outcome in the report, not an exception.
    """
    spec = get_replica(replica)
    if executor not in EXECUTORS:
        raise ValueError(f"unknown executor {executor!r}; choose one of {', '.join(EXECUTORS)}")
    if engine not in ENGINES:
        raise ValueError(f"unknown build engine {engine!r}; choose one of {', '.join(ENGINES)}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    if ray_address and executor != "ray":
        raise ValueError("ray_address only applies to the ray executor")
    scale = spec.default_scale if scale is None else scale
    seed_list = list(dict.fromkeys(seeds))
    keys = [BuildKey(replica, seed, scale) for seed in seed_list]  # validates every seed up front
    scale = keys[0].scale if keys else float(scale)
    jobs = [(spec, key.seed, key.scale, engine, force) for key in keys]
    outcomes: list[SeedOutcome] = []

    def on_outcome(outcome: SeedOutcome) -> None:
        outcomes.append(outcome)
        if progress is not None:
            progress(outcome, len(outcomes), len(jobs))

    t0 = time.perf_counter()
    try:
        run_jobs(
            farm_build_one,
            jobs,
            lambda _index, outcome: on_outcome(outcome),
            workers=workers,
            executor=executor,
            ray_address=ray_address,
        )
    except BrokenProcessPool as exc:
        raise RuntimeError(
            f"a farm worker process died ({exc}); seeds built so far are cached, "
            "run the farm again to resume"
        ) from None
    return FarmReport(
        replica=replica,
        scale=scale,
        engine=engine,
        executor=executor,
        workers=workers,
        wall_s=time.perf_counter() - t0,
        outcomes=tuple(outcomes),
    )


def rich_farm_progress(total: int, *, label: str = "seeds") -> tuple[Progress, Callable[[], None]]:
    """A progress bar (done/total, seeds per minute, failures) on stderr; second item stops it."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
    from rich.progress import Progress as RichProgress

    bar = RichProgress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=False,
    )
    task = bar.add_task(label, total=total, rate="")
    bar.start()
    t0 = time.perf_counter()
    counts = {"built": 0, "cached": 0, "failed": 0}

    def update(outcome: SeedOutcome, done: int, _total: int) -> None:
        counts[outcome.status] += 1
        minutes = max(time.perf_counter() - t0, 1e-9) / 60
        rate = f"{counts['built'] / minutes:.1f} built/min, {counts['cached']} cached"
        if counts["failed"]:
            rate += f", [red]{counts['failed']} failed[/red]"
        bar.update(task, completed=done, rate=rate)

    return update, bar.stop
