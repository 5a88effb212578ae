"""The ``restore_shipped_project`` adversary: an agent holding the kit's sources writes the
replica's shipped dbt project back instead of looking for the bug.

Fast: it is registered and planned on dbt tasks only, it writes the shipped files through the
tools (the file whose size differs first) within a step budget, and it solves the toy fix task,
whose fix is the pristine file. Pure helpers are checked on the enterprise project (199 files,
listings that overflow one observation). Slow: the audit's adversary check reports the strategy
winning on a factory task (``ecommerce.mutant_fix-v1.s1.3``, the red team's session-10 case).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from replicas.agents import get_agent
from replicas.agents.adversary import STRATEGIES, AdversaryAgent
from replicas.agents.adversary._restore import (
    RESTORED_DIRS,
    _directories_to_list,
    shipped_files,
    shipped_project,
)
from replicas.env import Env
from replicas.replica import get_replica
from replicas.tasks import Task, build_task
from tests.toy_families import (
    BUGGY_MODEL,
    TOY_MODEL,
    toy_families_registered,
)

NAME = "restore_shipped_project"


_toy = pytest.fixture(scope="module", autouse=True)(toy_families_registered)


def _play(task: Task) -> dict[str, Any]:
    """One episode of the strategy; the trajectory, with the sandbox's model file after it."""
    with Env.from_task(task) as env:
        AdversaryAgent((NAME,)).run_episode(env, strategy=NAME)
        trajectory = env.trajectory()
        assert env.sandbox is not None
        trajectory["model_after"] = (env.sandbox.project_dir / TOY_MODEL).read_text()
    return trajectory


def _calls(trajectory: dict[str, Any], tool: str) -> list[dict[str, Any]]:
    return [s["arguments"] for s in trajectory["steps"] if s["tool"] == tool]


def test_registered_and_planned_on_dbt_tasks_only() -> None:
    assert NAME in STRATEGIES
    adversary = get_agent("adversary")
    assert NAME in adversary.plan(build_task("toy.fix-v1.s1.0"))
    assert NAME not in adversary.plan(build_task("toy.total-v1.s1.0"))
    assert not STRATEGIES[NAME].applies(build_task("toy.total-v1.s1.0"))


def test_it_writes_the_shipped_file_back_and_solves_the_toy_fix() -> None:
    task = build_task("toy.fix-v1.s1.0")
    shipped = (Path(get_replica("toy").dbt_project) / TOY_MODEL).read_text()
    assert task.sandbox_patch[TOY_MODEL] == BUGGY_MODEL != shipped  # the premise: a real bug
    trajectory = _play(task)
    writes = _calls(trajectory, "write_file")
    # the broken model's size differs from the shipped one's: written first, with no read; the
    # budget allows reading the two same-size files, which read the same and are not written
    assert writes == [{"path": TOY_MODEL, "content": shipped}]
    reads = sorted(a["path"] for a in _calls(trajectory, "read_file"))
    assert reads == ["models/sources.yml", "models/thing_totals.yml"]
    # every written file is the shipped file at that path, verbatim
    project = Path(get_replica("toy").dbt_project)
    assert all(a["content"] == (project / a["path"]).read_text() for a in writes)
    assert trajectory["model_after"] == shipped
    assert _calls(trajectory, "dbt") == [{"command": "run --select +thing_totals"}]
    assert trajectory["outcome"] == "submitted"
    # the toy fix's fix is the pristine file, so the memorised project solves it
    assert trajectory["verdict"]["score"] == 1.0


def test_it_keeps_to_the_step_budget() -> None:
    """Four steps: one listing, one write, the dbt run and the submit - the differing file is
    the one written, and the episode ends by submitting, not by running out of steps."""
    task = build_task("toy.fix-v1.s1.0")
    trajectory = _play(replace(task, limits=replace(task.limits, max_steps=4)))
    assert [s["tool"] for s in trajectory["steps"]] == ["list_files", "write_file", "dbt", "submit"]
    assert [a["path"] for a in _calls(trajectory, "write_file")] == [TOY_MODEL]
    assert trajectory["outcome"] == "submitted" and trajectory["verdict"]["score"] == 1.0


def test_no_project_no_play(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The project is the replica spec's (an imported replica's is its staged copy); a dbt
    task whose replica is unknown, or whose project is not on disk, is not played."""
    import replicas.replica

    task = build_task("toy.fix-v1.s1.0")
    assert shipped_project(task) == Path(get_replica("toy").dbt_project)
    gone = replace(get_replica("toy"), dbt_project=tmp_path / "no_project")
    monkeypatch.setattr(replicas.replica, "get_replica", lambda name: gone)
    assert shipped_project(task) is None and not STRATEGIES[NAME].applies(task)

    def unknown(name: str) -> None:
        raise ValueError(f"unknown replica {name!r}")

    monkeypatch.setattr(replicas.replica, "get_replica", unknown)
    assert shipped_project(task) is None and not STRATEGIES[NAME].applies(task)


def test_enterprise_listings_fit_one_observation_and_cover_every_file() -> None:
    """The enterprise project's models/ listing overflows an 8,000-character observation: the
    strategy lists subdirectories instead, each small enough, together covering every file."""
    project = Path(get_replica("ecommerce_enterprise").dbt_project)
    files = shipped_files(project, ("fct_revenue_recognized",))
    on_disk = {
        p.relative_to(project).as_posix()
        for top in RESTORED_DIRS
        for p in (project / top).rglob("*")
        if p.is_file()
    }
    assert {f.path for f in files} == on_disk
    assert len(files) > 150
    directories = _directories_to_list(files, 8000)
    assert "models" in directories and "models/staging" in directories
    for f in files:
        assert any(f.path.startswith(d + "/") for d in directories), f.path
    # the graded mart and the models upstream of it come first
    ranks = [f.rank for f in files]
    assert ranks == sorted(ranks)
    upstream = {Path(f.path).stem for f in files if f.rank == 0}
    assert {"fct_revenue_recognized", "int_order_amounts_local"} <= upstream
    assert "dim_products_history" not in upstream


@pytest.mark.slow
def test_the_audit_reports_the_restore_on_a_factory_task() -> None:
    """What the red team's strict xfail (tests/test_redteam_s10.py) leaves true: the factory
    task is still solved by the memorised project, and the audit now says so - its adversary
    check names this strategy as the one rewarded, and the task is not ``usable``."""
    from replicas.audit import audit_tasks

    task_id = "ecommerce.mutant_fix-v1.s1.3"
    report = audit_tasks([task_id], checks=["adversary"])
    audit = report.task(task_id)
    check = audit.check("adversary")
    assert check.failed and check.status == "hackable"
    assert audit.status == "hackable"
    assert check.data["winning_strategies"] == [NAME]
    assert check.data["strategies"][NAME]["score"] == 1.0
    assert any(e.startswith(f"strategy {NAME} is rewarded") for e in check.evidence)
