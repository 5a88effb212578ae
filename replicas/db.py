"""Read-only DuckDB access: the kit's one locked-down configuration and a per-process pool.

A foundation module (imports nothing of the kit), so every layer — tasks, the audit, the sandbox,
the compliance catalog — opens snapshots the same way. DuckDB refuses a second connection to a
file with a different configuration in one process, so there must be exactly one.

Every connection agent SQL can reach has external access disabled and its configuration locked
(DuckDB enforces it even if a query slipped past the SQL tool's own checks).
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from pathlib import Path
from typing import Any

import duckdb

__all__ = [
    "SAFE_DUCKDB_CONFIG",
    "close_readonly_connections",
    "open_readonly",
    "readonly_connection",
]

SAFE_DUCKDB_CONFIG: dict[str, Any] = {
    "enable_external_access": False,
    "lock_configuration": True,
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "memory_limit": "2GB",
}

_RO_LOCK = threading.Lock()
_RO_CONNECTIONS: dict[tuple[str, int, int], duckdb.DuckDBPyConnection] = {}


def open_readonly(path: str | os.PathLike[str]) -> duckdb.DuckDBPyConnection:
    """A fresh read-only, locked-down connection to ``path`` (the caller closes it)."""
    return duckdb.connect(str(path), read_only=True, config=dict(SAFE_DUCKDB_CONFIG))


@functools.lru_cache(maxsize=256)
def _resolved(path: str) -> str:
    return str(Path(path).resolve())


def readonly_connection(path: str | os.PathLike[str]) -> duckdb.DuckDBPyConnection:
    """The shared read-only connection to ``path`` for this process (use a cursor per query).

    Keyed by the file's identity (path, inode, mtime) so a rebuilt snapshot is reopened.
    """
    resolved = _resolved(str(path))
    stat = os.stat(resolved)
    key = (resolved, stat.st_ino, stat.st_mtime_ns)
    with _RO_LOCK:
        con = _RO_CONNECTIONS.get(key)
        if con is None:
            for old in [k for k in _RO_CONNECTIONS if k[0] == key[0]]:
                with contextlib.suppress(Exception):
                    _RO_CONNECTIONS.pop(old).close()
            con = open_readonly(resolved)
            _RO_CONNECTIONS[key] = con
        return con


def close_readonly_connections() -> None:
    """Close every shared connection (before something must write or delete those files)."""
    with _RO_LOCK:
        for con in _RO_CONNECTIONS.values():
            with contextlib.suppress(Exception):
                con.close()
        _RO_CONNECTIONS.clear()
