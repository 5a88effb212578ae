"""``ecommerce.dbt_new_model-v1``: build a new mart in the dbt project to a written spec.

``-v2`` (core-v2): grading also rebuilds the model on the replica's hidden datasets (other
seeds' raw data and edge cases, ``replicas.tasks.hidden``) and compares it with the reference
computed there, so a model of pasted rows (which passed v1) or one that only works on the
visible data fails; numbers within ±$0.01 (a cent either way: averages can land on a
half cent), stated in the grader's words; a 600 s episode budget for the extra rebuilds.

Each variant is one mart spec (:data:`SPECS`): model name and path, materialisation, grain and
every column with its definition. Grading rebuilds the agent's model (and its upstream) from
the agent's project files on a fresh copy of the pristine RAW data and compares it, as a row
set keyed on the grain, with the reference computed by ground-truth SQL on the RAW tables of
the pristine snapshot (``VerifierConfig.reference_sql``) — an implementation independent of
the project's marts. The oracle is a second, independent implementation: a model file built
on the project's marts/staging models, written with ``write_file`` and run with ``dbt``.

Parameters: the spec by variant; every seed draws from ``ctx.rng`` (:func:`draw_params`) the
window start (a month of the snapshot's order history: only orders created — payments made —
on or after it count) and the spec's own knob: the monthly-revenue breakdown (channel or
country), the customer-value threshold (at least K orders) and the sales channel the item
marts keep. So both the reference and the oracle's model differ between seeds. dbt tasks cost a dbt subprocess at grading (~3–5 s), so the family
keeps five variants.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from replicas.families.ecommerce import _hidden_data  # noqa: F401  (registers edge cases)
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
    Limits,
    Task,
    TaskBuildError,
    TaskFamily,
    VerifierConfig,
    dbt,
    grade_dbt,
    register_family,
    submit,
    write_file,
)
from replicas.verifiers.config import tolerance_sentence
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


@dataclass(frozen=True)
class SpecParams:
    """The seed's parameters of a spec, all drawn from ``ctx.rng``.

    ``since`` starts the window: only orders created (payments made, for the payment mart) on
    or after that UTC date count. ``dimension`` is the monthly-revenue breakdown, ``min_orders``
    the customer-value threshold and ``channel`` the sales channel the item marts keep.
    """

    since: dt.date
    dimension: str = "channel"
    min_orders: int = 1
    channel: str = "web"

    def __post_init__(self) -> None:
        if self.since.day != 1:
            raise ValueError(f"since must be the first day of a month, got {self.since}")
        if self.dimension not in DIMENSIONS:
            raise ValueError(f"dimension must be one of {DIMENSIONS}, got {self.dimension!r}")
        if not 1 <= self.min_orders <= 5:
            raise ValueError(f"min_orders must be in 1..5, got {self.min_orders}")
        if self.channel not in CHANNELS:
            raise ValueError(f"channel must be one of {CHANNELS}, got {self.channel!r}")

    @property
    def since_sql(self) -> str:
        return f"timestamp '{self.since.isoformat()} 00:00:00'"

    @property
    def since_text(self) -> str:
        return f"{self.since.isoformat()} 00:00:00 UTC"


DIMENSIONS = ("channel", "country")
CHANNELS = ("web", "app", "marketplace")
MIN_ORDER_CHOICES = (1, 2, 3)
#: the window starts at least this many months before the last month of data.
MIN_WINDOW_MONTHS = 6


def _window_rule(params: SpecParams, what: str = "orders") -> str:
    return (
        f"- Window: only {what} created on or after {params.since_text} count "
        f"(by orders.created_at).\n"
    )


def monthly_revenue_spec(params: SpecParams) -> MartSpec:
    """Revenue per (UTC month, channel|country) of counted orders in the window."""
    dimension = params.dimension
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
        where created_at >= {params.since_sql}
        group by all
    """
    oracle = f"""{{{{ config(materialized='table') }}}}

with scoped as (

    select * from {{{{ ref('fct_orders') }}}}
    where created_at >= {params.since_sql}

)

select
    cast(date_trunc('month', created_at) as date) as order_month,
    {mart_column} as {dimension},
    count(*) as orders,
    round(sum(items_subtotal_usd), 2) as gross_revenue_usd,
    round(sum(items_discount_usd), 2) as discounts_usd,
    round(sum(refunds_usd), 2) as refunds_usd,
    round(sum(net_revenue_usd), 2) as net_revenue_usd
from scoped
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
        extra_rules=_window_rule(params),
    )


def customer_value_spec(params: SpecParams) -> MartSpec:
    """Per-customer value over the window, for customers with at least ``min_orders`` orders."""
    k = params.min_orders
    return MartSpec(
        model="mart_customer_value",
        grain=(
            f"one row per customer (not a test account) with at least {k} counted "
            f"order{'s' if k > 1 else ''} in the window"
        ),
        key_columns=("customer_id",),
        columns=(
            ("customer_id", "the customer"),
            (
                "first_order_at",
                "timestamp (UTC): created_at of the customer's first counted order in the window",
            ),
            (
                "last_order_at",
                "timestamp (UTC): created_at of the customer's last counted order in the window",
            ),
            ("orders", "number of counted orders in the window"),
            ("net_revenue_usd", "net revenue in USD of those orders, rounded to cents"),
            ("avg_net_order_value_usd", "net_revenue_usd / orders, rounded to cents"),
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
            where created_at >= {params.since_sql}
            group by customer_id
            having count(*) >= {k}
        """,
        oracle_model_sql=f"""{{{{ config(materialized='table') }}}}

with scoped as (

    select * from {{{{ ref('fct_orders') }}}}
    where created_at >= {params.since_sql}

)

select
    customer_id,
    min(created_at) as first_order_at,
    max(created_at) as last_order_at,
    count(*) as orders,
    round(sum(net_revenue_usd), 2) as net_revenue_usd,
    round(sum(net_revenue_usd) / count(*), 2) as avg_net_order_value_usd,
    count(*) >= 2 as is_repeat
from scoped
where is_revenue_order
group by customer_id
having count(*) >= {k}
""",
        difficulty="medium",
        extra_rules=_window_rule(params),
    )


