"""``replicas serve mcp TASK_ID``: one episode as an MCP stdio server, driven by the MCP SDK's
own client (``stdio_client`` + ``ClientSession``) in a real subprocess."""

from __future__ import annotations

import os
import sys
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from replicas.tasks import task_from_id
from replicas.tools import tool_schemas

TASK_ID = "credit_cards.card_terms_qa-v1.s1.0"


def _server(task_id: str) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if k.startswith(("REPLICAS_", "PATH", "HOME"))}
    return StdioServerParameters(
        command=sys.executable, args=["-m", "replicas.cli", "serve", "mcp", task_id], env=env
    )


async def _episode(task_id: str, calls: list[dict[str, Any]]) -> dict[str, Any]:
    async with (
        stdio_client(_server(task_id)) as (read, write),
        ClientSession(read, write) as session,
    ):
        init = await session.initialize()
        listed = await session.list_tools()
        results = [await session.call_tool(c["name"], c["arguments"]) for c in calls]
        return {"init": init, "tools": listed.tools, "results": results}


@pytest.mark.parametrize("task_id", [TASK_ID, "ecommerce.revenue_period-v1.s1.0"])
def test_oracle_calls_score_one_with_the_verdict_in_structured_content(task_id: str) -> None:
    task = task_from_id(task_id)
    calls = [c.to_action() for c in task.oracle]
    out = anyio.run(_episode, task_id, calls)
    # the kit's tool schemas are served unchanged
    served = {t.name: (t.description, t.input_schema) for t in out["tools"]}
    kit = {
        s["function"]["name"]: (s["function"]["description"], s["function"]["parameters"])
        for s in tool_schemas(task.tools)
    }
    assert served == kit and "submit" in served
    assert out["init"].instructions == task.instruction
    *steps, final = out["results"]
    for step in steps:
        assert not step.is_error and step.structured_content["verdict"] is None
        assert step.content[0].text  # the tool's answer as text content
    verdict = final.structured_content["verdict"]
    assert final.structured_content["reward"] == 1.0 and final.structured_content["terminated"]
    assert verdict["passed"] is True and verdict["score"] == 1.0


def test_null_answer_scores_zero_and_errors_are_tool_errors() -> None:
    calls = [
        {"name": "sql", "arguments": {"query": "select * from no_such_table"}},
        {"name": "submit", "arguments": {"answer": ""}},
        {"name": "sql", "arguments": {"query": "select 1"}},
    ]
    out = anyio.run(_episode, TASK_ID, calls)
    bad_sql, null, after = out["results"]
    assert bad_sql.is_error and "ERROR" in bad_sql.content[0].text
    assert null.structured_content["reward"] == 0.0 and null.structured_content["terminated"]
    assert null.structured_content["verdict"]["passed"] is False
    codes = [r["code"] for r in null.structured_content["verdict"]["reasons"]]
    assert "no_answer" in codes
    assert after.is_error and "episode is over" in after.content[0].text


def test_unknown_task_is_a_usage_error() -> None:
    import subprocess

    proc = subprocess.run(
        [sys.executable, "-m", "replicas.cli", "serve", "mcp", "ecommerce.nope-v1.s1.0"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2 and "error" in proc.stderr and proc.stdout == ""
