"""The query server: agent SQL runs here, in a child process with hard resource limits.

DuckDB's ``memory_limit`` covers its buffer pool, not strings it builds, Arrow batches or Python
objects, and an interrupt is only seen between chunks; so agent SQL never runs in the worker.
Each worker thread owns one server (:mod:`replicas.sandbox.query_client` starts it as
``python -m replicas.sandbox.query_server``), which

* runs under ``RLIMIT_AS`` (whatever a query builds, the process cannot grow past it; DuckDB
  answers OutOfMemory or the kernel kills the server, never the worker) and ``RLIMIT_CPU``
  re-armed per query as a backstop;
* holds read-only, locked-down DuckDB connections keyed by warehouse path (no spilling to disk:
  ``temp_directory`` is empty, so no setting names a path);
* checks every query against the allow-list of :mod:`replicas.sandbox.sql_policy` on DuckDB's
  own parse tree (``json_serialize_sql``), with the warehouse's catalog at hand: relations must
  exist in ``raw``/``main``, views stored in the warehouse are checked the same way (an agent's
  dbt model may be a view over ``duckdb_settings()``), macros stored there may not be called;
* interrupts its own query at the timeout (a watchdog thread);
* streams the result through Arrow in small batches, refusing past a byte budget *before*
  converting anything to Python (a 16 MB list cell never becomes Python objects), and sends back
  at most ``max_rows`` rows of cells already rendered as capped strings.

Protocol: JSON lines, one request at a time, stdout carries protocol lines only (fd 1 is pointed
at stderr so stray output cannot corrupt it). At start the server writes ``{"ready": true}``.

* ``{"id", "op": "query", "db", "sql", "timeout_s", "max_rows", "max_chars"}`` →
  ``{"id", "ok": true, "columns": [...], "rows": [[str, ...]], "more": bool}`` or
  ``{"id", "ok": false, "kind": refused|timeout|memory|too_large|error, "message"}``;
* ``{"id", "op": "close", "db"}`` → ``{"id", "ok": true}`` (dbt needs the write lock next).

A response may carry ``"restart": true``: the server exits after sending it (after running out of
memory, or when it grew large), and the client starts a fresh one on the next query.
"""

from __future__ import annotations

import collections
import contextlib
import ctypes
import datetime
import json
import math
import os
import re
import resource
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, BinaryIO

import duckdb
import numpy as np
import pyarrow as pa

from replicas.db import SAFE_DUCKDB_CONFIG
from replicas.sandbox.sql_policy import (
    ALLOWED_SCHEMAS,
    ALLOWED_TABLE_FUNCTIONS,
    INFORMATION_SCHEMA_VIEWS,
    MAX_CELL_CHARS,
    WHAT_IS_ALLOWED,
    denied_function,
    format_value,
    truncation_note,
)

#: Address space of the server. DuckDB, pyarrow and glibc reserve address space they never
#: touch (~0.5 GB with ``MALLOC_ARENA_MAX=2``, which the client sets). Measured: at 1.75 GiB a
#: COUNT(DISTINCT) over 5M strings or list() of 10M values already fails; at 2.5 GiB they pass
#: and the attacks peak at ~1 GB resident; at 3 GiB a 1 GB string is built (2 GB resident).
ADDRESS_SPACE_BYTES = int(2.5 * 2**30)
DUCKDB_MEMORY_LIMIT = "1GB"
#: One thread: each worker thread has its own server on a machine of few cores, and a second
#: DuckDB thread makes every small query hand work across threads. Measured on a loaded 2-core
#: machine (median of 300): a one-row COUNT 1.1 ms at 1 thread vs 1.5-4.2 ms at 2, the
#: json_serialize_sql check 1.4 ms vs 3.4-7.0 ms.
DUCKDB_THREADS = 1
#: Arrow bytes of the rows converted for one result (checked per batch, before conversion).
MAX_RESULT_BYTES = 8 * 2**20
#: Elements inside LIST/MAP/STRUCT cells of the rows converted for one result.
MAX_NESTED_VALUES = 100_000
BATCH_ROWS = 16
MAX_OPEN_DATABASES = 4
#: A server whose peak resident size passed this restarts after answering (glibc and jemalloc
#: rarely hand memory back, so one heavy query would otherwise keep it large).
RESTART_RSS_BYTES = 768 * 2**20
#: Strings longer than this are cut in Arrow before they are converted to Python.
_SLICE_STRINGS_OVER = 4 * MAX_CELL_CHARS

