"""Suites: versioned, frozen lists of task ids (``core-v1``).

A suite is what runs, audits and reports compare across agents and kit versions, so its ids must
never change once published. Each suite therefore has two halves:

- a *plan* (``SuiteSpec``): which families, on which seeds, how many variants per seed. It is
  the recipe the id list was generated from, kept in code so a reader sees the composition;
- the *published list*: ``replicas/suites/<name>.txt``, one task id per line, shipped as package
  data. ``get_suite`` reads only this file. ``plan_suite`` regenerates the list from the plan and a
  test asserts the two agree, so an accidental change to the plan (or a family being renamed)
  fails loudly instead of silently re-numbering a published suite.

A behaviour change of a family bumps its version (``-v2``) and with it the ids, which is why a
new suite version (``core-v2``), not an edit of ``core-v1``, is the way to move on.

Example::

    from replicas.suite import get_suite
    suite = get_suite("core-v3")
    suite.task_ids[:2]      # ('ecommerce.revenue_period-v2.s1.0', ...)
    tasks = suite.tasks()   # Task objects, built through task_from_id (cached)
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from replicas.atomicio import write_text_atomic
from replicas.registry import Registry
from replicas.tasks.base import DEFAULT_SCALE, TaskId, format_task_id
from replicas.tasks.loader import task_from_id
from replicas.tasks.registry import family_names

if TYPE_CHECKING:
    from replicas.tasks.base import Task

#: Published lists live in ``replicas/suites/`` as package data of ``replicas`` (glob
#: ``suites/*.txt``), not as a subpackage, so no ``__init__.py`` is needed.
SUITES_DIR = "suites"
DEFAULT_SUITE = "core-v9"
_COMMENT = "#"


@dataclass(frozen=True)
class SuiteEntry:
    """One family's share of a suite: variants ``0..variants_per_seed-1`` on each seed.

    ``max_tasks`` keeps only the first tasks of that grid (seed-major order), for families whose
    episodes are expensive (dbt rebuilds) and need only the minimum count.
    """

    family: str
    seeds: tuple[int, ...]
    variants_per_seed: int
    max_tasks: int | None = None

    def __post_init__(self) -> None:
        # format_task_id validates the family name's shape; seed 0 / variant 0 are always valid.
        format_task_id(self.family, 0, 0)
        seeds = tuple(self.seeds)
        if not seeds or len(set(seeds)) != len(seeds):
            raise ValueError(f"{self.family}: seeds must be a non-empty tuple of distinct ints")
        if any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in seeds):
            raise ValueError(f"{self.family}: seeds must be ints >= 0, got {seeds}")
        object.__setattr__(self, "seeds", seeds)
        if not isinstance(self.variants_per_seed, int) or self.variants_per_seed < 1:
            raise ValueError(f"{self.family}: variants_per_seed must be an int >= 1")
        grid = len(seeds) * self.variants_per_seed
        if self.max_tasks is not None and not 1 <= self.max_tasks <= grid:
            raise ValueError(f"{self.family}: max_tasks must be in 1..{grid}, got {self.max_tasks}")

    @property
    def size(self) -> int:
        grid = len(self.seeds) * self.variants_per_seed
        return grid if self.max_tasks is None else self.max_tasks

    def task_ids(self, scale: float = DEFAULT_SCALE) -> list[str]:
        ids = [
            format_task_id(self.family, seed, variant, scale)
            for seed in self.seeds
            for variant in range(self.variants_per_seed)
        ]
        return ids[: self.size]


@dataclass(frozen=True)
class SuiteSpec:
    """The recipe of a suite (its families, seeds and variants); see the module docstring."""

    name: str
    description: str
    entries: tuple[SuiteEntry, ...]

    def __post_init__(self) -> None:
        if not self.name or not all(c.isalnum() or c in "-_." for c in self.name):
            raise ValueError(f"suite name must be [A-Za-z0-9._-]+, got {self.name!r}")
        entries = tuple(self.entries)
        families = [e.family for e in entries]
        if not entries or len(set(families)) != len(families):
            raise ValueError(f"suite {self.name}: entries must name distinct families")
        object.__setattr__(self, "entries", entries)


@dataclass(frozen=True)
class Suite:
    """A published suite: its name and frozen task ids (at the default scale)."""

    name: str
    description: str
    task_ids: tuple[str, ...]

    def __post_init__(self) -> None:
        ids = tuple(self.task_ids)
        if not ids:
            raise ValueError(f"suite {self.name} has no tasks")
        if len(set(ids)) != len(ids):
            raise ValueError(f"suite {self.name} lists a task id twice")
        for task_id in ids:
            TaskId.parse(task_id)  # ValueError on a malformed id
        object.__setattr__(self, "task_ids", ids)

    def __len__(self) -> int:
        return len(self.task_ids)

    def ids_at(self, scale: float | None = None) -> tuple[str, ...]:
        """The suite's ids at another scale (the same tasks, built on a bigger snapshot)."""
        if scale is None:
            return self.task_ids
        _check_scale(scale)
        out = []
        for task_id in self.task_ids:
            tid = TaskId.parse(task_id)
            out.append(format_task_id(tid.family, tid.seed, tid.variant, scale))
        return tuple(out)

    def families(self) -> list[str]:
        """Family names in the order they first appear."""
        return list(dict.fromkeys(TaskId.parse(t).family for t in self.task_ids))

    def tasks(self, scale: float | None = None) -> list[Task]:
        """Every task, built (or loaded from the task cache) through ``task_from_id``."""

        return [task_from_id(task_id) for task_id in self.ids_at(scale)]


