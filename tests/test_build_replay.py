"""Compiled replay vs real ``dbt build``: same tables, same manifest, same failures, safe fallback."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from replicas.build import BuildError, BuildKey, Snapshot, build_info, build_into, ensure_snapshot
from replicas.build.compiled import PARSE_STATE, load_compiled
from replicas.build.plan import analyse
from replicas.replica import ReplicaSpec, get_replica, register_replica
from tests.toy_replica import TOY_PROJECT, ensure_registered

ensure_registered()


def _register(name: str, project: Path) -> None:
    try:
        get_replica(name)
    except ValueError:
        register_replica(
            ReplicaSpec(
                name=name,
                description="test-only toy variant",
                generator="tests.toy_replica:generate",
                dbt_project=project,
            )
        )


@pytest.fixture
def private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh REPLICAS_HOME: the first build of each fingerprint is the compiling dbt build."""
    home = tmp_path / "home"
    monkeypatch.setenv("REPLICAS_HOME", str(home))
    yield home


def _relations(warehouse: Path) -> dict[str, Any]:
    """Every relation of the built schemas with its column types, and every view's SQL."""
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        columns = con.execute(
            "select schema_name, table_name, column_name, data_type from duckdb_columns()"
            " where not internal order by all"
        ).fetchall()
        views = con.execute(
            "select schema_name, view_name, sql from duckdb_views() where not internal order by all"
        ).fetchall()
    finally:
        con.close()
    return {"columns": columns, "views": views}


def _dbt_manifest_shape(snapshot: Snapshot) -> dict[str, Any]:
    """The dbt manifest an agent reads, minus what differs between any two dbt runs."""
    data = json.loads((snapshot.dbt_project / "target" / "manifest.json").read_text())
    return {
        uid: {
            "compiled_code": node.get("compiled_code"),
            "build_path": node.get("build_path"),
            "macros": sorted(node["depends_on"]["macros"]),
            "nodes": sorted(node["depends_on"]["nodes"]),
            "config": node["config"],
        }
        for uid, node in data["nodes"].items()
    }


def _files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


PARITY = [
    pytest.param("toy", (21, 22), id="toy", marks=pytest.mark.slow),
    pytest.param("ecommerce", (4, 5), id="ecommerce"),
    pytest.param("credit_cards", (4,), id="credit_cards"),
]


@pytest.mark.parametrize(("replica", "seeds"), PARITY)
def test_replay_builds_what_dbt_builds(
    replica: str, seeds: tuple[int, ...], tmp_path: Path
) -> None:
    scale = 0.01
    for seed in seeds:
        # dbt first: on a cold cache its build also fills the compiled project replay uses.
        by_dbt = build_into(replica, seed, scale, tmp_path / f"dbt-{seed}", engine="dbt")
        replayed = build_into(replica, seed, scale, tmp_path / f"replay-{seed}", engine="replay")
        assert build_info(by_dbt)["engine"] == "dbt"
        assert build_info(replayed)["engine"] == "replay", build_info(replayed)
        assert build_info(replayed)["fallback_reason"] is None
        # the engine changes neither the key nor a single byte of the manifest
        assert (by_dbt.path / "manifest.json").read_bytes() == (
            replayed.path / "manifest.json"
        ).read_bytes()
        assert replayed.manifest["tables"]["marts"], "no mart was fingerprinted"
        assert replayed.manifest["dbt"]["status_counts"] == by_dbt.manifest["dbt"]["status_counts"]
        # views (not hashed in the manifest) and every column type agree too
        assert _relations(replayed.warehouse) == _relations(by_dbt.warehouse)
        # agents see the same project and the same dbt manifest (up to run ids and times)
        assert _files(replayed.dbt_project) == _files(by_dbt.dbt_project)
        assert _dbt_manifest_shape(replayed) == _dbt_manifest_shape(by_dbt)
        assert replayed.verify() == [] and by_dbt.verify() == []
    tables = {
        s: json.loads((tmp_path / f"replay-{s}" / "manifest.json").read_text()) for s in seeds
    }
    hashes = {json.dumps(m["tables"]["raw"], sort_keys=True) for m in tables.values()}
    assert len(hashes) == len(seeds), "seeds must give different data"


