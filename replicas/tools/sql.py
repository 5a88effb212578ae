"""The ``sql`` tool: read-only queries on the episode's warehouse.

Defence in depth, because the agent is an adversary:

1. size cap, then sqlglot parses the query in the agent's dialect (and transpiles it to DuckDB);
2. the AST must be one read-only statement (SELECT / set operations / DESCRIBE / SHOW /
   SUMMARIZE / EXPLAIN) and may not call table functions that touch files, other databases or
   the host (``read_csv``, ``read_text``, ``glob``, ``query``, …) nor name a file as a table;
3. DuckDB's own parser must agree it is exactly one such statement (no parser differential can
   smuggle a second statement past step 2);
4. the connection itself is read-only with external access disabled and configuration locked;
5. a timer interrupts the query at the task's timeout; output is capped in rows and characters.
"""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections.abc import Mapping
from typing import Any

import duckdb
import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError as SqlglotParseError

from replicas.tools.base import Tool, ToolContext, ToolResult, register_tool, truncate

MAX_QUERY_CHARS = 100_000
DIALECTS = (
    "duckdb",
    "postgres",
    "snowflake",
    "bigquery",
    "redshift",
    "mysql",
    "sqlite",
    "tsql",
    "trino",
    "presto",
    "spark",
    "databricks",
)

_DENIED_FUNCTIONS = frozenset(
    {
        "glob",
        "query",
        "query_table",
        "getenv",
        "csv_scan",
        "parquet_scan",
        "json_execute_serialized_sql",
        "duckdb_databases",
        "duckdb_extensions",
        "duckdb_secrets",
        "duckdb_settings",
        "pragma_database_list",
        "current_setting",
        "which_secret",
        "sqlite_attach",
    }
)
_DENIED_PREFIXES = (
    "read_",
    "parquet_",
    "sniff_",
    "iceberg_",
    "delta_",
    "sqlite_",
    "postgres_",
    "mysql_",
    "st_read",
    "http",
    "ducklake",
    "load_",
    "write_",
)
_ALLOWED_ROOTS: tuple[type[exp.Expression], ...] = (
    exp.Select,
    exp.SetOperation,
    exp.Subquery,
    exp.Describe,
    exp.Show,
    exp.Values,
)
_SUMMARIZE = getattr(exp, "Summarize", None)
if _SUMMARIZE is not None:
    _ALLOWED_ROOTS = (*_ALLOWED_ROOTS, _SUMMARIZE)
_FORBIDDEN_NODE_NAMES = (
    "Insert", "Update", "Delete", "Create", "Drop", "Alter", "Merge", "Copy", "Attach", "Detach",
    "Pragma", "Set", "Use", "Install", "Load", "Export", "Command", "Into", "TruncateTable",
    "Transaction", "Commit", "Rollback",
)  # fmt: skip
_FORBIDDEN_NODES: tuple[type, ...] = tuple(
    t for t in (getattr(exp, n, None) for n in _FORBIDDEN_NODE_NAMES) if isinstance(t, type)
)
_FILE_LIKE_RE = re.compile(
    r"[/\\]|\.(?:csv|tsv|txt|parquet|json|ndjson|jsonl|gz|zst|duckdb|db|sqlite|xlsx?)$", re.I
)
_EXPLAIN_RE = re.compile(r"^\s*explain(?:\s+analyze)?\s+", re.IGNORECASE)
_READ_ONLY_TYPES = frozenset({"StatementType.SELECT", "StatementType.EXPLAIN"})


class QueryRefused(ValueError):
    """The query is not a single read-only statement we are willing to run."""


def _function_name(node: Any) -> str | None:
    if isinstance(node, exp.Anonymous):
        return str(node.name).lower()
    if isinstance(node, exp.Func):
        return str(node.sql_name()).lower()
    return None


