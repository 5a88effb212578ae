"""The ``read_file`` tool: text of one file of the dbt project, paged by character offset."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from replicas.tools._paths import PathRefused, resolve_in_project
from replicas.tools.base import Tool, ToolContext, ToolResult, register_tool

MAX_FILE_BYTES = 1_000_000


def _run(arguments: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    try:
        path = resolve_in_project(ctx.sandbox.project_dir, str(arguments.get("path", "")))
    except PathRefused as exc:
        return ToolResult.fail(str(exc))
    if not path.is_file():
        return ToolResult.fail(f"{arguments.get('path')!r} is not a file; use list_files")
    if path.stat().st_size > MAX_FILE_BYTES:
        return ToolResult.fail(f"file is larger than {MAX_FILE_BYTES} bytes")
    data = path.read_bytes()
    if b"\x00" in data[:8192]:
        return ToolResult.fail("binary file; only text files can be read")
    text = data.decode("utf-8", errors="replace")
    offset = int(arguments.get("offset") or 0)
    if offset < 0 or (offset and offset >= len(text)):
        return ToolResult.fail(f"offset {offset} is outside the file ({len(text)} characters)")
    cap = ctx.limits.max_output_chars
    chunk = text[offset : offset + cap]
    if offset + cap < len(text):
        chunk += (
            f"\n… [file continues: {len(text) - offset - cap} more characters; "
            f"call read_file with offset={offset + cap}]"
        )
    return ToolResult(text=chunk)


READ_FILE_TOOL = register_tool(
    Tool(
        name="read_file",
        description="Read a text file of the dbt project (long files are paged with 'offset').",
        parameters={
            "type": "object",
            "properties": {
                "path": {
                    "type": "string",
                    "description": "File path relative to the project root.",
                },
                "offset": {
                    "type": "integer",
                    "default": 0,
                    "description": "Character offset to start from (for long files).",
                },
            },
            "required": ["path"],
            "additionalProperties": False,
        },
        run=_run,
    )
)
