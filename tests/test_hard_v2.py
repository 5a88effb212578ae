"""Suite hard-v2: a grading budget apart from the agent's, and the four -v2 enterprise families.

Fast tier (toy replica, real dbt under the OS sandbox): a task whose agent budget is nearly
spent loses its correct answer under v1 semantics (grading runs in what is left of the episode)
and keeps it with ``Limits.grading_wall_s``; a model that never finishes is stopped at the
grading budget and scores 0 with ``grading_time_limit``. The hard-v2 plan is hard-v1 with four
families bumped.

Slow tier (enterprise snapshots of seeds 11 and 12): the grading-only -v2 families build v1's
exact tasks under a new id with a grading budget; category_revenue_asof-v2 has no task the
audit's one-lookup search answers (and redrew exactly the v1 draws it answers);
incremental_fix-v2's fix differs on every other seed by the audit's own comparison, the bug
shows in the replayed loads, and episodes grade the oracle 1.0, the untouched sandbox 0 and
another seed's fix 0.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from replicas.audit.check_seeds import same_answer
from replicas.db import readonly_connection
from replicas.env import Env
from replicas.families.ecommerce_enterprise.category_revenue_asof import one_lookup_hits
from replicas.suite import get_suite, plan_suite
from replicas.tasks import Limits, Task, TaskId, build_task, get_family, grading, submit, write_file
from replicas.tasks.loader import load_snapshot
from tests.toy_families import TOY_MODEL, ToyFix, register_toy

HARD = "ecommerce_enterprise."
BUMPED = ("category_revenue_asof", "multi_layer_incident", "incremental_fix", "dialect_migration")


@pytest.fixture(scope="module")
def _toy(module_registries: None) -> None:
    register_toy()


def _play(env: Env, calls: list[dict[str, Any]]) -> tuple[float, dict[str, Any]]:
    reward: float = 0.0
    info: dict[str, Any] = {}
    for call in calls:
        _, reward, terminated, truncated, info = env.step(call)
        assert not truncated, info
        if terminated:
            break
    return reward, info


# --------------------------------------------------------------------------------------------
# Limits.grading_wall_s


def test_grading_budget_is_opt_in_and_leaves_v1_serialisation_alone() -> None:
    assert Limits().grading_wall_s is None
    assert "grading_wall_s" not in Limits().to_dict()
    limits = Limits(grading_wall_s=900)
    assert limits.to_dict()["grading_wall_s"] == 900
    assert Limits.from_dict(limits.to_dict()) == limits
    for bad in (0, -1.0, float("inf"), float("nan"), True, "600"):
        with pytest.raises(ValueError, match="grading_wall_s"):
            Limits(grading_wall_s=bad)  # type: ignore[arg-type]


@pytest.mark.usefixtures("_toy")
@pytest.mark.parametrize("grading_wall_s", [None, 600.0], ids=["v1-semantics", "own-budget"])
def test_an_answer_submitted_as_the_agent_budget_runs_out(grading_wall_s: float | None) -> None:
    """The agent submits the right fix 0.6 s before its wall budget ends. Under v1 semantics
    grading has those 0.6 s for a dbt rebuild and fails; with its own budget it scores 1.0."""
    wall_s = 8.0
    base = build_task("toy.fix-v1.s1.0")
    task = replace(base, limits=Limits(wall_s=wall_s, grading_wall_s=grading_wall_s))
    fixed = next(c for c in task.oracle if c.name == "write_file")
    with Env.from_task(task, family=ToyFix()) as env:
        env.reset()
        _, _, _, truncated, _ = env.step(fixed.to_action())
        assert not truncated
        spare = wall_s - 0.6 - env.elapsed_s()
        assert spare > 0, "the machine is too slow for this test's 8 s budget"
        time.sleep(spare)
        reward, info = _play(env, [submit("Removed the factor 2.").to_action()])
        grading_s = env.trajectory()["grading_s"]
    verdict = info["verdict"]
    if grading_wall_s is None:
        assert reward == 0.0
        assert "no time was left" in verdict["feedback"], verdict
    else:
        assert reward == 1.0, verdict
        # it was graded after the agent's deadline had passed
        assert grading_s is not None and env.elapsed_s() > wall_s


@pytest.mark.usefixtures("_toy")
def test_a_model_that_never_finishes_is_stopped_at_the_grading_budget() -> None:
    budget = 4.0
    base = build_task("toy.fix-v1.s1.0")
    task = replace(base, limits=Limits(grading_wall_s=budget))
    endless = (
        "select kind, count(*) as n, sum(value) as total\n"
        "from {{ source('raw', 'things') }}, range(1000000000000) as r(i)\n"
        "group by kind\n"
    )
    with Env.from_task(task, family=ToyFix()) as env:
        env.reset()
        reward, info = _play(
            env, [write_file(TOY_MODEL, endless).to_action(), submit("Done.").to_action()]
        )
        grading_s = env.trajectory()["grading_s"]
    verdict = info["verdict"]
    assert reward == 0.0
    assert [r["code"] for r in verdict["reasons"]] == ["grading_time_limit"], verdict
    assert f"grading budget of {budget:g} s" in verdict["feedback"]
    # stopped: the cross join would run for hours; a generous bound, not a timing goal
    assert grading_s is not None and grading_s < 120.0


@pytest.mark.usefixtures("_toy")
def test_a_grading_cut_short_by_time_is_not_cached(tmp_path: Path) -> None:
    """Verdicts are cached by project fingerprint, but not one a time limit cut short: graded
    again with time to spare, the same (correct) project is rebuilt and passes."""
    task = build_task("toy.fix-v1.s1.0")
    snapshot = load_snapshot(task.replica, task.seed, task.scale)
    with grading._CACHE_LOCK:
        grading._VERDICT_CACHE.clear()
    verdicts = []
    for deadline in (time.monotonic(), None):
        ctx = grading.GradeContext(
            snapshot=snapshot,
            sandbox_root=tmp_path,
            project_dir=Path(snapshot.dbt_project),  # the pristine project is the fix
            deadline=deadline,
        )
        try:
            verdicts.append(grading.grade_dbt(task, ctx))
        finally:
            ctx.close()
    assert not verdicts[0].passed and "no time was left" in verdicts[0].feedback
    assert verdicts[1].passed, verdicts[1].feedback


# --------------------------------------------------------------------------------------------
# the suite


def test_hard_v2_is_hard_v1_with_four_families_bumped() -> None:
    v1, v2 = get_suite("hard-v1"), get_suite("hard-v2")
    assert list(v2.task_ids) == plan_suite("hard-v2")
    assert len(v2) >= 60 and len(v2) == len(v1)
    per_family = Counter(TaskId.parse(t).family for t in v2.task_ids)
    assert min(per_family.values()) >= 5
    bumped = {HARD + f + "-v2" for f in BUMPED}
    assert bumped <= set(per_family)
    for old, new in zip(v1.task_ids, v2.task_ids, strict=True):
        a, b = TaskId.parse(old), TaskId.parse(new)
        assert (a.seed, a.variant, a.scale) == (b.seed, b.variant, b.scale)
        if b.family in bumped:
            assert b.family == a.family.replace("-v1", "-v2")
        else:
            assert new == old
    core = {TaskId.parse(t).seed for s in ("core-v1", "core-v2") for t in get_suite(s).task_ids}
    assert not core & {TaskId.parse(t).seed for t in v2.task_ids}


# --------------------------------------------------------------------------------------------
# the enterprise families (slow: enterprise snapshots and dbt episodes)

SEEDS = (11, 12)
VARIANTS = range(4)


def _build(family: str, seed: int, variant: int) -> Task:
    return build_task(TaskId(HARD + family, seed, variant))


def _public(task: Task) -> dict[str, Any]:
    out = task.to_dict()
    for field in ("id", "family", "limits"):
        out.pop(field)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("family", ["multi_layer_incident", "dialect_migration"])
@pytest.mark.parametrize("seed", SEEDS)
def test_grading_only_bumps_are_their_v1_twins_with_a_grading_budget(
    family: str, seed: int
) -> None:
    for variant in VARIANTS:
        v1 = _build(family + "-v1", seed, variant)
        v2 = _build(family + "-v2", seed, variant)
        assert v1.limits.grading_wall_s is None
        assert v2.limits.grading_wall_s is not None and v2.limits.grading_wall_s > 0
        assert replace(v2.limits, grading_wall_s=None) == v1.limits
        assert _public(v2) == _public(v1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_category_v2_has_no_one_lookup_answer_and_redraws_only_those(seed: int) -> None:
    snap = load_snapshot("ecommerce_enterprise", seed, 0.01)
    for variant in VARIANTS:
        v1 = _build("category_revenue_asof-v1", seed, variant)
        v2 = _build("category_revenue_asof-v2", seed, variant)
        assert one_lookup_hits(v2, snap) == []
        v1_hits = one_lookup_hits(v1, snap)
        if v1_hits:
            redraws = v2.metadata["trivial_redraws"]
            assert redraws[0]["lookup"] == v1_hits[0]
            assert v2.expected != v1.expected
        else:
            assert "trivial_redraws" not in v2.metadata
            assert _public(v2) == _public(v1)


@pytest.mark.slow
def test_incremental_fix_v2_fix_differs_on_every_other_seed() -> None:
    tasks = {(s, v): _build("incremental_fix-v2", s, v) for s in SEEDS for v in VARIANTS}
    for (seed, _), task in tasks.items():
        others = [t for (s, _), t in tasks.items() if s != seed]
        assert not any(same_answer(task, other) for other in others), task.id
        assert task.limits.grading_wall_s is not None
        model = task.verifier.dbt_models[0]
        assert model == task.metadata["model"]
        assert task.verifier.reference_sql[model]


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "variant"), [(s, v) for s in SEEDS for v in VARIANTS])
def test_incremental_fix_v2_bug_shows_in_the_replayed_loads(seed: int, variant: int) -> None:
    task = _build("incremental_fix-v2", seed, variant)
    snapshot = load_snapshot(task.replica, seed, task.scale)
    cutoff, rows = task.metadata["cutoff"], task.metadata["rows"]
    staging = task.verifier.reference_sql[task.metadata["model"]].split('from main."')[1]
    staging = staging.split('"')[0]
    cur = readonly_connection(snapshot.warehouse).cursor()
    try:
        first, later = cur.execute(
            f"select count(*) filter (where loaded_at <= timestamp '{cutoff}'), "
            f"count(*) filter (where loaded_at > timestamp '{cutoff}') "
            f'from main."{staging}" where {rows}'
        ).fetchall()[0]
    finally:
        cur.close()
    assert first > 0 and later > 0  # both loads carry rows of the model


@pytest.mark.slow
def test_incremental_fix_v2_episodes_oracle_untouched_and_transferred_fix() -> None:
    """The oracle scores 1.0; the untouched sandbox 0; seed 12's correct file written at seed
    11's path (a memorised fix) scores 0."""
    task = _build("incremental_fix-v2", 11, 0)
    other = _build("incremental_fix-v2", 12, 0)
    path = next(iter(task.sandbox_patch))
    memorised = next(c for c in other.oracle if c.name == "write_file").arguments["content"]
    family = get_family(task.family)
    scripts = {
        "oracle": [c.to_action() for c in task.oracle],
        "untouched": [submit("Nothing to fix.").to_action()],
        "memorised": [write_file(path, memorised).to_action(), submit("Fixed.").to_action()],
    }
    rewards = {}
    for name, script in scripts.items():
        with Env.from_task(task, family=family) as env:
            env.reset()
            rewards[name], info = _play(env, script)
            if name == "oracle":
                assert info["verdict"]["objective_scores"]["hidden_data"] == 1.0
    assert rewards == {"oracle": 1.0, "untouched": 0.0, "memorised": 0.0}
