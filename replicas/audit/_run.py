"""Running the checks: one task in one process, many tasks over a process pool.

Task ids are built in the calling process first (warm caches; no two workers racing to build
one snapshot; a task that does not build is reported ``broken``). Tasks are independent, so
``workers > 1`` audits them in a ``spawn`` process pool: a worker receives the task as JSON
(plus the module that registers its family, so families defined outside the kit — a user's, or
the test suite's defective ones — are found in the child) and returns its :class:`TaskAudit` as
JSON. Tasks go out longest first (dbt tasks, whose gradings rebuild models, take ~50x a
question), then grouped by snapshot so a worker reuses its connections and warehouse index.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import replace
from typing import Any

from replicas.audit._context import AuditContext, AuditOptions
from replicas.audit._model import AuditReport, CheckResult, TaskAudit
from replicas.audit._registry import Check, select_checks
from replicas.build.jobs import stop_pool
from replicas.tasks import Task, TaskId, build_task, get_family

ProgressFn = Callable[[TaskAudit], None]


def _error_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def run_check(check: Check, ctx: AuditContext) -> CheckResult:
    """One check on one task, timed; a crash becomes an ``error`` result with the check's status."""
    started = time.perf_counter()
    if not check.applies(ctx.task):
        result = CheckResult(check.name, "skip", None, ("does not apply to this task",))
    else:
        try:
            result = check.run(ctx)
        except Exception as exc:  # an unscreened task is not known to be usable
            result = CheckResult(
                check.name, "error", check.status, (f"the check crashed: {_error_text(exc)}",)
            )
    return replace(result, wall_s=time.perf_counter() - started)


def audit_task(
    task: Task, options: AuditOptions | None = None, checks: Sequence[str] | None = None
) -> TaskAudit:
    """Run the selected checks (all by default) on one task in this process."""
    started = time.perf_counter()
    selected = select_checks(checks)
    with AuditContext(task, options) as ctx:
        results = tuple(run_check(check, ctx) for check in selected)
    return TaskAudit(
        task_id=task.id,
        replica=task.replica,
        family=task.family,
        answer_kind=task.answer_kind,
        difficulty=task.difficulty,
        checks=results,
        wall_s=time.perf_counter() - started,
    )


def _unbuildable(task_id: str, exc: BaseException, wall_s: float) -> TaskAudit:
    """A task id that does not even build is ``broken`` (reported under a ``build`` check)."""
    try:
        tid = TaskId.parse(task_id)
        family, replica = tid.family, tid.replica
    except ValueError:
        family, replica = "?", "?"
    result = CheckResult(
        "build", "error", "broken", (f"the task could not be built: {_error_text(exc)}",)
    )
    return TaskAudit(task_id, replica, family, "unknown", "unknown", (result,), wall_s)


def _audit_payload(payload: Mapping[str, Any]) -> dict[str, Any]:
    """Worker entry point (module level, so a spawn pool can pickle it)."""
    for module in payload.get("modules", ()):
        importlib.import_module(module)
    options = AuditOptions.from_dict(payload["options"])
    task = Task.from_dict(payload["task"])
    return audit_task(task, options, payload.get("checks")).to_dict()


def _family_module(family_name: str) -> str | None:
    try:
        module = type(get_family(family_name)).__module__
    except ValueError:
        return None
    return None if module.startswith("replicas.families") else module


def _seed_pool(items: Sequence[Task | str]) -> dict[str, tuple[int, ...]]:
    pool: dict[str, set[int]] = {}
    for item in items:
        try:
            tid = TaskId.parse(item.id if isinstance(item, Task) else str(item))
        except ValueError:
            continue
        pool.setdefault(tid.replica, set()).add(tid.seed)
    return {k: tuple(sorted(v)) for k, v in pool.items()}


def _order_key(task: Task) -> tuple[int, str, int, str]:
    """Longest first (tasks that write a warehouse rebuild dbt models: they dominate), then
    grouped by snapshot so a worker reuses its connections and warehouse index."""
    return (0 if task.writes_warehouse else 1, task.replica, task.seed, task.id)


