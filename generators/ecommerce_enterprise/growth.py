"""Growth: marketing campaigns, daily ad spend, attribution touchpoints, email sends, and the
"Lumen Plus" subscription programme (plans, subscriptions, lifecycle events, invoices)."""

from __future__ import annotations

import numpy as np
import polars as pl

from replicas.generators.ecommerce_enterprise._util import (
    US_PER_DAY,
    US_PER_HOUR,
    from_micros,
    nullable_time,
)
from replicas.seeding import table_rng

CAMPAIGN_CHANNELS = ("paid_search", "social", "affiliate", "email", "display")
PLATFORMS = {
    "paid_search": "google_ads",
    "social": "meta_ads",
    "affiliate": "impact",
    "email": "braze",
    "display": "dv360",
}
START_US = int(np.datetime64("2024-01-01T00:00:00", "us").astype(np.int64))
END_US = int(np.datetime64("2026-06-30T23:59:59", "us").astype(np.int64))
N_DAYS = 912
_DAYS = pl.date_range(pl.date(2024, 1, 1), pl.date(2026, 6, 30), "1d", eager=True)


def campaigns(seed: int) -> pl.DataFrame:
    rng = table_rng(seed, "ent_mkt_campaigns")
    n = 60
    channel = np.array(CAMPAIGN_CHANNELS)[rng.integers(0, len(CAMPAIGN_CHANNELS), n)]
    start_day = np.sort(rng.integers(0, N_DAYS - 30, n))
    length = rng.integers(14, 180, n)
    end_day = np.minimum(start_day + length, N_DAYS - 1)
    region = np.array(("NA", "EU", "UK", "GLOBAL"))[rng.integers(0, 4, n)]
    return pl.DataFrame(
        {
            "campaign_id": np.arange(1, n + 1, dtype=np.int64),
            "campaign_name": [
                f"{c}_{r.lower()}_{i:02d}"
                for i, (c, r) in enumerate(zip(channel, region, strict=True), 1)
            ],
            "channel": channel,
            "platform": [PLATFORMS[c] for c in channel],
            "target_region": region,
            "started_on": _DAYS.gather(start_day),
            "ended_on": _DAYS.gather(end_day),
            "budget_usd": np.round(rng.uniform(5_000, 120_000, n), 0),
            "owner_team": np.array(("growth", "brand", "crm"))[rng.integers(0, 3, n)],
        }
    )


def ad_spend(seed: int, camps: pl.DataFrame, scale: float) -> pl.DataFrame:
    """``mkt_ad_spend``: spend per campaign and day in the platform's billing currency.

    EU-targeted campaigns bill in EUR, UK in GBP; the rest in USD. A platform re-sends
    some days (restated rows with a later ``_extracted_at``; the latest extract wins).
    """
    rng = table_rng(seed, "ent_mkt_ad_spend")
    days = pl.date_range(pl.date(2024, 1, 1), pl.date(2026, 6, 30), "1d", eager=True)
    grid = (
        camps.select("campaign_id", "started_on", "ended_on", "target_region")
        .join(pl.DataFrame({"spend_date": days}), how="cross")
        .filter(
            (pl.col("spend_date") >= pl.col("started_on"))
            & (pl.col("spend_date") <= pl.col("ended_on"))
        )
    )
    n = grid.height
    level = max(scale, 0.002) * 40_000
    spend = np.round(rng.gamma(2.0, level / 2.0 / 60, n), 2)
    impressions = (spend * rng.uniform(80, 400, n)).astype(np.int64)
    clicks = (impressions * rng.uniform(0.005, 0.04, n)).astype(np.int64)
    currency = np.select(
        [grid["target_region"].to_numpy() == "EU", grid["target_region"].to_numpy() == "UK"],
        ["EUR", "GBP"],
        "USD",
    )
    extracted = (
        grid["spend_date"].cast(pl.Datetime("us")).dt.epoch("us").to_numpy() + 30 * US_PER_HOUR
    )
    out = grid.select("spend_date", "campaign_id").with_columns(
        pl.Series("spend", spend),
        pl.Series("currency_code", currency),
        pl.Series("impressions", impressions),
        pl.Series("clicks", clicks),
        from_micros(extracted).alias("_extracted_at"),
    )
    restated_mask = pl.Series(rng.random(n) < 0.02)
    restated = out.filter(restated_mask)
    restated = restated.with_columns(
        (pl.col("spend") * pl.Series(rng.uniform(0.85, 1.1, restated.height))).round(2),
        pl.col("_extracted_at") + pl.duration(days=3),
    )
    return pl.concat([out, restated]).sort("spend_date", "campaign_id", "_extracted_at")


