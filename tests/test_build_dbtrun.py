"""The dbt engine's split build (``replicas.build.dbtrun``): dbt builds, the data tests run
in-process, and every test gets the verdict real ``dbt build`` gives it (real dbt, real DuckDB)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import duckdb
import pytest

from replicas.build import ensure_snapshot
from replicas.build.dbtrun import (
    DataTestsNeedDbt,
    DbtProcess,
    data_tests,
    raw_written_by,
    run_data_tests,
)
from replicas.build.fingerprint import PROJECT_IGNORE
from replicas.build.replay import replay_connection
from replicas.build.tables import fingerprint_schemas
from replicas.dbt import run_dbt
from replicas.replica import ReplicaSpec, get_replica, register_replica
from tests.toy_replica import TOY_PROJECT, ensure_registered

ensure_registered()

# Tests that pass, warn (severity, warn_if), fail (error_if, limit), filter (where), count with
# their own fail_calc, and a singular test — failures only on the leaf model, so dbt build skips
# nothing and every test has a dbt verdict to compare with.
_SCHEMA_YML = """
version: 2
sources:
  - name: raw
    schema: raw
    tables:
      - name: things
models:
  - name: base
    columns:
      - name: thing_id
        data_tests: [unique, not_null]
      - name: kind
        data_tests:
          - accepted_values:
              arguments: {values: ['a', 'b']}
              config: {severity: warn}
          - accepted_values:
              name: kind_ab_where
              arguments: {values: ['a', 'b']}
              config: {where: "kind <> 'c'"}
  - name: totals
    columns:
      - name: kind
        data_tests:
          - accepted_values:
              name: kind_only_a_warn_band
              arguments: {values: ['a']}
              config: {warn_if: ">1", error_if: ">5"}
          - accepted_values:
              name: kind_only_a_error
              arguments: {values: ['a']}
          - accepted_values:
              name: kind_only_a_limited
              arguments: {values: ['a']}
              config: {limit: 1}
          - not_null:
              name: n_calc
              config: {fail_calc: "coalesce(sum(1), 0) + 3", warn_if: ">= 3", error_if: ">= 4"}
