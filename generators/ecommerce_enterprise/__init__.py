"""The enterprise ecommerce replica's raw data: Lumen Market at a real company's sprawl.

``generate(seed, scale)`` returns 41 raw tables from 9 source systems (table prefixes ``shop_``,
``pay_``, ``sub_``, ``mkt_``, ``web_``, ``inv_``, ``ful_``, ``sup_``, ``fin_``, ``crm_``). The
store underneath is the ``ecommerce`` replica's (same seed ⇒ same orders), extended with the
systems around it and the mess those systems have:

* duplicate customer identities: ~6 % of customers (loyal ones likelier) hold a second account,
  with the same email in other case or with a leading space, or with another address; about
  half of their later orders sit on the second account; ``crm_identity_merges`` confirms ~70 %;
* local-time columns beside UTC (``created_at_local``, ``event_at_local``, ``signup_at_local``);
* late-arriving rows: ``_loaded_at`` lags the event by minutes, for a few percent by 2–10 days
  (order status events, shipment events, web events, order items);
* business-day-only FX (``fin_fx_rates`` has no weekend or holiday rows: the as-of join matters);
* a ~150-column order table with deprecated (``revenue_old``) and custom-attribute columns;
  amounts in integer cents (``pay_payments``); restated ad-spend rows (latest extract wins);
  product catalogue history (CDC versions: price and category changes) for SCD2.

Same seed and scale ⇒ identical data; all randomness from ``replicas.seeding.table_rng``.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from replicas.generators.ecommerce import generate as generate_store
from replicas.generators.ecommerce_enterprise import core, finance, growth, ops
from replicas.generators.ecommerce_enterprise._util import US_PER_DAY, from_micros
from replicas.seeding import table_rng

MAX_SCALE = 5.0
DESCRIPTION = (
    "Enterprise online store: 41 raw tables from shop, payments, subscriptions, marketing, web, "
    "inventory, fulfilment, support, finance and CRM systems, with duplicate identities, "
    "late-arriving rows, business-day FX and wide connector tables."
)
TABLES: tuple[str, ...] = (
    "shop_countries", "shop_customers", "shop_customer_addresses", "shop_products", "shop_product_history",
    "shop_categories", "shop_promotions", "shop_orders", "shop_order_items",
    "shop_order_status_events", "pay_payments", "pay_refunds", "pay_chargebacks", "pay_payouts",
    "sub_plans", "sub_subscriptions", "sub_subscription_events", "sub_invoices",
    "mkt_campaigns", "mkt_ad_spend", "mkt_touchpoints", "mkt_email_sends", "web_events",
    "inv_warehouses", "inv_suppliers", "inv_stock_snapshots", "inv_purchase_orders",
    "ful_carriers", "ful_shipments", "ful_shipment_events", "sup_agents", "sup_tickets",
    "sup_ticket_events", "sup_csat", "fin_gl_accounts", "fin_cost_centers", "fin_gl_entries",
    "fin_fx_rates", "fin_budgets", "crm_contacts", "crm_identity_merges",
)  # fmt: skip

DEPARTMENTS = {
    "apparel": "fashion",
    "footwear": "fashion",
    "beauty": "fashion",
    "electronics": "hardlines",
    "home_kitchen": "hardlines",
    "sports_outdoors": "hardlines",
    "toys_games": "hardlines",
    "books": "media",
    "grocery": "consumables",
    "pet_supplies": "consumables",
}


_REGION = {"US": "NA", "CA": "NA", "GB": "UK"}
_COUNTRY_NAMES = {
    "US": "United States", "CA": "Canada", "GB": "United Kingdom", "IE": "Ireland",
    "DE": "Germany", "FR": "France", "NL": "Netherlands", "ES": "Spain", "IT": "Italy",
    "BE": "Belgium", "AT": "Austria",
}  # fmt: skip


def _countries() -> pl.DataFrame:
    """``shop_countries``: the storefront's country table with the sales region it reports in."""
    codes = list(_COUNTRY_NAMES)
    return pl.DataFrame(
        {
            "country_code": codes,
            "country_name": [_COUNTRY_NAMES[c] for c in codes],
            "sales_region": [_REGION.get(c, "EU") for c in codes],
            "is_eu": [c not in _REGION for c in codes],
            "currency_code": [{"US": "USD", "CA": "CAD", "GB": "GBP"}.get(c, "EUR") for c in codes],
        }
    )


