"""The plans of every suite the kit ships (``core-v1`` ... ``core-v22``, ``hard-v1`` ...).

A plan is the recipe its published id list (``replicas/suites/<name>.txt``) was generated from;
``replicas.suite`` registers each one and a test asserts plan and list agree. A published plan
never changes: a behaviour change of a family bumps its version and ships in a new suite, built
from the previous one (``_bumped``, ``compliance_bump``).
"""

from __future__ import annotations

from replicas.suite_spec import SuiteEntry, SuiteSpec

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

#: The three credit_cards families whose grading (or, for offer_audit, whose drafts) runs the
#: compliance verifier; from core-v5 on, each suite moves them to a newer compliance ruleset.
COMPLIANCE_FAMILIES = ("card_terms_qa", "recommend_card", "offer_audit")


def compliance_bump(
    previous: SuiteSpec, version: int, family_version: int, ruleset: int, old_ruleset: int
) -> SuiteSpec:
    """``core-v<version>``: ``previous`` with the compliance families at ``-v<family_version>``
    (graded with compliance ruleset ``ruleset`` instead of ``old_ruleset``; issue 13), same
    seeds, variants and sizes. The other eleven families keep their ids."""
    old, new = f"-v{family_version - 1}", f"-v{family_version}"
    bumps = frozenset(f"credit_cards.{f}{old}" for f in COMPLIANCE_FAMILIES)
    return SuiteSpec(
        name=f"core-v{version}",
        description=(
            f"The core suite, version {version}: {previous.name} with card_terms_qa, "
            f"recommend_card and offer_audit at {new} (free-text answers graded, and audit "
            f"drafts validated, with compliance ruleset {ruleset} instead of ruleset "
            f"{old_ruleset}), seeds 1-3, scale 0.01."
        ),
        entries=tuple(
            _bumped(e, e.family.replace(old, new)) if e.family in bumps else e
            for e in previous.entries
        ),
    )


#: core-v5 ... core-v22: rulesets 16, 17, 19, 20, 21, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
#: 33, 34, 35 (each -vN family's docstring says why; -v8 to -v21 are
#: ``replicas.families.credit_cards.v8_families``, ``v9_families``, ``v10_families``,
#: ``v11_families``, ``v12_families``, ``v13_families``, ``v14_families``, ``v15_families``,
#: ``v16_families``, ``v17_families``, ``v18_families``, ``v19_families``, ``v20_families`` and
#: ``v21_families``).
CORE_V5 = compliance_bump(CORE_V4, 5, 4, ruleset=16, old_ruleset=10)
CORE_V6 = compliance_bump(CORE_V5, 6, 5, ruleset=17, old_ruleset=16)
CORE_V7 = compliance_bump(CORE_V6, 7, 6, ruleset=19, old_ruleset=17)
CORE_V8 = compliance_bump(CORE_V7, 8, 7, ruleset=20, old_ruleset=19)
CORE_V9 = compliance_bump(CORE_V8, 9, 8, ruleset=21, old_ruleset=20)
CORE_V10 = compliance_bump(CORE_V9, 10, 9, ruleset=23, old_ruleset=21)
CORE_V11 = compliance_bump(CORE_V10, 11, 10, ruleset=24, old_ruleset=23)
CORE_V12 = compliance_bump(CORE_V11, 12, 11, ruleset=25, old_ruleset=24)
CORE_V13 = compliance_bump(CORE_V12, 13, 12, ruleset=26, old_ruleset=25)
CORE_V14 = compliance_bump(CORE_V13, 14, 13, ruleset=27, old_ruleset=26)
CORE_V15 = compliance_bump(CORE_V14, 15, 14, ruleset=28, old_ruleset=27)
CORE_V16 = compliance_bump(CORE_V15, 16, 15, ruleset=29, old_ruleset=28)
CORE_V17 = compliance_bump(CORE_V16, 17, 16, ruleset=30, old_ruleset=29)
CORE_V18 = compliance_bump(CORE_V17, 18, 17, ruleset=31, old_ruleset=30)
CORE_V19 = compliance_bump(CORE_V18, 19, 18, ruleset=32, old_ruleset=31)
CORE_V20 = compliance_bump(CORE_V19, 20, 19, ruleset=33, old_ruleset=32)
CORE_V21 = compliance_bump(CORE_V20, 21, 20, ruleset=34, old_ruleset=33)
CORE_V22 = compliance_bump(CORE_V21, 22, 21, ruleset=35, old_ruleset=34)

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


#: Every suite plan the kit ships, in publication order.
PLANS: tuple[SuiteSpec, ...] = (
    CORE_V1,
    CORE_V2,
    CORE_V3,
    CORE_V4,
    CORE_V5,
    CORE_V6,
    CORE_V7,
    CORE_V8,
    CORE_V9,
    CORE_V10,
    CORE_V11,
    CORE_V12,
    CORE_V13,
    CORE_V14,
    CORE_V15,
    CORE_V16,
    CORE_V17,
    CORE_V18,
    CORE_V19,
    CORE_V20,
    CORE_V21,
    CORE_V22,
    HARD_V1,
    HARD_V2,
    HARD_V3,
)

__all__ = ["COMPLIANCE_FAMILIES", "PLANS", "compliance_bump"]
