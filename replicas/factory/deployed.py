"""The funnel's survivors screened again under the seed's deployment (``-v2`` fix families).

A survivor of the seed funnel (``replicas.factory.funnel``) broke the *shipped* project. Under
the seed's deployment (``replicas.factory.deploy``: the seed's business rules, applied to the
SQL and the docs) it becomes a task only when

1. ``rules_matter``: the deployment changes the graded mart on the visible data - so writing the
   kit's shipped files back (the restore-from-memory hack) gives the wrong mart, whether or not
   the agent also writes back ``dbt_project.yml`` (a rule in its vars survives a restore of the
   model files alone, so the mart must differ both ways);
2. ``rules_test_clean``: the deployed project passes its own data tests on the visible data (a
   rule that broke a test would look like a second bug);
3. ``still_breaks``: the mutant, with the seed's rules applied to its file when it carries any,
   still changes the graded mart against the *deployed* one, on the visible data and on at
   least one hidden dataset (a rule can mask a mutant);
4. ``describable``: the difference can be told as a symptom (measured against the deployed mart).

Survivor ``k`` of the ``-v2`` family is the ``k``-th survivor that passes, in the seed funnel's
order. Outcomes are cached beside the seed funnel's (``$REPLICAS_HOME/factory``), keyed by the
funnel's key, this code and the deployment.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import duckdb

from replicas.factory.candidates import Candidate
from replicas.factory.combine import Combination, ComboFunnel, describe_combination
from replicas.factory.deploy import Deployment, affected, deployment, inline_reference
from replicas.factory.funnel import OutcomeCache, SeedFunnel, Survivor, code_key
from replicas.factory.project import ProjectInfo, load_project
from replicas.factory.symptom import describe
from replicas.factory.validate import Evaluator
from replicas.paths import replicas_home

__all__ = [
    "DEPLOYED_STAGES",
    "Deployed",
    "DeployedCombination",
    "DeployedComboFunnel",
    "DeployedFunnel",
    "DeployedOutcome",
    "DeployedSurvivor",
    "screen",
    "screen_defects",
]

DEPLOYED_STAGES: tuple[str, ...] = (
    "survivors",
    "rules_matter",
    "rules_test_clean",
    "still_breaks",
    "describable",
)
_REF_SCHEMA = "factory_ref"
#: Survivors screened per round while looking for the first ``limit`` that pass.
_BATCH = 6


@dataclass
class DeployedOutcome:
    """What screening one survivor under the deployment found (JSON-serialisable)."""

    index: int
    key: str
    stage: str = "survivors"
    error: str | None = None
    facts: dict[str, Any] = field(default_factory=dict)
    caught: list[dict[str, Any]] = field(default_factory=list)
    hidden_hits: list[str] = field(default_factory=list)

    @property
    def kept(self) -> bool:
        return self.stage == DEPLOYED_STAGES[-1]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DeployedOutcome:
        return cls(**data)


@dataclass(frozen=True)
class Deployed:
    """A ``-v2`` variant: v1's defects (one survivor, or a combination of them), the seed's
    rules, and the symptom measured under them."""

    number: int
    base: Survivor | Combination
    deployment: Deployment
    outcome: DeployedOutcome
    symptom: str
    reference_sql: str

    @property
    def graded(self) -> str:
        return self.base.graded

    @property
    def candidates(self) -> tuple[Candidate, ...]:
        return self.base.candidates


#: A ``mutant_fix-v2`` variant (one survivor) and a ``mutant_fix_multi-v2`` one (a combination).
DeployedSurvivor = Deployed
DeployedCombination = Deployed


def screen(ev: Evaluator, survivor: Survivor, dep: Deployment) -> DeployedOutcome:
    """Screen ``survivor`` under ``dep`` (the stages in the module's docstring)."""
    cand = survivor.candidate
    out = DeployedOutcome(index=cand.index, key=cand.key)
    return screen_defects(ev, (cand,), survivor.graded, dep, out)


def screen_defects(
    ev: Evaluator,
    candidates: Sequence[Candidate],
    mart: str,
    dep: Deployment,
    out: DeployedOutcome,
    *,
    each_defect: bool = False,
) -> DeployedOutcome:
    """Screen the broken models ``candidates`` (graded on ``mart``) under ``dep``, filling
    ``out``. ``each_defect``: also require that with any proper, non-empty subset of them left
    broken (the others at the seed's right text) the mart still differs from the deployed one on
    the visible data and on a hidden dataset - a combination whose defects each matter."""
    project = ev.project
    if not affected(project, sorted(dep.models), mart):
        return out  # no rule upstream of the mart: the shipped files would pass
    mutants: dict[str, str] = {}
    for cand in candidates:
        mutant = dep.apply(cand.model, cand.compiled_mutant, compiled=True)
        if mutant is None or dep.apply(cand.model, cand.raw_mutant) is None:
            out.error = f"the mutation of {cand.model} overlaps a deployment rule's text"
            return out
        mutants[cand.model] = mutant
    changed_models = sorted({*dep.models, *mutants})
    # the visible data runs the project's tests too, so every mart they compare is rebuilt
    full = [m for m in _plan_order(project) if any(m in ev.chain(c) for c in changed_models)]
    chain = affected(project, changed_models, mart)
    subsets = (
        [
            dict(sub)
            for size in range(len(mutants) - 1, 0, -1)
            for sub in itertools.combinations(sorted(mutants.items()), size)
        ]
        if each_defect
        else []
    )
    partial_hits = [0] * len(subsets)
    try:
        for name, _ in ev.datasets:
            visible = name == "visible"
            con = ev.connection(name)
            ev.rebuild_with(con, dep.models, full if visible else chain)
            if visible:
                if not ev.differs(con, mart):
                    return out  # the shipped project gives this mart
                clean = not ev.failing_tests(con, full)
                reference = ev.keep(con, mart, _REF_SCHEMA)
                if affected(project, sorted(dep.restored), mart):
                    # the shipped model files under the seed's dbt_project.yml
                    ev.rebuild_with(con, dep.restored, chain)
                    if not ev.differs(con, mart, want=reference):
                        return out
                out.stage = "rules_matter"
                if not clean:
                    return out
                out.stage = "rules_test_clean"
            else:
                reference = ev.keep(con, mart, _REF_SCHEMA)
            for i, subset in enumerate(subsets):
                ev.rebuild_with(con, {**dep.models, **subset}, chain)
                if ev.differs(con, mart, want=reference):
                    partial_hits[i] += 1
                elif visible:
                    return out  # fixing the other defects is enough on the visible data
            ev.rebuild_with(con, {**dep.models, **mutants}, full if visible else chain)
            changed = ev.differs(con, mart, want=reference)
            if visible:
                if not changed:
                    return out
                out.facts = ev.symptom(con, mart, want=reference)
                out.caught = ev.failing_tests(con, full)
            elif changed:
                out.hidden_hits.append(name)
    except duckdb.Error as exc:
        out.error = " ".join(str(exc).split())[:300]
        return out
    # on the visible data and at least one hidden dataset, for the whole set and every subset
    if not out.hidden_hits or any(hits < 2 for hits in partial_hits):
        return out
    out.stage = "still_breaks"
    models = [c.model for c in candidates]
    if len(candidates) == 1:
        text = describe(out.facts, out.caught, models[0])
    else:
        text = describe_combination(out.facts, out.caught, models)
    if text is not None:
        out.stage = "describable"
    return out


def _plan_order(project: ProjectInfo) -> list[str]:
    return [s.unique_id.rsplit(".", 1)[-1] for s in project.plan.models]


def _screen_key(funnel_key: str, dep: Deployment) -> str:
    """A deployed screen's cache key: the funnel it screens, this code and the deployment."""
    parts = [funnel_key, code_key("replicas.factory.deployed"), dep.key]
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:24]


