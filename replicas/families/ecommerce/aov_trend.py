"""``ecommerce.aov_trend-v1``: average order value per month over a run of months.

``-v2`` (core-v2): AOVs graded to the cent (±$0.005, no relative allowance), the tolerance
stated in the grader's words.

Parameters: the order-value definition (by variant: merchandise after discounts, or the full
order total incl. shipping and tax), the time zone months are read in (UTC, or a named zone
on some variants), and from ``ctx.rng`` a run of 3–6 consecutive months.

AOV of a month = mean order value over the counted orders created in that month, USD, rounded
to cents. The answer is a table ``(month 'YYYY-MM', aov_usd)``. Wrong readings: cancelled
orders counted, test accounts kept, no FX conversion, discounts not deducted, the other
order-value definition, refunds deducted, and (named zones) UTC months.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from replicas.families.ecommerce._order_facts import (
    OFFICIAL_DEFINITIONS,
    UTC,
    Reading,
    order_facts_sql,
    period_filter,
    usd_mean,
)
from replicas.families.ecommerce._periods import Period, draw_month_run
from replicas.families.ecommerce._search import Candidate, search
from replicas.tasks import (
    BuildContext,
    Task,
    TaskFamily,
    VerifierConfig,
    register_family,
    sql,
    state_tolerance,
    submit,
)

VERIFIER = VerifierConfig(key_columns=("month",), abs_tol=0.01, rel_tol=1e-5)


@dataclass(frozen=True)
class OrderValue:
    """How one order's value is measured (an expression over order facts)."""

    key: str
    expression: str
    definition: str


ITEMS = OrderValue(
    "items",
    "gross_usd - discount_usd",
    "the order's merchandise after discounts: sum of quantity * unit_price of its lines minus "
    "the lines' discount_amount (shipping, tax and refunds are NOT part of it)",
)
TOTAL = OrderValue(
    "total",
    "gross_usd - discount_usd + shipping_usd + tax_usd",
    "the order total the customer was charged: lines' quantity * unit_price - discount_amount "
    "+ shipping_amount + tax_amount (refunds are NOT deducted)",
)
#: Misreadings of the value expression (name → expression), per definition.
VALUE_MISREADINGS: dict[str, dict[str, str]] = {
    "items": {
        "discounts_not_deducted": "gross_usd",
        "shipping_and_tax_included": TOTAL.expression,
        "refunds_deducted": "net_usd",
    },
    "total": {
        "discounts_not_deducted": "gross_usd + shipping_usd + tax_usd",
        "shipping_and_tax_excluded": ITEMS.expression,
        "refunds_deducted": "net_usd + shipping_usd + tax_usd",
    },
}
#: variant → (order value, time zone).
VARIANTS: tuple[tuple[OrderValue, str], ...] = (
    (ITEMS, UTC),
    (TOTAL, UTC),
    (ITEMS, "America/New_York"),
    (TOTAL, "Europe/London"),
    (ITEMS, "America/Los_Angeles"),
)


def aov_sql(value_expression: str, months: Period, reading: Reading) -> str:
    """Monthly AOV table over the raw tables (ground truth, or a misreading).

    The mean is taken over exact cents (``usd_mean``): ``round(avg(x), 2)`` over the DOUBLE
    order values rounded a month whose mean is exactly half a cent either way depending on
    DuckDB's summation order (aov_trend-v2.s1.2's 2025-11 under discounts_not_deducted: 104.115).
    """
    where = period_filter("local_at", months.start.isoformat(), months.end.isoformat())
    return f"""
        select strftime(local_at, '%Y-%m') as month,
               {usd_mean(value_expression)} as aov_usd
        from ({order_facts_sql(reading)}) facts
        where {where}
        group by 1
        order by 1
    """


@register_family
class AovTrend(TaskFamily):
    name = "ecommerce.aov_trend-v1"
    replica = "ecommerce"
    description = "Average order value in USD per month over 3-6 months (table month, aov_usd)."
    difficulty = "medium"
    n_variants = 5

    def make(self, ctx: BuildContext) -> Task:
        rng = ctx.rng("params")
        value, zone = VARIANTS[ctx.variant % len(VARIANTS)]
        truth = Reading(zone=zone)

        def draw() -> Period:
            return draw_month_run(rng, int(rng.integers(3, 7)))

        def evaluate(months: Period) -> Candidate[Period]:
            def table(expression: str, reading: Reading) -> dict[str, object]:
                return ctx.table(aov_sql(expression, months, reading))

            readings = {
                "cancelled_included": table(value.expression, truth.with_(include_cancelled=True)),
                "test_accounts_included": table(
                    value.expression, truth.with_(include_test_accounts=True)
                ),
                "no_fx_conversion": table(value.expression, truth.with_(convert_fx=False)),
            }
            for name, expression in VALUE_MISREADINGS[value.key].items():
                readings[name] = table(expression, truth)
            if zone != UTC:
                readings["utc_months"] = table(value.expression, truth.with_(zone=UTC))
            return Candidate(months, table(value.expression, truth), readings)

        chosen = search(draw, evaluate, kind="table", verifier=VERIFIER)
        months = chosen.params
        zone_text = (
            "UTC (orders.created_at is stored in UTC)"
            if zone == UTC
            else f"{zone} local time (orders.created_at is stored in UTC; convert it, then take "
            f"the local calendar month)"
        )
        instruction = (
            f"Compute the average order value (AOV) in USD for each month from "
            f"{months.describe()}, months in {zone_text}.\n\n"
            f"Definitions:\n{OFFICIAL_DEFINITIONS}\n"
            f"- Order value = {value.definition}, converted as above.\n"
            f"- AOV of a month = sum of the order values / number of counted orders created in "
            f"that month (in {zone}).\n\n"
            f"Answer with a table of exactly two columns: `month` (text 'YYYY-MM') and `aov_usd` "
            f"(rounded to cents), one row per month. Submit it as CSV with a header row (or JSON "
            f"rows)."
        )
        return ctx.task(
            instruction=instruction,
            answer_kind="table",
            expected=chosen.expected,
            verifier=VERIFIER,
            oracle=(sql(aov_sql(value.expression, months, truth)), submit(chosen.expected)),
            wrong_readings=dict(chosen.readings),
            difficulty="hard" if zone != UTC else ("medium" if value is TOTAL else "easy"),
            metadata={"order_value": value.key, "zone": zone, "months": months.label},
        )


@register_family
class AovTrendV2(AovTrend):
    name = "ecommerce.aov_trend-v2"
    description = "Monthly average order value in USD over a run of months, graded to the cent."

    def make(self, ctx: BuildContext) -> Task:
        task = super().make(ctx)
        verifier = replace(task.verifier, abs_tol=0.005, rel_tol=0.0, unit="usd")
        return state_tolerance(task, verifier)
