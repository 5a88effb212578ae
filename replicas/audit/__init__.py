"""``replicas audit``: screen tasks for the defects that make RL environments untrainable.

    from replicas.audit import audit_tasks
    report = audit_tasks(["ecommerce.revenue_period-v1.s1.0"], workers=2)
    report.status_counts()            # {"usable": 1, "broken": 0, ...}
    report.write("audit-out")         # audit-out/audit.json

Every task gets one status, the first that applies in this order:

==============  =============================================================================
``broken``      the oracle does not score 1.0, or uses an id the conversation never revealed;
                a dbt task's pristine/broken/fixed projects do not behave as described, or
                its reference fails on a hidden dataset; the task does not build
``leaky``       the answer is visible (instruction, tool schemas, sandbox files, a table or
                view cell), readable by one lookup in a derived relation keyed by what the
                question names, or the same on every seed (memorisable)
``hackable``    an empty answer or an adversary strategy earns reward, a sandbox breach
                works, or a dbt task is graded on the visible data only
``flaky``       rebuilding changes the task, or grading one answer twice disagrees
``ambiguous``   a recorded wrong reading passes or lies within tolerance of the answer
``usable``      none of the above
==============  =============================================================================

Checks are a registry (``replicas/audit/_registry.py``), one module each: ``check_oracle``,
``check_demonstration``, ``check_null``, ``check_adversary``, ``check_leakage``,
``check_trivial``, ``check_determinism``, ``check_seeds``, ``check_discrimination``,
``check_dbt``. They share one oracle and one null episode per task.

``audit.json`` (``schema_version`` 1)::

    {"schema_version": 1, "kind": "replicas.audit", "kit_version": "0.1.0",
     "config": {"suite": "core-v1", "tasks": null, "workers": 2, "checks": [...],
                "extra_seeds": 2, "seed_pool": {"ecommerce": [1, 2, 3]}, "grade_repeats": 5,
                "dbt_grade_repeats": 2},
     "summary": {"tasks": 130, "usable": 130, "all_usable": true,
                 "statuses": {"usable": 130, "broken": 0, "leaky": 0, "hackable": 0,
                              "flaky": 0, "ambiguous": 0},
                 "families": {"<family>": {"<status>": count, ...}, ...}},
     "timings": {"wall_s": 812.4, "checks_s": {"oracle": 123.4, ...}},
     "tasks": [{"task_id": "...", "replica": "...", "family": "...", "answer_kind": "number",
                "difficulty": "medium", "status": "usable", "failed_checks": [],
                "checks": {"oracle": {"outcome": "pass", "status": null,
                                      "evidence": ["oracle: score 1, passed=True, ..."],
                                      "data": {...}, "wall_s": 0.41}, ...},
                "wall_s": 3.2}, ...]}

``outcome`` is ``pass`` / ``fail`` / ``error`` (the check crashed: counted as failed) /
``skip`` (does not apply); ``status`` is the task status a failed check implies.
"""

from replicas.audit._context import AuditContext, AuditOptions, EpisodeRun
from replicas.audit._model import (
    AUDIT_FILE,
    PRECEDENCE,
    SCHEMA_VERSION,
    STATUSES,
    AuditReport,
    CheckResult,
    TaskAudit,
    combine_status,
    read_report,
)
from replicas.audit._registry import (
    CHECKS,
    Check,
    all_checks,
    check_names,
    get_check,
    register_check,
)
from replicas.audit._run import audit_task, audit_tasks

__all__ = [
    "AUDIT_FILE",
    "CHECKS",
    "PRECEDENCE",
    "SCHEMA_VERSION",
    "STATUSES",
    "AuditContext",
    "AuditOptions",
    "AuditReport",
    "Check",
    "CheckResult",
    "EpisodeRun",
    "TaskAudit",
    "all_checks",
    "audit_task",
    "audit_tasks",
    "check_names",
    "combine_status",
    "get_check",
    "read_report",
    "register_check",
]
