"""The bug catalogue of ``ecommerce.dbt_fix-v1``: one bug KIND per variant, parameters per seed.

A kind (missing refunds, wrong revenue-status filter, wrong date truncation, wrong join key,
fan-out double counting) expands into concrete candidate bugs: which file and mart it breaks and
which status / grain / key / fan-out table it uses. The family draws one candidate from
``ctx.rng``, so the broken file and its fix differ between seeds instead of being a fixed
catalogue an agent could memorise. Every candidate is a textual patch of one pristine model
(matched with flexible whitespace, exactly once) plus an honest symptom that names what is
wrong in the graded mart without saying where the fix goes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MARTS = "models/marts"
REVENUE_STATUSES = ("placed", "shipped", "completed", "returned")
NON_REVENUE_STATUSES = ("cancelled",)

#: graded mart → its key columns (the grain grading compares on).
MART_KEYS: dict[str, tuple[str, ...]] = {
    "fct_orders": ("order_id",),
    "fct_order_items": ("order_item_id",),
    "fct_daily_revenue": ("revenue_date",),
    "dim_customers": ("customer_id",),
    "fct_customer_cohorts": ("cohort_month", "months_since_first_order"),
}


@dataclass(frozen=True)
class Bug:
    """One concrete bug: patch ``path`` (``find`` → ``replace``), graded by rebuilding ``model``."""

    kind: str
    name: str
    path: str
    find: str
    replace: str
    model: str
    symptom: str

    def __post_init__(self) -> None:
        if self.model not in MART_KEYS:
            raise ValueError(f"{self.name}: graded model {self.model!r} has no known keys")
        if not self.path.startswith("models/") or not self.path.endswith(".sql"):
            raise ValueError(f"{self.name}: path must be a model file, got {self.path!r}")
        if " ".join(self.find.split()) == " ".join(self.replace.split()):
            raise ValueError(f"{self.name}: the patch changes nothing")

    @property
    def patched_model(self) -> str:
        return self.path.rsplit("/", 1)[1].removesuffix(".sql")

    @property
    def key_columns(self) -> tuple[str, ...]:
        return MART_KEYS[self.model]


def mart(name: str) -> str:
    return f"{MARTS}/{name}.sql"


def flexible(snippet: str) -> re.Pattern[str]:
    """``snippet`` as a regex that tolerates any whitespace between its tokens."""
    return re.compile(r"\s+".join(re.escape(t) for t in snippet.split()))


# --------------------------------------------------------------------------------------------
# kind 0: refunds not (correctly) deducted

_NET_FCT = "round(items_subtotal_usd - items_discount_usd - refunds_usd, 2)"
_NET_DAILY = "round(sum(net_revenue_usd), 2) as net_revenue_usd"
_NET_DIM = "round(sum(net_revenue_usd), 2) as lifetime_net_revenue_usd"
_GROSS_MINUS_DISCOUNT = (
    "sum(gross_revenue_usd) - sum(case when is_revenue_order then items_discount_usd else 0 end)"
)


def refund_bugs() -> list[Bug]:
    too_high = "too high for {what} with refunded orders"
    out = [
        Bug(
            "refunds",
            "fct_orders_refunds_dropped",
            mart("fct_orders"),
            _NET_FCT,
            "round(items_subtotal_usd - items_discount_usd, 2)",
            "fct_orders",
            "Finance reports that net_revenue_usd in fct_orders is too high for orders that were "
            "refunded.",
        ),
        Bug(
            "refunds",
            "fct_orders_refunds_added",
            mart("fct_orders"),
            _NET_FCT,
            "round(items_subtotal_usd - items_discount_usd + refunds_usd, 2)",
            "fct_orders",
            "Finance reports that net_revenue_usd in fct_orders is too high for orders that were "
            "refunded, even above their gross revenue minus discounts.",
        ),
        Bug(
            "refunds",
            "fct_orders_refunds_local_currency",
            mart("fct_orders"),
            "coalesce(refunds.refund_amount_usd, 0) as refunds_usd",
            "coalesce(refunds.refund_amount, 0) as refunds_usd",
            "fct_orders",
            "Finance reports that refunds_usd and net_revenue_usd in fct_orders are wrong for "
            "refunded orders placed in a currency other than USD (USD orders look fine).",
        ),
    ]
    for sign, label in (("", "dropped"), (" + sum(refunds_usd)", "added")):
        out.append(
            Bug(
                "refunds",
                f"daily_refunds_{label}",
                mart("fct_daily_revenue"),
                _NET_DAILY,
                f"round(sum(gross_revenue_usd) - sum(items_discount_usd){sign}, 2) "
                "as net_revenue_usd",
                "fct_daily_revenue",
                "Finance reports that net_revenue_usd in fct_daily_revenue is "
                + too_high.format(what="days")
                + ": it no longer reconciles with gross - discounts - refunds of that day.",
            )
        )
        out.append(
            Bug(
                "refunds",
                f"customer_refunds_{label}",
                mart("dim_customers"),
                _NET_DIM,
                f"round({_GROSS_MINUS_DISCOUNT}{sign}, 2) as lifetime_net_revenue_usd",
                "dim_customers",
                "Customer success says lifetime_net_revenue_usd in dim_customers is "
                + too_high.format(what="customers")
                + ".",
            )
        )
    return out


# --------------------------------------------------------------------------------------------
# kind 1: the revenue-status rule applied with one status wrongly dropped or added


def _status_sets() -> list[tuple[str, tuple[str, ...], str]]:
    """(label, wrong status set, symptom fragment) for each single-status mistake."""
    out = []
    for status in REVENUE_STATUSES:
        wrong = tuple(s for s in REVENUE_STATUSES if s != status)
        out.append((f"drops_{status}", wrong, f"orders with status '{status}' are left out"))
    for status in NON_REVENUE_STATUSES:
        wrong = (*REVENUE_STATUSES, status)
        out.append((f"adds_{status}", wrong, f"orders with status '{status}' are counted"))
    return out


def _in_list(statuses: tuple[str, ...]) -> str:
    return "(" + ", ".join(f"'{s}'" for s in statuses) + ")"


def status_bugs() -> list[Bug]:
    # (mart, pristine snippet, replacement template, what the symptom is about)
    places = (
        (
            "fct_orders",
            "orders.is_revenue_order,",
            "orders.order_status in {statuses} as is_revenue_order,",
            "is_revenue_order (and so gross/net revenue) in fct_orders",
        ),
        (
            "fct_order_items",
            "orders.is_revenue_order,",
            "orders.order_status in {statuses} as is_revenue_order,",
            "is_revenue_order in fct_order_items",
        ),
        (
            "fct_daily_revenue",
            "where is_revenue_order",
            "where order_status in {statuses}",
            "the daily order counts and revenue of fct_daily_revenue",
        ),
        (
            "dim_customers",
            "count(*) filter (where is_revenue_order) as lifetime_orders",
            "count(*) filter (where order_status in {statuses}) as lifetime_orders",
            "lifetime_orders (and is_repeat_customer) in dim_customers",
        ),
        (
            "fct_customer_cohorts",
            "where is_revenue_order",
            "where order_status in {statuses}",
            "the cohorts of fct_customer_cohorts",
        ),
    )
    out = []
    for model, find, template, about in places:
        for label, statuses, fragment in _status_sets():
            out.append(
                Bug(
                    "status_filter",
                    f"{model}_{label}",
                    mart(model),
                    find,
                    template.format(statuses=_in_list(statuses)),
                    model,
                    f"Finance says {about} do not follow the documented revenue-status rule: "
                    f"{fragment} wrongly.",
                )
            )
    return out


# --------------------------------------------------------------------------------------------
# kind 2: a date truncated to the wrong grain

WRONG_GRAINS = {"month": ("week", "quarter", "year"), "quarter": ("week", "month", "year")}


def date_trunc_bugs() -> list[Bug]:
    places = (
        (
            "dim_customers",
            mart("dim_customers"),
            "month",
            "cast(date_trunc('{g}', order_stats.first_order_at) as date) as first_order_month",
            "first_order_month in dim_customers is not the customer's first-order month for many "
            "customers",
        ),
        (
            "fct_customer_cohorts",
            mart("fct_customer_cohorts"),
            "month",
            "cast(date_trunc('{g}', min(order_date)) as date) as cohort_month",
            "the cohort_month values of fct_customer_cohorts do not match the months of the "
            "customers' first orders, and the cohort sizes are off",
        ),
        (
            "fct_customer_cohorts",
            mart("fct_customer_cohorts"),
            "month",
            "cast(date_trunc('{g}', revenue_orders.order_date) as date)",
            "months_since_first_order in fct_customer_cohorts is wrong: customers' activity "
            "lands in the wrong month offsets",
        ),
        (
            "fct_orders",
            "models/intermediate/int_order_refunds.sql",
            "quarter",
            "bool_or(date_trunc('{g}', refunded_at) > date_trunc('{g}', order_date))",
            "has_refund_after_order_quarter in fct_orders flags the wrong orders (compare it "
            "with the refund and order dates)",
        ),
    )
    out = []
    for i, (model, path, right, template, symptom) in enumerate(places):
        for grain in WRONG_GRAINS[right]:
            out.append(
                Bug(
                    "date_trunc",
                    f"{model}_{i}_{grain}",
                    path,
                    template.format(g=right),
                    template.format(g=grain),
                    model,
                    f"Analysts report that {symptom}.",
                )
            )
    return out


# --------------------------------------------------------------------------------------------
# kind 3: a join on the wrong key


def join_key_bugs() -> list[Bug]:
    return [
        Bug(
            "join_key",
            "fct_orders_payments_key",
            mart("fct_orders"),
            "left join payments on orders.order_id = payments.order_id",
            "left join payments on orders.customer_id = payments.order_id",
            "fct_orders",
            "Finance reports that paid_amount in fct_orders is wrong (zero for most orders) and "
            "almost every revenue order is flagged has_payment_mismatch.",
        ),
        Bug(
            "join_key",
            "fct_orders_refunds_key",
            mart("fct_orders"),
            "left join refunds on orders.order_id = refunds.order_id",
            "left join refunds on orders.customer_id = refunds.order_id",
            "fct_orders",
            "Finance reports that refunds_usd and refund_count in fct_orders do not match the "
            "refunds actually issued for each order.",
        ),
        Bug(
            "join_key",
            "refund_fx_date_key",
            "models/intermediate/int_order_refunds.sql",
            "on fx_rates.rate_date = orders.order_date",
            "on fx_rates.rate_date = cast(refunds.refunded_at as date)",
            "fct_orders",
            "Finance reports that refunds_usd in fct_orders is off for refunded orders in "
            "currencies other than USD: the USD amounts do not follow the documented conversion.",
        ),
        Bug(
            "join_key",
            "items_fx_currency_key",
            "models/intermediate/int_order_items_usd.sql",
            "on fx_rates.rate_date = orders.order_date\n        and fx_rates.currency_code = "
            "orders.currency_code",
            "on fx_rates.rate_date = orders.order_date",
            "fct_order_items",
            "Analysts report that fct_order_items has several rows per order_item_id, with "
            "different USD amounts.",
        ),
        Bug(
            "join_key",
            "refund_fx_currency_key",
            "models/intermediate/int_order_refunds.sql",
            "on fx_rates.rate_date = orders.order_date\n        and fx_rates.currency_code = "
            "orders.currency_code",
            "on fx_rates.rate_date = orders.order_date",
            "fct_orders",
            "Finance reports that refunds_usd and refund_count in fct_orders are several times "
            "too high for every refunded order.",
        ),
        Bug(
            "join_key",
            "items_orders_key",
            "models/intermediate/int_order_items_usd.sql",
            "inner join orders on order_items.order_id = orders.order_id",
            "inner join orders on order_items.order_item_id = orders.order_id",
            "fct_order_items",
            "Analysts report that fct_order_items has lost (almost) all of its rows although "
            "the order lines exist in the source.",
        ),
        Bug(
            "join_key",
            "fct_order_items_orders_key",
            mart("fct_order_items"),
            "inner join orders on order_items.order_id = orders.order_id",
            "inner join orders on order_items.order_item_id = orders.order_id",
            "fct_order_items",
            "Analysts report that fct_order_items has lost (almost) all of its rows although "
            "the order lines exist in the source.",
        ),
    ]


# --------------------------------------------------------------------------------------------
# kind 4: a one-to-many join that counts orders more than once

FAN_TABLES = ("stg_payments", "stg_order_items", "stg_web_events")


def fan_out_bugs() -> list[Bug]:
    places = (
        (
            "fct_daily_revenue",
            "select * from {{ ref('fct_orders') }}\n    where is_revenue_order",
            "select o.* from {{{{ ref('fct_orders') }}}} as o\n"
            "    left join {{{{ ref('{t}') }}}} as fan on fan.order_id = o.order_id\n"
            "    where o.is_revenue_order",
            "the order counts and revenue of fct_daily_revenue are inflated on many days",
        ),
        (
            "dim_customers",
            "orders as (\n\n    select * from {{ ref('fct_orders') }}\n\n)",
            "orders as (\n\n    select o.* from {{{{ ref('fct_orders') }}}} as o\n"
            "    left join {{{{ ref('{t}') }}}} as fan on fan.order_id = o.order_id\n\n)",
            "orders_placed, lifetime_orders and lifetime revenue in dim_customers are inflated "
            "for many customers",
        ),
        (
            "fct_customer_cohorts",
            "select customer_id, order_date, net_revenue_usd\n"
            "    from {{ ref('fct_orders') }}\n    where is_revenue_order",
            "select o.customer_id, o.order_date, o.net_revenue_usd\n"
            "    from {{{{ ref('fct_orders') }}}} as o\n"
            "    left join {{{{ ref('{t}') }}}} as fan on fan.order_id = o.order_id\n"
            "    where o.is_revenue_order",
            "the orders and net_revenue_usd of fct_customer_cohorts are inflated",
        ),
        (
            "fct_order_items",
            "select order_id, customer_id, order_status, channel, is_revenue_order\n"
            "    from {{ ref('fct_orders') }}",
            "select o.order_id, o.customer_id, o.order_status, o.channel, o.is_revenue_order\n"
            "    from {{{{ ref('fct_orders') }}}} as o\n"
            "    left join {{{{ ref('{t}') }}}} as fan on fan.order_id = o.order_id",
            "fct_order_items has duplicated order_item_id rows for some orders",
        ),
    )
    out = []
    for model, find, template, symptom in places:
        for table in FAN_TABLES:
            out.append(
                Bug(
                    "fan_out",
                    f"{model}_fan_{table}",
                    mart(model),
                    find,
                    template.format(t=table),
                    model,
                    f"Analysts report that {symptom}: some orders seem to be counted more than "
                    "once.",
                )
            )
    return out


#: variant → (kind, candidate bugs); the family draws one candidate per seed.
KINDS: tuple[tuple[str, tuple[Bug, ...]], ...] = (
    ("refunds", tuple(refund_bugs())),
    ("status_filter", tuple(status_bugs())),
    ("date_trunc", tuple(date_trunc_bugs())),
    ("join_key", tuple(join_key_bugs())),
    ("fan_out", tuple(fan_out_bugs())),
)
