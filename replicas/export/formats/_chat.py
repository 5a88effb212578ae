"""Chat-message rendering and validation shared by the ``openai`` and ``trl`` formats.

Both are OpenAI-style message lists; they differ only in whether tool-call ``arguments`` are a
JSON string (OpenAI's wire format) or an object (what ``transformers`` chat templates render),
in what a tool-only assistant message carries as ``content``, in the keys of a tool message, and
in whether the final answer's prose is its own assistant message (``prose_turn``).

Why a prose turn: Llama-3.1-style chat templates render an assistant message that has
``tool_calls`` as the call alone and drop its ``content``, so a final "prose + ``submit``"
message would lose the prose. With ``prose_turn`` the record ends with
``{"role": "assistant", "content": "<prose>"}`` followed by the assistant's ``submit`` call
(default for ``trl``; ``--prose-turn``/``--no-prose-turn`` on ``replicas export sft``).

In Parquet the whole ``messages`` list is one ``arrow.json`` value per row: a struct column
would give every message every key of every other message, as ``None`` (``tool_calls: None`` on
a user message breaks templates that test ``message.tool_calls is defined``). ``datasets``
decodes the column back to exactly the JSONL's message dicts; pandas/pyarrow see JSON text.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from replicas.export.formats.base import (
    SFTFormat,
    check_keys,
    check_openai_tools,
    check_text,
    json_text,
    parse_object,
)

if TYPE_CHECKING:
    import pyarrow as pa

    from replicas.export.conversation import Conversation


@dataclass(frozen=True)
class ChatStyle:
    """How one chat format spells the parts that differ (see the module docstring)."""

    arguments_as_text: bool
    #: content of an assistant message that only calls a tool: None = key omitted.
    tool_only_content: str | None
    #: extra keys of a tool message besides role/tool_call_id/content ("name" for TRL).
    tool_message_name: bool
    #: emit the final answer's prose as its own assistant message before the submit call.
    prose_turn: bool = False


def render_messages(conv: Conversation, style: ChatStyle) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": conv.system},
        {"role": "user", "content": conv.instruction},
    ]
    last = len(conv.turns) - 1
    for index, turn in enumerate(conv.turns):
        args = dict(turn.arguments)
        call = {
            "id": turn.call_id,
            "type": "function",
            "function": {
                "name": turn.name,
                "arguments": json_text(args) if style.arguments_as_text else args,
            },
        }
        prose = turn.content
        if style.prose_turn and index == last and prose:
            messages.append({"role": "assistant", "content": prose})
            prose = None
        message: dict[str, Any] = {"role": "assistant"}
        content = prose if prose else style.tool_only_content
        if content is not None:
            message["content"] = content
        message["tool_calls"] = [call]
        messages.append(message)
        if turn.observation is not None:
            tool_msg: dict[str, Any] = {"role": "tool", "tool_call_id": turn.call_id}
            if style.tool_message_name:
                tool_msg["name"] = turn.name
            tool_msg["content"] = turn.observation
            messages.append(tool_msg)
    return messages


def _call_arguments(
    where: str, raw: Any, style: ChatStyle
) -> tuple[dict[str, Any] | None, list[str]]:
    if style.arguments_as_text:
        return parse_object(where, raw)
    if not isinstance(raw, dict):
        return None, [f"{where}: must be a JSON object"]
    try:
        json.dumps(raw, allow_nan=False)
    except (TypeError, ValueError) as exc:
        return None, [f"{where}: not JSON-serialisable ({exc})"]
    return raw, []


def validate_messages(messages: Any, tool_names: set[str], style: ChatStyle) -> list[str]:
    """Roles and their order: system, user, then assistant tool calls each answered by one tool
    message per call (matching ids, in order); the record ends with an assistant message."""
    if not isinstance(messages, list) or len(messages) < 3:
        return ["messages: must be a list of at least 3 messages"]
    problems: list[str] = []
    for i, want in ((0, "system"), (1, "user")):
        msg = messages[i]
        problems += check_keys(f"messages[{i}]", msg, {"role", "content"})
        if isinstance(msg, Mapping):
            if msg.get("role") != want:
                problems.append(f"messages[{i}].role: must be {want!r}")
            problems += check_text(f"messages[{i}].content", msg.get("content"))
    tool_keys = {"role", "tool_call_id", "content"} | (
        {"name"} if style.tool_message_name else set()
    )
    pending: list[tuple[str, str]] = []  # (call id, tool name) still to be answered
    for i in range(2, len(messages)):
        msg = messages[i]
        where = f"messages[{i}]"
        role = msg.get("role") if isinstance(msg, Mapping) else None
        if role == "tool":
            problems += check_keys(where, msg, tool_keys)
            if not pending:
                problems.append(f"{where}: a tool message must answer a pending tool call")
                continue
            call_id, name = pending.pop(0)
            if msg.get("tool_call_id") != call_id:
                problems.append(f"{where}.tool_call_id: expected {call_id!r}")
            if style.tool_message_name and msg.get("name") != name:
                problems.append(f"{where}.name: expected {name!r}")
            problems += check_text(f"{where}.content", msg.get("content"), allow_empty=True)
            continue
        if role != "assistant":
            problems.append(f"{where}.role: expected 'assistant' or 'tool', got {role!r}")
            continue
        if pending:
            problems.append(f"{where}: tool calls {[c for c, _ in pending]} were not answered")
            pending = []
        if isinstance(msg, Mapping) and "tool_calls" not in msg:
            # a prose turn: text only, and only right before the final submit call
            problems += check_keys(where, msg, {"role", "content"})
            problems += check_text(f"{where}.content", msg.get("content"))
            following = messages[i + 1] if i + 1 < len(messages) else None
            calls = following.get("tool_calls") if isinstance(following, Mapping) else None
            names = [
                c.get("function", {}).get("name") for c in calls or [] if isinstance(c, Mapping)
            ]
            if i + 2 != len(messages) or names != ["submit"]:
                problems.append(f"{where}: a text-only assistant turn must directly precede submit")
            continue
        optional = {"content"} if style.tool_only_content is None else set()
        required = {"role", "tool_calls"} | ({"content"} if not optional else set())
        problems += check_keys(where, msg, required, optional)
        if "content" in msg:
            problems += check_text(f"{where}.content", msg["content"], allow_empty=True)
        calls = msg.get("tool_calls")
        if not isinstance(calls, list) or not calls:
            problems.append(f"{where}.tool_calls: must be a non-empty list")
            continue
        for j, call in enumerate(calls):
            here = f"{where}.tool_calls[{j}]"
            found = check_keys(here, call, {"id", "type", "function"})
            if found:
                problems += found
                continue
            if call["type"] != "function":
                problems.append(f"{here}.type: must be 'function'")
            fn = call["function"]
            found = check_keys(f"{here}.function", fn, {"name", "arguments"})
            if found:
                problems += found
                continue
            if fn["name"] not in tool_names:
                problems.append(f"{here}.function.name: {fn['name']!r} is not in tools")
            problems += _call_arguments(f"{here}.function.arguments", fn["arguments"], style)[1]
            problems += check_text(f"{here}.id", call["id"])
            pending.append((str(call["id"]), str(fn["name"])))
    last = messages[-1]
    if not isinstance(last, Mapping) or last.get("role") != "assistant":
        problems.append("messages: the last message must be the assistant's")
    return problems


def message_calls(
    messages: list[Mapping[str, Any]], style: ChatStyle
) -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for msg in messages:
        for call in msg.get("tool_calls") or []:
            fn = call["function"]
            args, problems = _call_arguments("arguments", fn["arguments"], style)
            if args is None:
                raise ValueError("; ".join(problems))
            out.append((str(fn["name"]), args))
    return out


class ChatMessagesFormat(SFTFormat):
    """The ``messages`` + ``tools`` record shared by the OpenAI and TRL formats.

    The two differ only in their :class:`ChatStyle` (arguments as JSON text or objects, content of
    call-only turns, ``name`` on tool messages) and in their Arrow columns, so everything else —
    rendering, validation, reading calls back — lives here once.
    """

    style: ChatStyle

    @property
    def prose_turn(self) -> bool:
        return self.style.prose_turn

    def configured(self, *, prose_turn: bool | None = None) -> ChatMessagesFormat:
        if prose_turn is None or prose_turn == self.style.prose_turn:
            return self
        variant = copy.copy(self)
        variant.style = replace(self.style, prose_turn=prose_turn)
        return variant

    def arrow_fields(self) -> list[pa.Field]:
        import pyarrow as pa

        return [pa.field("messages", pa.json_()), pa.field("tools", pa.json_())]

    def to_arrow_row(self, record: Mapping[str, Any]) -> dict[str, Any]:
        return {"messages": json_text(record["messages"]), "tools": json_text(record["tools"])}

    def record_keys(self) -> tuple[str, ...]:
        return ("messages", "tools")

    def render(self, conversation: Conversation) -> dict[str, Any]:
        return {
            "messages": render_messages(conversation, self.style),
            "tools": [dict(t) for t in conversation.tools],
        }

    def validate(self, record: Any) -> list[str]:
        problems = check_keys("record", record, set(self.record_keys()))
        if problems:
            return problems
        names, problems = check_openai_tools("tools", record["tools"])
        return problems + validate_messages(record["messages"], names, self.style)

    def calls(self, record: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        return message_calls(record["messages"], self.style)
