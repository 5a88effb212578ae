"""``replicas serve openenv``: a real OpenEnv server on 127.0.0.1, driven by OpenEnv's own
``GenericEnvClient`` over its WebSocket session; the stateless HTTP ``/step`` is refused."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest
from openenv.core import GenericEnvClient

from replicas.integrations.openenv import STATELESS_STEP_MESSAGE
from replicas.tasks import task_from_id

CARDS = "credit_cards.card_terms_qa-v1.s1.0"
SQL = "ecommerce.revenue_period-v1.s1.0"
STARTUP_S = 300.0  # the machine may be loaded; the server imports the kit before it listens


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    port = _free_port()
    cmd = [sys.executable, "-m", "replicas.cli", "serve", "openenv", "--port", str(port)]
    cmd += ["--task", CARDS, "--task", SQL, "--max-sessions", "2"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=os.environ)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_S
        while True:
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                raise RuntimeError(f"server exited: {err[-2000:]}")
            try:
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("server did not come up")
            time.sleep(0.5)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("task_id", [CARDS, SQL])
def test_oracle_episode_over_the_websocket_session_scores_one(server: str, task_id: str) -> None:
    task = task_from_id(task_id)
    with GenericEnvClient(base_url=server).sync() as client:
        first = client.reset(task_id=task_id)
        assert first.observation["text"] == task.instruction and not first.done
        assert {t["function"]["name"] for t in first.observation["tools"]} == set(task.tools)
        result = first
        for call in task.oracle:
            result = client.step(call.to_action())
        assert result.done and result.reward == 1.0
        assert result.observation["verdict"]["passed"] is True
        state = client.state()
        assert state["task_id"] == task_id and state["outcome"] == "submitted"
        # the same session can start over; a null answer earns nothing
        client.reset(task_id=task_id)
        null = client.step({"name": "submit", "arguments": {"answer": ""}})
        assert null.done and null.reward == 0.0 and not null.observation["verdict"]["passed"]


def test_sessions_are_separate(server: str) -> None:
    with (
        GenericEnvClient(base_url=server).sync() as one,
        GenericEnvClient(base_url=server).sync() as two,
    ):
        one.reset(task_id=CARDS)
        two.reset(task_id=CARDS)
        one.step({"name": "submit", "arguments": {"answer": ""}})
        # the other session's episode is still running
        still = two.step({"name": "sql", "arguments": {"query": "select 1 as x"}})
        assert not still.done and not still.observation["error"]
        assert one.state()["outcome"] == "submitted" and two.state()["outcome"] == "running"


def test_errors_are_clear(server: str) -> None:
    with GenericEnvClient(base_url=server).sync() as client:
        with pytest.raises(RuntimeError, match="reset"):
            client.step({"name": "sql", "arguments": {"query": "select 1"}})
        with pytest.raises(RuntimeError, match="needs task_id"):
            client.reset()
        with pytest.raises(RuntimeError, match="not served here"):
            client.reset(task_id="ecommerce.top_n-v1.s1.0")
        client.reset(task_id=CARDS)
        bad = client.step({"name": "no_such_tool", "arguments": {}})
        assert bad.observation["error"] and "unknown tool" in bad.observation["text"]
    stateless = httpx.post(f"{server}/step", json={"action": {"name": "sql"}}, timeout=30)
    assert stateless.status_code == 409
    assert stateless.json()["detail"] == STATELESS_STEP_MESSAGE


def test_bad_cli_input_exits_2() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "replicas.cli", "serve", "openenv", "--task", "nope.x-v1.s1.0"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2 and "error" in proc.stderr
