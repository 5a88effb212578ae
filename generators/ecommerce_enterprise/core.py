"""Shop, payment and web tables: the ecommerce store's data at an enterprise's sprawl.

Built on the ecommerce replica's tables (same store, same seed) and then given the mess a
company accumulates: duplicate customer identities, local-time columns beside UTC, a load
timestamp per row with late arrivals, a deprecated ``revenue_old`` column, amounts in cents,
and a ~150-column order table carrying connector and custom-attribute columns.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from replicas.generators.ecommerce_enterprise._util import (
    COUNTRY_TZ,
    US_PER_DAY,
    US_PER_HOUR,
    from_micros,
    late_lag_us,
    local_time,
    nullable_time,
    prefixed,
    with_nulls,
)
from replicas.seeding import table_rng

DUPLICATE_IDENTITY_SHARE = 0.06
LOYALTY_TIERS = ("bronze", "silver", "gold", "platinum")
N_CUSTOM_ATTRIBUTES = 136
UTM_SOURCES = ("google", "meta", "tiktok", "newsletter", "partner", "bing", "direct")
DEVICES = ("desktop", "mobile", "tablet")


def customers(
    seed: int, base: pl.DataFrame, orders: pl.DataFrame
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(shop_customers, duplicate map) — ~6 % of real customers also hold a second account.

    Loyal customers are likelier to sign up twice: originals are drawn with probability
    proportional to their order count. The second account has a new id and a later signup;
    half of them reuse the email in other case or with a leading space (an email match finds
    them), the other half sign up with another address (only Customer Care's merges link
    those). The map (original id, duplicate id, duplicate signup µs) lets orders move over.
    """
    rng = table_rng(seed, "ent_shop_customers")
    n = base.height
    counts = orders.group_by("customer_id").len()
    real = (
        base.filter(~pl.col("is_test_account"))
        .join(counts, on="customer_id", how="left")
        .with_columns(pl.col("len").fill_null(0))
    )
    n_dup = max(1, int(real.height * DUPLICATE_IDENTITY_SHARE))
    weights = real["len"].to_numpy().astype(np.float64) + 0.05
    picks = np.sort(rng.choice(real.height, size=n_dup, replace=False, p=weights / weights.sum()))
    originals = real[picks.tolist()].drop("len")
    dup_ids = np.arange(n + 1, n + 1 + n_dup, dtype=np.int64)
    signup_us = originals["signup_at"].dt.epoch("us").to_numpy()
    dup_signup = signup_us + rng.integers(30, 400, size=n_dup) * US_PER_DAY
    style = rng.integers(0, 3, size=n_dup)  # 0: upper-case, 1: leading space, 2: other address
    other = (
        pl.col("first_name").str.to_lowercase()
        + "."
        + pl.col("last_name").str.to_lowercase()
        + pl.lit("+")
        + pl.Series(rng.integers(10, 99, n_dup).astype(str))
        + "@lumenmail.net"
    )
    dups = originals.with_columns(
        pl.Series("customer_id", dup_ids),
        pl.when(pl.Series(style == 0))
        .then(pl.col("email").str.to_uppercase())
        .when(pl.Series(style == 1))
        .then(pl.lit(" ") + pl.col("email"))
        .otherwise(other)
        .alias("email"),
        from_micros(dup_signup).alias("signup_at"),
    )
    frame = pl.concat([base, dups])
    m = frame.height
    tier = np.array(LOYALTY_TIERS)[rng.choice(4, size=m, p=[0.55, 0.28, 0.13, 0.04])]
    phone = with_nulls(prefixed("+1555", rng.integers(1000000, 9999999, m)), rng.random(m) < 0.35)
    updated = frame["signup_at"].dt.epoch("us").to_numpy() + rng.integers(0, 700, m) * US_PER_DAY
    updated = np.minimum(updated, int(np.datetime64("2026-06-30T23:00:00", "us").astype(np.int64)))
    out = frame.with_columns(
        pl.col("country").alias("country_code"),
        pl.col("country").replace_strict(COUNTRY_TZ).alias("home_timezone"),
        pl.Series("loyalty_tier", tier),
        pl.Series("marketing_opt_in", rng.random(m) < 0.62),
        phone.alias("phone_number"),
        from_micros(updated).alias("updated_at"),
        (pl.lit("LGC-") + pl.col("customer_id").cast(pl.String)).alias("legacy_customer_ref"),
    ).with_columns(
        local_time(pl.col("signup_at"), pl.col("home_timezone")).alias("signup_at_local"),
    )
    out = out.select(
        "customer_id", "email", "first_name", "last_name", "country_code", "home_timezone",
        "signup_at", "signup_at_local", "acquisition_channel", "is_test_account",
        "loyalty_tier", "marketing_opt_in", "phone_number", "legacy_customer_ref", "updated_at",
    )  # fmt: skip
    dup_map = pl.DataFrame(
        {
            "original_id": originals["customer_id"],
            "duplicate_id": dup_ids,
            "duplicate_signup_us": dup_signup,
        }
    )
    return out, dup_map


