"""Execute a :class:`~replicas.build.plan.ReplayPlan` in DuckDB: what ``dbt build`` does, minus dbt.

Models run in DAG order with the statements dbt-duckdb issues (``create view … as (…)`` /
``create table … as (…)``; ephemerals are already inlined as CTEs by dbt), all inside one
transaction so a failed replay leaves only the raw tables behind. Data tests are wrapped exactly as
dbt's ``get_test_sql`` wraps them (``fail_calc``, ``warn_if``, ``error_if``, ``limit``) and run as a
few ``UNION ALL`` queries instead of one round trip each.

A failing test is reported the way ``dbt build`` reports it: the same ``FAIL <unique_id>: Got N
results, configured to fail if != 0`` lines, and tests that dbt would have skipped (they test a
model downstream of a failed test) are counted as skipped, not failed. Any DuckDB error raises
:class:`ReplayAbandoned`: the caller rolls back to dbt, which decides.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from replicas.build.plan import ReplayPlan, TestStep
from replicas.dbt import summarise

__all__ = [
    "REPLAY_DUCKDB_CONFIG",
    "ReplayAbandoned",
    "ReplayOutcome",
    "replay",
    "replay_connection",
]

#: The connection settings run_dbt's profile gives dbt-duckdb: a model cannot read outside files.
REPLAY_DUCKDB_CONFIG: dict[str, Any] = {
    "enable_external_access": False,
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
}
#: Tests per UNION ALL query: few round trips, yet one slow test does not serialise everything.
TEST_BATCH_SIZE = 32


class ReplayAbandoned(RuntimeError):
    """Replay could not run the plan on this warehouse (nothing of it was committed)."""


@dataclass(frozen=True)
class ReplayOutcome:
    """``results`` has the shape of :func:`replicas.dbt.run_dbt`'s results (one per node)."""

    ok: bool
    summary: str
    results: list[dict[str, Any]] = field(default_factory=list)
    test_queries: int = 0
    models_s: float = 0.0
    tests_s: float = 0.0


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _relation(database: str, schema: str, identifier: str) -> str:
    return f"{_q(database)}.{_q(schema)}.{_q(identifier)}"


def _test_sql(test: TestStep) -> str:
    # dbt's test materialisation: get_limit_subquery_sql, then default__get_test_sql.
    main = test.sql if test.limit is None else f"{test.sql}\n  limit {test.limit}"
    return (
        f"select\n      {test.fail_calc} as failures,\n"
        f"      {test.fail_calc} {test.warn_if} as should_warn,\n"
        f"      {test.fail_calc} {test.error_if} as should_error\n"
        f"    from (\n      {main}\n      \n    ) dbt_internal_test"
    )


def _batch_sql(tests: list[TestStep]) -> str:
    parts = [
        f"select {i} as test_index, failures, should_warn, should_error from (\n{_test_sql(t)}\n)"
        for i, t in enumerate(tests)
    ]
    return "\nunion all\n".join(parts)


def _pluralise(count: Any) -> str:
    return f"{count} result" + ("" if count == 1 else "s")


def _judge(test: TestStep, failures: Any, should_warn: Any, should_error: Any) -> dict[str, Any]:
    if isinstance(failures, float) and failures.is_integer():
        failures = int(failures)
    if test.severity.upper() == "ERROR" and should_error:
        status = "fail"
        message = f"Got {_pluralise(failures)}, configured to fail if {test.error_if}"
    elif should_warn:
        status = "warn"
        message = f"Got {_pluralise(failures)}, configured to warn if {test.warn_if}"
    else:
        status, message, failures = "pass", "", 0
    return {"unique_id": test.unique_id, "status": status, "message": message, "failures": failures}


