"""``replicas demo`` samples the adversary (one task per family) so the first command finishes in minutes."""

from __future__ import annotations

from replicas.cli.demo import DEMO_AGENTS, DEMO_SAMPLED_AGENTS, DEMO_SUITE, one_task_per_family
from replicas.suite import get_suite
from replicas.tasks import TaskId


def test_the_sample_has_exactly_the_first_task_of_every_family() -> None:
    suite = get_suite(DEMO_SUITE)
    sample = one_task_per_family(DEMO_SUITE)
    families = [TaskId.parse(t).family for t in sample]
    assert len(families) == len(set(families)), "one task per family"
    assert set(families) == {TaskId.parse(t).family for t in suite.task_ids}, "every family"
    for task_id in sample:
        family = TaskId.parse(task_id).family
        first = next(t for t in suite.task_ids if TaskId.parse(t).family == family)
        assert task_id == first
    assert len(sample) < len(suite.task_ids)


def test_only_the_adversary_is_sampled() -> None:
    # The oracle and null agents still screen every task of the demo suite.
    assert {"adversary"} == DEMO_SAMPLED_AGENTS
    assert set(DEMO_AGENTS) >= DEMO_SAMPLED_AGENTS
