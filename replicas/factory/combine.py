"""Combined mutants: 2–3 survivors of a seed, in different layers, broken in one project.

A *combination* takes survivors of the seed's funnel (``replicas.factory.funnel``) whose
mutated models lie in different layers (staging / intermediate / marts) and share a graded mart
they each change on the visible data. It is validated by execution like a single candidate:

``candidates`` (a combination tried) → ``built`` (the project with every mutant runs) →
``changed_output`` (a shared graded mart differs from the pristine one, by the grader's own
comparison, on the visible data and on a hidden dataset) → ``each_defect_matters`` (restoring
any one or more, but not all, of the mutated models still leaves that mart different on the
visible data and on a hidden dataset: no defect masks or cancels another, and fixing one is
never enough) → ``unique`` (no earlier combination of the seed gave the same output on that
mart) → ``usable`` (the combined difference can be told as a symptom).

Which combinations are tried is seed-dependent: the pool is the seed's first
:attr:`CombineSpec.pool` survivors; the combinations of each size whose members lie in distinct
layers and share a mart are shuffled by a stream of the seed, then tried in that order; a member
of a usable combination is not reused in another of the same size; at most
:attr:`CombineSpec.max_tries` are tried and :attr:`CombineSpec.max_usable` kept per size.
Usable combinations are numbered in order, size 2 first: task
``<replica>.mutant_fix_multi-v1.s<seed>.<k>`` is combination ``k``. Outcomes are cached next to
the seed funnel's, keyed by its key and this module's code (an outcome depends on the members
only, not on the spec that drew them).
"""

from __future__ import annotations

import hashlib
import itertools
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import duckdb

from replicas.factory.candidates import Candidate
from replicas.factory.funnel import OutcomeCache, SeedFunnel, Survivor, code_key
from replicas.factory.project import load_project
from replicas.factory.symptom import describe
from replicas.factory.validate import Evaluator
from replicas.seeding import table_rng

__all__ = [
    "COMBO_STAGES",
    "DEFAULT_SPEC",
    "Combination",
    "CombineSpec",
    "ComboFunnel",
    "ComboOutcome",
    "count_combo_stages",
]

COMBO_STAGES: tuple[str, ...] = (
    "candidates",
    "built",
    "changed_output",
    "each_defect_matters",
    "unique",
    "usable",
)
_SCHEMA = 1