SERVER_CONFIG: dict[str, Any] = {
    **SAFE_DUCKDB_CONFIG,
    "threads": DUCKDB_THREADS,
    "memory_limit": DUCKDB_MEMORY_LIMIT,
    "temp_directory": "",
    "python_enable_replacements": False,
}

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


class TooLarge(Exception):
    """The result is over the byte, nested-size or row budget."""


# ---- the catalog of one open warehouse ----------------------------------------------------


@dataclass
class _Database:
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


def _file_identity(path: str) -> tuple[int, int, int]:
    st = os.stat(path)
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def _load_catalog(con: duckdb.DuckDBPyConnection, identity: tuple[int, int, int]) -> _Database:
    name = str(con.execute("select current_database()").fetchall()[0][0])
    schemas = sorted(ALLOWED_SCHEMAS)
    relations: dict[tuple[str, str], str] = {}
    view_sql: dict[tuple[str, str], str] = {}
    for schema, rel in con.execute(
        "select lower(schema_name), lower(table_name) from duckdb_tables() "
        "where database_name = current_database() and lower(schema_name) in (?, ?)",
        schemas,
    ).fetchall():
        relations[(schema, rel)] = "table"
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
    return _Database(con, identity, name, relations, view_sql, reserved, stored, catalog_macros)


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


def _refuse_relation(shown: str, db: _Database, name: str, schema: str = "") -> Refused:
    if name in db.reserved or (schema and schema not in ALLOWED_SCHEMAS):
        return Refused(f"relation {shown} is not available: {WHAT_IS_ALLOWED}")
    hint = [f"{s}.{rel}" for (s, rel) in sorted(db.relations) if rel == name and shown != rel]
    did_you_mean = f"; did you mean {' or '.join(hint[:2])}?" if hint else ""
    return Refused(f"relation {shown} does not exist in schemas raw or main{did_you_mean}")


class _Checker:
    def __init__(self, cur: duckdb.DuckDBPyConnection, db: _Database) -> None:
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


def check_query(cur: duckdb.DuckDBPyConnection, db: _Database, sql: str) -> None:
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


# ---- results: Arrow batches to capped strings ----------------------------------------------


def _nested_values(arr: pa.Array) -> int:
    """Elements inside the LIST/MAP/STRUCT cells of ``arr`` (all levels)."""
    t = arr.type
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_map(t):
        if len(arr) == 0:
            return 0
        offsets = arr.offsets  # of this slice; ``values`` is the whole child
        start, end = offsets[0].as_py(), offsets[-1].as_py()
        return (end - start) + _nested_values(arr.values.slice(start, end - start))
    if pa.types.is_fixed_size_list(t):
        child = arr.flatten()
        return len(child) + _nested_values(child)
    if pa.types.is_struct(t):
        return sum(len(c) + _nested_values(c) for c in arr.flatten())
    if pa.types.is_union(t):
        return sum(len(arr.field(i)) + _nested_values(arr.field(i)) for i in range(t.num_fields))
    return 0


def _is_text(t: pa.DataType) -> bool:
    return bool(pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t))


def _longest_value_bytes(arr: pa.Array) -> int:
    """Bytes of the longest string or binary value, read from the offsets buffer (cheap)."""
    t = arr.type
    if len(arr) == 0:
        return 0
    wide = pa.types.is_large_string(t) or pa.types.is_large_binary(t)
    narrow = pa.types.is_string(t) or pa.types.is_binary(t)
    if not (wide or narrow):  # string views carry no offsets
        pc = _compute()
        return int(pc.max(pc.binary_length(arr.cast(pa.binary()))).as_py() or 0)
    buffer = arr.buffers()[1]
    offsets = np.frombuffer(buffer, dtype=np.int64 if wide else np.int32)
    offsets = offsets[arr.offset : arr.offset + len(arr) + 1]
    return int(np.diff(offsets).max())


