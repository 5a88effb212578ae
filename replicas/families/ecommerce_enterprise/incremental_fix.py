"""``ecommerce_enterprise.incremental_fix-v1``: an incremental model loses or duplicates
late-arriving rows; fix its ``is_incremental()`` logic. Graded by replaying two loads.

The project's incremental models (``fct_shipment_events``, ``fct_order_status_events``,
``fct_web_events``) pick up new rows by ``loaded_at`` (a few percent of rows arrive 2–10 days
after the event). Each task patches one of them with a plausible wrong watermark, drawn per
seed: the event time instead of the load time (late rows are skipped forever), a day-granular
watermark (rows loaded later on the watermark's day are skipped), or a look-back window without
``unique_key`` (re-read rows are appended twice).

A single ``dbt run`` on a fresh warehouse is a full refresh and hides every such bug, so
grading replays what production does: the agent's project is built on the data as loaded up to
a cut-off (rows with ``_loaded_at`` after it removed from the source), the remaining rows are
loaded, and the model is run again incrementally. The result must equal the reference (a full
build of the pristine project). The replay runs on the visible data and on a hidden dataset of
another seed, so rows pasted into the model fail.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from replicas.db import readonly_connection
from replicas.dbt import run_dbt
from replicas.families.ecommerce_enterprise._common import (
    REPLICA,
    Definition,
    definitions_metadata,
    inject,
    model_files,
)
from replicas.sandbox import copy_project_safely, raw_only_warehouse
from replicas.tasks import (
    BuildContext,
    Task,
    TaskBuildError,
    TaskFamily,
    VerifierConfig,
    dbt,
    register_family,
    submit,
    write_file,
)
from replicas.tasks.grading import GradeContext
from replicas.tasks.hidden import hidden_datasets
from replicas.tasks.values import table_value
from replicas.verifiers.answers import compare_tables
from replicas.verifiers.verdict import Reason, Verdict, fail


@dataclass(frozen=True)
class Target:
    model: str
    key: str
    source: str  # raw table whose late rows arrive in the second load
    alias: str  # how the model's SQL names the source's columns ("events." or "")


TARGETS: tuple[Target, ...] = (
    Target("fct_shipment_events", "shipment_event_id", "ful_shipment_events", "events."),
    Target("fct_order_status_events", "status_event_id", "shop_order_status_events", ""),
    Target("fct_web_events", "event_id", "web_events", ""),
)
PRISTINE_FILTER = (
    "where {a}loaded_at > (select max(loaded_at) from {{{{ this }}}}) - interval "
    "{{{{ var('incremental_lookback_hours') }}}} hour"
)


def _bugs(target: Target) -> list[tuple[str, str, str, str]]:
    """(kind, find, replace, symptom) candidates for one model."""
    a = target.alias
    find = PRISTINE_FILTER.format(a=a)
    lost = (
        "rows that arrive late (loaded days after they happened) never show up in "
        f"{target.model}, although they are in the source"
    )
    out = [
        ("event_time_watermark", find,
         f"where {a}event_at > (select max(event_at) from {{{{ this }}}})", lost),
        ("event_time_watermark", find,
         f"where {a}event_at >= (select max(event_at) from {{{{ this }}}})", lost),
        ("event_date_watermark", find,
         f"where cast({a}event_at as date) > (select max(cast(event_at as date)) from {{{{ this }}}})",
         lost),
        ("load_day_watermark", find,
         f"where cast({a}loaded_at as date) > (select max(cast(loaded_at as date)) "
         f"from {{{{ this }}}})", lost),
        ("load_day_watermark", find,
         f"where date_trunc('day', {a}loaded_at) > (select max(date_trunc('day', loaded_at)) "
         f"from {{{{ this }}}})", lost),
    ]  # fmt: skip
    for hours in (12, 24, 48, 72):
        out.append(
            (
                "lookback_without_unique_key",
                find,
                f"where {a}loaded_at >= (select max(loaded_at) from {{{{ this }}}}) "
                f"- interval {hours} hour",
                f"{target.model} holds the same event twice after incremental runs",
            )
        )
    return out


def _drop_unique_key(text: str, target: Target) -> str:
    return inject(
        text,
        f"{{{{ config(materialized='incremental', unique_key='{target.key}', "
        "on_schema_change='fail') }}",
        "{{ config(materialized='incremental', on_schema_change='fail') }}",
        f"{target.model} config",
    )


_SHOWS = {
    # a row loaded after the cut-off whose event is not after the first load's latest event
    "event_time_watermark": "event_at <= (select max(event_at) from first)",
    "event_date_watermark": "cast(event_at as date) <= (select max(cast(event_at as date)) from first)",
    # a row loaded after the cut-off on the first load's last load day
    "load_day_watermark": "cast(_loaded_at as date) <= (select max(cast(_loaded_at as date)) from first)",
    # any first-load row inside the look-back window is read again
    "lookback_without_unique_key": "true",
}  # fmt: skip


def bug_shows(ctx: BuildContext, kind: str, source: str, cutoff: str) -> bool:
    """Whether the replay of this seed's data makes the injected bug visible."""
    return bool(
        ctx.scalar(
            f"with first as (select * from raw.\"{source}\" where _loaded_at <= timestamp '{cutoff}'),"
            f" later as (select * from raw.\"{source}\" where _loaded_at > timestamp '{cutoff}')"
            f" select count(*) from later where {_SHOWS[kind]}"
        )
    )