def touchpoints(seed: int, orders: pl.DataFrame, camps: pl.DataFrame) -> pl.DataFrame:
    """``mkt_touchpoints``: ad clicks before orders (0–3 per order), some without an order."""
    rng = table_rng(seed, "ent_mkt_touchpoints")
    n_orders = orders.height
    k = rng.choice([0, 1, 2, 3], size=n_orders, p=[0.45, 0.3, 0.17, 0.08])
    idx = np.repeat(np.arange(n_orders), k)
    m = idx.size
    created = orders["created_at"].dt.epoch("us").to_numpy()[idx]
    touched = created - (rng.gamma(1.2, 3.0, m) * US_PER_DAY).astype(np.int64)
    camp = rng.integers(1, camps.height + 1, m)
    channel = camps["channel"].to_numpy()[camp - 1]
    frame = pl.DataFrame(
        {
            "customer_id": orders["customer_id"].to_numpy()[idx],
            "order_id": orders["order_id"].to_numpy()[idx],
            "campaign_id": camp,
            "channel": channel,
            "touched_at": from_micros(np.maximum(touched, START_US)),
        }
    )
    stray = max(1, m // 5)
    stray_frame = pl.DataFrame(
        {
            "customer_id": rng.choice(orders["customer_id"].to_numpy(), size=stray),
            "order_id": pl.Series([None] * stray, dtype=pl.Int64),
            "campaign_id": rng.integers(1, camps.height + 1, stray),
            "channel": camps["channel"].to_numpy()[rng.integers(0, camps.height, stray)],
            "touched_at": from_micros(rng.integers(START_US, END_US, stray)),
        }
    )
    out = pl.concat([frame, stray_frame]).sort("touched_at", "customer_id", "campaign_id")
    return out.with_columns(
        pl.int_range(1, pl.len() + 1).cast(pl.Int64).alias("touchpoint_id")
    ).select("touchpoint_id", "customer_id", "campaign_id", "channel", "touched_at", "order_id")


def email_sends(seed: int, cust: pl.DataFrame, camps: pl.DataFrame) -> pl.DataFrame:
    rng = table_rng(seed, "ent_mkt_email_sends")
    email_camps = camps.filter(pl.col("channel") == "email")
    if email_camps.height == 0:
        email_camps = camps.head(1)
    n = cust.height * 3
    c = rng.integers(0, cust.height, n)
    camp = email_camps["campaign_id"].to_numpy()[rng.integers(0, email_camps.height, n)]
    sent = rng.integers(START_US, END_US - US_PER_DAY, n)
    opened = rng.random(n) < 0.32
    clicked = opened & (rng.random(n) < 0.18)
    bounced = ~opened & (rng.random(n) < 0.03)
    open_at = sent + (rng.gamma(1.1, 5.0, n) * US_PER_HOUR).astype(np.int64)
    return pl.DataFrame(
        {
            "email_send_id": np.arange(1, n + 1, dtype=np.int64),
            "customer_id": cust["customer_id"].to_numpy()[c],
            "campaign_id": camp,
            "sent_at": from_micros(sent),
            "opened_at": nullable_time(open_at, ~opened),
            "clicked_at": nullable_time(open_at + 60_000_000, ~clicked),
            "is_bounced": bounced,
        }
    ).sort("sent_at", "email_send_id")


PLANS = (
    (1, "plus_monthly", "monthly", 9.99, False),
    (2, "plus_annual", "annual", 99.0, False),
    (3, "plus_monthly_2023", "monthly", 7.99, True),
    (4, "family_monthly", "monthly", 14.99, False),
    (5, "family_annual", "annual", 149.0, False),
)


def plans() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "plan_id": [p[0] for p in PLANS],
            "plan_code": [p[1] for p in PLANS],
            "billing_period": [p[2] for p in PLANS],
            "price_usd": [p[3] for p in PLANS],
            "is_legacy": [p[4] for p in PLANS],
        }
    )


