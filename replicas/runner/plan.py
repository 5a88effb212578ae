"""Planning a run: which tasks, and which episodes (task × attempt × agent strategy).

Planning builds every selected task in the calling process before any worker starts: the
snapshots and the task cache are then warm, so workers never race to build the same snapshot.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from replicas.agents import Agent
from replicas.records import EpisodeKey
from replicas.runner.records import EpisodeSpec
from replicas.suite import get_suite
from replicas.tasks import task_from_id

if TYPE_CHECKING:
    from replicas.tasks import Task


def select_task_ids(suite: str, pattern: str | None = None) -> list[str]:
    """Ids of ``suite`` matching the glob ``pattern`` (all when None); ValueError when the suite
    is unknown or nothing matches. Several globs may be given separated by commas."""

    ids = list(get_suite(suite).task_ids)
    if not pattern:
        return ids
    patterns = [p.strip() for p in pattern.split(",") if p.strip()]
    chosen = [i for i in ids if any(fnmatch.fnmatchcase(i, p) for p in patterns)]
    if not chosen:
        families = sorted({i.rsplit(".s", 1)[0] for i in ids})
        raise ValueError(
            f"no task of suite {suite!r} matches {pattern!r}; ids look like "
            f"'{ids[0] if ids else '<family>.s<seed>.<variant>'}'; families: {', '.join(families[:8])}"
            + (" …" if len(families) > 8 else "")
        )
    return chosen


def load_tasks(task_ids: Iterable[str]) -> list[Task]:
    """Build (or fetch from the cache) every task; ValueError on a bad id."""

    return [task_from_id(task_id) for task_id in task_ids]


def plan_episodes(tasks: Sequence[Task], agent: Agent, attempts: int) -> list[EpisodeSpec]:
    """Every episode of the run, in a stable order (task, attempt, strategy)."""
    if not isinstance(attempts, int) or attempts < 1:
        raise ValueError(f"attempts must be an int >= 1, got {attempts!r}")
    return [
        EpisodeSpec(task.id, agent.name, attempt, strategy)
        for task in tasks
        for attempt in range(attempts)
        for strategy in agent.plan(task)
    ]


def remaining(specs: Sequence[EpisodeSpec], done: set[EpisodeKey]) -> list[EpisodeSpec]:
    """The planned episodes not yet recorded."""
    return [s for s in specs if s.key not in done]
