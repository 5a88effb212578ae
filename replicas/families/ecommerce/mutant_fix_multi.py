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

from replicas.factory.combine import Combination
from replicas.factory.deployed import DeployedCombination
from replicas.factory.family import CombinedFixFamily, DeployedCombinedFixFamily
from replicas.families.ecommerce import _hidden_data  # noqa: F401  (registers edge cases)
from replicas.families.ecommerce.mutant_fix import deployed_instruction, grading_text
from replicas.tasks import Limits, register_family
from replicas.verifiers.config import VerifierConfig

__all__ = ["MutantFixMulti", "MutantFixMultiV2", "instruction"]

#: Two or three broken models to find; grading rebuilds on every hidden dataset.
LIMITS = Limits(wall_s=900.0)


def instruction(combination: Combination, verifier: VerifierConfig) -> str:
    mart = combination.graded
    return (
        f"A stakeholder reports that the {mart} mart looks wrong. {combination.symptom}\n"
        f"Nothing about {mart}'s documented definition changed: more than one recent edit, in "
        f"different layers of the dbt project, broke it together, and fixing only one of them "
        f"is not enough. Find every bug and fix them all so that {mart} matches its documented "
        f"definition again (models/**/{mart}.yml and the models it builds on). "
        + grading_text(mart, verifier, bugs="bugs affect", fixes="fixes")
    )


@register_family
class MutantFixMulti(CombinedFixFamily):
    name = "ecommerce.mutant_fix_multi-v1"
    replica = "ecommerce"
    description = (
        "Fix two or three factory-made bugs in different layers of the ecommerce dbt project, "
        "described only by their combined symptom; graded by rebuild on the visible and hidden "
        "data."
    )
    difficulty = "hard"
    limits = LIMITS

    def task_instruction(self, defects: Combination, verifier: VerifierConfig) -> str:
        return instruction(defects, verifier)


@register_family
class MutantFixMultiV2(DeployedCombinedFixFamily):
    """``ecommerce.mutant_fix_multi-v2``: v1's combinations on the seed's deployment (its own
    documented business rules, ``replicas.families.ecommerce._deployment``), where writing the
    kit's files back gives the wrong mart; a raw-only warehouse; every defect must still matter
    against the deployed mart. See ``ecommerce.mutant_fix-v2``."""

    name = "ecommerce.mutant_fix_multi-v2"
    replica = "ecommerce"
    description = (
        "Fix two or three factory-made bugs in different layers of the seed's deployment of the "
        "ecommerce project (its own documented business rules), from a raw-only warehouse; "
        "graded by rebuild on the visible and hidden data against the deployed definition."
    )
    difficulty = "hard"
    limits = LIMITS

    def task_instruction(self, defects: DeployedCombination, verifier: VerifierConfig) -> str:
        return deployed_instruction(
            defects.graded,
            defects.symptom,
            verifier,
            broke="more than one recent edit, in different layers of the dbt project, broke "
            "it together, and fixing only one of them is not enough; find every bug.",
            fixes="fixes",
        )
