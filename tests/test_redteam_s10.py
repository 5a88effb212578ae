"""Red team, session 10: one regression test per hole found, replayed where the agent acts.

Each test asserts the *safe* behaviour. The first two holes are still open (strict xfails, the
README's factory section says so): closing them changes what published factory tasks start with
or grade, so it needs new family versions. The last three are closed:

* a factory task's sandbox warehouse lacks the graded mart and every model downstream of the
  mutated ones, and nothing else: the missing models whose parents are all present are mutated
  models (``ecommerce.mutant_fix-v1.s1.3``: ``int_order_items_usd``;
  ``mutant_fix_multi-v1.s1.0``: the same, beside the mart), found with one ``sql`` query and the
  project's ``ref()``s - the instructions never name them, and a combined task's promises not to
  reveal the files or their number;
* every ecommerce factory task has one constant solution: the kit's shipped project written back
  verbatim (reward 1.0 on ``mutant_fix-v1.s1.3`` without looking for the bug); the audit's
  seed-sensitivity check compares single fixes, each a different file, and never sees it (the
  adversary strategy ``restore_shipped_project``, added after, plays it: the audit now flags the
  task ``hackable``, tests/test_adversary_restore.py);
* on a hidden dataset the verdict names the nodes that failed, and the agent names its nodes:
  forty tiny models, each failing on purpose when one digit of the hidden ``raw.orders`` row
  count has one value, spell all four hidden counts in one submit (README layer 11 promises
  "never ... a value");
* a lone UTF-16 surrogate in an action (``"\\ud800"``, a valid JSON escape an OpenAI-style tool
  call can carry) reaches the trajectory, and writing the trajectory raises
  ``UnicodeEncodeError``: the whole ``replicas run`` aborts, and a resumed run replays the
  episode and aborts again;
* a table with a generated column is read by the ``sql`` tool (and by grading) with the column's
  expression evaluated on the host's connection, past the allow-list that refuses the same
  expression in a query or a view: ``current_setting('secret_directory')`` shows the host's home
  directory. Closed: the ``sql`` tool refuses such a table (``query_check``), and grading does
  not read a warehouse that holds one (``read_built_table``: ``unreadable_model``).
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from replicas.env import Env
from replicas.tasks import build_task
from tests.episode_support import step as _step

SCRIPT = Path(__file__).parent / "fixtures" / "script_agent.py"
_REF = re.compile(r"""ref\(\s*['"]([A-Za-z0-9_]+)['"]\s*\)""")


@pytest.mark.parametrize(
    "task_id", ["ecommerce.mutant_fix-v1.s1.3", "ecommerce.mutant_fix_multi-v1.s1.0"]
)
@pytest.mark.xfail(
    strict=True,
    reason="hole: a factory sandbox drops exactly the graded mart and the mutated models' "
    "descendants (Task.sandbox_spec + sandbox_warehouse_template), so the DAG roots of the "
    "missing relations are broken files",
)
def test_the_missing_relations_of_a_factory_sandbox_do_not_name_the_mutated_models(
    task_id: str,
) -> None:
    task = build_task(task_id)
    mutated = {Path(p).stem for p in task.sandbox_patch}
    (mart,) = task.verifier.dbt_models
    assert mutated - {mart}, "a mutation upstream of the graded mart"
    assert not any(m in task.instruction for m in mutated - {mart})
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
    assert {mart} | mutated <= missing  # the premise: all of them were dropped
    roots = {m for m in missing if not (parents[m] & missing)}
    # what one query tells an agent that has not read a line of SQL yet
    assert not roots <= mutated, f"every missing model with no missing parent is broken: {roots}"


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
    "kit's shipped project written back verbatim (the audit's adversary strategy "
    "restore_shipped_project now plays it and flags such tasks hackable; the family is unchanged)",
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


@pytest.mark.slow
def test_the_names_of_failed_nodes_on_hidden_data_spell_no_hidden_value() -> None:
    """README, layer 11: on a hidden dataset the agent learns which nodes failed, 'never dbt's
    error text or a value'. Forty tiny models, each failing when one digit of the hidden
    ``raw.orders`` row count has one value, are a value: the failed names spell the count."""
    import duckdb

    from replicas.tasks.hidden import hidden_datasets

    task = build_task("ecommerce.mutant_fix-v1.s1.3")
    (mart,) = task.verifier.dbt_models
    fix = [dict(c.arguments) for c in task.oracle if c.name == "write_file"]
    with Env.from_task(replace(task, limits=replace(task.limits, max_steps=100))) as env:
        env.reset()
        shown = _step(env, "sql", query="select count(*) as n from raw.orders")
        visible = int(next(ln for ln in shown.splitlines() if ln.strip().isdigit()))
        for arguments in fix:  # pass on the visible data, so grading goes on to the hidden
            _step(env, "write_file", **arguments)
        names = []
        for position in range(4):
            for digit in range(10):
                name = f"spell_p{position}_d{digit}"
                names.append(name)
                body = (
                    "{{ config(materialized='table') }}\n"
                    f"select case when n <> {visible} and floor(n / {10**position}) % 10 = "
                    f"{digit} then error('on purpose') else 1 end as ok\n"
                    "from (select count(*) as n from {{ source('raw', 'orders') }})\n"
                )
                _step(env, "write_file", path=f"models/spell/{name}.sql", content=body)
        mart_file = f"models/marts/{mart}.sql"
        refs = "".join(f"-- {{{{ ref('{n}') }}}}\n" for n in names)
        _step(
            env,
            "write_file",
            path=mart_file,
            content=_step(env, "read_file", path=mart_file) + refs,
        )
        obs, reward, terminated, _, info = env.step(
            {"name": "submit", "arguments": {"answer": "Fixed the net line amount."}}
        )
    assert terminated and reward == 0.0
    assert info["verdict"]["objective_scores"].get(mart) == 1.0, info["verdict"]["feedback"]
    counts = []
    for dataset in hidden_datasets(task.replica):
        con = duckdb.connect(str(dataset.raw), read_only=True)
        try:
            counts.append(con.execute("select count(*) from raw.raw.orders").fetchall()[0][0])
        finally:
            con.close()
    spelled = []
    for part in re.split(r"hidden dataset \d+ of \d+", str(obs))[1:]:
        digits = dict(re.findall(r"spell_p(\d)_d(\d)", part))
        spelled.append(sum(int(d) * 10 ** int(p) for p, d in digits.items()) if digits else None)
    assert not any(n == c for n, c in zip(spelled, counts, strict=False)), (spelled, counts)


def test_grading_does_not_read_a_warehouse_holding_a_generated_column(tmp_path: Path) -> None:
    """The grading side of the generated-column hole: a graded model that is a view over such a
    table (or the table itself) would evaluate the expression on grading's connection."""
    import duckdb

    from replicas.tasks.grading import read_built_table

    warehouse = tmp_path / "built.duckdb"
    con = duckdb.connect(str(warehouse))
    con.execute(
        "create table main.facts (x int, home varchar as (current_setting('secret_directory')))"
    )
    con.execute("insert into main.facts (x) values (1)")
    con.execute("create view main.mart as select x, home from main.facts")
    con.execute("create table main.plain as select 1 as x")
    con.close()
    for relation in ("mart", "facts", "plain"):
        with pytest.raises(duckdb.Error, match="generated columns"):
            read_built_table(warehouse, relation)
    assert read_built_table(warehouse, "absent") is None