def _check_scale(scale: float) -> None:
    if isinstance(scale, bool) or not isinstance(scale, (int, float)):
        raise ValueError(f"scale must be a number, got {scale!r}")
    if not math.isfinite(scale) or scale <= 0:
        raise ValueError(f"scale must be a positive number, got {scale!r}")


# --------------------------------------------------------------------------------------------
# the suites

_ECOMMERCE_SEEDS = (1, 2, 3)
_CARDS_SEEDS = (1, 2, 3)

#: ecommerce question families: 3 seeds x 3 variants = 9 tasks each.
_QUESTION_VARIANTS = 3
#: credit_cards families are cheap to run (no dbt): 3 seeds x 4 variants = 12 tasks each.
_CARDS_VARIANTS = 4
#: dbt families cost three dbt subprocesses per oracle + null check, so they get the minimum
#: of 5 tasks (s1.0, s1.1, s2.0, s2.1, s3.0).
_DBT_VARIANTS = 2
_DBT_TASKS = 5

CORE_V1 = SuiteSpec(
    name="core-v1",
    description=(
        "The core suite: 10 ecommerce data-engineering families (SQL questions, dbt fixes and "
        "new models, data quality, metric reconciliation) and 4 credit_cards compliance "
        "families (card terms Q&A, eligibility, recommendation, offer audit), seeds 1-3, "
        "scale 0.01."
    ),
    entries=(
        SuiteEntry("ecommerce.revenue_period-v1", _ECOMMERCE_SEEDS, _QUESTION_VARIANTS),
        SuiteEntry("ecommerce.revenue_breakdown-v1", _ECOMMERCE_SEEDS, _QUESTION_VARIANTS),
        SuiteEntry("ecommerce.top_n-v1", _ECOMMERCE_SEEDS, _QUESTION_VARIANTS),
        SuiteEntry("ecommerce.repeat_purchase-v1", _ECOMMERCE_SEEDS, _QUESTION_VARIANTS),
        SuiteEntry("ecommerce.aov_trend-v1", _ECOMMERCE_SEEDS, _QUESTION_VARIANTS),
        SuiteEntry("ecommerce.funnel-v1", _ECOMMERCE_SEEDS, _QUESTION_VARIANTS),
        SuiteEntry("ecommerce.data_quality-v1", _ECOMMERCE_SEEDS, _QUESTION_VARIANTS),
        SuiteEntry("ecommerce.metric_reconciliation-v1", _ECOMMERCE_SEEDS, _QUESTION_VARIANTS),
        SuiteEntry("ecommerce.dbt_fix-v1", _ECOMMERCE_SEEDS, _DBT_VARIANTS, _DBT_TASKS),
        SuiteEntry("ecommerce.dbt_new_model-v1", _ECOMMERCE_SEEDS, _DBT_VARIANTS, _DBT_TASKS),
        SuiteEntry("credit_cards.card_terms_qa-v1", _CARDS_SEEDS, _CARDS_VARIANTS),
        SuiteEntry("credit_cards.eligibility-v1", _CARDS_SEEDS, _CARDS_VARIANTS),
        SuiteEntry("credit_cards.recommend_card-v1", _CARDS_SEEDS, _CARDS_VARIANTS),
        SuiteEntry("credit_cards.offer_audit-v1", _CARDS_SEEDS, _CARDS_VARIANTS),
    ),
)

