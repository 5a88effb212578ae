"""Check 7 — discrimination: every recorded wrong reading fails, beyond tolerance.

Each wrong reading (the answer a plausible misreading gives: gross instead of net, cancelled
orders included, …) must (a) differ from the expected answer by more than the task's tolerance
(``check_answer`` of the reading against the expected fails) and (b) fail the task's own
grader when submitted as an answer (custom graders included). A reading that passes means the
task cannot tell the misreading from the right reading: ``ambiguous``. Numeric tasks must record
readings (design rule: "each numeric task records the answers of plausible wrong readings");
other kinds may have none.
"""

from __future__ import annotations

import json
from typing import Any

from replicas.audit._context import AuditContext
from replicas.audit._model import CheckResult
from replicas.audit._registry import Check, failed, passed, register_check, skipped
from replicas.verifiers.answers import check_answer

NAME = "discrimination"


def _as_submitted(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def run(ctx: AuditContext) -> CheckResult:

    task = ctx.task
    if task.answer_kind == "dbt":
        return skipped(NAME, "dbt tasks are graded by rebuild; see the dbt check")
    readings = dict(task.wrong_readings)
    if not readings:
        if task.answer_kind == "number":
            return failed(
                NAME, "ambiguous", ["a numeric task records no wrong readings"], {"readings": []}
            )
        return passed(
            NAME, ["no wrong readings recorded (not required for this kind)"], {"readings": []}
        )
    evidence: list[str] = []
    results: dict[str, dict[str, Any]] = {}
    for name, value in readings.items():
        within = check_answer(task.answer_kind, value, task.expected, task.verifier).passed
        verdict = ctx.grade_on_oracle_sandbox(_as_submitted(value))
        results[name] = {
            "within_tolerance": bool(within),
            "graded_pass": bool(verdict.passed),
            "score": verdict.score,
        }
        shown = _as_submitted(value)
        shown = shown if len(shown) <= 80 else shown[:79] + "…"
        if within:
            evidence.append(f"wrong reading {name!r} ({shown}) is within tolerance of the answer")
        if verdict.passed or verdict.score > 0:
            evidence.append(
                f"the task's grader accepts wrong reading {name!r} ({shown}): score {verdict.score:g}"
            )
    data = {"readings": sorted(readings), "results": results}
    if evidence:
        return failed(NAME, "ambiguous", evidence, data)
    return passed(
        NAME, [f"{len(readings)} wrong readings all fail: {', '.join(sorted(readings))}"], data
    )


CHECK = register_check(
    Check(
        name=NAME,
        status="ambiguous",
        title="every wrong reading fails and differs from the answer beyond tolerance",
        fix_hint=(
            "State the definition that separates each misreading in the instruction, tighten "
            "the tolerance if it swallows the difference, let TaskFamily.build redraw parameters "
            "where a reading coincides with the answer (do not override build), and record every "
            "plausible misreading of a numeric question in wrong_readings."
        ),
        run=run,
    )
)
