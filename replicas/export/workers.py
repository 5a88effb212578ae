"""Playing an export's episodes in parallel worker processes, with results in plan order.

Two jobs fan out: oracle demonstrations (one per task id) and the re-grade plays that no earlier
play answers (run-directory records: their calls were never played in this process). Each job is
independent, so ``workers`` spawn-context processes play them while the parent waits; the
parent then consumes the results in the order a sequential export would have produced them —
conversations, skip reasons and examples land in the same order, so the dataset is byte-identical
whatever ``workers`` is. Solved plays come back to the parent's :class:`EpisodeCache` (and go to
its directory from the worker), so the re-grade of a demonstration never plays it again.

``workers <= 1`` runs the same job function in this process, one task at a time.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from replicas.export.conversation import Conversation, ToolTurn, _plain
from replicas.export.episodes import (
    EpisodeCache,
    code_fingerprint,
    episode_key,
    replay_from_dict,
    replay_to_dict,
    set_code_fingerprint,
)
from replicas.export.skips import SkipLog

Progress = Callable[[str], None]
T = TypeVar("T")

#: Events a job recorded into its skip log: (reason, example, n), replayed in plan order.
SkipEvent = tuple[str, str, int]


class RecordingSkips(SkipLog):
    """A :class:`SkipLog` that also remembers every ``add`` so the parent can replay them."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[SkipEvent] = []

    def add(self, reason: str, example: str = "", n: int = 1) -> None:
        self.events.append((reason, example, n))
        super().add(reason, example, n)


def replay_events(events: Sequence[SkipEvent], skips: SkipLog) -> None:
    for reason, example, n in events:
        skips.add(reason, example, n)


@dataclass(frozen=True)
class JobResult:
    """What one job sends back: its product, its skip events, the solved plays it made."""

    value: Any
    events: tuple[SkipEvent, ...]
    plays: tuple[tuple[str, dict[str, Any]], ...]


def to_wire(conv: Conversation) -> dict[str, Any]:
    """``conv`` as plain picklable data (its mappings are read-only proxies)."""
    fields = {name: getattr(conv, name) for name in Conversation.__dataclass_fields__}
    fields["tools"] = [_plain(t) for t in conv.tools]
    fields["turns"] = [t.to_dict() for t in conv.turns]
    fields["extra"] = _plain(conv.extra)
    return fields


def from_wire(data: Mapping[str, Any]) -> Conversation:
    fields = dict(data)
    fields["tools"] = tuple(fields["tools"])
    fields["turns"] = tuple(ToolTurn(**t) for t in fields["turns"])
    return Conversation(**fields)


# ---- the worker side -------------------------------------------------------------------------

_WORKER_CACHE: EpisodeCache | None = None


def _init_worker(environment: Mapping[str, str], cache_dir: str | None, code: str) -> None:
    """Pool initializer: the parent owns Ctrl-C; share its cache directories and its code
    fingerprint (the same sources: the worker imports them from the same place)."""
    import os

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.update(environment)
    set_code_fingerprint(code)
    global _WORKER_CACHE
    _WORKER_CACHE = EpisodeCache(Path(cache_dir) if cache_dir else None)


class _TrackingCache(EpisodeCache):
    """The worker's cache for one job: remembers the solved plays the job made."""

    def __init__(self, base: EpisodeCache) -> None:
        super().__init__(base.directory)
        self._base = base
        self.made: list[tuple[str, dict[str, Any]]] = []

    def get(self, key: str) -> Any:
        return self._base.get(key)

    def put(self, key: str, result: Any, *, persist: bool = True) -> None:
        self._base.put(key, result, persist=persist)
        if result.solved:
            self.made.append((key, replay_to_dict(result)))


def demonstration_job(task_id: str, system: str, cache: EpisodeCache | None = None) -> JobResult:
    """Build ``task_id`` and demonstrate it (``sources.demonstrate``), recording skips."""
    from replicas.export.sources import demonstrate
    from replicas.tasks import TaskBuildError, build_task

    tracking = _TrackingCache(cache or _WORKER_CACHE or EpisodeCache())
    skips = RecordingSkips()
    conversation: Conversation | None = None
    try:
        task = build_task(task_id)
    except (TaskBuildError, ValueError) as exc:
        skips.add("task_build_failed", f"{task_id}: {exc}")
    else:
        conversation = demonstrate(task, system, skips, episodes=tracking)
    value = None if conversation is None else to_wire(conversation)
    return JobResult(value, tuple(skips.events), tuple(tracking.made))


def cached_demonstration(task_id: str, system: str, cache: EpisodeCache) -> JobResult | None:
    """The demonstration of ``task_id`` made here when its play is already cached, else None
    (a task that does not build is left to the job, which reports it)."""
    from replicas.tasks import TaskBuildError, build_task

    try:
        task = build_task(task_id)
        key = episode_key(task, [(c.name, dict(c.arguments)) for c in task.oracle])
    except (TaskBuildError, ValueError, OSError):
        return None
    if cache.get(key) is None:
        return None
    return demonstration_job(task_id, system, cache)


