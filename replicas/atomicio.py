"""Atomic file and directory publishing: the kit's one way to write an artifact.

Every artifact (manifest, trajectory, results, audit, export, report) is written to a temporary
file in the target's directory, flushed and fsynced, then renamed over the target, and the
directory entry is fsynced too. A crash or Ctrl-C leaves either the old file or the new one,
never half of either. A foundation module: it imports nothing of the kit.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = [
    "publish_dir",
    "remove_tree",
    "write_bytes_atomic",
    "write_json_atomic",
    "write_text_atomic",
]


def _fsync_dir(directory: Path) -> None:
    # Makes the rename itself durable; some file systems refuse to open a directory.
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_bytes_atomic(
    path: str | os.PathLike[str], data: bytes, *, mode: int | None = None
) -> Path:
    """Write ``data`` to ``path`` through a fsynced temp file and a rename; returns the path.

    Renaming replaces the directory entry rather than the old file's contents, so a hard link
    or open handle to the previous version never sees the new bytes.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".tmp-{target.name}-")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(target.parent)
    return target


def write_text_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """:func:`write_bytes_atomic` for UTF-8 text."""
    return write_bytes_atomic(path, text.encode("utf-8"))


def write_json_atomic(
    path: str | os.PathLike[str],
    data: Any,
    *,
    indent: int | None = 2,
    sort_keys: bool = False,
    default: Callable[[Any], Any] | None = None,
) -> Path:
    """Write ``data`` as JSON (strict: no NaN, UTF-8 kept) with a trailing newline, atomically.

    ``default`` converts values JSON cannot hold (e.g. ``str`` for paths and dates).
    """
    text = json.dumps(
        data,
        indent=indent,
        sort_keys=sort_keys,
        ensure_ascii=False,
        allow_nan=False,
        default=default,
    )
    return write_text_atomic(path, text + "\n")


def publish_dir(staged: str | os.PathLike[str], final: str | os.PathLike[str]) -> None:
    """Move the finished directory ``staged`` to ``final``, replacing what was there.

    The old directory is renamed aside first and deleted only once the new one is in place; if
    the swap fails, the old one is put back.
    """
    staged, final = Path(staged), Path(final)
    old: Path | None = None
    if final.exists():
        old = final.with_name(f".old-{final.name}-{uuid.uuid4().hex[:8]}")
        os.replace(final, old)
    try:
        os.replace(staged, final)
    except BaseException:
        if old is not None:
            os.replace(old, final)
        raise
    _fsync_dir(final.parent)
    if old is not None:
        remove_tree(old)


def remove_tree(path: str | os.PathLike[str]) -> None:
    """Delete ``path`` (missing is fine), even when it was published read-only (0555/0444)."""

    def _make_writable_and_retry(func: Any, target: str, _exc_info: Any) -> None:
        with contextlib.suppress(OSError):
            os.chmod(os.path.dirname(target), 0o755)
            if not os.path.islink(target):
                os.chmod(target, 0o755)
        with contextlib.suppress(OSError):
            func(target)

    if os.path.lexists(path):
        # ``onerror`` rather than 3.12's ``onexc``: the kit supports Python 3.11.
        shutil.rmtree(path, onerror=_make_writable_and_retry)
