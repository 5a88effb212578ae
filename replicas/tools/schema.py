"""The OpenAI function-calling contract as pydantic models: tool schemas and tool arguments.

One definition serves every place that checks a tool: :class:`~replicas.tools.base.Tool` on
registration, the environment checker, and the SFT export validators. Arguments an agent sends
are validated by a pydantic model derived from the tool's JSON schema (strict JSON types: the
string ``"5"`` is not an integer, ``true`` is not a number), so what a tool receives is exactly
what its schema promises.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
    create_model,
    field_validator,
    model_validator,
)

__all__ = [
    "FunctionSchema",
    "ParametersSchema",
    "PropertySchema",
    "ToolSchema",
    "arguments_model",
    "parse_arguments",
    "schema_problems",
    "tool_list_problems",
]

JsonType = Literal["string", "integer", "number", "boolean", "object", "array"]


class PropertySchema(BaseModel):
    """One argument: a JSON type plus the keywords our tools use (others are kept as given)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    type: JsonType
    description: str | None = None
    enum: list[Any] | None = None
    maxLength: int | None = Field(default=None, ge=0)  # JSON-schema keyword
    default: Any = None


class ParametersSchema(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)

    type: Literal["object"]
    properties: dict[str, PropertySchema]
    required: list[str] = Field(default_factory=list)
    additionalProperties: bool = False  # JSON-schema keyword

    @model_validator(mode="after")
    def _required_are_properties(self) -> ParametersSchema:
        missing = [name for name in self.required if name not in self.properties]
        if missing:
            raise ValueError(f"required arguments without a schema: {missing}")
        return self


class FunctionSchema(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    description: str
    parameters: ParametersSchema
    strict: bool | None = None

    @field_validator("name")
    @classmethod
    def _identifier(cls, value: str) -> str:
        if not value.isidentifier():
            raise ValueError(f"must be an identifier, got {value!r}")
        return value

    @field_validator("description")
    @classmethod
    def _non_empty(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value


class ToolSchema(BaseModel):
    """``{"type": "function", "function": {...}}`` — what ``info["tools"]`` lists."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["function"]
    function: FunctionSchema


def _messages(exc: ValidationError, where: str) -> list[str]:
    out = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"])
        place = ".".join(p for p in (where, loc) if p)
        out.append(f"{place}: {err['msg']}" if place else str(err["msg"]))
    return out


def schema_problems(schema: Any, where: str = "") -> list[str]:
    """Why ``schema`` is not a valid OpenAI tool schema (empty list: it is)."""
    try:
        ToolSchema.model_validate(schema)
        json.dumps(schema, allow_nan=False)
    except ValidationError as exc:
        return _messages(exc, where)
    except (TypeError, ValueError) as exc:
        return [f"{where or 'schema'}: not JSON-serialisable ({exc})"]
    return []


def tool_list_problems(tools: Any, where: str = "tools") -> tuple[set[str], list[str]]:
    """Names and problems of an OpenAI tool list (non-empty, each valid, names unique)."""
    if not isinstance(tools, list) or not tools:
        return set(), [f"{where}: must be a non-empty list"]
    names: list[str] = []
    problems: list[str] = []
    for i, tool in enumerate(tools):
        found = schema_problems(tool, f"{where}[{i}]")
        problems += found
        if not found:
            names.append(tool["function"]["name"])
    if not problems and len(set(names)) != len(names):
        problems.append(f"{where}: tool names must be unique")
    return set(names), problems


_PY_TYPES: dict[str, Any] = {
    "string": StrictStr,
    "integer": StrictInt,
    "number": StrictInt | StrictFloat,
    "boolean": StrictBool,
    "object": dict[str, Any],
    "array": list[Any],
}


@lru_cache(maxsize=128)
def _model_for(schema_json: str) -> type[BaseModel]:
    params = ParametersSchema.model_validate(json.loads(schema_json))
    fields: dict[str, Any] = {}
    for name, prop in params.properties.items():
        annotation: Any = _PY_TYPES[prop.type]
        if prop.enum is not None:
            annotation = Literal[tuple(prop.enum)]
        if prop.maxLength is not None:
            annotation = Annotated[annotation, Field(max_length=prop.maxLength)]
        if name in params.required:
            fields[name] = (annotation, ...)
        elif "default" in prop.model_fields_set:
            fields[name] = (annotation, prop.default)
        else:
            fields[name] = (annotation | None, None)
    extra: Literal["allow", "forbid"] = "allow" if params.additionalProperties else "forbid"
    return create_model("Arguments", __config__=ConfigDict(extra=extra, frozen=True), **fields)


def arguments_model(parameters: Mapping[str, Any]) -> type[BaseModel]:
    """The pydantic model of a tool's arguments, derived from its JSON schema (cached)."""
    return _model_for(json.dumps(dict(parameters), sort_keys=True))


def _argument_error(
    exc: ValidationError, tool_name: str, parameters: Mapping[str, Any], given: Mapping[str, Any]
) -> str:
    """The first problem, in words an agent can act on (names the argument and what it needs)."""
    props: Mapping[str, Any] = parameters.get("properties", {})
    errors = exc.errors()
    missing = [str(e["loc"][0]) for e in errors if e["type"] == "missing"]
    if missing:
        return f"missing required arguments for {tool_name}: {missing}"
    unknown = sorted(str(e["loc"][0]) for e in errors if e["type"] == "extra_forbidden")
    if unknown:
        return f"unknown arguments for {tool_name}: {unknown}; allowed: {sorted(props)}"
    err = errors[0]
    name = str(err["loc"][0]) if err["loc"] else "arguments"
    spec = props.get(name, {})
    if err["type"] == "literal_error" and "enum" in spec:
        return f"argument {name!r} must be one of {spec['enum']}"
    if err["type"] == "string_too_long":
        return f"argument {name!r} is longer than {spec.get('maxLength')} characters"
    if "type" in spec:
        return f"argument {name!r} must be of type {spec['type']}"
    return f"argument {name!r}: {err['msg']}"


def parse_arguments(
    tool_name: str, parameters: Mapping[str, Any], arguments: Any
) -> tuple[dict[str, Any] | None, str | None]:
    """Arguments as a dict (JSON strings decoded, defaults filled) or an error message."""
    if isinstance(arguments, str):
        text = arguments.strip() or "{}"
        try:
            arguments = json.loads(text)
        except ValueError as exc:
            return None, f"arguments are not valid JSON: {exc}"
        except RecursionError:
            return None, "arguments are not valid JSON: nested too deeply"
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, Mapping):
        return None, "arguments must be a JSON object"
    model = arguments_model(parameters)
    try:
        parsed = model.model_validate(dict(arguments))
    except RecursionError:
        return None, "arguments are nested too deeply"
    except ValidationError as exc:
        return None, _argument_error(exc, tool_name, parameters, arguments)
    # optional arguments the agent left out stay absent unless the schema gives a default
    return {
        name: value
        for name, value in parsed.model_dump().items()
        if name in arguments or _has_default(parameters, name)
    }, None


def _has_default(parameters: Mapping[str, Any], name: str) -> bool:
    return "default" in parameters.get("properties", {}).get(name, {})
