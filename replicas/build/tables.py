"""The manifest's table fingerprints, computed through one connection and two threads.

The same hashes as :func:`replicas.warehouse.table_fingerprint` — sha256 of the column header
and a CSV rendering of the rows in ``ORDER BY ALL`` order — computed with less work:

* **No sort when the rows are already in that order.** A table whose first column is an integer,
  date or timestamp key, never NULL and strictly increasing in storage order is already sorted
  by every column: ``ORDER BY ALL`` can only return that order. Generated raw tables are stored
  that way (``customer_id`` 1…n, ``event_id`` 1…n, …). The check runs on the rows as they are
  hashed; a table that fails it (a mart, a table keyed by text) is hashed again in sorted order,
  so the answer never depends on it.
* **A cheaper sort when the first column is a key.** When a table's first column is unique and
  never NULL, ``ORDER BY`` that column alone gives the order ``ORDER BY ALL`` gives, without
  comparing every column.
* **Fewer copies.** Each batch's CSV is written into a reused byte buffer and hashed from there,
  not built as a ``str`` and encoded again.

The replay engine's open connection is reused instead of reopening the file, and tables are
hashed two at a time: DuckDB, Polars' CSV writer and ``hashlib`` all release the GIL.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import cast

import duckdb
import polars as pl

__all__ = ["fingerprint_schemas", "fingerprint_table"]

_THREADS = max(1, min(2, os.cpu_count() or 1))
#: Rows per Arrow batch (the batch size only changes how the same bytes are fed to sha256).
_CHUNK_ROWS = 200_000
#: First-column types whose DuckDB order is Polars' order (numbers and instants, no text or
#: floats: collations and NaN would need care that the fallback gives for free).
_ORDERED_KEY = re.compile(
    r"^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|DATE"
    r"|TIMESTAMP(_S|_MS|_NS)?|TIMESTAMP WITH TIME ZONE)$"
)


def _relations(con: duckdb.DuckDBPyConnection, schema: str, table_type: str | None) -> list[str]:
    # the query replicas.warehouse.list_relations runs
    rows = con.execute(
        "SELECT table_name FROM information_schema.tables"
        " WHERE table_schema = ? AND (? IS NULL OR table_type = ?) ORDER BY 1",
        [schema, table_type, table_type],
    ).fetchall()
    return [r[0] for r in rows]


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _hash_rows(
    con: duckdb.DuckDBPyConnection, sql: str, header: bytes, check_key: str | None
) -> tuple[int, str] | None:
    """(rows, sha256) of ``header`` and the CSV of ``sql``'s rows; ``None`` when ``check_key``
    is given and that column is not non-NULL and strictly increasing over the rows."""
    digest = hashlib.sha256(header)
    rows = 0
    previous = None
    buffer = io.BytesIO()
    for batch in con.sql(sql).to_arrow_reader(_CHUNK_ROWS):
        frame = cast(pl.DataFrame, pl.from_arrow(batch))
        if frame.height == 0:
            continue
        if check_key is not None:
            key = frame[check_key]
            if key.null_count() or (previous is not None and not key[0] > previous):
                return None
            if frame.height > 1 and not (key.slice(1) > key.slice(0, frame.height - 1)).all():
                return None
            previous = key[-1]
        rows += frame.height
        buffer.seek(0)
        buffer.truncate()
        frame.write_csv(buffer, include_header=False, float_precision=10)
        digest.update(buffer.getbuffer())
    return rows, digest.hexdigest()


def fingerprint_table(con: duckdb.DuckDBPyConnection, qualified: str) -> dict[str, object]:
    """Row count and sha256 of ``qualified`` (``schema."table"``): the very value
    :func:`replicas.warehouse.table_fingerprint` gives, found with less work (module docstring)."""
    columns = con.execute(f"DESCRIBE {qualified}").fetchall()
    header = ("|".join(f"{c[0]}:{c[1]}" for c in columns) + "\n").encode()
    first, first_type = str(columns[0][0]), str(columns[0][1])
    if _ORDERED_KEY.match(first_type):
        found = _hash_rows(con, f"SELECT * FROM {qualified}", header, check_key=first)
        if found is not None:
            return {"rows": found[0], "sha256": found[1]}
    order = "ALL"
    if len(columns) > 1:
        total, distinct = con.execute(
            f"SELECT count(*), count(DISTINCT {_q(first)}) FROM {qualified}"
        ).fetchall()[0]
        if total == distinct:  # count(DISTINCT) skips NULLs: equal counts mean none, no repeats
            order = _q(first)
    found = _hash_rows(con, f"SELECT * FROM {qualified} ORDER BY {order}", header, None)
    assert found is not None  # no key check asked
    return {"rows": found[0], "sha256": found[1]}


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
                return fingerprint_table(cursor, f'{job[0]}."{job[1]}"')
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
