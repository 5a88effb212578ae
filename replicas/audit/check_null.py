"""Check 2 — the null agent fails: an empty submission scores 0.

If submitting nothing earns reward, the grader does not measure the task (a dbt task whose
"broken" project already matches the reference, a grader that passes on missing input); the
task is ``hackable``.
"""

from __future__ import annotations

from replicas.audit._context import AuditContext
from replicas.audit._model import CheckResult
from replicas.audit._registry import Check, failed, passed, register_check

NAME = "null"


def run(ctx: AuditContext) -> CheckResult:
    episode = ctx.null()
    data = {
        "score": episode.score,
        "passed": episode.passed,
        "reasons": episode.reason_codes,
        "episode_s": round(episode.wall_s, 3),
    }
    if episode.score == 0.0 and not episode.passed:
        return passed(NAME, [episode.describe()], data)
    return failed(NAME, "hackable", [f"an empty answer earns reward: {episode.describe()}"], data)


CHECK = register_check(
    Check(
        name=NAME,
        status="hackable",
        title="an empty submission scores 0",
        fix_hint=(
            "Reject empty answers in the grader (`no_answer`), and for dbt tasks make sure the "
            "sandbox_patch really changes what the target model computes on this seed (check it "
            "at build time with evidence SQL, as dbt_fix does)."
        ),
        run=run,
    )
)
