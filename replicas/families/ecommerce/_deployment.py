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
_NET_README = (
    "* Net revenue = gross revenue − discounts − refunds. Shipping and tax are not revenue."
)

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
                    "          0 for non-revenue orders. Shipping charged to the customer is revenue; return and\n"
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
                    _ORDERS_YML,
                    "shipping_amount in USD at the order-date rate, rounded to cents; not revenue.",
                    "shipping_amount in USD at the order-date rate, rounded to cents; revenue (part "
                    "of net_revenue_usd).",
                ),
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
                    "gross_revenue_usd - refunds_usd for revenue orders, 0 for non-revenue orders. Discounts\n"
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
    choices=(_mismatch("5.005", "five dollars"), _mismatch("10.005", "ten dollars")),
)


def _statuses(
    label: str,
    statuses: tuple[str, ...],
    listed: str,
    listed_or: str,
    cohorts: str,
    why: str,
) -> Choice:
    """Revenue orders are those with a status in ``statuses`` (a dbt var: int_orders reads it,
    so writing int_orders.sql back does not undo it). ``listed``/``listed_or``: the list in
    words ("a, b, c" / "a, b or c"); ``cohorts``: fct_customer_cohorts' wrapped "a, b or\n c"."""
    quoted = ", ".join(f'"{s}"' for s in statuses)
    return Choice(
        label,
        (
            Replace(
                "dbt_project.yml",
                "  # Order statuses that count as revenue (everything except 'cancelled').\n"
                '  revenue_statuses: ["placed", "shipped", "completed", "returned"]',
                f"  # Order statuses that count as revenue ({why}).\n"
                f"  revenue_statuses: [{quoted}]",
                model="int_orders",
                compiled_old="('placed','shipped','completed','returned')",
                compiled_new="(" + ",".join(f"'{s}'" for s in statuses) + ")",
            ),
            Replace(
                "models/intermediate/int_orders.yml",
                "(placed, shipped, completed, returned — not cancelled).",
                f"({listed} — {why}).",
            ),
            Replace(
                "models/marts/dim_customers.yml",
                "(status placed, shipped, completed, returned):",
                f"(status {listed}):",
            ),
            Replace(
                "models/marts/fct_customer_cohorts.yml",
                "(status placed, shipped, completed or\n      returned;",
                f"(status {cohorts};",
            ),
            Replace(
                _DAILY_YML,
                "(status placed, shipped, completed or returned; cancelled excluded)",
                f"(status {listed_or}; {why})",
            ),
            Replace(
                _ORDERS_YML,
                "have status placed, shipped, completed or returned;\n"
                "      cancelled orders are never revenue.",
                f"have status {listed_or}\n      ({why}).",
            ),
            Replace(
                _ORDERS_YML,
                "description: status in (placed, shipped, completed, returned).",
                f"description: status in ({listed}).",
            ),
            Replace(
                _README,
                "* Revenue orders: status in placed, shipped, completed, returned (cancelled never counts);",
                f"* Revenue orders: status in {listed} ({why});",
            ),
            Replace(
                _ORDERS_YML,
                "description: items_subtotal_usd for revenue orders, 0 for cancelled orders.",
                "description: items_subtotal_usd for revenue orders, 0 for every other order.",
            ),
            Replace(
                "models/marts/dim_customers.yml",
                "over the customer's orders (cancelled orders count 0)",
                "over the customer's orders (non-revenue orders count 0)",
            ),
        ),
    )


REVENUE_STATUSES = Knob(
    name="revenue_statuses",
    model="int_orders",
    shipped="revenue orders have status placed, shipped, completed or returned",
    choices=(
        _statuses(
            "an order is revenue once shipped",
            ("shipped", "completed", "returned"),
            "shipped, completed, returned",
            "shipped, completed or returned",
            "shipped, completed or\n      returned",
            "an order counts once shipped: placed and cancelled orders are not revenue",
        ),
        _statuses(
            "returned orders are not revenue",
            ("placed", "shipped", "completed"),
            "placed, shipped, completed",
            "placed, shipped or completed",
            "placed, shipped or\n      completed",
            "returned and cancelled orders are not revenue",
        ),
    ),
)


