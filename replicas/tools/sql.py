"""The ``sql`` tool: read-only queries on the episode's warehouse.

Defence in depth, because the agent is an adversary:

1. size cap, then sqlglot parses the query in the agent's dialect (and transpiles it to DuckDB);
2. the AST must be one read-only statement (SELECT / set operations / DESCRIBE / SHOW /
   SUMMARIZE / EXPLAIN), may call no function that exposes files, settings or the host, and may
   name only relations the allow-list of :mod:`replicas.sandbox.sql_policy` can admit;
3. the query runs in this thread's query server (:mod:`replicas.sandbox.query_server`), a child
   process under an address-space limit, which checks the allow-list again on DuckDB's own parse
   tree with the warehouse's catalog at hand (relations must exist in ``raw``/``main``), and
   DuckDB's parser must agree it is exactly one such statement;
4. its connections are read-only with external access disabled and configuration locked;
5. the server interrupts the query at the task's timeout and the worker kills the server if it
   does not stop; results pass a byte budget in Arrow and come back as at most ``max_rows`` rows
   of capped cells.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError as SqlglotParseError

from replicas.sandbox.query_client import QueryFailed
from replicas.sandbox.sql_policy import (
    ALLOWED_SCHEMAS,
    INFORMATION_SCHEMA_VIEWS,
    MAX_CELL_CHARS,
    WHAT_IS_ALLOWED,
    denied_function,
    format_value,
)
from replicas.tools.base import Tool, ToolContext, ToolResult, register_tool, truncate

__all__ = [
    "DIALECTS",
    "MAX_CELL_CHARS",
    "MAX_QUERY_CHARS",
    "QueryRefused",
    "format_table",
    "format_value",
    "prepare_query",
    "run_sql",
]

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
_OTHER_CATALOGS = frozenset({"system", "temp"})
_SYSTEM_NAME_PREFIXES = ("duckdb_", "pragma_", "sqlite_")


class QueryRefused(ValueError):
    """The query is not a single read-only statement we are willing to run."""


def _function_name(node: Any) -> str | None:
    if isinstance(node, exp.Anonymous):
        return str(node.name).lower()
    if isinstance(node, exp.Func):
        return str(node.sql_name()).lower()
    return None


def _check_table(node: exp.Table) -> None:
    """What the syntax alone can tell about a relation (the server checks it against the
    catalog)."""
    source = node.this
    if not isinstance(source, exp.Identifier):
        if isinstance(source, exp.GenerateSeries):  # range(), generate_series()
            return
        name = _function_name(source) or type(source).__name__.lower()
        raise QueryRefused(f"table function {name}() is not available: {WHAT_IS_ALLOWED}")
    name = str(node.name)
    if isinstance(source, exp.Identifier) and _FILE_LIKE_RE.search(name):
        raise QueryRefused(f"{name!r} looks like a file path; files cannot be queried")
    shown = ".".join(p for p in (node.catalog, node.db, name) if p)
    schema, catalog, lowered = node.db.lower(), node.catalog.lower(), name.lower()
    if catalog in _OTHER_CATALOGS or (not catalog and schema in _OTHER_CATALOGS):
        raise QueryRefused(f"{shown} is not available: {WHAT_IS_ALLOWED}")
    if schema == "information_schema" and (catalog or lowered not in INFORMATION_SCHEMA_VIEWS):
        raise QueryRefused(f"{shown} is not available: {WHAT_IS_ALLOWED}")
    if schema == "pg_catalog" or lowered.startswith(_SYSTEM_NAME_PREFIXES):
        raise QueryRefused(f"{shown} is not available: {WHAT_IS_ALLOWED}")
    if catalog and schema not in ALLOWED_SCHEMAS:
        raise QueryRefused(f"{shown} is not available: {WHAT_IS_ALLOWED}")


def _check_ast(statement: Any) -> None:
    root = statement
    if isinstance(root, (exp.Pivot, getattr(exp, "Unpivot", exp.Pivot))) and root.parent is None:
        raise QueryRefused(
            "PIVOT/UNPIVOT statements are not supported; write SELECT … FROM t PIVOT "
            "(agg FOR col IN (v1, v2, …)) or use conditional aggregation"
        )
    if not isinstance(root, _ALLOWED_ROOTS):
        kind = type(root).__name__.upper()
        raise QueryRefused(
            f"{kind} statements are not allowed; only SELECT/WITH/DESCRIBE/SHOW/EXPLAIN queries"
        )
    for node in root.walk():
        if isinstance(node, _FORBIDDEN_NODES):
            raise QueryRefused(f"{type(node).__name__.upper()} is not allowed inside a query")
        name = _function_name(node)
        if name and denied_function(name):
            raise QueryRefused(
                f"function {name}() is not available: it reads files, other databases or "
                f"host settings; {WHAT_IS_ALLOWED}"
            )
        if isinstance(node, exp.Table):
            _check_table(node)


def prepare_query(query: str, dialect: str = "duckdb") -> str:
    """The DuckDB SQL to run for ``query``, or QueryRefused saying why not."""
    if len(query) > MAX_QUERY_CHARS:
        raise QueryRefused(f"query is longer than {MAX_QUERY_CHARS} characters")
    if dialect not in DIALECTS:
        raise QueryRefused(f"unknown dialect {dialect!r}; use one of {', '.join(DIALECTS)}")
    if not query.strip():
        raise QueryRefused("empty query")
    # sqlglot has no EXPLAIN node: check the explained query instead (the server checks it too).
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


def format_table(
    columns: Sequence[str], rows: Sequence[Sequence[str]], more: bool, max_rows: int
) -> str:
    """Pipe-separated rows of rendered cells under a header; columns padded (up to 40 wide)."""
    widths = [min(len(c), 40) for c in columns]
    for row in rows:
        widths = [min(max(w, len(c)), 40) for w, c in zip(widths, row, strict=True)]

    def line(values: Sequence[str]) -> str:
        return " | ".join(v.ljust(w) for v, w in zip(values, widths, strict=True)).rstrip()

    out = [line(columns), "-+-".join("-" * w for w in widths)]
    out.extend(line(r) for r in rows)
    if more:
        out.append(f"… [result truncated to the first {max_rows} rows; aggregate or add LIMIT]")
    else:
        out.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(out)


def run_sql(query: str, dialect: str, ctx: ToolContext) -> ToolResult:
    """Check ``query``, run it in the sandbox's query server and render the observation."""
    limits = ctx.limits
    timeout_s = limits.sql_timeout_s
    if ctx.deadline is not None:
        timeout_s = min(timeout_s, ctx.deadline - time.monotonic())
        if timeout_s <= 0.1:
            return ToolResult.fail("no time is left in this episode for a query")
    try:
        sql = prepare_query(query, dialect)
        result = ctx.sandbox.query(
            sql,
            timeout_s=timeout_s,
            max_rows=limits.max_output_rows,
            max_chars=limits.max_output_chars,
        )
    except QueryRefused as exc:
        return ToolResult.fail(str(exc))
    except QueryFailed as exc:
        return ToolResult.fail(truncate(exc.message, 1500))
    text = format_table(result.columns, result.rows, result.more, limits.max_output_rows)
    return ToolResult(text=truncate(text, limits.max_output_chars))


def _run(arguments: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    query = str(arguments.get("query", ""))
    dialect = str(arguments.get("dialect") or "duckdb").lower()
    return run_sql(query, dialect, ctx)


SQL_TOOL = register_tool(
    Tool(
        name="sql",
        description=(
            "Run one read-only SQL query (SELECT/WITH/DESCRIBE/SHOW/EXPLAIN) on the warehouse "
            "(DuckDB). Raw tables live in schema 'raw', dbt models in schema 'main'; "
            "information_schema.tables/columns describe them. Other SQL dialects are translated "
            "to DuckDB. Results are capped in rows, characters and bytes; queries are timed out."
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
