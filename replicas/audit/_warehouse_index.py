"""A per-process index of every cell an agent's ``sql`` tool can read in a warehouse.

The leakage check asks, for ~130 tasks on a handful of snapshots, "does some table or view hold
this value / this set / these rows?". Scanning every relation per task would cost seconds each;
instead each warehouse is read once per process (every relation of every schema, views
included, since the sql tool can read them) into sorted numeric arrays and sets of distinct
case-folded strings per column, and every task's question becomes a few binary searches.

A numeric match is only *evidence* when it is unlikely by chance: an average order value of
85.23 sits in any column of 10 000 amounts. So a match also reports how crowded the column is
around the value: the number of other distinct values within ``window`` per step of the
answer's precision (``density``). A dense column (ids, amounts) matches anything; a sparse one
(30 monthly totals) matching to the cent is a precomputed answer.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from replicas.db import readonly_connection

_SKIP_SCHEMAS = ("information_schema", "pg_catalog")
_MAX_STRING_DISTINCT = 200_000


@dataclass(frozen=True)
class ColumnIndex:
    """The readable values of one column."""

    relation: str
    column: str
    rows: int
    numbers: np.ndarray | None  # sorted float64, no NULL/NaN
    strings: frozenset[str] | None  # distinct, stripped, case-folded
    n_distinct: int

    @property
    def where(self) -> str:
        return f"{self.relation}.{self.column}"


@dataclass(frozen=True)
class NumberHit:
    column: ColumnIndex
    cell: float
    others_nearby: int
    steps: float

    @property
    def density(self) -> float:
        return self.others_nearby / self.steps if self.steps > 0 else float("inf")


def _is_numeric(dtype: pa.DataType) -> bool:
    return bool(
        pa.types.is_integer(dtype) or pa.types.is_floating(dtype) or pa.types.is_decimal(dtype)
    )


def _is_textual(dtype: pa.DataType) -> bool:
    return bool(
        pa.types.is_string(dtype)
        or pa.types.is_large_string(dtype)
        or pa.types.is_date(dtype)
        or pa.types.is_timestamp(dtype)
    )


def _column_index(relation: str, name: str, array: pa.ChunkedArray) -> ColumnIndex | None:
    dtype = array.type
    rows = len(array)
    if _is_numeric(dtype):
        values = pc.cast(array, pa.float64()).to_numpy(zero_copy_only=False)
        values = values[np.isfinite(values)]
        values = np.sort(values)
        n_distinct = len(np.unique(values)) if len(values) else 0
        return ColumnIndex(relation, name, rows, values, None, n_distinct)
    if _is_textual(dtype):
        distinct = pc.unique(array.drop_null())
        if len(distinct) > _MAX_STRING_DISTINCT:
            return None
        if not (pa.types.is_string(dtype) or pa.types.is_large_string(dtype)):
            distinct = pc.cast(distinct, pa.string())
        texts = frozenset(str(v).strip().lower() for v in distinct.to_pylist())
        return ColumnIndex(relation, name, rows, None, texts, len(texts))
    return None


@dataclass(frozen=True)
class WarehouseIndex:
    path: str
    columns: tuple[ColumnIndex, ...]
    relations: tuple[str, ...]

    def numeric(self) -> Iterator[ColumnIndex]:
        return (c for c in self.columns if c.numbers is not None)

    def textual(self) -> Iterator[ColumnIndex]:
        return (c for c in self.columns if c.strings is not None)

    def number_hits(self, value: float, decimals: int, window: float) -> list[NumberHit]:
        """Columns holding ``value`` at ``decimals``, with the crowding around it."""
        step = 10.0**-decimals
        half = step / 2 * (1 + 1e-9)
        hits: list[NumberHit] = []
        for col in self.numeric():
            values = col.numbers
            if values is None:
                continue
            lo = int(np.searchsorted(values, value - half, side="left"))
            hi = int(np.searchsorted(values, value + half, side="right"))
            if hi <= lo:
                continue
            w_lo = int(np.searchsorted(values, value - window, side="left"))
            w_hi = int(np.searchsorted(values, value + window, side="right"))
            nearby = np.unique(np.round(values[w_lo:w_hi], decimals))
            others = int(np.sum(np.abs(nearby - round(value, decimals)) > half))
            hits.append(NumberHit(col, float(values[lo]), others, 2 * window / step))
        return hits

    def contains_number(self, col: ColumnIndex, value: float, decimals: int) -> bool:
        values = col.numbers
        if values is None:
            return False
        half = 10.0**-decimals / 2 * (1 + 1e-9)
        lo = int(np.searchsorted(values, value - half, side="left"))
        hi = int(np.searchsorted(values, value + half, side="right"))
        return hi > lo


def _relations(con: object) -> list[tuple[str, str]]:
    rows = con.execute(  # type: ignore[attr-defined]
        "select table_schema, table_name from information_schema.tables "
        "where table_catalog = current_database() order by 1, 2"
    ).fetchall()
    return [(str(s), str(t)) for s, t in rows if str(s) not in _SKIP_SCHEMAS]


def build_index(warehouse: Path) -> WarehouseIndex:
    """Read every relation of ``warehouse`` (read-only) into a :class:`WarehouseIndex`."""

    con = readonly_connection(Path(warehouse)).cursor()
    try:
        columns: list[ColumnIndex] = []
        relations: list[str] = []
        for schema, table in _relations(con):
            relation = f"{schema}.{table}"
            relations.append(relation)
            data = con.sql(f'select * from "{schema}"."{table}"').to_arrow_table()
            for name, array in zip(data.column_names, data.columns, strict=True):
                col = _column_index(relation, name, array)
                if col is not None:
                    columns.append(col)
    finally:
        con.close()
    return WarehouseIndex(str(warehouse), tuple(columns), tuple(relations))


_CACHE: dict[tuple[str, int, int], WarehouseIndex] = {}
_LOCK = threading.Lock()


def warehouse_index(warehouse: Path) -> WarehouseIndex:
    """The index of ``warehouse``, built once per process per file version."""
    resolved = Path(warehouse).resolve()
    stat = resolved.stat()
    key = (str(resolved), stat.st_ino, stat.st_mtime_ns)
    with _LOCK:
        cached = _CACHE.get(key)
    if cached is not None:
        return cached
    index = build_index(resolved)
    with _LOCK:
        for old in [k for k in _CACHE if k[0] == key[0]]:
            _CACHE.pop(old, None)
        _CACHE[key] = index
    return index
