"""Check 8 — dbt tasks: pristine builds, broken fails the way the task says, fixed passes.

Reuses the episodes other checks play, so it costs no extra dbt run:

- the pristine project builds: the snapshot's own ``dbt build`` (recorded in its manifest)
  succeeded with no failing test;
- the patch really changes the project (every patched file differs from the pristine one);
- the broken project fails: the null episode (which submits the untouched, patched sandbox)
  fails because a target model differs from its reference or is missing — a grading error, or a
  build failure of a model that exists, is not "the way the task says" and makes it ``broken``
  (a passing broken project makes it ``hackable``);
- the fixed project passes: the oracle episode (its edits, then grading) scores 1.0.
"""

from __future__ import annotations

from pathlib import Path

from replicas.audit._context import AuditContext
from replicas.audit._model import CheckResult
from replicas.audit._registry import Check, failed, passed, register_check, skipped

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


def run(ctx: AuditContext) -> CheckResult:
    if not ctx.is_dbt:
        return skipped(NAME, "not a dbt task")
    broken: list[str] = [*_pristine_problems(ctx), *_patch_problems(ctx)]
    hackable: list[str] = []
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
    data = {
        "broken_reasons": sorted(codes),
        "fixed_passes": oracle.passed,
        "models": list(ctx.task.verifier.dbt_models),
    }
    if broken:
        return failed(NAME, "broken", [*broken, *hackable], data)
    if hackable:
        return failed(NAME, "hackable", hackable, data)
    return passed(
        NAME,
        [
            "pristine project built with its tests passing",
            f"broken project fails: {', '.join(sorted(codes))}",
            "fixed project passes",
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
