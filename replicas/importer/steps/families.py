"""Task families of every replica imported with ``replicas import dbt``, registered per import.

- ``NAME.mutant_fix-v1`` — the factory's fix task (``replicas.factory``): survivor ``k`` of seed
  ``s``'s funnel is task ``k``; the broken model is patched into the sandbox, the instruction is
  the stakeholder's symptom, grading rebuilds the graded mart on the visible and hidden data,
  the oracle restores the pristine model. As ``ecommerce.mutant_fix-v1``, with the wording made
  project-neutral (an imported project's YAML files may be named anything).
- ``NAME.mutant_fix-v2`` — registered when the project declares deployment knobs
  (``replicas_knobs.yml``, ``replicas.importer.knobs``): v1's survivors under each seed's
  deployment (the seed's business rules written into the project's SQL and docs), screened again
  (``replicas.factory.deployed``); the warehouse holds only the raw data, grading compares with
  the deployed mart, so writing the project's own files back fails.
- ``NAME.mutant_fix_multi-v1`` (and ``-v2`` with knobs) — 2-3 survivors in different layers that
  share a graded mart, every one still needed (``replicas.factory.combine``), as
  ``ecommerce.mutant_fix_multi-v1``/``-v2``.
- ``NAME.mart_metric-v1`` — a metric question over one of the project's marts: the sum, average
  or row count of a mart measure over a filter chosen from the data (a category value or a
  calendar month). The answer is SQL on the pristine snapshot; the instruction states the
  definition (filter, NULL handling, rounding) and the tolerance; the oracle queries the
  warehouse. Plausible wrong readings — the filter ignored, another aggregate, the neighbouring
  value or month, NULLs counted as zero — must each give a different answer beyond tolerance, or
  the draw is redone (``TaskFamily.build``).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from replicas.factory.combine import Combination
from replicas.factory.deploy import register_knobs, unregister_knobs
from replicas.factory.deployed import Deployed, DeployedSurvivor
from replicas.factory.family import (
    CombinedFixFamily,
    Defects,
    DeployedCombinedFixFamily,
    DeployedFixFamily,
    SurvivorFixFamily,
)
from replicas.factory.funnel import Survivor
from replicas.factory.project import ModelInfo, ProjectInfo, load_project
from replicas.tasks import (
    BuildContext,
    Limits,
    Task,
    TaskBuildError,
    TaskFamily,
    VerifierConfig,
    register_family,
    sql,
    state_tolerance,
    submit,
    unregister_family,
)
from replicas.verifiers.config import tolerance_sentence

__all__ = [
    "ImportedMartMetric",
    "ImportedMutantFix",
    "ImportedMutantFixMulti",
    "ImportedMutantFixMultiV2",
    "ImportedMutantFixV2",
    "register_families",
    "unregister_families",
]

_NUMERIC = re.compile(r"^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|FLOAT|DOUBLE|REAL|DECIMAL.*)$")
_TEMPORAL = re.compile(r"^(DATE|TIMESTAMP.*)$")
_MAX_CATEGORIES = 15


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


# --------------------------------------------------------------------------------------------
# the factory's fix family


#: What broke the mart, per kind of fix task.
_ONE_BUG = "a recent edit somewhere in the dbt project broke it."
_SEVERAL_BUGS = (
    "more than one recent edit, in different layers of the dbt project, broke it together, and "
    "fixing only one of them is not enough."
)


def fix_instruction(
    defects: Defects, verifier: VerifierConfig, *, broke: str = _ONE_BUG, fixes: str = "fix"
) -> str:
    """The v1 instruction (``broke``: what broke the mart; ``fixes``: "fix" or "fixes")."""
    mart = defects.graded
    bug = "bug affects" if fixes == "fix" else "bugs affect"
    find = "Find the bug and fix it" if fixes == "fix" else "Find every bug and fix them all"
    return (
        f"A stakeholder reports that the {mart} mart looks wrong. {defects.symptom}\n"
        f"Nothing about {mart}'s documented definition changed: {broke[:-1]}. {find} so that "
        f"{mart} matches its documented "
        f"definition again (the YAML properties of {mart} and of the models it builds on, and "
        "the project's vars). Keep its columns and grain. "
        f"{mart} and the models the {bug} are currently missing from the warehouse; build "
        "them with the dbt tool to check your fix. Grading rebuilds "
        f"{mart} from your project files on a fresh copy of the raw data you can query AND on "
        "hidden raw datasets of the same schema that you cannot see, and compares it row by row "
        "with the documented definition on each: a real fix passes everywhere; values pasted "
        "from this data, or logic that only works on it, fail. When you are done, submit a "
        f"one-sentence summary of the {fixes}.\n"
        f"{tolerance_sentence('dbt', verifier)}"
    )


def deployed_fix_instruction(
    defects: Defects, verifier: VerifierConfig, *, broke: str = _ONE_BUG, fixes: str = "fix"
) -> str:
    """The ``-v2`` instruction: v1's, with the seed's rules as the definition and a raw-only
    warehouse."""
    mart = defects.graded
    find = "find the bug." if fixes == "fix" else "find every bug."
    return (
        f"A stakeholder reports that the {mart} mart looks wrong. {defects.symptom}\n"
        f"Nothing about {mart}'s documented definition changed: {broke[:-1]}; {find} This "
        "company's business rules are the ones its "
        "project documents (the YAML properties of its models, dbt_project.yml's vars and "
        "comments, the project's README), which may differ from other deployments of this "
        f"project. Fix it so that {mart} matches its documented definition again (the YAML "
        f"properties of {mart} and of the models it builds on). Keep its columns and grain. "
        "The warehouse holds only the raw data (schema raw): build the models you need with the "
        f"dbt tool. Grading rebuilds {mart} from your project files on a fresh copy of the raw "
        "data you can query AND on hidden raw datasets of the same schema that you cannot see, "
        "and compares it row by row with the documented definition on each: a real fix passes "
        "everywhere; values pasted from this data, logic that only works on it, or another "
        f"deployment's rules fail. When you are done, submit a one-sentence summary of the "
        f"{fixes}.\n{tolerance_sentence('dbt', verifier)}"
    )


class ImportedMutantFix(SurvivorFixFamily):
    """``NAME.mutant_fix-v1``: survivors of the imported project's factory funnel."""

    difficulty = "hard"
    limits = Limits(wall_s=600.0)

    def task_instruction(self, defects: Survivor, verifier: VerifierConfig) -> str:
        return fix_instruction(defects, verifier)

    def task_metadata(self, defects: Survivor) -> dict[str, Any]:
        return {**super().task_metadata(defects), "operator": defects.candidate.operator}


