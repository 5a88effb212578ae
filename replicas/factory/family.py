"""The scaffolding every factory "fix the bug" family shares, whatever drew its mutants.

A variant of such a family is a validated set of broken models: one survivor of a seed's funnel
(``<replica>.mutant_fix-v1``, ecommerce's and every imported project's) or a combination of
survivors in different layers (``<replica>.mutant_fix_multi-v1``). Building the task is the same
for all of them, so it is written once here: each broken model is patched into the sandbox's
project (after checking the pristine file is the compiled project's raw code, so the edits'
offsets hold), grading rebuilds the graded mart on the visible and hidden data
(:func:`~replicas.factory.validate.grading_config`), and the oracle restores every pristine model
and runs them with the mart. A family says only where its variants come from, how its
instruction reads and what its metadata records.

These families are published (``ecommerce.mutant_fix-v1``, ``ecommerce.mutant_fix_multi-v1``,
imported projects' ``mutant_fix-v1``): a change here must leave their tasks byte-identical.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from replicas.factory.candidates import Candidate
from replicas.factory.combine import DEFAULT_SPEC, Combination, ComboFunnel
from replicas.factory.deployed import Deployed, DeployedComboFunnel, DeployedFunnel
from replicas.factory.funnel import SeedFunnel, Survivor
from replicas.factory.project import ProjectInfo, load_project
from replicas.factory.sqltext import apply_edits
from replicas.factory.validate import grading_config
from replicas.tasks import (
    BuildContext,
    Limits,
    Task,
    TaskBuildError,
    TaskFamily,
    VerifierConfig,
    dbt,
    submit,
    write_file,
)
from replicas.tasks.base import DEFAULT_SCALE

__all__ = [
    "CombinedFixFamily",
    "Defects",
    "DeployedCombinedFixFamily",
    "DeployedFixFamily",
    "MutantFixFamily",
    "SurvivorFixFamily",
]


class Defects(Protocol):
    """What a variant is made of: broken models, the mart they change, the stakeholder's report."""

    @property
    def candidates(self) -> tuple[Candidate, ...]: ...

    @property
    def graded(self) -> str: ...

    @property
    def symptom(self) -> str: ...


D = TypeVar("D", bound=Defects)


class MutantFixFamily(TaskFamily, Generic[D]):
    """A family whose variant ``k`` on seed ``s`` is the ``k``-th defect set the factory drew."""

    difficulty = "hard"
    #: Grading rebuilds the mart on the visible data and every hidden dataset.
    limits: ClassVar[Limits] = Limits(wall_s=600.0)
    #: What the variants are called in the error for a variant the seed does not have.
    found_what: ClassVar[str] = "factory survivors"

    def found(self, seed: int, scale: float, limit: int | None) -> Sequence[D]:
        """The seed's defect sets in order (at least the first ``limit`` when there are)."""
        raise NotImplementedError

    def task_instruction(self, defects: D, verifier: VerifierConfig) -> str:
        raise NotImplementedError

    def task_metadata(self, defects: D) -> dict[str, Any]:
        raise NotImplementedError

    def variants(self, seed: int) -> int:
        return len(self.found(seed, DEFAULT_SCALE, None))

    def has_variant(self, seed: int, variant: int) -> bool:
        """Validates the seed's candidates only up to survivor ``variant`` (numbering depends
        on earlier candidates alone), not all of them as :meth:`variants` must."""
        return variant >= 0 and len(self.found(seed, DEFAULT_SCALE, variant + 1)) > variant

    def make(self, ctx: BuildContext) -> Task:
        found = self.found(ctx.seed, ctx.scale, ctx.variant + 1)
        if len(found) <= ctx.variant:
            raise TaskBuildError(
                f"{self.name}: seed {ctx.seed} has {len(found)} {self.found_what} at scale "
                f"{ctx.scale:g}, no variant {ctx.variant}"
            )
        defects = found[ctx.variant]
        project = load_project(self.replica)
        patch, pristine = self.broken_files(ctx, project, defects)
        restore = [write_file(path, text) for path, text in pristine.items()]
        mart = defects.graded
        verifier = self.task_verifier(project, defects)
        return ctx.task(
            instruction=self.task_instruction(defects, verifier),
            answer_kind="dbt",
            verifier=verifier,
            sandbox_patch=patch,
            withheld=self.task_withheld(project),
            oracle=(
                *restore,
                dbt(f"run --select {self.oracle_select(defects)}"),
                submit(f"Restored the broken logic upstream of {mart}."),
            ),
            limits=self.limits,
            metadata=self.task_metadata(defects),
        )

    def broken_files(
        self, ctx: BuildContext, project: ProjectInfo, defects: D
    ) -> tuple[dict[str, str], dict[str, str]]:
        """The sandbox's patch (path -> broken text) and the right text of each broken file."""
        patch: dict[str, str] = {}
        pristine_files: dict[str, str] = {}
        for candidate in defects.candidates:
            pristine = pristine_file(ctx, project, candidate)
            patch[candidate.path] = apply_edits(pristine, candidate.edits)
            pristine_files[candidate.path] = pristine
        return patch, pristine_files

    def task_verifier(self, project: ProjectInfo, defects: D) -> VerifierConfig:
        return grading_config(project, defects.graded)

    def task_withheld(self, project: ProjectInfo) -> tuple[str, ...]:
        """Models the sandbox's warehouse leaves out (besides the graded and patched ones)."""
        return ()

    def oracle_select(self, defects: D) -> str:
        return " ".join(f"{c.model}+,+{defects.graded}" for c in defects.candidates)


