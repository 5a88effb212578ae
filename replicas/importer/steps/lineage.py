"""Trace a model column back to the raw column it comes from (sqlglot lineage over compiled SQL).

A data test on ``stg_orders.customer_id`` constrains the raw column the model renames; the
generator must satisfy it there. ``Tracer.trace`` follows a column through every model's compiled
SQL (CTEs, ``select *``, joins) down to a raw table and says how it was transformed on the way:
``plain`` (selected or renamed), ``cast`` (a type cast of one column) or ``other`` (any other
expression, e.g. ``lower(email)`` or ``amount / 100``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError
from sqlglot.lineage import Node, lineage
from sqlglot.optimizer.qualify import qualify

__all__ = ["Origin", "Tracer"]

_RANK = {"plain": 0, "cast": 1, "other": 2}


@dataclass(frozen=True)
class Origin:
    table: str  # raw table name
    column: str
    transform: str  # plain | cast | other
    #: Passed a GROUP BY / DISTINCT on the way: unique downstream says nothing about the raw rows.
    grouped: bool = False


def _parts(relation: str) -> tuple[str, str, str]:
    table = sqlglot.to_table(relation, dialect="duckdb")
    return (table.catalog, table.db, table.name)


class Tracer:
    """Lineage over the compiled models of one manifest, raw tables as the leaves."""

    def __init__(self, manifest: Mapping[str, Any], raw_columns: Mapping[str, list[str]]) -> None:
        self.models: dict[str, Mapping[str, Any]] = {}
        self._by_relation: dict[tuple[str, str], str] = {}
        self._sources: dict[tuple[str, str], str] = {}  # (schema, identifier) → raw name
        self.schema: dict[str, dict[str, dict[str, dict[str, str]]]] = {}
        self.raw_columns = raw_columns
        for uid, node in manifest.get("nodes", {}).items():
            if node.get("resource_type") == "model" and node.get("relation_name"):
                self.models[uid] = node
                _cat, db, name = _parts(node["relation_name"])
                self._by_relation[(db.lower(), name.lower())] = uid
        for node in manifest.get("sources", {}).values():
            catalog, db, name = _parts(node["relation_name"])
            self._sources[(db.lower(), name.lower())] = name
            cols = {c: "UNKNOWN" for c in raw_columns.get(name, [])}
            self.schema.setdefault(catalog, {}).setdefault(db, {})[name] = cols
        self._columns: dict[str, list[str]] = {}

    def source_uid_raw(self, relation: str) -> str | None:
        _cat, db, name = _parts(relation)
        return self._sources.get((db.lower(), name.lower()))

    def columns(self, uid: str, _depth: int = 0) -> list[str]:
        """The output columns of model ``uid`` (its parents' first, for ``select *``)."""
        if uid in self._columns:
            return self._columns[uid]
        node = self.models[uid]
        if _depth < 50:
            for parent in node.get("depends_on", {}).get("nodes", []):
                if parent in self.models:
                    self.columns(parent, _depth + 1)
        try:
            tree = qualify(
                sqlglot.parse_one(node.get("compiled_code") or "", dialect="duckdb"),
                schema=cast(dict[str, object], self.schema),
                dialect="duckdb",
                validate_qualify_columns=False,
            )
            cols = [str(c) for c in tree.named_selects] if isinstance(tree, exp.Query) else []
        except (SqlglotError, ValueError, KeyError):
            cols = []
        self._columns[uid] = cols
        catalog, db, name = _parts(node["relation_name"])
        self.schema.setdefault(catalog, {}).setdefault(db, {})[name] = dict.fromkeys(
            cols, "UNKNOWN"
        )
        return cols

    def trace(self, uid: str, column: str, _depth: int = 0) -> list[Origin]:
        """The raw columns model ``uid``'s ``column`` is computed from (empty: unknown)."""
        if uid not in self.models or _depth > 30:
            return []
        self.columns(uid)
        node = self.models[uid]
        try:
            root = lineage(
                column,
                node.get("compiled_code") or "",
                schema=self.schema,
                dialect="duckdb",
            )
        except (SqlglotError, ValueError, KeyError, AttributeError):
            return []
        out: list[Origin] = []
        self._walk(root, "plain", False, out, _depth)
        return out

    def _walk(
        self, node: Node, transform: str, grouped: bool, out: list[Origin], depth: int
    ) -> None:
        expression = node.expression
        select = expression.find_ancestor(exp.Select) if expression is not None else None
        if isinstance(expression, exp.Select):
            select = expression
        if select is not None and (select.args.get("group") or select.args.get("distinct")):
            grouped = True
        step = "plain"
        if isinstance(expression, exp.Alias):
            inner = expression.this
            if isinstance(inner, exp.Column):
                step = "plain"
            elif isinstance(inner, exp.Cast) and isinstance(inner.this, exp.Column):
                step = "cast"
            else:
                step = "other"
        transform = max(transform, step, key=_RANK.__getitem__)
        if len(node.downstream) > 1:
            transform = "other"
        if node.downstream:
            for child in node.downstream:
                self._walk(child, transform, grouped, out, depth)
            return
        if not isinstance(node.source, exp.Table):
            return
        leaf_col = node.name.rsplit(".", 1)[-1]
        db, name = node.source.db.lower(), node.source.name.lower()
        raw = self._sources.get((db, name))
        if raw is not None:
            out.append(Origin(raw, leaf_col, transform, grouped))
            return
        parent = self._by_relation.get((db, name))
        if parent is not None:
            for origin in self.trace(parent, leaf_col, depth + 1):
                worst = max(transform, origin.transform, key=_RANK.__getitem__)
                out.append(Origin(origin.table, origin.column, worst, grouped or origin.grouped))
