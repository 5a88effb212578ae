"""What agent SQL may read, and how a result cell is shown to the agent.

Shared by the worker-side check of the ``sql`` tool (sqlglot, before anything runs) and the query
server (DuckDB's own parse tree, where the catalog is known), so both layers refuse the same
things with the same words. Imports nothing heavy: the worker loads it on every ``sql`` call.

The rule is an allow-list, not a list of bad names: a query may read

* relations of schemas ``raw`` and ``main`` of the episode's warehouse (one-, two- or three-part
  names; a three-part name must name the warehouse's own catalog),
* the CTEs it defines itself,
* the documented views ``information_schema.tables|columns|schemata|views``,
* the table functions ``range``, ``generate_series`` and ``unnest`` (and ``VALUES`` lists).

Everything else (``duckdb_*`` and ``pragma_*`` functions and views, ``pg_catalog``, ``system``,
``temp``, ``sqlite_master``, ``query()``, files) is refused. A short deny-list of scalar functions
that expose the host or settings stays as a second layer.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ALLOWED_SCHEMAS",
    "ALLOWED_TABLE_FUNCTIONS",
    "INFORMATION_SCHEMA_VIEWS",
    "MAX_CELL_CHARS",
    "WHAT_IS_ALLOWED",
    "denied_function",
    "format_value",
    "truncation_note",
]

ALLOWED_SCHEMAS = frozenset({"raw", "main"})
INFORMATION_SCHEMA_VIEWS = frozenset({"tables", "columns", "schemata", "views"})
ALLOWED_TABLE_FUNCTIONS = frozenset({"range", "generate_series", "unnest"})

WHAT_IS_ALLOWED = (
    "queries may read tables and views of schemas raw and main, their own CTEs, "
    "information_schema.tables/columns/schemata/views, VALUES lists and the table functions "
    "range(), generate_series() and unnest()"
)

# Scalar functions that answer with host paths, settings or run SQL text of their own; the
# allow-list already keeps every relation they could read out of reach.
_DENIED_FUNCTIONS = frozenset(
    {
        "current_setting",
        "getvariable",
        "getenv",
        "glob",
        "query",
        "query_table",
        "json_execute_serialized_sql",
        "which_secret",
        "csv_scan",
        "parquet_scan",
        "sql_auto_complete",
    }
)
_DENIED_PREFIXES = (
    "duckdb_",
    "pragma_",
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


def denied_function(name: str) -> bool:
    """True for a function the agent may not call whatever its arguments."""
    lowered = name.lower()
    return lowered in _DENIED_FUNCTIONS or lowered.startswith(_DENIED_PREFIXES)


MAX_CELL_CHARS = 1000


def truncation_note(hidden_chars: int) -> str:
    return f"…[+{hidden_chars} characters truncated]"


def format_value(value: Any) -> str:
    """One result cell as the agent sees it: NULL, floats to 15 significant digits, newlines
    escaped, at most :data:`MAX_CELL_CHARS` characters with a note saying how many were cut."""
    if value is None:
        return "NULL"
    text = format(value, ".15g") if isinstance(value, float) else str(value).replace("\n", "\\n")
    if len(text) > MAX_CELL_CHARS:
        text = text[:MAX_CELL_CHARS] + truncation_note(len(text) - MAX_CELL_CHARS)
    return text