def audit_tasks(
    tasks: Iterable[Task | str],
    *,
    workers: int = 1,
    extra_seeds: int = 2,
    checks: Sequence[str] | None = None,
    grade_repeats: int = 5,
    dbt_grade_repeats: int = 2,
    config: Mapping[str, Any] | None = None,
    progress: ProgressFn | None = None,
) -> AuditReport:
    """Screen ``tasks`` (Task objects or task ids) and report a status per task.

    ``workers`` > 1 uses a process pool; ``extra_seeds`` is how many other seeds the
    seed-sensitivity check builds each family on; ``checks`` restricts the checks run (names
    from ``replicas.audit.check_names()``). Task ids that fail to build are reported ``broken``.
    ``progress`` is called with each finished :class:`TaskAudit` (in completion order).
    The report lists tasks in input order.
    """
    items = list(tasks)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be an int >= 1, got {workers!r}")
    ids = [t.id if isinstance(t, Task) else str(t) for t in items]
    if len(set(ids)) != len(ids):
        raise ValueError("audit_tasks got the same task twice")
    selected = [c.name for c in select_checks(checks)]  # ValueError on unknown names, early
    options = AuditOptions(
        extra_seeds=extra_seeds,
        seed_pool=_seed_pool(items),
        grade_repeats=grade_repeats,
        dbt_grade_repeats=dbt_grade_repeats,
    )
    started = time.perf_counter()
    results: dict[str, TaskAudit] = {}

    def done(audit: TaskAudit, task_id: str) -> None:
        results[task_id] = audit
        if progress is not None:
            progress(audit)

    # Build in this process first: the task and snapshot caches are then warm, so workers never
    # race to build one snapshot, and a task that does not build is reported, not crashed on.
    built: list[Task] = []
    for task_id, item in zip(ids, items, strict=True):
        if isinstance(item, Task):
            built.append(item)
            continue
        build_started = time.perf_counter()
        try:
            built.append(build_task(task_id))
        except Exception as exc:
            done(_unbuildable(task_id, exc, time.perf_counter() - build_started), task_id)
    ordered = sorted(built, key=_order_key)
    if workers == 1 or len(ordered) <= 1:
        for task in ordered:
            done(audit_task(task, options, selected), task.id)
    else:
        _run_pool(ordered, options, selected, min(workers, len(ordered)), done)
    run_config = {
        **dict(config or {}),
        "workers": workers,
        "checks": selected,
        **options.to_dict(),
    }
    return AuditReport(
        tasks=tuple(results[i] for i in ids),
        config=run_config,
        wall_s=time.perf_counter() - started,
    )


def _payload(task: Task, options: AuditOptions, checks: Sequence[str]) -> dict[str, Any]:
    """What a pool worker needs: the task as JSON, options, checks and the family's module."""
    module = _family_module(task.family)
    return {
        "task": task.to_dict(),
        "options": options.to_dict(),
        "checks": list(checks),
        "modules": [module] if module else [],
    }


def _worker_init(environment: Mapping[str, str]) -> None:
    os.environ.update(environment)


def _run_pool(
    tasks: Sequence[Task],
    options: AuditOptions,
    checks: Sequence[str],
    workers: int,
    done: Callable[[TaskAudit, str], None],
) -> None:
    context = multiprocessing.get_context("spawn")
    environment = {k: v for k, v in os.environ.items() if k == "REPLICAS_HOME"}
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_worker_init, initargs=(environment,)
    )
    try:
        pending: dict[Future[dict[str, Any]], str] = {}
        queue = list(tasks)
        # Keep at most two tasks queued per worker so the longest-first order holds.
        while queue or pending:
            while queue and len(pending) < 2 * workers:
                task = queue.pop(0)
                pending[pool.submit(_audit_payload, _payload(task, options, checks))] = task.id
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                task_id = pending.pop(future)
                done(TaskAudit.from_dict(future.result()), task_id)
    except BaseException:
        # Ctrl-C or SIGTERM (the CLI makes it one): end the workers now, not after their audits
        stop_pool(pool)
        raise
    pool.shutdown(wait=True)
