"""Path confinement for the file tools: everything stays inside the sandbox's dbt project.

Refused: absolute paths, ``~``, ``..``, NUL bytes, and any symlink on the way (even one pointing
inside — a sandbox has no reason to contain links, and refusing them closes every escape).
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath


class PathRefused(ValueError):
    """The path leaves the project or crosses a symlink."""


def resolve_in_project(project_dir: Path, path: str) -> Path:
    """The absolute path of ``path`` inside ``project_dir`` (which need not exist yet)."""
    raw = (path or ".").strip()
    if "\x00" in raw:
        raise PathRefused("path contains a NUL byte")
    if raw.startswith(("/", "\\", "~")) or (len(raw) > 1 and raw[1] == ":"):
        raise PathRefused(f"{path!r}: use a path relative to the dbt project root")
    parts = PurePosixPath(raw.replace("\\", "/")).parts
    if ".." in parts:
        raise PathRefused(f"{path!r}: '..' is not allowed; paths stay inside the dbt project")
    root = Path(project_dir).resolve()
    current = root
    for part in parts:
        if part in ("", "."):
            continue
        current = current / part
        if current.is_symlink():
            raise PathRefused(f"{path!r}: symlinks are not allowed")
    resolved = current.resolve()
    if resolved != root and root not in resolved.parents:
        raise PathRefused(f"{path!r} resolves outside the dbt project")
    return resolved


def relative(project_dir: Path, path: Path) -> str:
    rel = path.relative_to(Path(project_dir).resolve()).as_posix()
    return rel or "."
