"""Shared helpers of the hard ``ecommerce_enterprise`` families.

* Definitions live in the project, not in the instruction. Each task records in
  ``metadata["definitions_source"]`` where every definition it depends on can be read (a project
  file and a phrase it contains, or a relation the ``sql`` tool can query), and in
  ``metadata["naive_reading"]`` the wrong reading an agent that trusts the instruction alone
  would submit; the audit's ``definitions`` check proves both.
* dbt patches are evaluated without dbt: the models between a patched model and a graded mart
  are rendered (``ref`` → relation name, ``source`` → ``raw.<table>``) and inlined as CTEs that
  shadow the stored relations, so a build can check on the pristine snapshot that each injected
  defect really changes the graded mart.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from replicas.seeding import table_rng
from replicas.tasks import BuildContext, Task, TaskBuildError, TaskFamily, format_task_id

REPLICA = "ecommerce_enterprise"
#: Quarters of the data window that are complete fiscal quarters (FY<N> starts 1 Feb of N-1).
FISCAL_QUARTERS: tuple[str, ...] = (
    "FY2025-Q1", "FY2025-Q2", "FY2025-Q3", "FY2025-Q4",
    "FY2026-Q1", "FY2026-Q2", "FY2026-Q3", "FY2026-Q4", "FY2027-Q1",
)  # fmt: skip
CALENDAR_QUARTERS: tuple[tuple[int, int], ...] = tuple(
    (year, q) for year in (2024, 2025, 2026) for q in (1, 2, 3, 4) if (year, q) <= (2026, 2)
)

#: Grading budget of the hard ``-v2`` dbt families (``Limits.grading_wall_s``), counted from
#: ``submit``. The hidden-data rebuild of the 131-model project took 110–235 s per dbt build on a
#: machine loaded far past its cores, and grading runs up to five dbt builds (visible and hidden
#: data, or two replayed loads on two datasets): 30 minutes is generous, yet a model that never
#: finishes is still stopped and scored 0.
GRADING_WALL_S = 1800.0

_REF = re.compile(r"\{\{\s*ref\(\s*'(\w+)'\s*\)\s*\}\}")
_SOURCE = re.compile(r"\{\{\s*source\(\s*'(\w+)'\s*,\s*'(\w+)'\s*\)\s*\}\}")


@dataclass(frozen=True)
class Definition:
    """Where one definition a task depends on lives: ``file`` (project path + a phrase in it)
    or ``relation`` (a relation the sql tool can query + a column it has)."""

    what: str
    kind: str
    where: str
    contains: str

    def __post_init__(self) -> None:
        if self.kind not in ("file", "relation"):
            raise ValueError(f"definition kind must be file or relation, got {self.kind!r}")
        if not self.what or not self.where or not self.contains:
            raise ValueError("a definition names what it defines, where, and what it contains")

    def to_dict(self) -> dict[str, str]:
        return {
            "what": self.what,
            "kind": self.kind,
            "where": self.where,
            "contains": self.contains,
        }


def definitions_metadata(
    definitions: Iterable[Definition], naive_reading: str | None = None
) -> dict[str, Any]:
    out: dict[str, Any] = {"definitions_source": [d.to_dict() for d in definitions]}
    if naive_reading is not None:
        out["naive_reading"] = naive_reading
    return out


def with_v1_draws(ctx: BuildContext, v1: TaskFamily) -> BuildContext:
    """``ctx`` for the v1 family: its randomness (``ctx.rng``, ``distinct_pick``) is keyed by
    the family name, so a -v2 family that only changes grading draws v1's exact tasks."""
    return BuildContext(v1, ctx.snapshot, ctx.seed, ctx.variant, ctx.attempt)


def as_family(task: Task, family: str, *, grading_wall_s: float | None = None) -> Task:
    """``task`` published under ``family`` (a new version), optionally with its own grading
    budget; everything else — instruction, answer, oracle, patch — is kept as it is."""
    limits = task.limits
    if grading_wall_s is not None:
        limits = replace(limits, grading_wall_s=grading_wall_s)
    return replace(
        task,
        id=format_task_id(family, task.seed, task.variant, task.scale),
        family=family,
        limits=limits,
    )


def quarter_bounds(year: int, quarter: int) -> tuple[str, str]:
    """First and last ISO day of a calendar quarter."""
    start_month = 3 * (quarter - 1) + 1
    end_month = start_month + 2
    last_day = {3: 31, 6: 30, 9: 30, 12: 31}[end_month]
    return f"{year}-{start_month:02d}-01", f"{year}-{end_month:02d}-{last_day}"