#: hard-v1 runs on the enterprise replica, on seeds core-v1 never uses.
_HARD_SEEDS = (11, 12)
_HARD_VARIANTS = 4
#: dbt families replay loads or rebuild on hidden datasets: 7 tasks each keeps the suite at 60.
_HARD_DBT_TASKS = 7
_HARD = "ecommerce_enterprise."

HARD_V1 = SuiteSpec(
    name="hard-v1",
    description=(
        "The hard suite on the ecommerce_enterprise replica (131 dbt models, 41 sources): "
        "stakeholder questions whose definitions live in the project (Finance revenue, SCD2 "
        "category attribution, governed semantic-layer metrics, identity-resolved customers) "
        "and dbt work graded on hidden data (a two-layer incident, an incremental model's "
        "late-arriving rows, a Snowflake-to-DuckDB port, a monolith refactor), seeds 11-12, "
        "scale 0.01."
    ),
    entries=(
        SuiteEntry(_HARD + "finance_revenue-v1", _HARD_SEEDS, _HARD_VARIANTS),
        SuiteEntry(_HARD + "category_revenue_asof-v1", _HARD_SEEDS, _HARD_VARIANTS),
        SuiteEntry(_HARD + "governed_metric-v1", _HARD_SEEDS, _HARD_VARIANTS),
        SuiteEntry(_HARD + "people_count-v1", _HARD_SEEDS, _HARD_VARIANTS),
        SuiteEntry(_HARD + "multi_layer_incident-v1", _HARD_SEEDS, _HARD_VARIANTS, _HARD_DBT_TASKS),
        SuiteEntry(_HARD + "incremental_fix-v1", _HARD_SEEDS, _HARD_VARIANTS, _HARD_DBT_TASKS),
        SuiteEntry(_HARD + "dialect_migration-v1", _HARD_SEEDS, _HARD_VARIANTS, _HARD_DBT_TASKS),
        SuiteEntry(_HARD + "refactor_split-v1", _HARD_SEEDS, _HARD_VARIANTS, _HARD_DBT_TASKS),
    ),
)


def _bumped(entry: SuiteEntry, family: str) -> SuiteEntry:
    return SuiteEntry(family, entry.seeds, entry.variants_per_seed, entry.max_tasks)


#: core-v2: core-v1's families at -v2, same seeds, variants and sizes. Grading rewards only the
#: work: dbt tasks are graded on hidden datasets too, eligibility/recommend_card withhold the
#: marts that precomputed their answers, tolerances are exactly what the instructions state
#: (rendered from the grader's config), scopes cannot be read as a web filter, and oracles use
#: only what the conversation revealed. Published core-v1 ids keep their v1 behaviour.
CORE_V2 = SuiteSpec(
    name="core-v2",
    description=(
        "The core suite, version 2: the 14 families of core-v1 at -v2 (dbt tasks graded on "
        "hidden datasets, no answer readable by one lookup, tolerances stated in the grader's "
        "words, unambiguous scopes), seeds 1-3, scale 0.01."
    ),
    entries=tuple(_bumped(e, e.family.replace("-v1", "-v2")) for e in CORE_V1.entries),
)

