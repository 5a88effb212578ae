"""Red team, session 9: one regression test per attack that worked, replayed where the agent acts.

Each test fails on the code before its fix (or is a strict xfail naming the fix still to make):

* layer 10's row bound counted a graded view's rows with one query and fetched them with
  another; a view can tell the two apart (``current_query()``) and answer the count with 3 rows
  and the fetch with millions (2,000,003 rows, 1.6 GB of the grading process's memory, in a
  ``toy.fix-v1`` episode);
* ``incremental_fix``'s replay kept the late rows of the second load in the warehouse the agent's
  first load runs on (``raw.__late_rows_of_the_second_load``, a table that exists only in
  grading): a model that moves them into the source during the first load passes with its wrong
  watermark untouched (reward 1.0 on ``incremental_fix-v2.s11.0`` and ``-v1.s11.0``); the
  insert between the loads also ran on an unlocked, unbounded connection in the grading
  process, on whatever the first load left in ``raw``;
* a model that fails only on hidden data, on purpose, with ``error(<hidden values>)`` had dbt's
  message quoted in the verdict (``hidden_build_failed``) and so in the terminal observation and
  the servers' verdicts: 8 hidden customers' e-mail addresses per dataset and submit on
  ``dbt_fix-v2.s1.0``; as a view, the same error surfaced as ``grading_error`` with its text;
* an episode's warehouse is the
  snapshot's with the task's models dropped, and a dropped view's SQL stays in the file's free
  blocks: a factory task whose mutated model is a view (``mutant_fix-v1.s1.3``:
  ``int_order_items_usd``) ships the pristine line the agent must restore inside
  ``warehouse.duckdb`` - readable by ``strings`` in a Harbor export's container, which copies
  that file; the template is now rewritten into a fresh file (``COPY FROM DATABASE``);
* the sandbox's disk quota was checked only after a dbt call: one call of a toy episode wrote
  2.0 GB (4 models rendering 100 MB of SQL each, written under ``target/compiled`` and
  ``target/run``) against a 1 GiB quota before it ended; a call now watches the quota while
  it runs (``DbtWorker.run(watch=...)``) and is stopped when the sandbox goes over it;
* grading's rebuilds (and a dbt call with the worker off) had no disk bound but the timeout:
  at the 12-17 MB/s one fat model writes (measured at load 3.2), a hard-v2 grading budget of
  1800 s is ~25 GB of host /tmp per submit; an agent project's dbt run is now stopped once it
  wrote more than ``AGENT_RUN_DISK_BYTES`` (4 GiB: an episode's quota per hidden dataset).
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import duckdb
import pytest

from replicas.env import Env
from replicas.tasks import VerifierConfig, build_task
from replicas.tasks.grading import _compare_models
from tests.tiers import slow


def _lying_view(warehouse: Path, rows: int) -> None:
    """``main.thing_totals`` as a view holding the 2 reference rows when counted and ``rows``
    more when fetched: what an agent's ``{{ config(materialized='view') }}`` model builds."""
    con = duckdb.connect(str(warehouse))
    con.execute(
        "create view main.thing_totals as "
        "select * from (values ('a', 1, 1.0), ('b', 2, 2.0)) t(kind, n, total) union all "
        "select 'z' || range::varchar, 1, 1.0 from range("
        f"case when current_query() ilike '%count(%' then 0 else {rows} end)"
    )
    con.close()


def test_a_graded_view_cannot_answer_the_row_count_and_the_fetch_differently(
    tmp_path: Path,
) -> None:
    warehouse = tmp_path / "warehouse.duckdb"
    rows = 200_000
    _lying_view(warehouse, rows)
    counted = duckdb.connect(str(warehouse), read_only=True)
    try:  # the premise: the view really answers the two queries differently
        assert counted.execute("select count(*) from main.thing_totals").fetchone() == (2,)
        assert len(counted.execute("select * from main.thing_totals").fetchall()) == rows + 2
    finally:
        counted.close()
    config = VerifierConfig(dbt_models=("thing_totals",), key_columns=("kind",), abs_tol=1e-6)
    reference = {"columns": ["kind", "n", "total"], "rows": [["a", 1, 1.0], ["b", 2, 2.0]]}
    reasons, objective = _compare_models(config, warehouse, lambda _sql: reference)
    assert objective == {"thing_totals": 0.0}
    assert [r.code for r in reasons] == ["too_many_rows"]
    # no more than one row past the bound (10 x 2 + 1000) was loaded to find out
    assert reasons[0].found == 10 * 2 + 1000 + 1


