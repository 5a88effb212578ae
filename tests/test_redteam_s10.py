"""Red team, session 10: one regression test per hole found, replayed where the agent acts.

Each test asserts the *safe* behaviour and is a strict xfail until the hole is closed:

* a factory task's sandbox warehouse lacks the graded mart and every model downstream of the
  mutated one, and nothing else: the one missing model whose parents are all present is the
  mutated model (``ecommerce.mutant_fix-v1.s1.3``: ``int_order_items_usd``), found with one
  ``sql`` query and the project's ``ref()``s - the instruction never names it, and a combined
  task's instruction promises not to reveal the files or their number;
* a lone UTF-16 surrogate in an action (``"\\ud800"``, a valid JSON escape an OpenAI-style tool
  call can carry) reaches the trajectory, and writing the trajectory raises
  ``UnicodeEncodeError``: the whole ``replicas run`` aborts, and a resumed run replays the
  episode and aborts again;
* a table with a generated column is read by the ``sql`` tool (and by grading) with the column's
  expression evaluated on the host's connection, past the allow-list that refuses the same
  expression in a query or a view: ``current_setting('secret_directory')`` shows the host's home
  directory.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from replicas.env import Env
from replicas.tasks import build_task

SCRIPT = Path(__file__).parent / "fixtures" / "script_agent.py"
_REF = re.compile(r"""ref\(\s*['"]([A-Za-z0-9_]+)['"]\s*\)""")


def _step(env: Env, name: str, **arguments: Any) -> str:
    obs, _, terminated, truncated, info = env.step({"name": name, "arguments": arguments})
    assert not (terminated or truncated), obs
    assert not info["error"], obs
    return str(obs)


@pytest.mark.xfail(
    strict=True,
    reason="hole: a factory sandbox drops exactly the mutated model's descendants "
    "(Task.sandbox_spec + sandbox_warehouse_template), so the DAG root of the missing "
    "relations names the broken file",
)
def test_the_missing_relations_of_a_factory_sandbox_do_not_name_the_mutated_model() -> None:
    task_id = "ecommerce.mutant_fix-v1.s1.3"
    task = build_task(task_id)
    (patched,) = task.sandbox_patch
    mutated = Path(patched).stem
    (mart,) = task.verifier.dbt_models
    assert mutated != mart  # the mutation is upstream of the graded mart
    assert mutated not in task.instruction
    with Env.from_task(replace(task, limits=replace(task.limits, max_steps=200))) as env:
        env.reset()
        listing = _step(env, "list_files", path="models")
        files = re.findall(r"^(models/\S+\.sql)\s", listing, flags=re.MULTILINE)
        parents = {Path(f).stem: set(_REF.findall(_step(env, "read_file", path=f))) for f in files}
        table = _step(
            env,
            "sql",
            query="select table_name from information_schema.tables where table_schema = 'main'",
        )
    present = {line.strip() for line in table.splitlines()}
    missing = {m for m in parents if m not in present}
    assert mart in missing and mutated in missing  # the premise: both were dropped
    roots = {m for m in missing if not (parents[m] & missing)}
    # what one query tells an agent that has not read a line of SQL yet
    assert roots != {mutated}, f"the only missing model with no missing parent is {mutated}"


@pytest.mark.xfail(
    strict=True,
    reason="hole: lone surrogates in an action or observation reach the trajectory, and "
    "RunStore.append's write_json_atomic (UTF-8, ensure_ascii=False) raises; the run aborts",
)
def test_a_lone_surrogate_in_an_action_does_not_abort_the_run(tmp_path: Path) -> None:
    from replicas.agents.base import AgentOptions
    from replicas.runner import RunConfig, run
    from replicas.runner.store import read_results

    task_id = "credit_cards.eligibility-v1.s1.0"
    oracle = [c.to_action() for c in build_task(task_id).oracle]
    # "\ud800" is what json.loads makes of the escape an OpenAI tool call's arguments may hold
    odd = {"name": "sql", "arguments": {"query": "select 1 as one -- \ud800"}}
    actions = tmp_path / "actions.json"
    actions.write_text(json.dumps({task_id: [odd, *oracle]}))
    agent = "cmd:" + shlex.join(
        [sys.executable, str(SCRIPT), "--mode", "replay", "--actions", str(actions)]
    )
    out = tmp_path / "run"
    run(
        RunConfig(
            out=out,
            agent=agent,
            task_ids=(task_id,),
            workers=0,
            options=AgentOptions(episode_timeout_s=60.0),
        )
    )
    [record] = read_results(out).records
    assert record["passed"] and record["score"] == 1.0
    trajectory = out / record["trajectory"]
    json.loads(trajectory.read_bytes().decode("utf-8"))  # strict UTF-8, valid JSON


@pytest.mark.xfail(
    strict=True,
    reason="hole: the sql tool's query check inspects views and stored macros, not the "
    "expressions of generated columns, which DuckDB evaluates on the host's connection",
)
def test_a_generated_column_reads_no_host_setting_through_the_sql_tool() -> None:
    from tests.toy_families import register_toy

    register_toy()
    task = build_task("toy.fix-v1.s1.0")
    create = (
        "create or replace table main.host_facts (x int, home varchar as "
        "(current_setting('secret_directory')))"
    )
    model = (
        f'{{% do run_query("{create}") %}}'
        '{% do run_query("insert into main.host_facts (x) values (1)") %}\n'
        "select 1 as x\n"
    )
    with Env.from_task(replace(task, limits=replace(task.limits, max_steps=20))) as env:
        env.reset()
        # the premise: the allow-list refuses the expression in a query
        obs, _, _, _, info = env.step(
            {"name": "sql", "arguments": {"query": "select current_setting('secret_directory')"}}
        )
        assert info["error"], obs
        _step(env, "write_file", path="models/host_facts_hook.sql", content=model)
        _step(env, "dbt", command="run --select host_facts_hook")
        obs, _, _, _, info = env.step(
            {"name": "sql", "arguments": {"query": "select home from main.host_facts"}}
        )
    home = str(Path.home())
    assert home not in str(obs), obs


@pytest.mark.slow
@pytest.mark.xfail(
    strict=True,
    reason="hole: every ecommerce factory task has one constant, memorisable solution - the "
    "kit's shipped project written back verbatim - and no audit check plays it",
)
def test_writing_back_the_shipped_project_does_not_solve_a_factory_task() -> None:
    """An agent that has read the kit (the threat model says it has) writes every model file of
    ``dbt_projects/ecommerce`` into its sandbox without looking for the bug. The same actions fit
    all 571 ecommerce factory tasks; the seed-sensitivity check compares one variant's fix with
    other variants' fixes, each a different file, so it never sees the constant union."""
    from replicas.replica import get_replica

    task = build_task("ecommerce.mutant_fix-v1.s1.3")
    shipped = Path(get_replica("ecommerce").dbt_project)
    (mart,) = task.verifier.dbt_models
    with Env.from_task(replace(task, limits=replace(task.limits, max_steps=100))) as env:
        env.reset()
        for path in sorted(shipped.glob("models/**/*.sql")):
            rel = path.relative_to(shipped).as_posix()
            _step(env, "write_file", path=rel, content=path.read_text())
        _step(env, "dbt", command=f"run --select +{mart}")
        _, reward, terminated, _, info = env.step(
            {"name": "submit", "arguments": {"answer": "Rewrote the project from the kit."}}
        )
    assert terminated
    assert reward == 0.0, info["verdict"]["feedback"]
