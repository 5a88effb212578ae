"""The ``write_file`` tool: create or replace one text file of the dbt project.

Refused: whatever ``replicas.sandbox.project`` refuses — paths leaving the project, the
directories dbt writes (``target/``, ``logs/``) or would load packages from (``dbt_packages/``),
Python files, the kit-managed configuration files, a ``dbt_project.yml`` below the root or one
that changes the profile or points a path outside the project, macros redefining dbt builtins,
custom materializations, and path-like settings pointing outside the project. The whole tree is
checked again before every dbt run, so a refusal here is early feedback, not the only wall.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from replicas.atomicio import write_text_atomic
from replicas.sandbox import refused_content, refused_project_file
from replicas.tools._paths import PathRefused, relative, resolve_in_project
from replicas.tools.base import Tool, ToolContext, ToolResult, register_tool

MAX_CONTENT_CHARS = 200_000


def _run(arguments: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    project = ctx.sandbox.project_dir
    content = str(arguments.get("content", ""))
    try:
        path = resolve_in_project(project, str(arguments.get("path", "")))
    except PathRefused as exc:
        return ToolResult.fail(str(exc))
    rel = relative(project, path)
    if rel == ".":
        return ToolResult.fail("give a file path, not the project root")
    if len(content) > MAX_CONTENT_CHARS:
        return ToolResult.fail(f"content is longer than {MAX_CONTENT_CHARS} characters")
    why = refused_project_file(rel, len(content.encode("utf-8"))) or refused_content(rel, content)
    if why is not None:
        return ToolResult.fail(why)
    if path.is_dir():
        return ToolResult.fail(f"{rel!r} is a directory")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        resolve_in_project(project, rel)  # re-check: no symlink appeared on the way
        write_text_atomic(path, content)
    except PathRefused as exc:
        return ToolResult.fail(str(exc))
    except OSError as exc:
        return ToolResult.fail(f"could not write {rel!r}: {exc.strerror}")
    return ToolResult(text=f"wrote {rel} ({len(content)} characters)")


WRITE_FILE_TOOL = register_tool(
    Tool(
        name="write_file",
        description=(
            "Create or overwrite a text file of the dbt project (e.g. a model's .sql or .yml). "
            "Python models, profiles.yml and packages.yml are not allowed."
        ),
        parameters={
            "type": "object",
            "properties": {
                "path": {
                    "type": "string",
                    "description": "File path relative to the project root.",
                },
                "content": {"type": "string", "description": "The complete new file content."},
            },
            "required": ["path", "content"],
            "additionalProperties": False,
        },
        run=_run,
    )
)
