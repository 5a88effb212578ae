"""Ecommerce question tasks do not depend on the order DuckDB adds rows in.

A DOUBLE ``sum``/``avg`` gives last bits that depend on the order rows are added in (DuckDB's
parallel aggregation combines per-thread partial sums in scheduling order; the thread count is
the machine's core count). A mean that sits exactly on half a cent then rounds either way: make
audit found ``ecommerce.aov_trend-v2.s1.2``'s wrong readings changed on rebuild (its 2025-11
AOV under ``discounts_not_deducted`` is exactly 29360.43 / 282 = 104.115). The families
aggregate exact cents (``usd_sum`` / ``usd_mean`` of ``_order_facts``) instead.

Checked two ways: (1) on cents values whose exact mean is half a cent, ``round(avg(x), 2)`` over
DOUBLEs changes with the row order (so the data can show the fault) while ``usd_mean`` does not;
(2) tasks built on the pristine seed-1 snapshot with DuckDB ``threads=1`` equal, field for
field, the same tasks built on copies of its raw tables whose rows are stored in other orders,
read with 4 and 8 threads (the flagged task built several times each: a DOUBLE average
flipped in a fraction of builds only).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pytest

from replicas import db
from replicas.build import Snapshot, ensure_snapshot
from replicas.families.ecommerce import (
    _order_facts,
    aov_trend,
    metric_reconciliation,
    revenue_breakdown,
    revenue_period,
    top_n,
)
from replicas.families.ecommerce._order_facts import Reading, usd_mean, usd_sum
from replicas.tasks import Task, get_family

SEED = 1
#: (family, variant) built on every copy: aov_trend-v2 variant 2 is the task the audit flagged;
#: the others cover every family whose money aggregates moved to exact cents.
CASES: tuple[tuple[str, int], ...] = (
    ("ecommerce.aov_trend-v2", 2),
    ("ecommerce.aov_trend-v2", 0),
    ("ecommerce.revenue_period-v2", 1),
    ("ecommerce.revenue_breakdown-v2", 0),
    ("ecommerce.top_n-v2", 0),
    ("ecommerce.metric_reconciliation-v2", 0),
    ("ecommerce.data_quality-v2", 2),
)
#: (DuckDB threads, permutation seed of every raw table's rows) of the copies built on.
RUNS = ((4, 1), (8, 2), (4, 3))
#: Builds of the flagged task per run: with DOUBLE averages its 2025-11 reading rounded the
#: other way than at 1 thread in some builds only (a third at 4 threads on an idle 2-core
#: machine, fewer under load, when the threads rarely run at once).
EDGE_REPEATS = 4
#: Seeds of the orders the facts are fed to the aggregates in (threads=1: deterministic).
#: With DOUBLE averages, seeds 1, 2, 5 and 11 of 1-11 each rounded the flagged reading the
#: other way than the unordered facts (measured with the code before the fix).
FACT_ORDERS = (1, 2, 3)
#: Modules that aggregate the order/line facts (each imported the SQL builders by name).
FACT_USERS = (aov_trend, revenue_period, revenue_breakdown, top_n, metric_reconciliation)
FIELDS = ("instruction", "expected", "wrong_readings", "metadata", "oracle", "verifier")
#: What the agent is asked and graded against (the oracle's SQL names the reordering).
ANSWER_FIELDS = ("instruction", "expected", "wrong_readings", "metadata")


def _half_cent_values(n: int = 282) -> list[int]:
    """``n`` order values in cents (about $100 each) whose exact mean is k + 1/2 cents."""
    rng = np.random.default_rng(20261202)
    cents = [int(c) for c in rng.integers(2_000, 30_000, size=n)]
    if (sum(cents) * 2) % n != 0 or (sum(cents) * 2 // n) % 2 != 1:
        # move the total to the nearest multiple of n/2 that is an odd number of half-cents
        half = n // 2
        target = (sum(cents) // half) * half
        if (target // half) % 2 == 0:
            target += half
        cents[0] += target - sum(cents)
    assert n % 2 == 0 and (2 * sum(cents)) % n == 0 and (2 * sum(cents) // n) % 2 == 1
    return cents


def test_half_cent_mean_depends_on_row_order_in_double_but_not_in_exact_cents() -> None:
    cents = _half_cent_values()
    con = duckdb.connect(config={"threads": 1})
    double_avgs, exact = set(), set()
    rng = np.random.default_rng(7)
    for _ in range(40):
        order = [int(i) for i in rng.permutation(len(cents))]
        values = [cents[i] / 100 for i in order]  # DOUBLE amounts of whole cents
        con.execute("create or replace table t as select unnest($1::double[]) as x", [values])
        double_avgs.add(con.execute("select round(avg(x), 2) from t").fetchall()[0][0])
        exact.add(con.execute(f"select {usd_mean('x')}, {usd_sum('x')} from t").fetchall()[0])
    con.close()
    # The data can show the fault: a DOUBLE average rounds both ways over the orders tried.
    assert len(double_avgs) == 2, double_avgs
    # Exact cents: one mean and one total, whatever the order.
    assert len(exact) == 1, exact
    ((mean, total),) = exact
    assert float(total) * 100 == pytest.approx(sum(cents), abs=1e-6)
    assert mean in double_avgs


def _shuffled_copy(snapshot: Snapshot, out: Path, order: int) -> Snapshot:
    """A snapshot whose raw tables hold the pristine rows in another (seeded) order."""
    out.mkdir()
    db.close_readonly_connections()  # one process may not open a file with two configurations
    con = duckdb.connect(str(out / snapshot.warehouse.name))
    con.execute(f"attach '{snapshot.warehouse}' as src (read_only)")
    tables = [
        r[0]
        for r in con.execute(
            "select table_name from information_schema.tables where table_catalog = 'src' "
            "and table_schema = 'raw' and table_type = 'BASE TABLE' order by 1"
        ).fetchall()
    ]
    con.execute("create schema raw")
    for table in tables:
        con.execute(
            f"create table raw.{table} as select * from src.raw.{table} "
            f"order by hash(rowid, {order})"
        )
    con.execute("detach src")
    con.close()
    return dataclasses.replace(snapshot, path=out)


def _fields(task: Task, fields: tuple[str, ...] = FIELDS) -> dict[str, Any]:
    data = task.to_dict()
    return {f: data[f] for f in fields}


@pytest.fixture(scope="module")
def pristine() -> Snapshot:
    return ensure_snapshot("ecommerce", SEED)


@pytest.fixture
def threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """``threads(n)``: reopen the kit's read-only connections with DuckDB ``threads=n``."""

    def use(n: int) -> None:
        db.close_readonly_connections()
        monkeypatch.setitem(db.SAFE_DUCKDB_CONFIG, "threads", n)

    yield use
    db.close_readonly_connections()  # the config is restored by monkeypatch after this


