"""``task_from_id``: id → snapshot → built task, cached in process and on disk.

Building a task runs its ground-truth SQL (and the discrimination check) on the pristine
snapshot. Listing a 100-task suite should not redo that every time, so built tasks are cached
as JSON under ``$REPLICAS_HOME/tasks/`` — never inside a sandbox — keyed by the kit version, the
snapshot's manifest and every source the family depends on, so a code change invalidates its
tasks.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from pathlib import Path
from typing import Any

from replicas._version import __version__
from replicas.atomicio import write_json_atomic
from replicas.build import ensure_snapshot, source_closure
from replicas.paths import replicas_home as home
from replicas.protocols import SnapshotLike
from replicas.tasks.base import Task, TaskId
from replicas.tasks.family import TaskFamily
from replicas.tasks.registry import get_family

_MEMORY: dict[str, Task] = {}
_LOCK = threading.Lock()
_CACHE_SCHEMA = 1


def replicas_home() -> Path:
    """The kit's cache root (``$REPLICAS_HOME``), shared with the snapshot cache."""

    return home()


_FAMILY_PRINTS: dict[str, str] = {}


def _family_fingerprint(family: TaskFamily) -> str:
    """Hash of every first-party source a family's tasks depend on.

    That is the family module's transitive import closure: its helpers, the task model, the
    verifiers, the sandbox and tools it grades with. Any edit there may change an instruction,
    an expected answer or a verdict, so it must rebuild the cached task (memoised per process).
    """
    module = type(family).__module__
    cached = _FAMILY_PRINTS.get(module)
    if cached is not None:
        return cached
    digest = hashlib.sha256(type(family).__qualname__.encode())
    for name, path in source_closure(module):
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    _FAMILY_PRINTS[module] = digest.hexdigest()[:16]
    return _FAMILY_PRINTS[module]


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


#: When this process started importing the kit: a source file modified later may differ from
#: the code this process runs.
_IMPORTED_AT = time.time()


def _sources_changed_since_import(family: TaskFamily) -> bool:
    """Whether a source of ``family``'s closure was modified after this process imported the
    kit. The cache key hashes the sources on disk, so such a process would store what its old
    code builds under the key of the new sources, and every later process would read it back
    (red team, session 11): it builds, but does not cache."""
    for _, path in source_closure(type(family).__module__):
        try:
            if path.stat().st_mtime > _IMPORTED_AT:
                return True
        except OSError:
            return True
    return False


def _write_cached(path: Path, key: str, task: Task) -> None:
    """Atomic write (temp file + rename); a failed write only costs a rebuild next time."""
    payload: dict[str, Any] = {"schema_version": _CACHE_SCHEMA, "key": key, "task": task.to_dict()}
    try:
        write_json_atomic(path, payload, indent=None, sort_keys=True)
    except OSError:
        return


def load_snapshot(replica: str, seed: int, scale: float) -> SnapshotLike:
    """The pristine snapshot for a task (built on first use by ``replicas.build``)."""

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
    if not family.has_variant(tid.seed, tid.variant):
        n = family.variants(tid.seed)
        raise ValueError(f"{tid.family} has variants 0..{n - 1} for seed {tid.seed}: {canonical!r}")
    snap = snapshot or load_snapshot(family.replica, tid.seed, tid.scale)
    key = _cache_key(canonical, family, snap)
    path = _cache_path(canonical)
    task = _read_cached(path, key)
    if task is None:
        task = family.build(snap, tid.seed, tid.variant)
        if task.id != canonical:
            raise ValueError(f"{tid.family} built {task.id!r} for id {canonical!r}")
        if not _sources_changed_since_import(family):
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
