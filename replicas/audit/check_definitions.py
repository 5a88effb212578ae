"""Check 9 — definitions live in the project, and the instruction alone is not enough.

Hard tasks (``hard-v1``) do not state their definitions; they record where each one lives in
``task.metadata["definitions_source"]``: a project file and a phrase it contains, or a relation
and a column the ``sql`` tool can query. This check opens a fresh sandbox of the task (its
patch applied, its dropped models dropped) and proves each definition is reachable with the
task's own tools: the file exists, is not a kit-managed path, holds the phrase, and the task
offers ``read_file``; or the relation is in the sandbox warehouse's ``raw``/``main`` schema with
that column, and the task offers ``sql``. A task that also records ``naive_reading`` (what an
agent that trusts the instruction alone would submit) must list it among its wrong readings,
and that reading must fail the task's verifier. Tasks without ``definitions_source`` are
skipped.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from replicas.audit._context import AuditContext
from replicas.audit._model import CheckResult
from replicas.audit._registry import Check, failed, passed, register_check, skipped
from replicas.db import open_readonly
from replicas.sandbox import Sandbox
from replicas.tasks import Task
from replicas.verifiers.answers import check_answer

NAME = "definitions"
READABLE_SCHEMAS = ("raw", "main")


def _applies(task: Task) -> bool:
    return bool(task.metadata.get("definitions_source"))


def _file_problem(task: Task, project: Path, entry: Mapping[str, Any]) -> str | None:
    if "read_file" not in task.tools:
        return f"{entry['what']}: lives in a file but the task does not offer read_file"
    rel = str(entry["where"])
    path = (project / rel).resolve()
    if project.resolve() not in path.parents or not path.is_file():
        return f"{entry['what']}: {rel} is not a file of the agent's project"
    text = path.read_text(encoding="utf-8", errors="replace")
    if str(entry["contains"]).lower() not in text.lower():
        return f"{entry['what']}: {rel} does not contain {entry['contains']!r}"
    return None


def _relation_problem(task: Task, warehouse: Path, entry: Mapping[str, Any]) -> str | None:
    if "sql" not in task.tools:
        return f"{entry['what']}: lives in a relation but the task does not offer sql"
    relation, column = str(entry["where"]), str(entry["contains"])
    con = open_readonly(warehouse)
    try:
        rows = con.execute(
            "select count(*) from information_schema.columns where table_schema in "
            f"({', '.join(repr(s) for s in READABLE_SCHEMAS)}) "
            "and lower(table_name) = lower(?) and lower(column_name) = lower(?)",
            [relation, column],
        ).fetchall()
    finally:
        con.close()
    if not rows or not rows[0][0]:
        return f"{entry['what']}: no queryable relation {relation} with column {column}"
    return None


def _naive_problem(task: Task) -> tuple[str | None, str | None]:
    naive = task.metadata.get("naive_reading")
    if naive is None:
        return None, None
    if naive not in task.wrong_readings:
        return f"naive reading {naive!r} is not among the recorded wrong readings", None
    verdict = check_answer(
        task.answer_kind, task.wrong_readings[naive], task.expected, task.verifier
    )
    if verdict.passed:
        return None, f"the instruction-only reading {naive!r} passes the verifier"
    return None, None


def run(ctx: AuditContext) -> CheckResult:
    task = ctx.task
    entries = [dict(e) for e in task.metadata.get("definitions_source", [])]
    if not entries:
        return skipped(NAME, "the task records no definitions_source")
    problems: list[str] = []
    sandbox = Sandbox.create(task.sandbox_spec(), ctx.snapshot)
    try:
        project = sandbox.project_dir
        warehouse = Path(sandbox.warehouse)
        sandbox.release_connection()
        for entry in entries:
            if entry.get("kind") == "file":
                problem = _file_problem(task, project, entry)
            elif entry.get("kind") == "relation":
                problem = _relation_problem(task, warehouse, entry)
            else:
                problem = f"{entry.get('what')}: unknown definition kind {entry.get('kind')!r}"
            if problem:
                problems.append(problem)
    finally:
        sandbox.close()
    broken, ambiguous = _naive_problem(task)
    if broken:
        problems.append(broken)
    data = {"definitions": len(entries), "naive_reading": task.metadata.get("naive_reading")}
    if problems:
        return failed(NAME, "broken", problems, data)
    if ambiguous:
        return failed(NAME, "ambiguous", [ambiguous], data)
    evidence = [f"{len(entries)} definitions reachable with {', '.join(task.tools)}"]
    if task.metadata.get("naive_reading"):
        evidence.append(f"instruction-only reading {task.metadata['naive_reading']!r} fails")
    return passed(NAME, evidence, data)


CHECK = register_check(
    Check(
        name=NAME,
        status="broken",
        title="each definition is reachable with the task's tools; the naive reading fails",
        fix_hint=(
            "Point definitions_source at a file of the agent's project (with a phrase it really "
            "contains) or at a relation the sql tool can read in the task's sandbox (not a "
            "dropped model); record the instruction-only reading as naive_reading among the "
            "wrong readings, and make sure the project's definition separates it."
        ),
        run=run,
        applies=_applies,
    )
)
