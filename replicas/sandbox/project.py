"""The agent's dbt project: what may exist in it, and copying it without trusting it.

dbt is a general-purpose program: a project file can point it at other directories, install
packages or override builtins. Everything here is a *policy* check on the tree before dbt sees
it; the operating-system sandbox around dbt (``replicas.dbt``) is the wall behind it.
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import yaml

__all__ = [
    "MAX_PROJECT_FILE_BYTES",
    "PATH_KEYS",
    "SKIP_PROJECT_DIRS",
    "copy_project_safely",
    "pristine_listing",
    "project_violations",
    "refused_project_file",
    "validate_dbt_project_yml",
]

#: Top-level project directories never copied (build output; ``target/manifest.json`` even holds
#: the compiled code of the pristine models, i.e. the answer to a "fix the model" task).
SKIP_PROJECT_DIRS = frozenset({"target", "logs", "dbt_packages", "__pycache__"})
MAX_PROJECT_FILE_BYTES = 1_000_000
PATH_KEYS = (
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


def validate_dbt_project_yml(text: str) -> str | None:
    """Why an edited ``dbt_project.yml`` is refused (paths leaving the project, other profile)."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        return f"dbt_project.yml is not valid YAML: {exc}"
    if not isinstance(data, dict):
        return "dbt_project.yml must be a mapping"
    if data.get("profile", "replica") != "replica":
        return "dbt_project.yml must keep 'profile: replica'"
    for key in PATH_KEYS:
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


def pristine_listing(src: Path) -> tuple[tuple[str, ...], tuple[str, ...]]:
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