def subscriptions(seed: int, cust: pl.DataFrame) -> pl.DataFrame:
    rng = table_rng(seed, "ent_sub_subscriptions")
    real = cust.filter(~pl.col("is_test_account"))
    take = pl.Series(rng.random(real.height) < 0.12)
    sub = real.filter(take)
    n = sub.height
    start = (
        np.maximum(sub["signup_at"].dt.epoch("us").to_numpy(), START_US - 200 * US_PER_DAY)
        + rng.integers(0, 500, n) * US_PER_DAY
    )
    start = np.minimum(start, END_US - 10 * US_PER_DAY)
    plan = rng.choice([1, 2, 3, 4, 5], size=n, p=[0.45, 0.2, 0.1, 0.15, 0.1])
    plan = np.where((plan == 3) & (start > START_US), 1, plan)
    churn = rng.random(n) < 0.45
    cancel = start + (rng.gamma(1.4, 150, n) * US_PER_DAY).astype(np.int64)
    cancelled = churn & (cancel < END_US)
    currency = sub["country_code"].replace_strict(
        {"US": "USD", "CA": "CAD", "GB": "GBP"}, default="EUR"
    )
    return pl.DataFrame(
        {
            "subscription_id": np.arange(1, n + 1, dtype=np.int64),
            "customer_id": sub["customer_id"],
            "plan_id": plan,
            "started_at": from_micros(start),
            "cancelled_at": nullable_time(cancel, ~cancelled),
            "subscription_status": np.where(cancelled, "cancelled", "active"),
            "currency_code": currency,
        }
    )


def subscription_events(seed: int, subs: pl.DataFrame) -> pl.DataFrame:
    rng = table_rng(seed, "ent_sub_subscription_events")
    starts = subs.select(
        "subscription_id",
        pl.lit("started").alias("event_type"),
        pl.col("started_at").alias("event_at"),
        pl.col("plan_id"),
    )
    cancels = subs.filter(pl.col("cancelled_at").is_not_null()).select(
        "subscription_id",
        pl.lit("cancelled").alias("event_type"),
        pl.col("cancelled_at").alias("event_at"),
        pl.col("plan_id"),
    )
    up = subs.filter(pl.Series(rng.random(subs.height) < 0.1)).select(
        "subscription_id",
        pl.lit("plan_changed").alias("event_type"),
        (pl.col("started_at") + pl.duration(days=45)).alias("event_at"),
        pl.when(pl.col("plan_id") == 1).then(4).otherwise(pl.col("plan_id")).alias("plan_id"),
    )
    ev = pl.concat([starts, cancels, up]).filter(
        pl.col("event_at") <= pl.lit(END_US).cast(pl.Datetime("us"))
    )
    ev = ev.sort("event_at", "subscription_id", "event_type")
    return ev.with_columns(pl.int_range(1, pl.len() + 1).cast(pl.Int64).alias("subscription_event_id")).select(
        "subscription_event_id", "subscription_id", "event_type", "event_at", "plan_id"
    )  # fmt: skip


def invoices(seed: int, subs: pl.DataFrame) -> pl.DataFrame:
    """``sub_invoices``: one invoice per billing period while active (monthly or annual)."""
    rng = table_rng(seed, "ent_sub_invoices")
    plan = plans()
    joined = subs.join(plan, on="plan_id", how="left")
    period_days = np.where(joined["billing_period"].to_numpy() == "annual", 365, 30)
    start = joined["started_at"].dt.epoch("us").to_numpy()
    stop = joined["cancelled_at"].dt.epoch("us").fill_null(END_US).to_numpy()
    count = np.maximum(1, (stop - start) // (period_days * US_PER_DAY) + 1)
    idx = np.repeat(np.arange(joined.height), count)
    k = np.arange(idx.size) - np.repeat(np.concatenate(([0], np.cumsum(count)[:-1])), count)
    issued = start[idx] + k * period_days[idx] * US_PER_DAY
    keep = issued <= END_US
    idx, issued = idx[keep], issued[keep]
    m = idx.size
    fx = joined["currency_code"].replace_strict(
        {"USD": 1.0, "CAD": 1.36, "GBP": 0.79}, default=0.92
    )
    amount = np.round(joined["price_usd"].to_numpy()[idx] * fx.to_numpy()[idx], 2)
    status = np.array(("paid", "void", "uncollectible"))[
        rng.choice(3, size=m, p=[0.94, 0.03, 0.03])
    ]
    return pl.DataFrame(
        {
            "invoice_id": np.arange(1, m + 1, dtype=np.int64),
            "subscription_id": joined["subscription_id"].to_numpy()[idx],
            "issued_at": from_micros(issued),
            "amount": amount,
            "currency_code": joined["currency_code"].to_numpy()[idx],
            "invoice_status": status,
        }
    ).sort("issued_at", "invoice_id")