def test_tasks_are_identical_on_reordered_rows_and_thread_counts(
    pristine: Snapshot, tmp_path: Path, threads: Any
) -> None:
    threads(1)
    reference = {
        case: _fields(get_family(case[0]).build(pristine, SEED, case[1])) for case in CASES
    }
    for n_threads, order in RUNS:
        copy = _shuffled_copy(pristine, tmp_path / f"order-{order}", order)
        threads(n_threads)
        for family, variant in CASES:
            # the flagged task again and again: a DOUBLE average flipped in some builds only
            repeats = EDGE_REPEATS if (family, variant) == CASES[0] else 1
            for _ in range(repeats):
                task = get_family(family).build(copy, SEED, variant)
                assert _fields(task) == reference[(family, variant)], (family, n_threads, order)


def test_tasks_are_identical_when_the_facts_arrive_in_other_orders(
    pristine: Snapshot, threads: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deterministic: one thread, the facts fed to every aggregate sorted by a seeded hash."""
    threads(1)
    cases = [c for c in CASES if not c[0].startswith("ecommerce.data_quality")]
    reference = {
        case: _fields(get_family(case[0]).build(pristine, SEED, case[1]), ANSWER_FIELDS)
        for case in cases
    }
    for order in FACT_ORDERS:

        def order_facts(reading: Reading, order: int = order) -> str:
            facts = _order_facts.order_facts_sql(reading)
            return f"select * from ({facts}) order by hash(order_id, {order}) limit 1000000000"

        def line_facts(reading: Reading, order: int = order) -> str:
            facts = _order_facts.line_facts_sql(reading)
            return f"select * from ({facts}) order by hash(order_item_id, {order}) limit 1000000000"

        for module in FACT_USERS:
            monkeypatch.setattr(module, "order_facts_sql", order_facts)
            if hasattr(module, "line_facts_sql"):
                monkeypatch.setattr(module, "line_facts_sql", line_facts)
        for family, variant in cases:
            task = get_family(family).build(pristine, SEED, variant)
            assert _fields(task, ANSWER_FIELDS) == reference[(family, variant)], (family, order)
