"""Per-episode sandboxes, and the DuckDB connections episodes read through.

A sandbox is one private temporary directory per episode::

    <root>/project/           the snapshot's dbt project (+ the task's sandbox_patch); the only
                              place file tools may touch; copied lazily on first use
    <root>/warehouse.duckdb   a copy of the warehouse — only for tasks that write (dbt tasks),
                              with the task's target models and everything downstream DROPPED

Read-only tasks query the pristine snapshot's warehouse through one shared read-only connection
per process (opening costs ~14 ms; a cursor costs microseconds). Every connection an agent's SQL
reaches has external access disabled and its configuration locked.

Nothing here ever holds an expected answer: expected answers live in the task (outside the
sandbox) and in the pristine snapshot, which grading reads but the agent cannot reach.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import os
import queue
import shutil
import tempfile
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath

import duckdb

from replicas.db import (  # noqa: F401  (re-exported until callers move)
    SAFE_DUCKDB_CONFIG,
    close_readonly_connections,
    open_readonly,
    readonly_connection,
)
from replicas.tasks._snapshot import SnapshotLike
from replicas.tasks.base import Task

PROJECT_DIRNAME = "project"
WAREHOUSE_NAME = "warehouse.duckdb"
#: Top-level project directories never copied (build output; ``target/manifest.json`` even holds
#: the compiled code of the pristine models, i.e. the answer to a "fix the model" task).
SKIP_PROJECT_DIRS = frozenset({"target", "logs", "dbt_packages", "__pycache__"})
MAX_PROJECT_FILE_BYTES = 1_000_000
_PATH_KEYS = (
    "model-paths",
    "seed-paths",
    "test-paths",
    "analysis-paths",
    "macro-paths",
    "snapshot-paths",
    "docs-paths",
    "asset-paths",
    "function-paths",
    "target-path",
    "log-path",
    "packages-install-path",
    "clean-targets",
)

# --------------------------------------------------------------------------------------------
# project files


def validate_dbt_project_yml(text: str) -> str | None:
    """Why an edited ``dbt_project.yml`` is refused (paths leaving the project, other profile)."""
    import yaml  # PyYAML: a declared dependency (also required by dbt-core)

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        return f"dbt_project.yml is not valid YAML: {exc}"
    if not isinstance(data, dict):
        return "dbt_project.yml must be a mapping"
    if data.get("profile", "replica") != "replica":
        return "dbt_project.yml must keep 'profile: replica'"
    for key in _PATH_KEYS:
        value = data.get(key)
        if value is None:
            continue
        values = value if isinstance(value, list) else [value]
        for item in values:
            if not isinstance(item, str) or not _relative_inside(item):
                return f"dbt_project.yml '{key}' must list relative paths inside the project"
    return None


def _relative_inside(path: str) -> bool:
    if not path or path.startswith(("/", "\\", "~")) or ":" in path or "{" in path:
        return False
    return ".." not in Path(path).parts


def refused_project_file(relpath: str, size: int) -> str | None:
    """Why a project file may not exist in a sandbox or be copied into grading (or None)."""
    parts = Path(relpath).parts
    if relpath.endswith(".py"):
        return f"{relpath}: Python files (dbt Python models) are not allowed"
    if parts and parts[-1] in {"profiles.yml", "packages.yml", "dependencies.yml"}:
        return f"{relpath}: {parts[-1]} is managed by the kit"
    if size > MAX_PROJECT_FILE_BYTES:
        return f"{relpath}: file larger than {MAX_PROJECT_FILE_BYTES} bytes"
    return None


def _walk_project(src: Path, dst: Path | None) -> list[str]:
    refused: list[str] = []
    src = Path(src)
    if dst is not None:
        dst.mkdir(parents=True, exist_ok=False)
    for dirpath, dirnames, filenames in os.walk(src, followlinks=False):
        rel_dir = Path(dirpath).relative_to(src)
        keep = []
        for d in sorted(dirnames):
            full = Path(dirpath) / d
            if rel_dir == Path(".") and d in SKIP_PROJECT_DIRS:
                continue
            if full.is_symlink():
                refused.append(f"{(rel_dir / d).as_posix()}: symlinks are not allowed")
                continue
            keep.append(d)
            if dst is not None:
                (dst / rel_dir / d).mkdir()
        dirnames[:] = keep
        for name in sorted(filenames):
            full = Path(dirpath) / name
            rel = (rel_dir / name).as_posix()
            if full.is_symlink() or not full.is_file():
                refused.append(f"{rel}: only regular files are allowed")
                continue
            why = refused_project_file(rel, full.stat().st_size)
            if why is None and rel == "dbt_project.yml":
                why = validate_dbt_project_yml(full.read_text(encoding="utf-8", errors="replace"))
            if why is not None:
                refused.append(why)
                continue
            if dst is not None:
                shutil.copyfile(full, dst / rel)
    return refused


def copy_project_safely(src: Path, dst: Path) -> list[str]:
    """Copy a dbt project file by file, never following symlinks; return what was refused.

    Used for the grading rebuild, where the source is the agent's (untrusted) project.
    """
    return _walk_project(src, dst)


def project_violations(project_dir: Path) -> list[str]:
    """What in ``project_dir`` a dbt run must not see (Python models, symlinks, bad config)."""
    return _walk_project(project_dir, None)


_LISTING_LOCK = threading.Lock()
_LISTINGS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}


def _pristine_listing(src: Path) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(directories, files) of a pristine project, relative, cached per process.

    Snapshots are read-only, so one walk per snapshot suffices; a reset then only copies bytes.
    """
    key = str(Path(src).resolve())
    with _LISTING_LOCK:
        cached = _LISTINGS.get(key)
    if cached is not None:
        return cached
    dirs: list[str] = []
    files: list[str] = []
    for dirpath, dirnames, filenames in os.walk(src, followlinks=False):
        rel_dir = Path(dirpath).relative_to(src)
        dirnames[:] = sorted(
            d
            for d in dirnames
            if d != "__pycache__" and not (rel_dir == Path(".") and d in SKIP_PROJECT_DIRS)
        )
        dirs.extend((rel_dir / d).as_posix() for d in dirnames)
        files.extend(
            (rel_dir / f).as_posix()
            for f in sorted(filenames)
            if not (Path(dirpath) / f).is_symlink()
        )
    listing = (tuple(dirs), tuple(files))
    with _LISTING_LOCK:
        _LISTINGS[key] = listing
    return listing


