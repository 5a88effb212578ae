"""The ``openai:`` agent against a real chat-completions server on 127.0.0.1 (scripted model).

The server replays the task's own oracle through tool calls, interleaved with malformed calls,
and injects 429 / 500 / garbage faults; nothing leaves the machine.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from replicas.agents import AgentOptions
from replicas.runner import RunConfig, read_results, read_trajectory, run
from replicas.tasks import task_from_id
from tests.fixtures.chat_server import ChatServer, Fault, assistant, tool_call

TASK_ID = "credit_cards.eligibility-v1.s1.0"
PRICES = {"scripted-model": [2.0, 8.0]}  # USD per 1M tokens


def oracle_script(
    task_id: str, with_mistakes: bool
) -> Callable[[dict[str, Any], int], dict[str, Any]]:
    """Turn k of the conversation → the model's k-th message: the oracle's calls, one per turn,
    after two malformed calls (bad JSON arguments, an unknown tool) when ``with_mistakes``."""
    oracle = task_from_id(task_id).oracle
    turns: list[dict[str, Any]] = []
    if with_mistakes:
        turns.append(assistant(tool_call("sql", '{"query": "select 1', "bad-json")))
        turns.append(assistant(tool_call("shell", {"cmd": "cat /etc/passwd"}, "unknown-tool")))
    for i, call in enumerate(oracle):
        turns.append(assistant(tool_call(call.name, dict(call.arguments), f"call-{i}")))

    def script(body: dict[str, Any], turn: int) -> dict[str, Any]:
        return turns[min(turn, len(turns) - 1)]

    return script


def run_openai(
    server: ChatServer, out: Path, *, attempts: int = 1, max_retries: int = 3
) -> list[dict[str, Any]]:
    config = RunConfig(
        out=out,
        agent="openai:scripted-model",
        task_ids=(TASK_ID,),
        attempts=attempts,
        workers=0,
        options=AgentOptions(
            base_url=server.base_url,
            api_key="sk-local-test",
            prices=PRICES,
            max_retries=max_retries,
            retry_base_s=0.01,
            retry_max_s=0.05,
        ),
    )
    run(config)
    return list(read_results(out).records)


def test_tool_loop_with_malformed_calls_and_retries(tmp_path: Path) -> None:
    server = ChatServer(oracle_script(TASK_ID, with_mistakes=True))
    server.faults.extend(
        [Fault(429, retry_after="0"), Fault(500), Fault(200, body=b"<html>garbage</html>")]
    )
    with server:
        [record] = run_openai(server, tmp_path / "run")
    oracle_len = len(task_from_id(TASK_ID).oracle)
    assert record["passed"] and record["score"] == 1.0, record
    assert record["steps"] == oracle_len + 2
    assert record["error_steps"] == 2
    assert "error" not in record
    completions = server.statuses.count(200) - 1  # minus the garbage body
    assert completions == oracle_len + 2
    assert server.statuses[:3] == [429, 500, 200]
    assert record["tokens_in"] == 100 * completions and record["tokens_out"] == 10 * completions
    assert record["cost_usd"] == pytest.approx((100 * 2.0 + 10 * 8.0) * completions / 1e6)
    first = server.requests[0]
    assert first["model"] == "scripted-model"
    assert {t["function"]["name"] for t in first["tools"]} >= {"sql", "submit"}
    assert server.headers[0].get("Authorization") == "Bearer sk-local-test"
    # the malformed calls came back to the model as error tool messages
    last = server.requests[-1]["messages"]
    tool_msgs = {m["tool_call_id"]: m["content"] for m in last if m["role"] == "tool"}
    assert tool_msgs["bad-json"].startswith("ERROR") and "JSON" in tool_msgs["bad-json"]
    assert (
        tool_msgs["unknown-tool"].startswith("ERROR")
        and "unknown tool" in tool_msgs["unknown-tool"]
    )
    trajectory = read_trajectory(tmp_path / "run", record)
    assert [s["error"] for s in trajectory["steps"][:2]] == [True, True]
    assert sum(s.get("tokens_in", 0) for s in trajectory["steps"]) == record["tokens_in"]


def test_text_reply_without_tool_call_is_submitted(tmp_path: Path) -> None:
    server = ChatServer(lambda body, turn: assistant(content="I think the answer is 42."))
    with server:
        [record] = run_openai(server, tmp_path / "run")
    assert not record["passed"] and "error" not in record
    trajectory = read_trajectory(tmp_path / "run", record)
    assert [s["tool"] for s in trajectory["steps"]] == ["submit"]
    assert trajectory["steps"][0]["arguments"] == {"answer": "I think the answer is 42."}


def test_server_failure_is_an_episode_error_and_the_run_goes_on(tmp_path: Path) -> None:
    server = ChatServer(oracle_script(TASK_ID, with_mistakes=False))
    server.faults.extend([Fault(500), Fault(502), Fault(503)])  # 1 try + 2 retries, all fail
    with server:
        records = run_openai(server, tmp_path / "run", attempts=2, max_retries=2)
    by_attempt = {r["attempt"]: r for r in records}
    assert "failed 3 times" in by_attempt[0]["error"] and "503" in by_attempt[0]["error"]
    assert by_attempt[0]["reasons"] == ["agent_error"] and by_attempt[0]["score"] == 0.0
    assert by_attempt[1]["passed"] and "error" not in by_attempt[1]


def test_client_errors_are_not_retried(tmp_path: Path) -> None:
    server = ChatServer(oracle_script(TASK_ID, with_mistakes=False))
    server.faults.append(Fault(400, body=json.dumps({"error": "context too long"}).encode()))
    with server:
        [record] = run_openai(server, tmp_path / "run")
    assert server.statuses == [400]
    assert "HTTP 400" in record["error"] and "context too long" in record["error"]