#: The hard-v1 families hard-v2 bumps (the audit found them unusable at v1, see each -v2
#: family's docstring); the other four keep their v1 ids.
_HARD_V2_BUMPS = frozenset(
    _HARD + f
    for f in (
        "category_revenue_asof-v1",
        "multi_layer_incident-v1",
        "incremental_fix-v1",
        "dialect_migration-v1",
    )
)

#: hard-v2: hard-v1 with the four families its audit found unusable bumped to -v2, same seeds,
#: variants and sizes. The dbt families grade on their own time budget (a correct answer no
#: longer loses to a slow grader on a loaded machine), incremental_fix's model is drawn per
#: seed (nothing to memorise), and no category_revenue_asof variant is answered by one lookup.
HARD_V2 = SuiteSpec(
    name="hard-v2",
    description=(
        "The hard suite, version 2: hard-v1 with multi_layer_incident, incremental_fix and "
        "dialect_migration at -v2 (grading on its own time budget; incremental_fix's model "
        "drawn per seed) and category_revenue_asof at -v2 (no answer readable by one lookup), "
        "seeds 11-12, scale 0.01."
    ),
    entries=tuple(
        _bumped(e, e.family.replace("-v1", "-v2")) if e.family in _HARD_V2_BUMPS else e
        for e in HARD_V1.entries
    ),
)

#: The core-v2 families core-v3 bumps: the credit_cards families whose grading (or, for
#: offer_audit, whose drafts) runs the compliance verifier, now under ruleset 10 rather than the
#: frozen ruleset 3 (see each -v3 family's docstring). eligibility-v2 never calls the verifier.
_CORE_V3_BUMPS = frozenset(
    f"credit_cards.{f}-v2" for f in ("card_terms_qa", "recommend_card", "offer_audit")
)

#: core-v3: core-v2 with the three credit_cards families that use the compliance verifier at
#: -v3 (compliance ruleset 10, the verifier's current detections; issue 13), same seeds, variants
#: and sizes. The other eleven families keep their core-v2 ids.
CORE_V3 = SuiteSpec(
    name="core-v3",
    description=(
        "The core suite, version 3: core-v2 with card_terms_qa, recommend_card and offer_audit "
        "at -v3 (free-text answers graded, and audit drafts validated, with compliance ruleset "
        "10 instead of the frozen ruleset 3), seeds 1-3, scale 0.01."
    ),
    entries=tuple(
        _bumped(e, e.family.replace("-v2", "-v3")) if e.family in _CORE_V3_BUMPS else e
        for e in CORE_V2.entries
    ),
)

#: core-v4: core-v3 with ecommerce.dbt_fix-v2 (every task's fix is a shipped file, which the
#: audit's ``restore_shipped_project`` writes back from memory: 5 of 5 ``hackable``) replaced by
#: ecommerce.mutant_fix-v2 on the same seeds and variants: factory bugs on each seed's
#: deployment (its own documented business rules), where the shipped files give the wrong mart.
_CORE_V4_SWAPS = {"ecommerce.dbt_fix-v2": "ecommerce.mutant_fix-v2"}

CORE_V4 = SuiteSpec(
    name="core-v4",
    description=(
        "The core suite, version 4: core-v3 with ecommerce.dbt_fix-v2 (whose fix, the shipped "
        "file, can be written back from memory) replaced by ecommerce.mutant_fix-v2 (factory "
        "bugs on each seed's documented business rules, a raw-only warehouse), seeds 1-3, "
        "scale 0.01."
    ),
    entries=tuple(
        _bumped(e, _CORE_V4_SWAPS[e.family]) if e.family in _CORE_V4_SWAPS else e
        for e in CORE_V3.entries
    ),
)

#: The core-v4 families core-v5 bumps: the three credit_cards families that run the compliance
#: verifier, from ruleset 10 to ruleset 16 (see each -v4 family's docstring).
_CORE_V5_BUMPS = frozenset(
    f"credit_cards.{f}-v3" for f in ("card_terms_qa", "recommend_card", "offer_audit")
)

