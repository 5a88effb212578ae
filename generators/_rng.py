"""Deprecated location of :mod:`replicas.seeding` (kept until the compliance evalset moves)."""

from replicas.seeding import stream_key, table_rng

__all__ = ["stream_key", "table_rng"]
