"""The CI gate (`make audit`): the default suite's audit at demo scale is what the README says.

One audit of the whole suite (every check: oracle, null, adversary, leakage, determinism, seed
sensitivity, discrimination, dbt) over two worker processes. The tasks in ``KNOWN_HACKABLE``
must be flagged, by exactly the strategy named; every other task must be usable. A failure
lists every task that is not usable with the checks that failed and their evidence, so the
family at fault is named.
The report is also written to ``$REPLICAS_AUDIT_OUT`` (if set) for inspection.
"""

from __future__ import annotations

import os
import time

import pytest

from replicas.audit import TaskAudit, audit_tasks
from replicas.suite import DEFAULT_SUITE, get_suite

#: the default suite (core-v22); core-v1 stays published, but the checks added with core-v2 flag
#: some of its tasks (README: The audit).
SUITE = DEFAULT_SUITE
#: Tasks of the default suite the audit flags, each with the one strategy that wins it.
#: core-v3 had the five ecommerce.dbt_fix-v2 tasks here (restore_shipped_project); core-v4 swaps
#: them for ecommerce.mutant_fix-v2, which that strategy does not solve (core-v5 to core-v22 keep them):
#: none is expected.
KNOWN_HACKABLE: dict[str, str] = {}

pytestmark = pytest.mark.audit


def _explain(report_tasks: list[TaskAudit]) -> str:
    lines = []
    for audit in report_tasks:
        lines.append(f"{audit.task_id}: {audit.status}")
        for check in audit.failed_checks:
            lines.extend(f"    {check.name} ({check.status}): {e}" for e in check.evidence[:3])
    return "\n".join(lines)


def test_every_core_task_is_usable_but_the_known_hackable() -> None:
    suite = get_suite(SUITE)
    started = time.perf_counter()
    report = audit_tasks(
        suite.task_ids, workers=2, extra_seeds=2, config={"suite": SUITE, "tasks": None}
    )
    elapsed = time.perf_counter() - started
    out = os.environ.get("REPLICAS_AUDIT_OUT")
    if out:
        report.write(out)
    assert len(report.tasks) == len(suite.task_ids)
    assert set(KNOWN_HACKABLE) <= set(suite.task_ids)
    for task_id, strategy in KNOWN_HACKABLE.items():
        audit = report.task(task_id)
        adversary = audit.check("adversary")
        assert audit.status == "hackable", _explain([audit])
        assert adversary.data["winning_strategies"] == [strategy], _explain([audit])
    bad = [a for a in report.not_usable() if a.task_id not in KNOWN_HACKABLE]
    assert not [a.task_id for a in bad], (
        f"{len(bad)} of {len(report.tasks)} core tasks are not usable "
        f"(audit took {elapsed:.0f}s; statuses {report.status_counts()}):\n" + _explain(bad)
    )