#: core-v5: core-v4 with card_terms_qa, recommend_card and offer_audit at -v4 (compliance
#: ruleset 16; issue 13), same seeds, variants and sizes. The other eleven families keep their
#: core-v4 ids.
CORE_V5 = SuiteSpec(
    name="core-v5",
    description=(
        "The core suite, version 5: core-v4 with card_terms_qa, recommend_card and offer_audit "
        "at -v4 (free-text answers graded, and audit drafts validated, with compliance ruleset "
        "16 instead of ruleset 10), seeds 1-3, scale 0.01."
    ),
    entries=tuple(
        _bumped(e, e.family.replace("-v3", "-v4")) if e.family in _CORE_V5_BUMPS else e
        for e in CORE_V4.entries
    ),
)

#: The core-v5 families core-v6 bumps: the same three, from ruleset 16 to ruleset 17 (see each
#: -v5 family's docstring).
_CORE_V6_BUMPS = frozenset(
    f"credit_cards.{f}-v4" for f in ("card_terms_qa", "recommend_card", "offer_audit")
)

#: core-v6: core-v5 with card_terms_qa, recommend_card and offer_audit at -v5 (compliance
#: ruleset 17; issue 13), same seeds, variants and sizes. The other eleven families keep their
#: core-v5 ids.
CORE_V6 = SuiteSpec(
    name="core-v6",
    description=(
        "The core suite, version 6: core-v5 with card_terms_qa, recommend_card and offer_audit "
        "at -v5 (free-text answers graded, and audit drafts validated, with compliance ruleset "
        "17 instead of ruleset 16), seeds 1-3, scale 0.01."
    ),
    entries=tuple(
        _bumped(e, e.family.replace("-v4", "-v5")) if e.family in _CORE_V6_BUMPS else e
        for e in CORE_V5.entries
    ),
)

#: The core-v6 families core-v7 bumps: the same three, from ruleset 17 to ruleset 19 (see each
#: -v6 family's docstring).
_CORE_V7_BUMPS = frozenset(
    f"credit_cards.{f}-v5" for f in ("card_terms_qa", "recommend_card", "offer_audit")
)

#: core-v7: core-v6 with card_terms_qa, recommend_card and offer_audit at -v6 (compliance
#: ruleset 19; issue 13), same seeds, variants and sizes. The other eleven families keep their
#: core-v6 ids.
CORE_V7 = SuiteSpec(
    name="core-v7",
    description=(
        "The core suite, version 7: core-v6 with card_terms_qa, recommend_card and offer_audit "
        "at -v6 (free-text answers graded, and audit drafts validated, with compliance ruleset "
        "19 instead of ruleset 17), seeds 1-3, scale 0.01."
    ),
    entries=tuple(
        _bumped(e, e.family.replace("-v5", "-v6")) if e.family in _CORE_V7_BUMPS else e
        for e in CORE_V6.entries
    ),
)

#: The core-v7 families core-v8 bumps: the same three, from ruleset 19 to ruleset 20 (see each
#: -v7 family's docstring).
_CORE_V8_BUMPS = frozenset(
    f"credit_cards.{f}-v6" for f in ("card_terms_qa", "recommend_card", "offer_audit")
)

#: core-v8: core-v7 with card_terms_qa, recommend_card and offer_audit at -v7 (compliance
#: ruleset 20; issue 13), same seeds, variants and sizes. The other eleven families keep their
#: core-v7 ids.
CORE_V8 = SuiteSpec(
    name="core-v8",
    description=(
        "The core suite, version 8: core-v7 with card_terms_qa, recommend_card and offer_audit "
        "at -v7 (free-text answers graded, and audit drafts validated, with compliance ruleset "
        "20 instead of ruleset 19), seeds 1-3, scale 0.01."
    ),
    entries=tuple(
        _bumped(e, e.family.replace("-v6", "-v7")) if e.family in _CORE_V8_BUMPS else e
        for e in CORE_V7.entries
    ),
)

#: The core-v8 families core-v9 bumps: the same three, from ruleset 20 to ruleset 21 (see
#: ``replicas.families.credit_cards.v8_families``).
_CORE_V9_BUMPS = frozenset(
    f"credit_cards.{f}-v7" for f in ("card_terms_qa", "recommend_card", "offer_audit")
)