def _compute() -> Any:
    # Imported on first use: pyarrow.compute adds ~0.1 s (seconds under load) to every server
    # start, and only results with long strings need it.
    import pyarrow.compute as pc

    return pc


def _render_long_strings(arr: pa.Array) -> list[str]:
    """Cut in Arrow, then escape: the same text and note as :func:`format_value`."""
    pc = _compute()
    lengths = pc.utf8_length(arr).to_pylist()
    newlines = pc.count_substring(arr, "\n").to_pylist()
    heads = pc.utf8_slice_codeunits(arr, 0, MAX_CELL_CHARS + 1).to_pylist()
    out = []
    for head, length, nl in zip(heads, lengths, newlines, strict=True):
        if head is None:
            out.append("NULL")
            continue
        text = head.replace("\n", "\\n")
        total = int(length) + int(nl)
        out.append(
            text[:MAX_CELL_CHARS] + truncation_note(total - MAX_CELL_CHARS)
            if total > MAX_CELL_CHARS
            else text
        )
    return out


def _interval(value: Any) -> Any:
    # DuckDB's own Python conversion: a month counts 30 days.
    if value is None:
        return None
    return datetime.timedelta(
        days=value.months * 30 + value.days, microseconds=value.nanoseconds // 1000
    )


def _render_column(arr: pa.Array) -> list[str]:
    t = arr.type
    if pa.types.is_dictionary(t):
        arr = arr.dictionary_decode()
        t = arr.type
    # Bytes bound characters from above: values under the threshold are short in both.
    if _is_text(t) and _longest_value_bytes(arr) > _SLICE_STRINGS_OVER:
        return _render_long_strings(arr)
    if (pa.types.is_binary(t) or pa.types.is_large_binary(t)) and (
        _longest_value_bytes(arr) > _SLICE_STRINGS_OVER
    ):
        arr = _compute().binary_slice(arr, 0, MAX_CELL_CHARS + 1)
    try:
        values = arr.to_pylist()
    except (ValueError, OverflowError, TypeError, pa.ArrowException):
        # Out-of-range dates and timestamps ('infinity') have no Python value.
        try:
            values = arr.cast(pa.string()).to_pylist()
        except pa.ArrowException:
            values = ["?" if v is not None else None for v in arr.is_valid().to_pylist()]
    if pa.types.is_interval(t):
        values = [_interval(v) for v in values]
    elif pa.types.is_map(t):
        values = [None if v is None else dict(v) for v in values]
    return [format_value(v) for v in values]


def collect_rows(
    reader: pa.RecordBatchReader, max_rows: int, max_chars: int
) -> tuple[list[list[str]], bool]:
    """At most ``max_rows`` rendered rows (stopping once ``max_chars`` are rendered) and whether
    more rows exist. Budgets are checked on each Arrow batch before it is converted."""
    rows: list[list[str]] = []
    budget = MAX_RESULT_BYTES
    chars = 0
    for batch in reader:
        if batch.num_rows == 0:
            continue
        need = max_rows - len(rows)
        if need <= 0 or chars > max_chars:
            return rows, True
        more = batch.num_rows > need
        take = batch.slice(0, need) if more else batch
        size = take.nbytes
        if size > budget:
            raise TooLarge(
                f"result too large: more than {MAX_RESULT_BYTES // 2**20} MB in the first "
                f"{len(rows) + take.num_rows} rows; select fewer or narrower columns, aggregate, "
                "or cut long values (left(), len(), list slices)"
            )
        budget -= size
        nested = sum(_nested_values(col) for col in take.columns)
        if nested > MAX_NESTED_VALUES:
            raise TooLarge(
                f"result too large: its LIST/MAP/STRUCT cells hold more than {MAX_NESTED_VALUES} "
                "elements; aggregate them or show len() or a slice instead"
            )
        columns = [_render_column(col) for col in take.columns]
        for i in range(take.num_rows):
            row = []
            for col in columns:
                cell = col[i] if chars <= max_chars else ""
                chars += len(cell) + 3
                row.append(cell)
            rows.append(row)
            if chars > max_chars:
                return rows, True
        if more:
            return rows, True
    return rows, False


# ---- the server ----------------------------------------------------------------------------


