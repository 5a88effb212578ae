"""Combined factory tasks (``ecommerce.mutant_fix_multi-v1``) on the real ecommerce project:
the combination funnel, the family's tasks played through ``env.step`` (real DuckDB and dbt,
nothing mocked) and the CLI's ``--combine``."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from replicas.build import Snapshot, ensure_snapshot
from replicas.cli import build_app
from replicas.env import Env
from replicas.factory.combine import (
    COMBO_STAGES,
    DEFAULT_SPEC,
    CombineSpec,
    ComboEvaluator,
    ComboFunnel,
    count_combo_stages,
)
from replicas.factory.funnel import SeedFunnel
from replicas.factory.project import load_project
from replicas.tasks import Task, ToolCall, get_family, submit
from replicas.tasks.family import BuildContext

REPLICA = "ecommerce"
FAMILY = "ecommerce.mutant_fix_multi-v1"
SEED = 1


@pytest.fixture(scope="module")
def combos() -> list[Any]:
    """Seed 1's usable combinations as the family draws them (cached funnel)."""
    with SeedFunnel(REPLICA, SEED) as funnel, ComboFunnel(funnel) as combo_funnel:
        found = combo_funnel.combinations()
    assert found, "seed 1 has no usable combination"
    return found


@pytest.fixture(scope="module")
def first_task(combos: list[Any]) -> tuple[Task, Snapshot]:
    family = get_family(FAMILY)
    snapshot = ensure_snapshot(REPLICA, SEED)
    return family.make(BuildContext(family, snapshot, SEED, 0)), snapshot


def test_combinations_are_in_different_layers_and_every_defect_matters(
    combos: list[Any],
) -> None:
    """Re-checked here from scratch, not read from the cache: with every mutant the graded mart
    differs on the visible data and a hidden one; with any mutant restored it still does."""
    first = combos[0]
    members = first.members
    assert 2 <= len(members) <= 3
    assert len({m.candidate.layer for m in members}) == len(members)
    project = load_project(REPLICA)
    assert all(first.graded in project.downstream(m.candidate.model) for m in members)
    with ComboEvaluator(REPLICA, SEED) as evaluator:
        chain = evaluator.union_chain(m.candidate.model for m in members)
        mutants = {m.candidate.model: m.candidate.compiled_mutant for m in members}
        sub_chain = evaluator._ancestors_in(chain, [first.graded])
        assert evaluator.fails_everywhere(mutants, sub_chain, first.graded)
        for keep in range(1, len(members)):
            for kept in itertools.combinations(members, keep):
                remaining = {m.candidate.model: m.candidate.compiled_mutant for m in kept}
                assert evaluator.fails_everywhere(remaining, sub_chain, first.graded)
        # all restored: the rebuilt mart is the pristine one (the check can say "no difference")
        assert not evaluator.fails_everywhere({}, sub_chain, first.graded)


def test_combinations_are_numbered_deterministically_and_depend_on_the_seed(
    combos: list[Any],
) -> None:
    """Drawn again with the cache off (every combination revalidated): the same members, the
    same graded mart, the same output signature and symptom."""
    with SeedFunnel(REPLICA, SEED) as funnel:
        spec = CombineSpec(sizes=(2,), pool=DEFAULT_SPEC.pool, max_tries=DEFAULT_SPEC.max_tries)
        uncached = SeedFunnel(REPLICA, SEED, cache=False)
        # the single survivors come from the cache (their determinism is test_factory's); every
        # combination is validated anew
        uncached._outcomes = dict(funnel._outcomes)
        with ComboFunnel(uncached, replace(spec, max_usable=1)) as again:
            redone = again.combinations()
            assert again.validated >= 1
            assert not again.path.exists() or again.path.stat().st_size > 0
    assert len(redone) == 1
    first = combos[0]
    assert [m.candidate.key for m in redone[0].members] == [m.candidate.key for m in first.members]
    assert redone[0].graded == first.graded
    assert redone[0].outcome.signature == first.outcome.signature
    assert redone[0].symptom == first.symptom


