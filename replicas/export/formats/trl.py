"""``trl``: conversational ``messages`` + ``tools`` as TRL's ``SFTTrainer`` reads them.

TRL hands ``messages`` and ``tools`` to the tokenizer's chat template, and ``transformers`` chat
templates expect tool-call ``arguments`` as an OBJECT (they serialise it themselves), a ``tool``
message with the tool's ``name``, and ``content`` as a string (``""`` on a call-only turn, since
some templates ``trim`` it). Example (abridged)::

    {"messages": [
       {"role": "system", "content": "You are a data engineer working in a sandboxed copy ..."},
       {"role": "user", "content": "What was the online store's net revenue in USD ...?"},
       {"role": "assistant", "content": "", "tool_calls": [{"id": "call_0", "type": "function",
          "function": {"name": "sql", "arguments": {"query": "select round(sum(...), 2) ..."}}}]},
       {"role": "tool", "tool_call_id": "call_0", "name": "sql",
        "content": "net_revenue_usd\\n---------------\\n20844.02\\n(1 row)"},
       {"role": "assistant", "content": "Net revenue for October 2025 was 20,844.02 USD.",
        "tool_calls": [{"id": "call_1", "type": "function",
          "function": {"name": "submit", "arguments": {"answer": "20844.02"}}}]}],
     "tools": [{"type": "function", "function": {"name": "sql", ...}}, ...]}

Use it with ``SFTTrainer(model, train_dataset=load_dataset("parquet", data_dir=OUT/"data")
["train"])`` (``assistant_only_loss=True`` trains on the assistant turns only). In Parquet both
``tools`` and every ``arguments`` are ``arrow.json`` columns: stored as JSON text, so rows with
different tools never widen each other's structs, and decoded by ``datasets`` (>= 4.8) back to
the objects above.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from replicas.export.formats._chat import (
    ChatMessagesFormat,
    ChatStyle,
)
from replicas.export.formats.base import json_text
from replicas.export.formats.openai import message_type

if TYPE_CHECKING:
    import pyarrow as pa


STYLE = ChatStyle(arguments_as_text=False, tool_only_content="", tool_message_name=True)


class TRLFormat(ChatMessagesFormat):
    name = "trl"
    description = "TRL SFTTrainer conversational dataset: messages (arguments as objects) + tools"
    style = STYLE

    def arrow_fields(self) -> list[pa.Field]:
        import pyarrow as pa

        return [
            pa.field("messages", message_type(pa.json_())),
            pa.field("tools", pa.json_()),
        ]

    def to_arrow_row(self, record: Mapping[str, Any]) -> dict[str, Any]:
        messages = []
        for msg in record["messages"]:
            out = dict(msg)
            if "tool_calls" in msg:
                out["tool_calls"] = [
                    {
                        **call,
                        "function": {
                            "name": call["function"]["name"],
                            "arguments": json_text(call["function"]["arguments"]),
                        },
                    }
                    for call in msg["tool_calls"]
                ]
            messages.append(out)
        return {"messages": messages, "tools": json_text(record["tools"])}