class ImportedMutantFixV2(DeployedFixFamily):
    """``NAME.mutant_fix-v2``: survivors of the imported project's funnel under the seed's
    deployment of the knobs the project declares."""

    difficulty = "hard"
    limits = Limits(wall_s=600.0)

    def task_instruction(self, defects: DeployedSurvivor, verifier: VerifierConfig) -> str:
        return deployed_fix_instruction(defects, verifier)

    def task_metadata(self, defects: DeployedSurvivor) -> dict[str, Any]:
        return {**super().task_metadata(defects), "operator": defects.candidates[0].operator}


class ImportedMutantFixMulti(CombinedFixFamily):
    """``NAME.mutant_fix_multi-v1``: 2-3 survivors of the imported project's funnel in
    different layers, each still needed (``replicas.factory.combine``)."""

    difficulty = "hard"
    limits = Limits(wall_s=900.0)

    def task_instruction(self, defects: Combination, verifier: VerifierConfig) -> str:
        return fix_instruction(defects, verifier, broke=_SEVERAL_BUGS, fixes="fixes")


class ImportedMutantFixMultiV2(DeployedCombinedFixFamily):
    """``NAME.mutant_fix_multi-v2``: the v1 combinations under the seed's deployment of the
    project's knobs, every defect still needed against the deployed mart."""

    difficulty = "hard"
    limits = Limits(wall_s=900.0)

    def task_instruction(self, defects: Deployed, verifier: VerifierConfig) -> str:
        return deployed_fix_instruction(defects, verifier, broke=_SEVERAL_BUGS, fixes="fixes")


# --------------------------------------------------------------------------------------------
# the metric family


