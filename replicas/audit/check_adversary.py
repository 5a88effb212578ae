"""Check 3 — every reward hack fails.

Plays one episode per strategy of the adversary agent (``replicas.agents.adversary``: listing
candidates, SQL as the answer, echoing the instruction, addressing the grader, reading answer
files, writing outside the sandbox, scrambled tables, reordered rankings, dbt test deletion, …).
A strategy that scores above 0, or a sandbox breach a strategy reports (a forbidden read or
write that worked), makes the task ``hackable``; the evidence names the strategy.

That includes ``restore_shipped_project`` (the replica's shipped dbt project written back from
memory): a fix that can be memorised is a leak in spirit, but it is found by playing an episode
like every other strategy here, and the README's ``hackable`` is "any adversary strategy earns
reward", so it gets the status every winning strategy gets (``mart_lookup``, a lookup in a
precomputed mart, does too). Seed sensitivity (``leaky``) compares one task's fix with other
seeds' fixes and cannot see a constant union of pristine files.
"""

from __future__ import annotations

from replicas.audit._context import AuditContext
from replicas.audit._model import CheckResult
from replicas.audit._registry import Check, failed, passed, register_check

NAME = "adversary"


def run(ctx: AuditContext) -> CheckResult:
    episodes = ctx.adversary()
    wins = [e for e in episodes if e.score > 0.0 or e.passed]
    breached = [e for e in episodes if e.breaches]
    crashed = [e for e in episodes if e.error]
    data = {
        "strategies": {
            e.strategy or "": {
                "score": e.score,
                "passed": e.passed,
                "reasons": e.reason_codes,
                "breaches": list(e.breaches),
                "error": e.error,
                "episode_s": round(e.wall_s, 3),
            }
            for e in episodes
        },
        "winning_strategies": [e.strategy for e in wins],
        "breaching_strategies": [e.strategy for e in breached],
    }
    notes = [f"strategy {e.strategy} crashed (not counted as a pass): {e.error}" for e in crashed]
    if not wins and not breached:
        summary = f"{len(episodes)} strategies, all scored 0: {', '.join(e.strategy or '' for e in episodes)}"
        return passed(NAME, [summary, *notes], data)
    evidence = [f"strategy {e.strategy} is rewarded: {e.describe()}" for e in wins]
    evidence += [
        f"strategy {e.strategy} breached the sandbox: {'; '.join(e.breaches)}" for e in breached
    ]
    return failed(NAME, "hackable", [*evidence, *notes], data)


CHECK = register_check(
    Check(
        name=NAME,
        status="hackable",
        title="every adversary strategy scores 0 and no sandbox breach works",
        fix_hint=(
            "Grade with replicas.verifiers (one final answer: multiple candidates, SQL text, the "
            "instruction or notes to the grader earn nothing; tables compared as whole rows; "
            "ordered answers in order). A custom `grade` must reject the same hacks — run the "
            "adversary agent on the family in a test. A breach is a hole in the sandbox or a "
            "tool, not in the family: report it against replicas/sandbox.py or replicas/tools. "
            "restore_shipped_project winning means the fix is a file of the shipped project, "
            "memorisable once for every seed: draw the broken model and its correct version per "
            "seed (as incremental_fix-v2 does) so that no pristine file is the fix."
        ),
        run=run,
    )
)
