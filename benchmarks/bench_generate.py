"""Generation benchmark for the ecommerce replica: vectorised generator vs two baselines.

Usage: ``python benchmarks/bench_generate.py [--scale 1.0] [--repeats 3] [--seed 0]
[--naive-rows 20000] [--json OUT]``.

Measured in one process, medians over ``--repeats``:

* **vectorised** — ``replicas.generators.ecommerce.generate(seed, scale)``: wall time, rows/s over
  all tables, peak RSS (``getrusage``) right after the repeats.
* **naive Faker** — the textbook approach: one dict per row, one Faker call per field, then a
  DataFrame. Timed on ``--naive-rows`` rows spread over the tables in the real row mix and
  extrapolated per table to the full row counts (running it for real at scale 1 takes minutes).
* **DuckDB SQL** — ``CREATE TABLE … AS SELECT … FROM range(n)`` with ``random()`` expressions,
  one per table, same row counts, column names and column types, in an in-memory database.

Ratios are baseline time / vectorised time (> 1 means the vectorised generator is faster).
Process CPU time is reported beside wall time, and the load average with it: on a shared machine
wall time inflates while CPU time does not. Targets are printed beside the figures, never
asserted.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import duckdb
import polars as pl
from faker import Faker

from replicas.generators.ecommerce import TABLES, generate

SCHEMA_VERSION = 1
TARGET_ROWS_PER_S = 1_500_000
TARGET_RSS_GIB = 2.0

Row = dict[str, Any]


# ------------------------------------------------------------------------------------------------
# naive per-row Faker generator (same tables and columns, one Faker call per field)


def _naive_rows(fake: Faker) -> dict[str, Callable[[int], Row]]:
    start, end = dt.datetime(2024, 1, 1), dt.datetime(2026, 6, 30, 23, 59, 59)

    def ts() -> dt.datetime:
        return fake.date_time_between(start, end)

    def money(lo: int, hi: int) -> float:
        return float(fake.pydecimal(min_value=lo, max_value=hi, right_digits=2))

    return {
        "customers": lambda i: {
            "customer_id": i,
            "email": fake.email(),
            "first_name": fake.first_name(),
            "last_name": fake.last_name(),
            "country": fake.country_code(),
            "signup_at": ts(),
            "acquisition_channel": fake.random_element(("organic_search", "paid_search", "social")),
            "is_test_account": fake.boolean(chance_of_getting_true=1),
        },
        "products": lambda i: {
            "product_id": i,
            "sku": fake.bothify("???-######"),
            "name": fake.catch_phrase(),
            "category": fake.random_element(("apparel", "electronics", "grocery")),
            "brand": fake.company(),
            "cost_usd": money(1, 500),
            "list_price_usd": money(1, 900),
            "launched_at": ts(),
            "is_active": fake.boolean(),
        },
        "promotions": lambda i: {
            "promo_code": fake.bothify("PROMO####"),
            "description": fake.sentence(),
            "discount_type": fake.random_element(("percent", "amount")),
            "discount_pct": money(5, 30),
            "discount_amount": money(5, 30),
            "min_order_amount": money(0, 150),
            "starts_at": ts(),
            "ends_at": ts(),
            "channel": fake.random_element(("web", "app", None)),
            "first_order_only": fake.boolean(),
        },
        "fx_rates": lambda i: {
            "date": fake.date_between(start.date(), end.date()),
            "currency": fake.random_element(("USD", "EUR", "GBP", "CAD")),
            "rate_to_usd": fake.pyfloat(min_value=0.7, max_value=1.3),
        },
        "orders": lambda i: {
            "order_id": i,
            "customer_id": fake.random_int(1, 400_000),
            "created_at": ts(),
            "status": fake.random_element(("placed", "shipped", "completed", "cancelled")),
            "channel": fake.random_element(("web", "app", "marketplace")),
            "currency": fake.currency_code(),
            "promo_code": fake.random_element(("WELCOME10", None)),
            "shipping_amount": money(0, 15),
            "tax_amount": money(0, 60),
            "shipped_at": ts(),
            "delivered_at": ts(),
            "cancelled_at": ts(),
            "returned_at": ts(),
        },
        "order_items": lambda i: {
            "order_item_id": i,
            "order_id": fake.random_int(1, 500_000),
            "product_id": fake.random_int(1, 4000),
            "quantity": fake.random_int(1, 4),
            "unit_price": money(1, 400),
            "discount_amount": money(0, 20),
        },
        "payments": lambda i: {
            "payment_id": i,
            "order_id": fake.random_int(1, 500_000),
            "method": fake.random_element(("card", "paypal", "gift_card")),
            "amount": money(1, 900),
            "currency": fake.currency_code(),
            "status": fake.random_element(("success", "failed")),
            "paid_at": ts(),
        },
        "refunds": lambda i: {
            "refund_id": i,
            "order_id": fake.random_int(1, 500_000),
            "amount": money(1, 500),
            "currency": fake.currency_code(),
            "reason": fake.random_element(("return", "damaged_item")),
            "refunded_at": ts(),
        },
        "web_events": lambda i: {
            "event_id": i,
            "session_id": fake.random_int(1, 2_000_000),
            "customer_id": fake.random_int(1, 400_000),
            "platform": fake.random_element(("web", "app")),
            "event_type": fake.random_element(("session_start", "page_view", "purchase")),
            "event_at": ts(),
            "page_path": fake.uri_path(),
            "order_id": fake.random_int(1, 500_000),
        },
    }


def naive_seconds_per_row(
    row_counts: dict[str, int], sample_rows: int, seed: int
) -> dict[str, float]:
    """Seconds per row of each table for the naive generator, from a sample in the real mix."""
    fake = Faker()
    fake.seed_instance(seed)
    makers = _naive_rows(fake)
    total = sum(row_counts.values())
    out = {}
    for name in TABLES:
        n = max(50, round(sample_rows * row_counts[name] / total))
        t0 = time.perf_counter()
        pl.DataFrame([makers[name](i) for i in range(n)], infer_schema_length=None)
        out[name] = (time.perf_counter() - t0) / n
    return out


# ------------------------------------------------------------------------------------------------
# DuckDB-native SQL generator (same row counts, column names and types)


def _sql_expression(column: str, dtype: pl.DataType, first: bool) -> str:
    if first and dtype.is_integer():
        expr = "range + 1"
    elif dtype.is_integer():
        expr = "cast(random() * 1000000 as bigint)"
    elif dtype.is_float():
        expr = "round(random() * 500, 2)"
    elif dtype == pl.Boolean:
        expr = "random() < 0.5"
    elif isinstance(dtype, pl.Datetime):
        expr = "timestamp '2024-01-01' + to_microseconds(cast(random() * 7.8e13 as bigint))"
    elif dtype == pl.Date:
        expr = "date '2024-01-01' + cast(random() * 900 as integer)"
    else:
        expr = "['alpha', 'beta', 'gamma', 'delta'][cast(random() * 4 as integer) + 1] || cast(cast(random() * 1000 as integer) as varchar)"
    return f'{expr} as "{column}"'


def duckdb_seconds(frames: dict[str, pl.DataFrame], threads: int) -> tuple[float, float]:
    """(wall seconds, process CPU seconds) to create every table in an in-memory database."""
    con = duckdb.connect(config={"threads": threads})
    try:
        t0, c0 = time.perf_counter(), time.process_time()
        for name, frame in frames.items():
            select = ", ".join(
                _sql_expression(col, dtype, i == 0)
                for i, (col, dtype) in enumerate(frame.schema.items())
            )
            con.execute(f'create table "{name}" as select {select} from range({frame.height})')
        return time.perf_counter() - t0, time.process_time() - c0
    finally:
        con.close()


# ------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--naive-rows", type=int, default=20_000)
    parser.add_argument(
        "--threads", type=int, default=2, help="DuckDB threads for the SQL baseline"
    )
    parser.add_argument("--json", dest="json_out")
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.naive_rows < 100:
        parser.error("--repeats must be >= 1 and --naive-rows >= 100")

    generate(args.seed, 0.01)  # warm imports, Faker vocabularies and lookup tables
    load_before = os.getloadavg()[0]
    times: list[float] = []
    cpu_times: list[float] = []
    frames: dict[str, pl.DataFrame] = {}
    for _ in range(args.repeats):
        frames = {}
        t0, c0 = time.perf_counter(), time.process_time()
        frames = generate(args.seed, args.scale)
        times.append(time.perf_counter() - t0)
        cpu_times.append(time.process_time() - c0)
    peak_rss_gib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    row_counts = {name: frame.height for name, frame in frames.items()}
    rows = sum(row_counts.values())
    vector_s = statistics.median(times)
    vector_cpu_s = statistics.median(cpu_times)

    per_row = naive_seconds_per_row(row_counts, args.naive_rows, args.seed)
    naive_s = sum(per_row[name] * row_counts[name] for name in TABLES)
    sql_runs = [duckdb_seconds(frames, args.threads) for _ in range(args.repeats)]
    sql_s = statistics.median(wall for wall, _ in sql_runs)
    sql_cpu_s = statistics.median(cpu for _, cpu in sql_runs)

    report = {
        "schema_version": SCHEMA_VERSION,
        "benchmark": "generate",
        "replica": "ecommerce",
        "seed": args.seed,
        "scale": args.scale,
        "repeats": args.repeats,
        "rows": rows,
        "row_counts": row_counts,
        # Wall time suffers when other processes share the cores; CPU time does not.
        "load_average_1m": {"before": load_before, "after": os.getloadavg()[0]},
        "vectorised": {
            "median_s": vector_s,
            "all_s": times,
            "rows_per_s": rows / vector_s,
            "median_cpu_s": vector_cpu_s,
            "rows_per_cpu_s": rows / vector_cpu_s,
            "peak_rss_gib": peak_rss_gib,
        },
        "naive_faker": {
            "sample_rows": args.naive_rows,
            "extrapolated_s": naive_s,
            "rows_per_s": rows / naive_s,
            "ratio_vs_vectorised": naive_s / vector_s,
        },
        "duckdb_sql": {
            "median_s": sql_s,
            "median_cpu_s": sql_cpu_s,
            "threads": args.threads,
            "rows_per_s": rows / sql_s,
            "ratio_vs_vectorised": sql_s / vector_s,
            "cpu_ratio_vs_vectorised": sql_cpu_s / vector_cpu_s,
        },
        "targets": {"rows_per_s": TARGET_ROWS_PER_S, "peak_rss_gib": TARGET_RSS_GIB},
    }

    met = "met" if rows / vector_s >= TARGET_ROWS_PER_S else "MISSED"
    rss_met = "met" if peak_rss_gib < TARGET_RSS_GIB else "MISSED"
    load = report["load_average_1m"]
    print(f"ecommerce generate  scale={args.scale:g}  seed={args.seed}  rows={rows:,}")
    print(f"{'generator':<24}{'wall (s)':>10}{'rows/s':>13}{'CPU (s)':>10}{'vs vectorised':>15}")
    print(
        f"{'vectorised (median)':<24}{vector_s:>10.2f}{rows / vector_s:>13,.0f}"
        f"{vector_cpu_s:>10.2f}{'1.0x':>15}"
    )
    print(
        f"{'naive Faker (extrap.)':<24}{naive_s:>10.1f}{rows / naive_s:>13,.0f}{'':>10}"
        f"{naive_s / vector_s:>14.1f}x"
    )
    print(
        f"{'DuckDB SQL (median)':<24}{sql_s:>10.2f}{rows / sql_s:>13,.0f}"
        f"{sql_cpu_s:>10.2f}{sql_s / vector_s:>14.2f}x"
    )
    print(
        f"target >= {TARGET_ROWS_PER_S:,} rows/s (wall): {met}  "
        f"[{rows / vector_cpu_s:,.0f} rows per CPU-second]; peak RSS {peak_rss_gib:.2f} GiB "
        f"(target < {TARGET_RSS_GIB:g} GiB: {rss_met}); 1-min load average "
        f"{load['before']:.1f} → {load['after']:.1f} on {os.cpu_count()} cores"
    )
    if args.json_out:
        with open(args.json_out, "w") as handle:
            json.dump(report, handle, indent=2)
            handle.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
