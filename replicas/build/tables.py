"""The manifest's table fingerprints, computed through one connection and two threads.

Same hashes as :func:`replicas.warehouse.fingerprint_tables` (each table goes through
:func:`replicas.warehouse.table_fingerprint`), but the replay engine reuses its open connection
instead of reopening the file three times, and tables are hashed two at a time: DuckDB's sort and
Polars' CSV writer both release the GIL.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import duckdb

from replicas.warehouse import table_fingerprint

__all__ = ["fingerprint_schemas"]

_THREADS = max(1, min(2, os.cpu_count() or 1))


def _relations(con: duckdb.DuckDBPyConnection, schema: str, table_type: str | None) -> list[str]:
    # the query replicas.warehouse.list_relations runs
    rows = con.execute(
        "SELECT table_name FROM information_schema.tables"
        " WHERE table_schema = ? AND (? IS NULL OR table_type = ?) ORDER BY 1",
        [schema, table_type, table_type],
    ).fetchall()
    return [r[0] for r in rows]


def fingerprint_schemas(
    warehouse: Path,
    schemas: dict[str, str | None],
    con: duckdb.DuckDBPyConnection | None = None,
) -> dict[str, dict[str, dict[str, object]]]:
    """``{schema: {table: {rows, sha256}}}`` for every relation of each schema whose type matches
    ``schemas[schema]`` (``None``: any type). Uses ``con`` when given, else a read-only one."""
    own = con is None
    connection = duckdb.connect(str(warehouse), read_only=True) if con is None else con
    try:
        jobs = [
            (schema, name)
            for schema, table_type in schemas.items()
            for name in _relations(connection, schema, table_type)
        ]

        def one(job: tuple[str, str]) -> dict[str, object]:
            cursor = connection.cursor()
            try:
                cursor.execute("set enable_progress_bar = false")  # a per-connection setting
                return table_fingerprint(cursor, f'{job[0]}."{job[1]}"')
            finally:
                cursor.close()

        with ThreadPoolExecutor(_THREADS) as pool:
            prints = list(pool.map(one, jobs))
    finally:
        if own:
            connection.close()
    out: dict[str, dict[str, dict[str, object]]] = {schema: {} for schema in schemas}
    for (schema, name), fp in zip(jobs, prints, strict=True):
        out[schema][name] = fp
    return out
