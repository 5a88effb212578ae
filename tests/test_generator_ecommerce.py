"""The ecommerce generator: determinism, contracts, and the realism signals tasks rely on.

Statistical checks run on one scale-0.05 build (≈25k orders) shared by the module, so each
signal is far outside sampling noise; determinism checks use the default scale 0.01.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import itertools
import json
import math
import os
import subprocess
import sys

import polars as pl
import pytest

from replicas.generators import ecommerce
from replicas.generators.ecommerce import TABLES, generate

WINDOW_START = dt.datetime(2024, 1, 1)
WINDOW_END = dt.datetime(2026, 6, 30, 23, 59, 59)


def number(value: object) -> float:
    """A polars aggregate that must be a number (polars types aggregates as a wide union)."""
    assert isinstance(value, (int, float)) and not isinstance(value, bool), value
    return float(value)


def moment(value: object) -> dt.datetime:
    """A polars aggregate that must be a timestamp."""
    assert isinstance(value, dt.datetime), value
    return value


CURRENCY_OF_COUNTRY = {"US": "USD", "CA": "CAD", "GB": "GBP"}  # every other country is euro-area

_HASH_SNIPPET = """
import hashlib, io, json, sys
from replicas.generators.ecommerce import generate
out = {}
for name, frame in generate(int(sys.argv[1]), float(sys.argv[2])).items():
    buf = io.BytesIO()
    frame.write_ipc(buf, compression="uncompressed")
    out[name] = hashlib.sha256(buf.getvalue()).hexdigest()
print(json.dumps(out))
"""


def table_hashes(tables: dict[str, pl.DataFrame]) -> dict[str, str]:
    """sha256 of each table's uncompressed Arrow IPC bytes (schema and values)."""
    out = {}
    for name, frame in tables.items():
        buf = io.BytesIO()
        frame.write_ipc(buf, compression="uncompressed")
        out[name] = hashlib.sha256(buf.getvalue()).hexdigest()
    return out


@pytest.fixture(scope="module")
def small() -> dict[str, pl.DataFrame]:
    return generate(0, 0.01)


@pytest.fixture(scope="module")
def mid() -> dict[str, pl.DataFrame]:
    return generate(3, 0.05)


# ------------------------------------------------------------------------------------------
# contract


def test_tables_in_load_order_with_description(small: dict[str, pl.DataFrame]) -> None:
    assert tuple(small) == TABLES
    assert all(small[name].height > 0 for name in TABLES)
    assert isinstance(ecommerce.DESCRIPTION, str) and "\n" not in ecommerce.DESCRIPTION


@pytest.mark.parametrize("seed", [-1, 1.5, True, "0", None])
def test_bad_seed_is_a_value_error(seed: object) -> None:
    with pytest.raises(ValueError, match="seed"):
        generate(seed, 0.01)


@pytest.mark.parametrize("scale", [0, -0.5, 20.5, math.nan, math.inf, "1", False])
def test_bad_scale_is_a_value_error(scale: object) -> None:
    with pytest.raises(ValueError, match="scale"):
        generate(0, scale)


def test_timestamps_are_naive_microseconds_and_money_is_cents(
    small: dict[str, pl.DataFrame],
) -> None:
    money = {
        "products": ["cost_usd", "list_price_usd"],
        "orders": ["shipping_amount", "tax_amount"],
        "order_items": ["unit_price", "discount_amount"],
        "payments": ["amount"],
        "refunds": ["amount"],
    }
    for name, frame in small.items():
        for column, dtype in frame.schema.items():
            if isinstance(dtype, pl.Datetime):
                assert dtype == pl.Datetime("us"), (name, column, dtype)
                assert dtype.time_zone is None, (name, column)
        for column in money.get(name, []):
            values = frame[column]
            assert values.dtype == pl.Float64
            off_cent = ((values * 100).round(0) - values * 100).abs().max()
            assert off_cent is not None and number(off_cent) < 1e-6, (name, column)


# ------------------------------------------------------------------------------------------
# determinism


