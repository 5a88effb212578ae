"""Agent tools: one module per tool, each registering itself; this package imports them all.

``tool_schemas(names)`` gives the OpenAI function schemas the environment hands to agents.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from replicas.tools import dbt, list_files, read_file, sql, submit, write_file
from replicas.tools.base import (
    Tool,
    ToolContext,
    ToolResult,
    call_tool,
    get_tool,
    register_tool,
    tool_names,
    validate_arguments,
)

_ = (dbt, list_files, read_file, sql, submit, write_file)


def tool_schemas(names: Iterable[str]) -> list[dict[str, Any]]:
    """OpenAI function schemas for ``names`` (in the given order)."""
    out = []
    for name in names:
        tool = get_tool(name)
        if tool is None:
            raise ValueError(f"unknown tool {name!r}; tools: {tool_names()}")
        out.append(tool.schema())
    return out


__all__ = [
    "Tool",
    "ToolContext",
    "ToolResult",
    "call_tool",
    "get_tool",
    "register_tool",
    "tool_names",
    "tool_schemas",
    "validate_arguments",
]
