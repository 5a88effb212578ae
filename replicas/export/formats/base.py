"""What an SFT output format is: render a conversation, validate a record, read its calls back.

Every format is a pure function of :class:`~replicas.export.conversation.Conversation`, plus:

- ``validate(record)`` — a strict schema check run on EVERY record before it is written (a
  renderer bug drops and counts the record instead of shipping a malformed dataset);
- ``calls(record)`` — the tool calls parsed back out of the rendered record, which re-grading
  replays, so the score is earned by exactly what a trainer will read;
- ``arrow_fields()`` — the fixed Arrow schema of the format's columns in Parquet. Tool-call
  arguments and tool schemas, whose shape differs per tool, are stored as JSON text (the
  ``arrow.json`` extension type where the JSONL holds objects, so ``datasets`` decodes them back
  to objects; plain strings where the format itself uses strings), so one file's schema never
  conflicts with another's and no row is padded with other tools' null keys.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from replicas.tools.schema import schema_problems, tool_list_problems

if TYPE_CHECKING:
    import pyarrow as pa

    from replicas.export.conversation import Conversation


class SFTFormat(ABC):
    """One output format (see the module docstring)."""

    name: ClassVar[str]
    description: ClassVar[str]

    @abstractmethod
    def render(self, conversation: Conversation) -> dict[str, Any]:
        """The JSONL record of ``conversation``."""

    @abstractmethod
    def validate(self, record: Any) -> list[str]:
        """Problems with ``record`` (empty list = valid)."""

    @abstractmethod
    def calls(self, record: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """The (tool name, arguments) calls of a valid record, in order."""

    @abstractmethod
    def arrow_fields(self) -> list[pa.Field]:
        """The Parquet columns of the format (metadata columns are added by the writer)."""

    @property
    def prose_turn(self) -> bool:
        """Whether the final answer's prose is its own assistant turn before ``submit``."""
        return False

    def configured(self, *, prose_turn: bool | None = None) -> SFTFormat:
        """This format with export options applied (None keeps the format's default).

        ``prose_turn``: the final answer's prose as its own assistant turn before ``submit``
        (see ``replicas.export.formats._chat``); formats that cannot carry it refuse True.
        """
        if prose_turn:
            raise ValueError(f"format {self.name} cannot emit the final prose as its own turn")
        return self

    def extra_files(self, jsonl_files: Mapping[str, str]) -> dict[str, Any]:
        """Additional JSON files to write at the dataset root (split name -> JSONL file name)."""
        return {}

    def to_arrow_row(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """The record with its JSON-typed fields encoded as text (for the Parquet writer)."""
        return dict(record)

    def from_arrow_row(self, row: Mapping[str, Any]) -> dict[str, Any]:
        """A row as ``datasets`` loads it, back in JSONL form (None-valued keys dropped)."""
        return {k: drop_nones(row[k]) for k in self.record_keys() if k in row}

    @abstractmethod
    def record_keys(self) -> tuple[str, ...]:
        """The top-level keys of a JSONL record, in order."""


def drop_nones(value: Any) -> Any:
    """Recursively drop None-valued keys (Arrow fills absent struct fields with None)."""
    if isinstance(value, Mapping):
        return {k: drop_nones(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [drop_nones(v) for v in value]
    return value


def json_text(value: Any) -> str:
    """Compact, key-order-preserving JSON (what the JSONL and the Parquet JSON columns hold)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def json_array(values: Sequence[str | None]) -> pa.Array:
    """An ``arrow.json`` extension array from JSON texts."""
    import pyarrow as pa

    return pa.ExtensionArray.from_storage(pa.json_(), pa.array(list(values), type=pa.string()))


# ---- shared validation helpers ---------------------------------------------------------------


def check_keys(
    where: str, obj: Any, required: Collection[str], optional: Collection[str] = ()
) -> list[str]:
    if not isinstance(obj, Mapping):
        return [f"{where}: must be an object"]
    problems = [f"{where}: missing {k!r}" for k in sorted(set(required) - set(obj))]
    extra = set(obj) - set(required) - set(optional)
    if extra:
        problems.append(f"{where}: unexpected keys {sorted(extra)}")
    return problems


def check_text(where: str, value: Any, *, allow_empty: bool = False) -> list[str]:
    if not isinstance(value, str):
        return [f"{where}: must be a string"]
    if not allow_empty and not value.strip():
        return [f"{where}: must not be empty"]
    return []


def parse_object(where: str, text: Any) -> tuple[dict[str, Any] | None, list[str]]:
    """A JSON object from text (with a problem when it is not one)."""
    if not isinstance(text, str):
        return None, [f"{where}: must be a JSON string"]
    try:
        value = json.loads(text)
    except ValueError as exc:
        return None, [f"{where}: not JSON ({exc})"]
    if not isinstance(value, dict):
        return None, [f"{where}: must encode a JSON object"]
    return value, []


def check_function_schema(where: str, fn: Any) -> list[str]:
    """``{"name", "description", "parameters": {"type": "object", ...}}``."""
    return schema_problems({"type": "function", "function": fn}, where.removesuffix(".function"))


def check_openai_tools(where: str, tools: Any) -> tuple[set[str], list[str]]:
    """OpenAI tool list ``[{"type": "function", "function": {...}}]``; returns the names."""
    return tool_list_problems(tools, where)