def test_same_seed_same_bytes_in_process(small: dict[str, pl.DataFrame]) -> None:
    assert table_hashes(generate(0, 0.01)) == table_hashes(small)


def test_same_seed_same_bytes_in_another_process(small: dict[str, pl.DataFrame]) -> None:
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    proc = subprocess.run(
        [sys.executable, "-c", _HASH_SNIPPET, "0", "0.01"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=120,
    )
    assert json.loads(proc.stdout) == table_hashes(small)


def test_different_seeds_differ(small: dict[str, pl.DataFrame]) -> None:
    other = table_hashes(generate(1, 0.01))
    mine = table_hashes(small)
    for name in ("customers", "products", "fx_rates", "orders", "order_items", "payments",
                 "refunds", "web_events"):  # fmt: skip
        assert other[name] != mine[name], name


def test_scale_is_roughly_linear(small: dict[str, pl.DataFrame]) -> None:
    double = generate(0, 0.02)
    items = small["order_items"].height
    assert 8_000 <= items <= 12_000  # scale 0.01 ≈ 10k order lines
    for name in ("orders", "order_items", "payments", "web_events", "customers"):
        ratio = double[name].height / small[name].height
        assert 1.7 <= ratio <= 2.3, (name, ratio)


# ------------------------------------------------------------------------------------------
# consistency


def test_everything_inside_the_window(mid: dict[str, pl.DataFrame]) -> None:
    orders = mid["orders"]
    assert moment(orders["created_at"].min()) >= WINDOW_START
    assert moment(orders["created_at"].max()) <= WINDOW_END
    for name, column in [("payments", "paid_at"), ("refunds", "refunded_at"),
                         ("web_events", "event_at")]:  # fmt: skip
        assert moment(mid[name][column].min()) >= WINDOW_START - dt.timedelta(days=1), name
        assert moment(mid[name][column].max()) <= WINDOW_END, name
    for column in ("shipped_at", "delivered_at", "cancelled_at", "returned_at"):
        latest = orders[column].max()
        assert latest is None or moment(latest) <= WINDOW_END, column


def test_fx_rates_cover_every_day_and_currency(small: dict[str, pl.DataFrame]) -> None:
    fx = small["fx_rates"]
    days = (WINDOW_END.date() - WINDOW_START.date()).days + 1
    assert fx.height == days * 4
    assert fx.select(pl.struct("date", "currency").is_unique().all()).item()
    usd = fx.filter(pl.col("currency") == "USD")["rate_to_usd"]
    assert (usd == 1.0).all()
    levels = fx.group_by("currency").agg(pl.col("rate_to_usd").mean()).rows()
    expected = {"USD": 1.0, "EUR": 1.08, "GBP": 1.27, "CAD": 0.74}
    for currency, mean in levels:
        assert abs(mean - expected[currency]) / expected[currency] < 0.12, currency


def test_status_matches_timestamps(mid: dict[str, pl.DataFrame]) -> None:
    o = mid["orders"]
    present = {c: pl.col(c).is_not_null() for c in
               ("shipped_at", "delivered_at", "cancelled_at", "returned_at")}  # fmt: skip
    pattern = {  # status -> which timestamps are set
        "placed": (False, False, False, False),
        "shipped": (True, False, False, False),
        "completed": (True, True, False, False),
        "returned": (True, True, False, True),
        "cancelled": (False, False, True, False),
    }
    assert set(o["status"].unique()) == set(pattern)
    for status, flags in pattern.items():
        rows = o.filter(pl.col("status") == status)
        for (column, expr), flag in zip(present.items(), flags, strict=True):
            assert rows.select(expr.all() if flag else (~expr).all()).item(), (status, column)
    ordered = o.filter(
        (pl.col("shipped_at") <= pl.col("created_at"))
        | (pl.col("delivered_at") <= pl.col("shipped_at"))
        | (pl.col("returned_at") <= pl.col("delivered_at"))
        | (pl.col("cancelled_at") <= pl.col("created_at"))
    )
    assert ordered.height == 0


def test_currency_follows_customer_country(mid: dict[str, pl.DataFrame]) -> None:
    joined = mid["orders"].join(mid["customers"], on="customer_id")
    expected = pl.col("country").replace_strict(CURRENCY_OF_COUNTRY, default="EUR")
    assert joined.height == mid["orders"].height
    assert joined.select((pl.col("currency") == expected).all()).item()


def test_orders_happen_after_signup_and_products_after_launch(
    mid: dict[str, pl.DataFrame],
) -> None:
    o = mid["orders"].join(mid["customers"], on="customer_id")
    assert o.filter(pl.col("created_at") < pl.col("signup_at")).height == 0
    lines = (
        mid["order_items"].join(mid["orders"], on="order_id").join(mid["products"], on="product_id")
    )
    assert lines.filter(pl.col("created_at") < pl.col("launched_at")).height == 0
    assert lines.select(pl.struct("order_id", "product_id").is_unique().all()).item()


def test_most_orders_are_paid_exactly(mid: dict[str, pl.DataFrame]) -> None:
    items = (
        mid["order_items"]
        .group_by("order_id")
        .agg(
            (pl.col("quantity") * pl.col("unit_price") - pl.col("discount_amount")).sum().alias("m")
        )
    )
    totals = (
        mid["orders"]
        .join(items, on="order_id")
        .select(
            "order_id",
            (pl.col("m") + pl.col("shipping_amount") + pl.col("tax_amount")).alias("total"),
        )
    )
    paid = (
        mid["payments"]
        .filter(pl.col("status") == "success")
        .unique(["order_id", "method", "amount"])  # a duplicated capture counts once
        .group_by("order_id")
        .agg(pl.col("amount").sum().alias("paid"))
    )
    j = totals.join(paid, on="order_id")
    exact = (j["paid"] - j["total"]).abs() < 0.011
    assert number(exact.mean()) > 0.98
    assert number((~exact).sum()) > 0  # the deliberate mismatches exist


# ------------------------------------------------------------------------------------------
# dirt


def test_internal_test_accounts(mid: dict[str, pl.DataFrame]) -> None:
    c = mid["customers"]
    qa = c.filter(pl.col("is_test_account"))
    assert 0.003 <= qa.height / c.height <= 0.015
    assert qa["email"].str.contains(r"^qa\+\d+@lumenmarket\.com$").all()
    assert not c.filter(~pl.col("is_test_account"))["email"].str.contains("lumenmarket").any()
    assert mid["orders"].join(qa, on="customer_id").height > 0
    assert c["email"].is_unique().all()


def test_duplicate_web_events(mid: dict[str, pl.DataFrame]) -> None:
    ev = mid["web_events"]
    key = ["session_id", "event_type", "event_at"]
    dup = ev.select(pl.struct(key).is_duplicated()).to_series()
    share = dup.sum() / 2 / ev.height
    assert 0.005 <= share <= 0.03
    assert ev["event_id"].is_unique().all()
    # A re-sent copy is the same payload: identical in every column but event_id.
    payload = [c for c in ev.columns if c != "event_id"]
    assert ev.filter(dup).select(pl.struct(payload).is_duplicated().all()).item()


def test_duplicated_payments(mid: dict[str, pl.DataFrame]) -> None:
    ok = mid["payments"].filter(pl.col("status") == "success").sort("paid_at", "payment_id")
    repeats = ok.with_columns(
        gap=pl.col("paid_at").diff().over("order_id", "method", "amount")
    ).filter(pl.col("gap") <= dt.timedelta(seconds=60))
    share = repeats.height / mid["orders"].height
    assert 0.002 <= share <= 0.02


def test_orphaned_order_items(mid: dict[str, pl.DataFrame]) -> None:
    orphans = mid["order_items"].join(mid["orders"], on="order_id", how="anti")
    share = orphans.height / mid["order_items"].height
    assert 0.0005 <= share <= 0.01


def test_late_refunds_cross_quarters(mid: dict[str, pl.DataFrame]) -> None:
    r = mid["refunds"].join(mid["orders"], on="order_id")
    late = r.filter(
        (pl.col("reason") == "return")
        & (pl.col("refunded_at") - pl.col("returned_at") > dt.timedelta(days=30))
    )
    assert 0.01 <= late.height / r.filter(pl.col("reason") == "return").height <= 0.15
    later_quarter = r.filter(
        pl.col("refunded_at").dt.truncate("1q") > pl.col("created_at").dt.truncate("1q")
    )
    assert later_quarter.height > 0


# ------------------------------------------------------------------------------------------
# realism signals


def _orders_per(mid: dict[str, pl.DataFrame], expr: pl.Expr) -> dict[object, int]:
    return dict(mid["orders"].group_by(expr.alias("k")).len().rows())


def test_q4_peak_and_black_friday(mid: dict[str, pl.DataFrame]) -> None:
    q = _orders_per(mid, pl.col("created_at").dt.strftime("%Y-Q%q"))
    assert q["2024-Q4"] > 1.3 * q["2024-Q3"]
    assert q["2025-Q4"] > 1.3 * q["2025-Q3"]
    daily = _orders_per(mid, pl.col("created_at").dt.date())
    november = [v for d, v in daily.items() if d.year == 2025 and d.month == 11]  # type: ignore[attr-defined]
    assert daily[dt.date(2025, 11, 28)] > 2 * (sum(november) / len(november))  # Black Friday


def test_growth_over_the_window(mid: dict[str, pl.DataFrame]) -> None:
    half = _orders_per(
        mid,
        pl.col("created_at").dt.strftime("%Y-H")
        + ((pl.col("created_at").dt.month() > 6).cast(pl.Int8) + 1).cast(pl.String),
    )
    assert half["2026-H1"] > 1.5 * half["2024-H1"]
    assert half["2025-H1"] > half["2024-H1"]


def test_weekly_cycle(mid: dict[str, pl.DataFrame]) -> None:
    by_day = _orders_per(mid, pl.col("created_at").dt.weekday())  # 1 = Monday … 7 = Sunday
    assert by_day[7] + by_day[1] > 1.15 * (by_day[5] + by_day[6])


def test_zipf_product_popularity(mid: dict[str, pl.DataFrame]) -> None:
    counts = mid["order_items"].group_by("product_id").len().sort("len", descending=True)
    n_products = mid["products"].height
    top = counts.head(n_products // 10)["len"].sum()
    assert top / mid["order_items"].height > 0.5


def test_heavy_tailed_repeat_customers(mid: dict[str, pl.DataFrame]) -> None:
    per_customer = (
        mid["orders"]
        .join(mid["customers"].filter(~pl.col("is_test_account")), on="customer_id")
        .group_by("customer_id")
        .len()["len"]
    )
    assert number((per_customer == 1).mean()) > 0.5
    assert number(per_customer.max()) >= 12
    assert number(per_customer.quantile(0.99)) >= 4


def test_return_rate_differs_by_category(mid: dict[str, pl.DataFrame]) -> None:
    lines = (
        mid["order_items"]
        .join(mid["orders"].select("order_id", "status"), on="order_id")
        .join(mid["products"].select("product_id", "category"), on="product_id")
    )
    rate = dict(lines.group_by("category").agg((pl.col("status") == "returned").mean()).rows())
    assert rate["apparel"] > 1.4 * rate["electronics"]
    assert rate["electronics"] > 1.4 * rate["grocery"]


def test_sessions_are_funnel_shaped(mid: dict[str, pl.DataFrame]) -> None:
    ev = mid["web_events"].unique(["session_id", "event_type", "event_at"])
    reached = dict(ev.group_by("event_type").agg(pl.col("session_id").n_unique()).rows())
    steps = ["session_start", "page_view", "add_to_cart", "checkout", "purchase"]
    assert all(reached[a] > reached[b] for a, b in itertools.pairwise(steps))
    purchases = ev.filter(pl.col("event_type") == "purchase")
    assert purchases["order_id"].null_count() == 0
    assert ev.filter(pl.col("event_type") != "purchase")["order_id"].null_count() == (
        ev.height - purchases.height
    )
    assert set(purchases["order_id"]) <= set(mid["orders"]["order_id"])