def _threshold_project(root: Path) -> Path:
    """The toy project plus an ephemeral model and data-dependent failures: two tests fail above
    10 raw rows (the second never runs under dbt: it tests a model downstream of the first), and
    a model raises a DuckDB error above 30 rows."""
    project = root / "toy_threshold"
    shutil.copytree(TOY_PROJECT, project)
    models = project / "models"
    (models / "thing_kinds.sql").write_text(
        "{{ config(materialized='ephemeral') }}\nselect distinct kind from {{ ref('thing_totals') }}\n"
    )
    (models / "thing_share.sql").write_text(
        "select t.kind, t.n * 1.0 / sum(t.n) over () as share from {{ ref('thing_totals') }} t\n"
        "join {{ ref('thing_kinds') }} k on k.kind = t.kind\n"
    )
    (models / "thing_guard.sql").write_text(
        "select case when count(*) > 30 then error('too many things') else count(*) end as n\n"
        "from {{ source('raw', 'things') }}\n"
    )
    tests = project / "tests"
    tests.mkdir()
    (tests / "at_most_ten_things.sql").write_text(
        "select sum(n) as things from {{ ref('thing_totals') }} having sum(n) > 10\n"
    )
    (tests / "share_needs_few_things.sql").write_text(
        "select * from {{ ref('thing_share') }}\n"
        "where (select count(*) from {{ source('raw', 'things') }}) > 10\n"
    )
    return project


def test_replay_failures_match_dbt_build(tmp_path: Path, private_home: Path) -> None:
    _register("toy_threshold", _threshold_project(tmp_path))
    assert build_info(ensure_snapshot("toy_threshold", 1, 0.01))["engine"] == "dbt"  # compiles
    assert build_info(ensure_snapshot("toy_threshold", 2, 0.01))["engine"] == "replay"

    # 20 rows: a test fails. Replay names it exactly as dbt build does, skips alike.
    with pytest.raises(BuildError) as replayed:
        ensure_snapshot("toy_threshold", 1, 0.02)
    with pytest.raises(BuildError) as by_dbt:
        ensure_snapshot("toy_threshold", 1, 0.02, engine="dbt")
    assert replayed.value.detail.endswith("replayed from compiled SQL: failed")
    for info in (replayed, by_dbt):
        assert info.value.step == "dbt"
        assert "FAIL test.toy.at_most_ten_things" in info.value.detail
        assert "Got 1 result, configured to fail if != 0" in info.value.detail
        assert "share_needs_few_things" not in info.value.detail  # dbt skipped it
    counts = [
        next(line for line in e.value.detail.splitlines() if line.startswith("counts:"))
        for e in (replayed, by_dbt)
    ]
    assert counts[0] == counts[1], counts
    assert "skipped=2" in counts[0]  # thing_share and its test

    # 40 rows: a model raises in DuckDB. Replay rolls back and dbt, the source of truth, decides.
    with pytest.raises(BuildError) as errored:
        ensure_snapshot("toy_threshold", 1, 0.04)
    assert errored.value.step == "dbt"
    assert "model.toy.thing_guard" in errored.value.detail
    assert "too many things" in errored.value.detail
    assert errored.value.detail.endswith("dbt failed (exit 1)")  # dbt's verdict, not replay's
    left = sorted(p.name for p in (private_home / "snapshots").iterdir() if p.is_dir())
    assert left == sorted(BuildKey("toy_threshold", s, 0.01).slug for s in (1, 2))


def _variant(root: Path, name: str, model_sql: str, config: str = "") -> Path:
    project = root / name
    shutil.copytree(TOY_PROJECT, project)
    (project / "models" / "extra.sql").write_text(config + model_sql)
    return project


FALLBACKS = {
    "toy_incremental": (
        "{{ config(materialized='incremental') }}\n",
        "select kind from {{ ref('thing_totals') }}\n",
        "materialized as 'incremental'",
    ),
    "toy_run_query": (
        "",
        "{% set kinds = run_query('select distinct kind from raw.things') %}\n"
        "select kind from {{ ref('thing_totals') }}\n",
        "uses `run_query`",
    ),
}


@pytest.mark.parametrize("name", sorted(FALLBACKS))
def test_unsupported_projects_are_built_by_dbt(
    name: str, tmp_path: Path, private_home: Path
) -> None:
    config, sql, why = FALLBACKS[name]
    _register(name, _variant(tmp_path, name, sql, config))
    first = ensure_snapshot(name, 1)
    assert build_info(first)["engine"] == "dbt"
    assert why in build_info(first)["replay_unsupported"]
    assert "extra" in first.manifest["tables"]["marts"]
    if name != "toy_run_query":
        return  # one variant is enough to show the next seed is built by dbt too
    second = ensure_snapshot(name, 2)
    info = build_info(second)
    assert info["engine_requested"] == "replay" and info["engine"] == "dbt"
    assert info["fallback_reason"].startswith("replay unsupported:")
    assert why in info["fallback_reason"]


def _manifest(nodes: dict[str, Any], macros: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"metadata": {"adapter_type": "duckdb"}, "nodes": nodes, "macros": macros or {}}


