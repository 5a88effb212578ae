"""The ``cmd:`` agent: a real external harness process speaking the JSON-lines protocol."""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from replicas.agents import AgentOptions
from replicas.runner import RunConfig, read_results, read_trajectory, run
from replicas.tasks import task_from_id

TASK_ID = "credit_cards.eligibility-v1.s1.0"
SCRIPT = Path(__file__).parent / "fixtures" / "script_agent.py"


def cmd_agent(mode: str, *extra: str) -> str:
    return "cmd:" + shlex.join([sys.executable, str(SCRIPT), "--mode", mode, *extra])


def run_cmd(agent: str, out: Path, timeout_s: float = 30.0) -> dict[str, Any]:
    run(
        RunConfig(
            out=out,
            agent=agent,
            task_ids=(TASK_ID,),
            workers=0,
            options=AgentOptions(episode_timeout_s=timeout_s),
        )
    )
    [record] = read_results(out).records
    return record


def test_replayed_oracle_scores_one_and_gets_every_message(tmp_path: Path) -> None:
    oracle = [c.to_action() for c in task_from_id(TASK_ID).oracle]
    actions = tmp_path / "actions.json"
    # a malformed action first: unknown tool → error observation, the episode goes on
    actions.write_text(json.dumps({TASK_ID: [{"name": "nope", "arguments": {}}, *oracle]}))
    log = tmp_path / "messages.jsonl"
    record = run_cmd(
        cmd_agent("replay", "--actions", str(actions), "--log", str(log)), tmp_path / "run"
    )
    assert record["passed"] and record["score"] == 1.0 and "error" not in record
    assert record["steps"] == len(oracle) + 1 and record["error_steps"] == 1
    assert record["tokens_in"] == 7 * (len(oracle) + 1)
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    assert [m["type"] for m in messages] == ["reset"] + ["observation"] * (len(oracle) + 1) + [
        "verdict"
    ]
    reset = messages[0]
    assert reset["task_id"] == TASK_ID and reset["protocol"] == 1
    assert reset["observation"] == task_from_id(TASK_ID).instruction
    assert {t["function"]["name"] for t in reset["tools"]} >= {"sql", "submit"}
    assert messages[1]["error"] is True and messages[-2]["terminated"] is True
    assert messages[-1] == {
        "type": "verdict",
        "score": 1.0,
        "passed": True,
        "reasons": messages[-1]["reasons"],
        "feedback": messages[-1]["feedback"],
        "outcome": "submitted",
    }


@pytest.mark.parametrize(
    ("mode", "fragments"),
    [
        ("crash", ("exited before the episode ended", "exit code 3", "simulated crash")),
        ("garbage", ("malformed JSON", "this is not json")),
        ("wrongtype", ("expected an action", "hello")),
    ],
)
def test_broken_harness_is_recorded_as_agent_error(
    tmp_path: Path, mode: str, fragments: tuple[str, ...]
) -> None:
    started = time.monotonic()
    record = run_cmd(cmd_agent(mode), tmp_path / "run")
    assert not record["passed"] and record["score"] == 0.0
    for fragment in fragments:
        assert fragment in record["error"], record["error"]
    assert record["reasons"] == ["agent_error"]
    assert read_trajectory(tmp_path / "run", record)["agent_error"] == record["error"]
    assert time.monotonic() - started < 10  # the kit kills a lingering harness quickly


def test_hanging_harness_times_out(tmp_path: Path) -> None:
    started = time.monotonic()
    record = run_cmd(cmd_agent("hang"), tmp_path / "run", timeout_s=1.5)
    assert "timed out" in record["error"]
    assert 1.5 <= time.monotonic() - started < 10


def test_missing_command_is_an_episode_error(tmp_path: Path) -> None:
    record = run_cmd("cmd:/nonexistent/harness --x", tmp_path / "run")
    assert "cannot start harness" in record["error"]
