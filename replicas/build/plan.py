"""What replay executes, read from the ``target/manifest.json`` a real ``dbt build`` wrote.

:func:`analyse` turns a manifest into a :class:`ReplayPlan` — models in DAG order with their
compiled SQL and materialisation, data tests with their compiled SQL and result configuration — or
into the reason replay cannot reproduce ``dbt build`` for this project. Replay is refused (and dbt
builds the project) when compiled SQL may depend on the data or the clock (``run_query``,
``statement``, ``execute``, adapter introspection, ``get_column_values``, ``run_started_at`` …),
when a materialisation other than view/table/ephemeral is used (incremental, snapshot, seed,
external), for Python models, hooks, contracts, stored test failures, unit tests and project
overrides of the macros whose behaviour replay re-implements.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

import yaml

__all__ = ["PLAN_SCHEMA_VERSION", "ModelStep", "ReplayPlan", "TestStep", "analyse"]

PLAN_SCHEMA_VERSION = 1
MATERIALIZATIONS = ("view", "table", "ephemeral")

# Jinja that reads the warehouse (or the clock) while compiling: the compiled SQL of one build
# would be wrong for another seed's data.
_DATA_DEPENDENT = re.compile(
    r"\b(run_query|statement|load_result|execute|is_incremental|get_columns_in_relation"
    r"|get_columns_in_query|get_column_values|get_query_results_as_dict|get_relations_by_pattern"
    r"|get_relations_by_prefix|get_filtered_columns_in_relation|load_relation"
    r"|load_cached_relation|run_started_at|invocation_id)\b"
    r"|\badapter\s*\.\s*(?!dispatch\b|quote\b|quote_as_configured\b|type\b)\w+"
    r"|\bmodules\s*\.\s*(datetime|time)\b"
)
_JINJA_BLOCK = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.DOTALL)
# Project macros with these names change how dbt executes nodes; replay re-implements the
# built-in behaviour, so an override means dbt must run.
_EXECUTION_MACROS = re.compile(
    r"^(materialization_.*|(\w+__)?(create_table_as|create_view_as|get_test_sql|get_limit_sql"
    r"|get_limit_subquery_sql|should_store_failures|get_create_sql|rename_relation"
    r"|create_schema|run_hooks))$"
)
_MODEL_CONFIG_UNSUPPORTED = (
    "sql_header",
    "partitioned_by",
    "partition_by",
    "sorted_by",
    "sort_by",
    "indexes",
)


@dataclass(frozen=True)
class ModelStep:
    """One model: where it lands, how it is materialised, its compiled SQL, its model parents."""

    unique_id: str
    database: str
    schema: str
    identifier: str
    materialized: str
    sql: str
    parents: tuple[str, ...]

    def __post_init__(self) -> None:
        if self.materialized not in MATERIALIZATIONS:
            raise ValueError(f"{self.unique_id}: unsupported materialisation {self.materialized!r}")
        if self.materialized != "ephemeral" and not (self.schema and self.identifier):
            raise ValueError(f"{self.unique_id}: missing schema or identifier")
        object.__setattr__(self, "parents", tuple(self.parents))


@dataclass(frozen=True)
class TestStep:
    """One data test: compiled SQL (returns failing rows) and how dbt judges its result."""

    unique_id: str
    sql: str
    parents: tuple[str, ...]
    severity: str
    fail_calc: str
    warn_if: str
    error_if: str
    limit: int | None

    def __post_init__(self) -> None:
        if self.severity.upper() not in {"ERROR", "WARN"}:
            raise ValueError(f"{self.unique_id}: severity must be error or warn")
        if self.limit is not None and (isinstance(self.limit, bool) or self.limit < 0):
            raise ValueError(f"{self.unique_id}: limit must be a non-negative integer")
        object.__setattr__(self, "parents", tuple(self.parents))


@dataclass(frozen=True)
class ReplayPlan:
    """Models in a DAG order (parents first) and every data test ``dbt build`` would run."""

    database: str
    models: tuple[ModelStep, ...]
    tests: tuple[TestStep, ...]

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for model in self.models:
            if any(p not in seen for p in model.parents):
                raise ValueError(f"{model.unique_id}: models are not in DAG order")
            seen.add(model.unique_id)
        for test in self.tests:
            if any(p not in seen for p in test.parents):
                raise ValueError(f"{test.unique_id}: tests a model missing from the plan")
        object.__setattr__(self, "models", tuple(self.models))
        object.__setattr__(self, "tests", tuple(self.tests))

    def to_dict(self) -> dict[str, Any]:
        return {
            "database": self.database,
            "models": [asdict(m) for m in self.models],
            "tests": [asdict(t) for t in self.tests],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ReplayPlan:
        return cls(
            database=str(data["database"]),
            models=tuple(ModelStep(**m) for m in data["models"]),
            tests=tuple(TestStep(**t) for t in data["tests"]),
        )


def _jinja_of(text: str | None) -> str:
    return "\n".join(_JINJA_BLOCK.findall(text or ""))


def _data_dependence(text: str | None) -> str | None:
    match = _DATA_DEPENDENT.search(_jinja_of(text))
    return match.group(0) if match else None


def _macro_closure(
    start: Iterable[str], macros: Mapping[str, Any], builtin: set[str]
) -> Iterable[tuple[str, Mapping[str, Any]]]:
    """User and package macros reachable from ``start`` (dbt's own macros are leaves)."""
    pending, seen = list(start), set()
    while pending:
        uid = pending.pop()
        if uid in seen or uid not in macros:
            continue
        seen.add(uid)
        macro = macros[uid]
        if macro.get("package_name") in builtin:
            continue
        yield uid, macro
        pending.extend(macro.get("depends_on", {}).get("macros", []))


def _project_flag_problem(project_yml: str | None) -> str | None:
    if not project_yml:
        return None
    try:
        flags = (yaml.safe_load(project_yml) or {}).get("flags") or {}
    except yaml.YAMLError as exc:
        return f"dbt_project.yml is unreadable: {exc}"
    for flag in ("warn_error", "warn_error_options", "store_failures", "fail_fast"):
        if flags.get(flag):
            return f"dbt_project.yml sets flags.{flag}"
    return None


def _model_problem(uid: str, node: Mapping[str, Any]) -> str | None:
    config = node.get("config", {})
    materialized = config.get("materialized")
    if node.get("language", "sql") != "sql":
        return f"{uid} is a {node.get('language')} model"
    if materialized not in MATERIALIZATIONS:
        return f"{uid} is materialized as {materialized!r} (replay runs view, table, ephemeral)"
    if config.get("pre-hook") or config.get("post-hook"):
        return f"{uid} has pre-/post-hooks"
    if (config.get("contract") or {}).get("enforced"):
        return f"{uid} enforces a contract"
    if config.get("grants"):
        return f"{uid} configures grants"
    if any((config.get("persist_docs") or {}).values()):
        return f"{uid} persists docs"
    for key in _MODEL_CONFIG_UNSUPPORTED:
        if config.get(key):
            return f"{uid} configures {key}"
    if not node.get("compiled") or node.get("compiled_code") is None:
        return f"{uid} was not compiled"
    return None


def _test_problem(uid: str, node: Mapping[str, Any]) -> str | None:
    config = node.get("config", {})
    if config.get("store_failures") or config.get("store_failures_as") not in (None, "ephemeral"):
        return f"{uid} stores failures"
    if config.get("sql_header"):
        return f"{uid} configures sql_header"
    if str(config.get("severity", "ERROR")).upper() not in {"ERROR", "WARN"}:
        return f"{uid} has severity {config.get('severity')!r}"
    if not node.get("compiled") or node.get("compiled_code") is None:
        return f"{uid} was not compiled"
    return None


def _dag_order(parents: Mapping[str, tuple[str, ...]]) -> list[str]:
    children: dict[str, list[str]] = {uid: [] for uid in parents}
    waiting = {uid: len(ps) for uid, ps in parents.items()}
    for uid, ps in parents.items():
        for p in ps:
            children[p].append(uid)
    ready = [uid for uid, n in waiting.items() if n == 0]
    heapq.heapify(ready)
    order: list[str] = []
    while ready:
        uid = heapq.heappop(ready)
        order.append(uid)
        for child in children[uid]:
            waiting[child] -= 1
            if waiting[child] == 0:
                heapq.heappush(ready, child)
    if len(order) != len(parents):
        raise ValueError("the model graph has a cycle")
    return order


def analyse(
    manifest: Mapping[str, Any], project_yml: str | None = None
) -> tuple[ReplayPlan | None, str | None]:
    """``(plan, None)`` when replay reproduces ``dbt build`` of ``manifest``; else ``(None, why)``."""
    problem = _project_flag_problem(project_yml)
    if problem:
        return None, problem
    if manifest.get("unit_tests"):
        return None, f"the project has {len(manifest['unit_tests'])} unit test(s)"
    if manifest.get("functions"):
        return None, "the project defines functions (UDFs)"
    adapter = str(manifest.get("metadata", {}).get("adapter_type", "duckdb"))
    builtin = {"dbt", f"dbt_{adapter}"}
    macros: Mapping[str, Any] = manifest.get("macros", {})
    for uid, macro in sorted(macros.items()):
        if macro.get("package_name") not in builtin and _EXECUTION_MACROS.match(macro["name"]):
            return None, f"{uid} overrides how dbt executes nodes"

    nodes: Mapping[str, Any] = manifest.get("nodes", {})
    models: dict[str, Mapping[str, Any]] = {}
    tests: dict[str, Mapping[str, Any]] = {}
    for uid, node in sorted(nodes.items()):
        kind = node.get("resource_type")
        if kind == "model":
            models[uid] = node
        elif kind == "test":
            tests[uid] = node
        elif kind == "analysis":
            continue  # compiled, never executed by dbt build
        else:
            return None, f"{uid}: dbt build runs {kind} nodes, replay does not"

    for uid, node in [*models.items(), *tests.items()]:
        problem = _model_problem(uid, node) if uid in models else _test_problem(uid, node)
        if problem:
            return None, problem
        found = _data_dependence(node.get("raw_code"))
        if found:
            return None, f"{uid} uses `{found}`: its compiled SQL may depend on the data"
        for macro_id, macro in _macro_closure(
            node.get("depends_on", {}).get("macros", []), macros, builtin
        ):
            found = _data_dependence(macro.get("macro_sql"))
            if found:
                return None, (
                    f"{uid} calls {macro_id}, which uses `{found}`: "
                    "its compiled SQL may depend on the data"
                )

    databases = {str(n.get("database")) for n in models.values()}
    if len(databases) > 1:
        return None, f"models live in several databases: {sorted(databases)}"
    parents = {
        uid: tuple(sorted({p for p in n["depends_on"]["nodes"] if p in models}))
        for uid, n in models.items()
    }
    try:
        order = _dag_order(parents)
    except ValueError as exc:
        return None, str(exc)
    model_steps = tuple(
        ModelStep(
            unique_id=uid,
            database=str(models[uid].get("database")),
            schema=str(models[uid].get("schema")),
            identifier=str(models[uid].get("alias") or models[uid].get("name")),
            materialized=str(models[uid]["config"]["materialized"]),
            sql=str(models[uid]["compiled_code"]),
            parents=parents[uid],
        )
        for uid in order
    )
    test_steps = []
    for uid, node in tests.items():
        config = node["config"]
        limit = config.get("limit")
        test_steps.append(
            TestStep(
                unique_id=uid,
                sql=str(node["compiled_code"]),
                parents=tuple(sorted({p for p in node["depends_on"]["nodes"] if p in models})),
                severity=str(config.get("severity", "ERROR")),
                fail_calc=str(config.get("fail_calc") or "count(*)"),
                warn_if=str(config.get("warn_if") or "!= 0"),
                error_if=str(config.get("error_if") or "!= 0"),
                limit=None if limit is None else int(limit),
            )
        )
    database = databases.pop() if databases else "warehouse"
    return ReplayPlan(database=database, models=model_steps, tests=tuple(test_steps)), None