def product_monthly_sales_spec(params: SpecParams) -> MartSpec:
    """Monthly sales per product of one channel's counted orders in the window."""
    channel = params.channel
    return MartSpec(
        model=f"mart_product_monthly_{channel}_sales",
        grain=(
            "one row per (order_month, product_id) with at least one line of a counted "
            f"'{channel}' order in the window"
        ),
        key_columns=("order_month", "product_id"),
        columns=(
            ("order_month", "date: first day of the UTC calendar month of orders.created_at"),
            ("product_id", "the product"),
            ("category", "products.category"),
            ("units", "sum of quantity"),
            ("orders", "number of distinct counted orders with a line of the product"),
            (
                "net_item_sales_usd",
                "sum over the lines of quantity * unit_price - discount_amount in USD (refunds "
                "are per order and are NOT deducted), rounded to cents",
            ),
        ),
        reference_sql=f"""
            select cast(date_trunc('month', created_at) as date) as order_month,
                   product_id, category,
                   sum(quantity) as units,
                   count(distinct order_id) as orders,
                   round(sum(gross_usd - discount_usd), 2) as net_item_sales_usd
            from ({line_facts_sql(Reading())}) facts
            where created_at >= {params.since_sql} and channel = '{channel}'
            group by all
        """,
        oracle_model_sql=f"""{{{{ config(materialized='table') }}}}

with scoped as (

    select * from {{{{ ref('fct_order_items') }}}}
    where order_date >= cast({params.since_sql} as date) and channel = '{channel}'

)

select
    cast(date_trunc('month', order_date) as date) as order_month,
    product_id,
    category,
    sum(quantity) as units,
    count(distinct order_id) as orders,
    round(sum(net_line_amount_usd), 2) as net_item_sales_usd
from scoped
where is_revenue_order
group by 1, 2, 3
""",
        difficulty="medium",
        extra_rules=(
            _window_rule(params)
            + f"- Channel: only orders with orders.channel = '{channel}' count.\n"
        ),
    )


