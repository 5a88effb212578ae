"""``ecommerce_enterprise.multi_layer_incident-v1``: two interacting defects in different layers
of the 130-model project; fix both. Graded by rebuilding the mart on the visible data and on
every hidden dataset.

Each task injects one defect upstream (a staging view that no longer absorbs a connector's
schema drift, an FX table joined on the exact date instead of as-of, the revenue-status rule,
the region mapping, identity resolution, the refund roll-up) and one in the graded mart itself
(FX on the wrong date, refunds not deducted, test accounts kept, recognition on shipment). The
seed draws the mart and the pair; a pair is used only if EACH defect alone already changes the
mart on this seed's data, so fixing one of them is not enough (``partial_fix_*`` evidence in the
metadata). The instruction reports the symptoms a stakeholder sees, not the files; lineage
from the mart back through intermediate and staging models is the work.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from replicas.factory.deploy import deployed_files, draw
from replicas.families.ecommerce_enterprise._common import (
    GRADING_WALL_S,
    REPLICA,
    Definition,
    as_family,
    definitions_metadata,
    differ,
    evaluation_sql,
    inject,
    model_files,
    with_v1_draws,
)
from replicas.families.ecommerce_enterprise._deployment import REPLICA as _DEPLOYED
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


@dataclass(frozen=True)
class Defect:
    name: str
    model: str
    find: str
    replace: str
    symptom: str
    marts: tuple[str, ...]


RECOGNIZED = "fct_revenue_recognized"
ORDERS = "fct_orders"

UPSTREAM: tuple[Defect, ...] = (
    Defect(
        "fx_exact_date_join",
        "int_fx_rates_daily",
        "asof left join rates on grid.currency_code = rates.currency_code "
        "and grid.date_day >= rates.rate_date",
        "left join rates\n    on grid.currency_code = rates.currency_code\n"
        "    and grid.date_day = rates.rate_date",
        "amounts dated on weekends and Treasury holidays have no USD value at all",
        (RECOGNIZED, ORDERS),
    ),
    Defect(
        "refund_text_drift_ignored",
        "stg_pay__refunds",
        "coalesce(amount, cast(refund_amount_text as double)) as refund_amount",
        "amount as refund_amount",
        "refunds paid in spring 2026 and later are no longer deducted",
        (RECOGNIZED, ORDERS),
    ),
    Defect(
        "shipping_cents_drift_ignored",
        "stg_shop__orders",
        "coalesce(shipping_amount, round(shipping_amount_cents / 100.0, 2)) as shipping_amount",
        "shipping_amount",
        "shipping on orders placed in spring 2026 and later shows as missing",
        (ORDERS,),
    ),
    Defect(
        "returned_not_revenue",
        "int_orders",
        "orders.order_status in ('placed', 'shipped', 'completed', 'returned') as is_revenue_order",
        "orders.order_status in ('placed', 'shipped', 'completed') as is_revenue_order",
        "orders that were later returned have vanished from revenue",
        (RECOGNIZED, ORDERS),
    ),
    Defect(
        "uk_mapped_to_eu",
        "int_customers_enriched",
        "regions.sales_region,",
        "case when regions.country_code = 'GB' then 'EU' else regions.sales_region end "
        "as sales_region,",
        "the UK business shows no revenue at all while the EU looks inflated",
        (RECOGNIZED, ORDERS),
    ),
    Defect(
        "crm_merges_ignored",
        "int_customer_identity",
        "least(by_email.email_person_id, coalesce(crm_merges.surviving_customer_id, "
        "by_email.email_person_id)) as person_id,",
        "by_email.email_person_id as person_id,",
        "some customers that Customer Care merged are counted as two people again",
        (RECOGNIZED, ORDERS),
    ),
    Defect(
        "only_return_refunds",
        "int_order_amounts_local",
        "select order_id, sum(refund_amount) as refunds_amount from {{ ref('stg_pay__refunds') }}",
        "select order_id, sum(refund_amount) as refunds_amount from "
        "{{ ref('stg_pay__refunds') }}\n    where refund_reason = 'return'",
        "goodwill and damage refunds are no longer deducted (only returns are)",
        (RECOGNIZED,),
    ),
)

MART: tuple[Defect, ...] = (
    Defect(
        "recognized_fx_on_order_date",
        RECOGNIZED,
        "on orders.delivered_date = fx.rate_date",
        "on orders.order_date = fx.rate_date",
        "USD amounts of non-USD orders drift from the Treasury rates Finance expects",
        (RECOGNIZED,),
    ),
    Defect(
        "recognized_refunds_not_deducted",
        RECOGNIZED,
        "round((amounts.items_subtotal - amounts.items_discount - amounts.refunds_amount) "
        "* fx.rate_to_usd, 2) as net_revenue_usd",
        "round((amounts.items_subtotal - amounts.items_discount) * fx.rate_to_usd, 2) "
        "as net_revenue_usd",
        "net revenue no longer goes down when an order is refunded",
        (RECOGNIZED,),
    ),
    Defect(
        "recognized_test_accounts_kept",
        RECOGNIZED,
        "where not is_test_account and is_revenue_order",
        "where is_revenue_order",
        "internal QA orders appear in Finance's revenue",
        (RECOGNIZED,),
    ),
    Defect(
        "recognized_on_shipment",
        RECOGNIZED,
        "and delivered_at is not null",
        "and shipped_at is not null",
        "orders that have shipped but not been delivered appear without a recognition date",
        (RECOGNIZED,),
    ),
    Defect(
        "orders_refunds_not_deducted",
        ORDERS,
        "- coalesce(items.items_discount_usd, 0) - coalesce(refunds.refunds_usd, 0),",
        "- coalesce(items.items_discount_usd, 0),",
        "net revenue on the trading dashboard ignores refunds",
        (ORDERS,),
    ),
    Defect(
        "orders_fx_on_local_date",
        ORDERS,
        "on orders.order_date = fx.rate_date",
        "on orders.order_date_local = fx.rate_date",
        "shipping and tax in USD (and the FX rate shown) are off for some orders",
        (ORDERS,),
    ),
    Defect(
        "orders_test_accounts_kept",
        ORDERS,
        "select * from {{ ref('int_orders') }} where not is_test_account",
        "select * from {{ ref('int_orders') }}",
        "internal QA orders appear on the trading dashboard",
        (ORDERS,),
    ),
)

OWNERS = {RECOGNIZED: "Finance", ORDERS: "Commercial Analytics"}
#: Where each graded mart's definition is documented (its YAML entry).
MART_DOCS = {
    RECOGNIZED: ("models/marts/finance/_finance__models.yml", "recognised on recognized_date"),
    ORDERS: ("models/marts/commerce/_commerce__models.yml", "Commercial order fact"),
}


def _definitions(mart: str, *extra: Definition) -> dict[str, Any]:
    """Where the incident's definitions live: the mart's YAML, the FX policy, and ``extra``."""
    return definitions_metadata(
        (
            Definition(f"{mart} definition", "file", *MART_DOCS[mart]),
            Definition(
                "revenue recognition and FX policy", "file", "models/docs/fx_policy.md", "as of"
            ),
            *extra,
        )
    )


def choose(ctx: BuildContext) -> tuple[str, Defect, Defect, dict[str, str], dict[str, str]]:
    """(mart, upstream defect, mart defect, patched files, pristine files) for this task."""
    files = model_files(Path(ctx.snapshot.dbt_project))
    rng = ctx.rng("pair")
    mart = (RECOGNIZED, ORDERS)[int(rng.integers(0, 2))]
    ups = [d for d in UPSTREAM if mart in d.marts]
    downs = [d for d in MART if d.model == mart]
    pairs = [(u, d) for u in ups for d in downs]
    for index in rng.permutation(len(pairs)):
        up, down = pairs[int(index)]
        pristine = {m: ctx.project_file(files[m]) for m in (up.model, down.model)}
        broken = {
            up.model: inject(pristine[up.model], up.find, up.replace, up.name),
            down.model: inject(pristine[down.model], down.find, down.replace, down.name),
        }
        good = evaluation_sql(ctx, mart, {}, files)
        only_up = evaluation_sql(ctx, mart, {up.model: broken[up.model]}, files)
        only_down = evaluation_sql(ctx, mart, {down.model: broken[down.model]}, files)
        if differ(ctx, good, only_up) and differ(ctx, good, only_down):
            patch = {files[m]: text for m, text in broken.items()}
            restore = {files[m]: text for m, text in pristine.items()}
            return mart, up, down, patch, restore
    raise TaskBuildError(f"no defect pair changes {mart} on both counts for seed {ctx.seed}")


@register_family
class MultiLayerIncident(TaskFamily):
    name = "ecommerce_enterprise.multi_layer_incident-v1"
    replica = REPLICA
    description = "Two interacting defects in different layers; fix both (hidden-data grading)."
    difficulty = "hard"
    n_variants = 4

    def make(self, ctx: BuildContext) -> Task:
        mart, up, down, patch, restore = choose(ctx)
        instruction = (
            f"Incident INC-{4000 + 97 * ctx.seed + ctx.variant}: since last night's deploy "
            f"{OWNERS[mart]} reports two problems with {mart}: {up.symptom}; and {down.symptom}. "
            f"Find every defect behind these symptoms in the dbt project (the cause may sit in "
            f"any layer upstream of {mart}) and fix it, so that {mart} again matches its "
            "documented definition (its YAML, the docs pages and the models it builds on). Keep "
            f"its columns, contract and grain. {mart} is missing from the warehouse until you "
            "build it with the dbt tool. Your project is graded by rebuilding it on this data "
            "and on hidden datasets of the same schema. When done, submit a one-sentence "
            "summary of the fixes."
        )
        oracle = [write_file(path, text) for path, text in sorted(restore.items())]
        return ctx.task(
            instruction=instruction,
            answer_kind="dbt",
            verifier=VerifierConfig(
                dbt_models=(mart,), key_columns=("order_id",), abs_tol=0.005, hidden_data=True
            ),
            sandbox_patch=patch,
            oracle=(
                *oracle,
                dbt(f"run --select +{mart}"),
                submit(f"Fixed {up.name} in {up.model} and {down.name} in {down.model}."),
            ),
            metadata={
                "mart": mart,
                "defects": [up.name, down.name],
                "files": sorted(patch),
                "partial_fix_fails": True,
                **_definitions(mart),
            },
        )


@register_family
class MultiLayerIncidentV2(MultiLayerIncident):
    """``ecommerce_enterprise.multi_layer_incident-v2``: v1's tasks, graded on their own clock.

    What changed from v1, and why: grading has its own budget (``GRADING_WALL_S`` from
    ``submit``, ``Limits.grading_wall_s``) instead of what is left of the agent's 300 s. The
    hard-v1 audit found v1's oracle scoring 0 on a loaded machine because the hidden-data
    rebuild of the mart ran past the episode's deadline (a second grading of the same project
    scored 1.0): the agent's budget was paying for the grader. Everything else — the defect
    pairs, the instruction, the oracle, the hidden-data grading — is v1's, drawn with v1's
    randomness, so a v2 task is its v1 twin under a new id.
    """

    name = "ecommerce_enterprise.multi_layer_incident-v2"
    description = (
        "Two interacting defects in different layers; fix both (hidden-data grading on its own "
        "time budget)."
    )

    def make(self, ctx: BuildContext) -> Task:
        task = super().make(with_v1_draws(ctx, MultiLayerIncident()))
        return as_family(task, self.name, grading_wall_s=GRADING_WALL_S)


def choose_deployed(
    ctx: BuildContext, rules: dict[str, str]
) -> tuple[str, Defect, Defect, dict[str, str], dict[str, str], str]:
    """v1's draw on the seed's deployment: (mart, upstream defect, mart defect, patched files,
    right files, reference SQL). ``rules`` (path -> deployed text) is the seed's deployment; the
    defects are injected into the deployed text, the reference is the deployed mart on the
    pristine snapshot (the deployed models inlined), and a pair is kept only when each defect
    alone changes that mart and the shipped project's mart differs from it (so writing the
    kit's files back is wrong)."""
    files = model_files(Path(ctx.snapshot.dbt_project))
    by_path = {path: model for model, path in files.items()}
    deployed = {by_path[path]: text for path, text in rules.items() if path in by_path}
    rng = ctx.rng("pair")
    mart = (RECOGNIZED, ORDERS)[int(rng.integers(0, 2))]
    good = evaluation_sql(ctx, mart, deployed, files)
    if not differ(ctx, good, evaluation_sql(ctx, mart, {}, files)):
        raise TaskBuildError(f"seed {ctx.seed}'s rules do not change {mart}")
    ups = [d for d in UPSTREAM if mart in d.marts]
    downs = [d for d in MART if d.model == mart]
    pairs = [(u, d) for u in ups for d in downs]
    for index in rng.permutation(len(pairs)):
        up, down = pairs[int(index)]
        right = {m: deployed.get(m) or ctx.project_file(files[m]) for m in (up.model, down.model)}
        try:
            broken = {
                up.model: inject(right[up.model], up.find, up.replace, up.name),
                down.model: inject(right[down.model], down.find, down.replace, down.name),
            }
        except TaskBuildError:
            continue  # a rule rewrote the defect's text: not this pair
        only_up = evaluation_sql(ctx, mart, {**deployed, up.model: broken[up.model]}, files)
        only_down = evaluation_sql(ctx, mart, {**deployed, down.model: broken[down.model]}, files)
        if differ(ctx, good, only_up) and differ(ctx, good, only_down):
            patch = {**rules, **{files[m]: text for m, text in broken.items()}}
            restore = {files[m]: text for m, text in right.items()}
            return mart, up, down, patch, restore, good
    raise TaskBuildError(f"no defect pair changes {mart} on both counts for seed {ctx.seed}")


