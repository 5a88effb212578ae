"""From a compiled project (``target/manifest.json``) to the synthesis schema (:class:`ImportSpec`).

Raw tables are the project's sources and its seeds used as raw data. Their columns come from the
``sources:`` YAML (``data_type`` where declared), from a seed's CSV header and values, or — for a
source table that declares no columns — from the columns its models select. Types not declared
are inferred from CSV values or from column names. Every data test the manifest holds is traced
to the raw column it constrains (:mod:`replicas.importer.steps.lineage`) and becomes a constraint the
generator meets: ``not_null``, ``unique``, ``accepted_values``, ``relationships`` (the child draws
from the parent's keys), ``accepted_range`` and ``expression_is_true`` (as a row check over raw
columns). Tests that cannot be traced (computed columns, singular tests) are listed in ``notes``:
the build still runs them.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import polars as pl
import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from replicas.importer.schema import (
    ColumnSpec,
    ImportSpec,
    TableSpec,
    duckdb_type,
    type_from_name,
)
from replicas.importer.steps.lineage import Origin, Tracer
from replicas.importer.steps.project import ProjectFacts, SeedFile

__all__ = ["derive_spec"]

_CATEGORY_WORDS = ("status", "state", "type", "category", "method", "channel", "tier", "segment")
_POLARS_TYPES = {
    "Int8": "INTEGER",
    "Int16": "INTEGER",
    "Int32": "INTEGER",
    "Int64": "BIGINT",
    "Float32": "DOUBLE",
    "Float64": "DOUBLE",
    "Boolean": "BOOLEAN",
    "Date": "DATE",
    "Datetime": "TIMESTAMP",
    "String": "VARCHAR",
}


def _seed_columns(seed: SeedFile) -> list[ColumnSpec]:
    frame = pl.read_csv(seed.path, try_parse_dates=True, infer_schema_length=10_000)
    declared = dict((seed.properties.get("config") or {}).get("column_types") or {})
    docs = {
        str(c.get("name")): str(c.get("description") or "")
        for c in seed.properties.get("columns") or []
        if isinstance(c, dict)
    }
    out = []
    for name, dtype in frame.schema.items():
        kind = duckdb_type(str(declared[name])) if name in declared else None
        if kind is None:
            kind = _POLARS_TYPES.get(type(dtype).__name__, "VARCHAR")
        if kind == "BIGINT":
            kind = "INTEGER" if frame[name].is_null().all() or _fits_int32(frame[name]) else kind
        values: tuple[Any, ...] = ()
        if kind == "VARCHAR" and any(w in name.lower() for w in _CATEGORY_WORDS):
            values = tuple(sorted({str(v) for v in frame[name].drop_nulls().to_list()}))
        out.append(ColumnSpec(name, kind, values=values, description=docs.get(name, "")))
    return out


def _fits_int32(series: pl.Series) -> bool:
    top = series.drop_nulls().abs().max()
    return top is None or int(top) < 2**31 - 1  # type: ignore[arg-type]


def _used_columns(manifest: Mapping[str, Any], relation: str) -> list[str]:
    """Columns the models reading ``relation`` name (for sources that declare none)."""
    target = sqlglot.to_table(relation, dialect="duckdb").name.lower()
    found: list[str] = []
    for node in manifest.get("nodes", {}).values():
        sql = node.get("compiled_code") or ""
        if node.get("resource_type") != "model" or target not in sql.lower():
            continue
        try:
            tree = sqlglot.parse_one(sql, dialect="duckdb")
        except SqlglotError:
            continue
        tables = {t.name.lower() for t in tree.find_all(exp.Table)}
        ctes = {c.alias_or_name.lower() for c in tree.find_all(exp.CTE)}
        if tables - ctes != {target}:
            continue  # only single-source models say which columns the source has
        aliases = {a.alias.lower() for a in tree.find_all(exp.Alias)}
        for col in tree.find_all(exp.Column):
            name = col.name
            if name and name.lower() not in aliases and name not in found:
                found.append(name)
    return found


def _raw_tables(facts: ProjectFacts, manifest: Mapping[str, Any]) -> dict[str, TableSpec]:
    tables: dict[str, TableSpec] = {}
    relations = {
        (str(n["source_name"]), str(n["name"])): str(n["relation_name"])
        for n in manifest.get("sources", {}).values()
    }
    for src in facts.sources:
        cols = []
        for name, declared, doc in src.columns:
            kind = (duckdb_type(declared) if declared else None) or type_from_name(name)
            cols.append(ColumnSpec(name, kind, description=doc))
        if not cols:
            rel = relations.get((src.source, src.name))
            for name in _used_columns(manifest, rel) if rel else []:
                cols.append(ColumnSpec(name, type_from_name(name)))
        if cols:
            origin = f"source {src.source}.{src.name}"
            tables[src.raw_name] = TableSpec(
                src.raw_name, origin, tuple(cols), description=src.description
            )
    for seed in facts.seeds:
        static = f"seed_data/{seed.path.name}" if seed.static else None
        desc = str(seed.properties.get("description") or "")
        tables[seed.raw_name] = TableSpec(
            seed.raw_name, f"seed {seed.name}", tuple(_seed_columns(seed)), (), static, desc
        )
    return tables


def _ref_target(text: str, manifest: Mapping[str, Any]) -> str | None:
    """The unique id named by a relationships test's ``to`` (``ref('x')`` / ``source('a','b')``)."""
    m = re.match(r"\s*ref\(\s*['\"]([^'\"]+)['\"]\s*(?:,\s*['\"]([^'\"]+)['\"]\s*)?\)", text)
    if m:
        name = m.group(2) or m.group(1)
        for uid, node in manifest.get("nodes", {}).items():
            if node.get("resource_type") == "model" and node.get("name") == name:
                return str(uid)
        return None
    m = re.match(r"\s*source\(\s*['\"]([^'\"]+)['\"]\s*,\s*['\"]([^'\"]+)['\"]\s*\)", text)
    if m:
        for uid, node in manifest.get("sources", {}).items():
            if (node.get("source_name"), node.get("name")) == (m.group(1), m.group(2)):
                return str(uid)
    return None