def _addresses(seed: int, cust: pl.DataFrame) -> pl.DataFrame:
    rng = table_rng(seed, "ent_shop_customer_addresses")
    n = cust.height
    two = rng.random(n) < 0.3
    idx = np.repeat(np.arange(n), np.where(two, 2, 1))
    m = idx.size
    first = np.concatenate(([True], idx[1:] != idx[:-1]))
    return pl.DataFrame(
        {
            "address_id": np.arange(1, m + 1, dtype=np.int64),
            "customer_id": cust["customer_id"].to_numpy()[idx],
            "address_type": np.where(first, "shipping", "billing"),
            "country_code": cust["country_code"].to_numpy()[idx],
            "postal_code": rng.integers(10000, 99999, m).astype(str),
            "is_default": first,
        }
    )


def _categories(products: pl.DataFrame) -> pl.DataFrame:
    names = sorted(set(products["category"].to_list()))
    return pl.DataFrame(
        {
            "category_id": np.arange(1, len(names) + 1, dtype=np.int64),
            "category_name": names,
            "department": [DEPARTMENTS.get(n, "other") for n in names],
        }
    )


def _products(seed: int, products: pl.DataFrame) -> pl.DataFrame:
    rng = table_rng(seed, "ent_shop_products")
    n = products.height
    launched = products["launched_at"].dt.epoch("us").to_numpy()
    updated = np.maximum(launched, int(np.datetime64("2024-01-01", "us").astype(np.int64))) + (
        rng.integers(0, 800, n) * US_PER_DAY
    )
    updated = np.minimum(updated, int(np.datetime64("2026-06-30", "us").astype(np.int64)))
    return products.rename({"name": "product_name"}).with_columns(
        from_micros(updated).alias("updated_at"),
        pl.Series("weight_grams", rng.integers(50, 5000, n)),
    )


def _payouts(pay: pl.DataFrame) -> pl.DataFrame:
    ok = pay.filter(pl.col("payment_status") == "success")
    daily = (
        ok.with_columns(pl.col("paid_at").dt.date().alias("payout_date"))
        .group_by("payout_date", "processor", "currency_code")
        .agg(
            pl.col("amount_cents").sum().alias("gross_cents"),
            (pl.col("amount_cents").sum() * 0.029 + pl.len() * 30)
            .round(0)
            .cast(pl.Int64)
            .alias("fee_cents"),
        )
        .sort("payout_date", "processor", "currency_code")
    )
    return daily.with_columns(
        pl.int_range(1, pl.len() + 1).cast(pl.Int64).alias("payout_id"),
        (pl.col("gross_cents") - pl.col("fee_cents")).alias("net_cents"),
    ).select(
        "payout_id",
        "payout_date",
        "processor",
        "currency_code",
        "gross_cents",
        "fee_cents",
        "net_cents",
    )


def _merges(seed: int, dup_map: pl.DataFrame) -> pl.DataFrame:
    rng = table_rng(seed, "ent_crm_identity_merges")
    keep = pl.Series(rng.random(dup_map.height) < 0.7)
    sub = dup_map.filter(keep)
    merged = sub["duplicate_signup_us"].to_numpy() + rng.integers(5, 120, sub.height) * US_PER_DAY
    return pl.DataFrame(
        {
            "merge_id": np.arange(1, sub.height + 1, dtype=np.int64),
            "surviving_customer_id": sub["original_id"],
            "merged_customer_id": sub["duplicate_id"],
            "merged_at": from_micros(
                np.minimum(merged, int(np.datetime64("2026-06-30", "us").astype(np.int64)))
            ),
        }
    )