def _check_ast(statement: Any) -> None:
    root = statement
    if not isinstance(root, _ALLOWED_ROOTS):
        kind = type(root).__name__.upper()
        raise QueryRefused(
            f"{kind} statements are not allowed; only SELECT/WITH/DESCRIBE/SHOW/EXPLAIN queries"
        )
    for node in root.walk():
        if isinstance(node, _FORBIDDEN_NODES):
            raise QueryRefused(f"{type(node).__name__.upper()} is not allowed inside a query")
        name = _function_name(node)
        if name and (name in _DENIED_FUNCTIONS or name.startswith(_DENIED_PREFIXES)):
            raise QueryRefused(
                f"function {name}() is not available: it reads files, other databases or "
                "host settings; query the warehouse tables instead"
            )
        if isinstance(node, exp.Table):
            table_name = str(node.name)
            if isinstance(node.this, exp.Literal) or _FILE_LIKE_RE.search(table_name):
                raise QueryRefused(
                    f"{table_name!r} looks like a file path; files cannot be queried"
                )


def prepare_query(query: str, dialect: str = "duckdb") -> str:
    """The DuckDB SQL to run for ``query``, or QueryRefused saying why not."""
    if len(query) > MAX_QUERY_CHARS:
        raise QueryRefused(f"query is longer than {MAX_QUERY_CHARS} characters")
    if dialect not in DIALECTS:
        raise QueryRefused(f"unknown dialect {dialect!r}; use one of {', '.join(DIALECTS)}")
    if not query.strip():
        raise QueryRefused("empty query")
    # sqlglot has no EXPLAIN node: check the explained query instead (DuckDB checks the rest).
    explained = _EXPLAIN_RE.sub("", query, count=1)
    try:
        statements = [s for s in sqlglot.parse(explained, read=dialect) if s is not None]
    except SqlglotParseError as exc:
        first = str(exc).splitlines()[0] if str(exc) else "parse error"
        raise QueryRefused(f"SQL syntax error: {first[:400]}") from None
    except Exception as exc:  # sqlglot raises other errors on odd input (tokenizer, recursion)
        raise QueryRefused(f"SQL could not be parsed: {str(exc)[:300]}") from None
    if len(statements) != 1:
        raise QueryRefused(f"send exactly one statement per call (got {len(statements)})")
    _check_ast(statements[0])
    if dialect == "duckdb":
        return query
    prefix = query[: len(query) - len(explained)]
    try:
        return prefix + str(statements[0].sql(dialect="duckdb"))
    except Exception as exc:
        raise QueryRefused(
            f"could not translate {dialect} SQL to DuckDB: {str(exc)[:300]}"
        ) from None


def _check_with_duckdb(con: duckdb.DuckDBPyConnection, sql: str) -> None:
    try:
        statements = con.extract_statements(sql)
    except duckdb.Error as exc:
        raise QueryRefused(f"SQL syntax error: {str(exc).splitlines()[0][:400]}") from None
    if len(statements) != 1:
        raise QueryRefused(f"send exactly one statement per call (DuckDB sees {len(statements)})")
    if str(statements[0].type) not in _READ_ONLY_TYPES:
        raise QueryRefused(f"{statements[0].type} statements are not allowed")


MAX_CELL_CHARS = 1000


def format_value(value: Any) -> str:
    if value is None:
        return "NULL"
    text = format(value, ".15g") if isinstance(value, float) else str(value).replace("\n", "\\n")
    if len(text) > MAX_CELL_CHARS:
        text = text[:MAX_CELL_CHARS] + f"…[+{len(text) - MAX_CELL_CHARS} characters truncated]"
    return text


def format_table(columns: list[str], rows: list[tuple[Any, ...]], more: bool, max_rows: int) -> str:
    """Pipe-separated rows under a header; columns padded (up to 40 wide) for readability."""
    cells = [[format_value(v) for v in row] for row in rows]
    widths = [min(len(c), 40) for c in columns]
    for row in cells:
        widths = [min(max(w, len(c)), 40) for w, c in zip(widths, row, strict=True)]

    def line(values: list[str]) -> str:
        return " | ".join(v.ljust(w) for v, w in zip(values, widths, strict=True)).rstrip()

    out = [line(columns), "-+-".join("-" * w for w in widths)]
    out.extend(line(r) for r in cells)
    if more:
        out.append(f"… [result truncated to the first {max_rows} rows; aggregate or add LIMIT]")
    else:
        out.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(out)