@register_family
class MultiLayerIncidentV3(TaskFamily):
    """``ecommerce_enterprise.multi_layer_incident-v3``: v2's incident on the seed's deployment.

    What changed from v2, and why: v2's fix was "write the kit's files back", which an agent
    that has the kit's source solves from memory (red team, session 10: the audit's
    ``restore_shipped_project`` scored 1.0 on all seven hard-v2 tasks). Here each seed's company
    runs the project with its own documented rule for the delivery date
    (``replicas.families.ecommerce_enterprise._deployment``), written into its SQL and every
    document that states it; the graded mart is compared with the deployed definition
    (``VerifierConfig.reference_sql``), so the shipped files give the wrong mart. Drawn afresh
    (its own randomness), on v2's grading budget.
    """

    name = "ecommerce_enterprise.multi_layer_incident-v3"
    replica = REPLICA
    description = (
        "Two interacting defects in different layers of the seed's deployment (its own "
        "documented delivery-date rule); fix both (hidden-data grading against the deployed "
        "definition)."
    )
    difficulty = "hard"
    n_variants = 4

    def make(self, ctx: BuildContext) -> Task:
        root = Path(ctx.snapshot.dbt_project)
        picks = draw(_DEPLOYED, ctx.seed)
        rules = deployed_files(root, picks)
        mart, up, down, patch, restore, reference = choose_deployed(ctx, rules)
        instruction = (
            f"Incident INC-{4000 + 97 * ctx.seed + ctx.variant}: since last night's deploy "
            f"{OWNERS[mart]} reports two problems with {mart}: {up.symptom}; and {down.symptom}. "
            f"Find every defect behind these symptoms in the dbt project (the cause may sit in "
            f"any layer upstream of {mart}) and fix it, so that {mart} again matches its "
            "documented definition (its YAML, the docs pages and the models it builds on). This "
            "company's business rules are the ones its project documents, which may differ "
            "from other deployments of this project. Keep "
            f"its columns, contract and grain. {mart} is missing from the warehouse until you "
            "build it with the dbt tool. Your project is graded by rebuilding it on this data "
            "and on hidden datasets of the same schema. When done, submit a one-sentence "
            "summary of the fixes."
        )
        oracle = [write_file(path, text) for path, text in sorted(restore.items())]
        metadata: dict[str, Any] = {
            "mart": mart,
            "defects": [up.name, down.name],
            "files": sorted(set(patch) & set(restore)),
            "rules": {knob.name: choice.label for knob, choice in picks},
            "partial_fix_fails": True,
            **_definitions(
                mart,
                Definition(
                    "the delivery-date rule",
                    "file",
                    "models/intermediate/commerce/_commerce__models.yml",
                    "belongs to the previous day",
                ),
            ),
        }
        task = ctx.task(
            instruction=instruction,
            answer_kind="dbt",
            verifier=VerifierConfig(
                dbt_models=(mart,),
                key_columns=("order_id",),
                abs_tol=0.005,
                hidden_data=True,
                reference_sql={mart: reference},
            ),
            sandbox_patch=patch,
            oracle=(
                *oracle,
                dbt(f"run --select +{mart}"),
                submit(f"Fixed {up.name} in {up.model} and {down.name} in {down.model}."),
            ),
            metadata=metadata,
        )
        return as_family(task, self.name, grading_wall_s=GRADING_WALL_S)
