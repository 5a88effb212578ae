"""Per-seed deployments and ``ecommerce.mutant_fix-v2`` on the real ecommerce project.

The red team's holes 4 and 5 (``tests/test_redteam_s10.py``, strict xfails on the published v1
families) are asserted closed here for v2: the sandbox's warehouse holds only the raw data, and
writing the kit's shipped project back - every model file, or with ``dbt_project.yml`` too -
scores 0 because the seed's documented business rules differ from the shipped ones. Everything
runs for real: DuckDB files, the dbt tool through ``env.step``, the audit's adversary.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from replicas.env import Env
from replicas.factory.deploy import (
    DeploymentError,
    Replace,
    affected,
    deployed_with,
    deployment,
    inline_reference,
    knobs_for,
)
from replicas.factory.deployed import DeployedFunnel
from replicas.factory.funnel import SeedFunnel
from replicas.factory.validate import Evaluator
from replicas.replica import get_replica
from replicas.tasks import Task, build_task, submit
from tests.deploy_support import assert_every_alternative_tests_clean_and_moves_a_mart
from tests.episode_support import assert_every_defect_needs_its_fix, play
from tests.episode_support import step as _step
from tests.episode_support import submit_done as _submit

REPLICA = "ecommerce"
SEED = 1
TASK = "ecommerce.mutant_fix-v2.s1.0"
SHIPPED = Path(get_replica(REPLICA).dbt_project)
_TEXT = (".sql", ".yml", ".md")


def _project_texts() -> dict[str, str]:
    return {
        p.relative_to(SHIPPED).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(SHIPPED.rglob("*"))
        if p.is_file() and p.suffix in _TEXT and "target" not in p.parts
    }


def _choices() -> list[tuple[Any, Any]]:
    return [(k, c) for k in knobs_for(REPLICA) for c in k.choices]


def test_every_knob_has_two_alternatives_that_rewrite_each_statement_of_its_rule() -> None:
    """Each alternative applies to the shipped project (text found exactly as often as
    declared, in the file and in the compiled SQL) and leaves no copy of a replaced sentence
    anywhere in the project, so the seed's docs never contradict its SQL."""
    knobs = knobs_for(REPLICA)
    assert len(knobs) >= 5
    texts = _project_texts()
    for knob, choice in _choices():
        assert len(knob.choices) >= 2
        deployed = deployed_with(REPLICA, 0, [(knob, choice)])
        assert deployed.files, knob.name
        for path, text in deployed.files.items():
            assert text != texts.get(path, (SHIPPED / path).read_text()), (knob.name, path)
        for edit in choice.edits:
            for path, text in texts.items():
                if path != edit.path:
                    assert edit.old not in text, (knob.name, edit.old[:60], path)
        # the rule lands in the SQL a model-file restore would overwrite, or in dbt_project.yml
        assert deployed.models, knob.name


def test_a_stale_knob_is_refused() -> None:
    knob, choice = _choices()[0]
    stale = replace(choice, edits=(Replace("README.md", "no such sentence", "x"),))
    with pytest.raises(DeploymentError, match="no such sentence"):
        deployed_with(REPLICA, 0, [(knob, stale)])


def test_every_alternative_keeps_the_project_tests_passing_and_moves_a_mart() -> None:
    """On the visible data and on every hidden dataset, each alternative alone rebuilds
    everything downstream of it with every project data test passing (a rule that broke a
    test would look like a second bug); on the visible data it changes at least one mart."""
    assert_every_alternative_tests_clean_and_moves_a_mart(REPLICA, SEED)