def _copy_pristine_project(src: Path, dst: Path) -> None:
    """Copy the snapshot's project (bytes only, no metadata) skipping build output."""
    dirs, files = _pristine_listing(src)
    dst.mkdir()
    for rel in dirs:
        (dst / rel).mkdir()
    for rel in files:
        shutil.copyfile(src / rel, dst / rel)


_PROJECT_TEMPLATES: dict[tuple[str, str], Path] = {}


def _write_replacing(path: Path, content: str) -> None:
    """Write via a temp file + rename: never in place, so hard-linked copies stay untouched."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-write-")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(content)
    os.replace(tmp, path)


def project_template(snapshot: SnapshotLike, patch: Mapping[str, str]) -> Path:
    """A process-private copy of the pristine project with ``patch`` applied (built once)."""
    digest = hashlib.sha256(json.dumps(dict(patch), sort_keys=True).encode()).hexdigest()[:16]
    key = (str(Path(snapshot.dbt_project).resolve()), digest)
    with _TEMPLATE_LOCK:
        path = _PROJECT_TEMPLATES.get(key)
        if path is not None and path.is_dir():
            return path
        path = _template_dir() / f"project-{len(_PROJECT_TEMPLATES)}-{digest}"
        _copy_pristine_project(Path(snapshot.dbt_project), path)
        for rel, content in patch.items():
            _write_replacing(path / rel, content)
        _PROJECT_TEMPLATES[key] = path
        return path


def _link_tree(template: Path, dst: Path) -> None:
    """Materialise ``template`` at ``dst`` with hard links (one syscall per file).

    Safe because nothing writes a sandbox project file in place: the file tools, patches and
    restores all write a new file and rename it over the old name, which unlinks rather than
    modifies the shared inode. Falls back to copying across file systems.
    """
    dirs, files = _pristine_listing(template)
    src_root, dst_root = str(template), str(dst)
    os.mkdir(dst_root)
    for rel in dirs:
        os.mkdir(os.path.join(dst_root, rel))
    for rel in files:
        src, target = os.path.join(src_root, rel), os.path.join(dst_root, rel)
        try:
            os.link(src, target)
        except OSError:
            shutil.copyfile(src, target)


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


# --------------------------------------------------------------------------------------------
# warehouse templates (built once per process, copied per episode)

_TEMPLATE_LOCK = threading.Lock()
_TEMPLATES: dict[tuple[str, ...], Path] = {}
_TEMPLATE_DIR: Path | None = None


def _template_dir() -> Path:
    global _TEMPLATE_DIR
    if _TEMPLATE_DIR is None:
        _TEMPLATE_DIR = Path(tempfile.mkdtemp(prefix="replicas-templates-"))
        atexit.register(shutil.rmtree, _TEMPLATE_DIR, True)
    return _TEMPLATE_DIR


_DOWNSTREAM: dict[tuple[str, tuple[str, ...]], list[str]] = {}


def downstream_models(snapshot: SnapshotLike, models: Iterable[str]) -> list[str]:
    """``models`` and every model built from them, from the snapshot's dbt manifest (cached)."""
    wanted = tuple(sorted(set(models)))
    key = (str(Path(snapshot.dbt_project).resolve()), wanted)
    cached = _DOWNSTREAM.get(key)
    if cached is not None:
        return list(cached)
    manifest_path = Path(snapshot.dbt_project) / "target" / "manifest.json"
    try:
        manifest = json.loads(manifest_path.read_text())
    except (OSError, ValueError):
        return list(wanted)
    nodes = manifest.get("nodes", {})
    child_map: dict[str, list[str]] = manifest.get("child_map", {})
    by_name = {n.get("name"): uid for uid, n in nodes.items() if n.get("resource_type") == "model"}
    queue = [by_name[m] for m in wanted if m in by_name]
    seen = set(queue)
    while queue:
        for child in child_map.get(queue.pop(), []):
            if child not in seen and nodes.get(child, {}).get("resource_type") == "model":
                seen.add(child)
                queue.append(child)
    result = sorted(set(wanted) | {nodes[uid]["name"] for uid in seen})
    _DOWNSTREAM[key] = result
    return list(result)


