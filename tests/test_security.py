"""The agent is an adversary: every escape attempted through the tools fails readably, and
grading is unaffected.

Runs on the toy replica (tiny dbt project, so the dbt attacks cost few seconds); the tools and
the grading path are exactly those of the shipped replicas.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from replicas.env import Env
from replicas.tasks import build_task
from replicas.tools.sql import QueryRefused, prepare_query
from tests.toy_families import (
    BUGGY_MODEL,
    TOY_MODEL,
    toy_families_registered,
)

SECRET_ENV = "REPLICAS_SECURITY_PROBE_SECRET"
SECRET = "s3cr3t-do-not-leak"


_toy = pytest.fixture(scope="module", autouse=True)(toy_families_registered)


def _env(task_id: str) -> Env:
    """The task with room for many probing steps."""
    task = build_task(task_id)
    return Env.from_task(replace(task, limits=replace(task.limits, max_steps=500)))


@pytest.fixture()
def read_only_env() -> Iterator[Env]:
    with _env("toy.total-v1.s1.0") as env:
        env.reset()
        yield env


@pytest.fixture()
def dbt_env() -> Iterator[Env]:
    with _env("toy.fix-v1.s1.0") as env:
        env.reset()
        yield env


def call(env: Env, name: str, **arguments: Any) -> tuple[str, dict[str, Any]]:
    obs, reward, terminated, truncated, info = env.step({"name": name, "arguments": arguments})
    assert not terminated and not truncated and reward == 0.0
    return obs, info


def snapshot_warehouse(env: Env) -> str:
    return str(env._snapshot.warehouse)


# --------------------------------------------------------------------------------------------
# SQL


FILE_READS = [
    "select * from read_csv('/etc/passwd')",
    "select * from read_csv_auto('/etc/passwd')",
    "select * from read_text('/etc/passwd')",
    "select content from read_blob('/etc/passwd')",
    "select * from read_json('/etc/passwd')",
    "select * from read_parquet('/etc/passwd')",
    "select * from parquet_metadata('/etc/passwd')",
    "select * from sniff_csv('/etc/passwd')",
    "select * from glob('/etc/*')",
    "select * from '/etc/passwd'",
    "select * from 'secrets.csv'",
    "select * from query('select 1')",
    "select * from duckdb_databases()",
    "select current_setting('home_directory')",
    "select getenv('HOME')",
    "select * from (select * from read_text('/etc/passwd')) t",
    "with x as (select * from read_text('/etc/passwd')) select * from x",
    "select 1 where exists (select * from glob('/*'))",
]


@pytest.mark.parametrize("query", FILE_READS)
def test_sql_cannot_read_files(read_only_env: Env, query: str) -> None:
    obs, info = call(read_only_env, "sql", query=query)
    assert info["error"] and obs.startswith("ERROR")
    assert "root:" not in obs


@pytest.mark.parametrize(
    "template", ["select * from read_text('{w}')", "select * from read_csv('{w}')"]
)
def test_sql_cannot_read_the_snapshot_file(read_only_env: Env, template: str) -> None:
    _obs, info = call(
        read_only_env, "sql", query=template.format(w=snapshot_warehouse(read_only_env))
    )
    assert info["error"]


STATEMENTS = [
    "ATTACH '{w}' AS pristine",
    "ATTACH ':memory:' AS scratch",
    "DETACH pristine",
    "COPY raw.things TO '{tmp}/leak.csv'",
    "COPY (select 1) TO '{tmp}/leak.csv'",
    "EXPORT DATABASE '{tmp}/export'",
    "INSTALL httpfs",
    "LOAD httpfs",
    "SET enable_external_access = true",
    "SET memory_limit = '100GB'",
    "RESET enable_external_access",
    "PRAGMA database_list",
    "PRAGMA enable_profiling",
    "CALL pragma_version()",
    "CREATE TABLE stolen AS SELECT 1",
    "CREATE TEMP TABLE t AS SELECT 1",
    "CREATE VIEW v AS SELECT 1",
    "CREATE MACRO m() AS 1",
    "INSERT INTO raw.things VALUES (1, 'a', 1.0)",
    "UPDATE raw.things SET value = 0",
    "DELETE FROM raw.things",
    "DROP TABLE raw.things",
    "ALTER TABLE raw.things RENAME TO gone",
    "CHECKPOINT",
    "USE raw",
    "BEGIN TRANSACTION",
    "select 1; drop table raw.things",
    "select 'a\\'; attach 'x' as y; --'",
    "SELECT 1 INTO stolen",
]


@pytest.mark.parametrize("statement", STATEMENTS)
def test_sql_refuses_everything_but_queries(
    read_only_env: Env, statement: str, tmp_path: Path
) -> None:
    query = statement.format(w=snapshot_warehouse(read_only_env), tmp=tmp_path)
    obs, info = call(read_only_env, "sql", query=query)
    assert info["error"] and obs.startswith("ERROR"), obs
    assert not any(tmp_path.iterdir())
    obs, _ = call(read_only_env, "sql", query="select count(*) as n from raw.things")
    assert "ERROR" not in obs and "(1 row)" in obs


def test_sql_writable_sandbox_is_still_read_only(dbt_env: Env) -> None:
    _, info = call(dbt_env, "sql", query="DROP TABLE raw.things")
    assert info["error"]
    _obs, info = call(dbt_env, "sql", query="select count(*) from raw.things")
    assert not info["error"]


def test_refusals_happen_before_duckdb_and_name_the_problem() -> None:
    with pytest.raises(QueryRefused, match="read_text"):
        prepare_query("select * from read_text('/etc/passwd')")
    with pytest.raises(QueryRefused, match="ATTACH"):
        prepare_query("attach 'x.db' as y")
    with pytest.raises(QueryRefused, match="exactly one"):
        prepare_query("select 1; select 2")
    with pytest.raises(QueryRefused, match="longer than"):
        prepare_query("select 1" + " " * 200_000)


def test_allowed_queries_and_dialects(read_only_env: Env) -> None:
    for query, dialect in [
        ("DESCRIBE raw.things", "duckdb"),
        ("SHOW TABLES", "duckdb"),
        ("SUMMARIZE raw.things", "duckdb"),
        ("EXPLAIN SELECT count(*) FROM raw.things", "duckdb"),
        ("select kind from raw.things union select 'z'", "duckdb"),
        ("select top 2 kind from raw.things order by kind", "tsql"),
        ("select iff(value > 10, 'big', 'small') as size from raw.things limit 3", "snowflake"),
        ("select safe_divide(sum(value), count(*)) from raw.things", "bigquery"),
    ]:
        obs, info = call(read_only_env, "sql", query=query, dialect=dialect)
        assert not info["error"], (query, obs)


def test_sql_output_is_capped(read_only_env: Env) -> None:
    obs, info = call(read_only_env, "sql", query="select range as i from range(100000)")
    assert not info["error"] and "truncated" in obs
    assert len(obs) <= read_only_env.task.limits.max_output_chars + 200
    obs, info = call(read_only_env, "sql", query="select repeat('x', 100000) as s")
    assert "truncated" in obs and len(obs) < 20_000


# --------------------------------------------------------------------------------------------
# files


@pytest.mark.parametrize(
    "path",
    [
        "/etc/passwd",
        "../warehouse.duckdb",
        "models/../../warehouse.duckdb",
        "~/.bashrc",
        "..",
        "models/\x00evil",
        "C:/Windows/win.ini",
    ],
)
def test_file_tools_stay_in_the_project(dbt_env: Env, path: str) -> None:
    for tool, extra in (("read_file", {}), ("list_files", {}), ("write_file", {"content": "x"})):
        obs, info = call(dbt_env, tool, path=path, **extra)
        assert info["error"], (tool, path, obs)
    sandbox = dbt_env.sandbox
    assert sandbox is not None and not (sandbox.root / "evil").exists()


def test_symlinks_are_refused(dbt_env: Env, tmp_path: Path) -> None:
    sandbox = dbt_env.sandbox
    assert sandbox is not None
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET)
    # An agent cannot create links with the tools; plant them to prove the tools refuse them.
    (sandbox.project_dir / "models" / "link").symlink_to(outside)
    (sandbox.project_dir / "models" / "file_link.sql").symlink_to(outside / "secret.txt")
    for path in ("models/link/secret.txt", "models/file_link.sql"):
        obs, info = call(dbt_env, "read_file", path=path)
        assert info["error"] and SECRET not in obs
    obs, info = call(dbt_env, "write_file", path="models/link/pwn.sql", content="select 1")
    assert info["error"] and not (outside / "pwn.sql").exists()
    obs, _ = call(dbt_env, "list_files", path="models")
    assert SECRET not in obs and "secret.txt" not in obs
    obs, info = call(dbt_env, "dbt", command="compile")
    assert info["error"] and "symlink" in obs


@pytest.mark.parametrize(
    ("path", "content", "fragment"),
    [
        ("models/evil.py", "def model(dbt, session):\n    return None\n", "Python"),
        ("macros/helper.py", "import os", "Python"),
        ("profiles.yml", "replica: {}", "managed"),
        ("packages.yml", "packages: []", "managed"),
        ("dbt_project.yml", "name: toy\nprofile: other\nconfig-version: 2\n", "profile"),
        ("dbt_project.yml", "name: toy\nprofile: replica\nmodel-paths: ['/etc']\n", "inside"),
        ("dbt_project.yml", "name: toy\nprofile: replica\nmacro-paths: ['../../']\n", "inside"),
        ("dbt_project.yml", "name: toy\nprofile: replica\ntarget-path: /tmp/t\n", "inside"),
        ("dbt_project.yml", "{{{ not yaml", "YAML"),
        ("models/big.sql", "x" * 300_000, "longer"),
        (".", "x", "file path"),
        ("models", "x", "directory"),
    ],
)
def test_write_file_refusals(dbt_env: Env, path: str, content: str, fragment: str) -> None:
    obs, info = call(dbt_env, "write_file", path=path, content=content)
    assert info["error"] and fragment.lower() in obs.lower(), obs


def test_read_file_size_cap(dbt_env: Env) -> None:
    sandbox = dbt_env.sandbox
    assert sandbox is not None
    (sandbox.project_dir / "huge.txt").write_text("x" * 2_000_000)
    obs, info = call(dbt_env, "read_file", path="huge.txt")
    assert info["error"] and "larger" in obs


def test_nothing_visible_contains_the_expected_answer(read_only_env: Env) -> None:
    task = read_only_env.task
    needle = f"{task.expected:.2f}"
    sandbox = read_only_env.sandbox
    assert sandbox is not None
    for path in sandbox.project_dir.rglob("*"):
        if path.is_file():
            assert needle not in path.read_text(errors="replace"), path
    assert needle not in task.instruction
    assert needle not in json.dumps(read_only_env.tools)
    # the task cache (which holds it) lives outside every sandbox
    from replicas.tasks.loader import _cache_path

    assert sandbox.root not in _cache_path(task.id).parents


# --------------------------------------------------------------------------------------------
# dbt


@pytest.mark.parametrize(
    "command",
    [
        "deps",
        "debug",
        "seed",
        "run-operation drop_everything",
        "clean",
        "run --profiles-dir /tmp",
        "run --project-dir /",
        "run --target prod",
        "run --vars '{x: 1}'",
        "build --select thing_totals; rm -rf /",
        "compile --inline 'select 1'",
        "",
        "run --select",
        "run 'unterminated",
    ],
)
def test_dbt_command_refusals(dbt_env: Env, command: str) -> None:
    obs, info = call(dbt_env, "dbt", command=command)
    assert info["error"] and obs.startswith("ERROR"), obs


def test_dbt_is_unavailable_without_a_writable_sandbox(read_only_env: Env) -> None:
    _obs, info = call(read_only_env, "dbt", command="build")
    assert info["error"]  # not even offered: the read-only task lists no dbt tool


PROBES = {
    "probe_env": "select '{{ env_var('" + SECRET_ENV + "', 'not-visible') }}' as v",
    "probe_home": "select '{{ env_var('HOME', 'none') }}' as v",
    "probe_run_query": (
        "{% set r = run_query(\"select * from read_text('/etc/passwd')\") %}select 1 as v"
    ),
    "probe_read_text": "select content as v from read_text('/etc/passwd')",
    "probe_attach": "{{ config(pre_hook=\"attach '{w}' as pristine\") }}select 1 as v",
    "probe_include": "{% include '/etc/passwd' %}",
}


def test_jinja_and_hooks_cannot_reach_files_or_env(
    dbt_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECRET_ENV, SECRET)
    warehouse = snapshot_warehouse(dbt_env)
    for name, sql in PROBES.items():
        obs, info = call(
            dbt_env, "write_file", path=f"models/{name}.sql", content=sql.replace("{w}", warehouse)
        )
        assert not info["error"], obs
    obs, info = call(dbt_env, "dbt", command="run --select " + " ".join(PROBES))
    assert info["error"]  # some probes fail, readably
    assert "root:" not in obs and SECRET not in obs
    # the include probe breaks parsing of the whole project: neutralise it and run the rest
    call(dbt_env, "write_file", path="models/probe_include.sql", content="select 1 as v")
    obs, info = call(dbt_env, "dbt", command="run --select " + " ".join(PROBES))
    assert info["error"] and "root:" not in obs and SECRET not in obs
    for failing in ("probe_run_query", "probe_read_text", "probe_attach"):
        assert failing in obs, obs
    obs, _ = call(dbt_env, "sql", query="select v from main.probe_env")
    assert "not-visible" in obs and SECRET not in obs
    obs, _ = call(dbt_env, "sql", query="select v from main.probe_home")
    assert str(Path.home()) not in obs.splitlines()[-2]
    obs, info = call(dbt_env, "sql", query="select * from main.probe_read_text")
    assert info["error"]


def test_python_model_planted_on_disk_is_refused_by_dbt_and_grading(dbt_env: Env) -> None:
    sandbox = dbt_env.sandbox
    assert sandbox is not None
    (sandbox.project_dir / "models" / "py_model.py").write_text(
        "def model(dbt, session):\n    import os\n    return session.sql('select 1')\n"
    )
    obs, info = call(dbt_env, "dbt", command="build")
    assert info["error"] and "Python" in obs
    call(dbt_env, "write_file", path=TOY_MODEL, content=dbt_env.task.oracle[0].arguments["content"])
    _, reward, terminated, _, info = dbt_env.step({"name": "submit", "arguments": {"answer": "x"}})
    assert terminated and reward == 0.0
    assert "dbt_build_failed" in [r["code"] for r in info["verdict"]["reasons"]]


def test_grading_ignores_stale_tables_and_edited_tests(dbt_env: Env) -> None:
    fixed = dbt_env.task.oracle[0].arguments["content"]
    call(dbt_env, "write_file", path=TOY_MODEL, content=fixed)
    obs, info = call(dbt_env, "dbt", command="run --select thing_totals")
    assert not info["error"], obs
    # the warehouse now holds the correct table; revert the file and gut the tests
    call(dbt_env, "write_file", path=TOY_MODEL, content=BUGGY_MODEL)
    call(
        dbt_env,
        "write_file",
        path="models/thing_totals.yml",
        content="version: 2\nmodels:\n  - name: thing_totals\n",
    )
    _, reward, _, _, info = dbt_env.step({"name": "submit", "arguments": {"answer": "fixed"}})
    assert reward == 0.0 and info["verdict"]["reasons"][0]["code"] == "wrong_values"


def test_a_model_reading_the_pristine_snapshot_cannot_pass(dbt_env: Env) -> None:
    warehouse = snapshot_warehouse(dbt_env)
    hack = (
        "{{ config(pre_hook=\"attach '" + warehouse + "' as pristine (read_only)\") }}\n"
        "select * from pristine.main.thing_totals\n"
    )
    call(dbt_env, "write_file", path=TOY_MODEL, content=hack)
    _, reward, _, _, info = dbt_env.step({"name": "submit", "arguments": {"answer": "done"}})
    assert reward == 0.0
    assert info["verdict"]["reasons"][0]["code"] == "dbt_build_failed"


def test_env_is_scrubbed_for_dbt(dbt_env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    from replicas.dbt import dbt_env as scrubbed

    monkeypatch.setenv(SECRET_ENV, SECRET)
    env = scrubbed(Path("/tmp"))
    assert SECRET_ENV not in env and env["HOME"] == "/tmp"
    assert SECRET not in json.dumps(env) and os.environ[SECRET_ENV] == SECRET