_ITEMS_SQL = "models/marts/fct_order_items.sql"
_PRODUCTS_YML = "models/marts/dim_products.yml"


def _returned(label: str, flag: str, column_doc: str, lines_doc: str) -> Choice:
    return Choice(
        label,
        (
            Replace(
                _ITEMS_SQL,
                "    select order_id, customer_id, order_status, channel, is_revenue_order\n",
                "    select order_id, customer_id, order_status, channel, is_revenue_order, refund_count\n",
            ),
            Replace(
                _ITEMS_SQL,
                "orders.order_status = 'returned' as is_returned_order",
                f"{flag} as is_returned_order",
            ),
            Replace(
                "models/marts/fct_order_items.yml",
                "description: The line's order has status returned.",
                f"description: {column_doc}",
            ),
            Replace(
                _PRODUCTS_YML,
                "returned_order_lines counts those\n      lines whose order has status returned;",
                f"returned_order_lines counts those\n      lines {lines_doc};",
            ),
        ),
    )


RETURNED_LINE = Knob(
    name="returned_line",
    model="fct_order_items",
    shipped="a line is returned when its order has status returned",
    choices=(
        _returned(
            "a line is returned when its order was returned or refunded",
            "orders.order_status = 'returned' or orders.refund_count > 0",
            "The line's order has status returned or at least one refund (fct_orders.refund_count > 0).",
            "whose order has status returned or at least one refund",
        ),
        _returned(
            "a line is returned when its order was refunded",
            "orders.refund_count > 0",
            "The line's order has at least one refund (fct_orders.refund_count > 0), whatever its status.",
            "whose order has at least one refund, whatever its status",
        ),
    ),
)


def _return_rate(label: str, aggregate: str, rate: str, words: str) -> Choice:
    """return_rate over another unit than order lines (still a fraction in [0, 1], so the
    project's range test holds)."""
    return Choice(
        label,
        (
            Replace(
                "models/marts/dim_products.sql",
                "count(*) filter (where is_returned_order) as returned_order_lines\n",
                "count(*) filter (where is_returned_order) as returned_order_lines,\n"
                f"        {aggregate}\n",
            ),
            Replace(
                "models/marts/dim_products.sql",
                "round(sales.returned_order_lines / sales.order_lines, 4) as return_rate",
                f"round({rate}, 4) as return_rate",
            ),
            Replace(
                _PRODUCTS_YML,
                "return_rate = returned_order_lines / order_lines\n",
                f"return_rate = {words}\n",
            ),
            Replace(
                _PRODUCTS_YML,
                "description: returned_order_lines / order_lines, rounded to 4 decimals;",
                f"description: {words}, rounded to 4 decimals;",
            ),
        ),
    )


RETURN_RATE = Knob(
    name="return_rate",
    model="dim_products",
    shipped="return_rate = returned order lines / order lines",
    choices=(
        _return_rate(
            "return_rate is the share of gross sales on returned lines",
            "sum(line_amount_usd) filter (where is_returned_order) as returned_gross_usd",
            "coalesce(sales.returned_gross_usd, 0) / nullif(sales.gross_revenue_usd, 0)",
            "the share of gross_revenue_usd (USD) that is on returned lines",
        ),
        _return_rate(
            "return_rate is the share of units sold that were returned",
            "sum(quantity) filter (where is_returned_order) as returned_units",
            "coalesce(sales.returned_units, 0) / sales.units_sold",
            "the share of units sold (sum of quantity) on returned lines",
        ),
    ),
)


KNOBS = (
    REVENUE_STATUSES,
    NET_REVENUE,
    REPEAT_CUSTOMER,
    BOUNCE,
    PAYMENT_MISMATCH,
    RETURNED_LINE,
    RETURN_RATE,
)

register_knobs("ecommerce", KNOBS)
