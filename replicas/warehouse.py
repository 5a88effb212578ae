"""Load generated tables into DuckDB and fingerprint tables canonically.

Loading goes through Arrow (one zero-copy registration per table, text as Polars' own string
views), never row inserts or CSV.

The content hash (:data:`TABLE_HASH_FORMAT`) orders rows by every column and hashes each column's
values in that order as little-endian bytes, so it is independent of physical row order, thread
count, Arrow batch sizes and DuckDB's storage layout: two builds of one key compare byte for
byte, in any process on any machine. Per column, three sha256 streams: the values (integers,
dates, times and timestamps as their little-endian integers, decimals and HUGEINTs as 16-byte
two's complement, booleans as one byte, text and blobs as their bytes; a NULL contributes a zero
value or no bytes), the byte length of every text or blob value (4 bytes each), and the row
numbers of its NULLs (8 bytes each). Doubles are rounded to 10 decimal places first, as the CSV
rendering this hash replaced wrote them (last-bit noise of a parallel float sum does not count),
``-0.0`` counts as ``0.0`` and every NaN as one NaN. Types without a fixed layout (lists,
structs, enums, intervals, UUIDs, ...) are hashed as their DuckDB text rendering. The table's
digest is sha256 over the format tag, the header (``name:TYPE`` of every column), the row count
and every column's three digests. Only ``hashlib`` and NumPy compute it, never an engine's
internal hash (DuckDB's ``hash()`` and Polars' row hashes may change between releases).
"""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import duckdb
import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

RAW_SCHEMA = "raw"
#: Names the byte layout a table's ``sha256`` is computed over (part of the hashed bytes).
TABLE_HASH_FORMAT = "replicas-table-v2"
_HASH_CHUNK_ROWS = 200_000
#: DuckDB types hashed from their Arrow buffers; any other type is hashed as its text rendering.
_NATIVE_TYPE = re.compile(
    r"^(BOOLEAN|TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT"
    r"|FLOAT|DOUBLE|DATE|TIME|TIMESTAMP(_S|_MS|_NS)?|TIMESTAMP WITH TIME ZONE|DECIMAL\(\d+,\d+\)"
    r"|VARCHAR|BLOB)$"
)
#: Doubles at or above this magnitude have no digits below 1e-10 to round away.
_ROUND_BELOW = 1e15
_LITTLE = sys.byteorder == "little"


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
            # Polars' own string layout (Arrow string views) as is: no copy into offset strings
            arrow = frame.to_arrow(compat_level=pl.CompatLevel.newest())
            con.register("_incoming", arrow)
            con.execute(f'CREATE TABLE {RAW_SCHEMA}."{name}" AS SELECT * FROM _incoming')
            con.unregister("_incoming")
            counts[name] = frame.height
        con.execute("CHECKPOINT")
    finally:
        con.close()
    return counts


def hashed_natively(duckdb_type: str) -> bool:
    """Whether :class:`TableHasher` hashes a column of ``duckdb_type`` from its Arrow buffers
    (else from its text rendering)."""
    return _NATIVE_TYPE.match(duckdb_type) is not None


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class TableHasher:
    """The :data:`TABLE_HASH_FORMAT` digest of one table, fed its rows in canonical order.

    ``columns`` are ``(name, DuckDB type)`` pairs as ``DESCRIBE`` gives them; select the rows
    with :meth:`select_list` (it renders non-native types as text) and pass every Arrow batch,
    in order, to :meth:`update`. Batch boundaries do not change the digest.
    """

    def __init__(self, columns: list[tuple[str, str]]) -> None:
        self.columns = columns
        self.header = ("|".join(f"{name}:{kind}" for name, kind in columns) + "\n").encode()
        self.rows = 0
        #: per column: its values, its text lengths, the row numbers of its NULLs
        self._streams = [(hashlib.sha256(), hashlib.sha256(), hashlib.sha256()) for _ in columns]

    def select_list(self) -> str:
        """The SELECT list whose rows :meth:`update` expects."""
        out = []
        for name, kind in self.columns:
            column = _quote(name)
            out.append(
                column if hashed_natively(kind) else f"CAST({column} AS VARCHAR) AS {column}"
            )
        return ", ".join(out)

    def update(self, batch: pa.RecordBatch) -> None:
        if batch.num_columns != len(self.columns):
            raise ValueError(f"expected {len(self.columns)} columns, got {batch.num_columns}")
        for i in range(batch.num_columns):
            _hash_column(batch.column(i), self.rows, *self._streams[i])
        self.rows += batch.num_rows

    def update_columns(self, rows: int, columns: Iterable[pa.Array | pa.ChunkedArray]) -> None:
        """Feed ``rows`` rows given column by column (every column in order, each ``rows`` long):
        a caller can build each column only when it is hashed."""
        count = 0
        for count, (column, streams) in enumerate(zip(columns, self._streams, strict=True), 1):
            chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
            first_row = self.rows
            for chunk in chunks:
                _hash_column(chunk, first_row, *streams)
                first_row += len(chunk)
            if first_row != self.rows + rows:
                raise ValueError(f"column {count} has {first_row - self.rows} rows, not {rows}")
        if count != len(self.columns):
            raise ValueError(f"expected {len(self.columns)} columns, got {count}")
        self.rows += rows

    def hexdigest(self) -> str:
        digest = hashlib.sha256(TABLE_HASH_FORMAT.encode() + b"\n" + self.header)
        digest.update(self.rows.to_bytes(8, "little"))
        for streams in self._streams:
            digest.update(b"".join(stream.digest() for stream in streams))
        return digest.hexdigest()