def demonstrations(
    task_ids: Sequence[str],
    system: str,
    cache: EpisodeCache,
    workers: int,
    progress: Progress | None = None,
) -> Iterator[JobResult]:
    """:func:`demonstration_job` of every task, in order. With workers, the tasks whose play is
    cached are answered in this process first and only the others go to the pool (a warm export
    starts no process at all: a worker's start — imports, fingerprints — costs more than
    reading a cached play)."""
    jobs = [(tid, demonstration_job, (tid, system)) for tid in task_ids]
    if workers <= 1:
        yield from run_jobs(jobs, workers, cache, progress)
        return
    answered: list[JobResult | None] = []
    for tid in task_ids:
        answered.append(cached_demonstration(tid, system, cache))
        if answered[-1] is not None and progress is not None:
            progress(tid)
    rest = run_jobs(
        [job for job, done in zip(jobs, answered, strict=True) if done is None],
        workers,
        cache,
        progress,
    )
    for done in answered:
        yield done if done is not None else next(rest)


def replay_job(
    task_id: str, calls: list[tuple[str, dict[str, Any]]], cache: EpisodeCache | None = None
) -> JobResult:
    """Play ``calls`` on ``task_id`` unless an identical solved play is cached; never raises
    (a play that fails is played again, and reported, by the sequential re-grade)."""
    from replicas.tasks import task_from_id

    tracking = _TrackingCache(cache or _WORKER_CACHE or EpisodeCache())
    with contextlib.suppress(Exception):
        tracking.replay(task_from_id(task_id), calls, agent_name="export-regrade")
    return JobResult(None, (), tuple(tracking.made))


# ---- the parent side -------------------------------------------------------------------------


def _absorb(cache: EpisodeCache, result: JobResult) -> None:
    for key, data in result.plays:
        cache.put(key, replay_from_dict(data), persist=False)  # the worker wrote the file


def run_jobs(
    jobs: Sequence[tuple[str, Callable[..., JobResult], tuple[Any, ...]]],
    workers: int,
    cache: EpisodeCache,
    progress: Progress | None = None,
) -> Iterator[JobResult]:
    """Run ``(label, function, args)`` jobs; yield their results in ``jobs`` order.

    In-process when ``workers <= 1`` (the function gets ``cache`` as its last argument);
    otherwise in a spawn-context pool of ``workers`` processes sharing ``cache.directory``.
    """
    if workers <= 1 or len(jobs) <= 1:
        for label, function, args in jobs:
            if progress is not None:
                progress(label)
            result = function(*args, cache)
            yield result
        return
    yield from _pooled(jobs, workers, cache, progress)


def _pooled(
    jobs: Sequence[tuple[str, Callable[..., JobResult], tuple[Any, ...]]],
    workers: int,
    cache: EpisodeCache,
    progress: Progress | None,
) -> Iterator[JobResult]:
    from replicas.runner.executors import shared_environment, stop_pool

    pool = ProcessPoolExecutor(
        max_workers=min(workers, len(jobs)),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_init_worker,
        initargs=(
            shared_environment(),
            str(cache.directory) if cache.directory else None,
            code_fingerprint(),
        ),
    )
    futures: dict[int, Future[JobResult]] = {}
    done: dict[int, JobResult] = {}
    window = 4 * workers
    queued = 0
    emitted = 0
    try:
        while emitted < len(jobs):
            while queued < len(jobs) and queued - emitted < window:
                _label, function, args = jobs[queued]
                futures[queued] = pool.submit(function, *args)
                queued += 1
            finished, _ = wait(
                [f for i, f in futures.items() if i not in done], return_when=FIRST_COMPLETED
            )
            for index, future in list(futures.items()):
                if future in finished:
                    done[index] = future.result()
                    _absorb(cache, done[index])
                    if progress is not None:
                        progress(jobs[index][0])
            while emitted in done:
                futures.pop(emitted)
                yield done.pop(emitted)
                emitted += 1
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def prewarm_regrades(
    conversations: Sequence[Conversation],
    workers: int,
    cache: EpisodeCache,
    progress: Progress | None = None,
) -> None:
    """Play, in parallel, the re-grade of every conversation no cached play answers yet.

    The calls are the conversation's own: a record whose parsed-back calls differ fails its
    re-grade before playing anything, so these are the only plays the re-grade can ask for.
    """
    from replicas.tasks import task_from_id

    if workers <= 1:
        return  # the sequential re-grade plays them in order anyway
    jobs: list[tuple[str, Callable[..., JobResult], tuple[Any, ...]]] = []
    seen: set[str] = set()
    for conv in conversations:
        calls = [(t.name, dict(t.arguments)) for t in conv.turns]
        try:
            key = episode_key(task_from_id(conv.task_id), calls)
        except Exception:  # the re-grade reports it
            continue
        if key in seen or cache.get(key) is not None:
            continue
        seen.add(key)
        jobs.append((conv.task_id, replay_job, (conv.task_id, calls)))
    for _ in run_jobs(jobs, workers, cache, progress):
        pass


__all__ = [
    "JobResult",
    "RecordingSkips",
    "cached_demonstration",
    "demonstration_job",
    "demonstrations",
    "prewarm_regrades",
    "replay_events",
    "replay_job",
    "run_jobs",
]
