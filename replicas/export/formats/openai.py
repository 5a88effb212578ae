"""``openai``: chat-completions fine-tuning JSONL (``messages`` + ``tools``).

One record per line, exactly the shape OpenAI's fine-tuning API takes for tool use: tool-call
``arguments`` are JSON *strings*, each ``tool`` message answers one call by ``tool_call_id``, and
the record ends with the assistant's ``submit`` call carrying the natural-language answer as
``content`` (the grader's reply to ``submit`` is never included). Example (abridged)::

    {"messages": [
       {"role": "system", "content": "You are a data engineer working in a sandboxed copy ..."},
       {"role": "user", "content": "What was the online store's net revenue in USD for orders
                                    created in October 2025 (...)? ... Submit only the number."},
       {"role": "assistant", "tool_calls": [{"id": "call_0", "type": "function", "function":
          {"name": "sql", "arguments": "{\\"query\\":\\"select round(sum(...), 2) ...\\"}"}}]},
       {"role": "tool", "tool_call_id": "call_0",
        "content": "net_revenue_usd\\n---------------\\n20844.02\\n(1 row)"},
       {"role": "assistant", "content": "Net revenue for October 2025 was 20,844.02 USD.",
        "tool_calls": [{"id": "call_1", "type": "function", "function":
          {"name": "submit", "arguments": "{\\"answer\\":\\"20844.02\\"}"}}]}],
     "tools": [{"type": "function", "function": {"name": "sql", "description": "...",
                "parameters": {"type": "object", "properties": {...}, "required": ["query"]}}},
               ...]}

In Parquet, ``messages`` and ``tools`` are ``arrow.json`` columns (``datasets`` loads them as
the lists above, each message with only its own keys; ``arguments`` stay strings, as in the
JSONL); provenance columns (``id``, ``task_id``, ``family``,
``seed``, ``source``, ``score``, …) sit next to them. The JSONL holds only the two keys above, in
the same order as the Parquet rows.
"""

from __future__ import annotations

from replicas.export.formats._chat import ChatMessagesFormat, ChatStyle

STYLE = ChatStyle(arguments_as_text=True, tool_only_content=None, tool_message_name=False)


class OpenAIFormat(ChatMessagesFormat):
    name = "openai"
    description = "OpenAI chat fine-tuning JSONL: messages (arguments as JSON strings) + tools"
    style = STYLE
