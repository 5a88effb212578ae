"""The synthesis schema of an imported dbt project: raw tables, their columns and constraints.

``ImportSpec`` is what ``replicas import dbt`` writes beside the copied project
(``$REPLICAS_HOME/imports/NAME/replica.json``) and what the generator reads: every raw table the
project reads (a source table, or a seed used as raw data), each column's DuckDB type and the
constraints the project's data tests put on it (traced back from the models the tests are
attached to), plus row-level checks (``expression_is_true``) over raw column names.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

__all__ = [
    "SPEC_SCHEMA_VERSION",
    "ColumnSpec",
    "ImportSpec",
    "TableSpec",
    "duckdb_type",
    "type_from_name",
]

SPEC_SCHEMA_VERSION = 1
NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")

#: dbt ``data_type`` spellings (any warehouse) → the DuckDB type the generator emits.
_TYPE_ALIASES: dict[str, str] = {
    "int": "INTEGER",
    "int4": "INTEGER",
    "integer": "INTEGER",
    "smallint": "INTEGER",
    "tinyint": "INTEGER",
    "int8": "BIGINT",
    "bigint": "BIGINT",
    "hugeint": "BIGINT",
    "number": "DOUBLE",
    "numeric": "DOUBLE",
    "decimal": "DOUBLE",
    "float": "DOUBLE",
    "float4": "DOUBLE",
    "float8": "DOUBLE",
    "double": "DOUBLE",
    "double precision": "DOUBLE",
    "real": "DOUBLE",
    "money": "DOUBLE",
    "text": "VARCHAR",
    "string": "VARCHAR",
    "varchar": "VARCHAR",
    "char": "VARCHAR",
    "character varying": "VARCHAR",
    "uuid": "VARCHAR",
    "bool": "BOOLEAN",
    "boolean": "BOOLEAN",
    "date": "DATE",
    "timestamp": "TIMESTAMP",
    "datetime": "TIMESTAMP",
    "timestamp_ntz": "TIMESTAMP",
    "timestamp without time zone": "TIMESTAMP",
    "timestamptz": "TIMESTAMP",
    "timestamp_tz": "TIMESTAMP",
    "timestamp with time zone": "TIMESTAMP",
}
SUPPORTED_TYPES = ("INTEGER", "BIGINT", "DOUBLE", "VARCHAR", "BOOLEAN", "DATE", "TIMESTAMP")


def duckdb_type(declared: str) -> str | None:
    """The generator's type for a declared ``data_type`` (None when it is not one we synthesise)."""
    text = re.sub(r"\(.*\)", "", declared.strip().lower()).strip()
    return _TYPE_ALIASES.get(text)


def type_from_name(column: str) -> str:
    """A type guessed from a column's name, when neither YAML nor a CSV states one."""
    name = column.lower()
    if name.endswith("_at") or name.endswith("_ts") or name in {"timestamp", "created", "updated"}:
        return "TIMESTAMP"
    if name.endswith("_date") or name in {"date", "day"}:
        return "DATE"
    if name.startswith(("is_", "has_")):
        return "BOOLEAN"
    if name == "id" or name.endswith("_id") or name.endswith("_count") or name in _INT_WORDS:
        return "INTEGER"
    if any(word in name for word in _MONEY_WORDS) or name.endswith(("_pct", "_rate", "_ratio")):
        return "DOUBLE"
    return "VARCHAR"


_INT_WORDS = {"quantity", "qty", "units", "seats", "count", "age", "rank", "position", "year"}
_MONEY_WORDS = ("amount", "price", "cost", "total", "revenue", "fee", "tax", "balance", "value")

Scalar = str | int | float | bool


@dataclass(frozen=True)
class ColumnSpec:
    """One raw column: its type and what the project's tests require of it."""

    name: str
    type: str
    not_null: bool = False
    unique: bool = False
    values: tuple[Scalar, ...] = ()
    references: tuple[str, str] | None = None  # (raw table, raw column)
    min_value: float | None = None
    max_value: float | None = None
    description: str = ""

    def __post_init__(self) -> None:
        if self.type not in SUPPORTED_TYPES:
            raise ValueError(f"column {self.name}: unsupported type {self.type!r}")

    @property
    def is_key(self) -> bool:
        return self.unique


@dataclass(frozen=True)
class TableSpec:
    """One raw table (schema ``raw`` of the warehouse) the generator synthesises."""

    name: str
    origin: str  # "source app.accounts" or "seed raw_customers"
    columns: tuple[ColumnSpec, ...]
    checks: tuple[str, ...] = ()  # SQL predicates over raw columns every row must satisfy
    static_csv: str | None = None  # a seed kept verbatim (relative to the import dir)
    description: str = ""

    def column(self, name: str) -> ColumnSpec:
        for col in self.columns:
            if col.name == name:
                return col
        raise KeyError(f"{self.name} has no column {name!r}")

    def with_column(self, col: ColumnSpec) -> TableSpec:
        cols = tuple(col if c.name == col.name else c for c in self.columns)
        return replace(self, columns=cols)

    def parents(self) -> set[str]:
        return {
            c.references[0] for c in self.columns if c.references and c.references[0] != self.name
        }


@dataclass(frozen=True)
class ImportSpec:
    """Everything the generator of one imported replica needs (JSON on disk)."""

    name: str
    description: str
    project_name: str
    source_path: str
    start: dt.date
    end: dt.date
    tables: tuple[TableSpec, ...]
    notes: tuple[str, ...] = ()
    schema_version: int = SPEC_SCHEMA_VERSION

    def __post_init__(self) -> None:
        if not NAME_RE.match(self.name):
            raise ValueError(f"replica name must match [a-z][a-z0-9_]*, got {self.name!r}")
        if self.end <= self.start:
            raise ValueError(f"date range end {self.end} must be after start {self.start}")
        names = [t.name for t in self.tables]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate raw table names in {names}")

    def table(self, name: str) -> TableSpec:
        for table in self.tables:
            if table.name == name:
                return table
        raise KeyError(name)

    def to_json(self) -> str:
        data = asdict(self)
        data["start"] = self.start.isoformat()
        data["end"] = self.end.isoformat()
        return json.dumps(data, indent=2, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str) -> ImportSpec:
        data: dict[str, Any] = json.loads(text)
        if data.get("schema_version") != SPEC_SCHEMA_VERSION:
            raise ValueError(f"unsupported import spec schema {data.get('schema_version')!r}")
        tables = tuple(_table_from(t) for t in data.pop("tables"))
        return cls(
            **{
                **data,
                "start": dt.date.fromisoformat(data["start"]),
                "end": dt.date.fromisoformat(data["end"]),
                "tables": tables,
                "notes": tuple(data.get("notes", ())),
            }
        )


def _table_from(data: Mapping[str, Any]) -> TableSpec:
    cols = []
    for c in data["columns"]:
        refs = c.get("references")
        cols.append(
            ColumnSpec(
                **{
                    **c,
                    "values": tuple(c.get("values", ())),
                    "references": (str(refs[0]), str(refs[1])) if refs else None,
                }
            )
        )
    return TableSpec(
        name=data["name"],
        origin=data["origin"],
        columns=tuple(cols),
        checks=tuple(data.get("checks", ())),
        static_csv=data.get("static_csv"),
        description=data.get("description", ""),
    )


__all__ += ["NAME_RE", "SUPPORTED_TYPES"]
