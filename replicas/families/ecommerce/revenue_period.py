"""``ecommerce.revenue_period-v1``: net revenue in USD for one month or quarter.

The instruction states every definition (statuses, test accounts, refunds, discounts, FX at the
order's created date, UTC, per-amount rounding), so exactly one number is right. The ground truth
is computed from the RAW tables — not from the marts an agent may use as a shortcut — and the
plausible misreadings are computed the same way with one definition flipped:

- ``gross_instead_of_net``: item revenue before discounts and refunds;
- ``refunds_ignored``: discounts subtracted, refunds not;
- ``cancelled_included``: cancelled orders counted;
- ``test_accounts_included``: internal QA accounts counted;
- ``no_fx_conversion``: local-currency amounts summed as if they were USD.

A period where a misreading coincides with the answer (e.g. no test-account orders that month) is
redrawn by ``TaskFamily.build``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from replicas.tasks import (
    BuildContext,
    Task,
    TaskFamily,
    VerifierConfig,
    register_family,
    sql,
    submit,
)

REVENUE_STATUSES = ("placed", "shipped", "completed", "returned")
ALL_STATUSES = (*REVENUE_STATUSES, "cancelled")
FIRST_MONTH = dt.date(2024, 1, 1)
N_MONTHS = 30  # 2024-01 .. 2026-06


@dataclass(frozen=True)
class Period:
    start: dt.date
    end: dt.date  # exclusive
    label: str


@dataclass(frozen=True)
class Reading:
    """One way of reading the question: which definitions are applied."""

    statuses: tuple[str, ...] = REVENUE_STATUSES
    exclude_test_accounts: bool = True
    subtract_discounts: bool = True
    subtract_refunds: bool = True
    convert_fx: bool = True


CORRECT = Reading()
WRONG_READINGS: dict[str, Reading] = {
    "gross_instead_of_net": Reading(subtract_discounts=False, subtract_refunds=False),
    "refunds_ignored": Reading(subtract_refunds=False),
    "cancelled_included": Reading(statuses=ALL_STATUSES),
    "test_accounts_included": Reading(exclude_test_accounts=False),
    "no_fx_conversion": Reading(convert_fx=False),
}


def _add_months(day: dt.date, months: int) -> dt.date:
    index = day.year * 12 + day.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1)


def draw_period(ctx: BuildContext) -> Period:
    """A calendar month or quarter inside the data window, from the task's random stream."""
    rng = ctx.rng("period")
    if ctx.variant % 2 == 0:
        offset = int(rng.integers(0, N_MONTHS))
        start = _add_months(FIRST_MONTH, offset)
        return Period(start, _add_months(start, 1), start.strftime("%B %Y"))
    quarter = int(rng.integers(0, N_MONTHS // 3))
    start = _add_months(FIRST_MONTH, 3 * quarter)
    label = f"Q{(start.month - 1) // 3 + 1} {start.year}"
    return Period(start, _add_months(start, 3), label)


def revenue_sql(period: Period, reading: Reading) -> str:
    """Net revenue under ``reading``, from raw tables only."""
    statuses = ", ".join(f"'{s}'" for s in reading.statuses)
    test_filter = "and not c.is_test_account" if reading.exclude_test_accounts else ""
    rate = "r.rate_to_usd" if reading.convert_fx else "1.0"
    discounts = "- l.discounts" if reading.subtract_discounts else ""
    refunds = "- f.refunds" if reading.subtract_refunds else ""
    return f"""
with period_orders as (
    select o.order_id, o.currency, cast(o.created_at as date) as order_date
    from raw.orders as o
    join raw.customers as c on c.customer_id = o.customer_id
    where o.created_at >= timestamp '{period.start} 00:00:00'
      and o.created_at < timestamp '{period.end} 00:00:00'
      and o.status in ({statuses})
      {test_filter}
),
rates as (
    select po.order_id, {rate} as rate
    from period_orders as po
    join raw.fx_rates as r on r.date = po.order_date and r.currency = po.currency
),
lines as (
    select
        coalesce(sum(round(round(i.quantity * i.unit_price, 2) * rates.rate, 2)), 0) as gross,
        coalesce(sum(round(i.discount_amount * rates.rate, 2)), 0) as discounts
    from raw.order_items as i
    join rates on rates.order_id = i.order_id
),
refunds as (
    select coalesce(sum(round(f.amount * rates.rate, 2)), 0) as refunds
    from raw.refunds as f
    join rates on rates.order_id = f.order_id
)
select round(l.gross {discounts} {refunds}, 2) as net_revenue_usd
from lines as l, refunds as f
""".strip()


def instruction(period: Period) -> str:
    last_day = period.end - dt.timedelta(days=1)
    return (
        f"What was the online store's net revenue in USD for orders created in {period.label} "
        f"(UTC timestamps from {period.start} 00:00:00 inclusive to {period.end} 00:00:00 "
        f"exclusive, i.e. through {last_day})?\n"
        "Definitions:\n"
        "- Count orders with status placed, shipped, completed or returned; cancelled orders "
        "are excluded.\n"
        "- Exclude orders of internal test accounts (customers with is_test_account = true).\n"
        "- Net revenue = item revenue (quantity x unit_price of each order line) minus the line "
        "discounts minus every refund of those orders, whenever the refund was issued. Shipping "
        "and tax are not revenue.\n"
        "- Convert every line amount, line discount and refund to USD at the FX rate "
        "(fx_rates.rate_to_usd) of the order's created date in UTC, rounding each converted "
        "amount to cents before summing.\n"
        "- Give the total in USD rounded to cents. Submit only the number."
    )


@register_family
class RevenuePeriod(TaskFamily):
    name = "ecommerce.revenue_period-v1"
    replica = "ecommerce"
    description = "Net revenue in USD for one month or quarter, every definition stated."
    difficulty = "medium"
    n_variants = 4  # even variants ask for a month, odd ones for a quarter

    def make(self, ctx: BuildContext) -> Task:
        period = draw_period(ctx)
        truth_sql = revenue_sql(period, CORRECT)
        truth = float(ctx.scalar(truth_sql))
        wrong = {
            name: float(ctx.scalar(revenue_sql(period, r))) for name, r in WRONG_READINGS.items()
        }
        return ctx.task(
            instruction=instruction(period),
            answer_kind="number",
            expected=truth,
            verifier=VerifierConfig(abs_tol=0.01, rel_tol=0.0),
            oracle=(sql(truth_sql), submit(f"{truth:.2f}")),
            wrong_readings=wrong,
            metadata={
                "period_start": period.start.isoformat(),
                "period_end": period.end.isoformat(),
                "period_label": period.label,
            },
        )
