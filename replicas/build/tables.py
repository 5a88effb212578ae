"""The manifest's table fingerprints, computed through one connection and two threads.

The same digests as :func:`replicas.warehouse.table_fingerprint` — the
:data:`~replicas.warehouse.TABLE_HASH_FORMAT` hash (every column's values as little-endian bytes,
rows in ``ORDER BY ALL`` order) — computed with less work:

* **No sort when the rows are already in that order, a key-only sort otherwise.** When a
  table's first column is an integer, date or timestamp that is never NULL and unique, rows
  ordered by it are ordered by every column: ``ORDER BY ALL`` can only return that order. The
  table is read in storage order; generated raw tables are stored that way (``customer_id``
  1…n, ``event_id`` 1…n, …) and are hashed as read, any other such table through the
  permutation that sorts that one column (NumPy), instead of DuckDB sorting every column of
  every row. A table whose first column is no such key is sorted by DuckDB: by its first column
  alone when that is unique and never NULL (``count(DISTINCT)``), else by every column.

The replay engine's open connection is reused instead of reopening the file, and tables are
hashed two at a time: DuckDB, pyarrow, NumPy and ``hashlib`` release the GIL.
"""

from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa

from replicas.warehouse import TableHasher, hashed_natively

__all__ = ["fingerprint_schemas", "fingerprint_table"]

_THREADS = max(1, min(2, os.cpu_count() or 1))
#: Rows per Arrow batch (the batch size only changes how the same bytes are fed to sha256).
_CHUNK_ROWS = 200_000
#: First-column types whose order is their Arrow integer order (numbers and instants, no text
#: or floats: collations and NaN would need care that the fallback gives for free), with the
#: NumPy type of their Arrow values.
_ORDERED_KEY = re.compile(
    r"^(TINYINT|SMALLINT|INTEGER|BIGINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|DATE"
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


def _key_values(array: pa.Array) -> np.ndarray | None:
    """``array``'s values as NumPy integers in their sort order; ``None`` if it holds a NULL."""
    if array.null_count:
        return None
    kind = array.type
    if pa.types.is_timestamp(kind) or pa.types.is_date64(kind):
        array = array.view(pa.int64())
    elif pa.types.is_date32(kind):
        array = array.view(pa.int32())
    return array.to_numpy(zero_copy_only=False)


def _key_order(table: pa.Table) -> tuple[bool, np.ndarray | None]:
    """Whether ``table``'s first column is a non-NULL unique key, and the permutation that
    sorts the rows by it (``None``: they already are)."""
    key = _key_values(table.column(0).combine_chunks())
    if key is None:
        return False, None
    if key.size < 2 or bool(np.all(key[1:] > key[:-1])):
        return True, None
    order = np.argsort(key, kind="stable")
    ordered = key[order]
    return bool(np.all(ordered[1:] > ordered[:-1])), order


def fingerprint_table(con: duckdb.DuckDBPyConnection, qualified: str) -> dict[str, object]:
    """Row count and sha256 of ``qualified`` (``schema."table"``): the very value
    :func:`replicas.warehouse.table_fingerprint` gives, found with less work (module docstring)."""
    columns = [(str(c[0]), str(c[1])) for c in con.execute(f"DESCRIBE {qualified}").fetchall()]
    hasher = TableHasher(columns)
    select = f"SELECT {hasher.select_list()} FROM {qualified}"
    first, first_type = columns[0]
    if _ORDERED_KEY.match(first_type):
        # Rows ordered by a unique key are ordered by every column: sort by that key here
        # (a permutation of the key alone) instead of making DuckDB sort every column.
        table = con.sql(select).to_arrow_table()
        unique, order = _key_order(table)
        if unique:
            if order is None:
                hasher.update_columns(table.num_rows, table.columns)
            else:
                indices = pa.array(order)
                hasher.update_columns(table.num_rows, (c.take(indices) for c in table.columns))
            return {"rows": hasher.rows, "sha256": hasher.hexdigest()}
        del table
    order_by = "ALL"
    if len(columns) > 1:
        total, distinct = con.execute(
            f"SELECT count(*), count(DISTINCT {_q(first)}) FROM {qualified}"
        ).fetchall()[0]
        # count(DISTINCT) skips NULLs: equal counts mean none, no repeats. A column hashed as
        # text keeps the full sort (two values might render alike and tie).
        if total == distinct and hashed_natively(first_type):
            order_by = "1"
    for batch in con.sql(f"{select} ORDER BY {order_by}").to_arrow_reader(_CHUNK_ROWS):
        hasher.update(batch)
    return {"rows": hasher.rows, "sha256": hasher.hexdigest()}


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
