"""Immutable trees: read-only permissions and a sha256 record of every file.

A published snapshot (and a compiled project) is made read-only on disk (files 0444, dirs 0555)
and carries ``integrity.json``: the sha256 of every other file in it. ``manifest.json`` cannot hold
these hashes because it must stay byte-identical across builds of one key, while DuckDB's file
bytes may differ from build to build.

Verification is memoised per process on each file's (path, inode, size, mtime_ns, ctime_ns):
any write, rename or ``chmod`` changes the ctime (which no user can set back), so a second check
of an untouched tree costs only a directory walk and stats.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import threading
from pathlib import Path
from typing import Any

__all__ = [
    "INTEGRITY",
    "hash_tree",
    "make_read_only",
    "make_writable",
    "verify_tree",
    "write_integrity",
]

INTEGRITY = "integrity.json"
INTEGRITY_SCHEMA_VERSION = 1
_CHUNK = 1 << 20

FileStat = tuple[str, int, int, int, int]
_MEMO_LOCK = threading.Lock()
_MEMO: dict[str, tuple[tuple[FileStat, ...], tuple[str, ...]]] = {}


def _files(root: Path) -> list[str]:
    """Relative POSIX paths of every non-directory entry under ``root``, sorted."""
    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames.sort()
        rel_dir = os.path.relpath(dirpath, root)
        for name in filenames:
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            out.append(rel.replace(os.sep, "/"))
    return sorted(out)


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def hash_tree(root: Path) -> dict[str, str]:
    """sha256 of every file under ``root`` except ``integrity.json`` itself."""
    return {rel: file_sha256(root / rel) for rel in _files(root) if rel != INTEGRITY}


def write_integrity(root: Path) -> dict[str, str]:
    """Record :func:`hash_tree` of ``root`` in ``root/integrity.json``; return the hashes."""
    files = hash_tree(root)
    doc = {"schema_version": INTEGRITY_SCHEMA_VERSION, "algorithm": "sha256", "files": files}
    (root / INTEGRITY).write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")
    return files


def _stats(root: Path) -> tuple[FileStat, ...]:
    out: list[FileStat] = []
    for rel in _files(root):
        st = os.lstat(root / rel)
        out.append((rel, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
    return tuple(out)


def _check(root: Path) -> list[str]:
    try:
        doc: Any = json.loads((root / INTEGRITY).read_text())
        recorded = doc["files"]
        if doc.get("algorithm") != "sha256" or not isinstance(recorded, dict):
            raise ValueError("unknown integrity format")
    except FileNotFoundError:
        return [f"{INTEGRITY} is missing"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return [f"{INTEGRITY} is unreadable: {exc}"]
    problems: list[str] = []
    present = set(_files(root)) - {INTEGRITY}
    for rel in sorted(set(recorded) - present):
        problems.append(f"{rel}: missing")
    for rel in sorted(present - set(recorded)):
        problems.append(f"{rel}: not part of the published tree")
    for rel in sorted(present & set(recorded)):
        path = root / rel
        if path.is_symlink() or not path.is_file():
            problems.append(f"{rel}: not a regular file")
        elif file_sha256(path) != recorded[rel]:
            problems.append(f"{rel}: content changed (sha256 differs)")
    return problems


def verify_tree(root: Path) -> list[str]:
    """Problems found comparing ``root`` with its ``integrity.json`` (empty: intact)."""
    root = Path(root)
    key = str(root.resolve())
    try:
        before = _stats(root)
    except OSError as exc:
        return [f"cannot read {root}: {exc}"]
    with _MEMO_LOCK:
        memo = _MEMO.get(key)
    if memo is not None and memo[0] == before:
        return list(memo[1])
    problems = _check(root)
    with contextlib.suppress(OSError):
        # Only memoise when nothing moved while we hashed; otherwise the next call looks again.
        if _stats(root) == before:
            with _MEMO_LOCK:
                _MEMO[key] = (before, tuple(problems))
    return problems


def make_read_only(root: Path) -> None:
    """Files 0444, directories 0555, deepest first (so the walk can still list them)."""
    for dirpath, dirnames, filenames in os.walk(root, topdown=False, followlinks=False):
        for name in filenames:
            path = os.path.join(dirpath, name)
            if not os.path.islink(path):
                os.chmod(path, 0o444)
        for name in dirnames:
            path = os.path.join(dirpath, name)
            if not os.path.islink(path):
                os.chmod(path, 0o555)
    os.chmod(root, 0o555)


def make_writable(root: Path) -> None:
    """Undo :func:`make_read_only` (owner may write again), parents before children."""
    if not os.path.isdir(root):
        return
    os.chmod(root, 0o755)
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in dirnames:
            path = os.path.join(dirpath, name)
            if not os.path.islink(path):
                os.chmod(path, 0o755)
        for name in filenames:
            path = os.path.join(dirpath, name)
            if not os.path.islink(path):
                os.chmod(path, stat.S_IMODE(os.lstat(path).st_mode) | 0o200)