def reassign_orders(seed: int, orders: pl.DataFrame, dup_map: pl.DataFrame) -> pl.DataFrame:
    """Move about half of a duplicated customer's later orders to the second account."""
    rng = table_rng(seed, "ent_shop_orders", "identity")
    joined = orders.join(
        dup_map.rename({"original_id": "customer_id"}), on="customer_id", how="left"
    )
    coin = pl.Series(rng.random(joined.height) < 0.5)
    moved = (
        pl.col("duplicate_id").is_not_null()
        & (pl.col("created_at").dt.epoch("us") > pl.col("duplicate_signup_us"))
        & coin
    )
    return joined.with_columns(
        pl.when(moved)
        .then(pl.col("duplicate_id"))
        .otherwise(pl.col("customer_id"))
        .alias("customer_id")
    ).drop("duplicate_id", "duplicate_signup_us")


def orders_wide(
    seed: int, orders: pl.DataFrame, items: pl.DataFrame, cust: pl.DataFrame
) -> pl.DataFrame:
    """``shop_orders``: the order header with ~150 columns (connector + custom attributes)."""
    rng = table_rng(seed, "ent_shop_orders")
    n = orders.height
    gross = items.group_by("order_id").agg(
        (pl.col("quantity") * pl.col("unit_price")).sum().alias("_items")
    )
    base = orders.join(gross, on="order_id", how="left").join(
        cust.select("customer_id", "home_timezone"), on="customer_id", how="left"
    )
    created_us = base["created_at"].dt.epoch("us").to_numpy()
    loaded = created_us + late_lag_us(rng, n, 0.03)
    cols: dict[str, np.ndarray | pl.Series] = {
        "utm_source": np.array(UTM_SOURCES)[rng.integers(0, len(UTM_SOURCES), n)],
        "utm_medium": np.array(("cpc", "organic", "email", "social", "referral"))[
            rng.integers(0, 5, n)
        ],
        "utm_campaign": prefixed("cmp_", rng.integers(1, 60, n)),
        "device_type": np.array(DEVICES)[rng.choice(3, size=n, p=[0.45, 0.47, 0.08])],
        "app_version": with_nulls(prefixed("5.", rng.integers(0, 40, n)), rng.random(n) < 0.6),
        "is_gift": rng.random(n) < 0.06,
        "gift_message_present": rng.random(n) < 0.03,
        "fraud_score": np.round(rng.beta(1.2, 20, n), 4),
        "warehouse_hint": rng.integers(1, 5, n),
    }
    # Custom attributes the storefront's tag manager exports; mostly NULL, never documented
    # beyond "custom attribute", exactly the clutter a wide connector table carries.
    for k in range(1, N_CUSTOM_ATTRIBUTES + 1):
        fill = rng.random(n) < (0.02 + 0.3 * (k % 7 == 0))
        cols[f"custom_attr_{k:03d}"] = with_nulls(prefixed(f"v{k}_", rng.integers(0, 50, n)), ~fill)
    extra = pl.DataFrame({k: pl.Series(k, v) for k, v in cols.items()})
    out = pl.concat([base, extra], how="horizontal").with_columns(
        pl.col("status").alias("order_status"),
        pl.col("currency").alias("currency_code"),
        pl.col("home_timezone").alias("store_timezone"),
        local_time(pl.col("created_at"), pl.col("home_timezone")).alias("created_at_local"),
        # Deprecated: the pre-2025 "revenue" field (items + shipping + tax, before discounts
        # and refunds, local currency). Kept by the connector; Finance stopped using it.
        (pl.col("_items").fill_null(0) + pl.col("shipping_amount") + pl.col("tax_amount"))
        .round(2)
        .alias("revenue_old"),
        from_micros(loaded).alias("_loaded_at"),
    )
    head = [
        "order_id", "customer_id", "created_at", "created_at_local", "store_timezone",
        "order_status", "channel", "currency_code", "promo_code", "shipping_amount",
        "tax_amount", "revenue_old", "shipped_at", "delivered_at", "cancelled_at", "returned_at",
        "_loaded_at",
    ]  # fmt: skip
    out = _drift_shipping(seed, out)
    return out.select([*head[:10], "shipping_amount_cents", *head[10:], *cols])