def _cutoff(ctx: BuildContext, target: Target) -> str:
    """A load cut-off inside the data: ~70–90 % of the source's rows are loaded before it."""
    q = float(ctx.rng("cutoff").uniform(0.7, 0.9))
    value = ctx.scalar(
        f'select cast(quantile_disc(_loaded_at, {q:.4f}) as varchar) from raw."{target.source}"'
    )
    return str(value)


@register_family
class IncrementalFix(TaskFamily):
    name = "ecommerce_enterprise.incremental_fix-v1"
    replica = REPLICA
    description = "An incremental model mishandles late-arriving rows; graded by replaying loads."
    difficulty = "hard"
    n_variants = 4

    def make(self, ctx: BuildContext) -> Task:
        rng = ctx.rng("bug")
        target = TARGETS[(ctx.variant + ctx.seed) % len(TARGETS)]
        candidates = _bugs(target)
        kind, find, replace, symptom = candidates[int(rng.integers(0, len(candidates)))]
        files = model_files(Path(ctx.snapshot.dbt_project))
        path = files[target.model]
        pristine = ctx.project_file(path)
        broken = inject(pristine, find, replace, f"{target.model} filter")
        if kind == "lookback_without_unique_key":
            broken = _drop_unique_key(broken, target)
        if broken == pristine:
            raise TaskBuildError(f"{kind} patch changes nothing in {path}")
        cutoff = _cutoff(ctx, target)
        if not bug_shows(ctx, kind, target.source, cutoff):
            raise TaskBuildError(f"{kind} does not show on seed {ctx.seed} at {cutoff}")
        instruction = (
            f"Data platform ticket: {symptom}. {target.model} is an incremental model (see its "
            "YAML and the source's loaded_at description). Fix the model so that incremental "
            "runs give exactly what a full refresh gives, without dropping its incremental "
            "materialization, and backfill it. Grading replays production: your project is "
            "built on the data loaded up to a cut-off, the later loads arrive, and the model is "
            "run again incrementally, on this data and on a hidden dataset of the same schema. "
            "When done, submit a one-sentence summary of the fix."
        )
        return ctx.task(
            instruction=instruction,
            answer_kind="dbt",
            verifier=VerifierConfig(
                dbt_models=(target.model,), key_columns=(target.key,), hidden_data=True
            ),
            sandbox_patch={path: broken},
            oracle=(
                write_file(path, pristine),
                dbt(f"run --full-refresh --select {target.model}"),
                submit(f"Restored the loaded_at watermark and unique_key of {target.model}."),
            ),
            metadata={
                "model": target.model,
                "bug": kind,
                "source": target.source,
                "cutoff": cutoff,
                **definitions_metadata(
                    (
                        Definition(
                            "late-arriving rows and loaded_at",
                            "file",
                            f"models/staging/{target.source.split('_')[0]}/"
                            f"_{target.source.split('_')[0]}__sources.yml",
                            "loaded_at_field",
                        ),
                        Definition(
                            "incremental look-back variable",
                            "file",
                            "dbt_project.yml",
                            "incremental_lookback_hours",
                        ),
                    )
                ),
            },
        )

    def grade(self, task: Task, answer: str, ctx: GradeContext) -> Verdict:
        model = str(task.metadata["model"])
        source = str(task.metadata["source"])
        cutoff = str(task.metadata["cutoff"])
        key = (str(task.verifier.key_columns[0]),)
        runs: list[tuple[str, Path, Path | None]] = [
            ("the visible data", raw_only_warehouse(ctx.snapshot), None)
        ]
        try:
            hidden = hidden_datasets(REPLICA)[0]
            runs.append(("a hidden dataset", hidden.raw, hidden.warehouse))
        except Exception as exc:  # the hidden data cannot be built: grading cannot be complete
            return fail("grading_error", f"hidden dataset unavailable: {exc}")
        reasons: list[Reason] = []
        objective: dict[str, float] = {}
        for label, raw, reference_db in runs:
            got, problem = _replay(ctx, model, source, cutoff, raw)
            if problem is not None or got is None:
                return fail("dbt_build_failed", f"on {label}: {problem}")
            want = (
                _table(reference_db, model)
                if reference_db
                else ctx.pristine_table(f'select * from main."{model}"')
            )
            verdict = compare_tables(got, want, _config(key))
            objective[label] = verdict.score
            if not verdict.passed:
                codes = {r.code for r in verdict.reasons}
                detail = (
                    " ".join(r.message for r in verdict.reasons[:3])
                    if reference_db is None
                    else f"differences of kind {sorted(codes)}"
                )
                reasons.append(
                    Reason(
                        sorted(codes)[0] if codes else "wrong_values",
                        f"{model} after an incremental load on {label}: {detail}",
                    )
                )
        passed = not reasons
        return Verdict(
            score=1.0 if passed else 0.0,
            passed=passed,
            reasons=tuple(reasons),
            feedback="The incremental replay matches a full refresh."
            if passed
            else " ".join(r.message for r in reasons),
            objective_scores=objective,
        )


