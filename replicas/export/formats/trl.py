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
       {"role": "assistant", "content": "Net revenue for October 2025 was 20,844.02 USD."},
       {"role": "assistant", "content": "", "tool_calls": [{"id": "call_1", "type": "function",
          "function": {"name": "submit", "arguments": {"answer": "20844.02"}}}]}],
     "tools": [{"type": "function", "function": {"name": "sql", ...}}, ...]}

Use it with ``SFTTrainer(model, train_dataset=load_dataset("parquet", data_dir=OUT/"data")
["train"])`` (``assistant_only_loss=True`` trains on the assistant turns only). The final
answer's prose is its own assistant turn before the ``submit`` call (Llama-3.1-style templates
drop the content of a message with ``tool_calls``); ``--no-prose-turn`` puts it back on the
``submit`` message. In Parquet ``messages`` and ``tools`` are ``arrow.json`` columns: stored as
JSON text, so no message is padded with other messages' keys as ``None`` (which breaks
Llama-3.1's template on transformers 4.x), and decoded by ``datasets`` (>= 4.8) back to the
objects above.
"""

from __future__ import annotations

from replicas.export.formats._chat import ChatMessagesFormat, ChatStyle

STYLE = ChatStyle(
    arguments_as_text=False, tool_only_content="", tool_message_name=True, prose_turn=True
)


class TRLFormat(ChatMessagesFormat):
    name = "trl"
    description = "TRL SFTTrainer conversational dataset: messages (arguments as objects) + tools"
    style = STYLE