def drift_cutover(seed: int, what: str) -> int:
    """µs of the seed's connector upgrade for ``what`` (a day between 2026-03-01 and 2026-05-31)."""
    rng = table_rng(seed, "ent_schema_drift", what)
    start = int(np.datetime64("2026-03-01", "us").astype(np.int64))
    return start + int(rng.integers(0, 92)) * US_PER_DAY


def _drift_shipping(seed: int, orders: pl.DataFrame) -> pl.DataFrame:
    """Connector v2 (from a seed-chosen day in spring 2026) exports shipping in integer cents
    as ``shipping_amount_cents`` and leaves ``shipping_amount`` NULL; older rows keep the old
    column (the schema drift staging must absorb)."""
    after = pl.col("created_at").dt.epoch("us") >= drift_cutover(seed, "shop_orders")
    return orders.with_columns(
        pl.when(after)
        .then((pl.col("shipping_amount") * 100).round(0).cast(pl.Int64))
        .otherwise(None)
        .alias("shipping_amount_cents"),
        pl.when(after).then(None).otherwise(pl.col("shipping_amount")).alias("shipping_amount"),
    )


def refunds(seed: int, refunds_raw: pl.DataFrame) -> pl.DataFrame:
    """``pay_refunds``: from a seed-chosen day in spring 2026 the processor export sends the
    amount as text in ``refund_amount_text`` and ``amount`` stays NULL (schema drift)."""
    after = pl.col("refunded_at").dt.epoch("us") >= drift_cutover(seed, "pay_refunds")
    return refunds_raw.rename({"currency": "currency_code"}).with_columns(
        pl.when(after)
        .then(pl.format("{}", pl.col("amount").round(2)))
        .otherwise(None)
        .alias("refund_amount_text"),
        pl.when(after).then(None).otherwise(pl.col("amount")).alias("amount"),
    )


def order_items(seed: int, items: pl.DataFrame, orders: pl.DataFrame) -> pl.DataFrame:
    rng = table_rng(seed, "ent_shop_order_items")
    created = items.join(orders.select("order_id", "created_at"), on="order_id", how="left")
    created_us = created["created_at"].dt.epoch("us").fill_null(0).to_numpy()
    base_us = np.where(
        created_us == 0,
        int(np.datetime64("2026-06-30T00:00:00", "us").astype(np.int64)),
        created_us,
    )
    return items.with_columns(
        from_micros(base_us + late_lag_us(rng, items.height, 0.02)).alias("_loaded_at")
    )


def status_events(seed: int, orders: pl.DataFrame) -> pl.DataFrame:
    """``shop_order_status_events``: one row per status change, loaded late sometimes."""
    rng = table_rng(seed, "ent_shop_order_status_events")
    parts = []
    for status, col in (
        ("placed", "created_at"),
        ("shipped", "shipped_at"),
        ("delivered", "delivered_at"),
        ("cancelled", "cancelled_at"),
        ("returned", "returned_at"),
    ):
        parts.append(
            orders.filter(pl.col(col).is_not_null()).select(
                "order_id", pl.lit(status).alias("status"), pl.col(col).alias("event_at")
            )
        )
    ev = pl.concat(parts).sort("event_at", "order_id", "status")
    lag = late_lag_us(rng, ev.height, 0.05)
    return ev.with_columns(
        pl.Series("status_event_id", np.arange(1, ev.height + 1, dtype=np.int64)),
        (pl.col("event_at").dt.epoch("us") + pl.Series(lag))
        .cast(pl.Datetime("us"))
        .alias("_loaded_at"),
    ).select("status_event_id", "order_id", "status", "event_at", "_loaded_at")


def payments(seed: int, pay: pl.DataFrame) -> pl.DataFrame:
    """``pay_payments``: amounts in integer cents (the processor's export format)."""
    rng = table_rng(seed, "ent_pay_payments")
    n = pay.height
    processor = np.where(
        pay["method"].to_numpy() == "paypal",
        "paypal",
        np.array(("stripe", "adyen"))[rng.integers(0, 2, n)],
    )
    return pay.with_columns(
        (pl.col("amount") * 100).round(0).cast(pl.Int64).alias("amount_cents"),
        pl.Series("processor", processor),
        pl.col("method").alias("payment_method"),
        pl.col("status").alias("payment_status"),
        pl.col("currency").alias("currency_code"),
    ).select(
        "payment_id", "order_id", "processor", "payment_method", "amount_cents",
        "currency_code", "payment_status", "paid_at",
    )  # fmt: skip


