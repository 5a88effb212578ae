"""``ecommerce.dbt_new_model-v1``: build a new mart in the dbt project to a written spec.

Each variant is one mart spec (:data:`SPECS`): model name and path, materialisation, grain and
every column with its definition. Grading rebuilds the agent's model (and its upstream) from
the agent's project files on a fresh copy of the pristine RAW data and compares it, as a row
set keyed on the grain, with the reference computed by ground-truth SQL on the RAW tables of
the pristine snapshot (``VerifierConfig.reference_sql``) — an implementation independent of
the project's marts. The oracle is a second, independent implementation: a model file built
on the project's marts/staging models, written with ``write_file`` and run with ``dbt``.

Parameters: the spec by variant; the monthly-revenue spec draws its dimension (channel or
country) from ``ctx.rng``. dbt tasks cost a dbt subprocess at grading (~3–5 s), so the family
keeps five variants.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from replicas.families.ecommerce._order_facts import (
    OFFICIAL_DEFINITIONS,
    Reading,
    line_facts_sql,
    order_facts_sql,
)
from replicas.families.ecommerce._payments import WINDOW_SECONDS, duplicate_payments_sql
from replicas.tasks import (
    BuildContext,
    Difficulty,
    Task,
    TaskFamily,
    VerifierConfig,
    dbt,
    grade_dbt,
    register_family,
    submit,
    write_file,
)
from replicas.verifiers.verdict import fail

if TYPE_CHECKING:
    from replicas.tasks import GradeContext
    from replicas.verifiers.verdict import Verdict

MONEY_TOL = 0.01


@dataclass(frozen=True)
class MartSpec:
    """A mart to build: name, grain, columns (name → definition), reference and oracle SQL."""

    model: str
    grain: str
    key_columns: tuple[str, ...]
    columns: tuple[tuple[str, str], ...]
    reference_sql: str
    oracle_model_sql: str
    difficulty: Difficulty
    extra_rules: str = ""

    def __post_init__(self) -> None:
        if not self.model.replace("_", "").isalnum() or not self.model.startswith("mart_"):
            raise ValueError(f"mart model names are mart_<identifier>, got {self.model!r}")
        names = [c for c, _ in self.columns]
        if len(set(names)) != len(names) or not set(self.key_columns) <= set(names):
            raise ValueError(f"{self.model}: columns must be unique and include the key columns")

    @property
    def path(self) -> str:
        return f"models/marts/{self.model}.sql"

    def column_text(self) -> str:
        return "\n".join(f"  - `{name}`: {definition}" for name, definition in self.columns)


def monthly_revenue_spec(dimension: str) -> MartSpec:
    """Revenue per (UTC month, channel|country) of counted orders."""
    if dimension not in ("channel", "country"):
        raise ValueError(f"dimension must be channel or country, got {dimension!r}")
    mart_column = "channel" if dimension == "channel" else "country_code"
    dim_text = (
        "the order's sales channel (orders.channel)"
        if dimension == "channel"
        else "the customer's country (customers.country, ISO-2 code)"
    )
    reference = f"""
        select cast(date_trunc('month', created_at) as date) as order_month,
               {dimension},
               count(*) as orders,
               round(sum(gross_usd), 2) as gross_revenue_usd,
               round(sum(discount_usd), 2) as discounts_usd,
               round(sum(refund_usd), 2) as refunds_usd,
               round(sum(net_usd), 2) as net_revenue_usd
        from ({order_facts_sql(Reading())}) facts
        group by all
    """
    oracle = f"""{{{{ config(materialized='table') }}}}

select
    cast(date_trunc('month', created_at) as date) as order_month,
    {mart_column} as {dimension},
    count(*) as orders,
    round(sum(items_subtotal_usd), 2) as gross_revenue_usd,
    round(sum(items_discount_usd), 2) as discounts_usd,
    round(sum(refunds_usd), 2) as refunds_usd,
    round(sum(net_revenue_usd), 2) as net_revenue_usd
