"""The ecommerce project's deployment knobs: business rules each seed's company sets its own way.

``replicas.factory.deploy`` explains why (a factory fix must not be "write the kit's file
back"). Each knob edits one model's SQL and every sentence of the project that states the rule
(model YAML, the project README), so a seed's project is consistent with itself. Every
alternative keeps the project's data tests passing (``tests/test_factory_deploy.py`` builds
each one on the visible and the hidden data).
"""

from __future__ import annotations

from replicas.factory.deploy import Choice, Knob, Replace, register_knobs

__all__ = ["KNOBS"]

_ORDERS_SQL = "models/marts/fct_orders.sql"
_ORDERS_YML = "models/marts/fct_orders.yml"
_DAILY_YML = "models/marts/fct_daily_revenue.yml"
_README = "README.md"

_NET_SQL = "then round(items_subtotal_usd - items_discount_usd - refunds_usd, 2)"
_NET_MODEL_DOC = (
    "net_revenue_usd = gross_revenue_usd - items_discount_usd - refunds_usd for revenue orders,\n"
    "      else 0. Shipping and tax are not revenue."
)
_NET_COLUMN_DOC = (
    "gross_revenue_usd - items_discount_usd - refunds_usd for revenue orders, 0 for cancelled\n"
    "          orders. Return and goodwill refunds cover merchandise only, so a fully refunded order\n"
    "          nets to about 0 (a cent either way from per-line rounding)."
)
_NET_DAILY_DOC = (
    "net_revenue_usd = gross_revenue_usd - discounts_usd - refunds_usd. shipping_usd and tax_usd\n"
    "      are reported separately and are not part of revenue."
)
_NET_DAILY_COLUMN = "(gross - discounts - refunds)"
_NET_README = "* Net revenue = gross revenue − discounts − refunds. Shipping and tax are not revenue."

NET_REVENUE = Knob(
    name="net_revenue",
    model="fct_orders",
    shipped="net revenue = gross - discounts - refunds; shipping and tax are not revenue",
    choices=(
        Choice(
            "shipping charged counts as revenue",
            (
                Replace(
                    _ORDERS_SQL,
                    _NET_SQL,
                    "then round(items_subtotal_usd - items_discount_usd - refunds_usd + shipping_usd, 2)",
                ),
                Replace(
                    _ORDERS_YML,
                    _NET_MODEL_DOC,
                    "net_revenue_usd = gross_revenue_usd - items_discount_usd - refunds_usd + shipping_usd\n"
                    "      for revenue orders, else 0. Shipping charged to the customer is revenue; tax is not.",
                ),
                Replace(
                    _ORDERS_YML,
                    _NET_COLUMN_DOC,
                    "gross_revenue_usd - items_discount_usd - refunds_usd + shipping_usd for revenue orders,\n"
                    "          0 for cancelled orders. Shipping charged to the customer is revenue; return and\n"
                    "          goodwill refunds cover merchandise only, so a fully refunded order nets to about\n"
                    "          its shipping.",
                ),
                Replace(
                    _DAILY_YML,
                    _NET_DAILY_DOC,
                    "net_revenue_usd = gross_revenue_usd - discounts_usd - refunds_usd + shipping_usd\n"
                    "      (shipping charged is revenue). tax_usd is reported separately and is not revenue.",
                ),
                Replace(_DAILY_YML, _NET_DAILY_COLUMN, "(gross - discounts - refunds + shipping)"),
                Replace(
                    _README,
                    _NET_README,
                    "* Net revenue = gross revenue − discounts − refunds + shipping charged. Tax is not revenue.",
                ),
            ),
        ),
        Choice(
            "discounts are a marketing expense, not netted from revenue",
            (
                Replace(_ORDERS_SQL, _NET_SQL, "then round(items_subtotal_usd - refunds_usd, 2)"),
                Replace(
                    _ORDERS_YML,
                    _NET_MODEL_DOC,
                    "net_revenue_usd = gross_revenue_usd - refunds_usd for revenue orders, else 0:\n"
                    "      discounts are a marketing expense, not netted from revenue. Shipping and tax are not\n"
                    "      revenue.",
                ),
                Replace(
                    _ORDERS_YML,
                    _NET_COLUMN_DOC,
                    "gross_revenue_usd - refunds_usd for revenue orders, 0 for cancelled orders. Discounts\n"
                    "          are a marketing expense and are not netted from revenue.",
                ),
                Replace(
                    _DAILY_YML,
                    _NET_DAILY_DOC,
                    "net_revenue_usd = gross_revenue_usd - refunds_usd (discounts are a marketing expense,\n"
                    "      not netted). shipping_usd and tax_usd are reported separately and are not revenue.",
                ),
                Replace(_DAILY_YML, _NET_DAILY_COLUMN, "(gross - refunds; discounts not netted)"),
                Replace(
                    _README,
                    _NET_README,
                    "* Net revenue = gross revenue − refunds (discounts are a marketing expense, not netted).\n"
                    "  Shipping and tax are not revenue.",
                ),
            ),
        ),
    ),
)