def _fixed_width(array: pa.Array, width: int) -> np.ndarray:
    """The values buffer of a fixed-width ``array`` as little-endian unsigned integers
    (``width`` 16: pairs of 8-byte words, low word first), a view where possible."""
    buffer = array.buffers()[1]
    assert buffer is not None
    start, n = array.offset, len(array)
    if width == 16:
        words = np.frombuffer(buffer, dtype=np.uint64)[2 * start : 2 * (start + n)].reshape(n, 2)
        return words if _LITTLE else words[:, ::-1].byteswap()
    values = np.frombuffer(buffer, dtype=np.dtype(f"=u{width}"))[start : start + n]
    return values if _LITTLE else values.astype(f"<u{width}")


def _lengths(array: pa.Array) -> np.ndarray:
    """Byte length of every value of a string or binary ``array`` (from its slice's offsets)."""
    wide = pa.types.is_large_string(array.type) or pa.types.is_large_binary(array.type)
    offsets = np.frombuffer(array.buffers()[1], dtype=np.int64 if wide else np.int32)
    return np.diff(offsets[array.offset : array.offset + len(array) + 1])


def _hash_column(
    array: pa.Array,
    first_row: int,
    values: hashlib._Hash,
    lengths_out: hashlib._Hash,
    nulls: hashlib._Hash,
) -> None:
    n = len(array)
    if n == 0:
        return
    valid: np.ndarray | None = None
    if array.null_count:
        valid = pc.is_valid(array).to_numpy(zero_copy_only=False)
        nulls.update((np.flatnonzero(~valid) + first_row).astype("<i8").tobytes())
    kind = array.type
    if pa.types.is_boolean(kind):
        if valid is not None:
            array = pc.fill_null(array, False)
        values.update(array.to_numpy(zero_copy_only=False).view(np.uint8).tobytes())
    elif (
        pa.types.is_string(kind)
        or pa.types.is_large_string(kind)
        or pa.types.is_string_view(kind)
        or pa.types.is_binary(kind)
        or pa.types.is_large_binary(kind)
        or pa.types.is_binary_view(kind)
    ):
        text = (
            pa.types.is_string(kind)
            or pa.types.is_large_string(kind)
            or pa.types.is_string_view(kind)
        )
        if pa.types.is_string_view(kind) or pa.types.is_binary_view(kind):
            array = array.cast(pa.large_string() if text else pa.large_binary())
        lengths = _lengths(array)
        if valid is not None and lengths[~valid].any():  # a NULL slot holding bytes: drop them
            array = pc.fill_null(array, "" if text else b"")
            lengths = _lengths(array)
        lengths_out.update(lengths.astype("<u4").tobytes())
        wide = pa.types.is_large_string(array.type) or pa.types.is_large_binary(array.type)
        offsets = np.frombuffer(array.buffers()[1], dtype=np.int64 if wide else np.int32)
        start, end = int(offsets[array.offset]), int(offsets[array.offset + n])
        data = array.buffers()[2]
        if data is not None and end > start:
            values.update(memoryview(data)[start:end])
    elif pa.types.is_floating(kind):
        floats = _fixed_width(array, kind.bit_width // 8).view(f"<f{kind.bit_width // 8}")
        floats = floats.astype("<f8")
        floats = np.where(np.abs(floats) < _ROUND_BELOW, np.round(floats, 10), floats) + 0.0
        floats[np.isnan(floats)] = np.nan
        if valid is not None:
            floats[~valid] = 0.0
        values.update(floats.tobytes())
    elif (
        pa.types.is_integer(kind) or pa.types.is_decimal128(kind) or pa.types.is_temporal(kind)
    ) and kind.bit_width in (8, 16, 32, 64, 128):
        raw = _fixed_width(array, kind.bit_width // 8)
        if valid is not None:
            raw = raw.copy()
            raw[~valid] = 0
        values.update(np.ascontiguousarray(raw).tobytes())
    else:
        raise TypeError(f"no canonical byte layout for Arrow type {kind}")


def _describe(con: duckdb.DuckDBPyConnection, qualified: str) -> list[tuple[str, str]]:
    return [(str(c[0]), str(c[1])) for c in con.execute(f"DESCRIBE {qualified}").fetchall()]


def table_fingerprint(con: duckdb.DuckDBPyConnection, qualified: str) -> dict[str, object]:
    """Row count and sha256 of ``qualified`` (``schema.table``) under a canonical row ordering
    (``ORDER BY ALL``), in the :data:`TABLE_HASH_FORMAT` layout (module docstring)."""
    hasher = TableHasher(_describe(con, qualified))
    sql = f"SELECT {hasher.select_list()} FROM {qualified} ORDER BY ALL"
    for batch in con.sql(sql).to_arrow_reader(_HASH_CHUNK_ROWS):
        hasher.update(batch)
    return {"rows": hasher.rows, "sha256": hasher.hexdigest()}


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