def _validate(seed: int, scale: float) -> float:
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if isinstance(scale, bool) or not isinstance(scale, (int, float)):
        raise ValueError(f"scale must be a number, got {scale!r}")
    scale = float(scale)
    if not np.isfinite(scale) or not 0 < scale <= MAX_SCALE:
        raise ValueError(f"scale must lie in (0, {MAX_SCALE:g}], got {scale!r}")
    return scale


def generate(seed: int, scale: float = 0.01) -> dict[str, pl.DataFrame]:
    """All raw tables for ``(seed, scale)``, keyed by name in load order (``TABLES``)."""
    scale = _validate(seed, scale)
    store = generate_store(seed, scale)
    cust, dup_map = core.customers(seed, store["customers"], store["orders"])
    orders = core.reassign_orders(seed, store["orders"], dup_map)
    items = store["order_items"]
    pay = core.payments(seed, store["payments"])
    camps = growth.campaigns(seed)
    subs = growth.subscriptions(seed, cust)
    wh = ops.warehouses()
    ship = ops.shipments(seed, orders, cust)
    sup = ops.suppliers(seed, store["products"]["brand"].n_unique())
    tk = ops.tickets(seed, orders)
    tables: dict[str, pl.DataFrame] = {
        "shop_countries": _countries(),
        "shop_customers": cust,
        "shop_customer_addresses": _addresses(seed, cust),
        "shop_products": _products(seed, store["products"]),
        "shop_product_history": core.product_history(seed, store["products"]),
        "shop_categories": _categories(store["products"]),
        "shop_promotions": store["promotions"],
        "shop_orders": core.orders_wide(seed, orders, items, cust),
        "shop_order_items": core.order_items(seed, items, orders),
        "shop_order_status_events": core.status_events(seed, orders),
        "pay_payments": pay,
        "pay_refunds": core.refunds(seed, store["refunds"]),
        "pay_chargebacks": core.chargebacks(seed, store["payments"]),
        "pay_payouts": _payouts(pay),
        "sub_plans": growth.plans(),
        "sub_subscriptions": subs,
        "sub_subscription_events": growth.subscription_events(seed, subs),
        "sub_invoices": growth.invoices(seed, subs),
        "mkt_campaigns": camps,
        "mkt_ad_spend": growth.ad_spend(seed, camps, scale),
        "mkt_touchpoints": growth.touchpoints(seed, orders, camps),
        "mkt_email_sends": growth.email_sends(seed, cust, camps),
        "web_events": core.web_events(seed, store["web_events"]),
        "inv_warehouses": wh,
        "inv_suppliers": sup,
        "inv_stock_snapshots": ops.stock_snapshots(seed, store["products"]),
        "inv_purchase_orders": ops.purchase_orders(seed, store["products"], sup.height),
        "ful_carriers": ops.carriers(),
        "ful_shipments": ship,
        "ful_shipment_events": ops.shipment_events(seed, ship, wh),
        "sup_agents": ops.support_agents(seed),
        "sup_tickets": tk,
        "sup_ticket_events": ops.ticket_events(seed, tk),
        "sup_csat": ops.csat(seed, tk),
        "fin_gl_accounts": finance.gl_accounts(),
        "fin_cost_centers": finance.cost_centers(),
        "fin_gl_entries": finance.gl_entries(seed, orders, items, store["refunds"], cust),
        "fin_fx_rates": finance.fx_business_days(store["fx_rates"]),
        "fin_budgets": finance.budgets(seed, scale),
        "crm_contacts": finance.crm_contacts(seed, cust),
        "crm_identity_merges": _merges(seed, dup_map),
    }
    return {name: tables[name] for name in TABLES}
