"""The ecommerce question and dbt families of ``replicas/families/ecommerce`` (helper E).

On real snapshots (seeds 0 and 1, scale 0.01, two variants per family), for every family:
the oracle's tool calls score 1.0 through ``Env``; an empty submission scores 0; rebuilding
gives the identical task; another seed gives another expected answer; every recorded wrong
reading fails the verifier; and an answer that lists several candidates fails. The dbt family
runs its oracle (write the model, run dbt, rebuild at grading) on two cases, and a model with
one definition wrong must fail. Expected answers are never written here: they come from the
families' ground-truth SQL on the snapshot, which the oracle/verifier round trip checks.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from typing import Any

import pytest

from replicas.build import Snapshot, ensure_snapshot
from replicas.db import readonly_connection
from replicas.env import Env
from replicas.families.ecommerce._periods import Period
from replicas.families.ecommerce.dbt_new_model import SPEC_FACTORIES
from replicas.families.ecommerce.metric_reconciliation import CAUSE_BY_NAME, VERIFIER, Scope
from replicas.families.ecommerce.metric_reconciliation import net_sql as reconciliation_net_sql
from replicas.tasks import Task, ToolCall, get_family, submit, write_file
from replicas.verifiers.answers import check_answer, numbers_match

SEEDS = (0, 1)
#: family → the two variants tested (chosen to cover each family's distinct question shapes).
QUESTION_VARIANTS: dict[str, tuple[int, int]] = {
    "ecommerce.revenue_breakdown-v1": (0, 2),  # by channel, by category
    "ecommerce.top_n-v1": (0, 1),  # customers, products
    "ecommerce.repeat_purchase-v1": (0, 1),  # repeat rate, month-k retention
    "ecommerce.aov_trend-v1": (0, 2),  # UTC months, New York months
    "ecommerce.funnel-v1": (0, 1),  # funnel table, conversion rate
    "ecommerce.data_quality-v1": (0, 2),  # duplicated payments, payment mismatches
    "ecommerce.metric_reconciliation-v1": (0, 1),
}
DBT_FAMILY = "ecommerce.dbt_new_model-v1"
DBT_CASES = ((0, 0), (1, 3))  # monthly revenue mart on seed 0, payment-method mart on seed 1
QUESTION_CASES = [
    pytest.param(family, seed, variant, id=f"{family.split('.')[1]}-s{seed}v{variant}")
    for family, variants in QUESTION_VARIANTS.items()
    for seed in SEEDS
    for variant in variants
]
FAMILY_VARIANTS = [
    pytest.param(family, variant, id=f"{family.split('.')[1]}-v{variant}")
    for family, variants in QUESTION_VARIANTS.items()
    for variant in variants
]

_TASKS: dict[tuple[str, int, int], Task] = {}


@pytest.fixture(scope="session")
def snapshots() -> dict[int, Snapshot]:
    return {seed: ensure_snapshot("ecommerce", seed) for seed in SEEDS}


def built(snapshots: dict[int, Snapshot], family: str, seed: int, variant: int) -> Task:
    """The task for (family, seed, variant), built once per test session."""
    key = (family, seed, variant)
    if key not in _TASKS:
        _TASKS[key] = get_family(family).build(snapshots[seed], seed, variant)
    return _TASKS[key]


def run_episode(
    task: Task, snapshot: Snapshot, calls: Sequence[ToolCall]
) -> tuple[float, dict[str, Any]]:
    """Play ``calls`` (ending with submit) in a fresh environment; (reward, verdict)."""
    with Env.from_task(task, snapshot=snapshot) as env:
        env.reset()
        reward: float = 0.0
        info: dict[str, Any] = {}
        for call in calls:
            obs, reward, terminated, truncated, info = env.step(call.to_action())
            if call.name != "submit":
                assert not info.get("error"), f"{call.name} failed: {obs[:800]}"
            if terminated or truncated:
                break
        return float(reward), dict(info.get("verdict") or {})


def submitted(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


# --------------------------------------------------------------------------------------------
# question families


@pytest.mark.parametrize(("family", "seed", "variant"), QUESTION_CASES)
def test_oracle_scores_one_and_empty_submit_scores_zero(
    snapshots: dict[int, Snapshot], family: str, seed: int, variant: int
) -> None:
    task = built(snapshots, family, seed, variant)
    reward, verdict = run_episode(task, snapshots[seed], task.oracle)
    assert reward == 1.0, verdict
    reward, verdict = run_episode(task, snapshots[seed], [submit("")])
    assert reward == 0.0 and not verdict["passed"]


@pytest.mark.parametrize(("family", "seed", "variant"), QUESTION_CASES)
def test_every_wrong_reading_fails(
    snapshots: dict[int, Snapshot], family: str, seed: int, variant: int
) -> None:
    task = built(snapshots, family, seed, variant)
    assert len(task.wrong_readings) >= 2, "a task must name the misreadings it discriminates"
    for name, value in task.wrong_readings.items():
        verdict = check_answer(task.answer_kind, value, task.expected, task.verifier)
        assert not verdict.passed, f"wrong reading {name} passes: {value}"
        reward, _ = run_episode(task, snapshots[seed], [submit(submitted(value))])
        assert reward == 0.0, f"wrong reading {name} scores through the environment"


def _many_candidates(task: Task) -> Any:
    """An answer that hedges: the right answer plus what the misreadings give."""
    readings = list(task.wrong_readings.values())
    if task.family == "ecommerce.metric_reconciliation-v1":
        causes = [task.expected["rows"][0][0], *(r["rows"][0][0] for r in readings)]
        return {"cause": sorted(set(causes)), "corrected": task.expected["rows"][0][1]}
    if task.answer_kind == "number":
        other = next(r for r in readings if not numbers_match(r, task.expected, task.verifier))
        return f"{task.expected:.2f} or maybe {other:.2f}"
    if task.answer_kind == "table":
        rows = list(task.expected["rows"])
        rows += [row for r in readings for row in r["rows"] if row not in rows]
        return {"columns": task.expected["columns"], "rows": rows}
    items = list(task.expected)
    items += [x for r in readings for x in r if x not in items]
    if len(items) == len(task.expected):
        items.append(max(int(x) for x in items) + 1)
    return items


@pytest.mark.parametrize(("family", "seed", "variant"), QUESTION_CASES)
def test_listing_several_candidates_fails(
    snapshots: dict[int, Snapshot], family: str, seed: int, variant: int
) -> None:
    task = built(snapshots, family, seed, variant)
    hedge = _many_candidates(task)
    reward, verdict = run_episode(task, snapshots[seed], [submit(submitted(hedge))])
    assert reward == 0.0, verdict
    assert verdict["reasons"], "a failing verdict says why"


@pytest.mark.parametrize(("family", "seed", "variant"), QUESTION_CASES)
def test_same_seed_rebuilds_the_same_task(
    snapshots: dict[int, Snapshot], family: str, seed: int, variant: int
) -> None:
    task = built(snapshots, family, seed, variant)
    again = get_family(family).build(snapshots[seed], seed, variant)
    assert again.instruction == task.instruction
    assert again.expected == task.expected
    assert again.to_dict() == task.to_dict()


@pytest.mark.parametrize(("family", "variant"), FAMILY_VARIANTS)
def test_different_seeds_give_different_answers(
    snapshots: dict[int, Snapshot], family: str, variant: int
) -> None:
    first, second = (built(snapshots, family, seed, variant) for seed in SEEDS)
    assert first.expected != second.expected
    assert first.instruction != second.instruction


@pytest.mark.parametrize(("seed", "variant"), [(s, v) for s in SEEDS for v in (0, 1)])
def test_reconciliation_options_each_explain_a_different_gap(
    snapshots: dict[int, Snapshot], seed: int, variant: int
) -> None:
    """Exactly one listed defect reproduces the dashboard figure stated in the instruction."""
    task = built(snapshots, "ecommerce.metric_reconciliation-v1", seed, variant)
    meta = task.metadata
    scope = Scope(
        Period(
            meta["period_kind"],
            dt.date.fromisoformat(meta["period_start"]),
            dt.date.fromisoformat(meta["period_end"]),
        ),
        meta["channel"],
    )
    con = readonly_connection(snapshots[seed].warehouse)

    def value(query: str) -> float:
        return float(con.execute(query).fetchall()[0][0])

    correct = value(reconciliation_net_sql(scope))
    figures = {option: value(CAUSE_BY_NAME[option].query(scope)) for option in meta["options"]}
    assert len(figures) >= 4
    values = [correct, *figures.values()]
    for i, a in enumerate(values):
        for b in values[i + 1 :]:
            assert not numbers_match(a, b, VERIFIER), f"two figures coincide: {a} {b}"
    cause, expected_correct = task.expected["rows"][0]
    assert numbers_match(expected_correct, correct, VERIFIER)
    shown = [o for o, v in figures.items() if f"${v:,.2f}" in task.instruction]
    assert shown == [cause]


# --------------------------------------------------------------------------------------------
# dbt family


@pytest.mark.parametrize(
    ("seed", "variant"),
    [
        pytest.param(s, v, id=f"s{s}v{v}", marks=[pytest.mark.slow] if i else [])
        for i, (s, v) in enumerate(DBT_CASES)
    ],
)
def test_dbt_oracle_builds_the_mart_and_scores_one(
    snapshots: dict[int, Snapshot], seed: int, variant: int
) -> None:
    task = built(snapshots, DBT_FAMILY, seed, variant)
    reward, verdict = run_episode(task, snapshots[seed], task.oracle)
    assert reward == 1.0, verdict
    reward, verdict = run_episode(task, snapshots[seed], [submit("")])
    assert reward == 0.0 and verdict["reasons"][0]["code"] == "missing_model"


def test_dbt_model_with_one_wrong_definition_fails(snapshots: dict[int, Snapshot]) -> None:
    """The category-returns mart counting cancelled orders too must not pass."""
    task = built(snapshots, DBT_FAMILY, 0, 4)
    path, model_sql = task.oracle[0].arguments["path"], task.oracle[0].arguments["content"]
    wrong_sql = model_sql.replace("where is_revenue_order", "")
    assert wrong_sql != model_sql
    reward, verdict = run_episode(task, snapshots[0], [write_file(path, wrong_sql), submit("ok")])
    assert reward == 0.0
    assert {r["code"] for r in verdict["reasons"]} & {"wrong_values", "wrong_row_count"}


@pytest.mark.parametrize("variant", range(len(SPEC_FACTORIES)))
def test_dbt_references_differ_between_seeds(snapshots: dict[int, Snapshot], variant: int) -> None:
    tables = []
    for seed in SEEDS:
        task = built(snapshots, DBT_FAMILY, seed, variant)
        model = task.verifier.dbt_models[0]
        query = task.verifier.reference_sql[model]
        rows = readonly_connection(snapshots[seed].warehouse).execute(query).fetchall()
        assert rows, f"empty reference for {model}"
        tables.append(sorted(map(str, rows)))
        assert model in task.instruction and task.oracle[0].arguments["path"].endswith(
            f"{model}.sql"
        )
    assert tables[0] != tables[1]
