"""The code half of a build's cache key: a replica's source closure, its dbt project, library versions.

Two builds share a snapshot only when every input but (seed, scale) is the same: the generator's
first-party source closure, the dbt project's files, and the versions of the libraries that shape
the data. The build engine (replay or dbt) is deliberately *not* an input: both must produce the
same tables.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
from importlib import metadata
from pathlib import Path

from replicas.replica import ReplicaSpec

__all__ = [
    "DATA_DISTRIBUTIONS",
    "PROJECT_IGNORE",
    "code_fingerprint",
    "data_versions",
    "forget_fingerprints",
    "project_files",
    "source_closure",
]

_FINGERPRINTS: dict[str, str] = {}
#: Distributions whose version can change generated data or built marts: part of the key.
DATA_DISTRIBUTIONS = ("faker", "numpy", "polars", "pyarrow", "duckdb", "dbt-core", "dbt-duckdb")
#: Parts of a dbt project that are build output or packaging, never an input.
PROJECT_IGNORE = ("target", "logs", "dbt_packages", "__pycache__", "__init__.py", ".user.yml")


def _module_file(name: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, AttributeError, ValueError):  # ``from mod import attribute``
        return None
    return Path(spec.origin) if spec and spec.origin and spec.origin.endswith(".py") else None


#: ``_first_party_imports`` memo: every family's closure walks mostly the same ~500 files, and
#: parsing them again per family cost seconds per process. Keyed by the file's stat, so an edited
#: source is parsed afresh.
_IMPORTS: dict[tuple[str, str, int, int], frozenset[str]] = {}


def _first_party_imports(path: Path, module: str) -> frozenset[str]:
    """Modules under ``replicas.`` that the source at ``path`` imports (statically)."""
    stat = path.stat()
    key = (str(path), module, stat.st_mtime_ns, stat.st_size)
    cached = _IMPORTS.get(key)
    if cached is None:
        cached = _IMPORTS[key] = frozenset(_parse_imports(path, module))
    return cached


def _parse_imports(path: Path, module: str) -> set[str]:
    tree = ast.parse(path.read_bytes(), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            found.add(base)
            # ``from pkg import sub`` may name a submodule
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in found if name.startswith("replicas.")}


def source_closure(module: str) -> list[tuple[str, Path]]:
    """``module`` and every first-party module it imports, transitively, with their files.

    A replica's data depends on exactly these sources (its generator package, the shared
    vocabulary and seeding helpers), so editing another replica's generator leaves its key alone.
    """
    seen: dict[str, Path] = {}
    pending = [module]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        path = _module_file(name)
        if path is None:
            continue
        seen[name] = path
        # a package's submodules are part of it even when imported lazily
        if path.name == "__init__.py":
            pending += [
                f"{name}.{p.stem}" for p in path.parent.glob("*.py") if p.stem != "__init__"
            ]
        parents = name.split(".")
        pending += [".".join(parents[:i]) for i in range(2, len(parents))]
        pending += sorted(_first_party_imports(path, name))
    return sorted(seen.items())


def data_versions() -> dict[str, str]:
    """Installed versions of the distributions in :data:`DATA_DISTRIBUTIONS`."""
    out: dict[str, str] = {}
    for dist in DATA_DISTRIBUTIONS:
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "absent"
    return out


def project_files(project: Path) -> list[Path]:
    """The input files of the dbt project at ``project`` (build output excluded), sorted."""
    if not project.is_dir():
        return []
    out = []
    for path in sorted(project.rglob("*")):
        rel = path.relative_to(project)
        if path.is_file() and not set(rel.parts) & set(PROJECT_IGNORE):
            out.append(path)
    return out


def code_fingerprint(spec: ReplicaSpec) -> str:
    """sha256 over every input of a build but (seed, scale): the generator's source closure, the
    dbt project files, and the versions of the libraries that shape the data.

    Part of the cache key, so editing a generator or a model never serves a stale snapshot (the
    kit version alone only changes at release), while editing another replica's generator does
    not invalidate this one. Memoised per process: sources do not change under a running build.
    """
    cached = _FINGERPRINTS.get(spec.name)
    if cached is not None:
        return cached
    digest = hashlib.sha256(spec.name.encode())
    digest.update(json.dumps(data_versions(), sort_keys=True).encode())
    module_name = spec.generator.partition(":")[0]
    files: list[tuple[str, Path]] = [
        (f"py/{name}", path) for name, path in source_closure(module_name)
    ]
    for path in project_files(spec.dbt_project):
        files.append((f"dbt/{path.relative_to(spec.dbt_project).as_posix()}", path))
    files += [(f"extra/{path.name}", path) for path in spec.extra_inputs]
    for label, path in files:
        digest.update(label.encode() + b"\0" + path.read_bytes() + b"\0")
    _FINGERPRINTS[spec.name] = digest.hexdigest()
    return _FINGERPRINTS[spec.name]


def forget_fingerprints() -> None:
    """Drop the per-process memo (after editing a replica's sources in a running process)."""
    _FINGERPRINTS.clear()
