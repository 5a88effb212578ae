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

from replicas.tasks.base import Limits

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
    """The episode state a tool may use: the sandbox and the task's limits."""

    sandbox: Sandbox
    limits: Limits


ToolFn = Callable[[Mapping[str, Any], ToolContext], ToolResult]


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: Mapping[str, Any]
    run: ToolFn

    def __post_init__(self) -> None:
        if not self.name.isidentifier():
            raise ValueError(f"tool name must be an identifier, got {self.name!r}")
        params = dict(self.parameters)
        if params.get("type") != "object" or not isinstance(params.get("properties"), dict):
            raise ValueError(f"{self.name}: parameters must be a JSON schema of type object")
        for req in params.get("required", []):
            if req not in params["properties"]:
                raise ValueError(f"{self.name}: required argument {req!r} has no schema")

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


_TOOLS: dict[str, Tool] = {}


def register_tool(tool: Tool) -> Tool:
    if tool.name in _TOOLS and _TOOLS[tool.name] is not tool:
        raise ValueError(f"tool {tool.name!r} is already registered")
    _TOOLS[tool.name] = tool
    return tool


def get_tool(name: str) -> Tool | None:
    return _TOOLS.get(name)


def tool_names() -> list[str]:
    return sorted(_TOOLS)


_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list,),
}


def validate_arguments(tool: Tool, arguments: Any) -> tuple[dict[str, Any] | None, str | None]:
    """Arguments as a dict (JSON strings decoded, defaults filled) or an error message.

    Covers the subset of JSON schema our tools use: object, properties with a type (and enum,
    maxLength), required, additionalProperties false.
    """
    if isinstance(arguments, str):
        text = arguments.strip() or "{}"
        try:
            arguments = json.loads(text)
        except ValueError as exc:
            return None, f"arguments are not valid JSON: {exc}"
    if arguments is None:
        arguments = {}
    if isinstance(arguments, Mapping) and not isinstance(arguments, dict):
        arguments = dict(arguments)
    if not isinstance(arguments, dict):
        return None, "arguments must be a JSON object"
    props: Mapping[str, Any] = tool.parameters["properties"]
    unknown = sorted(set(arguments) - set(props))
    if unknown:
        return None, f"unknown arguments for {tool.name}: {unknown}; allowed: {sorted(props)}"
    missing = [r for r in tool.parameters.get("required", []) if r not in arguments]
    if missing:
        return None, f"missing required arguments for {tool.name}: {missing}"
    out: dict[str, Any] = {}
    for name, spec in props.items():
        if name not in arguments:
            if "default" in spec:
                out[name] = spec["default"]
            continue
        value = arguments[name]
        want = _JSON_TYPES.get(spec.get("type", ""), (object,))
        if isinstance(value, bool) and bool not in want:
            return None, f"argument {name!r} must be of type {spec.get('type')}"
        if not isinstance(value, want):
            return None, f"argument {name!r} must be of type {spec.get('type')}"
        if "enum" in spec and value not in spec["enum"]:
            return None, f"argument {name!r} must be one of {spec['enum']}"
        if isinstance(value, str) and "maxLength" in spec and len(value) > spec["maxLength"]:
            return None, f"argument {name!r} is longer than {spec['maxLength']} characters"
        out[name] = value
    return out, None


def call_tool(tool: Tool, arguments: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    """Run a tool; any exception becomes an error observation (the loop never sees it)."""
    try:
        result = tool.run(arguments, ctx)
    except Exception as exc:  # the contract: a tool never raises into the agent loop
        last = traceback.format_exception_only(type(exc), exc)[-1].strip()
        return ToolResult.fail(f"{tool.name} failed: {last[:500]}")
    if not isinstance(result, ToolResult):
        return ToolResult.fail(f"{tool.name} returned no result")
    return result


def truncate(text: str, max_chars: int) -> str:
    """Cap an observation, saying so."""
    if len(text) <= max_chars:
        return text
    cut = text[:max_chars]
    return cut + f"\n… [output truncated: {len(text) - max_chars} more characters]"
