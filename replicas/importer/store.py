"""Where imported replicas live and how the replica registry finds them.

``$REPLICAS_HOME/imports/NAME/`` holds ``replica.json`` (the :class:`ImportSpec`), ``project/``
(the staged dbt project the replica builds from) and ``seed_data/`` (seeds kept verbatim). The
directory is written whole in a temporary sibling and renamed into place, so a reader sees the
old import or the new one, never a mix. The replica registry's loader calls
:func:`register_imports` once per process; an import made in this process registers itself
(``replicas.importer.steps.install``). This module is part of the imported replicas' generator
closure (their cache key): it imports nothing heavy, even lazily.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

from replicas.importer.schema import NAME_RE, ImportSpec
from replicas.paths import replicas_home

if TYPE_CHECKING:
    from replicas.replica import ReplicaSpec

__all__ = [
    "IMPORTS_DIR",
    "SPEC_FILE",
    "import_dir",
    "imported_names",
    "load_spec",
    "register_imports",
    "replica_spec",
]

IMPORTS_DIR = "imports"
SPEC_FILE = "replica.json"
PROJECT_DIR = "project"


def imports_root() -> Path:
    return replicas_home() / IMPORTS_DIR


def import_dir(name: str) -> Path:
    if not NAME_RE.match(name):
        raise ValueError(f"not an imported replica name: {name!r}")
    return imports_root() / name


def load_spec(name: str) -> ImportSpec:
    path = import_dir(name) / SPEC_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"replica {name!r} is not imported (no {path})") from None
    return ImportSpec.from_json(text)


def imported_names() -> list[str]:
    root = imports_root()
    if not root.is_dir():
        return []
    return sorted(
        p.name for p in root.iterdir() if NAME_RE.match(p.name) and (p / SPEC_FILE).is_file()
    )


def replica_spec(spec: ImportSpec) -> ReplicaSpec:
    from replicas.replica import ReplicaSpec

    base = import_dir(spec.name)
    return ReplicaSpec(
        name=spec.name,
        description=spec.description,
        generator=f"replicas.importer.synth:{spec.name}",
        dbt_project=base / PROJECT_DIR,
        max_scale=5.0,
        extra_inputs=(base / SPEC_FILE, *sorted((base / "seed_data").glob("*.csv"))),
    )


def register_imports() -> None:
    """Register every import under ``$REPLICAS_HOME/imports`` (the replica registry's loader).

    A damaged import is skipped (``replicas import dbt`` again repairs it); a name that is a
    shipped replica is never shadowed.
    """
    from replicas.replica import REPLICAS, register_replica

    for name in imported_names():
        existing = REPLICAS.find(name)
        if existing is not None and not _is_import(existing):
            continue
        with contextlib.suppress(ValueError, OSError):
            register_replica(replica_spec(load_spec(name)), replace=True)


def _is_import(spec: object) -> bool:
    return str(getattr(spec, "generator", "")).startswith("replicas.importer.synth:")
