"""Suites: versioned, frozen lists of task ids (``core-v1``).

A suite is what runs, audits and reports compare across agents and kit versions, so its ids must
never change once published. Each suite therefore has two halves:

- a *plan* (``SuiteSpec``): which families, on which seeds, how many variants per seed. It is
  the recipe the id list was generated from, kept in code (``replicas.suite_plans``; the classes
  are in ``replicas.suite_spec``) so a reader sees the composition;
- the *published list*: ``replicas/suites/<name>.txt``, one task id per line, shipped as package
  data. ``get_suite`` reads only this file. ``plan_suite`` regenerates the list from the plan and a
  test asserts the two agree, so an accidental change to the plan (or a family being renamed)
  fails loudly instead of silently re-numbering a published suite.

A behaviour change of a family bumps its version (``-v2``) and with it the ids, which is why a
new suite version (``core-v2``), not an edit of ``core-v1``, is the way to move on.

Example::

    from replicas.suite import get_suite
    suite = get_suite("core-v3")
    suite.task_ids[:2]      # ('ecommerce.revenue_period-v2.s1.0', ...)
    tasks = suite.tasks()   # Task objects, built through task_from_id (cached)
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from replicas.atomicio import write_text_atomic
from replicas.registry import Registry
from replicas.suite_plans import PLANS
from replicas.suite_spec import SuiteEntry, SuiteSpec
from replicas.tasks.base import TaskId, format_task_id
from replicas.tasks.loader import task_from_id
from replicas.tasks.registry import family_names

if TYPE_CHECKING:
    from replicas.tasks.base import Task

#: Published lists live in ``replicas/suites/`` as package data of ``replicas`` (glob
#: ``suites/*.txt``), not as a subpackage, so no ``__init__.py`` is needed.
SUITES_DIR = "suites"
DEFAULT_SUITE = "core-v22"
_COMMENT = "#"


@dataclass(frozen=True)
class Suite:
    """A published suite: its name and frozen task ids (at the default scale)."""

    name: str
    description: str
    task_ids: tuple[str, ...]

    def __post_init__(self) -> None:
        ids = tuple(self.task_ids)
        if not ids:
            raise ValueError(f"suite {self.name} has no tasks")
        if len(set(ids)) != len(ids):
            raise ValueError(f"suite {self.name} lists a task id twice")
        for task_id in ids:
            TaskId.parse(task_id)  # ValueError on a malformed id
        object.__setattr__(self, "task_ids", ids)

    def __len__(self) -> int:
        return len(self.task_ids)

    def ids_at(self, scale: float | None = None) -> tuple[str, ...]:
        """The suite's ids at another scale (the same tasks, built on a bigger snapshot)."""
        if scale is None:
            return self.task_ids
        _check_scale(scale)
        out = []
        for task_id in self.task_ids:
            tid = TaskId.parse(task_id)
            out.append(format_task_id(tid.family, tid.seed, tid.variant, scale))
        return tuple(out)

    def families(self) -> list[str]:
        """Family names in the order they first appear."""
        return list(dict.fromkeys(TaskId.parse(t).family for t in self.task_ids))

    def tasks(self, scale: float | None = None) -> list[Task]:
        """Every task, built (or loaded from the task cache) through ``task_from_id``."""

        return [task_from_id(task_id) for task_id in self.ids_at(scale)]


def _check_scale(scale: float) -> None:
    if isinstance(scale, bool) or not isinstance(scale, (int, float)):
        raise ValueError(f"scale must be a number, got {scale!r}")
    if not math.isfinite(scale) or scale <= 0:
        raise ValueError(f"scale must be a positive number, got {scale!r}")


#: Every suite the kit ships, by name (a registry, so a new suite is one entry).
#: An unknown suite's error lists every published suite (one is always what the user meant to
#: pick; there are more than the registry's default of 12 since core-v10).
SUITE_SPECS: Registry[SuiteSpec] = Registry(
    "suite", same=lambda old, new: old == new, list_known_up_to=100
)
for _plan in PLANS:
    SUITE_SPECS.register(_plan.name, _plan)


def register_suite(spec: SuiteSpec) -> SuiteSpec:
    """Publish a suite plan (its task list ships as ``replicas/suites/<name>.txt``)."""
    return SUITE_SPECS.register(spec.name, spec)


def _spec(name: str) -> SuiteSpec:
    return SUITE_SPECS.get(name)


