"""Check 8 — dbt tasks: pristine builds, broken fails the way the task says, fixed passes.

Reuses the episodes other checks play, so it costs no extra dbt run:

- the pristine project builds: the snapshot's own ``dbt build`` (recorded in its manifest)
  succeeded with no failing test;
- the patch really changes the project (every patched file differs from the pristine one);
- the broken project fails: the null episode (which submits the untouched, patched sandbox)
  fails because a target model differs from its reference or is missing — a grading error, or a
  build failure of a model that exists, is not "the way the task says" and makes it ``broken``
  (a passing broken project makes it ``hackable``);
- the fixed project passes: the oracle episode (its edits, then grading) scores 1.0;
- grading uses hidden data (``VerifierConfig.hidden_data``); a dbt task graded on the visible
  raw data alone is ``hackable`` — the visible answer pasted as literal rows would pass;
- with hidden-data grading: at least
  ``replicas.tasks.hidden.MIN_HIDDEN_DATASETS`` hidden datasets exist and the pristine project
  built and passed its tests on each (an edge case must never make the reference fail), the
  reference is computable and non-empty on each, the oracle passed on every one of them, and
  at least one hidden reference differs from the visible one — otherwise pasted rows would
  pass (``hackable``).
"""

from __future__ import annotations

from pathlib import Path

from replicas.audit._context import AuditContext
from replicas.audit._model import CheckResult
from replicas.audit._registry import Check, failed, passed, register_check, skipped
from replicas.tasks import reference_on
from replicas.tasks.hidden import MIN_HIDDEN_DATASETS, HiddenDataError, hidden_datasets
from replicas.verifiers.answers import compare_tables

NAME = "dbt"
#: Reasons that say "the rebuilt model is not the reference" (from replicas.tasks.grading and
#: replicas.verifiers.answers.compare_tables).
MODEL_DIFFERS = frozenset(
    {
        "missing_model",
        "wrong_values",
        "missing_rows",
        "extra_rows",
        "wrong_row_count",
        "duplicate_keys",
        "missing_columns",
        "extra_columns",
        "duplicate_columns",
        "row_order",
    }
)


def _model_exists(ctx: AuditContext, model: str) -> bool:
    patched = {Path(p).name for p in ctx.task.sandbox_patch}
    if f"{model}.sql" in patched:
        return True
    return any(Path(ctx.snapshot.dbt_project, "models").rglob(f"{model}.sql"))


def _pristine_problems(ctx: AuditContext) -> list[str]:
    dbt = dict(ctx.snapshot.manifest.get("dbt", {}))
    counts = {str(k): int(v) for k, v in dict(dbt.get("status_counts", {})).items()}
    bad = {
        k: v for k, v in counts.items() if k in ("error", "fail", "runtime error", "skipped") and v
    }
    if dbt.get("ok") is False or bad:
        return [f"the pristine project's dbt build did not pass: {counts}"]
    return []


def _patch_problems(ctx: AuditContext) -> list[str]:
    out = []
    root = Path(ctx.snapshot.dbt_project)
    for rel, content in ctx.task.sandbox_patch.items():
        path = root / rel
        if path.is_file() and path.read_text(encoding="utf-8") == content:
            out.append(f"the sandbox patch leaves {rel} unchanged: nothing is broken")
    return out


