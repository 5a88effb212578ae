"""The ``list_files`` tool: a recursive listing of a directory of the dbt project."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from replicas.tools._paths import PathRefused, relative, resolve_in_project
from replicas.tools.base import Tool, ToolContext, ToolResult, register_tool, truncate

MAX_ENTRIES = 400


def _run(arguments: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    project = ctx.sandbox.project_dir
    try:
        base = resolve_in_project(project, str(arguments.get("path") or "."))
    except PathRefused as exc:
        return ToolResult.fail(str(exc))
    if not base.exists():
        return ToolResult.fail(f"{arguments.get('path')!r} does not exist")
    if base.is_file():
        return ToolResult(text=f"{relative(project, base)}  ({base.stat().st_size} bytes)")
    lines: list[str] = []
    for dirpath, dirnames, filenames in os.walk(base, followlinks=False):
        dirnames.sort()
        for name in sorted(filenames):
            full = Path(dirpath) / name
            if full.is_symlink():
                continue
            lines.append(f"{relative(project, full)}  ({full.stat().st_size} bytes)")
            if len(lines) >= MAX_ENTRIES:
                lines.append(f"… [listing truncated at {MAX_ENTRIES} files; list a subdirectory]")
                return ToolResult(text=truncate("\n".join(lines), ctx.limits.max_output_chars))
    if not lines:
        return ToolResult(text="(empty directory)")
    return ToolResult(text=truncate("\n".join(lines), ctx.limits.max_output_chars))


LIST_FILES_TOOL = register_tool(
    Tool(
        name="list_files",
        description="List the files of the dbt project (recursively), with sizes.",
        parameters={
            "type": "object",
            "properties": {
                "path": {
                    "type": "string",
                    "default": ".",
                    "description": "Directory relative to the dbt project root.",
                }
            },
            "required": [],
            "additionalProperties": False,
        },
        run=_run,
    )
)
