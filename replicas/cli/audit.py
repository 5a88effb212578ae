"""``replicas audit``: screen a suite's tasks (or any task ids) for untrainable defects.

Mounted by ``replicas.cli`` through :func:`register` (listed in its ``COMMAND_MODULES``), so it
reads ``replicas audit --suite core-v1 …``; ``audit_app`` is the same command as a standalone
Typer app (``python -m replicas.cli_audit``).

Exit codes: 0 every task usable; 1 some task is not usable (broken, leaky, hackable, flaky or
ambiguous); 2 bad input (unknown suite, family or check, a glob matching nothing, bad numbers);
130 interrupted.
"""

from __future__ import annotations

import fnmatch
import importlib
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from replicas.audit import PRECEDENCE, STATUSES, AuditReport, TaskAudit, audit_tasks, get_check
from replicas.cli.common import (
    FAILED,
    INTERRUPTED,
    UnsafeNoOsSandbox,
    allow_unsandboxed,
    default_workers,
    err_console,
    fail,
    out_console,
    sigterm_as_interrupt,
)
from replicas.suite import get_suite, parse_suite_file, suite_names
from replicas.tasks import TaskId, get_family

_GLOB_CHARS = frozenset("*?[")
_STATUS_STYLE = {
    "usable": "green",
    "broken": "red",
    "leaky": "magenta",
    "hackable": "red",
    "flaky": "yellow",
    "ambiguous": "yellow",
}

audit_app = typer.Typer(
    help="Screen tasks: oracle passes, null and hacks fail, no leakage, deterministic, seed "
    "sensitive, discriminating.",
    add_completion=False,
    pretty_exceptions_enable=False,
    invoke_without_command=True,
)