def _drop_relations(warehouse: Path, names: Iterable[str] | None) -> None:
    """Drop ``names`` from schema main (``None``: drop every relation outside schema raw)."""
    con = duckdb.connect(str(warehouse))
    try:
        rows = con.execute(
            "select table_schema, table_name, table_type from information_schema.tables "
            "where table_schema <> 'raw' and table_catalog = current_database()"
        ).fetchall()
        targets = None if names is None else {n.lower() for n in names}
        # Views first: a view may depend on a table we are about to drop.
        for schema, name, kind in sorted(rows, key=lambda r: r[2] != "VIEW"):
            if targets is not None and (schema != "main" or name.lower() not in targets):
                continue
            what = "VIEW" if kind == "VIEW" else "TABLE"
            con.execute(f'DROP {what} IF EXISTS "{schema}"."{name}" CASCADE')
        con.execute("CHECKPOINT")
    finally:
        con.close()


def _template(key: tuple[str, ...], snapshot: SnapshotLike, drop: Iterable[str] | None) -> Path:
    with _TEMPLATE_LOCK:
        path = _TEMPLATES.get(key)
        if path is not None and path.exists():
            return path
        path = _template_dir() / f"{len(_TEMPLATES)}-{WAREHOUSE_NAME}"
        tmp = path.with_suffix(".tmp")
        shutil.copyfile(snapshot.warehouse, tmp)
        _drop_relations(tmp, drop)
        os.replace(tmp, path)
        _TEMPLATES[key] = path
        return path


def _snapshot_key(snapshot: SnapshotLike) -> str:
    stat = Path(snapshot.warehouse).stat()
    return f"{Path(snapshot.warehouse).resolve()}:{stat.st_ino}:{stat.st_mtime_ns}"


