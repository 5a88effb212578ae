"""Per-process templates that make a reset cheap: the pristine project (plus a task's patch) and
warehouse copies with the graded models dropped, each built once and copied per episode.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import shutil
import tempfile
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path

import duckdb

from replicas.atomicio import write_text_atomic
from replicas.protocols import SnapshotLike
from replicas.sandbox.project import pristine_listing

__all__ = [
    "WAREHOUSE_NAME",
    "copy_pristine_project",
    "copy_tree",
    "downstream_models",
    "project_template",
    "raw_only_warehouse",
    "sandbox_warehouse_template",
]

WAREHOUSE_NAME = "warehouse.duckdb"
_TEMPLATE_LOCK = threading.Lock()
_TEMPLATES: dict[tuple[str, ...], Path] = {}
_TEMPLATE_DIR: Path | None = None


def _template_dir() -> Path:
    global _TEMPLATE_DIR
    if _TEMPLATE_DIR is None:
        _TEMPLATE_DIR = Path(tempfile.mkdtemp(prefix="replicas-templates-"))
        atexit.register(shutil.rmtree, _TEMPLATE_DIR, True)
    return _TEMPLATE_DIR


def copy_pristine_project(src: Path, dst: Path) -> None:
    """Copy the snapshot's project (bytes only, no metadata) skipping build output."""
    dirs, files = pristine_listing(src)
    dst.mkdir()
    for rel in dirs:
        (dst / rel).mkdir()
    for rel in files:
        shutil.copyfile(src / rel, dst / rel)


_PROJECT_TEMPLATES: dict[tuple[str, str], Path] = {}


def project_template(snapshot: SnapshotLike, patch: Mapping[str, str]) -> Path:
    """A process-private copy of the pristine project with ``patch`` applied (built once)."""
    digest = hashlib.sha256(json.dumps(dict(patch), sort_keys=True).encode()).hexdigest()[:16]
    key = (str(Path(snapshot.dbt_project).resolve()), digest)
    with _TEMPLATE_LOCK:
        path = _PROJECT_TEMPLATES.get(key)
        if path is not None and path.is_dir():
            return path
        path = _template_dir() / f"project-{len(_PROJECT_TEMPLATES)}-{digest}"
        copy_pristine_project(Path(snapshot.dbt_project), path)
        for rel, content in patch.items():
            write_text_atomic(path / rel, content)
        _PROJECT_TEMPLATES[key] = path
        return path


def copy_tree(template: Path, dst: Path) -> None:
    """Materialise ``template`` at ``dst`` as a private copy of every file.

    Never hard links: a hard-linked file is one inode shared with the template and every other
    episode of the worker, so any process that writes it in place — dbt compiling an analysis
    over its own source, an editor, a future tool — would change them all. Templates are small
    (a dbt project: tens of files, kilobytes), so their bytes are held in memory once per
    process and a reset only creates files.
    """
    dirs, contents = _template_contents(template)
    dst_root = str(dst)
    os.mkdir(dst_root)
    for rel in dirs:
        os.mkdir(os.path.join(dst_root, rel))
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for rel, data in contents:
        fd = os.open(os.path.join(dst_root, rel), flags, 0o644)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)


_CONTENTS: dict[str, tuple[tuple[str, ...], tuple[tuple[str, bytes], ...]]] = {}


def _template_contents(
    template: Path,
) -> tuple[tuple[str, ...], tuple[tuple[str, bytes], ...]]:
    """(directories, (file, bytes)…) of a template, read once per process (templates are
    process-private and never change once built)."""
    key = str(template)
    cached = _CONTENTS.get(key)
    if cached is None:
        dirs, files = pristine_listing(template)
        cached = (dirs, tuple((rel, (template / rel).read_bytes()) for rel in files))
        with _TEMPLATE_LOCK:
            _CONTENTS[key] = cached
    return cached


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


def _rewrite_compact(warehouse: Path) -> None:
    """Rewrite ``warehouse`` into a fresh file holding only its live catalog and data.

    Why: DROP frees blocks but does not clear them, so a dropped view's SQL (the pristine
    model a fix task removed) stays readable in the file's bytes, e.g. with ``strings`` on an
    exported sandbox. ``COPY FROM DATABASE`` writes schemas, tables (rows in their order),
    views and macros into a new file; the old one is replaced atomically.
    """
    fresh = warehouse.with_name(warehouse.name + ".compact")
    fresh.unlink(missing_ok=True)
    con = duckdb.connect()
    try:
        old = str(warehouse).replace("'", "''")
        new = str(fresh).replace("'", "''")
        con.execute(f"ATTACH '{old}' AS old_file (READ_ONLY)")
        con.execute(f"ATTACH '{new}' AS new_file")
        con.execute("COPY FROM DATABASE old_file TO new_file")
        con.execute("DETACH new_file")
        con.execute("DETACH old_file")
    finally:
        con.close()
    os.replace(fresh, warehouse)


def _template(key: tuple[str, ...], snapshot: SnapshotLike, drop: Iterable[str] | None) -> Path:
    with _TEMPLATE_LOCK:
        path = _TEMPLATES.get(key)
        if path is not None and path.exists():
            return path
        path = _template_dir() / f"{len(_TEMPLATES)}-{WAREHOUSE_NAME}"
        tmp = path.with_suffix(".tmp")
        shutil.copyfile(snapshot.warehouse, tmp)
        _drop_relations(tmp, drop)
        _rewrite_compact(tmp)
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
