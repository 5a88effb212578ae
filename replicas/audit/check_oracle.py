"""Check 1 — the oracle passes: replaying the task's own solution scores 1.0.

A task its own solution fails cannot reward anything (a wrong expected answer, a grader bug, an
oracle that does not match the instruction); it is ``broken``.
"""

from __future__ import annotations

from replicas.audit._context import AuditContext
from replicas.audit._model import CheckResult
from replicas.audit._registry import Check, failed, passed, register_check

NAME = "oracle"


def run(ctx: AuditContext) -> CheckResult:
    episode = ctx.oracle()
    data = {
        "score": episode.score,
        "passed": episode.passed,
        "reasons": episode.reason_codes,
        "outcome": episode.outcome,
        "steps": episode.steps,
        "episode_s": round(episode.wall_s, 3),
    }
    if episode.passed and episode.score == 1.0 and episode.error is None:
        return passed(NAME, [episode.describe()], data)
    evidence = [episode.describe()]
    if episode.error:
        evidence.append(f"the oracle agent failed: {episode.error}")
    if episode.verdict is None:
        evidence.append(f"the episode ended without a verdict (outcome {episode.outcome!r})")
    elif episode.verdict.feedback:
        evidence.append(f"feedback: {episode.verdict.feedback}")
    return failed(NAME, "broken", evidence, data)


CHECK = register_check(
    Check(
        name=NAME,
        status="broken",
        title="the oracle's tool calls score 1.0",
        fix_hint=(
            "Make the oracle agree with the grader: compute `expected` and the oracle's submitted "
            "answer from the same ground-truth SQL (never type numbers), keep the oracle's final "
            "`submit` in the answer format the instruction asks for, and for dbt tasks make the "
            "oracle's files rebuild the reference exactly (run the oracle through Env in a test)."
        ),
        run=run,
    )
)