def _repeat(orders: int) -> Choice:
    return Choice(
        f"a repeat customer has at least {orders} revenue orders",
        (
            Replace(
                "models/marts/dim_customers.sql",
                "coalesce(order_stats.lifetime_orders, 0) >= 2 as is_repeat_customer",
                f"coalesce(order_stats.lifetime_orders, 0) >= {orders} as is_repeat_customer",
            ),
            Replace(
                "models/marts/dim_customers.yml",
                "is_repeat_customer = lifetime_orders >= 2.",
                f"is_repeat_customer = lifetime_orders >= {orders}.",
            ),
            Replace(
                "models/marts/dim_customers.yml",
                "description: lifetime_orders >= 2.",
                f"description: lifetime_orders >= {orders}.",
            ),
        ),
    )


REPEAT_CUSTOMER = Knob(
    name="repeat_customer",
    model="dim_customers",
    shipped="a repeat customer has at least 2 revenue orders",
    choices=(_repeat(3), _repeat(4)),
)

_BOUNCE_SQL = "sessions.page_view_count = 0 and not sessions.reached_cart as is_bounce"
_BOUNCE_DOC = "is_bounce = no page_view and\n      no add_to_cart after session_start."

BOUNCE = Knob(
    name="bounce",
    model="fct_sessions",
    shipped="a bounce has no page view and no add-to-cart",
    choices=(
        Choice(
            "a bounce has at most one page view and no add-to-cart",
            (
                Replace(
                    "models/marts/fct_sessions.sql",
                    _BOUNCE_SQL,
                    "sessions.page_view_count <= 1 and not sessions.reached_cart as is_bounce",
                ),
                Replace(
                    "models/marts/fct_sessions.yml",
                    _BOUNCE_DOC,
                    "is_bounce = at most one\n      page_view and no add_to_cart after session_start.",
                ),
            ),
        ),
        Choice(
            "a bounce has at most two distinct events",
            (
                Replace(
                    "models/marts/fct_sessions.sql",
                    _BOUNCE_SQL,
                    "sessions.event_count <= 2 as is_bounce",
                ),
                Replace(
                    "models/marts/fct_sessions.yml",
                    _BOUNCE_DOC,
                    "is_bounce = the session has\n      at most two distinct (deduplicated) events, "
                    "session_start included.",
                ),
            ),
        ),
    ),
)


def _mismatch(threshold: str, words: str) -> Choice:
    return Choice(
        f"a payment mismatch is a gap of more than {words}",
        (
            Replace(
                _ORDERS_SQL,
                "abs(paid_amount - order_total) > 0.005 as has_payment_mismatch",
                f"abs(paid_amount - order_total) > {threshold} as has_payment_mismatch",
            ),
            Replace(
                _ORDERS_YML,
                "differs from order_total by more than half a cent.",
                f"differs from order_total by more than {words} (smaller gaps are rounding "
                "and card-network noise the payments team ignores).",
            ),
        ),
    )


PAYMENT_MISMATCH = Knob(
    name="payment_mismatch",
    model="fct_orders",
    shipped="a payment mismatch is a gap of more than half a cent",
    choices=(_mismatch("0.105", "10 cents"), _mismatch("1.005", "one dollar")),
)

KNOBS = (NET_REVENUE, REPEAT_CUSTOMER, BOUNCE, PAYMENT_MISMATCH)

register_knobs("ecommerce", KNOBS)
