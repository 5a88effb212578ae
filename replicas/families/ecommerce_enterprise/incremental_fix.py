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

import re
import shutil
import tempfile
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from replicas.db import SAFE_DUCKDB_CONFIG, readonly_connection
from replicas.dbt import run_dbt
from replicas.families.ecommerce_enterprise._common import (
    GRADING_WALL_S,
    REPLICA,
    Definition,
    definitions_metadata,
    inject,
    model_files,
)
from replicas.sandbox import copy_project_safely, raw_only_warehouse
from replicas.sandbox.parse_seed import seed_for_grading
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
from replicas.tasks.grading import GradeContext, ReadTimeLimit, TooManyRows, read_built_table
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
        try:
            hidden = hidden_datasets(REPLICA)[0]
        except Exception as exc:  # the hidden data cannot be built: grading cannot be complete
            return fail("grading_error", f"hidden dataset unavailable: {exc}")
        return replay_verdict(
            task,
            ctx,
            (
                Load(
                    "the visible data",
                    "the visible data",
                    raw_only_warehouse(ctx.snapshot),
                    lambda: ctx.pristine_table(f'select * from main."{model}"'),
                ),
                Load(
                    "a hidden dataset",
                    "a hidden dataset",
                    hidden.raw,
                    lambda: _table(hidden.warehouse, model),
                    hidden=True,
                ),
            ),
        )


@dataclass(frozen=True)
class Load:
    """One replayed load: where its raw data is, what it must equal, how feedback names it."""

    objective: str  #: key in the verdict's ``objective_scores``
    label: str  #: how feedback names the data
    raw: Path
    want: Callable[[], dict[str, Any]]
    #: a hidden dataset: feedback names the kinds of difference, never values
    hidden: bool = False