class DeployedFunnel(OutcomeCache[int, DeployedOutcome]):
    """The seed funnel's survivors screened under the seed's deployment, lazily, disk-cached."""

    def __init__(self, funnel: SeedFunnel, *, cache: bool = True) -> None:
        self.funnel = funnel
        self.replica = funnel.replica
        self.seed = funnel.seed
        self.scale = funnel.scale
        self.deployment = deployment(funnel.replica, funnel.seed)
        key = _screen_key(funnel.key, self.deployment)
        path = (
            replicas_home()
            / "factory"
            / self.replica
            / f"s{self.seed}-x{self.scale:g}-deployed-{key}.json"
        )
        self._open_cache(path, key, self.replica, self.seed, self.scale, cache)

    def _stored(self, raw: dict[str, Any]) -> tuple[int, DeployedOutcome] | None:
        outcome = DeployedOutcome.from_dict(raw)
        cands = self.funnel.candidates
        if 0 <= outcome.index < len(cands) and cands[outcome.index].key == outcome.key:
            return outcome.index, outcome
        return None

    def _new_evaluator(self) -> Evaluator:
        return Evaluator(self.replica, self.seed, self.scale)

    def outcome(self, survivor: Survivor) -> DeployedOutcome:
        return self._validated(
            survivor.candidate.index, lambda ev: screen(ev, survivor, self.deployment)
        )

    def screened(self, limit: int | None = None) -> list[tuple[Survivor, DeployedOutcome]]:
        """Every survivor screened so far with its outcome, until ``limit`` have passed (all
        survivors when ``limit`` is None)."""
        out: list[tuple[Survivor, DeployedOutcome]] = []
        kept = 0
        asked = 0
        while limit is None or kept < limit:
            asked += _BATCH if limit is not None else 10**9
            survivors = self.funnel.survivors(limit=asked)
            for survivor in survivors[len(out) :]:
                outcome = self.outcome(survivor)
                out.append((survivor, outcome))
                kept += outcome.kept
                if limit is not None and kept >= limit:
                    break
            if len(survivors) < asked:
                break
        self.flush()
        return out

    def survivors(self, limit: int | None = None) -> list[DeployedSurvivor]:
        """The survivors that pass, numbered 0, 1, … (at least the first ``limit``)."""
        project = load_project(self.replica)
        out: list[DeployedSurvivor] = []
        for survivor, outcome in self.screened(limit):
            if not outcome.kept:
                continue
            text = describe(outcome.facts, outcome.caught, survivor.candidate.model)
            reference = inline_reference(project, survivor.graded, self.deployment.models)
            assert text is not None and reference is not None  # kept means both exist
            out.append(Deployed(len(out), survivor, self.deployment, outcome, text, reference))
            if limit is not None and len(out) >= limit:
                break
        return out


