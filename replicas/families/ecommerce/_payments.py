"""Duplicated payment captures, defined once for the families that need them.

A payment is a DUPLICATE when its status is 'success' and the previous successful payment of
the same order, method and amount (ordered by paid_at, then payment_id) was made at most
``WINDOW_SECONDS`` earlier — the dbt project's ``stg_payments.is_duplicate`` rule, restated on
the raw table so ground truth never depends on the model under test.
"""

from __future__ import annotations

from dataclasses import dataclass

from replicas.families.ecommerce._periods import Period

WINDOW_SECONDS = 60


@dataclass(frozen=True)
class DupReading:
    """Switches of the duplicate-capture rule (all off = the stated rule)."""

    include_originals: bool = False
    ignore_status: bool = False


def duplicate_payments_sql(period: Period | None, r: DupReading = DupReading()) -> str:
    """payment_ids of duplicate captures (paid in ``period``; None = all time)."""
    partition = "order_id, method, amount" + ("" if r.ignore_status else ", status")
    source = "raw.payments" if r.ignore_status else "raw.payments where status = 'success'"
    window = f"interval {WINDOW_SECONDS} second"
    is_copy = f"prev_at >= paid_at - {window}"
    if r.include_originals:
        is_copy += f" or next_at <= paid_at + {window}"
    when = (
        f"and paid_at >= timestamp '{period.start}' and paid_at < timestamp '{period.end}'"
        if period
        else ""
    )
    return f"""
        with ordered as (
            select payment_id, paid_at,
                   lag(paid_at) over w as prev_at,
                   lead(paid_at) over w as next_at
            from (select * from {source}) p
            window w as (partition by {partition} order by paid_at, payment_id)
        )
        select payment_id from ordered
        where ({is_copy}) {when}
        order by payment_id
    """