#: core-v9: core-v8 with card_terms_qa, recommend_card and offer_audit at -v8 (compliance
#: ruleset 21; issue 13), same seeds, variants and sizes. The other eleven families keep their
#: core-v8 ids.
CORE_V9 = SuiteSpec(
    name="core-v9",
    description=(
        "The core suite, version 9: core-v8 with card_terms_qa, recommend_card and offer_audit "
        "at -v8 (free-text answers graded, and audit drafts validated, with compliance ruleset "
        "21 instead of ruleset 20), seeds 1-3, scale 0.01."
    ),
    entries=tuple(
        _bumped(e, e.family.replace("-v7", "-v8")) if e.family in _CORE_V9_BUMPS else e
        for e in CORE_V8.entries
    ),
)

#: hard-v3: hard-v2 with ecommerce_enterprise.multi_layer_incident-v2 (its fix is the kit's own
#: files, which the audit's ``restore_shipped_project`` writes back from memory: 7 of 7
#: ``hackable``) replaced by multi_layer_incident-v3 on the same seeds and variants: the
#: incident on each seed's deployment (its own documented delivery-date rule), where the shipped
#: files give the wrong mart.
_HARD_V3_SWAPS = {_HARD + "multi_layer_incident-v2": _HARD + "multi_layer_incident-v3"}

HARD_V3 = SuiteSpec(
    name="hard-v3",
    description=(
        "The hard suite, version 3: hard-v2 with multi_layer_incident-v2 (whose fix, the "
        "kit's own files, can be written back from memory) replaced by multi_layer_incident-v3 "
        "(the incident on each seed's documented delivery-date rule), seeds 11-12, scale 0.01."
    ),
    entries=tuple(
        _bumped(e, _HARD_V3_SWAPS[e.family]) if e.family in _HARD_V3_SWAPS else e
        for e in HARD_V2.entries
    ),
)

#: Every suite the kit ships, by name (a registry, so a new suite is one entry).
SUITE_SPECS: Registry[SuiteSpec] = Registry("suite", same=lambda old, new: old == new)
SUITE_SPECS.register(CORE_V1.name, CORE_V1)
SUITE_SPECS.register(CORE_V2.name, CORE_V2)
SUITE_SPECS.register(CORE_V3.name, CORE_V3)
SUITE_SPECS.register(CORE_V4.name, CORE_V4)
SUITE_SPECS.register(CORE_V5.name, CORE_V5)
SUITE_SPECS.register(CORE_V6.name, CORE_V6)
SUITE_SPECS.register(CORE_V7.name, CORE_V7)
SUITE_SPECS.register(CORE_V8.name, CORE_V8)
SUITE_SPECS.register(CORE_V9.name, CORE_V9)
SUITE_SPECS.register(HARD_V1.name, HARD_V1)
SUITE_SPECS.register(HARD_V2.name, HARD_V2)
SUITE_SPECS.register(HARD_V3.name, HARD_V3)


def register_suite(spec: SuiteSpec) -> SuiteSpec:
    """Publish a suite plan (its task list ships as ``replicas/suites/<name>.txt``)."""
    return SUITE_SPECS.register(spec.name, spec)


def _spec(name: str) -> SuiteSpec:
    return SUITE_SPECS.get(name)


def plan_suite(name: str) -> list[str]:
    """The task ids ``name``'s plan generates, over the families registered right now.

    A family of the plan that is not registered (not written yet) is left out, so the plan can
    be regenerated while families are still being added; the published file is frozen once all
    of them exist.
    """

    registered = set(family_names())
    ids: list[str] = []
    for entry in _spec(name).entries:
        if entry.family in registered:
            ids.extend(entry.task_ids())
    return ids


def missing_families(name: str) -> list[str]:
    """Families the plan names that are not registered (should be empty for a release)."""

    registered = set(family_names())
    return [e.family for e in _spec(name).entries if e.family not in registered]


def suite_file(name: str) -> Path:
    """Path of the published id list of suite ``name`` (inside the installed package)."""
    _spec(name)
    return Path(str(resources.files("replicas").joinpath(SUITES_DIR, f"{name}.txt")))