def pick(ctx: BuildContext, salt: str, options: Sequence[Any]) -> Any:
    return options[int(ctx.rng(salt).integers(0, len(options)))]


def distinct_pick(ctx: BuildContext, options: Sequence[Any]) -> Any:
    """An option no other variant of this seed gets (while attempts fit in the options): a
    seed-level shuffle, read at ``variant + attempt * n_variants``."""
    order = table_rng(ctx.seed, ctx.family.name, "distinct").permutation(len(options))
    slot = ctx.variant + ctx.attempt * ctx.family.variants(ctx.seed)
    if slot >= len(options):
        # This variant's own slots are used up: walk every option, so a sparse condition (say,
        # internal accounts that only buy in some channels) is found if the data has it at all.
        slot = ctx.variant + ctx.attempt
    return options[int(order[slot % len(options)])]


# --------------------------------------------------------------------------------------------
# rendering models of the pristine project to plain SQL


def source_identifier(system: str, table: str) -> str:
    return f'raw."{system}_{table}"'


def render(model_sql: str) -> str:
    """Plain DuckDB SQL of a model whose only Jinja is ``ref``/``source`` (refs unqualified, so a
    CTE of the same name shadows the stored relation)."""
    sql = _REF.sub(lambda m: f'"{m.group(1)}"', model_sql)
    sql = _SOURCE.sub(lambda m: source_identifier(m.group(1), m.group(2)), sql)
    sql = "\n".join(line for line in sql.splitlines() if not line.lstrip().startswith("--"))
    if "{{" in sql or "{%" in sql:
        raise TaskBuildError("only models whose Jinja is ref()/source() can be evaluated")
    return sql


def model_files(project: Path) -> dict[str, str]:
    """Model name → project-relative path of its SQL file."""
    return {
        p.stem: p.relative_to(project).as_posix()
        for p in sorted((project / "models").rglob("*.sql"))
    }


def refs_of(sql: str) -> set[str]:
    return set(_REF.findall(sql))


def evaluation_sql(
    ctx: BuildContext, target: str, overrides: Mapping[str, str], files: Mapping[str, str]
) -> str:
    """SQL of ``target`` as the project computes it when the model files in ``overrides``
    (model → SQL text) replace the pristine ones: every model on a path from an overridden
    model to ``target`` becomes a CTE, the rest are read from the pristine snapshot."""
    texts: dict[str, str] = {}

    def text(model: str) -> str:
        if model not in texts:
            texts[model] = overrides.get(model) or ctx.project_file(files[model])
        return texts[model]

    affected: dict[str, bool] = {}

    def depends(model: str) -> bool:
        if model not in affected:
            affected[model] = model in overrides or any(
                depends(parent) for parent in refs_of(text(model)) if parent in files
            )
        return affected[model]

    order: list[str] = []

    def visit(model: str) -> None:
        if model in order or not depends(model):
            return
        for parent in sorted(refs_of(text(model))):
            if parent in files:
                visit(parent)
        order.append(model)

    visit(target)
    if target not in order:
        return f'select * from main."{target}"'
    ctes = ",\n".join(f'"{m}" as (\n{render(text(m))}\n)' for m in order)
    return f'with {ctes}\nselect * from "{target}"'


def differ(ctx: BuildContext, left_sql: str, right_sql: str) -> bool:
    """Whether two queries return different multisets of rows on the pristine snapshot."""
    sql = (
        f"select count(*) from (select * from (({left_sql}) except all ({right_sql})) "
        f"union all select * from (({right_sql}) except all ({left_sql})))"
    )
    try:
        return bool(ctx.scalar(sql))
    except Exception as exc:  # a patch whose SQL cannot run is a catalogue bug
        raise TaskBuildError(f"patched model SQL does not run: {exc}") from exc


def flexible(snippet: str) -> re.Pattern[str]:
    """``snippet`` as a regex tolerating any whitespace between its tokens."""
    return re.compile(r"\s+".join(re.escape(t) for t in snippet.split()))


def inject(pristine: str, find: str, replace: str, what: str) -> str:
    pattern = flexible(find)
    hits = pattern.findall(pristine)
    if len(hits) != 1:
        raise TaskBuildError(f"{what}: expected its snippet exactly once, found {len(hits)}")
    return pattern.sub(lambda _: replace, pristine, count=1)