def test_deployments_are_drawn_per_seed_and_the_same_in_another_process() -> None:
    picks = {s: dict(deployment(REPLICA, s).picks) for s in range(1, 13)}
    for knob in knobs_for(REPLICA):
        assert len({p[knob.name] for p in picks.values()}) >= 2, knob.name
    code = (
        "import json; from replicas.factory.deploy import deployment; "
        f"d = deployment({REPLICA!r}, 3); print(json.dumps([d.key, d.picks]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    mine = deployment(REPLICA, 3)
    assert json.loads(out.strip().splitlines()[-1]) == [mine.key, [list(p) for p in mine.picks]]


def test_the_inlined_reference_is_the_deployed_mart() -> None:
    """Grading's reference (one query over the pristine warehouse) equals the mart the
    deployed models build, row for row, for every mart the deployment reaches."""
    deployed = deployment(REPLICA, SEED)
    with Evaluator(REPLICA, SEED) as ev:
        con = ev.connection("visible")
        for mart in ev.project.marts:
            sql = inline_reference(ev.project, mart, deployed.models)
            if sql is None:
                assert not affected(ev.project, sorted(deployed.models), mart)
                continue
            chain = affected(ev.project, sorted(deployed.models), mart)
            ev.rebuild_with(con, deployed.models, chain)
            built = ev.keep(con, mart, "factory_ref")
            counts = con.execute(
                f"select (select count(*) from (select * from ({sql}) except all "
                f"select * from {built})), (select count(*) from (select * from {built} "
                f"except all select * from ({sql}))), (select count(*) from {built})"
            ).fetchall()[0]
            assert counts[:2] == (0, 0) and counts[2] > 0, (mart, counts)


@pytest.fixture(scope="module")
def task() -> Task:
    return build_task(TASK)


def test_v2_survivors_are_screened_under_the_seeds_rules(task: Task) -> None:
    with SeedFunnel(REPLICA, SEED) as funnel, DeployedFunnel(funnel) as screened:
        first = screened.survivors(limit=1)[0]
        outcomes = screened.screened(limit=1)
    assert first.base.number == task.metadata["survivor"]
    assert task.metadata["rules"] == deployment(REPLICA, SEED).rules()
    # the survivors before it were screened out, each for a recorded reason
    assert all(not o.kept for _, o in outcomes[:-1]) and outcomes[-1][1].kept
    assert task.verifier.reference_sql[first.graded] == first.reference_sql


def test_v2_sandbox_holds_raw_data_only_and_the_seeds_documented_rules(task: Task) -> None:
    """Hole 4 closed: no model relation is in the warehouse, so none points at the broken one;
    the project the agent reads states this seed's rules."""
    from replicas.factory.candidates import candidates_for

    mutated = {candidates_for(REPLICA, SEED)[task.metadata["candidate"]].model}
    assert set(task.withheld) >= {m.stem for m in SHIPPED.glob("models/**/*.sql")}
    with Env.from_task(replace(task, limits=replace(task.limits, max_steps=50))) as env:
        env.reset()
        tables = _step(
            env,
            "sql",
            query="select distinct table_schema from information_schema.tables order by 1",
        )
        readme = _step(env, "read_file", path="README.md")
    lines = tables.splitlines()
    assert lines[0].strip() == "table_schema" and lines[-1].strip() == "(1 row)", tables
    assert [line.strip() for line in lines[2:-1]] == ["raw"], tables
    assert readme.count("Revenue orders") == 1
    assert deployment(REPLICA, SEED).files["README.md"].strip() in readme.replace("\r", "")
    for model in mutated - set(task.verifier.dbt_models):
        assert model not in task.instruction


@pytest.mark.slow
def test_v2_oracle_one_null_zero_and_the_shipped_project_zero(task: Task) -> None:
    """Hole 5 closed for v2: the kit's project written back - model files, and then
    dbt_project.yml too - builds the shipped rules, not the seed's, and scores 0."""
    (mart,) = task.verifier.dbt_models
    assert play(task, task.oracle[:-1]) == 1.0
    assert play(task, []) == 0.0
    for extra in ((), ("dbt_project.yml",)):
        with Env.from_task(replace(task, limits=replace(task.limits, max_steps=100))) as env:
            env.reset()
            for path in [*sorted(SHIPPED.glob("models/**/*.sql")), *(SHIPPED / e for e in extra)]:
                rel = path.relative_to(SHIPPED).as_posix()
                _step(env, "write_file", path=rel, content=path.read_text())
            _step(env, "dbt", command=f"run --select +{mart}")
            reward, verdict = _submit(env)
        assert reward == 0.0, (extra, verdict["feedback"])
    assert submit("x").name == "submit"


@pytest.mark.slow
def test_the_audits_adversary_gets_nothing_from_a_v2_task() -> None:
    """Every adversary strategy, ``restore_shipped_project`` and the hard-coded model among
    them, scores 0 on the task where v1's twin is ``hackable``."""
    from replicas.audit import audit_tasks

    report = audit_tasks([TASK], checks=["adversary"])
    check = report.task(TASK).check("adversary")
    assert not check.failed, check.evidence
    assert check.data["strategies"]["restore_shipped_project"]["score"] == 0.0


def test_cli_lists_the_deployed_tasks_by_default(tmp_path: Path) -> None:
    """``replicas factory ecommerce`` writes the v2 ids (v1's are memorisable); funnel.json
    adds the deployment screen's counts, which agree with the family's numbering."""
    from typer.testing import CliRunner

    from replicas.cli import build_app
    from replicas.factory.deployed import DEPLOYED_STAGES

    out = tmp_path / "factory"
    args = ["factory", REPLICA, "--seeds", str(SEED), "--max-candidates", "12", "--out", str(out)]
    result = CliRunner().invoke(build_app(("factory",)), args)
    assert result.exit_code == 0, result.output
    funnel = json.loads((out / "funnel.json").read_text())
    ids = (out / "suite.txt").read_text().split()
    deployed = funnel["deployed"]
    assert deployed["family"] == "ecommerce.mutant_fix-v2"
    assert deployed["survivors"] == funnel["usable"] == len(funnel["task_ids"])
    counts = [deployed[s] for s in DEPLOYED_STAGES]
    assert counts == sorted(counts, reverse=True)
    assert ids == deployed["task_ids"] and len(ids) == deployed["describable"] >= 1
    assert ids[0] == TASK and funnel["usable_total"] == len(ids)
    assert "## Under each seed's deployment" in (out / "funnel.md").read_text()


def test_cli_combines_under_the_deployment(tmp_path: Path) -> None:
    """``--combine`` at family version 2 lists mutant_fix_multi-v2 ids after the single ones:
    the v1 combinations that pass the deployment screen (every defect still matters)."""
    from typer.testing import CliRunner

    from replicas.cli import build_app

    out = tmp_path / "factory"
    args = ["factory", REPLICA, "--seeds", str(SEED), "--max-candidates", "4", "--combine", "2"]
    result = CliRunner().invoke(build_app(("factory",)), [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    funnel = json.loads((out / "funnel.json").read_text())
    combined = funnel["combined"]
    assert combined["family"] == "ecommerce.mutant_fix_multi-v2"
    screened = combined["deployed"]
    assert screened["survivors"] == combined["usable"]
    ids = (out / "suite.txt").read_text().split()
    assert ids == funnel["deployed"]["task_ids"] + screened["task_ids"]
    assert screened["task_ids"][0] == "ecommerce.mutant_fix_multi-v2.s1.0"
    assert "Under each seed's deployment" in (out / "funnel.md").read_text()


@pytest.mark.slow
def test_multi_v2_oracle_one_each_fix_alone_zero_and_the_shipped_project_zero() -> None:
    task = build_task("ecommerce.mutant_fix_multi-v2.s1.0")
    (mart,) = task.verifier.dbt_models
    assert_every_defect_needs_its_fix(task)
    with Env.from_task(replace(task, limits=replace(task.limits, max_steps=100))) as env:
        env.reset()
        for path in sorted(SHIPPED.glob("models/**/*.sql")):
            _step(
                env,
                "write_file",
                path=path.relative_to(SHIPPED).as_posix(),
                content=path.read_text(),
            )
        _step(env, "dbt", command=f"run --select +{mart}")
        assert _submit(env)[0] == 0.0
