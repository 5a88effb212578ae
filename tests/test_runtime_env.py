"""The episode runtime on the toy replica: Env API, bad input, limits, trajectories, restore."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from replicas.env import Env, EnvCheckError, check_env, make
from replicas.records.trajectory import validate_trajectory
from replicas.sandbox import wait_for_discards
from replicas.tasks import Limits, ToolCall, build_task
from tests.paths import REPO_ROOT
from tests.toy_families import TOY_MODEL, register_toy


@pytest.fixture(scope="module", autouse=True)
def _toy(module_registries: None) -> None:
    register_toy()


def run_script(env: Env, script: list[dict[str, Any]]) -> tuple[float, dict[str, Any]]:
    reward: float = 0.0
    info: dict[str, Any] = {}
    for action in script:
        _, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    return reward, info


# --------------------------------------------------------------------------------------------
# oracle and null agent


@pytest.mark.parametrize("seed", [1, 2])
def test_oracle_scores_one_and_null_scores_zero(seed: int) -> None:
    with make(f"toy.total-v1.s{seed}.1", agent_name="oracle") as env:
        obs, info = env.reset()
        assert obs == env.task.instruction and info["task_id"] == env.task_id
        reward, info = run_script(env, [c.to_action() for c in env.task.oracle])
        assert reward == 1.0 and info["verdict"]["passed"]
        env.reset()
        _, reward, terminated, truncated, info = env.step(
            {"name": "submit", "arguments": {"answer": ""}}
        )
        assert (reward, terminated, truncated) == (0.0, True, False)
        assert info["verdict"]["reasons"][0]["code"] == "no_answer"


def test_wrong_readings_score_zero() -> None:
    with make("toy.total-v1.s1.0") as env:
        for wrong in env.task.wrong_readings.values():
            env.reset()
            _, reward, *_ = env.step({"name": "submit", "arguments": {"answer": f"{wrong:.2f}"}})
            assert reward == 0.0


def test_check_env_passes_for_toy_families() -> None:
    for task_id in ("toy.total-v1.s1.0", "toy.fix-v1.s1.0"):
        with make(task_id) as env:
            check_env(env)


def test_check_env_catches_a_leaky_instruction() -> None:
    task = build_task("toy.total-v1.s1.0")
    leaky = replace(task, instruction=task.instruction + f" (hint: {task.expected:.2f})")
    with Env.from_task(leaky) as env, pytest.raises(EnvCheckError, match="expected answer"):
        check_env(env)


def test_reset_gives_tools_as_openai_schemas() -> None:
    with make("toy.fix-v1.s1.0") as env:
        _, info = env.reset()
        names = [t["function"]["name"] for t in info["tools"]]
        assert names == list(env.task.tools)
        for tool in info["tools"]:
            assert tool["type"] == "function"
            params = tool["function"]["parameters"]
            assert params["type"] == "object" and set(params["required"]) <= set(
                params["properties"]
            )
        json.dumps(info)


def test_sandboxes_are_fresh_per_reset_and_removed_on_close() -> None:
    env = make("toy.fix-v1.s1.0")
    env.reset()
    assert env.sandbox is not None
    first = env.sandbox.root
    env.step({"name": "write_file", "arguments": {"path": "models/new.sql", "content": "select 1"}})
    env.reset()
    assert env.sandbox is not None and env.sandbox.root != first
    wait_for_discards()
    assert not first.exists()
    assert not (env.sandbox.project_dir / "models" / "new.sql").exists()
    # the injected bug is there, the pristine model is not
    assert "* 2" in (env.sandbox.project_dir / TOY_MODEL).read_text()
    second = env.sandbox.root
    env.close()
    assert not second.exists()


# --------------------------------------------------------------------------------------------
# bad input never crashes the loop


@pytest.mark.parametrize(
    ("action", "fragment"),
    [
        ({"name": "shell", "arguments": {"cmd": "ls"}}, "unknown tool"),
        ({"name": "write_file", "arguments": {"path": "x.sql", "content": "x"}}, "unknown tool"),
        ({"arguments": {}}, "not a tool call"),
        ({"name": "sql", "arguments": "{not json"}, "not valid JSON"),
        ({"name": "sql", "arguments": "[1, 2]"}, "JSON object"),
        ({"name": "sql", "arguments": {}}, "missing required"),
        ({"name": "sql", "arguments": {"query": 42}}, "type string"),
        ({"name": "sql", "arguments": {"query": "select 1", "mode": "x"}}, "unknown arguments"),
        ({"name": "sql", "arguments": {"query": "select 1", "dialect": "cobol"}}, "must be one of"),
        ({"name": "sql", "arguments": {"query": "selec 1 frm"}}, "ERROR"),
        ({"name": "sql", "arguments": {"query": "select * from no_such_table"}}, "no_such_table"),
        ({"name": "sql", "arguments": {"query": "select 1 " + " " * 10_000_000}}, "longer than"),
        ({"name": "read_file", "arguments": {"path": "nope.sql"}}, "not a file"),
        ({"name": "list_files", "arguments": {"path": "nope"}}, "does not exist"),
        ("not an action", "not a tool call"),
        ("[1, 2]", "not a tool call"),
    ],
)
def test_bad_input_gives_error_observation(action: object, fragment: str) -> None:
    with make("toy.total-v1.s1.0") as env:
        env.reset()
        obs, reward, terminated, truncated, info = env.step(action)
        assert obs.startswith("ERROR") and fragment.lower() in obs.lower()
        assert (reward, terminated, truncated) == (0.0, False, False)
        assert info["error"] is True
        assert env.trajectory()["steps"][-1]["error"] is True
        # and the episode goes on
        obs, *_ = env.step({"name": "sql", "arguments": {"query": "select 41 + 1 as x"}})
        assert "42" in obs


def test_sql_timeout_interrupts_and_episode_continues() -> None:
    task = build_task("toy.total-v1.s1.0")
    slow = replace(task, limits=Limits(max_steps=5, sql_timeout_s=0.3))
    with Env.from_task(slow) as env:
        env.reset()
        t0 = time.perf_counter()
        obs, *_ = env.step(
            {"name": "sql", "arguments": {"query": "select count(*) from range(100000000000) a"}}
        )
        assert "timed out" in obs and time.perf_counter() - t0 < 5
        obs, *_ = env.step({"name": "sql", "arguments": {"query": "select 7 as x"}})
        assert "7" in obs


def test_openai_tool_call_shape_and_structured_submit() -> None:
    with make("toy.total-v1.s1.0") as env:
        env.reset()
        expected = env.task.expected
        obs, *_ = env.step(
            {"type": "function", "function": {"name": "sql", "arguments": '{"query": "select 1"}'}}
        )
        assert not obs.startswith("ERROR")
        obs, *_ = env.step(ToolCall("sql", {"query": "select 2"}))  # an object with name/arguments
        assert not obs.startswith("ERROR")
        _, reward, terminated, _, _ = env.step(
            {"name": "submit", "arguments": {"answer": expected}}
        )
        assert terminated and reward == 1.0


def test_step_after_the_end_and_before_reset() -> None:
    env = make("toy.total-v1.s1.0")
    with pytest.raises(RuntimeError):
        env.step({"name": "sql", "arguments": {"query": "select 1"}})
    env.reset()
    env.step({"name": "submit", "arguments": {"answer": "1"}})
    obs, reward, terminated, _, info = env.step({"name": "sql", "arguments": {"query": "select 1"}})
    assert obs.startswith("ERROR") and reward == 0.0 and terminated and info["error"]
    env.close()


# --------------------------------------------------------------------------------------------
# limits


def test_step_limit_truncates() -> None:
    with make("toy.total-v1.s1.0") as env:  # ToyTotal allows 8 steps
        env.reset()
        results = [env.step({"name": "sql", "arguments": {"query": "select 1"}}) for _ in range(8)]
        assert not any(r[3] for r in results[:7])
        _, reward, terminated, truncated, info = results[7]
        assert truncated and not terminated and reward == 0.0
        assert info["verdict"]["reasons"][0]["code"] == "step_limit"
        assert env.trajectory()["outcome"] == "truncated"


def test_wall_time_limit_truncates() -> None:
    task = replace(build_task("toy.total-v1.s1.0"), limits=Limits(wall_s=0.2))
    with Env.from_task(task) as env:
        env.reset()
        time.sleep(0.3)
        _, reward, terminated, truncated, info = env.step(
            {"name": "submit", "arguments": {"answer": str(task.expected)}}
        )
        assert truncated and not terminated and reward == 0.0
        assert info["verdict"]["reasons"][0]["code"] == "time_limit"


# --------------------------------------------------------------------------------------------
# make()


def test_make_unknown_ids_name_close_matches() -> None:
    with pytest.raises(ValueError, match=r"toy\.total-v1"):
        make("toy.totl-v1.s1.0")
    with pytest.raises(ValueError, match=r"toy\.total-v1"):
        make("toy.total-v1.s1")
    with pytest.raises(ValueError, match="variants"):
        make("toy.total-v1.s1.9")


def test_make_scale_override() -> None:
    env = make("toy.total-v1.s1.0", scale=0.02)
    assert env.task_id == "toy.total-v1.s1.0.x0.02" and env.task.scale == 0.02
    env.close()


# --------------------------------------------------------------------------------------------
# trajectories


def test_trajectory_records_everything(tmp_path: Path) -> None:
    with make("toy.total-v1.s1.0", agent_name="unit-test") as env:
        env.reset()
        env.record_usage(tokens_in=100, tokens_out=7)
        env.step({"name": "sql", "arguments": {"query": "select 1"}})
        env.record_usage(tokens_in=120, tokens_out=3)
        env.step({"name": "nope", "arguments": {}})
        env.step({"name": "submit", "arguments": {"answer": str(env.task.expected)}})
        path = env.write_trajectory(tmp_path / "t" / "episode.json")
    data = json.loads(path.read_text())
    assert validate_trajectory(data) == []
    assert data["agent"] == "unit-test" and data["outcome"] == "submitted"
    assert [s["tool"] for s in data["steps"]] == ["sql", "nope", "submit"]
    assert [s["error"] for s in data["steps"]] == [False, True, False]
    assert data["totals"] == {
        "steps": 3,
        "error_steps": 1,
        "wall_s": data["totals"]["wall_s"],
        "tokens_in": 220,
        "tokens_out": 10,
    }
    assert data["verdict"]["passed"] is True
    assert not list(path.parent.glob(".*tmp"))  # atomic write left no temp file


def test_validate_trajectory_finds_problems() -> None:
    assert validate_trajectory({"schema_version": 99})
    with make("toy.total-v1.s1.0") as env:
        env.reset()
        env.step({"name": "sql", "arguments": {"query": "select 1"}})
        data = env.trajectory()
    assert validate_trajectory(data) == []
    data["steps"][0]["index"] = 5
    data["outcome"] = "submitted"
    problems = validate_trajectory(data)
    assert any("out of order" in p for p in problems) and any("verdict" in p for p in problems)


# --------------------------------------------------------------------------------------------
# snapshot / restore


_RESTORE_SCRIPT = """
import json, sys
from tests.toy_families import register_toy
register_toy()
from replicas.env import Env
env = Env.restore_from(sys.argv[1])
obs, *_ = env.step({"name": "read_file", "arguments": {"path": "models/thing_totals.sql"}})
_, reward, terminated, _, info = env.step({"name": "submit", "arguments": {"answer": "fixed"}})
print(json.dumps({"obs": obs, "reward": reward, "steps": len(env.trajectory()["steps"]),
                  "agent": env.agent_name}))