class DeployedComboFunnel(OutcomeCache[str, DeployedOutcome]):
    """The seed's usable combinations screened under its deployment, each defect required to
    matter against the deployed mart; lazily, disk-cached beside the combinations'."""

    flush_every = 5

    def __init__(self, combos: ComboFunnel) -> None:
        self.combos = combos
        funnel = combos.funnel
        self.replica = funnel.replica
        self.seed = funnel.seed
        self.scale = funnel.scale
        self.deployment = deployment(funnel.replica, funnel.seed)
        key = _screen_key(combos.key, self.deployment)
        path = combos.path.with_name(f"{combos.path.stem}-deployed-{key}.json")
        self._open_cache(path, key, self.replica, self.seed, self.scale, funnel.cache)

    def _stored(self, raw: dict[str, Any]) -> tuple[str, DeployedOutcome]:
        outcome = DeployedOutcome.from_dict(raw)
        return outcome.key, outcome

    def _new_evaluator(self) -> Evaluator:
        return Evaluator(self.replica, self.seed, self.scale)

    def outcome(self, combo: Combination) -> DeployedOutcome:
        key = combo.outcome.key

        def run(ev: Evaluator) -> DeployedOutcome:
            out = DeployedOutcome(index=combo.candidates[0].index, key=key)
            return screen_defects(
                ev, combo.candidates, combo.graded, self.deployment, out, each_defect=True
            )

        return self._validated(key, run)

    def screened(self) -> list[tuple[Combination, DeployedOutcome]]:
        out = [(combo, self.outcome(combo)) for combo in self.combos.combinations()]
        self.flush()
        return out

    def combinations(self) -> list[DeployedCombination]:
        """The v1 combinations that pass, numbered 0, 1, … in v1's order."""
        project = load_project(self.replica)
        out: list[DeployedCombination] = []
        for combo, outcome in self.screened():
            if not outcome.kept:
                continue
            models = [c.model for c in combo.candidates]
            text = describe_combination(outcome.facts, outcome.caught, models)
            reference = inline_reference(project, combo.graded, self.deployment.models)
            assert text is not None and reference is not None  # kept means both exist
            out.append(Deployed(len(out), combo, self.deployment, outcome, text, reference))
        return out
