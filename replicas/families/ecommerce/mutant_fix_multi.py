"""``ecommerce.mutant_fix_multi-v1``: fix 2–3 factory-made bugs in different layers at once.

Task ``k`` on seed ``s`` is combination ``k`` of that seed's factory survivors
(``replicas.factory.combine``, :data:`~replicas.factory.combine.DEFAULT_SPEC`): two or three
mutants of the ecommerce dbt project, each a survivor of ``ecommerce.mutant_fix-v1``'s funnel,
in different layers (staging / intermediate / marts), that share a graded mart. The combination
was validated by execution: the project with every mutant builds, the mart differs from the
pristine one on the visible data and on a hidden dataset, and restoring any one or more (but not
all) of the broken models still leaves it different on both, so every defect matters and fixing
one is never enough. Every broken model is written into the sandbox's project; the instruction
gives the combined symptom measured on the visible data, never the mutated files, lines or
operators, nor how many files they are in. Grading is the hidden-data rebuild of the mart, as
for ``ecommerce.mutant_fix-v1``; the oracle restores every pristine model.

Combinations are validated at the task's own scale; ``variants(seed)`` counts them at the
default scale (0.01), where the factory screens.
"""

from __future__ import annotations

from replicas.factory.combine import DEFAULT_SPEC, Combination, ComboFunnel
from replicas.factory.funnel import SeedFunnel
from replicas.factory.project import load_project
from replicas.factory.sqltext import apply_edits
from replicas.factory.validate import grading_config
from replicas.families.ecommerce import _hidden_data  # noqa: F401  (registers edge cases)
from replicas.tasks import (
    BuildContext,
    Limits,
    Task,
    TaskBuildError,
    TaskFamily,
    dbt,
    register_family,
    submit,
    write_file,
)
from replicas.tasks.base import DEFAULT_SCALE
from replicas.verifiers.config import VerifierConfig, tolerance_sentence

__all__ = ["MutantFixMulti", "instruction"]

#: Two or three broken models to find; grading rebuilds on every hidden dataset.
LIMITS = Limits(wall_s=900.0)


def instruction(combination: Combination, verifier: VerifierConfig) -> str:
    mart = combination.graded
    return (
        f"A stakeholder reports that the {mart} mart looks wrong. {combination.symptom}\n"
        f"Nothing about {mart}'s documented definition changed: more than one recent edit, in "
        f"different layers of the dbt project, broke it together, and fixing only one of them "
        f"is not enough. Find every bug and fix them all so that {mart} matches its documented "
        f"definition again (models/**/{mart}.yml and the models it builds on). Keep its columns "
        f"and grain. {mart} and the models the bugs affect are currently missing from the "
        "warehouse; build them with the dbt tool to check your fix. Grading rebuilds "
        f"{mart} from your project files on a fresh copy of the raw data you can query AND on "
        "hidden raw datasets of the same schema that you cannot see (other data, and edge cases "
        "such as empty months, NULLs where the schema allows them, duplicates and timestamps on "
        "period boundaries), and compares it row by row with the documented definition on "
        "each: a real fix passes everywhere; values pasted from this data, or logic that only "
        "works on it, fail. When you are done, submit a one-sentence summary of the fixes.\n"
        f"{tolerance_sentence('dbt', verifier)}"
    )


class _CombinedFamily(TaskFamily):
    """A family whose variants are the usable combinations of the replica's factory funnel."""

    def variants(self, seed: int) -> int:
        with (
            SeedFunnel(self.replica, seed, DEFAULT_SCALE) as funnel,
            ComboFunnel(funnel, DEFAULT_SPEC) as combos,
        ):
            return len(combos.combinations())

    def make(self, ctx: BuildContext) -> Task:
        with (
            SeedFunnel(self.replica, ctx.seed, ctx.scale) as funnel,
            ComboFunnel(funnel, DEFAULT_SPEC) as combos,
        ):
            found = combos.combinations()
        if len(found) <= ctx.variant:
            raise TaskBuildError(
                f"{self.name}: seed {ctx.seed} has {len(found)} factory combinations at scale "
                f"{ctx.scale:g}, no variant {ctx.variant}"
            )
        combination = found[ctx.variant]
        project = load_project(self.replica)
        patch: dict[str, str] = {}
        restore = []
        for candidate in combination.candidates:
            pristine = ctx.project_file(candidate.path)
            info = project.models[candidate.model]
            # dbt's raw code is the file without its final newline; the edits' offsets hold in both
            if not pristine.startswith(info.raw) or pristine[len(info.raw) :].strip():
                raise TaskBuildError(
                    f"{candidate.path} differs from the compiled project's raw code"
                )
            patch[candidate.path] = apply_edits(pristine, candidate.edits)
            restore.append(write_file(candidate.path, pristine))
        mart = combination.graded
        verifier = grading_config(project, mart)
        select = " ".join(f"{c.model}+,+{mart}" for c in combination.candidates)
        return ctx.task(
            instruction=instruction(combination, verifier),
            answer_kind="dbt",
            verifier=verifier,
            sandbox_patch=patch,
            oracle=(
                *restore,
                dbt(f"run --select {select}"),
                submit(f"Restored the broken logic upstream of {mart}."),
            ),
            limits=LIMITS,
            metadata={
                "graded": mart,
                "caught_by_tests": bool(combination.outcome.caught),
                "candidates": [c.index for c in combination.candidates],
                "layers": [c.layer for c in combination.candidates],
            },
        )


@register_family
class MutantFixMulti(_CombinedFamily):
    name = "ecommerce.mutant_fix_multi-v1"
    replica = "ecommerce"
    description = (
        "Fix two or three factory-made bugs in different layers of the ecommerce dbt project, "
        "described only by their combined symptom; graded by rebuild on the visible and hidden "
        "data."
    )
    difficulty = "hard"
