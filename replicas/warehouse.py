"""Load generated tables into DuckDB and fingerprint tables canonically.

Loading goes through Arrow (one zero-copy registration per table), never row inserts. The content
hash orders rows by every column and hashes a CSV rendering, so it is independent of physical row
order, thread count and DuckDB's storage layout, and two builds of one key compare byte for byte.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import cast

import duckdb
import polars as pl

RAW_SCHEMA = "raw"
_HASH_CHUNK_ROWS = 200_000


def load_raw_tables(warehouse: Path, tables: Mapping[str, pl.DataFrame]) -> dict[str, int]:
    """Create ``warehouse`` (must not exist) with every table in schema ``raw``; return row counts."""
    if Path(warehouse).exists():
        raise FileExistsError(f"refusing to load into an existing warehouse: {warehouse}")
    counts: dict[str, int] = {}
    con = duckdb.connect(str(warehouse))
    try:
        con.execute(f"CREATE SCHEMA {RAW_SCHEMA}")
        for name, frame in tables.items():
            if not name.isidentifier():
                raise ValueError(f"table name must be an identifier, got {name!r}")
            arrow = frame.to_arrow()
            con.register("_incoming", arrow)
            con.execute(f'CREATE TABLE {RAW_SCHEMA}."{name}" AS SELECT * FROM _incoming')
            con.unregister("_incoming")
            counts[name] = frame.height
        con.execute("CHECKPOINT")
    finally:
        con.close()
    return counts


def table_fingerprint(con: duckdb.DuckDBPyConnection, qualified: str) -> dict[str, object]:
    """Row count and sha256 of ``qualified`` (``schema.table``) under a canonical row ordering."""
    digest = hashlib.sha256()
    columns = con.execute(f"DESCRIBE {qualified}").fetchall()
    digest.update(("|".join(f"{c[0]}:{c[1]}" for c in columns) + "\n").encode())
    rows = 0
    reader = con.sql(f"SELECT * FROM {qualified} ORDER BY ALL").to_arrow_reader(_HASH_CHUNK_ROWS)
    for batch in reader:
        frame = cast(pl.DataFrame, pl.from_arrow(batch))
        rows += frame.height
        digest.update(frame.write_csv(include_header=False, float_precision=10).encode())
    return {"rows": rows, "sha256": digest.hexdigest()}


def fingerprint_tables(warehouse: Path, tables: Mapping[str, list[str]]) -> dict[str, dict]:
    """Fingerprints for ``{schema: [table, ...]}`` in a read-only connection."""
    out: dict[str, dict] = {}
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        for schema, names in tables.items():
            out[schema] = {name: table_fingerprint(con, f'{schema}."{name}"') for name in names}
    finally:
        con.close()
    return out


def list_relations(warehouse: Path, schema: str, *, table_type: str | None = None) -> list[str]:
    """Relation names in ``schema`` (optionally only ``BASE TABLE`` or ``VIEW``), sorted."""
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        rows = con.execute(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = ? AND (? IS NULL OR table_type = ?) ORDER BY 1",
            [schema, table_type, table_type],
        ).fetchall()
    finally:
        con.close()
    return [r[0] for r in rows]