@dataclass(frozen=True)
class _Question:
    mart: str
    measure: str | None  # None: count rows
    aggregate: str  # sum | avg | count
    column: str  # the filter column
    kind: str  # category | month
    value: str  # the category value, or the month's first day (ISO)

    def filter_sql(self, value: str | None = None) -> str:
        value = self.value if value is None else value
        col = _q(self.column)
        if self.kind == "month":
            start = dt.date.fromisoformat(value)
            end = _next_month(start)
            return f"{col} >= date '{start}' and {col} < date '{end}'"
        return f"{col} = '{value.replace(chr(39), chr(39) * 2)}'"

    def sql(
        self, *, aggregate: str | None = None, where: str | None = "", nulls_as_zero: bool = False
    ) -> str:
        agg = aggregate or self.aggregate
        if agg == "count":
            expr = "count(*)"
        else:
            inner = _q(self.measure or "")
            if nulls_as_zero:
                inner = f"coalesce({inner}, 0)"
            expr = f"round({agg}({inner}), 2)"
        cond = self.filter_sql() if where == "" else where
        tail = f" where {cond}" if cond else ""
        return f"select {expr} as answer from {_q(self.mart)}{tail}"


def _next_month(day: dt.date) -> dt.date:
    return dt.date(day.year + (day.month == 12), day.month % 12 + 1, 1)


def _first_sentence(text: str) -> str:
    text = " ".join(text.split())
    return text.split(". ")[0].rstrip(".") + "." if text else ""


class ImportedMartMetric(TaskFamily):
    """``NAME.mart_metric-v1``: one aggregate of a mart measure over a filter from the data."""

    difficulty = "easy"
    n_variants = 6
    max_attempts = 30

    def _measures(self, model: ModelInfo, project: ProjectInfo) -> list[str]:
        keys = set(project.key_columns(model.name))
        return [
            c
            for c, kind in model.columns
            if _NUMERIC.match(kind.upper())
            and c not in keys
            and not c.lower().endswith("_id")
            and c.lower() != "id"
        ]

    def _filters(self, ctx: BuildContext, model: ModelInfo) -> list[tuple[str, str, list[str]]]:
        out = []
        for column, kind in model.columns:
            kind = kind.upper()
            if kind == "VARCHAR":
                rows = ctx.query(
                    f"select {_q(column)} from {_q(model.name)} where {_q(column)} is not null "
                    f"group by 1 order by 1 limit {_MAX_CATEGORIES + 1}"
                )
                values = [str(r[0]) for r in rows]
                if 2 <= len(values) <= _MAX_CATEGORIES:
                    out.append((column, "category", values))
            elif _TEMPORAL.match(kind):
                rows = ctx.query(
                    f"select distinct cast(date_trunc('month', {_q(column)}) as date) "
                    f"from {_q(model.name)} where {_q(column)} is not null order by 1"
                )
                months = [str(r[0]) for r in rows]
                if len(months) >= 3:
                    out.append((column, "month", months))
        return out

    def _draw(self, ctx: BuildContext, project: ProjectInfo) -> tuple[_Question, list[str]]:
        rng = ctx.rng("question")
        marts = sorted(project.marts)
        for _ in range(40):
            model = project.models[marts[int(rng.integers(len(marts)))]]
            measures = self._measures(model, project)
            filters = self._filters(ctx, model)
            if not filters or not measures:
                continue
            aggregate = ("sum", "avg", "count")[int(rng.integers(3))]
            measure = measures[int(rng.integers(len(measures)))]
            column, kind, values = filters[int(rng.integers(len(filters)))]
            value = values[int(rng.integers(len(values)))]
            question = _Question(model.name, measure, aggregate, column, kind, value)
            answer = ctx.scalar(question.sql())
            if answer is None or (aggregate == "count" and answer == 0):
                continue
            return question, values
        raise TaskBuildError(f"{self.name}: no mart with a numeric measure and a usable filter")

    def make(self, ctx: BuildContext) -> Task:
        project = load_project(self.replica)
        q, values = self._draw(ctx, project)
        truth = float(ctx.scalar(q.sql()))
        wrong: dict[str, float] = {}
        everything = ctx.scalar(q.sql(where=None))
        if everything is not None:
            wrong["filter_ignored"] = float(everything)
        other = {"sum": "avg", "avg": "sum", "count": "sum"}[q.aggregate]
        other_value = ctx.scalar(q.sql(aggregate=other))
        if other_value is not None:
            wrong[f"{other}_instead_of_{q.aggregate}"] = float(other_value)
        position = values.index(q.value)
        neighbour = values[position + 1] if position + 1 < len(values) else values[position - 1]
        near = ctx.scalar(q.sql(where=q.filter_sql(neighbour)))
        wrong["neighbouring_month" if q.kind == "month" else "another_value"] = float(near or 0)
        nulls = ctx.scalar(
            f"select count(*) from {_q(q.mart)} where {q.filter_sql()} and {_q(q.measure or '')} is null"
        )
        if q.aggregate == "avg" and nulls:
            wrong["nulls_as_zero"] = float(ctx.scalar(q.sql(nulls_as_zero=True)))
        model = project.models[q.mart]
        verifier = VerifierConfig(abs_tol=0.01, rel_tol=0.0)
        task = ctx.task(
            instruction=self._instruction(q, model),
            answer_kind="number",
            expected=truth,
            verifier=verifier,
            oracle=(sql(q.sql()), submit(f"{truth:.2f}")),
            wrong_readings=wrong,
            metadata={
                "mart": q.mart,
                "measure": q.measure,
                "aggregate": q.aggregate,
                "filter_column": q.column,
                "filter_value": q.value,
            },
        )
        return state_tolerance(task)

    def _instruction(self, q: _Question, model: ModelInfo) -> str:
        about = _first_sentence(model.description)
        if q.kind == "month":
            start = dt.date.fromisoformat(q.value)
            scope = (
                f"whose {q.column} falls in {start:%B %Y} (from {start} inclusive to "
                f"{_next_month(start)} exclusive)"
            )
        else:
            scope = f"whose {q.column} is exactly '{q.value}' (case-sensitive)"
        doc = model.column_docs.get(q.measure or "", "")
        measure_doc = f" ({_first_sentence(doc).rstrip('.')})" if doc else ""
        if q.aggregate == "count":
            what = f"How many rows of the {q.mart} table are there {scope}?"
            rule = "Count rows, not distinct values. Submit only the number."
        else:
            word = "total (sum)" if q.aggregate == "sum" else "average (arithmetic mean)"
            what = (
                f"What is the {word} of {q.measure}{measure_doc} over the rows of the {q.mart} "
                f"table {scope}?"
            )
            rule = (
                f"Rows where {q.measure} is NULL are left out (they count neither as a value nor "
                "as zero). Round the result to 2 decimals. Submit only the number."
            )
        lead = f"The warehouse has a {q.mart} table (a mart of the team's dbt project"
        lead += f": {about.rstrip('.')})" if about else ")"
        return f"{lead}. {what} Use every row of {q.mart} that matches, nothing else. {rule}"