def test_task_states_the_combined_symptom_not_the_bugs(first_task: tuple[Task, Snapshot]) -> None:
    task, _ = first_task
    mart = task.verifier.dbt_models[0]
    assert task.id == f"{FAMILY}.s{SEED}.0"
    assert 2 <= len(task.sandbox_patch) <= 3
    assert task.verifier.hidden_data and mart in task.instruction
    restored = [c for c in task.oracle if c.name == "write_file"]
    assert {c.arguments["path"] for c in restored} == set(task.sandbox_patch)
    for call in restored:
        path = call.arguments["path"]
        model = Path(path).stem
        assert path not in task.instruction
        if model != mart:
            assert model not in task.instruction
        assert task.sandbox_patch[path] != call.arguments["content"]
    assert "more than one recent edit" in task.instruction


def run_episode(task: Task, snapshot: Snapshot, calls: Sequence[ToolCall]) -> tuple[float, Any]:
    with Env.from_task(task, snapshot=snapshot) as env:
        env.reset()
        reward = 0.0
        info: dict[str, Any] = {}
        for call in calls:
            obs, reward, terminated, truncated, info = env.step(call.to_action())
            if call.name != "submit":
                assert not info.get("error"), f"{call.name} failed: {obs[:800]}"
            if terminated or truncated:
                break
        return float(reward), info.get("verdict") or {}


@pytest.mark.slow
def test_oracle_scores_one_null_zero_and_one_fix_alone_zero(
    first_task: tuple[Task, Snapshot],
) -> None:
    task, snapshot = first_task
    reward, verdict = run_episode(task, snapshot, [submit("I don't know")])
    assert reward == 0.0, verdict
    reward, verdict = run_episode(task, snapshot, task.oracle)
    assert reward == 1.0, verdict
    # one broken model restored, the others left broken: the oracle's build, which still fails
    build = next(c for c in task.oracle if c.name == "dbt")
    for restore in (c for c in task.oracle if c.name == "write_file"):
        reward, verdict = run_episode(task, snapshot, [restore, build, submit("fixed one")])
        assert reward == 0.0, (restore.arguments["path"], verdict)


def test_cli_combine_writes_combined_ids_after_single_ones(tmp_path: Path) -> None:
    out = tmp_path / "factory"
    result = CliRunner().invoke(
        build_app(("factory",)),
        [
            "factory",
            REPLICA,
            "--seeds",
            str(SEED),
            "--max-candidates",
            "4",
            "--combine",
            "2",
            "--family-version",
            "1",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    funnel = json.loads((out / "funnel.json").read_text())
    ids = (out / "suite.txt").read_text().split()
    combined = funnel["combined"]
    assert combined["family"] == FAMILY and combined["sizes"] == [2]
    assert [combined[s] for s in COMBO_STAGES] == sorted(
        (combined[s] for s in COMBO_STAGES), reverse=True
    )
    assert combined["usable"] == len(combined["task_ids"]) >= 1
    assert ids == funnel["task_ids"] + combined["task_ids"]
    assert funnel["usable_total"] == len(ids)
    assert combined["task_ids"][0] == f"{FAMILY}.s{SEED}.0"
    assert count_combo_stages(["usable"])["candidates"] == 1
    for counts in funnel["per_operator"].values():
        assert counts["validate_s"] > 0 and counts["candidates_per_minute"] > 0
    assert "## Combined tasks" in (out / "funnel.md").read_text()


@pytest.mark.parametrize("value", ["1", "4"])
def test_cli_bad_combine_exits_2_and_writes_nothing(tmp_path: Path, value: str) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(
        build_app(("factory",)),
        ["factory", REPLICA, "--combine", value, "--family-version", "1", "--out", str(out)],
    )
    assert result.exit_code == 2, result.output
    assert "--combine must be 2 or 3" in result.output
    assert not out.exists()


def test_combine_spec_is_validated() -> None:
    with pytest.raises(ValueError, match="sizes"):
        CombineSpec(sizes=(4,))
    with pytest.raises(ValueError, match="pool"):
        CombineSpec(pool=0)
