"""``ecommerce.revenue_period-v1`` / ``-v2``: net revenue in USD for one month or quarter.

``-v2`` (core-v2): the question names its scope without inviting a filter ("net revenue of all
orders, every sales channel included" instead of "the online store's net revenue", which reads
like the ``web`` channel), records the web-only answer as a wrong reading, and states its
tolerance in the grader's own words: to the cent (±$0.005), nothing looser.

The instruction states every definition (statuses, test accounts, refunds, discounts, FX at the
order's created date, UTC, per-amount rounding), so exactly one number is right. The ground truth
is computed from the RAW tables — not from the marts an agent may use as a shortcut — through the
order facts every ecommerce question shares (``_order_facts``), and the plausible misreadings are
computed the same way with one definition flipped:

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
from dataclasses import dataclass, field, replace

from replicas.families.ecommerce._order_facts import (
    Reading,
    order_facts_sql,
    period_filter,
    usd_sum,
)
from replicas.families.ecommerce._periods import Period, draw_period
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


@dataclass(frozen=True)
class RevenueReading:
    """One way of reading the question: which orders count and which amounts are subtracted."""

    orders: Reading = field(default_factory=Reading)
    subtract_discounts: bool = True
    subtract_refunds: bool = True

    @property
    def amount(self) -> str:
        """Net (or not) revenue over the order facts, each component summed on its own (in
        exact cents: the total cannot depend on the order DuckDB adds the rows in)."""
        terms = [usd_sum("gross_usd")]
        if self.subtract_discounts:
            terms.append(usd_sum("discount_usd"))
        if self.subtract_refunds:
            terms.append(usd_sum("refund_usd"))
        return " - ".join(terms)


CORRECT = RevenueReading()
WRONG_READINGS: dict[str, RevenueReading] = {
    "gross_instead_of_net": RevenueReading(subtract_discounts=False, subtract_refunds=False),
    "refunds_ignored": RevenueReading(subtract_refunds=False),
    "cancelled_included": RevenueReading(Reading(include_cancelled=True)),
    "test_accounts_included": RevenueReading(Reading(include_test_accounts=True)),
    "no_fx_conversion": RevenueReading(Reading(convert_fx=False)),
}


def draw(ctx: BuildContext) -> Period:
    """A calendar month (even variants) or quarter (odd ones), from the task's random stream."""
    return draw_period(ctx.rng("period"), "month" if ctx.variant % 2 == 0 else "quarter")


def spoken_label(period: Period) -> str:
    """How this family's instruction names the period: "June 2025", "Q1 2026"."""
    if period.kind == "month":
        return period.start.strftime("%B %Y")
    return f"Q{(period.start.month - 1) // 3 + 1} {period.start.year}"


def revenue_sql(period: Period, reading: RevenueReading, channel: str | None = None) -> str:
    """Revenue under ``reading`` over the raw-table order facts of orders created in ``period``
    (of one sales channel only, for the misreading that filters one)."""
    only = f" and channel = '{channel}'" if channel else ""
    return f"""
select round(coalesce({reading.amount}, 0), 2) as net_revenue_usd
from ({order_facts_sql(reading.orders)}) as facts
where {period_filter("local_at", period.start.isoformat(), period.end.isoformat())}{only}
""".strip()


def instruction(period: Period, *, scope: str = "the online store's net revenue") -> str:
    last_day = period.end - dt.timedelta(days=1)
    return (
        f"What was {scope} in USD for orders created in "
        f"{spoken_label(period)} "
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
        period = draw(ctx)
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
                "period_label": spoken_label(period),
            },
        )


#: Every channel counts: the v2 question says so instead of "the online store's".
ALL_CHANNELS_SCOPE = (
    "the total net revenue of all orders, every sales channel included (web, app and "
    "marketplace alike: orders.channel is not a filter here),"
)
V2_VERIFIER = VerifierConfig(abs_tol=0.005, rel_tol=0.0, unit="usd")


@register_family
class RevenuePeriodV2(RevenuePeriod):
    name = "ecommerce.revenue_period-v2"
    description = (
        "Net revenue in USD of all channels for one month or quarter, every definition and the "
        "tolerance stated."
    )

    def make(self, ctx: BuildContext) -> Task:
        task = super().make(ctx)
        period = draw(ctx)
        wrong = dict(task.wrong_readings)
        wrong["web_channel_only"] = float(ctx.scalar(revenue_sql(period, CORRECT, "web")))
        text = instruction(period, scope=ALL_CHANNELS_SCOPE)
        return state_tolerance(replace(task, wrong_readings=wrong), V2_VERIFIER, instruction=text)
