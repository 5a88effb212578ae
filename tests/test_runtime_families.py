"""Every built-in task family, end to end through ``replicas.make``.

For each registered family and two seeds: the oracle scores 1.0, the environment passes
``check_env`` (which includes "an empty submission scores 0"), a null answer scores 0, every
recorded wrong reading fails, and the task is rebuilt identically.
"""

from __future__ import annotations

import json

import pytest

from replicas.env import check_env, make
from replicas.records.trajectory import validate_trajectory
from replicas.tasks import Task, all_families, format_task_id, undiscriminated_readings
from replicas.tasks.loader import build_task, clear_memory_cache
from tests.tiers import first_per_key, slow

SEEDS = (0, 1)
BUILTIN_REPLICAS = ("ecommerce", "credit_cards")
RUNTIME_FAMILIES = ("ecommerce.revenue_period-v1", "ecommerce.dbt_fix-v1")
# Shipped families only: test modules register deliberately defective ones (tests/defective_*).
FAMILIES = [
    f
    for f in all_families()
    if f.replica in BUILTIN_REPLICAS and type(f).__module__.startswith("replicas.families.")
]
EVERY_FAMILY = [
    # the mutant_fix families build their tasks by running the factory funnel (minutes); the dbt
    # families' check_env runs in the fast tier through Gymnasium's checker
    # (test_integrations_gymnasium)
    (slow if ".dbt_" in f.name or f.name.startswith("ecommerce.mutant_fix") else pytest.param)(
        format_task_id(f.name, 0, 0), id=f.name
    )
    for f in FAMILIES
]
CASES = first_per_key(
    [
        pytest.param(format_task_id(name, seed, seed % f.variants(seed)), id=f"{name}-s{seed}")
        for name in RUNTIME_FAMILIES
        for f in FAMILIES
        if f.name == name
        for seed in SEEDS
    ],
    key=lambda case: case.id.rsplit("-s", 1)[0] if "dbt_" in case.id else case.id,
)


def test_the_two_runtime_families_are_registered() -> None:
    assert set(RUNTIME_FAMILIES) <= {f.name for f in FAMILIES}


@pytest.mark.parametrize("task_id", EVERY_FAMILY)
def test_check_env_on_every_registered_family(task_id: str) -> None:
    """Resets twice, valid tool schemas, bad inputs are errors, an empty submission scores 0."""
    with make(task_id) as env:
        check_env(env)


@pytest.mark.parametrize("task_id", CASES)
def test_oracle_scores_one_and_null_scores_zero(task_id: str) -> None:
    with make(task_id, agent_name="oracle") as env:
        obs, info = env.reset()
        reward, verdict = 0.0, None
        for call in env.task.oracle:
            obs, reward, terminated, truncated, info = env.step(call.to_action())
            assert not info.get("error"), f"oracle step {call.name} failed: {obs[:500]}"
            if terminated or truncated:
                verdict = info["verdict"]
                break
        assert verdict is not None and reward == 1.0, verdict
        trajectory = env.trajectory()
        assert validate_trajectory(trajectory) == []
        json.dumps(trajectory)
        # the null agent: submits without doing anything
        env.reset()
        _, reward, terminated, _, info = env.step(
            {"name": "submit", "arguments": {"answer": "I don't know"}}
        )
        assert terminated and reward == 0.0, info["verdict"]


@pytest.mark.parametrize("task_id", CASES)
def test_wrong_readings_fail_and_task_is_deterministic(task_id: str) -> None:
    task = build_task(task_id)
    assert undiscriminated_readings(task) == []
    with make(task_id) as env:
        for name, answer in task.wrong_readings.items():
            env.reset()
            text = answer if isinstance(answer, str) else json.dumps(answer)
            _, reward, *_ = env.step({"name": "submit", "arguments": {"answer": text}})
            assert reward == 0.0, name
    clear_memory_cache()
    rebuilt = build_task(task_id)
    assert rebuilt.to_dict() == task.to_dict()
    assert isinstance(rebuilt, Task)


def test_revenue_period_has_the_documented_wrong_readings() -> None:
    task = build_task("ecommerce.revenue_period-v1.s0.1")
    assert set(task.wrong_readings) == {
        "gross_instead_of_net",
        "refunds_ignored",
        "cancelled_included",
        "test_accounts_included",
        "no_fx_conversion",
    }
    for phrase in ("cancelled", "is_test_account", "refund", "UTC", "cents", "rate_to_usd"):
        assert phrase in task.instruction


def test_revenue_period_truth_agrees_with_the_documented_mart() -> None:
    """The raw-table ground truth equals the mart an agent may legitimately use."""
    from replicas.db import readonly_connection
    from replicas.tasks.loader import load_snapshot

    task = build_task("ecommerce.revenue_period-v1.s0.0")
    snapshot = load_snapshot("ecommerce", 0, 0.01)
    row = (
        readonly_connection(snapshot.warehouse)
        .execute(
            "select round(sum(net_revenue_usd), 2) from main.fct_daily_revenue "
            "where revenue_date >= ? and revenue_date < ?",
            [task.metadata["period_start"], task.metadata["period_end"]],
        )
        .fetchone()
    )
    assert row is not None and abs(row[0] - task.expected) <= 0.01


def test_dbt_fix_sandbox_has_the_bug_and_no_target_table() -> None:
    task = build_task("ecommerce.dbt_fix-v1.s0.1")
    ((path, buggy),) = task.sandbox_patch.items()
    pristine = next(c.arguments["content"] for c in task.oracle if c.name == "write_file")
    assert buggy != pristine
    model = task.verifier.dbt_models[0]
    with make(task.id) as env:
        env.reset()
        obs, *_ = env.step({"name": "read_file", "arguments": {"path": path}})
        changed = [line for line in buggy.splitlines() if line.strip() not in pristine]
        assert changed and all(line.strip() in obs for line in changed)  # the injected bug
        obs, *_ = env.step(
            {
                "name": "sql",
                "arguments": {
                    "query": "select table_name from information_schema.tables "
                    f"where table_name = '{model}'"
                },
            }
        )
        assert "(0 rows)" in obs
        obs, *_ = env.step({"name": "list_files", "arguments": {"path": "."}})
        assert "target/" not in obs  # the pristine manifest (with the pristine SQL) is not copied


def test_patched_upstream_models_are_dropped_from_the_sandbox() -> None:
    """A view keeps its SQL: a patched model's pristine view must not survive in the sandbox."""
    from dataclasses import replace

    from replicas.env import Env

    task = build_task("ecommerce.dbt_fix-v1.s0.0")
    patched = replace(
        task,
        sandbox_patch={
            **task.sandbox_patch,
            "models/intermediate/int_orders.sql": "select 1 as order_id",
        },
    )
    with Env.from_task(patched) as env:
        env.reset()
        obs, *_ = env.step(
            {
                "name": "sql",
                "arguments": {
                    "query": "select table_name from information_schema.tables "
                    "where table_schema = 'main' order by 1"
                },
            }
        )
    names = set(obs.split())
    assert "stg_orders" in names
    assert not names & {"int_orders", "fct_orders", "fct_daily_revenue", "dim_customers"}
