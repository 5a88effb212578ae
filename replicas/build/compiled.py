"""The compiled-project cache: one per (replica, code fingerprint), beside the snapshots.

``$REPLICAS_HOME/compiled/<replica>-<fingerprint>/`` holds ``dbt/`` — the project exactly as a
snapshot carries it, with the ``target/manifest.json`` that a real ``dbt build`` of this code wrote —
and ``plan.json``: the :class:`~replicas.build.plan.ReplayPlan` derived from that manifest, or the
reason replay cannot reproduce the project. The first successful ``dbt build`` of a fingerprint
fills it (that build is the compilation: a ``dbt compile`` manifest differs from what agents see
after ``dbt build`` — no ``build_path``, fewer test macros — and costs about as much). Every later
seed copies ``dbt/`` into its snapshot and replays the plan.

Published like a snapshot: built in a temporary directory, sealed (``integrity.json``, read-only),
renamed into place under a file lock; a cache entry that fails verification is ignored and
replaced.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from replicas.atomicio import publish_dir, remove_tree
from replicas.build.fingerprint import code_fingerprint
from replicas.build.integrity import make_read_only, verify_tree, write_integrity
from replicas.build.plan import PLAN_SCHEMA_VERSION, ReplayPlan, analyse
from replicas.paths import replicas_home
from replicas.replica import ReplicaSpec

__all__ = [
    "PARSE_STATE",
    "PLAN",
    "CompiledProject",
    "compile_lock",
    "compiled_dir",
    "copy_tree_bytes",
    "load_compiled",
    "publish_compiled",
]

PLAN = "plan.json"
DBT_DIR = "dbt"
#: dbt's parse of the project (``target/partial_parse.msgpack`` of the compiling build): a later
#: ``dbt build`` of the same code starts from it instead of parsing every file again.
PARSE_STATE = "partial_parse.msgpack"
_STALE_TMP_S = 6 * 3600


@dataclass(frozen=True)
class CompiledProject:
    """A cache entry: the project to ship in snapshots and the plan to replay (or why not)."""

    path: Path
    plan: ReplayPlan | None
    unsupported: str | None

    def __post_init__(self) -> None:
        if (self.plan is None) == (self.unsupported is None):
            raise ValueError("a compiled project has either a plan or an unsupported reason")

    @property
    def project(self) -> Path:
        return self.path / DBT_DIR

    @property
    def parse_state(self) -> Path | None:
        """The compiling build's parse (:data:`PARSE_STATE`), when it was kept."""
        path = self.path / PARSE_STATE
        return path if path.is_file() else None


def compiled_root() -> Path:
    path = replicas_home() / "compiled"
    path.mkdir(parents=True, exist_ok=True)
    return path


def compiled_dir(spec: ReplicaSpec) -> Path:
    return compiled_root() / f"{spec.name}-{code_fingerprint(spec)}"


@contextlib.contextmanager
def compile_lock(spec: ReplicaSpec, *, blocking: bool = True) -> Iterator[bool]:
    """Hold the compile lock of ``spec``'s current code; yields False if not blocking and busy."""
    path = compiled_root() / f".{compiled_dir(spec).name}.lock"
    with open(path, "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def load_compiled(spec: ReplicaSpec) -> CompiledProject | None:
    """The verified cache entry for ``spec``'s current code, or None (absent or damaged)."""
    path = compiled_dir(spec)
    if not (path / PLAN).is_file() or verify_tree(path):
        return None
    try:
        doc = json.loads((path / PLAN).read_text())
        if doc.get("schema_version") != PLAN_SCHEMA_VERSION:
            return None
        plan = None if doc["plan"] is None else ReplayPlan.from_dict(doc["plan"])
        return CompiledProject(path=path, plan=plan, unsupported=doc["unsupported"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def copy_tree_bytes(src: Path, dst: Path) -> None:
    """Copy ``src`` to the new directory ``dst``: contents only, never modes (src is read-only)."""
    os.mkdir(dst)
    for dirpath, dirnames, filenames in os.walk(src, followlinks=False):
        rel = os.path.relpath(dirpath, src)
        target = dst if rel == "." else dst / rel
        for name in sorted(dirnames):
            os.mkdir(target / name)
        for name in sorted(filenames):
            shutil.copyfile(os.path.join(dirpath, name), target / name)


def _sweep_stale_tmp(parent: Path) -> None:
    """Remove temporary dirs left by killed processes (never a live publish's)."""
    now = time.time()
    for child in parent.glob(".tmp-*"):
        with contextlib.suppress(OSError):
            if now - child.stat().st_mtime > _STALE_TMP_S:
                remove_tree(child)


def publish_compiled(
    spec: ReplicaSpec, project: Path, *, source: str, parse_state: Path | None = None
) -> CompiledProject:
    """Cache ``project`` (a dbt project a successful ``dbt build`` just left, pruned to
    ``target/manifest.json``) as the compiled project of ``spec``'s current code, with
    ``parse_state`` (that build's ``partial_parse.msgpack``) when given.

    The caller holds :func:`compile_lock`. An intact existing entry is kept as it is.
    """
    existing = load_compiled(spec)
    if existing is not None:
        return existing
    manifest_path = project / "target" / "manifest.json"
    manifest: dict[str, Any] = json.loads(manifest_path.read_text())
    project_yml = project / "dbt_project.yml"
    plan, unsupported = analyse(
        manifest, project_yml.read_text() if project_yml.is_file() else None
    )
    final = compiled_dir(spec)
    _sweep_stale_tmp(final.parent)
    tmp = final.with_name(f".tmp-{final.name}-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    try:
        tmp.mkdir()
        copy_tree_bytes(project, tmp / DBT_DIR)
        doc = {
            "schema_version": PLAN_SCHEMA_VERSION,
            "replica": spec.name,
            "code_fingerprint": code_fingerprint(spec),
            "source": source,
            "unsupported": unsupported,
            "plan": None if plan is None else plan.to_dict(),
        }
        (tmp / PLAN).write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
        if parse_state is not None and parse_state.is_file():
            shutil.copyfile(parse_state, tmp / PARSE_STATE)
        write_integrity(tmp)
        make_read_only(tmp)
        publish_dir(tmp, final)
    finally:
        remove_tree(tmp)
    return CompiledProject(path=final, plan=plan, unsupported=unsupported)
