"""``sharegpt``: LLaMA-Factory's ShareGPT tool-use format, with its ``dataset_info.json`` entry.

``conversations`` alternate ``human``/``observation`` (odd turns, counting from 1) with
``gpt``/``function_call`` (even turns) and hold an even number of turns, as LLaMA-Factory's
converter requires; a ``function_call`` value is the JSON text ``{"name", "arguments"}``; the
system prompt and the tool list (JSON text of ``{"name", "description", "parameters"}``) sit in
their own columns. The record ends with the ``submit`` function call. ShareGPT cannot carry text
and a call in one turn, so the natural-language sentence the other formats put beside ``submit``
is not exported here (the submitted answer itself is). Example (abridged)::

    {"conversations": [
       {"from": "human", "value": "What was the online store's net revenue in USD ...?"},
       {"from": "function_call",
        "value": "{\\"name\\":\\"sql\\",\\"arguments\\":{\\"query\\":\\"select round(...)\\"}}"},
       {"from": "observation", "value": "net_revenue_usd\\n---------------\\n20844.02\\n(1 row)"},
       {"from": "function_call",
        "value": "{\\"name\\":\\"submit\\",\\"arguments\\":{\\"answer\\":\\"20844.02\\"}}"}],
     "system": "You are a data engineer working in a sandboxed copy ...",
     "tools": "[{\\"name\\":\\"sql\\",\\"description\\":\\"...\\",\\"parameters\\":{...}}, ...]"}

``dataset_info.json`` (copy its entries into LLaMA-Factory's ``data/dataset_info.json``, or point
``dataset_dir`` at the export)::

    {"replicas_sft_train": {"file_name": "train.jsonl", "formatting": "sharegpt",
       "columns": {"messages": "conversations", "system": "system", "tools": "tools"},
       "tags": {"role_tag": "from", "content_tag": "value", "user_tag": "human",
                "assistant_tag": "gpt", "observation_tag": "observation",
                "function_tag": "function_call"}},
     "replicas_sft_test": {... "file_name": "test.jsonl" ...}}
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from replicas.export.formats.base import (
    SFTFormat,
    check_function_schema,
    check_keys,
    check_text,
    json_text,
    parse_object,
)

if TYPE_CHECKING:
    import pyarrow as pa

    from replicas.export.conversation import Conversation

HUMAN, GPT, CALL, OBSERVATION = "human", "gpt", "function_call", "observation"
#: LLaMA-Factory's alignment rule: 0-based even positions are the user side, odd the model's.
USER_SIDE = (HUMAN, OBSERVATION)
MODEL_SIDE = (GPT, CALL)
DATASET_PREFIX = "replicas_sft"
TAGS = {
    "role_tag": "from",
    "content_tag": "value",
    "user_tag": HUMAN,
    "assistant_tag": GPT,
    "observation_tag": OBSERVATION,
    "function_tag": CALL,
}


class ShareGPTFormat(SFTFormat):
    name = "sharegpt"
    description = "LLaMA-Factory ShareGPT (human/gpt/function_call/observation) + dataset_info"

    def record_keys(self) -> tuple[str, ...]:
        return ("conversations", "system", "tools")

    def render(self, conversation: Conversation) -> dict[str, Any]:
        turns: list[dict[str, str]] = [{"from": HUMAN, "value": conversation.instruction}]
        for turn in conversation.turns:
            call = {"name": turn.name, "arguments": dict(turn.arguments)}
            turns.append({"from": CALL, "value": json_text(call)})
            if turn.observation is not None:
                turns.append({"from": OBSERVATION, "value": turn.observation})
        functions = [dict(t["function"]) for t in conversation.tools]
        return {
            "conversations": turns,
            "system": conversation.system,
            "tools": json_text(functions),
        }

    def validate(self, record: Any) -> list[str]:
        problems = check_keys("record", record, set(self.record_keys()))
        if problems:
            return problems
        problems += check_text("system", record["system"])
        names, found = _tool_names(record["tools"])
        problems += found
        turns = record["conversations"]
        if not isinstance(turns, list) or len(turns) < 2:
            return [*problems, "conversations: must be a list of at least 2 turns"]
        if len(turns) % 2:
            problems.append("conversations: must hold an even number of turns")
        for i, turn in enumerate(turns):
            where = f"conversations[{i}]"
            found = check_keys(where, turn, {"from", "value"})
            if found:
                problems += found
                continue
            allowed = USER_SIDE if i % 2 == 0 else MODEL_SIDE
            if turn["from"] not in allowed:
                problems.append(f"{where}.from: must be one of {allowed}, got {turn['from']!r}")
            if i == 0 and turn["from"] != HUMAN:
                problems.append(f"{where}.from: the first turn must be {HUMAN!r}")
            if turn["from"] == OBSERVATION and turns[i - 1].get("from") != CALL:
                problems.append(f"{where}: an observation must follow a function_call")
            problems += check_text(
                f"{where}.value", turn["value"], allow_empty=turn["from"] == OBSERVATION
            )
            if turn["from"] == CALL:
                problems += _check_call(f"{where}.value", turn["value"], names)
        return problems

    def calls(self, record: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        out = []
        for turn in record["conversations"]:
            if turn["from"] == CALL:
                call = json.loads(turn["value"])
                out.append((str(call["name"]), dict(call["arguments"])))
        return out

    def arrow_fields(self) -> list[pa.Field]:
        import pyarrow as pa

        turn = pa.struct([("from", pa.string()), ("value", pa.string())])
        return [
            pa.field("conversations", pa.list_(turn)),
            pa.field("system", pa.string()),
            pa.field("tools", pa.string()),
        ]

    def extra_files(self, jsonl_files: Mapping[str, str]) -> dict[str, Any]:
        info = {
            f"{DATASET_PREFIX}_{split}": {
                "file_name": file_name,
                "formatting": "sharegpt",
                "columns": {"messages": "conversations", "system": "system", "tools": "tools"},
                "tags": dict(TAGS),
            }
            for split, file_name in jsonl_files.items()
        }
        return {"dataset_info.json": info}


def _tool_names(text: Any) -> tuple[set[str], list[str]]:
    if not isinstance(text, str):
        return set(), ["tools: must be a JSON string"]
    try:
        tools = json.loads(text)
    except ValueError as exc:
        return set(), [f"tools: not JSON ({exc})"]
    if not isinstance(tools, list) or not tools:
        return set(), ["tools: must encode a non-empty list"]
    problems: list[str] = []
    for i, fn in enumerate(tools):
        problems += check_function_schema(f"tools[{i}]", fn)
    if problems:
        return set(), problems
    return {str(fn["name"]) for fn in tools}, []


def _check_call(where: str, text: str, names: set[str]) -> list[str]:
    call, problems = parse_object(where, text)
    if call is None:
        return problems
    problems = check_keys(where, call, {"name", "arguments"})
    if problems:
        return problems
    if call["name"] not in names:
        problems.append(f"{where}: tool {call['name']!r} is not in tools")
    if not isinstance(call["arguments"], dict):
        problems.append(f"{where}: arguments must be a JSON object")
    return problems