def _stream(cur: duckdb.DuckDBPyConnection, sql: str) -> pa.RecordBatchReader:
    """Run ``sql`` as a stream of small Arrow batches (nothing is materialised up front)."""
    submit = getattr(cur, "_submit", None)
    if submit is not None:
        # DuckDB 2.0's engine call behind ``cur.sql(sql).to_arrow_reader(n)``, which would first
        # parse and bind the statement a second time just to build a relation object (~1 ms,
        # a third of a small query's round trip).
        return submit(sql, None, "stream", BATCH_ROWS).arrow_reader()
    return cur.sql(sql).to_arrow_reader(BATCH_ROWS)


class _Watchdog:
    """Interrupts the running query at its deadline.

    It polls instead of being notified: arming is then a plain assignment, whereas a notified
    thread must be scheduled (and take the lock back) on every query, which costs milliseconds
    on a loaded machine. The price is up to :data:`_WATCHDOG_TICK_S` of lateness.
    """

    def __init__(self) -> None:
        self._armed: tuple[float, duckdb.DuckDBPyConnection] | None = None
        threading.Thread(target=self._loop, name="query-watchdog", daemon=True).start()

    def arm(self, cur: duckdb.DuckDBPyConnection, timeout_s: float) -> None:
        self._armed = (_now() + timeout_s, cur)

    def disarm(self) -> None:
        self._armed = None

    def _loop(self) -> None:
        while True:
            time.sleep(_WATCHDOG_TICK_S)
            armed = self._armed
            if armed is not None and _now() >= armed[0]:
                self._armed = None
                with contextlib.suppress(Exception):
                    armed[1].interrupt()


_WATCHDOG_TICK_S = 0.05


def _now() -> float:
    return time.monotonic()


def _peak_rss_bytes() -> int:
    # The peak, not the current size: one syscall instead of reading /proc per query.
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


class QueryServer:
    def __init__(self) -> None:
        self._dbs: collections.OrderedDict[str, _Database] = collections.OrderedDict()
        self._watchdog = _Watchdog()

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        reply: dict[str, Any]
        if op == "close":
            self.close(str(request.get("db", "")))
            reply = {"ok": True}
        elif op == "query":
            reply = self.query(request)
        elif op == "ping":
            reply = {"ok": True}
        else:
            reply = {"ok": False, "kind": "error", "message": f"unknown op {op!r}"}
        reply["id"] = request.get("id")
        return reply

    def close(self, path: str) -> None:
        db = self._dbs.pop(path, None)
        if db is not None:
            with contextlib.suppress(Exception):
                db.con.close()

    def _database(self, path: str) -> _Database:
        identity = _file_identity(path)
        db = self._dbs.get(path)
        if db is not None and db.identity == identity:
            self._dbs.move_to_end(path)
            return db
        self.close(path)  # a rebuilt file: DuckDB would hand back the old instance otherwise
        while len(self._dbs) >= MAX_OPEN_DATABASES:
            self.close(next(iter(self._dbs)))
        con = duckdb.connect(path, read_only=True, config=dict(SERVER_CONFIG))
        try:
            db = _load_catalog(con, identity)
        except BaseException:
            con.close()
            raise
        self._dbs[path] = db
        return db

    def query(self, request: dict[str, Any]) -> dict[str, Any]:
        path = str(request.get("db", ""))
        sql = str(request.get("sql", ""))
        timeout_s = float(request.get("timeout_s", 10.0))
        max_rows = max(1, int(request.get("max_rows", 50)))
        max_chars = max(200, int(request.get("max_chars", 8000)))
        try:
            try:
                db = self._database(path)
            except OSError as exc:
                return _fail("error", f"the warehouse could not be opened ({exc.strerror})", path)
            cur = db.con.cursor()
            self._arm_cpu_limit(timeout_s)
            self._watchdog.arm(cur, timeout_s)
            try:
                check_query(cur, db, sql)
                reader = _stream(cur, sql)
                try:
                    columns = list(reader.schema.names)
                    rows, more = collect_rows(reader, max_rows, max_chars)
                finally:
                    reader.close()
            finally:
                self._watchdog.disarm()
                with contextlib.suppress(Exception):
                    cur.close()
        except Refused as exc:
            return _fail("refused", str(exc), path)
        except TooLarge as exc:
            return _fail("too_large", str(exc), path)
        except Exception as exc:
            return _failure(exc, timeout_s, path)
        reply = {"ok": True, "columns": columns, "rows": rows, "more": more}
        if _peak_rss_bytes() > RESTART_RSS_BYTES:
            reply["restart"] = True
        return reply

    @staticmethod
    def _arm_cpu_limit(timeout_s: float) -> None:
        # Backstop behind the watchdog and the client's kill: SIGXCPU ends a query that ignores
        # both. The hard limit stays unlimited so the soft one can be re-armed per query.
        usage = resource.getrusage(resource.RUSAGE_SELF)
        used = usage.ru_utime + usage.ru_stime
        soft = math.ceil(used + timeout_s * DUCKDB_THREADS + 10)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_CPU, (soft, resource.RLIM_INFINITY))


