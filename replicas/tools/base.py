"""Tool plumbing: the tool record, its OpenAI schema, argument validation, the registry.

A tool is a name, a description, a JSON schema for its arguments and a function
``(arguments, context) -> ToolResult``. Tools return text, never raise into the agent loop: the
registry's :func:`call_tool` turns bad arguments and unexpected exceptions alike into an error
observation the agent can read and recover from.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from replicas.registry import Registry
from replicas.tasks.base import Limits
from replicas.tools.schema import parse_arguments, schema_problems

if TYPE_CHECKING:
    from replicas.sandbox import Sandbox


@dataclass(frozen=True)
class ToolResult:
    """What one tool call gives back: the observation text and whether it was an error."""

    text: str
    error: bool = False
    data: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def fail(cls, message: str) -> ToolResult:
        return cls(text=f"ERROR: {message}", error=True)


@dataclass
class ToolContext:
    """The episode state a tool may use: the sandbox, the task's limits and the episode's
    wall-clock deadline (``time.monotonic()`` value; a long tool call must end before it)."""

    sandbox: Sandbox
    limits: Limits
    deadline: float | None = None


ToolFn = Callable[[Mapping[str, Any], ToolContext], ToolResult]


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: Mapping[str, Any]
    run: ToolFn

    def __post_init__(self) -> None:
        problems = schema_problems(self.schema(), self.name)
        if problems:
            raise ValueError("; ".join(problems))

    def schema(self) -> dict[str, Any]:
        """The OpenAI function-calling schema of this tool."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": json.loads(json.dumps(dict(self.parameters))),
            },
        }


#: Tools register where they are defined (``replicas/tools/<name>.py``).
TOOLS: Registry[Tool] = Registry("tool")


def register_tool(tool: Tool) -> Tool:
    return TOOLS.register(tool.name, tool)


def get_tool(name: str) -> Tool | None:
    return TOOLS.find(name)


def tool_names() -> list[str]:
    return TOOLS.names()


def validate_arguments(tool: Tool, arguments: Any) -> tuple[dict[str, Any] | None, str | None]:
    """Arguments as a dict (JSON strings decoded, defaults filled) or an error message."""
    return parse_arguments(tool.name, tool.parameters, arguments)


def call_tool(tool: Tool, arguments: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    """Run a tool; any exception becomes an error observation (the loop never sees it)."""
    try:
        result = tool.run(arguments, ctx)
    except Exception as exc:  # the contract: a tool never raises into the agent loop
        last = _neutral_paths(traceback.format_exception_only(type(exc), exc)[-1].strip(), ctx)
        return ToolResult.fail(f"{tool.name} failed: {last[:500]}")
    if not isinstance(result, ToolResult):
        return ToolResult.fail(f"{tool.name} returned no result")
    return result


def _neutral_paths(text: str, ctx: ToolContext) -> str:
    """``text`` with the sandbox's host directory shown as ``/sandbox``: an ``OSError`` names the
    full path (``File name too long: '/tmp/replicas-sbx-…/project/…'``), and the agent should learn
    no host path (dbt sees ``/sandbox/project`` in episodes and grading alike)."""
    sandbox = getattr(ctx, "sandbox", None)
    if sandbox is None or not getattr(sandbox, "has_root", False):
        return text
    root = sandbox.root
    for host in {str(root), str(root.resolve())}:
        text = text.replace(host, "/sandbox")
    return text


def truncate(text: str, max_chars: int) -> str:
    """Cap an observation, saying so."""
    if len(text) <= max_chars:
        return text
    cut = text[:max_chars]
    return cut + f"\n… [output truncated: {len(text) - max_chars} more characters]"