def render_suite_file(name: str, task_ids: list[str]) -> str:
    """The text of a published suite file: a comment header, then one id per line."""
    spec = _spec(name)
    header = [
        f"{_COMMENT} suite {spec.name}: {len(task_ids)} tasks. Published ids never change;",
        f"{_COMMENT} generated by replicas.suite.plan_suite({spec.name!r}) via write_suite_file.",
    ]
    return "\n".join([*header, *task_ids]) + "\n"


def parse_suite_file(text: str) -> list[str]:
    """Task ids of a suite file (comments and blank lines skipped)."""
    return [
        line.strip()
        for line in text.splitlines()
        if line.strip() and not line.strip().startswith(_COMMENT)
    ]


def write_suite_file(name: str, path: Path | None = None) -> Path:
    """(Re)generate the published list from the plan; atomic (temp file then rename).

    Only for maintainers: publishing a changed list breaks the promise that ids never change.
    """
    target = path or suite_file(name)
    return write_text_atomic(target, render_suite_file(name, plan_suite(name)))


#: Public fields of a task kept in a suite's index (what an agent is shown, nothing hidden).
INDEX_FIELDS = (
    "id", "replica", "family", "difficulty", "seed", "variant", "scale", "answer_kind",
    "instruction", "tools",
)  # fmt: skip


def index_file(name: str) -> Path:
    """Path of suite ``name``'s task index (``<name>.index.jsonl`` beside its id list)."""
    _spec(name)
    return Path(str(resources.files("replicas").joinpath(SUITES_DIR, f"{name}.index.jsonl")))


def index_row(task: Task) -> dict[str, Any]:
    """One task's public fields, as the index stores them."""
    row = {field: getattr(task, field) for field in INDEX_FIELDS}
    row["tools"] = list(task.tools)
    return row


def render_index(tasks: list[Task]) -> str:
    return "".join(
        json.dumps(index_row(t), ensure_ascii=False, sort_keys=True) + "\n" for t in tasks
    )


def write_suite_index(name: str, path: Path | None = None) -> Path:
    """(Re)generate suite ``name``'s task index by building every task (maintainers only).

    Listing a suite then reads the index and builds nothing; a test rebuilds the tasks and
    asserts the index still matches, so a published task whose instruction changed (a
    behaviour change that needed a version bump) fails loudly.
    """
    return write_text_atomic(path or index_file(name), render_index(get_suite(name).tasks()))


def read_suite_index(name: str) -> list[dict[str, Any]] | None:
    """The suite's task index, or None when it was never published (then list by building)."""
    try:
        text = index_file(name).read_text(encoding="utf-8")
    except OSError:
        return None
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    ids = [row.get("id") for row in rows]
    if ids != list(get_suite(name).task_ids):
        raise ValueError(f"the task index of suite {name!r} does not match its id list")
    return rows


def get_suite(name: str) -> Suite:
    """The published suite ``name``; ValueError listing the known suites otherwise."""
    spec = _spec(name)
    try:
        text = suite_file(name).read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"suite {name!r} has no published task list: {exc}") from exc
    return Suite(
        name=spec.name, description=spec.description, task_ids=tuple(parse_suite_file(text))
    )


def all_suites() -> list[Suite]:
    """Every published suite, sorted by name."""
    return [get_suite(name) for name in SUITE_SPECS.names()]


def suite_names() -> list[str]:
    return SUITE_SPECS.names()


__all__ = [
    "CORE_V1",
    "CORE_V2",
    "CORE_V3",
    "CORE_V4",
    "CORE_V5",
    "CORE_V6",
    "CORE_V7",
    "CORE_V8",
    "CORE_V9",
    "DEFAULT_SUITE",
    "HARD_V1",
    "HARD_V2",
    "SUITE_SPECS",
    "Suite",
    "SuiteEntry",
    "SuiteSpec",
    "all_suites",
    "get_suite",
    "index_file",
    "missing_families",
    "parse_suite_file",
    "plan_suite",
    "read_suite_index",
    "register_suite",
    "render_suite_file",
    "suite_file",
    "suite_names",
    "write_suite_file",
    "write_suite_index",
]