from {{{{ ref('fct_orders') }}}}
where is_revenue_order
group by 1, 2
"""
    return MartSpec(
        model=f"mart_monthly_{dimension}_revenue",
        grain=f"one row per (order_month, {dimension}) with at least one counted order",
        key_columns=("order_month", dimension),
        columns=(
            ("order_month", "date: first day of the UTC calendar month of orders.created_at"),
            (dimension, dim_text),
            ("orders", "number of counted orders"),
            ("gross_revenue_usd", "gross revenue in USD, rounded to cents"),
            ("discounts_usd", "discounts in USD, rounded to cents"),
            ("refunds_usd", "refunds in USD (all refunds of those orders), rounded to cents"),
            ("net_revenue_usd", "gross - discounts - refunds in USD, rounded to cents"),
        ),
        reference_sql=reference,
        oracle_model_sql=oracle,
        difficulty="medium",
    )


CUSTOMER_VALUE = MartSpec(
    model="mart_customer_value",
    grain="one row per customer (not a test account) with at least one counted order",
    key_columns=("customer_id",),
    columns=(
        ("customer_id", "the customer"),
        ("first_order_at", "timestamp (UTC): created_at of the customer's first counted order"),
        ("last_order_at", "timestamp (UTC): created_at of the customer's last counted order"),
        ("orders", "number of counted orders"),
        ("net_revenue_usd", "net revenue in USD of those orders, rounded to cents"),
        (
            "avg_net_order_value_usd",
            "net_revenue_usd / orders, rounded to cents",
        ),
        ("is_repeat", "boolean: orders >= 2"),
    ),
    reference_sql=f"""
        select customer_id,
               min(created_at) as first_order_at,
               max(created_at) as last_order_at,
               count(*) as orders,
               round(sum(net_usd), 2) as net_revenue_usd,
               round(sum(net_usd) / count(*), 2) as avg_net_order_value_usd,
               count(*) >= 2 as is_repeat
        from ({order_facts_sql(Reading())}) facts
        group by customer_id
    """,
    oracle_model_sql="""{{ config(materialized='table') }}

select
    customer_id,
    min(created_at) as first_order_at,
    max(created_at) as last_order_at,
    count(*) as orders,
    round(sum(net_revenue_usd), 2) as net_revenue_usd,
    round(sum(net_revenue_usd) / count(*), 2) as avg_net_order_value_usd,
    count(*) >= 2 as is_repeat
from {{ ref('fct_orders') }}
where is_revenue_order
group by customer_id
""",
    difficulty="medium",
)

PRODUCT_MONTHLY_SALES = MartSpec(
    model="mart_product_monthly_sales",
    grain="one row per (order_month, product_id) with at least one line of a counted order",
    key_columns=("order_month", "product_id"),
    columns=(
        ("order_month", "date: first day of the UTC calendar month of orders.created_at"),
        ("product_id", "the product"),
        ("category", "products.category"),
        ("units", "sum of quantity"),
        ("orders", "number of distinct counted orders with a line of the product"),
        (
            "net_item_sales_usd",
            "sum over the lines of quantity * unit_price - discount_amount in USD (refunds are "
            "per order and are NOT deducted), rounded to cents",
        ),
    ),
    reference_sql=f"""
        select cast(date_trunc('month', created_at) as date) as order_month,
               product_id, category,
               sum(quantity) as units,
               count(distinct order_id) as orders,
               round(sum(gross_usd - discount_usd), 2) as net_item_sales_usd
        from ({line_facts_sql(Reading())}) facts
        group by all
    """,
    oracle_model_sql="""{{ config(materialized='table') }}

select
    cast(date_trunc('month', order_date) as date) as order_month,
    product_id,
    category,
    sum(quantity) as units,
    count(distinct order_id) as orders,
    round(sum(net_line_amount_usd), 2) as net_item_sales_usd
from {{ ref('fct_order_items') }}
where is_revenue_order
group by 1, 2, 3
""",
    difficulty="medium",
)

PAYMENT_METHOD_MONTHLY = MartSpec(
    model="mart_payment_method_monthly",
    grain="one row per (payment_month, payment_method) with at least one counted payment",
    key_columns=("payment_month", "payment_method"),
    columns=(
        ("payment_month", "date: first day of the UTC calendar month of payments.paid_at"),
        ("payment_method", "payments.method"),
        ("payments", "number of counted payments"),
        (
            "amount_usd",
            "sum of the counted payments' amount converted to USD at raw.fx_rates.rate_to_usd "
            "of the ORDER's created date (UTC), each payment rounded to cents after conversion; "
            "total rounded to cents",
        ),
    ),
    extra_rules=(
        f"- Counted payments: status 'success', not a duplicated capture, of an order whose "
        f"customer is not an internal test account, WHATEVER the order's status (cancelled "
        f"included: this mart reports money received, so the revenue status rule above does "
        f"not apply to it). A duplicated capture is "
        f"a successful payment whose previous successful payment of the same order, method and "
        f"amount (ordered by paid_at, then payment_id) was made at most {WINDOW_SECONDS} seconds "
        f"before it; the earlier one counts, the later one does not.\n"
    ),
    reference_sql=f"""
        select cast(date_trunc('month', p.paid_at) as date) as payment_month,
               p.method as payment_method,
               count(*) as payments,
               round(sum(round(p.amount * fx.rate_to_usd, 2)), 2) as amount_usd
        from raw.payments p
        join raw.orders o on o.order_id = p.order_id
        join raw.customers c on c.customer_id = o.customer_id
        join raw.fx_rates fx on fx.currency = o.currency
            and fx.date = cast(o.created_at as date)
        where p.status = 'success' and not c.is_test_account
          and p.payment_id not in ({duplicate_payments_sql(None)})
        group by all
    """,
    oracle_model_sql="""{{ config(materialized='table') }}

select
    cast(date_trunc('month', p.paid_at) as date) as payment_month,
    p.payment_method,
    count(*) as payments,
    round(sum(round(p.amount * fx.rate_to_usd, 2)), 2) as amount_usd