"""


def _judged_project(root: Path) -> tuple[Path, Path]:
    project = root / "dbt"
    (project / "models").mkdir(parents=True)
    (project / "tests").mkdir()
    (project / "dbt_project.yml").write_text(
        "name: judged\nversion: '1.0'\nconfig-version: 2\nprofile: replica\n"
        "models:\n  judged:\n    +materialized: view\n    totals:\n      +materialized: table\n"
    )
    (project / "models" / "schema.yml").write_text(_SCHEMA_YML)
    (project / "models" / "base.sql").write_text("select * from {{ source('raw', 'things') }}\n")
    (project / "models" / "totals.sql").write_text(
        "select kind, count(*) as n, sum(value) as total from {{ ref('base') }} group by kind\n"
    )
    (project / "tests" / "no_negative_values.sql").write_text(
        "select * from {{ ref('base') }} where value < 0\n"
    )
    warehouse = root / "db" / "warehouse.duckdb"
    warehouse.parent.mkdir()
    con = duckdb.connect(str(warehouse))
    con.execute("create schema raw")
    con.execute(
        "create table raw.things as select range as thing_id,"
        " ['a', 'b', 'c'][range % 3 + 1] as kind, (range * 7 % 11)::double as value"
        " from range(30)"
    )
    con.close()
    return project, warehouse


def _copy(src: tuple[Path, Path], root: Path) -> tuple[Path, Path]:
    shutil.copytree(src[0], root / "dbt", ignore=shutil.ignore_patterns(*PROJECT_IGNORE))
    (root / "db").mkdir()
    shutil.copyfile(src[1], root / "db" / "warehouse.duckdb")
    return root / "dbt", root / "db" / "warehouse.duckdb"


def _verdicts(results: list[dict[str, Any]]) -> dict[str, tuple[str, Any]]:
    return {
        r["unique_id"]: (r["status"], r["failures"])
        for r in results
        if r["unique_id"].startswith("test.")
    }


def _split_run(project: Path, warehouse: Path) -> tuple[list[dict[str, Any]], list[dict]]:
    """dbt builds all but the data tests (released at once); the tests run in-process."""
    with DbtProcess(project, warehouse).start() as process:
        process.release()
        outcome = process.finish()
    assert outcome.result.ok, outcome.result.summary
    assert outcome.tests_compiled
    con = replay_connection(warehouse)
    try:
        tested, _ = run_data_tests(con, project)
    finally:
        con.close()
    return outcome.result.results, tested


def test_in_process_data_tests_give_dbt_builds_verdicts(tmp_path: Path) -> None:
    source = _judged_project(tmp_path / "src")
    dbt_project, dbt_warehouse = _copy(source, tmp_path / "dbt_run")
    real = run_dbt(dbt_project, dbt_warehouse, ["build"], trusted=True)
    expected = _verdicts(real.results)
    assert not real.ok  # the failing tests fail the real build too
    assert {s for s, _ in expected.values()} == {"pass", "warn", "fail"}
    assert not [r for r in real.results if r["status"] == "skipped"]

    project, warehouse = _copy(source, tmp_path / "split")
    built, tested = _split_run(project, warehouse)
    assert not [r for r in built if r["unique_id"].startswith("test.")]  # dbt ran no data test
    assert {r["unique_id"] for r in built} == {
        r["unique_id"] for r in real.results if not r["unique_id"].startswith("test.")
    }
    assert _verdicts(tested) == expected
    # spot checks of dbt's semantics, so the comparison cannot pass on two wrong answers
    by_name = {uid.split(".")[2]: v for uid, v in expected.items()}
    assert by_name["kind_only_a_limited"] == ("fail", 1)
    assert by_name["kind_only_a_warn_band"] == ("warn", 2)
    assert by_name["kind_only_a_error"] == ("fail", 2)
    assert by_name["kind_ab_where"] == ("pass", 0)
    assert by_name["n_calc"] == ("warn", 3)


def test_tests_that_need_dbt_are_refused(tmp_path: Path) -> None:
    test_node = {
        "resource_type": "test",
        "compiled": True,
        "compiled_code": "select 1",
        "config": {"severity": "error"},
    }
    assert len(data_tests({"nodes": {"test.x.t": test_node}}, None)) == 1
    stored = {**test_node, "config": {"store_failures": True}}
    with pytest.raises(DataTestsNeedDbt, match="stores failures"):
        data_tests({"nodes": {"test.x.t": stored}}, None)
    with pytest.raises(DataTestsNeedDbt, match="warn_error"):
        data_tests({"nodes": {"test.x.t": test_node}}, "flags:\n  warn_error: true\n")


def test_raw_written_by_names_what_could_change_raw_tables() -> None:
    model = {"resource_type": "model", "schema": "main", "config": {}, "raw_code": "select 1"}
    assert raw_written_by({"nodes": {"model.p.m": model}}, "raw") is None
    cases = {
        "is built in schema raw": {**model, "schema": "RAW"},
        "hooks": {**model, "config": {"post-hook": ["delete from raw.t"]}},
        "runs statements": {**model, "raw_code": "{% do run_query('delete from raw.t') %}"},
        "is a hook": {"resource_type": "operation", "config": {}},
    }
    for reason, node in cases.items():
        assert reason in str(raw_written_by({"nodes": {"model.p.m": node}}, "raw"))
    macro = {"package_name": "p", "macro_sql": "{% call statement('x') %}drop{% endcall %}"}
    assert "macro.p.m runs statements" in str(
        raw_written_by({"nodes": {}, "macros": {"macro.p.m": macro}}, "raw")
    )
    builtin = {**macro, "package_name": "dbt"}
    assert raw_written_by({"nodes": {}, "macros": {"macro.dbt.m": builtin}}, "raw") is None


def test_dbt_engine_build_runs_tests_in_process_and_hashes_raw_while_dbt_builds() -> None:
    snap = ensure_snapshot("toy", 31, engine="dbt", force=True)
    info = json.loads((snap.path / "build.json").read_text())
    assert info["engine"] == "dbt"
    assert info["data_tests"]["run"] == "in-process" and info["data_tests"]["tests"] == 2
    assert "rehashed_because" not in info["raw_fingerprint"]
    manifest = json.loads((snap.path / "manifest.json").read_text())
    assert manifest["dbt"]["status_counts"] == {"pass": 2, "success": 1}
    # the hashes computed while dbt built are the built warehouse's
    direct = fingerprint_schemas(snap.warehouse, {"raw": None, "main": "BASE TABLE"})
    assert manifest["tables"] == {"raw": direct["raw"], "marts": direct["main"]}
    assert sorted(p.name for p in snap.path.iterdir()) == [
        "build.json",
        "dbt",
        "integrity.json",
        "manifest.json",
        "warehouse.duckdb",
    ]
    assert sorted(p.name for p in (snap.dbt_project / "target").iterdir()) == ["manifest.json"]
    target_manifest = json.loads((snap.dbt_project / "target" / "manifest.json").read_text())
    tests = [n for n in target_manifest["nodes"].values() if n["resource_type"] == "test"]
    assert tests and all(n.get("compiled_code") for n in tests)


def test_tests_dbt_must_run_go_through_dbt_test(tmp_path: Path) -> None:
    project = tmp_path / "toy_stored"
    shutil.copytree(TOY_PROJECT, project)
    (project / "dbt_project.yml").write_text(
        (project / "dbt_project.yml").read_text() + "\ndata_tests:\n  +store_failures: true\n"
    )
    try:
        get_replica("toy_stored")
    except ValueError:
        register_replica(
            ReplicaSpec(
                name="toy_stored",
                description="tests store failures",
                generator="tests.toy_replica:generate",
                dbt_project=project,
            )
        )
    snap = ensure_snapshot("toy_stored", 3, engine="dbt")
    info = json.loads((snap.path / "build.json").read_text())
    assert info["data_tests"]["run"] == "dbt test"
    assert "stores failures" in info["data_tests"]["reason"]
    manifest = json.loads((snap.path / "manifest.json").read_text())
    assert manifest["dbt"]["status_counts"] == {"pass": 2, "success": 1}


@pytest.mark.slow
def test_enterprise_in_process_tests_match_dbt_build(tmp_path: Path) -> None:
    """Every one of the enterprise project's data tests: the verdict of a real ``dbt build``."""
    from replicas.warehouse import load_raw_tables

    spec = get_replica("ecommerce_enterprise")
    (tmp_path / "src" / "db").mkdir(parents=True)
    raw = tmp_path / "src" / "db" / "warehouse.duckdb"
    load_raw_tables(raw, dict(spec.load_generator()(11, 0.01)))
    shutil.copytree(spec.dbt_project, tmp_path / "src" / "dbt")
    source = (tmp_path / "src" / "dbt", raw)
    dbt_project, dbt_warehouse = _copy(source, tmp_path / "dbt_run")
    real = run_dbt(dbt_project, dbt_warehouse, ["build"], trusted=True, timeout_s=1800)
    assert real.ok, real.summary
    project, warehouse = _copy(source, tmp_path / "split")
    built, tested = _split_run(project, warehouse)
    expected = _verdicts(real.results)
    assert len(expected) >= 270
    assert _verdicts(tested) == expected
    non_tests = {r["unique_id"]: r["status"] for r in real.results}
    assert {r["unique_id"]: r["status"] for r in built} == {
        uid: s for uid, s in non_tests.items() if not uid.startswith("test.")
    }
    assert fingerprint_schemas(warehouse, {"main": "BASE TABLE"}) == fingerprint_schemas(
        dbt_warehouse, {"main": "BASE TABLE"}
    )
