"""Finance: business-day FX rates (no weekend or holiday rows), the general ledger, cost
centres, monthly budgets, and the CRM's contacts (duplicate identities across systems)."""

from __future__ import annotations

import datetime as dt

import numpy as np
import polars as pl

from replicas.generators.ecommerce_enterprise._util import US_PER_DAY, US_PER_HOUR, from_micros
from replicas.seeding import table_rng

#: Treasury publishes no rate on these dates (besides weekends).
_FIXED_HOLIDAYS = tuple(
    dt.date(y, m, d)
    for y in (2024, 2025, 2026)
    for m, d in ((1, 1), (5, 1), (12, 25), (12, 26))
    # the first day of the data keeps its rate: an as-of join needs something to fall back on
    if (y, m, d) != (2024, 1, 1)
)
HOLIDAYS = (
    *_FIXED_HOLIDAYS,
    dt.date(2024, 3, 29), dt.date(2024, 4, 1), dt.date(2025, 4, 18), dt.date(2025, 4, 21),
    dt.date(2026, 4, 3), dt.date(2026, 4, 6),
)  # fmt: skip


def fx_business_days(fx: pl.DataFrame) -> pl.DataFrame:
    """``fin_fx_rates``: Treasury's rates, published on business days only.

    A weekend or holiday order must use the last published rate on or before its date (as-of);
    an exact-date join silently drops it.
    """
    return (
        fx.filter((pl.col("date").dt.weekday() <= 5) & ~pl.col("date").is_in(list(HOLIDAYS)))
        .rename({"date": "rate_date", "currency": "currency_code"})
        .with_columns(
            pl.lit("treasury").alias("rate_source"),
            (pl.lit(1.0) / pl.col("rate_to_usd")).round(6).alias("usd_to_currency"),
        )
        .sort("rate_date", "currency_code")
    )


GL_ACCOUNTS = (
    ("4000", "Product revenue", "revenue", False),
    ("4010", "Shipping revenue", "revenue", False),
    ("4050", "Subscription revenue", "revenue", False),
    ("4090", "Sales returns and refunds", "contra_revenue", False),
    ("4100", "Product revenue (legacy)", "revenue", True),
    ("5000", "Cost of goods sold", "cogs", False),
    ("5100", "Freight out", "cogs", False),
    ("6100", "Paid marketing", "opex", False),
    ("6200", "Payment processing fees", "opex", False),
    ("6300", "Support payroll", "opex", False),
    ("2200", "Sales tax payable", "liability", False),
)
COST_CENTERS = (
    (10, "NA Commerce", "NA"),
    (20, "EU Commerce", "EU"),
    (30, "UK Commerce", "UK"),
    (40, "Marketing", "GLOBAL"),
    (50, "Customer Care", "GLOBAL"),
    (60, "Corporate", "GLOBAL"),
)


def gl_accounts() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "account_code": [a[0] for a in GL_ACCOUNTS],
            "account_name": [a[1] for a in GL_ACCOUNTS],
            "account_type": [a[2] for a in GL_ACCOUNTS],
            "is_deprecated": [a[3] for a in GL_ACCOUNTS],
        }
    )


def cost_centers() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "cost_center_id": [c[0] for c in COST_CENTERS],
            "cost_center_name": [c[1] for c in COST_CENTERS],
            "region": [c[2] for c in COST_CENTERS],
        }
    )


def _region(country: pl.Expr) -> pl.Expr:
    return (
        pl.when(country.is_in(["US", "CA"]))
        .then(pl.lit(10))
        .when(country == "GB")
        .then(pl.lit(30))
        .otherwise(pl.lit(20))
    )