def chargebacks(seed: int, pay: pl.DataFrame) -> pl.DataFrame:
    rng = table_rng(seed, "ent_pay_chargebacks")
    ok = pay.filter(pl.col("status") == "success")
    n = max(3, int(ok.height * 0.008))
    picks = np.sort(rng.choice(ok.height, size=min(n, ok.height), replace=False))
    sub = ok[picks.tolist()]
    m = sub.height
    opened = sub["paid_at"].dt.epoch("us").to_numpy() + rng.integers(5, 60, m) * US_PER_DAY
    resolved = opened + rng.integers(10, 75, m) * US_PER_DAY
    end = int(np.datetime64("2026-06-30T23:00:00", "us").astype(np.int64))
    outcome = np.array(("won", "lost", "accepted"))[rng.choice(3, size=m, p=[0.35, 0.45, 0.2])]
    outcome = np.where(resolved > end, "open", outcome)
    return pl.DataFrame(
        {
            "chargeback_id": np.arange(1, m + 1, dtype=np.int64),
            "payment_id": sub["payment_id"],
            "order_id": sub["order_id"],
            "amount": sub["amount"],
            "currency_code": sub["currency"],
            "reason_code": np.array(("fraud", "not_received", "not_as_described", "duplicate"))[
                rng.integers(0, 4, m)
            ],
            "opened_at": from_micros(opened),
            "resolved_at": nullable_time(resolved, resolved > end),
            "outcome": outcome,
        }
    )


def web_events(seed: int, events: pl.DataFrame) -> pl.DataFrame:
    rng = table_rng(seed, "ent_web_events")
    lag = late_lag_us(rng, events.height, 0.04)
    return events.with_columns(
        (pl.col("event_at").dt.epoch("us") + pl.Series(lag))
        .cast(pl.Datetime("us"))
        .alias("_loaded_at")
    )


def product_history(seed: int, products: pl.DataFrame) -> pl.DataFrame:
    """``shop_product_history``: price and category versions (SCD2 source, CDC export).

    Each product has 1–4 versions; the last one equals ``shop_products``. About a fifth of
    the products were re-categorised once (their first version has another category).
    """
    rng = table_rng(seed, "ent_shop_product_history")
    n = products.height
    n_versions = rng.choice([1, 2, 3, 4], size=n, p=[0.35, 0.35, 0.2, 0.1])
    idx = np.repeat(np.arange(n), n_versions)
    launched = products["launched_at"].dt.epoch("us").to_numpy()
    window_start = int(np.datetime64("2024-01-01T00:00:00", "us").astype(np.int64))
    span_end = int(np.datetime64("2026-06-01T00:00:00", "us").astype(np.int64))
    first_from = np.maximum(launched, window_start - 365 * US_PER_DAY)
    starts = np.concatenate(([0], np.cumsum(n_versions)[:-1]))
    is_first = (np.arange(idx.size) - starts[idx]) == 0
    span = np.maximum(span_end - first_from[idx], US_PER_DAY)
    offset = np.where(is_first, 0, (rng.random(idx.size) * span).astype(np.int64))
    valid_from = (first_from[idx] + offset) // US_PER_HOUR * US_PER_HOUR
    frame = (
        pl.DataFrame({"idx": idx, "valid_from_us": valid_from})
        .unique(["idx", "valid_from_us"], keep="first", maintain_order=True)
        .sort("idx", "valid_from_us")
        .with_columns(
            pl.int_range(0, pl.len()).over("idx").alias("version"),
            (pl.int_range(0, pl.len()).over("idx") == pl.len().over("idx") - 1).alias("last"),
        )
    )
    idx = frame["idx"].to_numpy()
    last = frame["last"].to_numpy()
    version = frame["version"].to_numpy()
    m = idx.size
    factor = np.where(last, 1.0, rng.uniform(0.8, 1.15, m))
    price = np.round(products["list_price_usd"].to_numpy()[idx] * factor, 2)
    cur_cat = products["category"].to_numpy()[idx]
    cats = np.array(sorted(set(products["category"].to_list())))
    recat = (rng.random(n) < 0.2)[idx] & (version == 0) & ~last
    alt = cats[rng.integers(0, cats.size, m)]
    category = np.where(recat, alt, cur_cat)
    hist = pl.DataFrame(
        {
            "history_id": np.arange(1, m + 1, dtype=np.int64),
            "product_id": products["product_id"].to_numpy()[idx],
            "category": category,
            "list_price_usd": price,
            "valid_from": from_micros(frame["valid_from_us"].to_numpy()),
        }
    )
    return hist.with_columns(
        pl.col("valid_from").shift(-1).over("product_id").alias("valid_to"),
        pl.col("valid_from").alias("_cdc_captured_at"),
    )
