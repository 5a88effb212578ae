"""The runner end to end on a small task subset: scores per agent, resume, guards, executors.

Tasks: one per answer kind (the adversary plays different strategies on each) plus one dbt fix,
at scale 0.01 from the shared build cache. A dbt episode costs a dbt rebuild at grading (seconds),
so the dbt task gets only two adversary strategies here (the runtime's own tests run its oracle).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from replicas.agents import Agent, AgentOptions, EpisodeOutcome, get_agent, register_agent
from replicas.records.trajectory import validate_trajectory
from replicas.runner import (
    RunConfig,
    RunDirError,
    agent_slug,
    read_results,
    read_run_config,
    read_trajectory,
    run,
)
from replicas.tasks import task_from_id

TASKS = (
    "ecommerce.revenue_period-v1.s1.0",  # number
    "ecommerce.revenue_breakdown-v1.s1.0",  # table
    "ecommerce.top_n-v1.s1.0",  # ordered list
    "credit_cards.eligibility-v2.s1.0",  # set (v1 is answered by a mart: see below)
    "credit_cards.card_terms_qa-v1.s1.0",  # text
)
DBT_TASK = "ecommerce.dbt_fix-v1.s1.0"
DBT_HACKS = "adversary:delete_schema_tests,self_reference_model"


def run_agent(out: Path, agent: str, **kw: Any) -> list[dict[str, Any]]:
    config = RunConfig(out=out, agent=agent, task_ids=kw.pop("task_ids", TASKS), **kw)
    run(config)
    return list(read_results(out).records)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("runs")
    out = {}
    plans = (
        ("oracle", TASKS, 2),
        ("null", TASKS, 0),
        ("adversary", TASKS, 2),
        (DBT_HACKS, (DBT_TASK,), 2),
    )
    for agent, task_ids, workers in plans:
        out[agent] = base / agent_slug(agent)
        run(RunConfig(out=out[agent], agent=agent, task_ids=task_ids, workers=workers))
    return out


def test_oracle_passes_everything(runs: dict[str, Path]) -> None:
    records = read_results(runs["oracle"]).records
    assert sorted(r["task_id"] for r in records) == sorted(TASKS)
    failures = [(r["task_id"], r["reasons"]) for r in records if not r["passed"]]
    assert not failures
    assert all(
        r["score"] == 1.0 and r["steps"] == len(task_from_id(r["task_id"]).oracle) for r in records
    )


def test_null_agent_scores_zero(runs: dict[str, Path]) -> None:
    records = read_results(runs["null"]).records
    assert len(records) == len(TASKS)
    assert all(r["score"] == 0.0 and not r["passed"] and r["steps"] == 1 for r in records)


def test_every_adversary_strategy_scores_zero_and_is_labelled(runs: dict[str, Path]) -> None:
    records = [*read_results(runs["adversary"]).records, *read_results(runs[DBT_HACKS]).records]
    adversary = get_agent("adversary")
    for task_id in TASKS:
        played = sorted(str(r["strategy"]) for r in records if r["task_id"] == task_id)
        assert played == sorted(str(s) for s in adversary.plan(task_from_id(task_id)))
    kinds = {task_from_id(t).answer_kind for t in TASKS}
    assert kinds == {"number", "table", "ordered_list", "set", "text"}
    strategies = {r["strategy"] for r in records}
    assert {"scramble_rows", "reorder_ranking", "candidate_numbers", "every_value"} <= strategies
    dbt = sorted(r["strategy"] for r in records if r["task_id"] == DBT_TASK)
    assert dbt == ["delete_schema_tests", "self_reference_model"]
    wins = [(r["task_id"], r["strategy"]) for r in records if r["score"] > 0 or r["passed"]]
    assert not wins
    breaches = [(r["strategy"], r["breach"]) for r in records if r.get("breach")]
    assert not breaches
    assert all(r.get("strategy") and "error" not in r for r in records)


def test_mart_lookup_answers_eligibility_v1_and_not_v2(tmp_path: Path) -> None:
    """The published core-v1 hole that made eligibility-v2: the card_eligibility mart answers
    v1 in one select (a known finding, kept because published ids never change behaviour);
    v2 withholds it and the relations a lookup could mistake for it."""
    v1, v2 = "credit_cards.eligibility-v1.s1.0", "credit_cards.eligibility-v2.s1.0"
    records = run_agent(tmp_path, "adversary:mart_lookup", task_ids=(v1, v2))
    scores = {r["task_id"]: r["score"] for r in records}
    assert scores == {v1: 1.0, v2: 0.0}


def test_records_trajectories_and_run_json_are_consistent(runs: dict[str, Path]) -> None:
    for agent, run_dir in runs.items():
        config = read_run_config(run_dir)
        assert config is not None and config["agent"] == agent and config["schema_version"] == 1
        assert config["task_ids"] and config["kit_version"]
        records = read_results(run_dir).records
        assert config["episodes_planned"] == len(records)
        for record in records:
            trajectory = read_trajectory(run_dir, record)
            assert validate_trajectory(trajectory) == []
            assert trajectory["task_id"] == record["task_id"] and trajectory["agent"] == agent
            assert trajectory["verdict"]["score"] == record["score"]
            assert trajectory["totals"]["steps"] == record["steps"]
            assert trajectory.get("strategy") == record.get("strategy")
            task = task_from_id(record["task_id"])
            assert (record["replica"], record["family"], record["difficulty"]) == (
                task.replica,
                task.family,
                task.difficulty,
            )
        assert len({r["trajectory"] for r in records}) == len(records)


def test_max_episodes_then_resume_completes_without_duplicates(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = run(
        RunConfig(out=out, agent="adversary", task_ids=TASKS[:1], workers=0, max_episodes=2)
    )
    assert first.ran == 2 and not first.complete
    # a crash mid-append leaves a torn line: resume must ignore it and cut it off
    with open(out / "results.jsonl", "ab") as fh:
        fh.write(b'{"schema_version": 1, "task_id": "' + TASKS[0].encode())
    second = run(RunConfig(out=out, agent="adversary", task_ids=TASKS[:1], workers=0, resume=True))
    assert second.already_done == 2 and second.complete
    assert second.ran == second.planned - 2
    lines = (out / "results.jsonl").read_text().splitlines()
    keys = [(r["task_id"], r["attempt"], r["strategy"]) for r in map(json.loads, lines)]
    assert len(keys) == len(set(keys)) == second.planned
    third = run(RunConfig(out=out, agent="adversary", task_ids=TASKS[:1], workers=0, resume=True))
    assert third.ran == 0 and third.complete
    assert read_run_config(out)["resumed"] is True  # type: ignore[index]


def test_attempts_add_episodes_on_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_agent(out, "null", task_ids=TASKS[:1], workers=0)
    records = run_agent(out, "null", task_ids=TASKS[:1], workers=0, attempts=3, resume=True)
    assert sorted(r["attempt"] for r in records) == [0, 1, 2]


def test_run_dir_guards(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_agent(out, "null", task_ids=TASKS[:1], workers=0)
    with pytest.raises(RunDirError, match="--resume"):
        run_agent(out, "null", task_ids=TASKS[:1], workers=0)
    with pytest.raises(RunDirError, match="different agent"):
        run_agent(out, "oracle", task_ids=TASKS[:1], workers=0, resume=True)
    assert len(read_results(out).records) == 1


class _CrashingAgent(Agent):
    def run_episode(self, env: Any, *, strategy: str | None = None) -> EpisodeOutcome:
        env.reset()
        raise RuntimeError("agent bug: division by zero")


def _make_crasher(arg: str | None, options: AgentOptions) -> Agent:
    return _CrashingAgent()


@pytest.mark.usefixtures("registries")
def test_a_crashing_agent_costs_one_episode_not_the_run(tmp_path: Path) -> None:
    register_agent("test-crasher", description="raises mid-episode (tests only)")(_make_crasher)
    records = run_agent(tmp_path / "run", "test-crasher", workers=0)
    assert len(records) == len(TASKS)
    for record in records:
        assert "agent crashed" in record["error"] and "division by zero" in record["error"]
        assert record["reasons"] == ["agent_error"] and record["score"] == 0.0


def test_bad_run_input_is_rejected_before_anything_runs(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown agent"):
        run_agent(tmp_path / "a", "nobody")
    with pytest.raises(ValueError, match="unknown executor"):
        run_agent(tmp_path / "b", "null", executor="slurm")
    with pytest.raises(ValueError, match="malformed task id"):
        run_agent(tmp_path / "c", "null", task_ids=("not-a-task",))
    with pytest.raises(ValueError, match="attempts"):
        RunConfig(out=tmp_path / "d", agent="null", attempts=0)
    assert not any((tmp_path / name).exists() for name in "abc")


def _comparable(run_dir: Path) -> dict[tuple[Any, ...], dict[str, Any]]:
    out = {}
    for record in read_results(run_dir).records:
        trajectory = read_trajectory(run_dir, record)
        calls = [
            (s["tool"], json.dumps(s["arguments"], sort_keys=True)) for s in trajectory["steps"]
        ]
        key = (record["task_id"], record["attempt"], record.get("strategy"))
        out[key] = {**{k: v for k, v in record.items() if k != "wall_s"}, "calls": calls}
    return out


@pytest.mark.slow  # starts a local Ray instance
def test_ray_executor_gives_the_same_results_as_the_local_pool(
    runs: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ray

    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    assert not ray.is_initialized()
    out = tmp_path / "ray"
    # no address: the executor starts ray.init(num_cpus=2, include_dashboard=False) and stops it
    run(RunConfig(out=out, agent="adversary", task_ids=TASKS, workers=2, executor="ray"))
    assert not ray.is_initialized()
    assert read_run_config(out)["executor"] == "ray"  # type: ignore[index]
    assert _comparable(out) == _comparable(runs["adversary"])