@pytest.mark.slow
def test_incremental_fix_grading_has_no_table_of_late_rows_for_the_first_load() -> None:
    """The model keeps its wrong watermark and, when the grader's table of late rows exists,
    appends them to the source before it builds: its first load is then a full refresh."""
    task = build_task("ecommerce_enterprise.incremental_fix-v2.s11.0")
    source = task.metadata["source"]
    late = "raw.__late_rows_of_the_second_load"  # the name the replay used
    hook = (
        "{% if execute and adapter.get_relation(database=target.database, schema='raw', "
        "identifier='__late_rows_of_the_second_load') %}"
        f'{{% do run_query("insert into raw.{source} select * from {late}") %}}'
        f'{{% do run_query("delete from {late}") %}}'
        "{% endif %}\n"
    )
    with Env.from_task(replace(task, limits=replace(task.limits, max_steps=10))) as env:
        env.reset()
        assert env.sandbox is not None
        project = env.sandbox.project_dir
        path = next(project.rglob(f"{task.metadata['model']}.sql"))
        broken = path.read_text()
        assert "{% if is_incremental() %}" in broken  # the wrong watermark stays as it is
        obs, _, _, _, info = env.step(
            {
                "name": "write_file",
                "arguments": {
                    "path": path.relative_to(project).as_posix(),
                    "content": hook + broken,
                },
            }
        )
        assert not info["error"], obs
        _, reward, terminated, _, info = env.step(
            {"name": "submit", "arguments": {"answer": "Fixed the watermark."}}
        )
    assert terminated
    assert reward == 0.0, info["verdict"]["feedback"]


def _leaking_fix(env: Env, materialized: str) -> str:
    """The task's own fix, plus a filter that fails on any data but the visible data with an
    error quoting customers' e-mail addresses."""
    obs, _, _, _, _ = env.step(
        {"name": "sql", "arguments": {"query": "select count(*) as n from raw.customers"}}
    )
    visible = int(next(line for line in str(obs).splitlines() if line.strip().isdigit()))
    task = build_task("ecommerce.dbt_fix-v2.s1.0")
    fix = str(dict(task.oracle[0].arguments)["content"])
    emails = (
        "(select string_agg(email, ',') from "
        "(select email from raw.customers order by customer_id limit 8))"
    )
    assert fix.endswith("select * from final\n")
    return f"{{{{ config(materialized='{materialized}') }}}}\n" + fix.replace(
        "select * from final\n",
        f"select * from final where case when (select count(*) from raw.customers) <> {visible} "
        f"then error('LEAK ' || {emails}) else true end\n",
    )


@pytest.mark.slow
@pytest.mark.parametrize("materialized", ["table", "view"])
def test_no_error_message_from_a_hidden_dataset_reaches_the_agent(materialized: str) -> None:
    task = build_task("ecommerce.dbt_fix-v2.s1.0")
    with Env.from_task(replace(task, limits=replace(task.limits, max_steps=10))) as env:
        env.reset()
        content = _leaking_fix(env, materialized)
        obs, _, _, _, info = env.step(
            {
                "name": "write_file",
                "arguments": {"path": "models/marts/fct_orders.sql", "content": content},
            }
        )
        assert not info["error"], obs
        obs, reward, terminated, _, info = env.step(
            {"name": "submit", "arguments": {"answer": "Fixed the refunds in fct_orders."}}
        )
    assert terminated and reward == 0.0
    verdict = info["verdict"]
    # the visible data passed: only the hidden datasets failed, and the agent is told where
    assert verdict["objective_scores"].get("fct_orders") == 1.0, verdict["feedback"]
    assert "hidden dataset" in str(obs)
    shown = str(obs) + str(verdict)  # the observation and what the runner keeps alike
    assert "LEAK" not in shown and "@" not in shown