class _Watchdog:
    """One daemon thread that interrupts queries past their deadline.

    Cheaper than a ``threading.Timer`` (a new thread) per query, which costs more than a
    one-row query itself.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._deadlines: dict[int, tuple[float, duckdb.DuckDBPyConnection]] = {}
        self._next_id = 0
        self._thread: threading.Thread | None = None

    def arm(self, cursor: duckdb.DuckDBPyConnection, timeout_s: float) -> int:
        with self._cond:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._loop, name="sql-watchdog", daemon=True)
                self._thread.start()
            self._next_id += 1
            self._deadlines[self._next_id] = (time.monotonic() + timeout_s, cursor)
            self._cond.notify()
            return self._next_id

    def disarm(self, token: int) -> None:
        with self._cond:
            self._deadlines.pop(token, None)

    def _loop(self) -> None:
        with self._cond:
            while True:
                now = time.monotonic()
                for token, (deadline, cursor) in list(self._deadlines.items()):
                    if deadline <= now:
                        del self._deadlines[token]
                        with contextlib.suppress(Exception):
                            cursor.interrupt()
                soonest = min((d for d, _ in self._deadlines.values()), default=None)
                self._cond.wait(None if soonest is None else max(0.0, soonest - now))


_WATCHDOG = _Watchdog()


def run_query(
    con: duckdb.DuckDBPyConnection, sql: str, *, timeout_s: float, max_rows: int
) -> tuple[list[str], list[tuple[Any, ...]], bool]:
    """Run ``sql`` on a fresh cursor with a timeout; return columns, rows, truncated flag."""
    cur = con.cursor()
    token = _WATCHDOG.arm(cur, timeout_s)
    try:
        _check_with_duckdb(cur, sql)
        result = cur.execute(sql)
        columns = [d[0] for d in result.description or []]
        rows = result.fetchmany(max_rows + 1)
    finally:
        _WATCHDOG.disarm(token)
        cur.close()
    return columns, rows[:max_rows], len(rows) > max_rows


def _run(arguments: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    query = str(arguments.get("query", ""))
    dialect = str(arguments.get("dialect") or "duckdb").lower()
    try:
        sql = prepare_query(query, dialect)
        con = ctx.sandbox.connection()
        columns, rows, more = run_query(
            con, sql, timeout_s=ctx.limits.sql_timeout_s, max_rows=ctx.limits.max_output_rows
        )
    except QueryRefused as exc:
        return ToolResult.fail(str(exc))
    except duckdb.InterruptException:
        return ToolResult.fail(f"query timed out after {ctx.limits.sql_timeout_s:g} s")
    except duckdb.Error as exc:
        message = str(exc)
        if "INTERRUPT" in message.upper():
            return ToolResult.fail(f"query timed out after {ctx.limits.sql_timeout_s:g} s")
        return ToolResult.fail(truncate(message, 1500))
    text = format_table(columns, rows, more, ctx.limits.max_output_rows)
    return ToolResult(text=truncate(text, ctx.limits.max_output_chars))


SQL_TOOL = register_tool(
    Tool(
        name="sql",
        description=(
            "Run one read-only SQL query (SELECT/WITH/DESCRIBE/SHOW/EXPLAIN) on the warehouse "
            "(DuckDB). Raw tables live in schema 'raw', dbt models in schema 'main'. Other SQL "
            "dialects are translated to DuckDB. Results are capped in rows and characters."
        ),
        parameters={
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "One SQL query."},
                "dialect": {
                    "type": "string",
                    "enum": list(DIALECTS),
                    "default": "duckdb",
                    "description": "SQL dialect of the query (translated to DuckDB).",
                },
            },
            "required": ["query"],
            "additionalProperties": False,
        },
        run=_run,
    )
)
