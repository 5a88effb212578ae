"""Episode-runtime benchmark: reset latency (read-only and dbt task) and SQL round trip.

Usage: ``python benchmarks/bench_runtime.py [--seed 0] [--repeats 200] [--json OUT]``.
Uses the cached ecommerce snapshot at scale 0.01 (built on first use) and the two runtime
families. Reports medians (and p90) in milliseconds with the targets beside them, plus two
in-process baselines: opening a fresh read-only DuckDB connection (what a reset would cost
without the shared per-process connection), and running the same one-row query in the worker on
that shared connection, as the ``sql`` tool did before agent SQL moved to a query server (the
ratio is what the server's isolation costs per call). ``query_server_start`` is the time from
spawning a query server to its first answer. Targets are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

TARGETS_MS = {"reset_read_only": 5.0, "reset_dbt_task": 50.0, "sql_round_trip": 5.0}
READ_ONLY_TASK = "ecommerce.revenue_period-v1.s{seed}.0"
DBT_TASK = "ecommerce.dbt_fix-v1.s{seed}.0"
ONE_ROW_QUERY = {"name": "sql", "arguments": {"query": "select count(*) from raw.orders"}}


def _timings(fn: Callable[[], Any], repeats: int, warmup: int = 3) -> list[float]:
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000.0)
    return out


def _summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": statistics.median(ordered),
        "p90_ms": ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
        "n": len(ordered),
    }


def run(seed: int, repeats: int) -> dict[str, Any]:
    from dataclasses import replace

    from replicas.db import close_readonly_connections, open_readonly
    from replicas.env import Env
    from replicas.tasks import build_task

    read_only = build_task(READ_ONLY_TASK.format(seed=seed))
    dbt_task = build_task(DBT_TASK.format(seed=seed))
    results: dict[str, Any] = {}

    # Baseline first, while no connection holds the database open (so every open is cold).
    close_readonly_connections()
    warehouse = Env.from_task(read_only)._snapshot.warehouse
    results["baseline_open_readonly_connection"] = _summary(
        _timings(lambda: open_readonly(warehouse).close(), max(10, repeats // 4), warmup=1)
    )

    # Room for every measured step inside one episode.
    many_steps = replace(read_only, limits=replace(read_only.limits, max_steps=10 * repeats + 100))
    with Env.from_task(many_steps) as env:
        env.reset()
        results["reset_read_only"] = _summary(_timings(env.reset, repeats))
        env.reset()
        in_process = _in_process_sql(warehouse, ONE_ROW_QUERY["arguments"]["query"])
        # Interleaved, so both see the same load on a shared machine.
        trip, base_trip = _interleaved(lambda: env.step(ONE_ROW_QUERY), in_process, repeats)
        results["sql_round_trip"] = _summary(trip)
        results["baseline_sql_in_process"] = _summary(base_trip)
    results["query_server_start"] = _summary(_server_starts(warehouse, max(3, repeats // 40)))
    with Env.from_task(dbt_task) as env:
        env.reset()
        results["reset_dbt_task"] = _summary(_timings(env.reset, max(10, repeats // 4)))
    base = results["baseline_open_readonly_connection"]["p50_ms"]
    reset = results["reset_read_only"]["p50_ms"]
    # How many times cheaper a reset is than the naive "open a connection per episode".
    results["speedup_reset_read_only_vs_open_connection"] = base / reset if reset else None
    trip_p50 = results["sql_round_trip"]["p50_ms"]
    # What isolating agent SQL in a query server costs per call, against the same query in-process.
    results["ratio_sql_round_trip_vs_in_process"] = (
        trip_p50 / results["baseline_sql_in_process"]["p50_ms"]
    )
    return results


def _in_process_sql(warehouse: Any, query: str) -> Callable[[], Any]:
    """The old path: check, run on the worker's shared connection, fetch, render."""
    # Imported where used, like run()'s imports: ``--help`` needs none of the kit.
    from replicas.db import readonly_connection
    from replicas.tools.sql import format_table, format_value, prepare_query

    def call() -> str:
        sql = prepare_query(query)
        cur = readonly_connection(warehouse).cursor()
        try:
            cur.extract_statements(sql)
            result = cur.execute(sql)
            columns = [d[0] for d in result.description or []]
            rows = result.fetchmany(51)
        finally:
            cur.close()
        cells = [[format_value(v) for v in row] for row in rows[:50]]
        return format_table(columns, cells, len(rows) > 50, 50)

    return call


def _interleaved(
    first: Callable[[], Any], second: Callable[[], Any], repeats: int, warmup: int = 3
) -> tuple[list[float], list[float]]:
    for _ in range(warmup):
        first()
        second()
    a: list[float] = []
    b: list[float] = []
    for _ in range(repeats):
        for fn, out in ((first, a), (second, b)):
            t0 = time.perf_counter()
            fn()
            out.append((time.perf_counter() - t0) * 1000.0)
    return a, b


def _server_starts(warehouse: Any, n: int) -> list[float]:
    """Milliseconds from spawning a query server to its answer to a first (one-row) query."""
    # Imported where used, like run()'s imports: ``--help`` needs none of the kit.
    from replicas.sandbox.query_client import QueryClient

    out = []
    for _ in range(n):
        client = QueryClient()
        t0 = time.perf_counter()
        client.query(str(warehouse), "select 1", timeout_s=30, max_rows=5, max_chars=1000)
        out.append((time.perf_counter() - t0) * 1000.0)
        client.shutdown()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--json", dest="json_out")
    args = parser.parse_args(argv)
    results = run(args.seed, args.repeats)
    print(f"{'measure':<36} {'p50 ms':>9} {'p90 ms':>9} {'target':>9}")
    for name, value in results.items():
        if isinstance(value, dict):
            target = TARGETS_MS.get(name)
            shown = f"≤{target:g}" if target is not None else "-"
            print(f"{name:<36} {value['p50_ms']:>9.3f} {value['p90_ms']:>9.3f} {shown:>9}")
        elif value is not None:
            print(f"{name:<44} {value:>9.1f}x")
    if args.json_out:
        payload = {"schema_version": 1, "benchmark": "runtime", "seed": args.seed, **results}
        with open(args.json_out, "w", encoding="utf-8") as fh:
            json.dump(payload, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