# --------------------------------------------------------------------------------------------
# registration


def _family_names(replica: str) -> tuple[str, str, str]:
    return (
        f"{replica}.mutant_fix-v1",
        f"{replica}.mutant_fix_multi-v1",
        f"{replica}.mart_metric-v1",
    )


def _deployed_names(replica: str) -> tuple[str, str]:
    return f"{replica}.mutant_fix-v2", f"{replica}.mutant_fix_multi-v2"


def _register(base: type[TaskFamily], family: str, replica: str) -> None:
    qual = f"{base.__name__}_{replica}"
    cls = type(
        qual,
        (base,),
        {
            "name": family,
            "replica": replica,
            "description": (base.__doc__ or "").strip().splitlines()[0],
            "__module__": __name__,
            "__qualname__": qual,
        },
    )
    register_family(cls)


def register_families(replica: str) -> None:
    """Register the families of imported replica ``replica`` (idempotent): the three every
    import gets, and the ``-v2`` fix families with the project's knobs when it declares any."""
    from replicas.importer.knobs import KnobsError, load_knobs
    from replicas.importer.store import import_dir

    bases: tuple[type[TaskFamily], ...] = (
        ImportedMutantFix,
        ImportedMutantFixMulti,
        ImportedMartMetric,
    )
    for base, family in zip(bases, _family_names(replica), strict=True):
        _register(base, family, replica)
    try:
        knobs = load_knobs(import_dir(replica))
    except KnobsError:
        knobs = ()  # checked at import; a file edited since then registers no deployment
    for family in _deployed_names(replica):
        unregister_family(family)
    unregister_knobs(replica)
    if knobs:
        register_knobs(replica, knobs)
        deployed = (ImportedMutantFixV2, ImportedMutantFixMultiV2)
        for base, family in zip(deployed, _deployed_names(replica), strict=True):
            _register(base, family, replica)


def unregister_families(replica: str) -> None:
    for family in (*_family_names(replica), *_deployed_names(replica)):
        unregister_family(family)
    unregister_knobs(replica)
