"""``ecommerce.mutant_fix-v1``: fix a factory-made bug, reported only by its symptom.

Task ``k`` on seed ``s`` is survivor ``k`` of that seed's factory funnel
(``replicas.factory.funnel``): one of the seed's mutants of the ecommerce dbt project (a join
type, a filter, an aggregate, a window, … broken by a mutation operator, its Jinja intact) that
builds, changes a graded mart on the visible data and on a hidden dataset, is not equivalent to
an earlier mutant of the seed, and whose difference a stakeholder can describe. The broken model
is written into the sandbox's project; the instruction gives the symptom computed from the output
diff (row counts, a month's total, an example row, failing tests), never the mutated file or
line. Grading is the kit's hidden-data rebuild (``replicas.tasks.grading``), as for
``ecommerce.dbt_fix-v2``: the graded mart is rebuilt from the agent's project on the pristine raw
data and on the hidden datasets and compared with the pristine project's mart. The oracle
restores the pristine model.

The survivors are validated at the task's own scale; ``variants(seed)`` counts them at the
default scale (0.01), where the factory screens.
"""

from __future__ import annotations

from replicas.factory.funnel import SeedFunnel, Survivor
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

__all__ = ["MutantFix", "instruction"]

#: Grading rebuilds the mart on the visible data and every hidden dataset (as dbt_fix-v2).
LIMITS = Limits(wall_s=600.0)


def instruction(survivor: Survivor, verifier: VerifierConfig) -> str:
    mart = survivor.graded
    return (
        f"A stakeholder reports that the {mart} mart looks wrong. {survivor.symptom}\n"
        f"Nothing about {mart}'s documented definition changed: a recent edit somewhere in the "
        f"dbt project broke it. Find the bug and fix it so that {mart} matches its documented "
        f"definition again (models/**/{mart}.yml and the models it builds on). Keep its columns "
        f"and grain. {mart} and the models the bug affects are currently missing from the "
        "warehouse; build them with the dbt tool to check your fix. Grading rebuilds "
        f"{mart} from your project files on a fresh copy of the raw data you can query AND on "
        "hidden raw datasets of the same schema that you cannot see (other data, and edge cases "
        "such as empty months, NULLs where the schema allows them, duplicates and timestamps on "
        "period boundaries), and compares it row by row with the documented definition on "
        "each: a real fix passes everywhere; values pasted from this data, or logic that only "
        "works on it, fail. When you are done, submit a one-sentence summary of the fix.\n"
        f"{tolerance_sentence('dbt', verifier)}"
    )


class _FunnelFamily(TaskFamily):
    """A family whose variants are the survivors of the replica's factory funnel."""

    def variants(self, seed: int) -> int:
        with SeedFunnel(self.replica, seed, DEFAULT_SCALE) as funnel:
            return len(funnel.survivors())

    def make(self, ctx: BuildContext) -> Task:
        with SeedFunnel(self.replica, ctx.seed, ctx.scale) as funnel:
            survivors = funnel.survivors(limit=ctx.variant + 1)
        if len(survivors) <= ctx.variant:
            raise TaskBuildError(
                f"{self.name}: seed {ctx.seed} has {len(survivors)} factory survivors at scale "
                f"{ctx.scale:g}, no variant {ctx.variant}"
            )
        survivor = survivors[ctx.variant]
        candidate = survivor.candidate
        pristine = ctx.project_file(candidate.path)
        info = load_project(self.replica).models[candidate.model]
        # dbt's raw code is the file without its final newline; the edits' offsets hold in both
        if not pristine.startswith(info.raw) or pristine[len(info.raw) :].strip():
            raise TaskBuildError(f"{candidate.path} differs from the compiled project's raw code")
        broken = apply_edits(pristine, candidate.edits)
        verifier = grading_config(load_project(self.replica), survivor.graded)
        select = f"{candidate.model}+,+{survivor.graded}"
        return ctx.task(
            instruction=instruction(survivor, verifier),
            answer_kind="dbt",
            verifier=verifier,
            sandbox_patch={candidate.path: broken},
            oracle=(
                write_file(candidate.path, pristine),
                dbt(f"run --select {select}"),
                submit(f"Restored the broken logic upstream of {survivor.graded}."),
            ),
            limits=LIMITS,
            metadata={
                "graded": survivor.graded,
                "caught_by_tests": bool(survivor.outcome.caught),
                "candidate": candidate.index,
            },
        )


@register_family
class MutantFix(_FunnelFamily):
    name = "ecommerce.mutant_fix-v1"
    replica = "ecommerce"
    description = (
        "Fix a factory-made bug (a validated mutant of the ecommerce dbt project) described only "
        "by its symptom; graded by rebuild on the visible and hidden data."
    )
    difficulty = "hard"