def gl_entries(
    seed: int, orders: pl.DataFrame, items: pl.DataFrame, refunds: pl.DataFrame, cust: pl.DataFrame
) -> pl.DataFrame:
    """``fin_gl_entries``: journal lines posted by the order-to-cash integration.

    Revenue posts on the delivery date in the order currency (sign convention: revenue credit
    is negative); refunds post to 4090 on their refund date. Before 2024-07 the integration
    posted product revenue to the legacy account 4100.
    """
    rng = table_rng(seed, "ent_fin_gl_entries")
    net_items = items.group_by("order_id").agg(
        ((pl.col("quantity") * pl.col("unit_price")) - pl.col("discount_amount"))
        .sum()
        .round(2)
        .alias("net_items")
    )
    delivered = (
        orders.filter(pl.col("delivered_at").is_not_null())
        .join(net_items, on="order_id", how="inner")
        .join(cust.select("customer_id", "country_code"), on="customer_id", how="left")
    )
    legacy_cutoff = dt.datetime(2024, 7, 1)
    rev = delivered.select(
        pl.col("delivered_at").dt.date().alias("posting_date"),
        pl.when(pl.col("delivered_at") < legacy_cutoff)
        .then(pl.lit("4100"))
        .otherwise(pl.lit("4000"))
        .alias("account_code"),
        _region(pl.col("country_code")).alias("cost_center_id"),
        (-pl.col("net_items")).alias("amount"),
        pl.col("currency").alias("currency_code"),
        pl.col("order_id"),
        pl.lit("order").alias("source_document"),
    )
    ship = delivered.select(
        pl.col("delivered_at").dt.date().alias("posting_date"),
        pl.lit("4010").alias("account_code"),
        _region(pl.col("country_code")).alias("cost_center_id"),
        (-pl.col("shipping_amount")).alias("amount"),
        pl.col("currency").alias("currency_code"),
        pl.col("order_id"),
        pl.lit("order").alias("source_document"),
    ).filter(pl.col("amount") != 0)
    ref = (
        refunds.join(orders.select("order_id", "customer_id"), on="order_id", how="inner")
        .join(cust.select("customer_id", "country_code"), on="customer_id", how="left")
        .select(
            pl.col("refunded_at").dt.date().alias("posting_date"),
            pl.lit("4090").alias("account_code"),
            _region(pl.col("country_code")).alias("cost_center_id"),
            pl.col("amount"),
            pl.col("currency").alias("currency_code"),
            pl.col("order_id"),
            pl.lit("refund").alias("source_document"),
        )
    )
    out = pl.concat([rev, ship, ref]).sort("posting_date", "order_id", "account_code")
    n = out.height
    posted = out["posting_date"].cast(pl.Datetime("us")).dt.epoch("us").to_numpy() + (
        rng.integers(18, 60, n) * US_PER_HOUR
    )
    return out.with_columns(
        pl.int_range(1, pl.len() + 1).cast(pl.Int64).alias("gl_entry_id"),
        from_micros(posted).alias("posted_at"),
    ).select(
        "gl_entry_id", "posting_date", "account_code", "cost_center_id", "amount",
        "currency_code", "source_document", "order_id", "posted_at",
    )  # fmt: skip


def budgets(seed: int, scale: float) -> pl.DataFrame:
    rng = table_rng(seed, "ent_fin_budgets")
    months = pl.date_range(pl.date(2024, 1, 1), pl.date(2026, 6, 1), "1mo", eager=True)
    regions = ["NA", "EU", "UK"]
    grid = pl.DataFrame({"budget_month": months}).join(
        pl.DataFrame({"region": regions}), how="cross"
    )
    base = {"NA": 0.55, "EU": 0.3, "UK": 0.15}
    level = np.array([base[r] for r in grid["region"].to_list()]) * 4_000_000 * scale
    growth = 1.5 ** (np.arange(grid.height) // 3 / 12)
    return grid.with_columns(
        pl.Series(
            "budget_net_revenue_usd",
            np.round(level * growth * rng.uniform(0.9, 1.1, grid.height), 0),
        ),
        pl.Series(
            "budget_marketing_usd", np.round(level * 0.12 * rng.uniform(0.8, 1.2, grid.height), 0)
        ),
    )


def crm_contacts(seed: int, cust: pl.DataFrame) -> pl.DataFrame:
    """``crm_contacts``: the CRM's view of people; linked to shop customers by email, often
    with stale names and NULL customer ids (leads that never bought)."""
    rng = table_rng(seed, "ent_crm_contacts")
    n = cust.height
    linked = rng.random(n) < 0.9
    from_shop = cust.select(
        pl.when(pl.Series(linked)).then(pl.col("customer_id")).otherwise(None).alias("customer_id"),
        pl.col("email").str.strip_chars().str.to_lowercase().alias("email"),
        (pl.col("first_name") + " " + pl.col("last_name")).alias("full_name"),
        pl.col("signup_at").alias("created_at"),
    )
    leads_n = max(5, n // 4)
    leads = pl.DataFrame(
        {
            "customer_id": pl.Series([None] * leads_n, dtype=pl.Int64),
            "email": [f"lead{i}@example.org" for i in range(leads_n)],
            "full_name": pl.Series([None] * leads_n, dtype=pl.String),
            "created_at": from_micros(
                int(np.datetime64("2024-01-01", "us").astype(np.int64))
                + rng.integers(0, 900, leads_n) * US_PER_DAY
            ),
        }
    )
    out = pl.concat([from_shop, leads])
    return out.with_columns(
        pl.int_range(1, pl.len() + 1).cast(pl.Int64).alias("contact_id"),
        pl.Series(
            "source_system",
            np.array(("shop", "webinar", "trade_show"))[
                rng.choice(3, size=out.height, p=[0.8, 0.15, 0.05])
            ],
        ),
    ).select("contact_id", "customer_id", "email", "full_name", "source_system", "created_at")
