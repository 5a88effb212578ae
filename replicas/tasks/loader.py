"""``task_from_id``: id → snapshot → built task, cached in process and on disk.

Building a task runs its ground-truth SQL (and the discrimination check) on the pristine
snapshot. Listing a 100-task suite should not redo that every time, so built tasks are cached
as JSON under ``$REPLICAS_HOME/tasks/`` — never inside a sandbox — keyed by the kit version, the
snapshot's manifest and the family module's source, so a code change invalidates its tasks.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

from replicas._version import __version__
from replicas.tasks._snapshot import SnapshotLike
from replicas.tasks.base import Task, TaskId
from replicas.tasks.family import TaskFamily
from replicas.tasks.registry import get_family

_MEMORY: dict[str, Task] = {}
_LOCK = threading.Lock()
_CACHE_SCHEMA = 1


def replicas_home() -> Path:
    """The kit's cache root (``$REPLICAS_HOME``), shared with the snapshot cache."""
    from replicas.paths import replicas_home as home

    return home()


def _family_fingerprint(family: TaskFamily) -> str:
    """Hash of the family's module file and the private helpers (``_*.py``) beside it.

    Module-level helpers (ground-truth SQL builders, parameter tables) change answers as much as
    the class does, so the whole file — not just the class source — keys the cache.
    """
    digest = hashlib.sha256(type(family).__qualname__.encode())
    try:
        source = inspect.getsourcefile(type(family))
    except TypeError:
        source = None
    if source is None:
        return digest.hexdigest()[:16]
    path = Path(source)
    for file in [path, *sorted(path.parent.glob("_*.py"))]:
        try:
            digest.update(file.name.encode() + b"\0" + file.read_bytes())
        except OSError:
            continue
    return digest.hexdigest()[:16]


def _cache_key(task_id: str, family: TaskFamily, snapshot: SnapshotLike) -> str:
    manifest = json.dumps(snapshot.manifest, sort_keys=True, default=str)
    parts = [str(_CACHE_SCHEMA), __version__, task_id, _family_fingerprint(family), manifest]
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def _cache_path(task_id: str) -> Path:
    return replicas_home() / "tasks" / f"{task_id}.json"


def _read_cached(path: Path, key: str) -> Task | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("key") != key:
        return None
    try:
        return Task.from_dict(data["task"])
    except (KeyError, TypeError, ValueError):
        return None


def _write_cached(path: Path, key: str, task: Task) -> None:
    """Atomic write (temp file + rename); a failed write only costs a rebuild next time."""
    payload: dict[str, Any] = {"schema_version": _CACHE_SCHEMA, "key": key, "task": task.to_dict()}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(payload, fh, sort_keys=True)
        os.replace(tmp, path)
    except OSError:
        return


def load_snapshot(replica: str, seed: int, scale: float) -> SnapshotLike:
    """The pristine snapshot for a task (built on first use by ``replicas.build``)."""
    from replicas.build import ensure_snapshot

    snapshot: SnapshotLike = ensure_snapshot(replica, seed, scale)
    return snapshot


def build_task(task_id: str | TaskId, snapshot: SnapshotLike | None = None) -> Task:
    """Build (or fetch from the caches) the task ``task_id``; ValueError on a bad id."""
    tid = task_id if isinstance(task_id, TaskId) else TaskId.parse(task_id)
    canonical = str(tid)
    with _LOCK:
        cached = _MEMORY.get(canonical)
    if cached is not None:
        return cached
    family = get_family(tid.family)
    n = family.variants(tid.seed)
    if not 0 <= tid.variant < n:
        raise ValueError(f"{tid.family} has variants 0..{n - 1} for seed {tid.seed}: {canonical!r}")
    snap = snapshot or load_snapshot(family.replica, tid.seed, tid.scale)
    key = _cache_key(canonical, family, snap)
    path = _cache_path(canonical)
    task = _read_cached(path, key)
    if task is None:
        task = family.build(snap, tid.seed, tid.variant)
        if task.id != canonical:
            raise ValueError(f"{tid.family} built {task.id!r} for id {canonical!r}")
        _write_cached(path, key, task)
    with _LOCK:
        _MEMORY[canonical] = task
    return task


def task_from_id(task_id: str) -> Task:
    """The task named by ``task_id`` (``ecommerce.revenue_period-v1.s7.3[.x<scale>]``)."""
    return build_task(task_id)


def clear_memory_cache() -> None:
    """Forget in-process tasks (tests that rebuild snapshots use this)."""
    with _LOCK:
        _MEMORY.clear()