def replay_verdict(task: Task, ctx: GradeContext, loads: Sequence[Load]) -> Verdict:
    """Replay the two loads of ``task``'s model on each of ``loads``' raw data and compare the
    result with what the load wants (v1 and v2 grade alike; only their loads differ)."""
    model = str(task.metadata["model"])
    source = str(task.metadata["source"])
    cutoff = str(task.metadata["cutoff"])
    key = (str(task.verifier.key_columns[0]),)
    reasons: list[Reason] = []
    objective: dict[str, float] = {}
    for load in loads:
        want = load.want()
        bound = 10 * len(want.get("rows", [])) + 1000  # as grading.read_built_table's callers
        got, problem = _replay(ctx, model, source, cutoff, load.raw, bound)
        if problem is not None or got is None:
            if load.hidden:
                problem = _withheld(problem)
            return fail("dbt_build_failed", f"on {load.label}: {problem}")
        verdict = compare_tables(got, want, _config(key))
        objective[load.objective] = verdict.score
        if not verdict.passed:
            codes = {r.code for r in verdict.reasons}
            detail = (
                f"differences of kind {sorted(codes)}"
                if load.hidden
                else " ".join(r.message for r in verdict.reasons[:3])
            )
            reasons.append(
                Reason(
                    sorted(codes)[0] if codes else "wrong_values",
                    f"{model} after an incremental load on {load.label}: {detail}",
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


def _withheld(problem: str | None) -> str:
    """A replay problem on hidden data without its details: dbt's messages and row counts there
    can quote the data (a model can fail on purpose with ``error(<a hidden value>)``)."""
    head = re.sub(r"\d+", "N", (problem or "the replay failed").split(":", 1)[0])
    return f"{head} (details withheld on hidden data: they can quote the data)"


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
    ctx: GradeContext, model: str, source: str, cutoff: str, raw: Path, max_rows: int
) -> tuple[dict[str, Any] | None, str | None]:
    """The agent's model after a first load up to ``cutoff`` and an incremental second load."""
    work = Path(tempfile.mkdtemp(prefix="replicas-sbx-"))
    try:
        project = work / "project"
        refused = copy_project_safely(ctx.project_dir, project)
        if refused:
            return None, "refused project files: " + ", ".join(refused)
        seed_for_grading(project, ctx.start_project)
        warehouse = work / "warehouse.duckdb"
        shutil.copyfile(raw, warehouse)
        # The late rows wait in this process, not in the warehouse: a table there is something
        # the agent's first load can read (or move into the source early, so that a model with
        # the wrong watermark passes) and replace with a view that the insert below would run.
        con = duckdb.connect(str(warehouse))
        try:
            late = con.sql(
                f"select * from raw.\"{source}\" where _loaded_at > timestamp '{cutoff}'"
            ).to_arrow_table()
            con.execute(f"delete from raw.\"{source}\" where _loaded_at > timestamp '{cutoff}'")
        finally:
            con.close()
        for step, select in (("first load", f"+{model}"), ("second load", model)):
            if step == "second load":
                problem = _second_load(warehouse, source, late, ctx)
                if problem is not None:
                    return None, problem
            budget = ctx.time_left()
            if budget <= 1.0:
                return None, "no time was left in the episode to replay the loads"
            dbt_result = run_dbt(project, warehouse, ["run", "--select", select], timeout_s=budget)
            if not dbt_result.ok:
                return None, f"the {step} failed: {str(dbt_result.summary)[:1500]}"
        # the agent's model may be a view: read it the bounded way grading reads every model
        try:
            got = read_built_table(warehouse, model, ctx.time_left(), max_rows=max_rows)
        except ReadTimeLimit as exc:
            ctx.ran_out_of_time = True
            return None, str(exc)
        except TooManyRows as exc:
            return None, f"{model} holds {exc.rows} rows, the reference far fewer"
        if got is None:
            return None, f"{model} was not built"
        return got, None
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _second_load(warehouse: Path, source: str, late: Any, ctx: GradeContext) -> str | None:
    """Append the late rows (an Arrow table) to ``raw.<source>`` of a warehouse the agent's first
    load wrote; ``None`` when done, else why the replay cannot go on.

    Why locked down and interrupted: after the first load, ``raw.<source>`` is whatever the
    agent's project left there (a table with CHECK constraints or expression indexes, say), so
    the insert may run the agent's SQL in this process: it gets the bounds a graded view gets
    (no file access, a memory limit, the grading deadline)."""
    con = duckdb.connect(str(warehouse), config=dict(SAFE_DUCKDB_CONFIG))
    timer = threading.Timer(max(ctx.time_left(), 0.0), con.interrupt)
    timer.daemon = True
    timer.start()
    name = f"late_rows_{uuid.uuid4().hex}"  # a name the agent's objects cannot shadow
    try:
        con.register(name, late)
        con.execute(f'insert into raw."{source}" select * from {name}')
        return None
    except duckdb.InterruptException:
        ctx.ran_out_of_time = True
        return "no time was left in the episode to load the late rows"
    except duckdb.Error as exc:
        return f"the late rows could not be loaded into raw.{source} after the first load: {exc}"
    finally:
        timer.cancel()
        con.close()


# --------------------------------------------------------------------------------------------
# v2: the model to fix is drawn per seed, so the fix is too


@dataclass(frozen=True)
class Stream:
    """A late-arriving event stream a v2 task's incremental model is built on."""

    entity: str  # the model name's stem
    staging: str  # the staging view the model selects from
    source: str  # raw table whose late rows arrive in the second load
    key: str
    segment: str  # the categorical column the model keeps a few values of
    columns: tuple[str, ...]
    folder: str  # models/marts/<folder>/
    what: str  # how a ticket names its rows


STREAMS: tuple[Stream, ...] = (
    Stream(
        "web", "stg_web__events", "web_events", "event_id", "event_type",
        ("event_id", "session_id", "customer_id", "platform", "event_type", "event_at",
         "page_path", "order_id"),
        "marketing", "web and app events",
    ),
    Stream(
        "order_status", "stg_shop__order_status_events", "shop_order_status_events",
        "status_event_id", "order_status",
        ("status_event_id", "order_id", "order_status", "event_at"),
        "commerce", "order status changes",
    ),
    Stream(
        "shipment", "stg_ful__shipment_events", "ful_shipment_events", "shipment_event_id",
        "event_type",
        ("shipment_event_id", "shipment_id", "event_type", "event_at", "event_at_local"),
        "operations", "carrier scan events",
    ),
)  # fmt: skip

_V2_WATERMARK = (
    "and loaded_at > (select max(loaded_at) from {{ this }}) - interval "
    "{{ var('incremental_lookback_hours') }} hour"
)
#: (kind, wrong incremental predicate) — v1's catalogue of wrong watermarks.
_V2_BUGS: tuple[tuple[str, str], ...] = (
    ("event_time_watermark", "and event_at > (select max(event_at) from {{ this }})"),
    ("event_time_watermark", "and event_at >= (select max(event_at) from {{ this }})"),
    ("event_date_watermark",
     "and cast(event_at as date) > (select max(cast(event_at as date)) from {{ this }})"),
    ("load_day_watermark",
     "and cast(loaded_at as date) > (select max(cast(loaded_at as date)) from {{ this }})"),
    ("load_day_watermark",
     "and date_trunc('day', loaded_at) > (select max(date_trunc('day', loaded_at)) "
     "from {{ this }})"),
    *(
        ("lookback_without_unique_key",
         f"and loaded_at >= (select max(loaded_at) from {{{{ this }}}}) - interval {hours} hour")
        for hours in (12, 24, 48, 72)
    ),
)  # fmt: skip
_V2_KINDS: tuple[str, ...] = tuple(dict.fromkeys(kind for kind, _ in _V2_BUGS))
#: When a v2 bug shows in a replay: rows of the second load (``later``) it skips or re-reads,
#: given the first load (``first``), both restricted to the model's rows.
_V2_SHOWS = {
    "event_time_watermark": "event_at <= (select max(event_at) from first)",
    "event_date_watermark": "cast(event_at as date) <= (select max(cast(event_at as date)) from first)",
    "load_day_watermark": "cast(loaded_at as date) <= (select max(cast(loaded_at as date)) from first)",
    "lookback_without_unique_key": "exists (select 1 from first)",
}  # fmt: skip
MAX_V2_DRAWS = 6


@dataclass(frozen=True)
class ModelSpec:
    """One seed's incremental model: which rows of the stream it keeps."""

    stream: Stream
    values: tuple[str, ...]
    since: str  # ISO day: the model keeps events from this day on

    @property
    def name(self) -> str:
        return f"fct_{self.stream.entity}_{'_'.join(self.values)}"

    @property
    def path(self) -> str:
        return f"models/marts/{self.stream.folder}/{self.name}.sql"

    def rows(self) -> str:
        listed = ", ".join(f"'{v}'" for v in self.values)
        return f"{self.stream.segment} in ({listed}) and event_at >= timestamp '{self.since}'"

    def model_sql(self, predicate: str = _V2_WATERMARK, *, unique_key: bool = True) -> str:
        key = f"unique_key='{self.stream.key}', " if unique_key else ""
        columns = ",\n".join(f"    {c}" for c in self.stream.columns)
        listed = ", ".join(f"'{v}'" for v in self.values)
        return (
            f"{{{{ config(materialized='incremental', {key}on_schema_change='fail') }}}}\n\n"
            f"-- {self.stream.what} of type {', '.join(self.values)} since {self.since}, one row "
            f"per {self.stream.key}\n"
            f"select\n{columns},\n"
            "    date_diff('hour', event_at, loaded_at) as load_lag_hours,\n"
            "    loaded_at\n"
            f"from {{{{ ref('{self.stream.staging}') }}}}\n"
            f"where {self.stream.segment} in ({listed})\n"
            f"    and event_at >= timestamp '{self.since}'\n"
            "{% if is_incremental() %}\n"
            f"    {predicate}\n"
            "{% endif %}\n"
        )

    def reference_sql(self) -> str:
        """The model's full refresh as plain SQL over the pristine staging view."""
        columns = ", ".join(self.stream.columns)
        return (
            f"select {columns}, date_diff('hour', event_at, loaded_at) as load_lag_hours, "
            f'loaded_at from main."{self.stream.staging}" where {self.rows()}'
        )


def _v2_spec(ctx: BuildContext, stream: Stream) -> ModelSpec:
    rng = ctx.rng("spec")
    values = [
        str(r[0])
        for r in ctx.query(
            f'select distinct {stream.segment} from main."{stream.staging}" order by 1'
        )
    ]
    size = int(rng.integers(1, min(3, len(values) - 1) + 1))
    chosen = tuple(sorted(str(v) for v in rng.choice(values, size=size, replace=False)))
    first, last = ctx.query(
        f"select min(cast(event_at as date)), max(cast(event_at as date)) "
        f'from main."{stream.staging}"'
    )[0]
    span = int(ctx.scalar(f"select date_diff('day', date '{first}', date '{last}')"))
    offset = int(rng.integers(30, max(31, span // 2)))
    since = str(ctx.scalar(f"select cast(date '{first}' + interval {offset} day as varchar)"))
    return ModelSpec(stream, chosen, since[:10])


def _v2_cutoff(ctx: BuildContext, spec: ModelSpec) -> str:
    q = float(ctx.rng("cutoff").uniform(0.7, 0.9))
    return str(
        ctx.scalar(
            f"select cast(quantile_disc(loaded_at, {q:.4f}) as varchar) "
            f'from main."{spec.stream.staging}" where {spec.rows()}'
        )
    )


def _v2_bug_shows(ctx: BuildContext, spec: ModelSpec, kind: str, cutoff: str) -> bool:
    return bool(
        ctx.scalar(
            f'with seg as (select * from main."{spec.stream.staging}" where {spec.rows()}), '
            f"first as (select * from seg where loaded_at <= timestamp '{cutoff}'), "
            f"later as (select * from seg where loaded_at > timestamp '{cutoff}') "
            f"select count(*) from later where {_V2_SHOWS[kind]}"
        )
    )


@register_family
class IncrementalFixV2(IncrementalFix):
    """``ecommerce_enterprise.incremental_fix-v2``: the incremental model to fix is drawn per
    seed, and grading has its own time budget.

    What changed from v1, and why:

    * v1 patched one of three fixed models, and its fix restored that model's pristine file:
      the hard-v1 audit's ``seed_sensitivity`` check found the fix for ``fct_web_events`` on
      every seed (a memorised file would do). In v2 the ticket's model is one the seed defines:
      an incremental model over one of the three late-arriving streams (web events, order
      status changes, carrier scans) keeping a seed-drawn set of event types from a seed-drawn
      launch day on (both drawn from the seed's data). Its correct file — and the rows a full
      refresh gives, which is what grading compares — differ per seed, so another seed's fix
      builds the wrong rows. The wrong watermarks are v1's catalogue.
    * The reference is the model's full refresh written as plain SQL over the pristine
      staging view (``VerifierConfig.reference_sql``), on the visible data and on a hidden
      dataset; the verdict reports ``hidden_data`` like every hidden-data grader.
    * Grading (two replayed loads on two datasets: four dbt runs) has its own budget
      (``GRADING_WALL_S`` from ``submit``): the audit found v1's oracle scoring 0 on a loaded
      machine when the replay ran past the episode's remaining time.
    """

    name = "ecommerce_enterprise.incremental_fix-v2"
    description = (
        "A seed-defined incremental model mishandles late-arriving rows; graded by replaying "
        "loads (own time budget)."
    )

    def make(self, ctx: BuildContext) -> Task:
        stream = STREAMS[(ctx.variant + ctx.seed) % len(STREAMS)]
        problems: list[str] = []
        for draw in range(MAX_V2_DRAWS):
            sub = BuildContext(self, ctx.snapshot, ctx.seed, ctx.variant, ctx.attempt + 25 * draw)
            spec = _v2_spec(sub, stream)
            rng = sub.rng("bug")
            # the kind first, then its wording: each kind is equally likely
            kind = _V2_KINDS[int(rng.integers(0, len(_V2_KINDS)))]
            wordings = [p for k, p in _V2_BUGS if k == kind]
            predicate = wordings[int(rng.integers(0, len(wordings)))]
            cutoff = _v2_cutoff(sub, spec)
            if _v2_bug_shows(sub, spec, kind, cutoff):
                return self._task(ctx, spec, kind, predicate, cutoff)
            problems.append(f"{kind} on {spec.name} does not show at {cutoff}")
        raise TaskBuildError(f"{self.name} seed {ctx.seed}: " + "; ".join(problems))

    def _task(
        self, ctx: BuildContext, spec: ModelSpec, kind: str, predicate: str, cutoff: str
    ) -> Task:
        correct = spec.model_sql()
        broken = spec.model_sql(predicate, unique_key=kind != "lookback_without_unique_key")
        if kind == "lookback_without_unique_key":
            symptom = f"{spec.name} holds the same event twice after incremental runs"
        else:
            symptom = (
                "rows that arrive late (loaded days after they happened) never show up in "
                f"{spec.name}, although they are in the source"
            )
        stream = spec.stream
        system = stream.source.split("_")[0]
        instruction = (
            f"Data platform ticket: {symptom}. {spec.name} ({spec.path}) is an incremental "
            f"model of {stream.what}; which rows it keeps is stated in the model. Fix it so "
            "that incremental runs give exactly what a full refresh gives, without dropping its "
            "incremental materialization or changing which rows it keeps, and backfill it. "
            "Grading replays production: your project is built on the data loaded up to a "
            "cut-off, the later loads arrive, and the model is run again incrementally, on "
            "this data and on a hidden dataset of the same schema. When done, submit a "
            "one-sentence summary of the fix."
        )
        return ctx.task(
            instruction=instruction,
            answer_kind="dbt",
            verifier=VerifierConfig(
                dbt_models=(spec.name,),
                key_columns=(stream.key,),
                reference_sql={spec.name: spec.reference_sql()},
                hidden_data=True,
            ),
            sandbox_patch={spec.path: broken},
            oracle=(
                write_file(spec.path, correct),
                dbt(f"run --full-refresh --select {spec.name}"),
                submit(f"Restored the loaded_at watermark and unique_key of {spec.name}."),
            ),
            limits=Limits(grading_wall_s=GRADING_WALL_S),
            metadata={
                "model": spec.name,
                "bug": kind,
                "source": stream.source,
                "cutoff": cutoff,
                "rows": spec.rows(),
                **definitions_metadata(
                    (
                        Definition(
                            "late-arriving rows and loaded_at",
                            "file",
                            f"models/staging/{system}/_{system}__sources.yml",
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
        reference = task.verifier.reference_sql[str(task.metadata["model"])]
        try:
            hidden = hidden_datasets(REPLICA)[0]
        except Exception as exc:  # the hidden data cannot be built: grading cannot be complete
            return fail("grading_error", f"hidden dataset unavailable: {exc}")
        return replay_verdict(
            task,
            ctx,
            (
                Load(
                    "visible_data",
                    "the visible data",
                    raw_only_warehouse(ctx.snapshot),
                    lambda: ctx.pristine_table(reference),
                ),
                Load(
                    "hidden_data",
                    "a hidden dataset",
                    hidden.raw,
                    lambda: _query_table(hidden.warehouse, reference),
                    hidden=True,
                ),
            ),
        )


def _query_table(warehouse: Path, sql: str) -> dict[str, Any]:
    """``sql`` on a hidden reference warehouse (the kit's one shared read-only connection)."""
    con = readonly_connection(warehouse).cursor()
    try:
        result = con.execute(sql)
        columns = [d[0] for d in result.description or []]
        return table_value(columns, result.fetchall())
    finally:
        con.close()
