"""The :class:`Sandbox` lifecycle: created per episode, deleted (in the background) after.

Read-only tasks query the pristine snapshot's warehouse; writable (dbt) tasks get their own
warehouse copy. Agent SQL never runs in this process: :meth:`Sandbox.query` sends it to this
thread's query server, a resource-limited child process (``replicas.sandbox.query_server``).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import shutil
import tempfile
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from replicas.dbt_worker import DbtWorker
from replicas.protocols import SnapshotLike
from replicas.sandbox.query_client import QueryResult, close_database, run_query
from replicas.sandbox.templates import (
    WAREHOUSE_NAME,
    copy_tree,
    project_template,
    sandbox_warehouse_template,
)

PROJECT_DIRNAME = "project"
#: What one episode's files (project, warehouse copy, dbt output) may add up to.
DEFAULT_DISK_QUOTA_BYTES = 1 << 30


@dataclass(frozen=True)
class SandboxSpec:
    """What an episode's sandbox must hold, independent of the task model.

    ``writes_warehouse``: the episode gets its own warehouse copy (dbt tasks); otherwise it
    reads the pristine snapshot. ``drop_models``: relations the copy must not contain (with
    everything downstream of them); a read-only task that drops models gets a private copy too,
    made on first use (a task withholding answer-bearing marts). ``patch``: project files
    replaced before the agent starts.
    """

    writes_warehouse: bool = False
    drop_models: tuple[str, ...] = ()
    patch: Mapping[str, str] = field(default_factory=dict)
    disk_quota_bytes: int = DEFAULT_DISK_QUOTA_BYTES

    def __post_init__(self) -> None:
        if self.disk_quota_bytes <= 0:
            raise ValueError("disk_quota_bytes must be positive")
        object.__setattr__(self, "drop_models", tuple(sorted(set(self.drop_models))))
        object.__setattr__(self, "patch", MappingProxyType(dict(self.patch)))


class Sandbox:
    """One episode's private world. Create with :meth:`create`; always :meth:`close`.

    The directory is created on first need: a read-only episode that never touches the project
    costs no file-system work at all.
    """

    def __init__(self, spec: SandboxSpec, snapshot: SnapshotLike, root: Path | None = None) -> None:
        self.spec = spec
        self.snapshot = snapshot
        self._root = root
        self._project_ready = False
        self._lock = threading.RLock()
        self._dbt_worker: DbtWorker | None = None

    @classmethod
    def create(cls, spec: SandboxSpec, snapshot: SnapshotLike) -> Sandbox:
        sandbox = cls(spec, snapshot)
        try:
            if spec.writes_warehouse:
                template = sandbox_warehouse_template(snapshot, spec.drop_models)
                shutil.copyfile(template, sandbox.root / WAREHOUSE_NAME)
                sandbox.ensure_project()
        except BaseException:
            sandbox.close()
            raise
        return sandbox

    @property
    def root(self) -> Path:
        with self._lock:
            if self._root is None:
                self._root = Path(tempfile.mkdtemp(prefix="replicas-sbx-"))
            return self._root

    @property
    def has_root(self) -> bool:
        return self._root is not None

    @property
    def writes(self) -> bool:
        return self.spec.writes_warehouse

    @property
    def project_dir(self) -> Path:
        """The agent-visible dbt project (copied from the snapshot on first access)."""
        self.ensure_project()
        return self.root / PROJECT_DIRNAME

    @property
    def start_template(self) -> Path:
        """The kit's process-private copy of the project the episode started from (pristine
        project + the task's patch); never written after it is made."""
        return project_template(self.snapshot, self.spec.patch)

    def ensure_project(self) -> None:
        with self._lock:
            if self._project_ready:
                return
            target = self.root / PROJECT_DIRNAME
            if not target.exists():
                copy_tree(project_template(self.snapshot, self.spec.patch), target)
            self._project_ready = True

    @property
    def project_materialised(self) -> bool:
        return self._project_ready or (
            self._root is not None and (self._root / PROJECT_DIRNAME).exists()
        )

    @property
    def private_warehouse(self) -> bool:
        """The episode has its own warehouse copy (it writes, or models are withheld from it)."""
        return self.spec.writes_warehouse or bool(self.spec.drop_models)

    @property
    def warehouse(self) -> Path:
        """The warehouse the agent's SQL and dbt runs see."""
        if not self.private_warehouse:
            return Path(self.snapshot.warehouse)
        path = self.root / WAREHOUSE_NAME
        with self._lock:
            if not path.exists():  # read-only with withheld models: copied on first use
                template = sandbox_warehouse_template(self.snapshot, self.spec.drop_models)
                shutil.copyfile(template, path)
        return path

    def query(self, sql: str, *, timeout_s: float, max_rows: int, max_chars: int) -> QueryResult:
        """Run one checked agent query on :attr:`warehouse` in this thread's query server.

        Raises ``QueryFailed`` (refused, timeout, memory, too large, error) with a message for
        the agent.
        """
        return run_query(
            self.warehouse, sql, timeout_s=timeout_s, max_rows=max_rows, max_chars=max_chars
        )

    def release_connection(self) -> None:
        """Make the query servers close this sandbox's own warehouse so dbt can take the lock."""
        with self._lock:
            root = self._root
        if self.private_warehouse and root is not None:
            close_database(root / WAREHOUSE_NAME)

    def dbt_worker(self) -> DbtWorker:
        """This episode's dbt process (``replicas.dbt_worker``), created on the first dbt call
        and killed when the sandbox closes or its state is replaced."""
        with self._lock:
            if self._dbt_worker is None:
                self._dbt_worker = DbtWorker(self.project_dir, self.warehouse)
            return self._dbt_worker

    def _stop_dbt_worker(self) -> None:
        with self._lock:
            worker, self._dbt_worker = self._dbt_worker, None
        if worker is not None:
            worker.close()

    def disk_usage(self) -> int:
        """Bytes allocated under the sandbox root (what the disk quota is checked against)."""
        if self._root is None:
            return 0
        total = 0
        for dirpath, _dirnames, filenames in os.walk(self._root, followlinks=False):
            for name in filenames:
                with contextlib.suppress(OSError):
                    total += os.lstat(os.path.join(dirpath, name)).st_blocks * 512
        return total

    def close(self, *, wait: bool = True) -> None:
        """Remove the sandbox; ``wait=False`` deletes it in the background."""
        self._stop_dbt_worker()
        self.release_connection()
        with self._lock:
            root, self._root = self._root, None
            self._project_ready = False
        if root is None:
            return
        if wait:
            shutil.rmtree(root, ignore_errors=True)
        else:
            discard_later(root)

    # ---- snapshot / restore of a live episode -------------------------------------------

    def save_state(self, dest: Path) -> None:
        """Copy the sandbox's mutable state (project files, writable warehouse) into ``dest``."""
        if self.project_materialised:
            shutil.copytree(self.root / PROJECT_DIRNAME, dest / PROJECT_DIRNAME, symlinks=True)
        if self.writes:
            self.release_connection()
            shutil.copyfile(self.root / WAREHOUSE_NAME, dest / WAREHOUSE_NAME)

    def load_state(self, src: Path) -> None:
        """Replace the sandbox's mutable state with the one saved in ``src``."""
        self._stop_dbt_worker()
        self.release_connection()
        project = self.root / PROJECT_DIRNAME
        if (src / PROJECT_DIRNAME).is_dir():
            shutil.rmtree(project, ignore_errors=True)
            shutil.copytree(src / PROJECT_DIRNAME, project, symlinks=True)
            self._project_ready = True
        if self.writes and (src / WAREHOUSE_NAME).is_file():
            shutil.copyfile(src / WAREHOUSE_NAME, self.root / WAREHOUSE_NAME)


_DISCARD_LOCK = threading.Lock()
_DISCARD_QUEUE: queue.Queue[Path] = queue.Queue()
_DISCARD_WORKER: threading.Thread | None = None


def _discard_worker() -> None:
    while True:
        path = _DISCARD_QUEUE.get()
        try:
            shutil.rmtree(path, ignore_errors=True)
        finally:
            _DISCARD_QUEUE.task_done()


def discard_later(path: Path) -> None:
    """Delete a finished sandbox off the caller's critical path (a reset need not wait for it)."""
    global _DISCARD_WORKER
    with _DISCARD_LOCK:
        if _DISCARD_WORKER is None or not _DISCARD_WORKER.is_alive():
            _DISCARD_WORKER = threading.Thread(
                target=_discard_worker, name="replicas-discard", daemon=True
            )
            _DISCARD_WORKER.start()
    _DISCARD_QUEUE.put(path)


def wait_for_discards() -> None:
    """Block until background deletions finished (at exit, and in tests)."""
    if _DISCARD_WORKER is not None and _DISCARD_WORKER.is_alive():
        _DISCARD_QUEUE.join()


atexit.register(wait_for_discards)
