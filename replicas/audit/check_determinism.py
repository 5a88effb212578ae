"""Check 5 — determinism: the same task twice, the same verdict every time.

(a) The task is rebuilt with ``family.build`` on the pristine snapshot, bypassing the in-process
and on-disk task caches; its instruction, expected answer, oracle, wrong readings and sandbox
patch must equal the audited task's. (b) The oracle's answer is graded repeatedly in the
oracle's sandbox (``grade_repeats`` gradings in all, the oracle episode's included;
``dbt_grade_repeats`` for dbt tasks, where each grading is a dbt rebuild; re-grades bypass the
runtime's dbt verdict cache) and every verdict must agree on score, pass and reason codes. Either failing makes the task ``flaky``.
"""

from __future__ import annotations

import json
from typing import Any

from replicas.audit._context import AuditContext, oracle_answer
from replicas.audit._model import CheckResult
from replicas.audit._registry import Check, failed, passed, register_check
from replicas.tasks import Task
from replicas.verifiers.verdict import Verdict

NAME = "determinism"
_FIELDS = ("instruction", "expected", "oracle", "wrong_readings", "sandbox_patch", "tools")


def _fields(task: Task) -> dict[str, str]:
    data = task.to_dict()
    return {f: json.dumps(data.get(f), sort_keys=True) for f in _FIELDS}


def _signature(verdict: Verdict | None) -> tuple[Any, ...]:
    if verdict is None:
        return ("no verdict",)
    return (
        round(float(verdict.score), 9),
        bool(verdict.passed),
        tuple(r.code for r in verdict.reasons),
    )


def run(ctx: AuditContext) -> CheckResult:
    task = ctx.task
    evidence: list[str] = []
    rebuilt = ctx.family.build(ctx.snapshot, task.seed, task.variant)
    want, got = _fields(task), _fields(rebuilt)
    changed = [f for f in _FIELDS if want[f] != got[f]]
    for name in changed:
        # around the first character that differs (a long field's start is often the same)
        at = next(
            (i for i, (a, b) in enumerate(zip(got[name], want[name], strict=False)) if a != b),
            min(len(got[name]), len(want[name])),
        )
        lo = max(0, at - 80)
        evidence.append(
            f"rebuilding the task changed its {name} at character {at}: "
            f"…{got[name][lo : at + 80]}… (was …{want[name][lo : at + 80]}…)"
        )

    repeats = ctx.options.dbt_grade_repeats if ctx.is_dbt else ctx.options.grade_repeats
    first = ctx.oracle().verdict
    signatures = [_signature(first)]
    answer = oracle_answer(task)
    for _ in range(repeats - 1):
        signatures.append(_signature(ctx.grade_on_oracle_sandbox(answer, cached=False)))
    if len(set(signatures)) > 1:
        shown = "; ".join(f"#{i + 1}: {s}" for i, s in enumerate(signatures))
        evidence.append(
            f"grading the oracle answer {repeats} times gave different verdicts: {shown}"
        )
    data = {
        "changed_fields": changed,
        "gradings": len(signatures),
        "verdicts": [list(map(str, s)) for s in signatures],
    }
    if evidence:
        return failed(NAME, "flaky", evidence, data)
    return passed(NAME, [f"rebuild identical; {len(signatures)} gradings agree"], data)


CHECK = register_check(
    Check(
        name=NAME,
        status="flaky",
        title="rebuilding gives the same task and grading the same answer gives the same verdict",
        fix_hint=(
            "Draw every parameter from ctx.rng (never `random`, `numpy.random` globals, the clock "
            "or set/dict iteration order), make ground-truth SQL total-ordered (ORDER BY a unique "
            "key, deterministic tie-breaks) and keep `grade` free of state, time and randomness."
        ),
        run=run,
    )
)
