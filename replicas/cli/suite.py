"""``replicas suite``: list a suite's tasks and show one task (optionally with its answer).

Mounted by ``replicas.cli`` as the ``suite`` sub-command. Bad input (unknown suite, malformed
or unknown task id, bad scale) prints one line on stderr and exits 2; a snapshot that fails to
build exits 1. The expected answer and the oracle are printed only with ``--reveal``: the
default view is exactly what an agent is given.
"""

from __future__ import annotations

import difflib
import json
from typing import Annotated, Any

import typer
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from replicas.build import BuildError
from replicas.cli.common import FAILED, fail, out_console
from replicas.suite import DEFAULT_SUITE, all_suites, get_suite, read_suite_index
from replicas.tasks.base import Task, TaskId, format_task_id
from replicas.tasks.loader import task_from_id

suite_app = typer.Typer(
    help="List the tasks of a suite and show one task.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


ScaleOption = Annotated[
    float | None,
    typer.Option("--scale", help="Build the tasks on snapshots of this scale (default 0.01)."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


LISTING_FIELDS = (
    "id",
    "replica",
    "family",
    "difficulty",
    "seed",
    "variant",
    "scale",
    "answer_kind",
)


def task_row(task: Task) -> dict[str, Any]:
    """The public listing fields of one task (nothing hidden)."""
    return {field: getattr(task, field) for field in LISTING_FIELDS}


def plain_answer(task: Task) -> Any:
    """The expected answer as a plain JSON value: number, string, list, or list of row objects.

    dbt tasks have no stored answer (grading rebuilds their models): ``None``.
    """
    expected = task.expected
    if task.answer_kind == "table" and isinstance(expected, dict):
        columns = list(expected.get("columns", []))
        return [dict(zip(columns, row, strict=True)) for row in expected.get("rows", [])]
    return expected


@suite_app.command("list")
def list_tasks(
    suite: Annotated[str, typer.Option("--suite", help="Suite name.")] = DEFAULT_SUITE,
    scale: ScaleOption = None,
    as_json: JsonOption = False,
) -> None:
    """List the tasks of a suite: id, replica, family, difficulty, seed.

    Reads the suite's published task index (no snapshot is built); ``--scale`` builds.
    """
    try:
        indexed = read_suite_index(suite) if scale is None else None
        if indexed is not None:
            rows = [{k: row[k] for k in LISTING_FIELDS} for row in indexed]
        else:
            rows = [task_row(t) for t in get_suite(suite).tasks(scale)]
    except BuildError as exc:
        raise fail(str(exc), FAILED) from None
    except ValueError as exc:
        raise fail(str(exc)) from None
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    table = Table(title=f"{suite}: {len(rows)} tasks")
    for column in ("id", "replica", "family", "difficulty", "seed"):
        table.add_column(column, overflow="fold")  # ids are long; never truncate them
    for row in rows:
        table.add_row(
            *(Text(str(row[k])) for k in ("id", "replica", "family", "difficulty", "seed"))
        )
    out_console().print(table)


def _indexed(task_id: str) -> dict[str, Any] | None:
    """The index row of ``task_id`` in the first published suite listing it."""
    for suite in all_suites():
        if task_id in suite.task_ids:
            rows = read_suite_index(suite.name)
            if rows is not None:
                return next(row for row in rows if row["id"] == task_id)
    return None


def _close_matches(task_id: str) -> list[str]:
    # an id in several suites is one candidate (dict: first-seen order, no repeats)
    known = dict.fromkeys(t for suite in all_suites() for t in suite.task_ids)
    return difflib.get_close_matches(task_id, list(known), n=3, cutoff=0.6)


def _resolve(task_id: str, scale: float | None) -> Task:
    """The task ``task_id`` (at ``scale`` if given); ValueError with close matches otherwise."""

    try:
        tid = TaskId.parse(task_id)
        if scale is not None:
            tid = TaskId.parse(format_task_id(tid.family, tid.seed, tid.variant, scale))
        return task_from_id(str(tid))
    except ValueError as exc:
        close = _close_matches(task_id.strip())
        hint = f"; close task ids in the suites: {', '.join(close)}" if close else ""
        raise ValueError(f"{exc}{hint}") from None


@suite_app.command("show")
def show_task(
    task_id: Annotated[str, typer.Argument(help="Task id, e.g. ecommerce.top_n-v1.s1.0.")],
    reveal: Annotated[
        bool, typer.Option("--reveal", help="Also print the expected answer and the oracle.")
    ] = False,
    scale: ScaleOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show one task as an agent sees it (instruction, tools); --reveal adds the answer.

    A task of a published suite is shown from the suite's index (nothing is built); --reveal,
    --scale or an unlisted id builds the task.
    """
    indexed = None if reveal or scale is not None else _indexed(task_id.strip())
    if indexed is not None:
        data: dict[str, Any] = dict(indexed)
    else:
        try:
            task = _resolve(task_id, scale)
        except BuildError as exc:
            raise fail(str(exc), FAILED) from None
        except ValueError as exc:
            raise fail(str(exc)) from None
        data = {**task_row(task), "instruction": task.instruction, "tools": list(task.tools)}
    if reveal:
        data["expected_answer"] = plain_answer(task)
        data["oracle"] = [call.to_dict() for call in task.oracle]
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    _print_task(data, reveal)


def _print_task(data: dict[str, Any], reveal: bool) -> None:
    meta = Table.grid(padding=(0, 2))
    for key in ("id", "family", "difficulty", "seed", "variant", "scale", "answer_kind"):
        meta.add_row(key, Text(str(data[key])))
    meta.add_row("tools", Text(", ".join(data["tools"])))
    out_console().print(meta)
    out_console().print(Panel(Text(data["instruction"]), title="instruction", expand=True))
    if not reveal:
        return
    answer = json.dumps(data["expected_answer"], indent=2)
    out_console().print(Panel(Text(answer), title="expected answer"))
    steps = Table("#", "tool", "arguments", title="oracle")
    for i, call in enumerate(data["oracle"], start=1):
        args = json.dumps(call["arguments"], ensure_ascii=False)
        steps.add_row(str(i), call["name"], Text(args if len(args) <= 400 else args[:400] + " …"))
    out_console().print(steps)


__all__ = ["plain_answer", "suite_app", "task_row"]


def register(app: typer.Typer) -> None:
    app.add_typer(suite_app, name="suite")
