"""The factory and the metric family on both imported example projects, end to end: mutants of
the user's models validated by execution, survivors listed as ``NAME.mutant_fix-v1`` tasks, and
mart questions whose answers, oracles and wrong readings are checked on the pristine data."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from replicas.build import ensure_snapshot
from replicas.cli import build_app
from replicas.env import Env
from replicas.factory.funnel import STAGES
from replicas.tasks import Task, get_family, submit
from replicas.tasks.family import BuildContext
from replicas.verifiers.answers import check_answer
from tests.byo_support import PROJECTS, home_for_imports

SEED = 1
#: The first candidates of the seed's order: enough for survivors, cheap to validate.
FIRST = 4


@pytest.fixture(scope="module")
def imported(module_registries: None) -> Iterator[dict[str, Any]]:
    with home_for_imports():
        from tests.byo_support import import_all

        yield import_all()


def _episode(task: Task, calls: Any) -> float:
    snapshot = ensure_snapshot(task.replica, task.seed, task.scale)
    with Env.from_task(task, snapshot=snapshot) as env:
        env.reset()
        reward = 0.0
        for call in calls:
            _obs, reward, terminated, truncated, _info = env.step(call.to_action())
            if terminated or truncated:
                break
    return float(reward)


@pytest.mark.parametrize("replica", sorted(PROJECTS))
def test_factory_end_to_end(imported: dict[str, Any], replica: str, tmp_path: Path) -> None:
    out = tmp_path / "factory"
    with home_for_imports():
        result = CliRunner().invoke(
            build_app(("factory",)),
            ["factory", replica, "--seeds", str(SEED), "--max-candidates", str(FIRST),
             "--family-version", "1",
             "--out", str(out)],
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        funnel = json.loads((out / "funnel.json").read_text())
        ids = (out / "suite.txt").read_text().split()
        assert funnel["candidates"] == FIRST
        assert [funnel[s] for s in STAGES] == sorted((funnel[s] for s in STAGES), reverse=True)
        assert len(ids) == funnel["usable"] >= 1, funnel
        assert ids[0] == f"{replica}.mutant_fix-v1.s{SEED}.0"
        family = get_family(f"{replica}.mutant_fix-v1")
        snapshot = ensure_snapshot(replica, SEED)
        task = family.make(BuildContext(family, snapshot, SEED, 0))
    (path,) = task.sandbox_patch
    mart = task.verifier.dbt_models[0]
    assert path not in task.instruction and mart in task.instruction
    assert task.verifier.hidden_data
    restored = task.oracle[0]
    assert restored.name == "write_file" and restored.arguments["path"] == path
    assert task.sandbox_patch[path] != restored.arguments["content"]
    # the broken model really is the user's model with one edit
    original = (PROJECTS[replica] / path).read_text()
    assert restored.arguments["content"] == original


@pytest.mark.slow
@pytest.mark.parametrize("replica", sorted(PROJECTS))
def test_fix_task_oracle_scores_one_and_untouched_sandbox_zero(
    imported: dict[str, Any], replica: str
) -> None:
    with home_for_imports():
        family = get_family(f"{replica}.mutant_fix-v1")
        snapshot = ensure_snapshot(replica, SEED)
        task = family.make(BuildContext(family, snapshot, SEED, 0))
        assert _episode(task, [submit("")]) == 0.0
        assert _episode(task, task.oracle) == 1.0


@pytest.mark.parametrize("replica", sorted(PROJECTS))
def test_metric_questions_discriminate_and_oracle_passes(
    imported: dict[str, Any], replica: str
) -> None:
    with home_for_imports():
        family = get_family(f"{replica}.mart_metric-v1")
        snapshot = ensure_snapshot(replica, SEED)
        tasks = [family.build(snapshot, SEED, v) for v in range(family.n_variants)]
        again = family.build(snapshot, SEED, 0)
        assert again.to_dict() == tasks[0].to_dict()  # same seed → same task
        for task in tasks:
            assert task.metadata["mart"] in task.instruction
            assert "Tolerance" in task.instruction and "Submit only the number" in task.instruction
            assert {"filter_ignored"} <= set(task.wrong_readings)
            for name, value in task.wrong_readings.items():
                verdict = check_answer("number", value, task.expected, task.verifier)
                assert not verdict.passed, (task.id, name)
            # the oracle's SQL recomputes the answer on the pristine warehouse
            ctx = BuildContext(family, snapshot, SEED, task.variant)
            assert ctx.scalar(task.oracle[0].arguments["query"]) == pytest.approx(task.expected)
        # variants ask different questions
        assert len({t.instruction for t in tasks}) >= family.n_variants - 1
        assert _episode(tasks[0], tasks[0].oracle) == 1.0
        assert _episode(tasks[0], [submit("0")]) == 0.0 or tasks[0].expected == 0