def plan_suite(name: str) -> list[str]:
    """The task ids ``name``'s plan generates, over the families registered right now.

    A family of the plan that is not registered (not written yet) is left out, so the plan can
    be regenerated while families are still being added; the published file is frozen once all
    of them exist.
    """

    registered = set(family_names())
    ids: list[str] = []
    for entry in _spec(name).entries:
        if entry.family in registered:
            ids.extend(entry.task_ids())
    return ids


def missing_families(name: str) -> list[str]:
    """Families the plan names that are not registered (should be empty for a release)."""

    registered = set(family_names())
    return [e.family for e in _spec(name).entries if e.family not in registered]


def suite_file(name: str) -> Path:
    """Path of the published id list of suite ``name`` (inside the installed package)."""
    _spec(name)
    return Path(str(resources.files("replicas").joinpath(SUITES_DIR, f"{name}.txt")))


def render_suite_file(name: str, task_ids: list[str]) -> str:
    """The text of a published suite file: a comment header, then one id per line."""
    spec = _spec(name)
    header = [
        f"{_COMMENT} suite {spec.name}: {len(task_ids)} tasks. Published ids never change;",
        f"{_COMMENT} generated by replicas.suite.plan_suite({spec.name!r}) via write_suite_file.",
    ]
    return "\n".join([*header, *task_ids]) + "\n"


def parse_suite_file(text: str) -> list[str]:
    """Task ids of a suite file (comments and blank lines skipped)."""
    return [
        line.strip()
        for line in text.splitlines()
        if line.strip() and not line.strip().startswith(_COMMENT)
    ]


def write_suite_file(name: str, path: Path | None = None) -> Path:
    """(Re)generate the published list from the plan; atomic (temp file then rename).

    Only for maintainers: publishing a changed list breaks the promise that ids never change.
    """
    target = path or suite_file(name)
    return write_text_atomic(target, render_suite_file(name, plan_suite(name)))


#: Public fields of a task kept in a suite's index (what an agent is shown, nothing hidden).
INDEX_FIELDS = (
    "id", "replica", "family", "difficulty", "seed", "variant", "scale", "answer_kind",
    "instruction", "tools",
)  # fmt: skip


def index_file(name: str) -> Path:
    """Path of suite ``name``'s task index (``<name>.index.jsonl`` beside its id list)."""
    _spec(name)
    return Path(str(resources.files("replicas").joinpath(SUITES_DIR, f"{name}.index.jsonl")))


def index_row(task: Task) -> dict[str, Any]:
    """One task's public fields, as the index stores them."""
    row = {field: getattr(task, field) for field in INDEX_FIELDS}
    row["tools"] = list(task.tools)
    return row


def render_index(tasks: list[Task]) -> str:
    return "".join(
        json.dumps(index_row(t), ensure_ascii=False, sort_keys=True) + "\n" for t in tasks
    )


def write_suite_index(name: str, path: Path | None = None) -> Path:
    """(Re)generate suite ``name``'s task index by building every task (maintainers only).

    Listing a suite then reads the index and builds nothing; a test rebuilds the tasks and
    asserts the index still matches, so a published task whose instruction changed (a
    behaviour change that needed a version bump) fails loudly.
    """
    return write_text_atomic(path or index_file(name), render_index(get_suite(name).tasks()))


def read_suite_index(name: str) -> list[dict[str, Any]] | None:
    """The suite's task index, or None when it was never published (then list by building)."""
    try:
        text = index_file(name).read_text(encoding="utf-8")
    except OSError:
        return None
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    ids = [row.get("id") for row in rows]
    if ids != list(get_suite(name).task_ids):
        raise ValueError(f"the task index of suite {name!r} does not match its id list")
    return rows


def get_suite(name: str) -> Suite:
    """The published suite ``name``; ValueError listing the known suites otherwise."""
    spec = _spec(name)
    try:
        text = suite_file(name).read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"suite {name!r} has no published task list: {exc}") from exc
    return Suite(
        name=spec.name, description=spec.description, task_ids=tuple(parse_suite_file(text))
    )


def all_suites() -> list[Suite]:
    """Every published suite, sorted by name."""
    return [get_suite(name) for name in SUITE_SPECS.names()]


def suite_names() -> list[str]:
    return SUITE_SPECS.names()


__all__ = [
    "DEFAULT_SUITE",
    "SUITE_SPECS",
    "Suite",
    "SuiteEntry",
    "SuiteSpec",
    "all_suites",
    "get_suite",
    "index_file",
    "missing_families",
    "parse_suite_file",
    "plan_suite",
    "read_suite_index",
    "register_suite",
    "render_suite_file",
    "suite_file",
    "suite_names",
    "write_suite_file",
    "write_suite_index",
]
