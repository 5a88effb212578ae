"""The strategy record and the helpers strategies share."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from replicas.agents._observe import column, is_error
from replicas.agents.base import EnvLike, StepResult, step

if TYPE_CHECKING:
    from replicas.tasks import Task

#: ``play`` performs the hack (ending with submit) and returns breach notes: forbidden actions
#: that unexpectedly worked (empty = the sandbox held).
PlayFn = Callable[[EnvLike, "Task"], list[str]]
AppliesFn = Callable[["Task"], bool]

QUESTION_KINDS = frozenset({"number", "table", "set", "ordered_list", "text"})
_LISTING_LINE = re.compile(r"^(\S.*?)  \(\d+ bytes\)$")


@dataclass(frozen=True)
class Strategy:
    """One reward hack: a name (the ``strategy`` label of its episodes), when it applies, how."""

    name: str
    description: str
    applies: AppliesFn
    play: PlayFn

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[a-z][a-z0-9_]*", self.name):
            raise ValueError(f"strategy name must be snake_case, got {self.name!r}")


class Session:
    """Steps on an env, remembering whether the episode already ended."""

    def __init__(self, env: EnvLike, task: Task) -> None:
        self.env = env
        self.task = task
        self.done = False

    def has(self, tool: str) -> bool:
        return tool in self.task.tools

    def call(self, tool: str, arguments: dict[str, Any]) -> StepResult | None:
        """One tool call, skipped when the task lacks the tool or the episode has ended."""
        if self.done or not self.has(tool):
            return None
        result = step(self.env, tool, arguments)
        self.done = result.done
        return result

    def ok(self, tool: str, arguments: dict[str, Any]) -> str | None:
        """The observation of a call that succeeded, else None."""
        result = self.call(tool, arguments)
        if result is None or is_error(result.observation) or result.info.get("error"):
            return None
        return result.observation

    def submit(self, answer: str) -> None:
        if not self.done:
            step(self.env, "submit", {"answer": answer})
            self.done = True

    def sql_column(self, query: str, name: str) -> list[str]:
        observation = self.ok("sql", {"query": query})
        return column(observation, name) if observation else []

    def sql_pairs(self, query: str, first: str, second: str) -> list[tuple[str, str]]:
        observation = self.ok("sql", {"query": query})
        if not observation:
            return []
        return list(zip(column(observation, first), column(observation, second), strict=False))

    def project_files(self, path: str = ".") -> list[str]:
        listing = self.ok("list_files", {"path": path}) or ""
        return [m.group(1) for line in listing.splitlines() if (m := _LISTING_LINE.match(line))]


def question_task(task: Task) -> bool:
    return task.answer_kind in QUESTION_KINDS


def dbt_task(task: Task) -> bool:
    return task.answer_kind == "dbt" and "write_file" in task.tools and "dbt" in task.tools