class _Resolver:
    def __init__(self, manifest: Mapping[str, Any], tables: Mapping[str, TableSpec]) -> None:
        self.manifest = manifest
        self.tracer = Tracer(manifest, {n: [c.name for c in t.columns] for n, t in tables.items()})

    def origins(self, uid: str, column: str) -> list[Origin]:
        if uid.startswith("source."):
            node = self.manifest["sources"][uid]
            raw = self.tracer.source_uid_raw(str(node["relation_name"]))
            return [Origin(raw, column, "plain")] if raw else []
        return self.tracer.trace(uid, column)

    def single(self, uid: str, column: str, allowed: tuple[str, ...]) -> Origin | None:
        found = self.origins(uid, column)
        if len(found) == 1 and found[0].transform in allowed:
            return found[0]
        return None


def _column_idents(expression: str) -> list[str] | None:
    try:
        tree = sqlglot.parse_one(expression, dialect="duckdb")
    except SqlglotError:
        return None
    return sorted({c.name for c in tree.find_all(exp.Column)})


def _check_on_raw(expression: str, uid: str, resolver: _Resolver) -> tuple[str, str] | None:
    """``expression`` over the model's columns rewritten over one raw table's columns."""
    idents = _column_idents(expression)
    if not idents:
        return None
    mapping: dict[str, str] = {}
    table: str | None = None
    for ident in idents:
        origin = resolver.single(uid, ident, ("plain",))
        if origin is None or (table is not None and origin.table != table):
            return None
        table = origin.table
        mapping[ident] = origin.column
    tree = sqlglot.parse_one(expression, dialect="duckdb")
    for col in tree.find_all(exp.Column):
        col.replace(exp.column(mapping[col.name], quoted=True))
    assert table is not None
    return table, tree.sql(dialect="duckdb")


