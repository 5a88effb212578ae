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

from replicas.factory.deployed import DeployedSurvivor
from replicas.factory.family import DeployedFixFamily, SurvivorFixFamily
from replicas.factory.funnel import Survivor
from replicas.families.ecommerce import (
    _deployment,  # noqa: F401  (registers the knobs)
    _hidden_data,  # noqa: F401  (registers edge cases)
)
from replicas.tasks import Limits, register_family
from replicas.verifiers.config import VerifierConfig, tolerance_sentence

__all__ = [
    "MutantFix",
    "MutantFixV2",
    "deployed_instruction",
    "grading_text",
    "instruction",
    "instruction_v2",
]

#: Grading rebuilds the mart on the visible data and every hidden dataset (as dbt_fix-v2).
LIMITS = Limits(wall_s=600.0)


def _graded_on_hidden_data(mart: str, fixes: str, verifier: VerifierConfig) -> str:
    """How the fix is graded, and the closing request (every factory instruction ends so)."""
    return (
        f"Grading rebuilds {mart} from your project files on a fresh copy of the raw data you "
        "can query AND on hidden raw datasets of the same schema that you cannot see (other "
        "data, and edge cases such as empty months, NULLs where the schema allows them, "
        "duplicates and timestamps on period boundaries), and compares it row by row with the "
        "documented definition on each: a real fix passes everywhere; values pasted from this "
        "data, or logic that only works on it, fail. When you are done, submit a one-sentence "
        f"summary of the {fixes}.\n{tolerance_sentence('dbt', verifier)}"
    )


def grading_text(mart: str, verifier: VerifierConfig, *, bugs: str, fixes: str) -> str:
    """The instruction's part on building and grading, shared with ``mutant_fix_multi-v1``:
    ``bugs`` is "bug affects" or "bugs affect", ``fixes`` "fix" or "fixes"."""
    return (
        f"Keep its columns and grain. {mart} and the models the {bugs} are currently missing "
        "from the warehouse; build them with the dbt tool to check your fix. "
        + _graded_on_hidden_data(mart, fixes, verifier)
    )


def instruction(survivor: Survivor, verifier: VerifierConfig) -> str:
    mart = survivor.graded
    return (
        f"A stakeholder reports that the {mart} mart looks wrong. {survivor.symptom}\n"
        f"Nothing about {mart}'s documented definition changed: a recent edit somewhere in the "
        f"dbt project broke it. Find the bug and fix it so that {mart} matches its documented "
        f"definition again (models/**/{mart}.yml and the models it builds on). "
        + grading_text(mart, verifier, bugs="bug affects", fixes="fix")
    )


@register_family
class MutantFix(SurvivorFixFamily):
    name = "ecommerce.mutant_fix-v1"
    replica = "ecommerce"
    description = (
        "Fix a factory-made bug (a validated mutant of the ecommerce dbt project) described only "
        "by its symptom; graded by rebuild on the visible and hidden data."
    )
    difficulty = "hard"
    limits = LIMITS

    def task_instruction(self, defects: Survivor, verifier: VerifierConfig) -> str:
        return instruction(defects, verifier)


def deployed_instruction(
    mart: str, symptom: str, verifier: VerifierConfig, *, broke: str, fixes: str
) -> str:
    """The ``-v2`` instruction (shared with ``mutant_fix_multi-v2``): the warehouse holds only
    the raw data, and the definitions are the project's own (its docs state this company's
    business rules). ``broke`` says what broke the mart; ``fixes``: "fix" or "fixes"."""
    return (
        f"A stakeholder reports that the {mart} mart looks wrong. {symptom}\n"
        f"Nothing about {mart}'s documented definition changed: {broke} "
        f"This company's business rules are the ones its project documents (the project "
        f"README, dbt_project.yml's vars, models/**/*.yml), which may differ from other "
        f"deployments of this project. Fix it so that {mart} matches its documented "
        f"definition again (models/**/{mart}.yml and the models it builds on). The warehouse "
        f"holds only the raw data (schema raw): build the models you need with the dbt tool. "
        f"Keep {mart}'s columns and grain. " + _graded_on_hidden_data(mart, fixes, verifier)
    )


def instruction_v2(defects: DeployedSurvivor, verifier: VerifierConfig) -> str:
    return deployed_instruction(
        defects.graded,
        defects.symptom,
        verifier,
        broke="a recent edit somewhere in the dbt project broke it; find the bug.",
        fixes="fix",
    )


@register_family
class MutantFixV2(DeployedFixFamily):
    """``ecommerce.mutant_fix-v2``: v1's survivors on the seed's deployment.

    v1's fix was always "write the kit's file back", which an agent that has read the kit
    solves from memory (red team, session 10). Here each seed's company runs the project with
    its own business rules (``replicas.families.ecommerce._deployment``: net revenue's
    definition, the repeat-customer threshold, what a bounce is, the payment-mismatch
    tolerance), written into the SQL and the docs of the sandbox's project; a task is kept only
    when those rules change its graded mart, so the shipped files give the wrong mart. The
    warehouse starts with the raw data only (v1 left out exactly the relations downstream of
    the broken model, which pointed at it).
    """

    name = "ecommerce.mutant_fix-v2"
    replica = "ecommerce"
    description = (
        "Fix a factory-made bug in the seed's deployment of the ecommerce project (its own "
        "documented business rules), from a raw-only warehouse; graded by rebuild on the "
        "visible and hidden data against the deployed definition."
    )
    difficulty = "hard"
    limits = LIMITS

    def task_instruction(self, defects: DeployedSurvivor, verifier: VerifierConfig) -> str:
        return instruction_v2(defects, verifier)