def raw_only_warehouse(snapshot: SnapshotLike) -> Path:
    """A process-cached copy of the pristine warehouse with only schema ``raw`` left (grading)."""
    return _template((_snapshot_key(snapshot), "raw-only"), snapshot, None)


def sandbox_warehouse_template(snapshot: SnapshotLike, models: Iterable[str]) -> Path:
    """A process-cached copy of the warehouse without ``models`` and their descendants."""
    drop = downstream_models(snapshot, models)
    return _template((_snapshot_key(snapshot), "drop", *drop), snapshot, drop)


# --------------------------------------------------------------------------------------------
# the sandbox


def models_to_drop(task: Task) -> list[str]:
    """Models whose pristine relations a writable sandbox must not contain.

    The graded models, and every model whose file the task patches: a DuckDB view keeps its
    defining SQL, so a pristine view of a patched model would show the agent the unpatched code.
    (``sandbox_warehouse_template`` adds everything downstream of these.)
    """
    patched = [
        PurePosixPath(rel).stem
        for rel in task.sandbox_patch
        if rel.startswith("models/") and rel.endswith(".sql")
    ]
    return sorted({*task.verifier.dbt_models, *patched})


class Sandbox:
    """One episode's private world. Create with :meth:`create`; always :meth:`close`.

    The directory is created on first need: a read-only episode that never touches the project
    costs no file-system work at all.
    """

    def __init__(self, task: Task, snapshot: SnapshotLike, root: Path | None = None) -> None:
        self.task = task
        self.snapshot = snapshot
        self._root = root
        self._project_ready = False
        self._own_connection: duckdb.DuckDBPyConnection | None = None
        self._lock = threading.RLock()

    @classmethod
    def create(cls, task: Task, snapshot: SnapshotLike) -> Sandbox:
        sandbox = cls(task, snapshot)
        try:
            if task.writes_warehouse:
                template = sandbox_warehouse_template(snapshot, models_to_drop(task))
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
        return self.task.writes_warehouse

    @property
    def project_dir(self) -> Path:
        """The agent-visible dbt project (copied from the snapshot on first access)."""
        self.ensure_project()
        return self.root / PROJECT_DIRNAME

    def ensure_project(self) -> None:
        with self._lock:
            if self._project_ready:
                return
            target = self.root / PROJECT_DIRNAME
            if not target.exists():
                _link_tree(project_template(self.snapshot, self.task.sandbox_patch), target)
            self._project_ready = True

    @property
    def project_materialised(self) -> bool:
        return self._project_ready or (
            self._root is not None and (self._root / PROJECT_DIRNAME).exists()
        )

    @property
    def warehouse(self) -> Path:
        """The warehouse the agent's SQL and dbt runs see."""
        return self.root / WAREHOUSE_NAME if self.writes else Path(self.snapshot.warehouse)

    def connection(self) -> duckdb.DuckDBPyConnection:
        """Read-only connection for the SQL tool (shared for read-only tasks)."""
        if not self.writes:
            return readonly_connection(self.snapshot.warehouse)
        with self._lock:
            if self._own_connection is None:
                self._own_connection = open_readonly(self.warehouse)
            return self._own_connection

    def release_connection(self) -> None:
        """Close this sandbox's own connection so a dbt subprocess can take the write lock."""
        with self._lock:
            if self._own_connection is not None:
                with contextlib.suppress(Exception):
                    self._own_connection.close()
                self._own_connection = None

    def close(self, *, wait: bool = True) -> None:
        """Remove the sandbox; ``wait=False`` deletes it in the background."""
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
        self.release_connection()
        project = self.root / PROJECT_DIRNAME
        if (src / PROJECT_DIRNAME).is_dir():
            shutil.rmtree(project, ignore_errors=True)
            shutil.copytree(src / PROJECT_DIRNAME, project, symlinks=True)
            self._project_ready = True
        if self.writes and (src / WAREHOUSE_NAME).is_file():
            shutil.copyfile(src / WAREHOUSE_NAME, self.root / WAREHOUSE_NAME)
