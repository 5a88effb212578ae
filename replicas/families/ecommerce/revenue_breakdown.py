"""``ecommerce.revenue_breakdown-v1``: revenue in USD by channel, category or country for a period.

``-v2`` (core-v2): amounts are graded to the cent (±$0.005, no relative allowance: v1's
0.001 % let every row of a large total be off by $0.02), and the instruction says so in the
grader's words.

Parameters: the dimension by variant (order channel, customer country, product category), and
from ``ctx.rng`` the metric (gross or net revenue; for categories gross or net item sales — refunds
belong to orders, not lines, so they are not allocated), the period (a month or a quarter) and
the time zone its boundaries are read in (UTC, or a named zone for the hard variant).

The answer is a table with exactly two stated columns, one row per group with at least one
counted order line in the period, amounts rounded to cents. Wrong readings: the other metric,
cancelled orders counted, test accounts kept, no FX conversion, and (for non-UTC periods) UTC
boundaries.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from replicas.families.ecommerce._order_facts import (
    OFFICIAL_DEFINITIONS,
    UTC,
    Reading,
    line_facts_sql,
    order_facts_sql,
    period_filter,
    usd_sum,
)
from replicas.families.ecommerce._periods import Period, draw_period
from replicas.tasks import (
    BuildContext,
    Difficulty,
    Task,
    TaskFamily,
    VerifierConfig,
    register_family,
    sql,
    state_tolerance,
    submit,
)

Dimension = Literal["channel", "category", "country"]
#: Money tolerance: a cent, or 0.001 % of the figure (per-line vs final rounding of big sums).
MONEY_VERIFIER = dict(abs_tol=0.01, rel_tol=1e-5)


@dataclass(frozen=True)
class Metric:
    """One revenue measure: its output column, its SQL over the facts and how it is defined."""

    column: str
    label: str
    expression: str
    definition: str
    line_level: bool

    def __post_init__(self) -> None:
        if not self.column.endswith("_usd"):
            raise ValueError(f"metric columns are USD amounts: {self.column!r}")


GROSS = Metric(
    "gross_revenue_usd",
    "gross revenue",
    usd_sum("gross_usd"),
    "sum of quantity * unit_price of the orders' lines",
    False,
)
NET = Metric(
    "net_revenue_usd",
    "net revenue",
    usd_sum("net_usd"),
    "gross revenue - discounts - refunds of the orders",
    False,
)
LINE_GROSS = Metric(
    "gross_revenue_usd",
    "gross revenue",
    usd_sum("gross_usd"),
    "sum of quantity * unit_price of the category's lines",
    True,
)
LINE_NET = Metric(
    "net_item_sales_usd",
    "net item sales",
    usd_sum("gross_usd - discount_usd"),
    "the lines' quantity * unit_price minus the lines' discount_amount; refunds are recorded "
    "per order, not per line, so they are NOT deducted",
    True,
)

#: dimension → (column in the facts, how the instruction names it, the two metrics offered).
DIMENSIONS: dict[str, tuple[str, str, tuple[Metric, Metric]]] = {
    "channel": ("channel", "sales channel (orders.channel)", (GROSS, NET)),
    "country": ("country", "customer country (customers.country, ISO-2 code)", (GROSS, NET)),
    "category": ("category", "product category (products.category)", (LINE_GROSS, LINE_NET)),
}


def breakdown_sql(
    dimension: str, metric: Metric, period: Period, reading: Reading, column_name: str = ""
) -> str:
    """Ground truth (or a wrong reading's answer) as one query on the raw tables.

    ``column_name`` renames the amount column: a misreading still answers under the asked name.
    """
    column = DIMENSIONS[dimension][0]
    facts = line_facts_sql(reading) if metric.line_level else order_facts_sql(reading)
    where = period_filter("local_at", period.start.isoformat(), period.end.isoformat())
    return f"""
        select {column} as {dimension},
               round({metric.expression}, 2) as {column_name or metric.column}
        from ({facts}) facts
        where {where}
        group by {column}
        order by {column}
    """


def _difficulty(metric: Metric, zone: str) -> Difficulty:
    steps = int(metric in (NET, LINE_NET)) + int(zone != UTC) + int(metric.line_level)
    return ("easy", "medium", "hard", "hard")[steps]


@register_family
class RevenueBreakdown(TaskFamily):
    name = "ecommerce.revenue_breakdown-v1"
    replica = "ecommerce"
    description = "Gross or net revenue in USD by channel, category or country for a month/quarter."
    difficulty = "medium"
    n_variants = 6

    def make(self, ctx: BuildContext) -> Task:
        rng = ctx.rng("params")
        dimension = ("channel", "country", "category")[ctx.variant % 3]
        _, dim_text, metrics = DIMENSIONS[dimension]
        metric = metrics[int(rng.integers(0, 2))]
        period = draw_period(rng, "quarter" if rng.random() < 0.5 else "month")
        zone = UTC if rng.random() < 0.6 else "America/New_York"
        truth = Reading(zone=zone)

        def answer(metric_: Metric, reading: Reading) -> dict[str, object]:
            return ctx.table(breakdown_sql(dimension, metric_, period, reading, metric.column))

        other = metrics[1] if metric is metrics[0] else metrics[0]
        readings = {
            f"{other.label}_instead_of_{metric.label}".replace(" ", "_"): answer(other, truth),
            "cancelled_included": answer(metric, truth.with_(include_cancelled=True)),
            "test_accounts_included": answer(metric, truth.with_(include_test_accounts=True)),
            "no_fx_conversion": answer(metric, truth.with_(convert_fx=False)),
        }
        if zone != UTC:
            readings["utc_period_boundaries"] = answer(metric, truth.with_(zone=UTC))
        zone_text = (
            "UTC (orders.created_at is stored in UTC)"
            if zone == UTC
            else f"{zone} local time (orders.created_at is stored in UTC; convert it first)"
        )
        instruction = (
            f"Report {metric.label} in USD by {dim_text} for {period.describe()}, "
            f"with period boundaries in {zone_text}.\n\n"
            f"Definitions:\n{OFFICIAL_DEFINITIONS}\n"
            f"- {metric.label.capitalize()} here = {metric.definition}.\n"
            f"- An order belongs to the period by its created_at in {zone}.\n\n"
            f"Answer with a table of exactly two columns, `{dimension}` and `{metric.column}`: "
            f"one row per {dimension} that has at least one counted order line in the period, "
            f"amounts rounded to cents. Submit it as CSV with a header row (or JSON rows)."
        )
        expected = answer(metric, truth)
        return ctx.task(
            instruction=instruction,
            answer_kind="table",
            expected=expected,
            verifier=VerifierConfig(key_columns=(dimension,), **MONEY_VERIFIER),
            oracle=(sql(breakdown_sql(dimension, metric, period, truth)), submit(expected)),
            wrong_readings=readings,
            difficulty=_difficulty(metric, zone),
            metadata={
                "dimension": dimension,
                "metric": metric.column,
                "period": period.label,
                "zone": zone,
            },
        )


V2_VERIFIER_FIELDS = dict(abs_tol=0.005, rel_tol=0.0, unit="usd")


@register_family
class RevenueBreakdownV2(RevenueBreakdown):
    name = "ecommerce.revenue_breakdown-v2"
    description = (
        "Gross or net revenue in USD by channel, category or country for a month/quarter, "
        "graded to the cent."
    )

    def make(self, ctx: BuildContext) -> Task:
        task = super().make(ctx)
        return state_tolerance(task, replace(task.verifier, **V2_VERIFIER_FIELDS))
