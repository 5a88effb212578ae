"""Per-table random streams.

Every table (and every independent stream inside one) draws from its own
``numpy.random.Generator`` seeded from ``(seed, name, *salt)``. Adding a column to one table
therefore never shifts the values of another, and nothing touches a global RNG.
"""

from __future__ import annotations

import hashlib

import numpy as np


def stream_key(*parts: str | int) -> list[int]:
    """A stable list of 32-bit words derived from ``parts`` (independent of PYTHONHASHSEED)."""
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).digest()
    return [int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4)]


def table_rng(seed: int, table: str, *salt: str | int) -> np.random.Generator:
    """The random stream for ``table`` (optionally a sub-stream named by ``salt``) under ``seed``."""
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    return np.random.default_rng(np.random.SeedSequence([seed, *stream_key(table, *salt)]))
