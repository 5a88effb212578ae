"""``ecommerce_enterprise.multi_layer_incident-v3``: the hard tier's incident on each seed's
deployment of the enterprise project.

v2's fix was the kit's own files (red team, session 10: the audit's ``restore_shipped_project``
scored 1.0 on all seven hard-v2 incident tasks). v3 runs each seed's company on its own
documented delivery-date rule; asserted here with the real project files, real DuckDB snapshots
and episodes through ``env.step``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from replicas.env import Env
from replicas.factory.deploy import deployed_files, draw, knobs_for
from replicas.families.ecommerce_enterprise._deployment import KNOBS, REPLICA
from replicas.replica import get_replica
from replicas.tasks import Task, build_task
from tests.episode_support import step, submit_done

SHIPPED = Path(get_replica(REPLICA).dbt_project)
TASK = "ecommerce_enterprise.multi_layer_incident-v3.s11.0"


def _texts() -> dict[str, str]:
    return {
        p.relative_to(SHIPPED).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(SHIPPED.rglob("*"))
        if p.is_file() and p.suffix in (".sql", ".yml", ".md") and "target" not in p.parts
    }


def test_each_alternative_rewrites_every_statement_of_the_rule() -> None:
    """Every alternative applies to the shipped files, leaves their YAML readable, and no other
    file of the project still states the shipped rule in the words it replaced."""
    assert knobs_for(REPLICA) == KNOBS
    texts = _texts()
    forms = set()
    for knob in KNOBS:
        assert len(knob.choices) >= 2
        for choice in knob.choices:
            files = deployed_files(SHIPPED, [(knob, choice)])
            forms.add(tuple(sorted(files.items())))
            assert "models/intermediate/commerce/int_orders.sql" in files
            for path, text in files.items():
                assert text != texts[path], path
                if path.endswith(".yml"):
                    yaml.safe_load(text)
            for edit in choice.edits:
                edited = {e.path for e in choice.edits if e.old == edit.old}
                others = [p for p, t in texts.items() if p not in edited and edit.old in t]
                assert others == [], (edit.old[:50], others)
    assert len(forms) == sum(len(k.choices) for k in KNOBS)


def test_seeds_draw_both_forms_the_same_in_every_process() -> None:
    picks = {s: tuple(c.label for _, c in draw(REPLICA, s)) for s in range(1, 21)}
    assert len(set(picks.values())) >= 2
    assert picks == {s: tuple(c.label for _, c in draw(REPLICA, s)) for s in range(1, 21)}


@pytest.fixture(scope="module")
def task() -> Task:
    return build_task(TASK)


@pytest.mark.slow
def test_v3_sandbox_holds_the_seeds_rule_and_the_oracle_writes_deployed_files(task: Task) -> None:
    picks = draw(REPLICA, task.seed)
    rules = deployed_files(SHIPPED, picks)
    assert task.metadata["rules"] == {k.name: c.label for k, c in picks}
    for path, text in rules.items():  # every rule file is in the sandbox, deployed
        assert path in task.sandbox_patch
        if path not in task.metadata["files"]:
            assert task.sandbox_patch[path] == text
    for call in task.oracle:
        if call.name == "write_file":
            path = call.arguments["path"]
            assert call.arguments["content"] == rules.get(path, (SHIPPED / path).read_text())
    assert task.verifier.reference_sql[task.metadata["mart"]]
    assert "may differ from other deployments" in task.instruction


@pytest.mark.slow
def test_v3_oracle_one_null_zero_and_the_shipped_files_zero(task: Task) -> None:
    """The deployed project (the oracle's files) passes the project's tests upstream of the
    mart; it scores 1, the untouched sandbox 0, and the kit's own model files written back 0."""
    mart = task.metadata["mart"]
    roomy = replace(task, limits=replace(task.limits, max_steps=200, wall_s=3600.0))
    with Env.from_task(roomy) as env:
        env.reset()
        for call in task.oracle[:-1]:
            env.step(call.to_action())
        reward, verdict = submit_done(env)
    assert reward == 1.0, verdict
    with Env.from_task(roomy) as env:  # the whole deployed project: every test passes
        env.reset()
        for call in task.oracle:
            if call.name == "write_file":
                env.step(call.to_action())
        step(env, "dbt", command="build")
    with Env.from_task(task) as env:
        env.reset()
        assert submit_done(env)[0] == 0.0
    with Env.from_task(roomy) as env:
        env.reset()
        for path in sorted(SHIPPED.glob("models/**/*.sql")):
            rel = path.relative_to(SHIPPED).as_posix()
            if rel in task.sandbox_patch:  # the files the kit's memory would put back
                step(env, "write_file", path=rel, content=path.read_text())
        step(env, "dbt", command=f"run --select +{mart}")
        reward, verdict = submit_done(env)
    assert reward == 0.0, verdict["feedback"]


@pytest.mark.slow
def test_the_audits_adversary_gets_nothing_from_a_v3_task() -> None:
    from replicas.audit import audit_tasks

    report = audit_tasks([TASK], checks=["adversary"])
    check = report.task(TASK).check("adversary")
    assert not check.failed, check.evidence
    assert check.data["strategies"]["restore_shipped_project"]["score"] == 0.0