def payment_method_monthly_spec(params: SpecParams) -> MartSpec:
    """Money received per (month, payment method) from payments made in the window."""
    return MartSpec(
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
                "of the ORDER's created date (UTC), each payment rounded to cents after "
                "conversion; total rounded to cents",
            ),
        ),
        extra_rules=(
            f"- Counted payments: status 'success', paid (payments.paid_at) on or after "
            f"{params.since_text}, not a duplicated capture, of an order whose "
            f"customer is not an internal test account, WHATEVER the order's status (cancelled "
            f"included: this mart reports money received, so the revenue status rule above does "
            f"not apply to it). A duplicated capture is "
            f"a successful payment whose previous successful payment of the same order, method "
            f"and amount (ordered by paid_at, then payment_id; at ANY date) was made at most "
            f"{WINDOW_SECONDS} seconds before it; the earlier one counts, the later one does "
            f"not.\n"
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
              and p.paid_at >= {params.since_sql}
              and p.payment_id not in ({duplicate_payments_sql(None)})
            group by all
        """,
        oracle_model_sql=f"""{{{{ config(materialized='table') }}}}

select
    cast(date_trunc('month', p.paid_at) as date) as payment_month,
    p.payment_method,
    count(*) as payments,
    round(sum(round(p.amount * fx.rate_to_usd, 2)), 2) as amount_usd
from {{{{ ref('stg_payments') }}}} as p
inner join {{{{ ref('stg_orders') }}}} as o on o.order_id = p.order_id
inner join {{{{ ref('stg_customers') }}}} as c on c.customer_id = o.customer_id
inner join {{{{ ref('stg_fx_rates') }}}} as fx
    on fx.currency_code = o.currency_code and fx.rate_date = o.order_date
where p.counts_as_paid and not c.is_test_account
    and p.paid_at >= {params.since_sql}
group by 1, 2
""",
        difficulty="hard",
    )


def category_returns_spec(params: SpecParams) -> MartSpec:
    """Return rate per category of one channel's counted orders in the window."""
    channel = params.channel
    return MartSpec(
        model=f"mart_category_{channel}_returns",
        grain=(
            "one row per product category with at least one line in a counted "
            f"'{channel}' order in the window"
        ),
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
            where created_at >= {params.since_sql} and channel = '{channel}'
            group by category
        """,
        oracle_model_sql=f"""{{{{ config(materialized='table') }}}}

with scoped as (

    select * from {{{{ ref('fct_order_items') }}}}
    where order_date >= cast({params.since_sql} as date) and channel = '{channel}'

)

select
    category,
    count(distinct order_id) as orders,
    count(distinct case when is_returned_order then order_id end) as returned_orders,
    round(
        100.0 * count(distinct case when is_returned_order then order_id end)
        / count(distinct order_id),
        2
    ) as return_rate_pct
from scoped
where is_revenue_order
group by category
""",
        difficulty="easy",
        extra_rules=(
            _window_rule(params)
            + f"- Channel: only orders with orders.channel = '{channel}' count.\n"
        ),
    )


#: variant → spec factory (each reads the parameters it needs from the drawn SpecParams).
SPEC_FACTORIES: tuple[Callable[[SpecParams], MartSpec], ...] = (
    monthly_revenue_spec,
    customer_value_spec,
    product_monthly_sales_spec,
    payment_method_monthly_spec,
    category_returns_spec,
)


def month_starts(first: dt.date, last: dt.date) -> list[dt.date]:
    """First days of the months from ``first``'s month to ``last``'s month, inclusive."""
    out, year, month = [], first.year, first.month
    while (year, month) <= (last.year, last.month):
        out.append(dt.date(year, month, 1))
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out


def draw_params(ctx: BuildContext) -> SpecParams:
    """Every parameter from ``ctx.rng``; the window start from the snapshot's order months."""
    rng = ctx.rng("params")
    rows = ctx.query(
        "select cast(cast(min(created_at) as date) as varchar), "
        "cast(cast(max(created_at) as date) as varchar) from raw.orders"
    )
    first, last = (dt.date.fromisoformat(str(value)) for value in rows[0])
    months = month_starts(first, last)[1:-MIN_WINDOW_MONTHS]
    if not months:
        raise TaskBuildError(f"the orders of seed {ctx.seed} span too few months for a window")
    return SpecParams(
        since=months[int(rng.integers(0, len(months)))],
        dimension=DIMENSIONS[int(rng.integers(0, len(DIMENSIONS)))],
        min_orders=MIN_ORDER_CHOICES[int(rng.integers(0, len(MIN_ORDER_CHOICES)))],
        channel=CHANNELS[int(rng.integers(0, len(CHANNELS)))],
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
        f"values other than the spec's own parameters), run it with the dbt tool until it builds, then submit 'done'. Grading rebuilds "
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
        params = draw_params(ctx)
        spec = SPEC_FACTORIES[ctx.variant % len(SPEC_FACTORIES)](params)
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
            metadata={
                "model": spec.model,
                "path": spec.path,
                "since": params.since.isoformat(),
                "dimension": params.dimension,
                "min_orders": params.min_orders,
                "channel": params.channel,
            },
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


#: Grading's time on hidden data counts against the episode: room for K+1 rebuilds.
V2_LIMITS = Limits(wall_s=600.0)


def instruction_v2(spec: MartSpec, verifier: VerifierConfig) -> str:
    v1 = instruction_for(spec)
    head, _, _ = v1.partition("Grading rebuilds")
    return (
        f"{head}Grading rebuilds your model from your project files on a fresh copy of the raw "
        "data you can query AND on hidden raw datasets of the same schema that you cannot see "
        "(other data, and edge cases such as empty months, NULLs where the schema allows them, "
        "duplicates and timestamps on period boundaries), and compares every row and column "
        "with the spec on each of them: values pasted from this data, or logic that only works "
        f"on it, fail.\n{tolerance_sentence('dbt', verifier)}"
    )


@register_family
class DbtNewModelV2(DbtNewModel):
    """v1 graded on the visible raw data only: 45 pasted literal rows passed."""

    name = "ecommerce.dbt_new_model-v2"
    description = (
        "Build a new dbt mart (name, grain, columns given); graded by table equality on the "
        "visible data and on hidden datasets."
    )

    def make(self, ctx: BuildContext) -> Task:
        task = super().make(ctx)
        params = draw_params(ctx)
        spec = SPEC_FACTORIES[ctx.variant % len(SPEC_FACTORIES)](params)
        verifier = replace(task.verifier, hidden_data=True, abs_tol=MONEY_TOL, rel_tol=0.0)
        return replace(
            task,
            instruction=instruction_v2(spec, verifier),
            verifier=verifier,
            limits=V2_LIMITS,
        )