def pristine_file(ctx: BuildContext, project: ProjectInfo, candidate: Candidate) -> str:
    """The shipped file ``candidate`` mutates, checked to be the compiled project's raw code
    (so the edits' offsets hold)."""
    pristine = ctx.project_file(candidate.path)
    info = project.models[candidate.model]
    # dbt's raw code is the file without its final newline; the edits' offsets hold in both
    if not pristine.startswith(info.raw) or pristine[len(info.raw) :].strip():
        raise TaskBuildError(f"{candidate.path} differs from the compiled project's raw code")
    return pristine


class SurvivorFixFamily(MutantFixFamily[Survivor]):
    """Variants are the survivors of the replica's factory funnel, one broken model each."""

    def found(self, seed: int, scale: float, limit: int | None) -> Sequence[Survivor]:
        with SeedFunnel(self.replica, seed, scale) as funnel:
            return funnel.survivors(limit=limit)

    def task_metadata(self, defects: Survivor) -> dict[str, Any]:
        return {
            "graded": defects.graded,
            "caught_by_tests": bool(defects.outcome.caught),
            "candidate": defects.candidate.index,
        }


class CombinedFixFamily(MutantFixFamily[Combination]):
    """Variants are the usable combinations of the replica's factory funnel
    (:data:`~replicas.factory.combine.DEFAULT_SPEC`): 2–3 broken models in different layers."""

    #: Two or three broken models to find; grading rebuilds on every hidden dataset.
    limits = Limits(wall_s=900.0)
    found_what = "factory combinations"

    def found(self, seed: int, scale: float, limit: int | None) -> Sequence[Combination]:
        # every draw before variant k decides its number, so there is no cheaper prefix
        with (
            SeedFunnel(self.replica, seed, scale) as funnel,
            ComboFunnel(funnel, DEFAULT_SPEC) as c,
        ):
            return c.combinations()

    def task_metadata(self, defects: Combination) -> dict[str, Any]:
        return {
            "graded": defects.graded,
            "caught_by_tests": bool(defects.outcome.caught),
            "candidates": [c.index for c in defects.candidates],
            "layers": [c.layer for c in defects.candidates],
        }


class _DeployedBase(MutantFixFamily[Deployed]):
    """What ``-v2`` fix families share: the seed's deployed project in the sandbox, a raw-only
    warehouse, grading against the deployed mart, the oracle writing the deployed files."""

    def broken_files(
        self, ctx: BuildContext, project: ProjectInfo, defects: Deployed
    ) -> tuple[dict[str, str], dict[str, str]]:
        deployed = defects.deployment
        patch = dict(deployed.files)
        right: dict[str, str] = {}
        for candidate in defects.candidates:
            pristine = pristine_file(ctx, project, candidate)
            broken = deployed.apply(candidate.model, apply_edits(pristine, candidate.edits))
            if broken is None:  # the screen refuses overlapping mutants
                raise TaskBuildError(f"{candidate.path}: the mutation overlaps a business rule")
            patch[candidate.path] = broken
            right[candidate.path] = deployed.files.get(candidate.path, pristine)
        return patch, right

    def task_verifier(self, project: ProjectInfo, defects: Deployed) -> VerifierConfig:
        config = grading_config(project, defects.graded)
        return replace(config, reference_sql={defects.graded: defects.reference_sql})

    def task_withheld(self, project: ProjectInfo) -> tuple[str, ...]:
        return tuple(sorted(project.models))

    def oracle_select(self, defects: Deployed) -> str:
        return f"+{defects.graded}"


class DeployedCombinedFixFamily(_DeployedBase):
    """``mutant_fix_multi-v2``: the v1 combinations under the seed's deployment, kept when the
    rules change the mart (against the shipped files too), every defect still matters against
    the deployed mart, and the symptom can be told (``replicas.factory.deployed``)."""

    limits = Limits(wall_s=900.0)
    found_what = "factory combinations under the seed's deployment"

    def found(self, seed: int, scale: float, limit: int | None) -> Sequence[Deployed]:
        with (
            SeedFunnel(self.replica, seed, scale) as funnel,
            ComboFunnel(funnel, DEFAULT_SPEC) as combos,
            DeployedComboFunnel(combos) as deployed,
        ):
            return deployed.combinations()

    def task_metadata(self, defects: Deployed) -> dict[str, Any]:
        return {
            "graded": defects.graded,
            "caught_by_tests": bool(defects.outcome.caught),
            "candidates": [c.index for c in defects.candidates],
            "layers": [c.layer for c in defects.candidates],
            "combination": defects.base.number,
            "rules": defects.deployment.rules(),
        }


class DeployedFixFamily(_DeployedBase):
    """``-v2``: the survivors under the seed's deployment (``replicas.factory.deployed``).

    The sandbox's project is the seed's deployed project (the shipped one with the seed's
    business rules in its SQL and docs) with the mutant on top; its warehouse holds only the raw
    data, so which relations are missing says nothing about where the bug is. Grading compares
    with the deployed mart (``VerifierConfig.reference_sql``), so the shipped file written back
    fails; the oracle writes the deployed file back.
    """

    found_what = "factory survivors under the seed's deployment"

    def found(self, seed: int, scale: float, limit: int | None) -> Sequence[Deployed]:
        with SeedFunnel(self.replica, seed, scale) as funnel, DeployedFunnel(funnel) as dep:
            return dep.survivors(limit=limit)

    def task_metadata(self, defects: Deployed) -> dict[str, Any]:
        return {
            "graded": defects.graded,
            "caught_by_tests": bool(defects.outcome.caught),
            "candidate": defects.candidates[0].index,
            "survivor": defects.base.number,
            "rules": defects.deployment.rules(),
        }