def _suite_ids(suite: str) -> list[str]:
    """Ids of a published suite, or of a task-id list file (e.g. ``replicas factory``'s
    ``DIR/suite.txt``) when ``suite`` is the path of one."""
    if suite not in suite_names() and (suite.endswith(".txt") or "/" in suite):
        path = Path(suite)
        try:
            ids = parse_suite_file(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ValueError(f"cannot read the task list {suite}: {exc}") from None
        if not ids:
            raise ValueError(f"the task list {suite} names no task")
        for task_id in ids:
            get_family(TaskId.parse(task_id).family)  # ValueError on a bad id or family
        return list(dict.fromkeys(ids))
    return list(get_suite(suite).task_ids)  # ValueError listing the known suites


def select_task_ids(suite: str, patterns: str | None) -> list[str]:
    """Ids of ``suite`` (a published suite or the path of a task-id list) matching
    comma-separated globs; a pattern without glob characters that is a task id is taken as is,
    even outside the suite (to audit one's own families).
    ValueError on an unknown suite/family or when nothing matches."""

    if not patterns:
        return _suite_ids(suite)
    suite_ids: list[str] | None = None
    chosen: list[str] = []
    for pattern in (p.strip() for p in patterns.split(",")):
        if not pattern:
            continue
        if not _GLOB_CHARS & set(pattern):
            try:
                tid = TaskId.parse(pattern)
            except ValueError:
                tid = None
            if tid is not None:
                get_family(tid.family)  # ValueError naming close families
                chosen.append(str(tid))
                continue
        if suite_ids is None:
            suite_ids = _suite_ids(suite)
        chosen.extend(i for i in suite_ids if fnmatch.fnmatchcase(i, pattern))
    chosen = list(dict.fromkeys(chosen))
    if not chosen:
        ids = suite_ids if suite_ids is not None else _suite_ids(suite)
        families = sorted({i.rsplit(".s", 1)[0] for i in ids})
        raise ValueError(
            f"no task of suite {suite!r} matches {patterns!r}; ids look like {ids[0]!r}; "
            f"families: {', '.join(families[:8])}" + (" …" if len(families) > 8 else "")
        )
    return chosen


def _status_cell(status: str, count: int) -> str:
    if not count:
        return "[dim]0[/dim]"
    return f"[{_STATUS_STYLE.get(status, 'white')}]{count}[/]"


def print_report(report: AuditReport, *, fix_hints: bool, out: Console | None = None) -> None:
    """The terminal view: counts per status and per family, then every task that failed."""
    out = out or out_console()
    families = report.family_counts()
    table = Table(title=f"audit: {len(report.tasks)} tasks in {report.wall_s:.1f}s")
    table.add_column("family")
    for status in STATUSES:
        table.add_column(status, justify="right")
    for family, counts in families.items():
        table.add_row(family, *(_status_cell(s, counts[s]) for s in STATUSES))
    totals = report.status_counts()
    table.add_row("[bold]all", *(_status_cell(s, totals[s]) for s in STATUSES))
    out.print(table)
    bad = report.not_usable()
    if not bad:
        out.print(f"[green]all {len(report.tasks)} tasks are usable[/green]")
        return
    failures = Table(title="tasks that are not usable", show_lines=True)
    failures.add_column("task")
    failures.add_column("status")
    failures.add_column("failed checks: evidence", overflow="fold")
    for audit in sorted(bad, key=lambda a: (PRECEDENCE.index(a.status), a.task_id)):
        lines = [
            f"[bold]{c.name}[/bold] ({c.status}): " + " | ".join(c.evidence[:3])
            for c in audit.failed_checks
        ]
        failures.add_row(
            audit.task_id, f"[{_STATUS_STYLE[audit.status]}]{audit.status}[/]", "\n".join(lines)
        )
    out.print(failures)
    if fix_hints:
        _print_fix_hints(bad, out)


def _print_fix_hints(bad: list[TaskAudit], out: Console) -> None:
    """One hint per (family, failed check), with the tasks it concerns and one piece of evidence."""
    seen: dict[tuple[str, str], list[TaskAudit]] = {}
    for audit in bad:
        for check in audit.failed_checks:
            seen.setdefault((audit.family, check.name), []).append(audit)
    out.print("[bold]fix hints[/bold]")
    for (family, name), audits in sorted(seen.items()):
        try:
            hint = get_check(name).fix_hint
        except ValueError:
            hint = "the task could not be built: run its family's build on this seed and fix the error."
        evidence = audits[0].check(name).evidence
        ids = ", ".join(a.task_id for a in audits[:4]) + (" …" if len(audits) > 4 else "")
        out.print(f"- [bold]{family}[/bold] · {name} ({len(audits)} tasks: {ids})")
        if evidence:
            out.print(f"    seen: {evidence[0]}", highlight=False)
        out.print(f"    fix:  {hint}", highlight=False)


@audit_app.callback(invoke_without_command=True)
def audit_command(
    suite: Annotated[
        str,
        typer.Option(help="Suite whose tasks are audited, or the path of a task-id list file."),
    ] = "core-v1",
    tasks: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated globs over the suite's task ids; a literal task id may name "
            "any registered family (e.g. your own)."
        ),
    ] = None,
    seeds: Annotated[
        int, typer.Option(help="Extra seeds the seed-sensitivity check builds each family on.")
    ] = 2,
    workers: Annotated[
        int | None, typer.Option(help="Parallel worker processes. Default: cores, max 2.")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print audit.json to stdout instead of the tables.")
    ] = False,
    out: Annotated[Path | None, typer.Option(help="Write DIR/audit.json.")] = None,
    fix_hints: Annotated[
        bool,
        typer.Option("--fix-hints", help="Say, per failed check, what to change in the family."),
    ] = False,
    checks: Annotated[
        str | None, typer.Option(help="Comma-separated subset of checks (default: all).")
    ] = None,
    imports: Annotated[
        list[str] | None,
        typer.Option(
            "--import",
            help="Import this module first (repeatable): registers your own task families so "
            "--tasks can name them.",
        ),
    ] = None,
    unsafe_no_os_sandbox: UnsafeNoOsSandbox = False,
) -> None:
    """Audit every task: status usable, broken, leaky, hackable, flaky or ambiguous."""
    allow_unsandboxed(unsafe_no_os_sandbox)

    n_workers = default_workers() if workers is None else workers
    try:
        for module in imports or ():
            try:
                importlib.import_module(module)
            except ImportError as exc:
                raise ValueError(f"--import {module}: {exc}") from None
        if seeds < 0:
            raise ValueError(f"--seeds must be >= 0, got {seeds}")
        if n_workers < 1:
            raise ValueError(f"--workers must be >= 1, got {n_workers}")
        task_ids = select_task_ids(suite, tasks)
        check_list = [c.strip() for c in checks.split(",") if c.strip()] if checks else None
        if check_list is not None:
            for name in check_list:
                get_check(name)
    except ValueError as exc:
        raise fail(str(exc)) from None

    progress_cb = None
    stop = None
    if err_console.is_terminal and not as_json:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        bar = Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=err_console,
            transient=True,
        )
        bar_task = bar.add_task("auditing", total=len(task_ids))
        bar.start()

        def progress_cb(audit: TaskAudit) -> None:
            bar.update(
                bar_task, advance=1, description=f"auditing ({audit.task_id}: {audit.status})"
            )

        stop = bar.stop
    else:
        # Not a terminal (a log, CI, a pipe): one line per audited task on stderr, so a run of
        # hours shows how far it is; stdout (the table or --json) is unchanged.
        done = [0]

        def progress_cb(audit: TaskAudit) -> None:
            done[0] += 1
            err_console.print(
                f"audited {done[0]}/{len(task_ids)} {audit.task_id}: {audit.status} "
                f"({audit.wall_s:.0f} s)",
                highlight=False,
                soft_wrap=True,
            )

    try:
        with sigterm_as_interrupt():
            report = audit_tasks(
                task_ids,
                workers=n_workers,
                extra_seeds=seeds,
                checks=check_list,
                config={"suite": suite, "tasks": tasks},
                progress=progress_cb,
            )
    except KeyboardInterrupt:
        raise fail("interrupted; nothing was written", INTERRUPTED) from None
    except ValueError as exc:
        raise fail(str(exc)) from None
    finally:
        if stop is not None:
            stop()
    if out is not None:
        path = report.write(out)
        if not as_json:
            out_console().print(f"wrote {path}")
    if as_json:
        typer.echo(report.to_json())
        if fix_hints and report.not_usable():
            _print_fix_hints(report.not_usable(), err_console)
    else:
        print_report(report, fix_hints=fix_hints)
    if not report.all_usable:
        raise typer.Exit(FAILED)


def register(target: typer.Typer) -> None:
    """Mount ``audit`` as a top-level command of ``target`` (what ``replicas.cli`` calls)."""
    target.command("audit")(audit_command)