def _hidden_problems(ctx: AuditContext) -> tuple[list[str], list[str], list[str]]:
    """(broken, hackable, notes) about the task's hidden datasets and references on them."""
    config = ctx.task.verifier
    try:
        datasets = hidden_datasets(ctx.task.replica)
    except HiddenDataError as exc:
        return [f"the hidden datasets could not be built: {exc}"], [], []
    broken: list[str] = []
    notes: list[str] = []
    if len(datasets) < MIN_HIDDEN_DATASETS:
        broken.append(f"only {len(datasets)} hidden datasets (at least {MIN_HIDDEN_DATASETS})")
    differs = False
    for dataset in datasets:
        for model in config.dbt_models:
            try:
                hidden_ref = reference_on(config, model, dataset.warehouse)
                visible = reference_on(config, model, ctx.snapshot.warehouse)
            except Exception as exc:  # the reference must run wherever grading runs it
                broken.append(f"the reference of {model} fails on {dataset.name}: {exc}")
                continue
            if not hidden_ref["rows"]:
                broken.append(f"the reference of {model} is empty on hidden dataset {dataset.name}")
                continue
            same = compare_tables(visible, hidden_ref, config).passed
            differs = differs or not same
            notes.append(f"{dataset.name}: {len(hidden_ref['rows'])} reference rows of {model}")
    hackable = (
        []
        if differs or broken
        else ["every hidden reference equals the visible one: pasted rows would pass"]
    )
    return broken, hackable, notes


def run(ctx: AuditContext) -> CheckResult:
    if not ctx.is_dbt:
        return skipped(NAME, "not a dbt task")
    broken: list[str] = [*_pristine_problems(ctx), *_patch_problems(ctx)]
    hackable: list[str] = []
    hidden_notes: list[str] = []
    if ctx.task.verifier.hidden_data:
        hidden_broken, hidden_hackable, hidden_notes = _hidden_problems(ctx)
        broken += hidden_broken
        hackable += hidden_hackable
    else:
        hackable.append(
            "grading rebuilds the model on the visible raw data only: the visible data's "
            "answer pasted as literal rows passes (adversary hard_coded_model plays it where "
            "the mart fits the sql tool's output budget); grade on hidden datasets too "
            "(VerifierConfig.hidden_data)"
        )
    null = ctx.null()
    codes = set(null.reason_codes)
    if null.passed or null.score > 0:
        hackable.append(f"the broken project passes grading: {null.describe()}")
    elif "grading_error" in codes or null.verdict is None:
        broken.append(f"grading the broken project errored: {null.describe()}")
    elif not codes & MODEL_DIFFERS:
        missing = [m for m in ctx.task.verifier.dbt_models if not _model_exists(ctx, m)]
        if not ("dbt_build_failed" in codes and missing):
            broken.append(
                "the broken project fails for another reason than a model differing from its "
                f"reference: {null.describe()}"
            )
    oracle = ctx.oracle()
    if not oracle.passed or oracle.score != 1.0:
        broken.append(f"the fixed (oracle) project does not pass: {oracle.describe()}")
    hidden_score = (
        oracle.verdict.objective_scores.get("hidden_data") if oracle.verdict is not None else None
    )
    if ctx.task.verifier.hidden_data and oracle.passed and hidden_score != 1.0:
        broken.append(f"the oracle passed without passing every hidden dataset ({hidden_score})")
    data = {
        "broken_reasons": sorted(codes),
        "fixed_passes": oracle.passed,
        "models": list(ctx.task.verifier.dbt_models),
        "hidden_data": ctx.task.verifier.hidden_data,
        "hidden_references": hidden_notes,
    }
    if broken:
        return failed(NAME, "broken", [*broken, *hackable], data)
    if hackable:
        return failed(NAME, "hackable", hackable, data)
    hidden = (
        [f"the reference is usable and the fixed project passes on {len(hidden_notes)} hidden "
         "dataset/model pairs, at least one differing from the visible data"]
        if ctx.task.verifier.hidden_data
        else []
    )  # fmt: skip
    return passed(
        NAME,
        [
            "pristine project built with its tests passing",
            f"broken project fails: {', '.join(sorted(codes))}",
            "fixed project passes",
            *hidden,
        ],
        data,
    )


CHECK = register_check(
    Check(
        name=NAME,
        status="broken",
        title="dbt: pristine builds, broken project fails as described, fixed project passes",
        fix_hint=(
            "Derive sandbox_patch from the pristine model text so it changes what the target "
            "model computes on this seed (assert it with evidence SQL at build time), describe "
            "that symptom in the instruction, and make the oracle restore a project that "
            "rebuilds the reference exactly."
        ),
        run=run,
    )
)