from {{ ref('stg_payments') }} as p
inner join {{ ref('stg_orders') }} as o on o.order_id = p.order_id
inner join {{ ref('stg_customers') }} as c on c.customer_id = o.customer_id
inner join {{ ref('stg_fx_rates') }} as fx
    on fx.currency_code = o.currency_code and fx.rate_date = o.order_date
where p.counts_as_paid and not c.is_test_account
group by 1, 2
""",
    difficulty="hard",
)

CATEGORY_RETURNS = MartSpec(
    model="mart_category_returns",
    grain="one row per product category with at least one line in a counted order",
    key_columns=("category",),
    columns=(
        ("category", "products.category"),
        ("orders", "number of distinct counted orders with at least one line of the category"),
        ("returned_orders", "how many of those orders have status 'returned'"),
        ("return_rate_pct", "100 * returned_orders / orders, rounded to 2 decimals"),
    ),
    reference_sql=f"""
        select category,
               count(distinct order_id) as orders,
               count(distinct order_id) filter (where status = 'returned') as returned_orders,
               round(100.0 * count(distinct order_id) filter (where status = 'returned')
                     / count(distinct order_id), 2) as return_rate_pct
        from ({line_facts_sql(Reading())}) facts
        group by category
    """,
    oracle_model_sql="""{{ config(materialized='table') }}

select
    category,
    count(distinct order_id) as orders,
    count(distinct case when is_returned_order then order_id end) as returned_orders,
    round(
        100.0 * count(distinct case when is_returned_order then order_id end)
        / count(distinct order_id),
        2
    ) as return_rate_pct
from {{ ref('fct_order_items') }}
where is_revenue_order
group by category
""",
    difficulty="easy",
)

#: variant → spec factory (the monthly-revenue one takes the drawn dimension).
SPEC_FACTORIES: tuple[Callable[[str], MartSpec], ...] = (
    monthly_revenue_spec,
    lambda _dim: CUSTOMER_VALUE,
    lambda _dim: PRODUCT_MONTHLY_SALES,
    lambda _dim: PAYMENT_METHOD_MONTHLY,
    lambda _dim: CATEGORY_RETURNS,
)


def verifier_for(spec: MartSpec) -> VerifierConfig:
    return VerifierConfig(
        dbt_models=(spec.model,),
        reference_sql={spec.model: spec.reference_sql},
        key_columns=spec.key_columns,
        abs_tol=MONEY_TOL,
        rel_tol=1e-5,
    )


def instruction_for(spec: MartSpec) -> str:
    return (
        f"Add a new mart to the dbt project: model `{spec.model}` in `{spec.path}`, "
        f"materialized as a table in the default schema.\n\n"
        f"Grain: {spec.grain}.\n"
        f"Columns (exactly these, in any order):\n{spec.column_text()}\n\n"
        f"Definitions:\n{OFFICIAL_DEFINITIONS}\n{spec.extra_rules}"
        f"- 'Counted orders' are the orders the definitions above count.\n\n"
        f"Build it from the project's sources/models with ref() or source() (no hard-coded "
        f"values), run it with the dbt tool until it builds, then submit 'done'. Grading rebuilds "
        f"your model from your project files on a fresh copy of the raw data and compares every "
        f"row and column with the spec."
    )


@register_family
class DbtNewModel(TaskFamily):
    name = "ecommerce.dbt_new_model-v1"
    replica = "ecommerce"
    description = "Build a new dbt mart (name, grain, columns given); graded by table equality."
    difficulty = "medium"
    n_variants = 5

    def make(self, ctx: BuildContext) -> Task:
        rng = ctx.rng("params")
        dimension = ("channel", "country")[int(rng.integers(0, 2))]
        spec = SPEC_FACTORIES[ctx.variant % len(SPEC_FACTORIES)](dimension)
        # Fail at build time, not at grading, if the reference cannot run on this snapshot.
        ctx.scalar(f"select count(*) from ({spec.reference_sql})")
        return ctx.task(
            instruction=instruction_for(spec),
            answer_kind="dbt",
            verifier=verifier_for(spec),
            oracle=(
                write_file(spec.path, spec.oracle_model_sql),
                dbt(f"build --select {spec.model}"),
                submit("done"),
            ),
            difficulty=spec.difficulty,
            metadata={"model": spec.model, "path": spec.path},
        )

    def grade(self, task: Task, answer: str, ctx: GradeContext) -> Verdict:
        """Rebuild-and-compare, skipped (a clear failure, no dbt run) when no model file exists."""
        models_dir = Path(ctx.project_dir) / "models"
        missing = [m for m in task.verifier.dbt_models if not any(models_dir.rglob(f"{m}.sql"))]
        if missing:
            return fail(
                "missing_model",
                f"no model file for {', '.join(missing)} under models/ — write "
                f"{', '.join(f'models/marts/{m}.sql' for m in missing)} and build it",
            )
        return grade_dbt(task, ctx)
