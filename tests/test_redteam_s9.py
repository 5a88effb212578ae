"""Red team, session 9: one regression test per attack that worked, replayed where the agent acts.

Each test fails on the code before its fix (or is a strict xfail naming the fix still to make):

* layer 10's row bound counted a graded view's rows with one query and fetched them with
  another; a view can tell the two apart (``current_query()``) and answer the count with 3 rows
  and the fetch with millions (2,000,003 rows, 1.6 GB of the grading process's memory, in a
  ``toy.fix-v1`` episode).
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from replicas.tasks import VerifierConfig
from replicas.tasks.grading import _compare_models


def _lying_view(warehouse: Path, rows: int) -> None:
    """``main.thing_totals`` as a view holding the 2 reference rows when counted and ``rows``
    more when fetched: what an agent's ``{{ config(materialized='view') }}`` model builds."""
    con = duckdb.connect(str(warehouse))
    con.execute(
        "create view main.thing_totals as "
        "select * from (values ('a', 1, 1.0), ('b', 2, 2.0)) t(kind, n, total) union all "
        "select 'z' || range::varchar, 1, 1.0 from range("
        f"case when current_query() ilike '%count(%' then 0 else {rows} end)"
    )
    con.close()


def test_a_graded_view_cannot_answer_the_row_count_and_the_fetch_differently(
    tmp_path: Path,
) -> None:
    warehouse = tmp_path / "warehouse.duckdb"
    rows = 200_000
    _lying_view(warehouse, rows)
    counted = duckdb.connect(str(warehouse), read_only=True)
    try:  # the premise: the view really answers the two queries differently
        assert counted.execute("select count(*) from main.thing_totals").fetchone() == (2,)
        assert len(counted.execute("select * from main.thing_totals").fetchall()) == rows + 2
    finally:
        counted.close()
    config = VerifierConfig(dbt_models=("thing_totals",), key_columns=("kind",), abs_tol=1e-6)
    reference = {"columns": ["kind", "n", "total"], "rows": [["a", 1, 1.0], ["b", 2, 2.0]]}
    reasons, objective = _compare_models(config, warehouse, lambda _sql: reference)
    assert objective == {"thing_totals": 0.0}
    assert [r.code for r in reasons] == ["too_many_rows"]
    # no more than one row past the bound (10 x 2 + 1000) was loaded to find out
    assert reasons[0].found == 10 * 2 + 1000 + 1
