"""The ecommerce replica's edge cases for hidden-data grading (``replicas.tasks.hidden``).

Each edge case mutates a small generated dataset so that a model which only works on typical
data breaks, while the raw schema's documented rules (and so every data test of the pristine
project) still hold:

``sparse``
    two whole months without any order (their lines, payments, refunds and sessions removed
    too), refunds issued months after their order's period, refunds without a reason (the
    column allows NULL) and orders without a promo code (NULL allowed).
``boundary``
    orders created on the very first microsecond or the very last microsecond of a month, FX
    rates that jump on the first day of every month (a date taken one day off converts
    visibly differently), re-sent payment captures (some at the same instant, so the payment_id
    tie-break decides), re-sent tracker events, and anonymous sessions (customer_id NULL).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

import numpy as np
import polars as pl

from replicas.tasks.hidden import register_edge_case

WINDOW_END = dt.datetime(2026, 6, 30, 23, 59, 59)
FX_JUMP = 1.05


def _months(orders: pl.DataFrame) -> list[dt.date]:
    firsts = orders.select(pl.col("created_at").dt.truncate("1mo").dt.date().unique().sort())
    return [
        d for d in firsts.to_series().to_list() if dt.date(2024, 1, 1) < d < dt.date(2026, 6, 1)
    ]


def sparse(tables: Mapping[str, pl.DataFrame], rng: np.random.Generator) -> dict[str, pl.DataFrame]:
    out = dict(tables)
    orders = out["orders"]
    months = _months(orders)
    gone = [months[int(i)] for i in rng.choice(len(months), size=2, replace=False)]
    month = pl.col("created_at").dt.truncate("1mo").dt.date()
    dropped = orders.filter(month.is_in(gone))["order_id"]
    out["orders"] = orders.filter(~pl.col("order_id").is_in(dropped))
    for name in ("order_items", "payments", "refunds"):
        out[name] = out[name].filter(~pl.col("order_id").is_in(dropped))
    events = out["web_events"]
    starts = events.group_by("session_id").agg(pl.col("event_at").min().alias("started"))
    empty_sessions = starts.filter(pl.col("started").dt.truncate("1mo").dt.date().is_in(gone))[
        "session_id"
    ]
    bought_dropped = events.filter(pl.col("order_id").is_in(dropped))["session_id"]
    out["web_events"] = events.filter(
        ~pl.col("session_id").is_in(empty_sessions) & ~pl.col("session_id").is_in(bought_dropped)
    )
    refunds = out["refunds"]
    n = refunds.height
    late = pl.Series(rng.random(n) < 0.4)
    no_reason = pl.Series(rng.random(n) < 0.15)
    shifted = (pl.col("refunded_at") + pl.duration(days=95)).clip(upper_bound=WINDOW_END)
    out["refunds"] = refunds.with_columns(
        pl.when(late).then(shifted).otherwise(pl.col("refunded_at")).alias("refunded_at"),
        pl.when(no_reason).then(None).otherwise(pl.col("reason")).alias("reason"),
    )
    orders = out["orders"]
    keep_code = pl.Series(rng.random(orders.height) < 0.5)
    out["orders"] = orders.with_columns(
        pl.when(keep_code).then(pl.col("promo_code")).otherwise(None).alias("promo_code")
    )
    return out


def _next_id(ids: pl.Series) -> int:
    return int(ids.cast(pl.Int64).fill_null(0).max() or 0) + 1  # type: ignore[arg-type]


def _later_ok(limit: pl.Expr) -> pl.Expr:
    """Every later lifecycle timestamp of the order is after ``limit`` (or absent)."""
    cols = ("shipped_at", "delivered_at", "cancelled_at", "returned_at")
    cond = pl.lit(True)
    for col in cols:
        cond = cond & (pl.col(col).is_null() | (pl.col(col) > limit))
    return cond


def boundary(
    tables: Mapping[str, pl.DataFrame], rng: np.random.Generator
) -> dict[str, pl.DataFrame]:
    out = dict(tables)
    orders = out["orders"].join(
        out["customers"].select("customer_id", "signup_at"), on="customer_id", how="left"
    )
    draw = pl.Series(rng.random(orders.height))
    month_start = pl.col("created_at").dt.truncate("1mo")
    month_end = month_start.dt.offset_by("1mo") - pl.duration(microseconds=1)
    to_start = (draw < 0.05) & (pl.col("signup_at") <= month_start)
    to_end = (draw >= 0.05) & (draw < 0.25) & _later_ok(month_end) & (month_end <= WINDOW_END)
    orders = orders.with_columns(
        pl.when(to_start)
        .then(month_start)
        .when(to_end)
        .then(month_end)
        .otherwise(pl.col("created_at"))
        .alias("created_at")
    ).drop("signup_at")
    out["orders"] = orders.select(out["orders"].columns)

    fx = out["fx_rates"]
    first_day = pl.col("date").dt.day() == 1
    out["fx_rates"] = fx.with_columns(
        pl.when(first_day & (pl.col("currency") != "USD"))
        .then((pl.col("rate_to_usd") * FX_JUMP).round(6).clip(0.3, 3.0))
        .otherwise(pl.col("rate_to_usd"))
        .alias("rate_to_usd")
    )

    payments = out["payments"]
    success = payments.filter(pl.col("status") == "success")
    picked = success.filter(pl.Series(rng.random(success.height) < 0.05))
    gaps = rng.integers(0, 50, picked.height)
    next_id = _next_id(payments["payment_id"])
    copies = picked.with_columns(
        pl.Series("payment_id", np.arange(next_id, next_id + picked.height), dtype=pl.Int64),
        (pl.col("paid_at") + pl.Series(gaps * 1_000_000).cast(pl.Duration("us"))).alias("paid_at"),
    )
    out["payments"] = pl.concat([payments, copies]).sort("payment_id")

    events = out["web_events"]
    resent = events.filter(pl.Series(rng.random(events.height) < 0.03))
    next_event = _next_id(events["event_id"])
    resent = resent.with_columns(
        pl.Series("event_id", np.arange(next_event, next_event + resent.height), dtype=pl.Int64)
    )
    events = pl.concat([events, resent])
    buying = events.filter(pl.col("event_type") == "purchase")["session_id"].unique()
    sessions = events["session_id"].unique().sort()
    anonymous = sessions.filter(pl.Series(rng.random(sessions.len()) < 0.05))
    out["web_events"] = events.with_columns(
        pl.when(pl.col("session_id").is_in(anonymous) & ~pl.col("session_id").is_in(buying))
        .then(None)
        .otherwise(pl.col("customer_id"))
        .alias("customer_id")
    ).sort("event_id")
    return out


register_edge_case("ecommerce", "sparse", sparse)
register_edge_case("ecommerce", "boundary", boundary)
