"""Check 6 — seed sensitivity: the family's answer on other seeds is different.

The same family and variant is built on ``extra_seeds`` other seeds (preferring seeds already in
the audit, whose snapshots exist). If every one of them has the same answer as the audited task
(within the task's own tolerance), the answer can be memorised instead of computed: ``leaky``.
For dbt tasks "the answer" is the fix: the injected patch and the files the oracle writes. It is
compared with every variant of the family on the other seed (a family that merely rotates a
fixed catalogue of bugs over seeds is as memorisable as one that repeats them), so a dbt task is
memorisable when each other seed has a variant with the identical broken file and fix.
A single coincidence is not flagged (small answers collide by chance); all seeds agreeing is.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

from replicas.audit._context import AuditContext
from replicas.audit._model import CheckResult
from replicas.audit._registry import Check, failed, passed, register_check, skipped
from replicas.tasks import Task, TaskId, build_task
from replicas.verifiers.answers import check_answer

NAME = "seed_sensitivity"


def candidate_seeds(ctx: AuditContext) -> Iterator[int]:
    """Seeds in the audit's pool for this replica first, then seed+1, seed+2, …"""
    task = ctx.task
    pool = [s for s in ctx.options.seed_pool.get(task.replica, ()) if s != task.seed]
    rest = (task.seed + k for k in itertools.count(1))
    seen: set[int] = set()
    for seed in itertools.chain(pool, rest):
        if seed != task.seed and seed not in seen:
            seen.add(seed)
            yield seed


MAX_DBT_VARIANTS = 8


def _dbt_answer(task: Task) -> str:
    edits = [dict(c.arguments) for c in task.oracle if c.name == "write_file"]
    return json.dumps({"edits": edits, "patch": dict(task.sandbox_patch)}, sort_keys=True)


def same_answer(task: Task, other: Task) -> bool:
    if task.answer_kind == "dbt":
        return _dbt_answer(task) == _dbt_answer(other)

    return bool(check_answer(task.answer_kind, other.expected, task.expected, task.verifier).passed)


def _same_fix_on_seed(ctx: AuditContext, seed: int) -> Task | None:
    """Another variant on ``seed`` whose broken file and fix equal this task's, if any."""
    task = ctx.task
    for variant in range(MAX_DBT_VARIANTS):
        if not ctx.family.has_variant(seed, variant):
            break
        if variant == task.variant:
            continue
        try:
            other = build_task(TaskId(task.family, seed, variant, task.scale))
        except Exception:  # reported when that task itself is audited
            continue
        if same_answer(task, other):
            return other
    return None


def _shown(task: Task) -> Any:
    if task.answer_kind == "dbt":
        return (
            f"fix writes {[c.arguments.get('path') for c in task.oracle if c.name == 'write_file']}"
        )
    text = json.dumps(task.expected)
    return text if len(text) <= 120 else text[:119] + "…"


def run(ctx: AuditContext) -> CheckResult:
    task = ctx.task
    wanted = ctx.options.extra_seeds
    if wanted == 0:
        return skipped(NAME, "no extra seeds requested (--seeds 0)")
    others: list[Task] = []
    problems: list[str] = []
    for seed in itertools.islice(candidate_seeds(ctx), wanted + 3):
        if len(others) >= wanted:
            break
        if not ctx.family.has_variant(seed, task.variant):
            continue
        try:
            other = build_task(TaskId(task.family, seed, task.variant, task.scale))
        except Exception as exc:  # one unbuildable seed is that task's problem, not this one's
            problems.append(f"seed {seed}: could not build ({type(exc).__name__}: {exc})")
            continue
        if ctx.is_dbt and not same_answer(task, other):
            other = _same_fix_on_seed(ctx, seed) or other
        others.append(other)
    data = {
        "seeds": [o.seed for o in others],
        "compared_with": [o.id for o in others],
        "answers": {str(o.seed): _shown(o) for o in others},
        "this_answer": _shown(task),
    }
    if not others:
        return skipped(NAME, "no other seed could be built: " + "; ".join(problems), data)
    same = [o for o in others if same_answer(task, o)]
    data["same_on_seeds"] = [o.seed for o in same]
    if len(same) == len(others):
        return failed(
            NAME,
            "leaky",
            [
                f"memorisable: {', '.join(o.id for o in others)} give the same answer as seed "
                f"{task.seed}: {_shown(task)}",
                *problems,
            ],
            data,
        )
    detail = f"answers differ on {len(others) - len(same)} of {len(others)} other seeds"
    return passed(NAME, [detail, *problems], data)


CHECK = register_check(
    Check(
        name=NAME,
        status="leaky",
        title="other seeds give other answers (nothing to memorise)",
        fix_hint=(
            "Make the answer depend on the seed's data: draw the parameters (period, segment, "
            "threshold, entity, which model/column a bug touches) from ctx.rng and compute the "
            "answer with SQL on the snapshot. A fixed question over seed-independent data (a "
            "constant catalog, a fixed bug with a fixed fix) can be answered from memory."
        ),
        run=run,
    )
)
