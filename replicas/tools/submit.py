"""The ``submit`` tool: the agent's final answer. The environment grades it and ends the episode."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from replicas.tools.base import Tool, ToolContext, ToolResult, register_tool
from replicas.verifiers.parse import MAX_ANSWER_CHARS


def _run(arguments: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    # Grading needs the task's family, so the environment intercepts submit before this runs;
    # reaching here means a caller used the tool outside an episode.
    return ToolResult.fail("submit is handled by the environment")


SUBMIT_TOOL = register_tool(
    Tool(
        name="submit",
        description=(
            "Submit your final answer and end the episode. Give only the answer in the format the "
            "task asks for (for tasks that change the dbt project, summarise what you changed)."
        ),
        parameters={
            "type": "object",
            "properties": {
                "answer": {
                    "type": "string",
                    "maxLength": MAX_ANSWER_CHARS,
                    "description": "The final answer.",
                }
            },
            "required": ["answer"],
            "additionalProperties": False,
        },
        run=_run,
    )
)