env.close()
"""


def test_snapshot_restore_continues_in_another_process(tmp_path: Path) -> None:
    with make("toy.fix-v1.s1.0", agent_name="restorer") as env:
        env.reset()
        oracle = env.task.oracle
        env.step(oracle[0].to_action())  # write the fixed model
        env.step(oracle[1].to_action())  # dbt build — the warehouse now holds the fixed table
        handle = env.snapshot(tmp_path / "episode")
        assert (handle / "episode.json").is_file()
        # the live episode goes on independently
        env.step({"name": "write_file", "arguments": {"path": TOY_MODEL, "content": "select 1"}})
    proc = subprocess.run(
        [sys.executable, "-c", _RESTORE_SCRIPT, str(handle)],
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "* 2" not in out["obs"] and "sum(value)" in out["obs"]
    assert out["reward"] == 1.0 and out["steps"] == 4 and out["agent"] == "restorer"


def test_restore_in_process_and_refuses_other_tasks(tmp_path: Path) -> None:
    with make("toy.total-v1.s1.0") as env:
        env.reset()
        env.step({"name": "sql", "arguments": {"query": "select 1"}})
        handle = env.snapshot()
        env.reset()
        env.restore(handle)
        assert len(env.trajectory()["steps"]) == 1
        _, reward, *_ = env.step(
            {"name": "submit", "arguments": {"answer": str(env.task.expected)}}
        )
        assert reward == 1.0
    with make("toy.total-v1.s1.1") as other, pytest.raises(ValueError):
        other.reset()
        other.restore(handle)
    with pytest.raises(ValueError):
        Env.restore_from(tmp_path)
