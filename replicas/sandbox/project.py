"""The agent's dbt project: what may exist in it, and copying it without trusting it.

dbt is a general-purpose program: a project file can point it at other directories, install
packages or override builtins. Everything here is a *policy* check on the tree before dbt sees
it; the operating-system sandbox around dbt (``replicas.dbt``) is the wall behind it.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
from pathlib import Path
from typing import Any

import yaml

__all__ = [
    "GENERATED_DIRS",
    "KIT_MANAGED_FILES",
    "MAX_PROJECT_FILE_BYTES",
    "PATH_KEYS",
    "PROTECTED_NAMES",
    "SKIP_PROJECT_DIRS",
    "copy_project_safely",
    "prepare_for_dbt",
    "pristine_listing",
    "project_violations",
    "refused_content",
    "refused_project_file",
    "validate_dbt_project_yml",
]

#: Top-level project directories never copied (build output; ``target/manifest.json`` even holds
#: the compiled code of the pristine models, i.e. the answer to a "fix the model" task).
SKIP_PROJECT_DIRS = frozenset({"target", "logs", "dbt_packages", "__pycache__"})
PACKAGES_DIR = "dbt_packages"
#: Top-level directories dbt writes (or, for packages, would read): never written by the agent.
GENERATED_DIRS = frozenset({"target", "logs", PACKAGES_DIR, "__pycache__"})
#: Files that configure dbt itself; the kit writes the one profile, the rest may not exist.
KIT_MANAGED_FILES = frozenset(
    {
        "profiles.yml",
        "packages.yml",
        "dependencies.yml",
        "selectors.yml",
        "package-lock.yml",
        ".user.yml",
    }
)
#: Names of dbt's Jinja context a macro may not redefine.
PROTECTED_NAMES = frozenset(
    {
        "adapter", "api", "builtins", "config", "context", "database", "dbt_version", "doc",
        "env_var", "exceptions", "execute", "flags", "fromjson", "fromyaml", "graph",
        "invocation_id", "is_incremental", "load_relation", "load_result", "local_md5", "log",
        "model", "modules", "print", "project_name", "ref", "render", "return", "run_query",
        "run_started_at", "schema", "schemas", "selected_resources", "set_sql_header", "source",
        "statement", "store_raw_result", "store_result", "target", "this", "tojson", "toyaml",
        "try_or_compiler_error", "var", "write", "zip",
    }
)  # fmt: skip
MAX_PROJECT_FILE_BYTES = 1_000_000
#: Where dbt writes its output (skipped by every copy of a project); only these values.
_OUTPUT_DIRS = {"target-path": "target", "log-path": "logs"}
MAX_PROJECT_FILES = 5_000
MAX_PROJECT_BYTES = 50_000_000
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
    """Why a root ``dbt_project.yml`` is refused (other profile, paths leaving the project,
    a packages directory of its own, dbt's output moved out of target/ or logs/)."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        return f"dbt_project.yml is not valid YAML: {exc}"
    except RecursionError:
        return "dbt_project.yml: YAML nested too deeply"
    if not isinstance(data, dict):
        return "dbt_project.yml must be a mapping"
    if data.get("profile", "replica") != "replica":
        return "dbt_project.yml must keep 'profile: replica'"
    if "packages-install-path" in data:
        return "dbt_project.yml may not set 'packages-install-path' (packages are not available)"
    for key in PATH_KEYS:
        value = data.get(key)
        if value is None:
            continue
        values = value if isinstance(value, list) else [value]
        for item in values:
            if not isinstance(item, str) or not _relative_inside(item):
                return f"dbt_project.yml '{key}' must list relative paths inside the project"
    for key, default in _OUTPUT_DIRS.items():
        # dbt's output (partial_parse.msgpack, manifest.json) must land where the copies for
        # grading skip it: moved elsewhere, the agent's own parse state would reach grading
        value = data.get(key, default)
        if not isinstance(value, str) or Path(value).parts != (default,):
            return f"dbt_project.yml '{key}' must stay {default!r} (dbt's output directory)"
    return None


def _relative_inside(path: str) -> bool:
    if not path or path.startswith(("/", "\\", "~")) or ":" in path or "{" in path:
        return False
    return ".." not in Path(path).parts


def refused_project_file(relpath: str, size: int) -> str | None:
    """Why a file may not exist at ``relpath`` in an agent's project (or None).

    Checked when ``write_file`` writes it and again over the whole tree before every dbt call
    and before grading copies the project.
    """
    parts = Path(relpath).parts
    name = parts[-1] if parts else ""
    if not parts or any(part.startswith("..") or part in ("", ".") for part in parts):
        return f"{relpath}: not a plain relative path"
    if parts[0] == PACKAGES_DIR:
        return (
            f"{relpath}: dbt packages are not available here (nothing may live in {PACKAGES_DIR}/)"
        )
    if parts[0] in GENERATED_DIRS:
        return f"{relpath}: {parts[0]}/ is written by dbt, not by hand"
    if relpath.endswith(".py"):
        return f"{relpath}: Python files (dbt Python models) are not allowed"
    if name in KIT_MANAGED_FILES:
        return f"{relpath}: {name} is managed by the kit"
    if name == "dbt_project.yml" and len(parts) > 1:
        return f"{relpath}: only the project root may hold a dbt_project.yml"
    if size > MAX_PROJECT_FILE_BYTES:
        return f"{relpath}: file larger than {MAX_PROJECT_FILE_BYTES} bytes"
    return None


_MACRO_RE = re.compile(r"\{%-?\s*macro\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(")
_MATERIALIZATION_RE = re.compile(r"\{%-?\s*materialization\b")
_PATH_KEY_RE = re.compile(r"(path|paths|location|dir|directory|file|root)$", re.IGNORECASE)
_SQL_LOCATION_RE = re.compile(
    r"\b(?:external_)?location\s*=\s*['\"]\s*(?:/|~|\.\.|[A-Za-z]:\\\\|[a-z0-9+]+://)",
    re.IGNORECASE,
)


def _yaml_path_values(node: Any, key: str = "") -> list[tuple[str, str]]:
    """(key, value) of every string under a path-like key, anywhere in a YAML document.

    Each container is visited once per key it is reached under: YAML aliases make one loaded
    object appear many times, and a walk of the expanded tree is exponential in a few hundred
    bytes (``b: [*a, *a, …]`` nested nine deep: 9**9 leaves), a worker-freezing bomb the host
    would walk on every ``write_file``, dbt call and grading copy. The iterative stack also
    spares Python's recursion limit on deeply nested documents.
    """
    out: list[tuple[str, str]] = []
    seen: set[tuple[int, str]] = set()
    stack: list[tuple[Any, str]] = [(node, key)]
    while stack:
        item, item_key = stack.pop()
        if isinstance(item, dict | list):
            mark = (id(item), item_key if isinstance(item, list) else "")
            if mark in seen:
                continue
            seen.add(mark)
            if isinstance(item, dict):
                stack.extend((v, str(k)) for k, v in reversed(list(item.items())))
            else:
                stack.extend((v, item_key) for v in reversed(item))
        elif isinstance(item, str) and item_key and _PATH_KEY_RE.search(item_key.replace("-", "_")):
            out.append((item_key, item))
    return out


def refused_content(relpath: str, text: str) -> str | None:
    """Why the content of a project file is refused (or None).

    Macros may not redefine dbt's builtins (``ref``, ``source``, ``config``, ``run_query``, …):
    a project that rewrites what ``ref`` means can read or write what it likes. Custom
    materializations are refused for the same reason. Path-like settings anywhere (``location``,
    ``external_location``, ``*-path``, …) must stay relative and inside the project.
    """
    if relpath == "dbt_project.yml":
        return validate_dbt_project_yml(text)
    if relpath.endswith(".sql"):
        for match in _MACRO_RE.finditer(text):
            if match.group(1).lower() in PROTECTED_NAMES:
                return f"{relpath}: a macro may not redefine dbt's builtin {match.group(1)!r}"
        if _MATERIALIZATION_RE.search(text):
            return f"{relpath}: custom materializations are not allowed"
        if _SQL_LOCATION_RE.search(text):
            return f"{relpath}: a location outside the project is not allowed"
    if relpath.endswith((".yml", ".yaml")):
        try:
            documents = list(yaml.safe_load_all(text))
        except yaml.YAMLError as exc:
            return f"{relpath}: not valid YAML: {str(exc).splitlines()[0]}"
        except RecursionError:
            return f"{relpath}: YAML nested too deeply"
        for document in documents:
            for key, value in _yaml_path_values(document):
                if not _relative_inside(value) and not _looks_like_prose(value):
                    return f"{relpath}: {key} {value!r} must be a relative path inside the project"
    return None


def _looks_like_prose(value: str) -> bool:
    # "description"-like values under a path-ish key ("file: the orders file") are not paths
    return " " in value.strip() and not value.strip().startswith(("/", "~", "\\"))


def prepare_for_dbt(project_dir: Path) -> list[str]:
    """Make ``project_dir`` safe to hand to dbt; return why it is not (empty: it is).

    Removes ``dbt_packages/`` (dbt loads every directory there as a package, and a package may
    point its paths anywhere), then validates the whole tree.
    """
    shutil.rmtree(Path(project_dir) / PACKAGES_DIR, ignore_errors=True)
    return project_violations(project_dir)


def _walk_project(src: Path, dst: Path | None) -> list[str]:
    refused: list[str] = []
    src = Path(src)
    if dst is not None:
        dst.mkdir(parents=True, exist_ok=False)
    if not (src / "dbt_project.yml").is_file() or (src / "dbt_project.yml").is_symlink():
        refused.append("dbt_project.yml: the project root must hold a regular dbt_project.yml")
    n_files = total = 0
    for dirpath, dirnames, filenames in os.walk(src, followlinks=False):
        rel_dir = Path(dirpath).relative_to(src)
        keep = []
        for d in sorted(dirnames):
            full = Path(dirpath) / d
            if rel_dir == Path(".") and d in SKIP_PROJECT_DIRS and not full.is_symlink():
                continue  # build output: skipped, but the kit reads and writes there, so no link
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
            size = full.stat().st_size
            n_files += 1
            total += size
            why = refused_project_file(rel, size)
            if why is None and rel.endswith((".sql", ".yml", ".yaml")):
                why = refused_content(rel, full.read_text(encoding="utf-8", errors="replace"))
            if why is not None:
                refused.append(why)
                continue
            if dst is not None:
                shutil.copyfile(full, dst / rel)
    if n_files > MAX_PROJECT_FILES:
        refused.append(f"the project holds {n_files} files (at most {MAX_PROJECT_FILES})")
    if total > MAX_PROJECT_BYTES:
        refused.append(f"the project holds {total} bytes of files (at most {MAX_PROJECT_BYTES})")
    return refused


def copy_project_safely(src: Path, dst: Path) -> list[str]:
    """Copy a dbt project file by file, never following symlinks; return what was refused.

    Used for the grading rebuild, where the source is the agent's (untrusted) project.
    """
    return _walk_project(src, dst)


def project_violations(project_dir: Path) -> list[str]:
    """What in ``project_dir`` a dbt run must not see (the rules above, over the whole tree)."""
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