_MEMORY_WORDS = ("Out of Memory Error", "bad_alloc", "Allocation failure", "failed to allocate")


def _failure(exc: Exception, timeout_s: float, path: str) -> dict[str, Any]:
    """The reply for a query that raised. Memory errors also come from Arrow (as OSError or
    ArrowMemoryError) and from Python; the server restarts after any of them."""
    message = str(exc)
    if isinstance(exc, duckdb.InterruptException) or message.startswith("INTERRUPT Error"):
        return _fail("timeout", f"query timed out after {timeout_s:g} s", path)
    from_engine = isinstance(exc, (duckdb.Error, OSError, pa.ArrowException))
    if isinstance(exc, (duckdb.OutOfMemoryException, MemoryError)) or (
        from_engine and any(message.startswith(w) or f": {w}" in message for w in _MEMORY_WORDS)
    ):
        reply = _fail("memory", "the query exceeded its memory limit", path)
        return {**reply, "restart": True}
    if isinstance(exc, duckdb.Error):
        return _fail("error", message, path)
    # A result the renderer cannot handle must not end the server.
    return _fail("error", f"{type(exc).__name__}: {message}", path)


def _scrub(message: str, path: str) -> str:
    """Error text without the warehouse path or the kit's cache directory."""
    secrets = {path, os.path.realpath(path) if path else "", os.path.dirname(path)}
    home = os.environ.get("REPLICAS_HOME")
    if home:
        secrets |= {home, os.path.realpath(home)}
    for secret in sorted((s for s in secrets if len(s) > 1), key=len, reverse=True):
        message = message.replace(secret, "<warehouse>")
    return message


def _fail(kind: str, message: str, path: str) -> dict[str, Any]:
    return {"ok": False, "kind": kind, "message": _scrub(message, path)[:2000]}


# ---- process setup -------------------------------------------------------------------------


def _apply_limits() -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = (
        ADDRESS_SPACE_BYTES if hard == resource.RLIM_INFINITY else min(hard, ADDRESS_SPACE_BYTES)
    )
    # macOS refuses RLIMIT_AS; there the client's polling of resident memory is the only bound.
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _die_with_parent(parent_pid: int) -> None:
    """SIGKILL this server when the worker thread that started it goes away."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    if parent_pid and os.getppid() != parent_pid:
        os._exit(0)


def _send(out: BinaryIO, message: dict[str, Any]) -> None:
    text = json.dumps(message, ensure_ascii=False, default=str)
    out.write(text.encode("utf-8", "replace") + b"\n")
    out.flush()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    protocol = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # DuckDB or a library printing to fd 1 must not corrupt the protocol
    sys.stdout = sys.stderr
    _die_with_parent(int(args[0]) if args else 0)
    _apply_limits()
    server = QueryServer()
    _send(protocol, {"ready": True, "pid": os.getpid()})
    for line in sys.stdin.buffer:
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise ValueError("not an object")
            reply = server.handle(request)
        except (ValueError, TypeError) as exc:
            reply = {"ok": False, "kind": "error", "message": f"bad request: {exc}"}
        except Exception as exc:  # whatever went wrong, the client gets an answer, not a hang-up
            reply = {"ok": False, "kind": "error", "message": f"{type(exc).__name__}: {exc}"}
        _send(protocol, reply)
        if reply.get("restart"):
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