def test_a_sandbox_warehouse_holds_no_bytes_of_the_models_it_dropped() -> None:
    from replicas import make
    from replicas.tasks.loader import load_snapshot

    task_id = "ecommerce.mutant_fix-v1.s1.3"
    task = build_task(task_id)
    (mutated,) = task.sandbox_patch
    with make(task_id) as env:
        env.reset()
        assert env.sandbox is not None
        snapshot = load_snapshot(task.replica, task.seed, task.scale)
        pristine = (Path(snapshot.dbt_project) / mutated).read_text()
        broken = str(task.sandbox_patch[mutated])
        restore = [
            line.strip()
            for line in pristine.splitlines()
            if len(line.strip()) > 20 and "{{" not in line and line.strip() not in broken
        ]
        assert restore, "the mutation removed a line of plain SQL"
        env.sandbox.release_connection()
        data = Path(env.sandbox.warehouse).read_bytes()
    assert [line for line in restore if line.encode() in data] == []


def test_a_dbt_call_is_stopped_when_the_sandbox_goes_over_its_quota_while_it_runs() -> None:
    """The model's compiled SQL (30 MB of comment) puts the sandbox over a 20 MB allowance at
    once; its query would then run for minutes. Stopped there, the call does not last until
    the dbt timeout."""
    from tests.toy_families import register_toy

    register_toy()
    task = build_task("toy.fix-v1.s1.0")
    limits = replace(task.limits, max_steps=10, dbt_timeout_s=60.0, wall_s=600.0)
    with Env.from_task(replace(task, limits=limits)) as env:
        env.reset()
        sandbox = env.sandbox
        assert sandbox is not None
        env.step({"name": "list_files", "arguments": {"path": "."}})  # materialise the project
        allowance = sandbox.disk_usage() + (20 << 20)
        sandbox.spec = replace(sandbox.spec, disk_quota_bytes=allowance)
        model = (
            "select count(*) as n from range(1000000) a, range(1000000) b\n"
            "-- {{ 'x' * 30000000 }}\n"
        )
        obs, _, _, _, info = env.step(
            {"name": "write_file", "arguments": {"path": "models/fat.sql", "content": model}}
        )
        assert not info["error"], obs
        obs, reward, terminated, truncated, info = env.step(
            {"name": "dbt", "arguments": {"command": "run --select fat"}}
        )
    assert truncated and not terminated and reward == 0.0
    assert "over its disk quota" in str(obs)
    assert "dbt was stopped while it ran" in str(obs)


@pytest.mark.parametrize(
    "datasets", [pytest.param(False, id="run_dbt"), slow(True, id="run_dbt_datasets")]
)
def test_an_agent_projects_dbt_run_is_stopped_past_its_disk_allowance(
    tmp_path: Path, datasets: bool
) -> None:
    """What grading runs: a model renders 30 MB of SQL, then its query runs for minutes. With
    a 20 MB allowance the run stops at once, well before the 60 s timeout."""
    from replicas.dbt import run_dbt, run_dbt_datasets
    from tests.toy_replica import TOY_PROJECT

    project = tmp_path / "project"
    shutil.copytree(TOY_PROJECT, project)
    (project / "models" / "fat.sql").write_text(
        "select count(*) as n from range(1000000) a, range(1000000) b\n-- {{ 'x' * 30000000 }}\n"
    )
    db = tmp_path / "db"
    db.mkdir()
    con = duckdb.connect(str(db / "data.duckdb"))
    con.execute("create schema raw; create table raw.things as select 'a' as kind, 1.0 as value")
    con.close()
    args = ["run", "--select", "fat"]
    if datasets:
        result, runs = run_dbt_datasets(
            project, db, ["data.duckdb"], args, timeout_s=60.0, disk_limit_bytes=20 << 20
        )
        assert [r.ok for r in runs] == [False]
    else:
        result = run_dbt(
            project, db / "data.duckdb", args, timeout_s=60.0, disk_limit_bytes=20 << 20
        )
    assert not result.ok and not result.timed_out
    assert result.summary.startswith("dbt was stopped: it wrote more than")
