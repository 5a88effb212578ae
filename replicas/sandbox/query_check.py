"""The query server's allow-list on DuckDB's own parse tree, with the warehouse's catalog.

Every relation a query reads must exist in ``raw``/``main`` of the warehouse (a three-part name
must name its own catalog); views stored in the warehouse are checked the same way, recursively
(an agent's dbt model may be a view over ``duckdb_settings()``); macros stored there may not be
called; the only other readable things are the query's own CTEs, four ``information_schema``
views, ``range``/``generate_series``/``unnest`` and ``VALUES`` (:mod:`replicas.sandbox.sql_policy`
says the same to the agent). Runs inside the query server.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

import duckdb

from replicas.sandbox.sql_policy import (
    ALLOWED_SCHEMAS,
    ALLOWED_TABLE_FUNCTIONS,
    INFORMATION_SCHEMA_VIEWS,
    WHAT_IS_ALLOWED,
    denied_function,
)

_SHOW_SPECIAL_ALLOWED = frozenset({'"tables"', "__show_tables_expanded", '"databases"'})
_EXPLAIN_RE = re.compile(r"^\s*explain(?:\s+analyze)?\s+", re.IGNORECASE)
_VIEW_HEAD_RE = re.compile(
    r"^\s*create\s+(?:or\s+replace\s+)?(?:temp(?:orary)?\s+)?view\s+(?:if\s+not\s+exists\s+)?",
    re.IGNORECASE,
)
_IDENT_RE = re.compile(r'"(?:[^"]|"")*"|[A-Za-z_][A-Za-z0-9_$]*')
_MAX_VIEW_DEPTH = 16
_CATALOG_CALL_RE = re.compile(r"\b(?:duckdb_\w+|pragma_\w+|current_setting|getvariable)\s*\(", re.I)
PIVOT_HINT = (
    "PIVOT/UNPIVOT statements are not supported (DuckDB runs them as several statements); "
    "write SELECT … FROM t PIVOT (agg FOR col IN (v1, v2, …)) or use conditional aggregation"
)


class Refused(Exception):
    """The query reads something outside the allow-list (or cannot be checked)."""


# ---- the catalog of one open warehouse ----------------------------------------------------


@dataclass
class Database:
    con: duckdb.DuckDBPyConnection
    identity: tuple[int, int, int]
    name: str
    #: (schema, relation) -> "table" | "view", for the allowed schemas.
    relations: dict[tuple[str, str], str]
    #: CREATE VIEW text of the warehouse's own views.
    view_sql: dict[tuple[str, str], str]
    #: names an unqualified reference could resolve to outside the warehouse (system views).
    reserved: frozenset[str]
    #: macros stored in the warehouse (an agent's dbt run can create them).
    stored_functions: frozenset[str]
    #: built-in macros that read catalog functions (``pg_get_viewdef`` reads duckdb_views()).
    catalog_macros: frozenset[str]
    view_verdicts: dict[tuple[str, str], str | None] = field(default_factory=dict)


def file_identity(path: str) -> tuple[int, int, int]:
    st = os.stat(path)
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def load_catalog(con: duckdb.DuckDBPyConnection, identity: tuple[int, int, int]) -> Database:
    name = str(con.execute("select current_database()").fetchall()[0][0])
    schemas = sorted(ALLOWED_SCHEMAS)
    relations: dict[tuple[str, str], str] = {}
    view_sql: dict[tuple[str, str], str] = {}
    for schema, rel, sql in con.execute(
        "select lower(schema_name), lower(table_name), sql from duckdb_tables() "
        "where database_name = current_database() and lower(schema_name) in (?, ?)",
        schemas,
    ).fetchall():
        # a generated column is an expression DuckDB evaluates when the table is read, here, on
        # the host's connection: like a view's SQL, but unchecked (dbt never makes one)
        generated = " GENERATED ALWAYS AS" in str(sql or "").upper()
        relations[(schema, rel)] = "generated" if generated else "table"
    for schema, rel, sql in con.execute(
        "select lower(schema_name), lower(view_name), sql from duckdb_views() "
        "where database_name = current_database() and not internal "
        "and lower(schema_name) in (?, ?)",
        schemas,
    ).fetchall():
        relations[(schema, rel)] = "view"
        view_sql[(schema, rel)] = str(sql or "")
    reserved = frozenset(
        str(r[0])
        for r in con.execute(
            "select lower(view_name) from duckdb_views() where database_name <> current_database() "
            "and schema_name <> 'information_schema' union "
            "select lower(table_name) from duckdb_tables() "
            "where database_name <> current_database()"
        ).fetchall()
    )
    stored = frozenset(
        str(r[0])
        for r in con.execute(
            "select distinct lower(function_name) from duckdb_functions() "
            "where database_name = current_database() and not internal"
        ).fetchall()
    )
    catalog_macros = frozenset(
        str(fn).lower()
        for fn, body in con.execute(
            "select function_name, macro_definition from duckdb_functions() "
            "where internal and function_type = 'macro'"
        ).fetchall()
        if _CATALOG_CALL_RE.search(str(body or ""))
    )
    return Database(con, identity, name, relations, view_sql, reserved, stored, catalog_macros)


# ---- the allow-list on DuckDB's parse tree ---------------------------------------------------


@dataclass
class _Tree:
    tables: list[tuple[str, str, str, int]] = field(default_factory=list)
    table_functions: list[tuple[str, str, str]] = field(default_factory=list)
    functions: list[tuple[str, str, str]] = field(default_factory=list)
    shows: list[tuple[str, str]] = field(default_factory=list)
    ctes: set[str] = field(default_factory=set)


def _walk(tree: Any) -> _Tree:
    out = _Tree()
    stack: list[Any] = [tree] if isinstance(tree, (dict, list)) else []
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, (dict, list)))
            continue
        kind = node.get("type")
        if kind == "BASE_TABLE":
            path = (node.get("qualified_name") or {}).get("path") or []
            out.tables.append(
                (
                    str(node.get("catalog_name") or "").lower(),
                    str(node.get("schema_name") or "").lower(),
                    str(node.get("table_name") or "").lower(),
                    len(path),
                )
            )
        elif kind == "TABLE_FUNCTION":
            fn = node.get("function") or {}
            out.table_functions.append(
                (
                    str(fn.get("function_name") or "").lower(),
                    str(fn.get("schema") or ""),
                    str(fn.get("catalog") or ""),
                )
            )
        elif kind == "SHOW_REF":
            out.shows.append((str(node.get("show_type")), str(node.get("table_name") or "")))
        if "function_name" in node:
            out.functions.append(
                (
                    str(node.get("function_name") or "").lower(),
                    str(node.get("schema") or ""),
                    str(node.get("catalog") or ""),
                )
            )
        cte_map = node.get("cte_map")
        if isinstance(cte_map, dict):
            for entry in cte_map.get("map") or []:
                if isinstance(entry, dict):
                    out.ctes.add(str(entry.get("key") or "").lower())
        stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
    return out


def _serialize(cur: duckdb.DuckDBPyConnection, sql: str) -> Any:
    try:
        text = cur.execute("select json_serialize_sql(?)", [sql]).fetchall()[0][0]
        tree = json.loads(text)
    except RecursionError:
        raise Refused("the query is nested too deeply to be checked") from None
    if not isinstance(tree, dict):
        raise Refused("the query could not be checked")
    if tree.get("error"):
        message = str(tree.get("error_message") or "")
        if "Only SELECT" in message:
            raise Refused(PIVOT_HINT)
        raise Refused(f"SQL syntax error: {message.splitlines()[0][:400] if message else ''}")
    return tree


def _refuse_relation(shown: str, db: Database, name: str, schema: str = "") -> Refused:
    if name in db.reserved or (schema and schema not in ALLOWED_SCHEMAS):
        return Refused(f"relation {shown} is not available: {WHAT_IS_ALLOWED}")
    hint = [f"{s}.{rel}" for (s, rel) in sorted(db.relations) if rel == name and shown != rel]
    did_you_mean = f"; did you mean {' or '.join(hint[:2])}?" if hint else ""
    return Refused(f"relation {shown} does not exist in schemas raw or main{did_you_mean}")


class _Checker:
    def __init__(self, cur: duckdb.DuckDBPyConnection, db: Database) -> None:
        self.cur = cur
        self.db = db

    def check(self, tree: Any, *, view_schema: str | None = None, depth: int = 0) -> None:
        found = _walk(tree)
        db = self.db
        for name, schema, catalog in found.functions:
            if schema or catalog:
                raise Refused(f"qualified function names ({catalog or schema}.…) are not allowed")
            if denied_function(name):
                raise Refused(
                    f"function {name}() is not available: it reads files, other databases or "
                    f"host settings; {WHAT_IS_ALLOWED}"
                )
            if name in db.stored_functions:
                raise Refused(f"{name}() is a macro stored in the warehouse; call built-ins only")
            if name in db.catalog_macros:
                raise Refused(f"function {name}() reads DuckDB's catalog; {WHAT_IS_ALLOWED}")
        for name, schema, catalog in found.table_functions:
            if schema or catalog or name not in ALLOWED_TABLE_FUNCTIONS:
                raise Refused(f"table function {name}() is not available: {WHAT_IS_ALLOWED}")
        for show_type, table_name in found.shows:
            if show_type == "SHOW_SPECIAL" and table_name not in _SHOW_SPECIAL_ALLOWED:
                raise Refused(
                    f"SHOW {table_name.strip(chr(34))} is not available: {WHAT_IS_ALLOWED}"
                )
        for cte in found.ctes:
            if cte in db.reserved:
                raise Refused(f"a CTE may not be named {cte} (a system view has that name)")
        for catalog, schema, name, parts in found.tables:
            self._check_table(catalog, schema, name, parts, found.ctes, view_schema, depth)

    def _check_table(
        self,
        catalog: str,
        schema: str,
        name: str,
        parts: int,
        ctes: set[str],
        view_schema: str | None,
        depth: int,
    ) -> None:
        db = self.db
        shown = ".".join(p for p in (catalog, schema, name) if p)
        if not catalog and not schema and name in ctes and name not in db.reserved:
            # A CTE name is trusted wherever it appears, even outside the CTE's scope, where
            # DuckDB binds it to the catalog instead: so a relation of that name must pass too.
            for candidate in (view_schema, "main"):
                if candidate and db.relations.get((candidate, name)) == "view":
                    self._check_view(candidate, name, depth)
            return
        if parts > 3 or name in db.reserved:
            raise _refuse_relation(shown, db, name)
        if catalog and catalog != db.name.lower():
            raise Refused(f"{shown} names another catalog; {WHAT_IS_ALLOWED}")
        if schema == "information_schema" and not catalog:
            if name in INFORMATION_SCHEMA_VIEWS:
                return
            raise Refused(f"{shown} is not available: {WHAT_IS_ALLOWED}")
        candidates = [schema] if schema else [s for s in (view_schema, "main") if s]
        for candidate in candidates:
            kind = db.relations.get((candidate, name))
            if candidate in ALLOWED_SCHEMAS and kind is not None:
                if kind == "view":
                    self._check_view(candidate, name, depth)
                elif kind == "generated":
                    raise Refused(f"{shown} has generated columns; {WHAT_IS_ALLOWED}")
                return
        raise _refuse_relation(shown, db, name, schema)

    def _check_view(self, schema: str, name: str, depth: int) -> None:
        key = (schema, name)
        if key not in self.db.view_verdicts:
            verdict: str | None = None
            try:
                if depth >= _MAX_VIEW_DEPTH:
                    raise Refused("views are nested too deeply to be checked")
                body = _view_body(self.db.view_sql.get(key, ""))
                self.check(_serialize(self.cur, body), view_schema=schema, depth=depth + 1)
            except Refused as exc:
                verdict = f"view {schema}.{name} reads what queries may not ({exc})"
            self.db.view_verdicts[key] = verdict
        verdict = self.db.view_verdicts[key]
        if verdict is not None:
            raise Refused(verdict)


def _view_body(create_sql: str) -> str:
    """The SELECT of a ``CREATE VIEW`` statement as DuckDB stores it (Refused if unclear)."""
    head = _VIEW_HEAD_RE.match(create_sql)
    if head is None:
        raise Refused("its definition could not be read")
    pos = head.end()
    while True:  # the (possibly qualified, possibly quoted) view name
        ident = _IDENT_RE.match(create_sql, pos)
        if ident is None:
            raise Refused("its definition could not be read")
        pos = ident.end()
        if create_sql.startswith(".", pos):
            pos += 1
            continue
        break
    rest = create_sql[pos:].lstrip()
    if rest.startswith("("):  # column aliases
        depth, i = 0, 0
        while i < len(rest):
            ch = rest[i]
            if ch == '"':
                end = _IDENT_RE.match(rest, i)
                i = end.end() if end else len(rest)
                continue
            depth += ch == "("
            depth -= ch == ")"
            i += 1
            if depth == 0:
                break
        rest = rest[i:].lstrip()
    match = re.match(r"as\s", rest, re.IGNORECASE)
    if match is None:
        raise Refused("its definition could not be read")
    return rest[match.end() :].strip().rstrip(";")


def check_query(cur: duckdb.DuckDBPyConnection, db: Database, sql: str) -> None:
    """Refused unless ``sql`` is one read-only statement reading only allowed relations."""
    try:
        statements = cur.extract_statements(sql)
    except duckdb.Error as exc:
        raise Refused(f"SQL syntax error: {str(exc).splitlines()[0][:400]}") from None
    if len(statements) != 1:
        raise Refused(f"send exactly one statement per call (DuckDB sees {len(statements)})")
    kind = str(statements[0].type).removeprefix("StatementType.")
    if kind == "MULTI":
        raise Refused(PIVOT_HINT)
    if kind == "EXPLAIN":
        head = _EXPLAIN_RE.match(sql)
        if head is None:
            raise Refused("write EXPLAIN or EXPLAIN ANALYZE directly followed by the query")
        inner = sql[head.end() :]
    elif kind == "SELECT":
        inner = sql
    else:
        raise Refused(f"{kind} statements are not allowed; only SELECT/WITH/DESCRIBE/SHOW/EXPLAIN")
    _Checker(cur, db).check(_serialize(cur, inner))