def _apply_test(
    node: Mapping[str, Any], tables: dict[str, TableSpec], resolver: _Resolver, notes: list[str]
) -> None:
    meta = node.get("test_metadata") or {}
    kind = str(meta.get("name") or "")
    kwargs = dict(meta.get("kwargs") or {})
    column = node.get("column_name") or kwargs.get("column_name")
    attached = node.get("attached_node") or _tested_source(kwargs, resolver.manifest)
    label = str(node.get("name"))
    if not kind or not attached:
        notes.append(f"{label}: singular test, not used for synthesis (the build runs it)")
        return
    column = str(column) if column else None
    if kind == "expression_is_true":
        found = _check_on_raw(str(kwargs.get("expression", "")), attached, resolver)
        if found is None:
            notes.append(f"{label}: expression over computed columns, not used for synthesis")
            return
        on, check = found
        if on in tables and check not in tables[on].checks:
            tables[on] = replace(tables[on], checks=(*tables[on].checks, check))
        return
    if column is None:
        notes.append(f"{label}: {kind} without a column, not used for synthesis")
        return
    loose = ("plain", "cast", "other")
    strict = ("plain", "cast")
    origin = resolver.single(attached, column, loose if kind == "not_null" else strict)
    if origin is None or origin.table not in tables:
        notes.append(f"{label}: {column} is computed, not used for synthesis")
        return
    table = tables[origin.table]
    try:
        col = table.column(origin.column)
    except KeyError:
        notes.append(f"{label}: {origin.table}.{origin.column} is not a known raw column")
        return
    if kind == "not_null":
        col = replace(col, not_null=True)
    elif kind == "unique":
        if origin.grouped:
            notes.append(f"{label}: {column} is unique after a GROUP BY, not used for synthesis")
            return
        col = replace(col, unique=True)
    elif kind == "accepted_values":
        values = tuple(v for v in kwargs.get("values") or [] if isinstance(v, str | int | float))
        col = replace(col, values=values)
    elif kind == "accepted_range":
        lo, hi = kwargs.get("min_value"), kwargs.get("max_value")
        col = replace(
            col,
            min_value=_number(lo) if lo is not None else col.min_value,
            max_value=_number(hi) if hi is not None else col.max_value,
        )
    elif kind == "relationships":
        to = _ref_target(str(kwargs.get("to", "")), resolver.manifest)
        parent = resolver.single(to, str(kwargs.get("field")), strict) if to else None
        if parent is None or parent.table not in tables:
            notes.append(f"{label}: the parent column is computed, not used for synthesis")
            return
        col = replace(col, references=(parent.table, parent.column))
    else:
        notes.append(f"{label}: test kind {kind!r} is not synthesised (the build runs it)")
        return
    tables[origin.table] = table.with_column(col)


def _tested_source(kwargs: Mapping[str, Any], manifest: Mapping[str, Any]) -> str | None:
    """The source a source test is attached to (its ``model`` kwarg names it)."""
    m = re.search(
        r"source\(\s*['\"]([^'\"]+)['\"]\s*,\s*['\"]([^'\"]+)['\"]", str(kwargs.get("model", ""))
    )
    if m is None:
        return None
    return _ref_target(f"source('{m.group(1)}', '{m.group(2)}')", manifest)


def _number(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _keys_typed(tables: dict[str, TableSpec]) -> None:
    """A referencing column takes its parent key's type (join keys must compare equal)."""
    for name, table in list(tables.items()):
        for col in table.columns:
            if col.references and col.references[0] in tables:
                try:
                    parent = tables[col.references[0]].column(col.references[1])
                except KeyError:
                    continue
                if parent.type != col.type:
                    tables[name] = tables[name].with_column(replace(col, type=parent.type))
                    table = tables[name]


def derive_spec(
    facts: ProjectFacts,
    manifest: Mapping[str, Any],
    *,
    name: str,
    start: dt.date,
    end: dt.date,
    source_path: Path,
) -> ImportSpec:
    """The synthesis schema of the staged project whose compiled manifest is ``manifest``."""
    tables = _raw_tables(facts, manifest)
    resolver = _Resolver(manifest, tables)
    notes: list[str] = []
    for _uid, node in sorted(manifest.get("nodes", {}).items()):
        if node.get("resource_type") == "test":
            _apply_test(node, tables, resolver, notes)
    _keys_typed(tables)
    description = str(facts.doc.get("description") or "") or (
        f"Imported dbt project {facts.project_name} ({len(tables)} raw tables)"
    )
    return ImportSpec(
        name=name,
        description=description,
        project_name=facts.project_name,
        source_path=str(source_path),
        start=start,
        end=end,
        tables=tuple(tables[k] for k in sorted(tables)),
        notes=tuple(notes),
    )