def _model(uid: str, sql: str = "select 1 as x", raw: str | None = None, **config: Any) -> dict:
    return {
        "resource_type": "model",
        "database": "warehouse",
        "schema": "main",
        "name": uid.rsplit(".", 1)[1],
        "alias": uid.rsplit(".", 1)[1],
        "language": "sql",
        "compiled": True,
        "compiled_code": sql,
        "raw_code": raw if raw is not None else sql,
        "depends_on": {"nodes": [], "macros": []},
        "config": {"materialized": "table", "pre-hook": [], "post-hook": [], **config},
    }


def test_analyse_accepts_plain_projects_and_orders_the_dag() -> None:
    a = _model("model.p.a", raw="select 'statement' as execute_me -- run_query in SQL text")
    b = _model("model.p.b", materialized="view")
    b["depends_on"]["nodes"] = ["model.p.a"]
    eph = _model("model.p.c", materialized="ephemeral")
    test = {
        "resource_type": "test",
        "compiled": True,
        "compiled_code": "select * from b where x < 0",
        "raw_code": "{{ test_not_null(**_dbt_generic_test_kwargs) }}",
        "depends_on": {"nodes": ["model.p.b"], "macros": ["macro.dbt.statement"]},
        "config": {"severity": "warn", "limit": 5},
    }
    plan, why = analyse(
        _manifest({"model.p.b": b, "model.p.a": a, "model.p.c": eph, "test.p.t": test})
    )
    assert why is None and plan is not None
    assert [m.unique_id for m in plan.models] == ["model.p.a", "model.p.b", "model.p.c"]
    (step,) = plan.tests
    assert (step.severity, step.limit, step.fail_calc, step.error_if) == (
        "warn",
        5,
        "count(*)",
        "!= 0",
    )


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"config": {"materialized": "incremental"}}, "materialized as 'incremental'"),
        ({"config": {"materialized": "table", "post-hook": ["grant select"]}}, "hooks"),
        ({"language": "python"}, "python model"),
        ({"config": {"materialized": "table", "contract": {"enforced": True}}}, "contract"),
        ({"raw_code": "{% if execute %}select 1{% endif %}"}, "`execute`"),
        ({"raw_code": "select '{{ run_started_at }}' as t"}, "`run_started_at`"),
        ({"raw_code": "{{ adapter.get_relation('a', 'b', 'c') }}"}, "`adapter.get_relation`"),
        ({"depends_on": {"nodes": [], "macros": ["macro.p.kinds"]}}, "macro.p.kinds"),
    ],
)
def test_analyse_refuses_what_replay_cannot_reproduce(change: dict, reason: str) -> None:
    macros = {
        "macro.p.kinds": {
            "name": "kinds",
            "package_name": "p",
            "macro_sql": "{% macro kinds() %}{{ dbt_utils.get_column_values(ref('a'), 'k') }}"
            "{% endmacro %}",
            "depends_on": {"macros": []},
        }
    }
    node = {**_model("model.p.a"), **change}
    plan, why = analyse(_manifest({"model.p.a": node}, macros))
    assert plan is None and why is not None and reason in why, why


def test_analyse_refuses_stored_failures_overrides_and_other_node_kinds() -> None:
    test = {
        "resource_type": "test",
        "compiled": True,
        "compiled_code": "select 1",
        "raw_code": "select 1",
        "depends_on": {"nodes": [], "macros": []},
        "config": {"severity": "error", "store_failures": True},
    }
    assert "stores failures" in str(analyse(_manifest({"test.p.t": test}))[1])
    seed = {"resource_type": "seed", "config": {}}
    assert "seed nodes" in str(analyse(_manifest({"seed.p.s": seed}))[1])
    override = {
        "macro.p.materialization_table_duckdb": {
            "name": "materialization_table_duckdb",
            "package_name": "p",
            "macro_sql": "",
            "depends_on": {"macros": []},
        }
    }
    assert "overrides" in str(analyse(_manifest({}, override))[1])
    assert "warn_error" in str(analyse(_manifest({}), "flags:\n  warn_error: true\n")[1])


def test_the_compiling_build_keeps_its_parse_for_later_dbt_builds(private_home: Path) -> None:
    """The compiled cache holds the compiling build's ``partial_parse.msgpack``; a later
    ``--engine dbt`` build starts from it and builds the same tables; no snapshot ships it."""
    first = ensure_snapshot("toy", 31)  # the compiling dbt build
    compiled = load_compiled(get_replica("toy"))
    assert compiled is not None and compiled.parse_state is not None
    assert compiled.parse_state.stat().st_size > 0
    seeded = ensure_snapshot("toy", 31, engine="dbt", force=True)
    assert build_info(seeded)["engine"] == "dbt"
    assert seeded.manifest == first.manifest
    for snapshot in (first, seeded):
        assert not [p for p in snapshot.path.rglob(PARSE_STATE)]