def _config(key: tuple[str, ...]) -> VerifierConfig:
    return VerifierConfig(key_columns=key, abs_tol=1e-9)


def _table(warehouse: Path, relation: str) -> dict[str, Any]:
    # The hidden reference warehouse is shared by every grading in this process: the kit's one
    # read-only configuration (another one on the same file makes DuckDB refuse the connection).
    con = readonly_connection(warehouse).cursor()
    try:
        result = con.execute(f'select * from main."{relation}"')
        columns = [d[0] for d in result.description or []]
        return table_value(columns, result.fetchall())
    finally:
        con.close()


def _replay(
    ctx: GradeContext, model: str, source: str, cutoff: str, raw: Path
) -> tuple[dict[str, Any] | None, str | None]:
    """The agent's model after a first load up to ``cutoff`` and an incremental second load."""
    work = Path(tempfile.mkdtemp(prefix="replicas-sbx-"))
    try:
        project = work / "project"
        refused = copy_project_safely(ctx.project_dir, project)
        if refused:
            return None, "refused project files: " + ", ".join(refused)
        warehouse = work / "warehouse.duckdb"
        shutil.copyfile(raw, warehouse)
        late = "raw.__late_rows_of_the_second_load"
        con = duckdb.connect(str(warehouse))
        try:
            con.execute(
                f'create table {late} as select * from raw."{source}" '
                f"where _loaded_at > timestamp '{cutoff}'"
            )
            con.execute(f"delete from raw.\"{source}\" where _loaded_at > timestamp '{cutoff}'")
        finally:
            con.close()
        for step, select in (("first load", f"+{model}"), ("second load", model)):
            if step == "second load":
                con = duckdb.connect(str(warehouse))
                try:
                    con.execute(f'insert into raw."{source}" select * from {late}')
                    con.execute(f"drop table {late}")
                finally:
                    con.close()
            budget = ctx.time_left()
            if budget <= 1.0:
                return None, "no time was left in the episode to replay the loads"
            dbt_result = run_dbt(project, warehouse, ["run", "--select", select], timeout_s=budget)
            if not dbt_result.ok:
                return None, f"the {step} failed: {str(dbt_result.summary)[:1500]}"
        con = duckdb.connect(str(warehouse), read_only=True)
        try:
            found = con.execute(
                "select count(*) from information_schema.tables "
                "where table_schema = 'main' and table_name = ?",
                [model],
            ).fetchall()
            if not found or not found[0][0]:
                return None, f"{model} was not built"
            result = con.execute(f'select * from main."{model}"')
            columns = [d[0] for d in result.description or []]
            return table_value(columns, result.fetchall()), None
        finally:
            con.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