def _apply_skips(plan: ReplayPlan, tested: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Results in ``dbt build``'s terms: what a failed test blocks is skipped, not run.

    dbt makes every model that descends from *all* of a test's parents wait for that test
    (``add_test_edges``); when the test fails, those models, and everything that needs them, are
    skipped. Tests are taken in DAG order of their last parent, so a failure is only reported if
    dbt would have reached it.
    """
    position = {m.unique_id: i for i, m in enumerate(plan.models)}
    ancestors: dict[str, set[str]] = {}
    for model in plan.models:
        found: set[str] = set()
        for parent in model.parents:
            found.add(parent)
            found |= ancestors[parent]
        ancestors[model.unique_id] = found
    skipped: set[str] = set()
    test_results: list[dict[str, Any]] = []
    order = sorted(
        plan.tests, key=lambda t: (max((position[p] for p in t.parents), default=-1), t.unique_id)
    )
    for test in order:
        result = tested[test.unique_id]
        if any(p in skipped for p in test.parents):
            result = {**result, "status": "skipped", "message": "", "failures": None}
        elif result["status"] == "fail":
            parents = set(test.parents)
            skipped |= {m for m, anc in ancestors.items() if parents and parents <= anc}
        test_results.append(result)
    model_results = [
        {
            "unique_id": m.unique_id,
            "status": "skipped" if m.unique_id in skipped else "success",
            "message": "" if m.unique_id in skipped else "OK",
            "failures": None,
        }
        for m in plan.models
        if m.materialized != "ephemeral"
    ]
    return model_results + test_results


def _run_tests(
    con: duckdb.DuckDBPyConnection, tests: tuple[TestStep, ...]
) -> tuple[dict[str, dict[str, Any]], int]:
    results: dict[str, dict[str, Any]] = {}
    queries = 0
    for start in range(0, len(tests), TEST_BATCH_SIZE):
        batch = list(tests[start : start + TEST_BATCH_SIZE])
        rows = con.execute(_batch_sql(batch)).fetchall()
        queries += 1
        if len(rows) != len(batch):
            raise ReplayAbandoned(f"a test batch returned {len(rows)} rows for {len(batch)} tests")
        for index, failures, should_warn, should_error in rows:
            test = batch[index]
            results[test.unique_id] = _judge(test, failures, should_warn, should_error)
    return results, queries


def replay_connection(warehouse: Path, *, threads: int | None = None) -> duckdb.DuckDBPyConnection:
    """A read-write connection to ``warehouse`` configured like dbt-duckdb's (see run_dbt)."""
    config = dict(REPLAY_DUCKDB_CONFIG)
    if threads:
        config["threads"] = int(threads)
    con = duckdb.connect(str(warehouse), config=config)
    con.execute("set enable_progress_bar = false")  # builds run in farms and under CLI spinners
    return con


def replay(plan: ReplayPlan, con: duckdb.DuckDBPyConnection) -> ReplayOutcome:
    """Build every model of ``plan`` through ``con`` and run its tests; commit only on success.

    Returns ``ok=False`` (nothing committed) when a test fails; raises :class:`ReplayAbandoned`
    when DuckDB raised anything, naming the node, so the caller can let dbt decide. The caller
    owns ``con`` (and may read the committed warehouse through it afterwards).
    """
    node = "the warehouse"
    try:
        database = con.execute("select current_database()").fetchall()[0][0]
        if database != plan.database:
            raise ReplayAbandoned(
                f"the project was compiled against database {plan.database!r}, "
                f"the warehouse file opens as {database!r}"
            )
        con.execute("begin transaction")
        try:
            t0 = time.perf_counter()
            built = [m for m in plan.models if m.materialized != "ephemeral"]
            existing = {
                r[0] for r in con.execute("select schema_name from duckdb_schemas()").fetchall()
            }
            for schema in sorted({m.schema for m in built} - existing):
                con.execute(f"create schema if not exists {_q(plan.database)}.{_q(schema)}")
            for model in built:
                node = model.unique_id
                kind = "view" if model.materialized == "view" else "table"
                relation = _relation(model.database, model.schema, model.identifier)
                con.execute(f"create {kind} {relation} as (\n    {model.sql}\n  );")
            models_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            node = "a data test batch"
            tested, queries = _run_tests(con, plan.tests)
            tests_s = time.perf_counter() - t0
        except BaseException:
            with contextlib.suppress(duckdb.Error):
                con.execute("rollback")
            raise
        results = _apply_skips(plan, tested)
        ok = not any(r["status"] in {"fail", "error"} for r in results)
        if ok:
            con.execute("commit")
            con.execute("checkpoint")
        else:
            con.execute("rollback")
        summary = summarise(results, "", 0 if ok else 1).rsplit("\n", 1)[0]
        return ReplayOutcome(
            ok=ok,
            summary=f"{summary}\ndbt build replayed from compiled SQL: {'ok' if ok else 'failed'}",
            results=results,
            test_queries=queries,
            models_s=models_s,
            tests_s=tests_s,
        )
    except duckdb.Error as exc:
        raise ReplayAbandoned(f"{node}: {type(exc).__name__}: {exc}") from exc
