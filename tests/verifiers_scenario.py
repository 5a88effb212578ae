"""Run by tests/test_integrations_verifiers.py in a subprocess: with the repository root on
``sys.path`` (as pytest puts it), the kit's own top-level ``verifiers/`` source folder would
shadow PyPI's ``verifiers``. Prints one JSON object of observations for the test to check."""

from __future__ import annotations

import asyncio
import json
import sys

import verifiers.v1 as vf
from verifiers.v1.trace import AgentInfo, Trace, TraceTask

from replicas.integrations.verifiers import (
    TASKSET_ID,
    VERDICT_INFO_KEY,
    EpisodeDriver,
    ReplicaEnv,
    ReplicaTasksetConfig,
    load_environment,
)
from replicas.tasks import task_from_id
from replicas.tools import tool_schemas


def trace_for(task: vf.Task, reply: str) -> Trace:
    return Trace(
        task=TraceTask(type=type(task).__name__, data=task.data),
        agent=AgentInfo(config=vf.AgentConfig()),
        root_reply=reply,
    )


def main(task_ids: list[str]) -> dict[str, object]:
    out: dict[str, object] = {}
    # the plugin loads through v1's own loader, by its id
    taskset = vf.load_taskset(ReplicaTasksetConfig(id=TASKSET_ID, task_ids=task_ids))
    tasks = list(taskset)
    out["ids"] = [t.data.task_id for t in tasks]
    out["prompts_are_instructions"] = all(
        t.data.prompt == task_from_id(t.data.task_id).instruction for t in tasks
    )
    out["tools_in_system_prompt"] = all(
        json.dumps(tool_schemas(task_from_id(t.data.task_id).tools), indent=1)
        in str(t.data.system_prompt)
        for t in tasks
    )
    out["env"] = type(load_environment(task_ids=task_ids)).__name__
    assert out["env"] == ReplicaEnv.__name__
    episodes = {}
    for task in tasks:
        kit_task = task_from_id(task.data.task_id)
        result: dict[str, object] = {}
        for script_name in ("oracle", "null"):
            # the scripted client: its replies are JSON tool calls, as the system prompt asks
            if script_name == "oracle":
                replies = [json.dumps(c.to_action()) for c in kit_task.oracle]
                replies.insert(0, "not a tool call")  # an unusable reply is an error turn
                replies[1] = f"```json\n{replies[1]}\n```"  # fenced JSON is accepted
            else:
                replies = [json.dumps({"name": "submit", "arguments": {"answer": ""}})]
            driver = EpisodeDriver(task.data.task_id)
            try:
                first = driver.reset()
                observations = [driver.act(r) for r in replies]
            finally:
                driver.close()
            trace = trace_for(task, "")
            trace.info[VERDICT_INFO_KEY] = driver.verdict
            asyncio.run(task.score(trace))  # v1's scoring: the @vf.reward runs here
            reward = trace.rewards["verdict"]
            result[script_name] = {
                "first_is_instruction": first == kit_task.instruction,
                "done": driver.done,
                "reward": reward.score if reward else None,
                "error_first": observations[0].startswith("ERROR"),
            }
        # without an engine verdict, the final reply is graded as the answer
        expected = kit_task.oracle[-1].arguments["answer"]
        for label, reply in (("reply_right", expected), ("reply_empty", "")):
            trace = trace_for(task, reply)
            asyncio.run(task.score(trace))
            reward = trace.rewards["verdict"]
            result[label] = reward.score if reward else None
        episodes[task.data.task_id] = result
    out["episodes"] = episodes
    return out


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])))
