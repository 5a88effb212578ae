"""Ground-truth SQL shared by the ecommerce question families: orders and lines in USD.

Every revenue question of the ecommerce families is an aggregate over one of two relations,
built here from the RAW tables only (never from the marts a task may be about):

* ``order_facts_sql(reading)`` — one row per counted order with its USD amounts;
* ``line_facts_sql(reading)`` — one row per counted order line with its USD amounts.

A :class:`Reading` says how the data is read. ``Reading()`` is the official definition the
instructions state (see :data:`OFFICIAL_DEFINITIONS`); every other reading is a plausible
mistake (cancelled orders counted, test accounts kept, no FX conversion, wrong time zone …)
whose answer a family records as a wrong reading. Keeping the right answer and its mistakes in
ONE parameterised query guarantees they differ only in the one definition named.

Conventions (mirroring the dbt project's, so an agent who uses the marts gets the same cents):
amounts convert at ``raw.fx_rates.rate_to_usd`` of the order's UTC created date; each line /
discount / refund / charge is rounded to cents in its currency and again after conversion,
then summed.

Every USD (and order-currency) amount of the facts is therefore a whole number of cents, held in
a DOUBLE: a sum of DOUBLEs carries float noise whose last bits depend on the order DuckDB adds
the rows in (its parallel aggregation combines per-thread partial sums in scheduling order, and
the thread count is the machine's core count). Rounded to cents a total never notices, but a
mean can sit exactly on half a cent (29360.43 / 282 orders = 104.115) and then rounds either
way from one build to the next. So the families aggregate amounts with :func:`usd_sum` /
:func:`usd_mean`: exact DECIMAL cents, a function of the rows and never of their order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

REVENUE_STATUSES: tuple[str, ...] = ("placed", "shipped", "completed", "returned")
ALL_STATUSES: tuple[str, ...] = (*REVENUE_STATUSES, "cancelled")
UTC = "UTC"
#: Time zones a task may state periods in (DuckDB ICU names; ICU is built in, works offline).
ZONES: tuple[str, ...] = ("UTC", "America/New_York", "America/Los_Angeles", "Europe/London")
_ZONE_RE = re.compile(r"^[A-Za-z_]+(?:/[A-Za-z_]+)?$")

#: The definition block every revenue instruction repeats (the agent needs nothing else).
OFFICIAL_DEFINITIONS = (
    "- Count only orders with status placed, shipped, completed or returned (cancelled orders "
    "never count).\n"
    "- Exclude every order of internal test accounts (raw.customers.is_test_account = true).\n"
    "- Convert every amount to USD with raw.fx_rates.rate_to_usd of the order's created date "
    "(UTC calendar date of orders.created_at), refunds included; round each line, discount, "
    "refund or charge to cents after conversion, then sum.\n"
    "- Gross revenue = sum of quantity * unit_price of the order lines. Discounts = sum of the "
    "lines' discount_amount. Refunds = every refund recorded for the order, whatever its "
    "reason or refund date. Net revenue = gross revenue - discounts - refunds. Shipping and "
    "tax are never revenue.\n"
    "- Order lines whose order_id has no row in raw.orders are ignored."
)


@dataclass(frozen=True)
class Reading:
    """How the raw data is read; the default is the official definition."""

    include_cancelled: bool = False
    include_test_accounts: bool = False
    convert_fx: bool = True
    zone: str = UTC
    fx_at_refund_date: bool = False

    def __post_init__(self) -> None:
        if not _ZONE_RE.match(self.zone):
            raise ValueError(f"not a time-zone name: {self.zone!r}")

    def with_(self, **changes: object) -> Reading:
        return replace(self, **changes)  # type: ignore[arg-type]

    @property
    def statuses(self) -> tuple[str, ...]:
        return ALL_STATUSES if self.include_cancelled else REVENUE_STATUSES


def local_time(column: str, zone: str) -> str:
    """SQL turning a naive-UTC timestamp column into wall-clock time in ``zone``."""
    if not _ZONE_RE.match(zone):
        raise ValueError(f"not a time-zone name: {zone!r}")
    if zone == UTC:
        return column
    return f"timezone('{zone}', timezone('UTC', {column}))"


def _status_list(statuses: tuple[str, ...]) -> str:
    return ", ".join(f"'{s}'" for s in statuses)


def _rate(reading: Reading, alias: str = "fx") -> str:
    return f"{alias}.rate_to_usd" if reading.convert_fx else "1.0"


def orders_in_scope_sql(reading: Reading) -> str:
    """Counted orders with customer attributes, the FX rate and the local created time."""
    test_filter = "" if reading.include_test_accounts else "and not c.is_test_account"
    return f"""
        select
            o.order_id, o.customer_id, o.channel, o.currency, o.status, o.created_at,
            {local_time("o.created_at", reading.zone)} as local_at,
            c.country, c.is_test_account,
            round(o.shipping_amount * {_rate(reading)}, 2) as shipping_usd,
            round(o.tax_amount * {_rate(reading)}, 2) as tax_usd,
            fx.rate_to_usd as fx_rate
        from raw.orders o
        join raw.customers c on c.customer_id = o.customer_id
        join raw.fx_rates fx
            on fx.currency = o.currency and fx.date = cast(o.created_at as date)
        where o.status in ({_status_list(reading.statuses)}) {test_filter}
    """


def line_facts_sql(reading: Reading) -> str:
    """One row per order line of a counted order: product, category, units and USD amounts."""
    rate = "so.fx_rate" if reading.convert_fx else "1.0"
    return f"""
        with so as ({orders_in_scope_sql(reading)})
        select
            i.order_item_id, i.order_id, so.customer_id, so.channel, so.country, so.currency,
            so.status, so.created_at, so.local_at, i.product_id, p.category, i.quantity,
            round(round(i.quantity * i.unit_price, 2) * {rate}, 2) as gross_usd,
            round(i.discount_amount * {rate}, 2) as discount_usd,
            round(i.quantity * i.unit_price, 2) as gross_local,
            i.discount_amount as discount_local,
            so.status = 'cancelled' as is_cancelled, so.is_test_account
        from raw.order_items i
        join so on so.order_id = i.order_id
        join raw.products p on p.product_id = i.product_id
    """


def _refund_rate(reading: Reading) -> tuple[str, str]:
    """(join clause, rate expression) for converting refunds."""
    if not reading.convert_fx:
        return "", "1.0"
    if reading.fx_at_refund_date:
        join = (
            "join raw.fx_rates rfx on rfx.currency = r.currency "
            "and rfx.date = cast(r.refunded_at as date)"
        )
        return join, "rfx.rate_to_usd"
    return "", "so.fx_rate"


def order_facts_sql(reading: Reading) -> str:
    """One row per counted order: gross, discount, refund, net, shipping and tax in USD."""
    refund_join, refund_rate = _refund_rate(reading)
    return f"""
        with so as ({orders_in_scope_sql(reading)}),
        lines as (
            select order_id, sum(quantity) as units, count(*) as line_count,
                   sum(gross_usd) as gross_usd, sum(discount_usd) as discount_usd,
                   sum(gross_local) as gross_local, sum(discount_local) as discount_local
            from ({line_facts_sql(reading)}) group by order_id
        ),
        refunds as (
            select r.order_id, sum(round(r.amount * {refund_rate}, 2)) as refund_usd,
                   sum(r.amount) as refund_local
            from raw.refunds r join so on so.order_id = r.order_id {refund_join}
            group by r.order_id
        )
        select
            so.order_id, so.customer_id, so.channel, so.country, so.currency, so.status,
            so.created_at, so.local_at, so.shipping_usd, so.tax_usd,
            so.status = 'cancelled' as is_cancelled, so.is_test_account,
            coalesce(lines.units, 0) as units,
            coalesce(lines.line_count, 0) as line_count,
            coalesce(lines.gross_usd, 0) as gross_usd,
            coalesce(lines.discount_usd, 0) as discount_usd,
            coalesce(refunds.refund_usd, 0) as refund_usd,
            coalesce(lines.gross_usd, 0) - coalesce(lines.discount_usd, 0)
                - coalesce(refunds.refund_usd, 0) as net_usd,
            coalesce(lines.gross_local, 0) as gross_local,
            coalesce(lines.gross_local, 0) - coalesce(lines.discount_local, 0)
                - coalesce(refunds.refund_local, 0) as net_local
        from so
        left join lines on lines.order_id = so.order_id
        left join refunds on refunds.order_id = so.order_id
    """


#: A reading that keeps every order, so one scan can evaluate several readings with FILTER
#: clauses on ``is_cancelled`` / ``is_test_account`` and the ``*_local`` (unconverted) columns.
EVERYTHING = Reading(include_cancelled=True, include_test_accounts=True)


def reading_condition(reading: Reading) -> str:
    """SQL condition selecting, from ``EVERYTHING`` facts, the rows ``reading`` counts."""
    parts = ["true"]
    if not reading.include_cancelled:
        parts.append("not is_cancelled")
    if not reading.include_test_accounts:
        parts.append("not is_test_account")
    return " and ".join(parts)


def cents(expression: str) -> str:
    """SQL: ``expression``, an amount of whole cents held in a DOUBLE, as an exact DECIMAL.

    The cast rounds to the cent, which removes the float noise (far below half a cent) of a
    sum of cent-rounded DOUBLEs; it is only for amounts that are whole cents.
    """
    return f"cast({expression} as decimal(18, 2))"


def usd_sum(expression: str) -> str:
    """SQL aggregate: the exact sum (DECIMAL) of a whole-cents amount, whatever the row order."""
    return f"sum({cents(expression)})"


def usd_mean(expression: str) -> str:
    """SQL aggregate: the mean of a whole-cents amount, rounded to cents, from its exact sum.

    One IEEE division of the exact total by the row count, then DuckDB's ``round``: a function
    of (total, count) alone on every machine, where ``round(avg(x), 2)`` over DOUBLEs depends on
    the order the rows are added in. A mean of exactly half a cent rounds the way the quotient's
    nearest double lies (104.115 -> 104.11), as a noise-free DOUBLE average does.
    """
    return f"round(cast({usd_sum(expression)} as double) / count(*), 2)"


def period_filter(column: str, start: str, end: str) -> str:
    """``start <= column < end`` on local wall-clock timestamps (ISO dates, end exclusive)."""
    return f"{column} >= timestamp '{start}' and {column} < timestamp '{end}'"
