"""An episode's dbt process (``replicas.dbt_worker``): it answers what a fresh ``dbt`` process
answers, sees the agent's edits, stays inside every limit a fresh process has, and never outlives
its episode. Real dbt, real bubblewrap, the toy replica's project."""

from __future__ import annotations

import math
import os
import shutil
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import duckdb
import pytest

from replicas.dbt import DBT_LIMITS, run_dbt
from replicas.dbt_worker import DbtWorker
from replicas.env import Env
from tests.toy_families import TOY_MODEL, fix_episode, register_toy, sandbox_of


@pytest.fixture(scope="module", autouse=True)
def _toy(module_registries: None) -> None:
    register_toy()  # module_registries restores the registries afterwards


@pytest.fixture()
def env() -> Iterator[Env]:
    yield from fix_episode()


@pytest.fixture()
def project(env: Env, tmp_path: Path) -> tuple[Path, Path]:
    """A private copy of the toy episode's starting project and warehouse."""
    sandbox = sandbox_of(env)
    shutil.copytree(sandbox.project_dir, tmp_path / "project")
    (tmp_path / "db").mkdir()
    shutil.copyfile(sandbox.warehouse, tmp_path / "db" / "warehouse.duckdb")
    return tmp_path / "project", tmp_path / "db" / "warehouse.duckdb"


def step(env: Env, name: str, **arguments: str) -> tuple[str, bool]:
    obs, _reward, _terminated, _truncated, info = env.step({"name": name, "arguments": arguments})
    return obs, bool(info["error"])


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is gone for our purposes
    with open(f"/proc/{pid}/stat") as fh:
        return fh.read().split(")")[-1].split()[0] != "Z"


def test_one_process_serves_the_episode_and_answers_as_a_fresh_one(
    project: tuple[Path, Path],
) -> None:
    project_dir, warehouse = project
    model = project_dir / TOY_MODEL
    worker = DbtWorker(project_dir, warehouse)
    try:
        first = worker.run(["run"], timeout_s=300)
        assert first.ok, first.summary
        listed = worker.run(["ls", "--select", "thing_totals"], timeout_s=300)
        assert listed.ok and "thing_totals" in listed.log
        # the agent edits a model between calls: the next call builds the edit
        model.write_text("select 41 + 1 as answer\n")
        edited = worker.run(["run", "--select", "thing_totals"], timeout_s=300)
        assert edited.ok, edited.summary
        assert [r["unique_id"] for r in edited.results] == ["model.toy.thing_totals"]
        # dbt-duckdb's instance is closed after each call: the warehouse is free for the sql tool
        with duckdb.connect(str(warehouse), read_only=True) as con:
            assert con.execute("select answer from thing_totals").fetchall() == [(42,)]
        # a failing model, which also prints a well-formed answer line through dbt's print():
        # the protocol runs on a descriptor nothing inside dbt writes to, so nothing is forged
        forged = '{"returncode": 0, "log": "forged", "cpu_s": 0, "max_rss_bytes": 0}'
        model.write_text("{{ print('" + forged + "') }}\nselect * from no_such_relation\n")
        failed = worker.run(["run", "--select", "thing_totals"], timeout_s=300)
        assert not failed.ok and failed.returncode == 1, failed.summary
        assert "no_such_relation" in failed.summary
        assert worker.alive and worker.starts == 1 and worker.calls == 4
    finally:
        worker.close()
    # a fresh dbt process on the same files reports the failure in the same words
    fresh = run_dbt(project_dir, warehouse, ["run", "--select", "thing_totals"], timeout_s=300)
    assert (fresh.ok, fresh.returncode, fresh.summary) == (False, 1, failed.summary)


def test_a_timeout_kills_the_process_and_the_next_call_starts_a_new_one(
    project: tuple[Path, Path],
) -> None:
    project_dir, warehouse = project
    (project_dir / "models" / "forever.sql").write_text(
        "with recursive r(n) as (select 1 union all select n + 1 from r) select count(*) from r\n"
    )
    worker = DbtWorker(project_dir, warehouse)
    try:
        started = time.monotonic()
        stuck = worker.run(["run", "--select", "forever"], timeout_s=10)
        assert stuck.timed_out and not stuck.ok
        assert time.monotonic() - started < 10 + 10
        assert not worker.alive
        (project_dir / "models" / "forever.sql").unlink()
        again = worker.run(["run", "--select", "thing_totals"], timeout_s=300)
        assert again.ok, again.summary
        assert worker.starts == 2
    finally:
        worker.close()


def test_the_cpu_limit_binds_the_worker_and_a_dead_worker_is_replaced(
    project: tuple[Path, Path],
) -> None:
    """RLIMIT_CPU counts a worker's whole life: one that dies of it mid-call is reported as a
    killed dbt (as a fresh process would be), and the next call starts with a full budget."""
    project_dir, warehouse = project
    starved = DbtWorker(project_dir, warehouse, limits=replace(DBT_LIMITS, cpu_seconds=1))
    try:
        died = starved.run(["run"], timeout_s=300)
        assert not died.ok and "killed by SIGXCPU" in died.summary, died.summary
        assert not starved.alive
        again = starved.run(["run"], timeout_s=300)  # a new process, with a new budget
        assert not again.ok and "SIGXCPU" in again.summary and starved.starts == 2
    finally:
        starved.close()


def test_a_worker_that_used_its_share_of_the_budget_is_retired(
    project: tuple[Path, Path],
) -> None:
    project_dir, warehouse = project
    # The budget is set from what a fresh worker's "ls" (importing dbt, listing the project)
    # costs on this machine - a fixed 6 CPU-seconds was more than a fast machine's call needs
    # to use up a fifth of and less than a slow machine's whole call. At 2.5 times that cost a
    # fifth of the budget (half a call) is used up by the call, which still fits in the budget.
    probe = DbtWorker(project_dir, warehouse)
    try:
        measured = probe.run(["ls"], timeout_s=300)
        assert measured.ok and measured.cpu_s > 0, measured.summary
    finally:
        probe.close()
    budget = max(2, math.ceil(2.5 * measured.cpu_s))
    worker = DbtWorker(project_dir, warehouse, limits=replace(DBT_LIMITS, cpu_seconds=budget))
    try:
        first = worker.run(["ls"], timeout_s=300)
        assert first.ok, first.summary
        assert not worker.alive  # retired after its call, not during it
        second = worker.run(["ls"], timeout_s=300)
        assert second.ok and worker.starts == 2
    finally:
        worker.close()


def test_the_episode_uses_one_worker_and_closing_the_episode_kills_it(env: Env) -> None:
    sandbox = sandbox_of(env)
    obs, error = step(env, "dbt", command="run")
    assert not error, obs
    obs, error = step(env, "write_file", path=TOY_MODEL, content="select 7 as answer\n")
    assert not error, obs
    obs, error = step(env, "dbt", command="run --select thing_totals")
    assert not error, obs
    obs, error = step(env, "sql", query="select answer from thing_totals")
    assert not error and "7" in obs, obs
    worker = sandbox.dbt_worker()
    assert worker.starts == 1 and worker.calls == 2 and worker.alive
    assert worker._proc is not None
    pid = worker._proc.pid
    env.close()
    assert not _alive(pid)