@dataclass(frozen=True)
class CombineSpec:
    """How combinations are drawn (part of a combined family's definition: never vary it for a
    published family)."""

    sizes: tuple[int, ...] = (2, 3)
    pool: int = 12
    max_tries: int = 10
    max_usable: int = 6

    def __post_init__(self) -> None:
        if not self.sizes or any(s not in (2, 3) for s in self.sizes):
            raise ValueError(f"combination sizes are 2 and/or 3, got {self.sizes!r}")
        if list(self.sizes) != sorted(set(self.sizes)):
            raise ValueError(f"combination sizes must be increasing, got {self.sizes!r}")
        for name in ("pool", "max_tries", "max_usable"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")


#: The spec of ``<replica>.mutant_fix_multi-v1``.
DEFAULT_SPEC = CombineSpec()


@dataclass
class ComboOutcome:
    """What validation found for one combination (JSON-serialisable, cached per seed)."""

    size: int
    members: list[int]  # candidate indices, in the order of the seed's candidates
    key: str
    built: bool = False
    changed_output: bool = False
    each_defect_matters: bool = False
    error: str | None = None
    graded: str | None = None
    signature: str | None = None
    caught: list[dict[str, Any]] = field(default_factory=list)
    symptom: dict[str, Any] = field(default_factory=dict)
    subsets_checked: int = 0
    wall_s: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ComboOutcome:
        return cls(**data)


@dataclass(frozen=True)
class Combination:
    """A usable combination: its members, what validation found and the symptom text."""

    number: int
    members: tuple[Survivor, ...]
    outcome: ComboOutcome
    symptom: str

    @property
    def graded(self) -> str:
        if self.outcome.graded is None:  # usable means a graded mart was found
            raise ValueError("a usable combination has a graded mart")
        return self.outcome.graded

    @property
    def candidates(self) -> tuple[Candidate, ...]:
        return tuple(m.candidate for m in self.members)


def _combo_key(candidates: Sequence[Candidate]) -> str:
    digest = hashlib.sha256("\0".join(c.key for c in candidates).encode()).hexdigest()
    return digest[:16]


class ComboEvaluator(Evaluator):
    """An :class:`Evaluator` that rebuilds with several mutated models at once."""

    def __enter__(self) -> ComboEvaluator:
        return self

    def union_chain(self, models: Iterable[str]) -> list[str]:
        wanted: set[str] = set()
        for model in models:
            wanted.update(self.chain(model))
        order = [s.unique_id.rsplit(".", 1)[-1] for s in self.project.plan.models]
        return [m for m in order if m in wanted]

    def fails_everywhere(self, mutants: Mapping[str, str], chain: Sequence[str], mart: str) -> bool:
        """Whether ``mart`` rebuilt with ``mutants`` differs on the visible data and on at least
        one hidden dataset (what it takes for grading to fail visibly and robustly)."""
        visible = self._con("visible")
        self.rebuild_with(visible, mutants, chain)
        if not self.differs(visible, mart):
            return False
        for name, _ in self.datasets[1:]:
            con = self._con(name)
            try:
                self.rebuild_with(con, mutants, chain)
            except duckdb.Error:
                continue
            if self.differs(con, mart):
                return True
        return False

    def evaluate_combo(self, members: Sequence[Survivor], marts: Sequence[str]) -> ComboOutcome:
        started = time.perf_counter()
        candidates = [m.candidate for m in members]
        outcome = ComboOutcome(
            size=len(members),
            members=[c.index for c in candidates],
            key=_combo_key(candidates),
        )
        mutants = {c.model: c.compiled_mutant for c in candidates}
        chain = self.union_chain(mutants)
        visible = self._con("visible")
        try:
            self.rebuild_with(visible, mutants, chain)
        except duckdb.Error as exc:
            outcome.error = " ".join(str(exc).split())[:300]
            outcome.wall_s = time.perf_counter() - started
            return outcome
        outcome.built = True
        # every non-empty subset of the defects left in place, all of them first
        subsets = [
            subset
            for size in range(len(candidates), 0, -1)
            for subset in itertools.combinations(candidates, size)
        ]
        try:
            for mart in marts:
                sub_chain = self._ancestors_in(chain, [mart])
                if not self.fails_everywhere(mutants, sub_chain, mart):
                    continue
                outcome.changed_output = True
                checked = 1
                for subset in subsets[1:]:
                    checked += 1
                    remaining = {c.model: c.compiled_mutant for c in subset}
                    if not self.fails_everywhere(remaining, sub_chain, mart):
                        break
                else:
                    outcome.each_defect_matters = True
                    outcome.graded = mart
                outcome.subsets_checked += checked
                if outcome.graded is not None:
                    break
        except duckdb.Error as exc:
            outcome.error = " ".join(str(exc).split())[:300]
            outcome.built = False
            outcome.wall_s = time.perf_counter() - started
            return outcome
        if outcome.graded is not None:
            self.rebuild_with(visible, mutants, chain)
            outcome.signature = self.signature(visible, outcome.graded)
            outcome.caught = self.failing_tests(visible, chain)
            outcome.symptom = self.symptom(visible, outcome.graded)
        outcome.wall_s = time.perf_counter() - started
        return outcome


def describe_combination(
    facts: Mapping[str, Any], caught: Sequence[Mapping[str, Any]], models: Sequence[str]
) -> str | None:
    """The stakeholder's report of a combination: the graded mart's symptom, with failing tests
    that name any mutated model (other than the graded mart itself) left out."""
    mart = facts.get("mart")
    hidden = [m for m in models if m != mart]
    shown = [t for t in caught if not any(m in str(t.get("test", "")) for m in hidden)]
    return describe(facts, shown, str(mart)) if mart else None


class ComboFunnel(OutcomeCache[str, ComboOutcome]):
    """The combinations of one seed funnel: drawn, validated lazily, cached on disk."""

    flush_every = 5

    def __init__(self, funnel: SeedFunnel, spec: CombineSpec = DEFAULT_SPEC) -> None:
        self.funnel = funnel
        self.spec = spec
        key = hashlib.sha256(
            "\x1f".join([str(_SCHEMA), funnel.key, code_key("replicas.factory.combine")]).encode()
        ).hexdigest()[:24]
        path = funnel.path.with_name(f"{funnel.path.stem}-combos-{key}.json")
        self._open_cache(path, key, funnel.replica, funnel.seed, funnel.scale, funnel.cache)
        self._pool: list[Survivor] | None = None
        plan = load_project(funnel.replica).plan
        self._order = [s.unique_id.rsplit(".", 1)[-1] for s in plan.models]

    # ---- cache -------------------------------------------------------------------------------

    def _stored(self, raw: dict[str, Any]) -> tuple[str, ComboOutcome]:
        outcome = ComboOutcome.from_dict(raw)
        return outcome.key, outcome

    def _new_evaluator(self) -> ComboEvaluator:
        return ComboEvaluator(self.funnel.replica, self.funnel.seed, self.funnel.scale)

    # ---- drawing -----------------------------------------------------------------------------

    def pool(self) -> list[Survivor]:
        """The seed's first ``spec.pool`` survivors (validated through the seed funnel)."""
        if self._pool is None:
            self._pool = self.funnel.survivors(limit=self.spec.pool)
        return self._pool

    def _marts(self, members: Sequence[Survivor]) -> list[str]:
        """Marts every member changes on the visible data, best first: one a member is graded
        on, then the nearest in the DAG."""
        common = set(members[0].outcome.visible_marts)
        for member in members[1:]:
            common &= set(member.outcome.visible_marts)
        graded = {m.graded for m in members}
        return sorted(common, key=lambda m: (m not in graded, self._order.index(m), m))

    def draws(self, size: int) -> list[tuple[Survivor, ...]]:
        """Every combination of ``size`` pool members in distinct layers that share a changed
        mart, in the seed's order."""
        pool = self.pool()
        eligible = [
            combo
            for combo in itertools.combinations(pool, size)
            if len({m.candidate.layer for m in combo}) == size and self._marts(combo)
        ]
        rng = table_rng(self.funnel.seed, "factory-combine", self.funnel.replica, size)
        return [eligible[int(i)] for i in rng.permutation(len(eligible))]

    # ---- validation --------------------------------------------------------------------------

    def outcome(self, members: Sequence[Survivor]) -> ComboOutcome:
        key = _combo_key([m.candidate for m in members])
        return self._validated(key, lambda ev: ev.evaluate_combo(members, self._marts(members)))

    def _symptom(self, members: Sequence[Survivor], outcome: ComboOutcome) -> str | None:
        return describe_combination(
            outcome.symptom, outcome.caught, [m.candidate.model for m in members]
        )

    def walk(self) -> list[tuple[tuple[Survivor, ...], ComboOutcome, str]]:
        """Every tried combination of every size, in order, with the stage it reached."""
        out: list[tuple[tuple[Survivor, ...], ComboOutcome, str]] = []
        seen: set[tuple[str, str]] = set()
        for size in self.spec.sizes:
            used: set[int] = set()
            tries = usable = 0
            for combo in self.draws(size):
                if tries >= self.spec.max_tries or usable >= self.spec.max_usable:
                    break
                indices = {m.candidate.index for m in combo}
                if indices & used:
                    continue
                tries += 1
                outcome = self.outcome(combo)
                stage = self._stage(combo, outcome, seen)
                if stage == "usable":
                    usable += 1
                    used |= indices
                out.append((combo, outcome, stage))
        self.flush()
        return out

    def _stage(
        self, combo: Sequence[Survivor], outcome: ComboOutcome, seen: set[tuple[str, str]]
    ) -> str:
        if not outcome.built:
            return "candidates"
        if not outcome.changed_output:
            return "built"
        if not outcome.each_defect_matters or outcome.graded is None or not outcome.signature:
            return "changed_output"
        identity = (outcome.graded, outcome.signature)
        if identity in seen:
            return "each_defect_matters"
        seen.add(identity)
        if self._symptom(combo, outcome) is None:
            return "unique"
        return "usable"

    def combinations(self) -> list[Combination]:
        """The usable combinations, numbered 0, 1, … (size 2 first)."""
        out: list[Combination] = []
        for combo, outcome, stage in self.walk():
            if stage == "usable":
                text = self._symptom(combo, outcome)
                if text is None:  # usable means describable
                    raise ValueError("a usable combination has a symptom")
                out.append(Combination(len(out), tuple(combo), outcome, text))
        return out


def count_combo_stages(stages: Iterable[str]) -> dict[str, int]:
    """Combination funnel counts (a stage counts all later ones)."""
    reached = dict.fromkeys(COMBO_STAGES, 0)
    for stage in stages:
        for name in COMBO_STAGES[: COMBO_STAGES.index(stage) + 1]:
            reached[name] += 1
    return reached
