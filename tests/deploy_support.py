"""Checks shared by the deployment tests of the kit's own and imported projects."""

from __future__ import annotations

from replicas.factory.deploy import deployed_with, knobs_for
from replicas.factory.validate import Evaluator


def assert_every_alternative_tests_clean_and_moves_a_mart(replica: str, seed: int) -> None:
    """Each alternative of each knob of ``replica``, alone: on the visible data and every hidden
    dataset the models downstream of it pass the project's data tests (a rule that broke a test
    would look like a second bug); on the visible data it changes at least one mart."""
    with Evaluator(replica, seed) as ev:
        order = [s.unique_id.rsplit(".", 1)[-1] for s in ev.project.plan.models]
        for knob in knobs_for(replica):
            for choice in knob.choices:
                deployed = deployed_with(replica, seed, [(knob, choice)])
                chain = {m for model in deployed.models for m in ev.chain(model)}
                full = [m for m in order if m in chain]
                for name, _ in ev.datasets:
                    con = ev.connection(name)
                    ev.rebuild_with(con, deployed.models, full)
                    assert ev.failing_tests(con, full) == [], (knob.name, choice.label, name)
                    if name == "visible":
                        moved = [m for m in full if m in ev.project.marts and ev.differs(con, m)]
                        assert moved, (knob.name, choice.label)
