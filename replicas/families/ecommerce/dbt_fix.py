"""``ecommerce.dbt_fix-v1``: find and fix a bug injected into the ecommerce dbt project.

``-v2`` (core-v2): grading also rebuilds the mart on the replica's hidden datasets (other
seeds' raw data and edge cases, ``replicas.tasks.hidden``) and compares it with the pristine
project's mart built there, so pasted rows or a fix that only holds on the visible data fail;
the tolerance is stated in the grader's words; a 600 s episode budget for the extra rebuilds.

Each variant is one bug KIND (:data:`~replicas.families.ecommerce._dbt_bugs.KINDS`: refunds not
deducted, a wrong revenue-status filter, a wrong date truncation, a wrong join key, a fan-out
join). The seed's ``ctx.rng`` picks the concrete bug of that kind — which mart, status, grain,
key or fan-out table — so the broken file and its fix differ between seeds and cannot be
memorised. The bug is injected into the sandbox copy (``sandbox_patch``) and the instruction
describes only its symptom. The sandbox warehouse has the graded mart, the patched model and
everything downstream dropped, so there is no correct table to copy. Grading rebuilds the graded
mart (with its upstream) from the agent's files on a fresh copy of the pristine raw data and
compares it, row by row on the mart's key, with the pristine snapshot's mart. The oracle
restores the pristine file.

The patch is derived from the pristine model text at build time (a snippet that must occur
exactly once), and a candidate is only used if its broken SELECT gives a different result from
the pristine one on this seed's snapshot, so every task really breaks its mart.
"""

from __future__ import annotations

import re
from dataclasses import replace

from replicas.families.ecommerce import _hidden_data  # noqa: F401  (registers edge cases)
from replicas.families.ecommerce._dbt_bugs import KINDS, Bug, flexible
from replicas.tasks import (
    BuildContext,
    Limits,
    Task,
    TaskBuildError,
    TaskFamily,
    VerifierConfig,
    dbt,
    register_family,
    submit,
    write_file,
)
from replicas.verifiers.config import tolerance_sentence

_REF = re.compile(r"\{\{\s*ref\(\s*'(\w+)'\s*\)\s*\}\}")


def inject(pristine: str, bug: Bug) -> str:
    """The model text with ``bug`` injected; TaskBuildError if the snippet is not there once."""
    pattern = flexible(bug.find)
    matches = pattern.findall(pristine)
    if len(matches) != 1:
        raise TaskBuildError(
            f"{bug.path}: expected the snippet of bug {bug.name!r} exactly once, found "
            f"{len(matches)} (did the model change? update replicas/families/ecommerce/_dbt_bugs.py)"
        )
    return pattern.sub(lambda _: bug.replace, pristine, count=1)


def render_refs(model_sql: str) -> str:
    """Plain SQL for a model that uses only ``ref()`` (refs resolve to schema ``main``)."""
    sql = _REF.sub(lambda m: f'main."{m.group(1)}"', model_sql)
    if "{{" in sql or "{%" in sql:
        raise TaskBuildError("bug candidates may only patch models whose only Jinja is ref()")
    return sql


def changes_result(ctx: BuildContext, pristine: str, buggy: str) -> bool:
    """Whether the broken model SELECT returns other rows than the pristine one on this seed."""
    good, bad = render_refs(pristine), render_refs(buggy)
    sql = (
        f"select count(*) from (select * from (({bad}) except all ({good})) "
        f"union all select * from (({good}) except all ({bad})))"
    )
    try:
        return bool(ctx.scalar(sql))
    except Exception as exc:  # a candidate whose SQL cannot run is a catalogue bug
        raise TaskBuildError(f"broken model SQL does not run: {exc}") from exc


def instruction(bug: Bug) -> str:
    model = bug.model
    return (
        f"{bug.symptom}\n"
        f"Find and fix the bug in the dbt project so that the {model} model matches its "
        f"documented definition (models/marts/{model}.yml and the staging/intermediate models "
        "it builds on). Keep its columns and grain. Build the model with the dbt tool to check "
        f"your fix: {model} is currently missing from the warehouse. When you are done, submit "
        "a one-sentence summary of the fix."
    )


def choose_bug(ctx: BuildContext) -> tuple[Bug, str, str]:
    """The first candidate of this variant's kind, in an rng order, that breaks its mart."""
    kind, candidates = KINDS[ctx.variant]
    order = ctx.rng("bug").permutation(len(candidates))
    for index in order:
        bug = candidates[int(index)]
        pristine = ctx.project_file(bug.path)
        buggy = inject(pristine, bug)
        if changes_result(ctx, pristine, buggy):
            return bug, pristine, buggy
    raise TaskBuildError(f"no {kind} bug changes its mart on seed {ctx.seed}")


@register_family
class DbtFix(TaskFamily):
    name = "ecommerce.dbt_fix-v1"
    replica = "ecommerce"
    description = "Fix a seed-chosen bug injected into an ecommerce mart; graded by rebuild."
    difficulty = "hard"
    n_variants = len(KINDS)

    def make(self, ctx: BuildContext) -> Task:
        bug, pristine, buggy = choose_bug(ctx)
        return ctx.task(
            instruction=instruction(bug),
            answer_kind="dbt",
            verifier=VerifierConfig(
                dbt_models=(bug.model,), key_columns=bug.key_columns, abs_tol=0.005
            ),
            sandbox_patch={bug.path: buggy},
            oracle=(
                write_file(bug.path, pristine),
                dbt(
                    f"run --select {bug.model}"
                    if bug.patched_model == bug.model
                    else f"run --select +{bug.model}"
                ),
                submit(f"Fixed the {bug.kind.replace('_', ' ')} bug in {bug.patched_model}."),
            ),
            metadata={"bug": bug.name, "kind": bug.kind, "model": bug.model, "path": bug.path},
        )


#: Grading's time on hidden data counts against the episode: room for K+1 rebuilds.
V2_LIMITS = Limits(wall_s=600.0)


def instruction_v2(bug: Bug, verifier: VerifierConfig) -> str:
    return (
        f"{instruction(bug)}\nGrading rebuilds {bug.model} from your project files on a fresh "
        "copy of the raw data you can query AND on hidden raw datasets of the same schema that "
        "you cannot see (other data, and edge cases such as empty months, NULLs where the schema "
        "allows them, duplicates and timestamps on period boundaries), and compares it row by "
        "row with the documented definition on each: a real fix passes everywhere; values "
        f"pasted from this data, or logic that only works on it, fail.\n"
        f"{tolerance_sentence('dbt', verifier)}"
    )


@register_family
class DbtFixV2(DbtFix):
    """v1 graded on the visible raw data only: a model of pasted rows passed."""

    name = "ecommerce.dbt_fix-v2"
    description = (
        "Fix a seed-chosen bug injected into an ecommerce mart; graded by rebuild on the visible "
        "data and on hidden datasets."
    )

    def make(self, ctx: BuildContext) -> Task:
        task = super().make(ctx)
        bug, _, _ = choose_bug(ctx)
        verifier = replace(task.verifier, hidden_data=True, rel_tol=0.0)
        return replace(
            task,
            instruction=instruction_v2(bug, verifier),
            verifier=verifier,
            limits=V2_LIMITS,
        )
