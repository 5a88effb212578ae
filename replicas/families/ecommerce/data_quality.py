"""``ecommerce.data_quality-v1``: find the ids of dirty rows (set answer).

``-v2`` (core-v2): the same checks, the instruction stating the (exact) tolerance in the
grader's words.

Three checks, each defined exactly in the instruction:

* duplicated payments — a successful payment that repeats the previous successful payment of
  the same order, method and amount at most 60 seconds later (the later copy is the duplicate),
  for payments made in a period (UTC). Answer: payment_ids of the copies.
* orphaned order items — order lines whose order_id has no row in raw.orders. Answer:
  order_item_ids.
* payment mismatches — non-cancelled orders of real customers created in a period whose
  successful, de-duplicated payments differ from the order total (lines - discounts + shipping
  + tax, order currency) by more than half a cent. Answer: order_ids.

Wrong readings: originals listed with the copies, failed attempts treated like captures, order
ids instead of payment or line ids, duplicates not removed before summing, failed payments
summed, cancelled orders kept — and always "nothing found", so a period without dirt is never
asked. (A total without shipping and tax flags nearly every order; checking a list that long costs
seconds in the O(n²) item matcher, so that reading is not recorded.) (Test-account orders are excluded as in the marts, but the
generator never gives them a mismatch, so keeping them is not recorded as a reading.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from replicas.families.ecommerce._order_facts import cents
from replicas.families.ecommerce._payments import (
    WINDOW_SECONDS,
    DupReading,
    duplicate_payments_sql,
)
from replicas.families.ecommerce._periods import Period, PeriodKind, draw_period
from replicas.families.ecommerce._search import Candidate, search
from replicas.tasks import (
    BuildContext,
    Difficulty,
    Task,
    TaskFamily,
    VerifierConfig,
    register_family,
    sql,
    state_tolerance,
    submit,
)

Check = Literal["duplicate_payments", "orphan_items", "payment_mismatch"]
VERIFIER = VerifierConfig()


def orphan_items_sql(*, order_ids: bool = False) -> str:
    column = "distinct i.order_id" if order_ids else "i.order_item_id"
    return f"""
        select {column} as id
        from raw.order_items i
        left join raw.orders o on o.order_id = i.order_id
        where o.order_id is null
        order by 1
    """


@dataclass(frozen=True)
class MismatchReading:
    keep_duplicates: bool = False
    count_failed: bool = False
    include_cancelled: bool = False
    total_without_shipping_tax: bool = False


def payment_mismatch_sql(period: Period, r: MismatchReading = MismatchReading()) -> str:
    """order_ids whose counted payments differ from the order total by more than half a cent.

    Amounts are whole cents, summed and compared as exact DECIMALs (``cents``): the verdict
    cannot depend on the order DuckDB adds the payments or lines in.
    """
    dupes = "select -1 as payment_id" if r.keep_duplicates else duplicate_payments_sql(None)
    paid_status = "" if r.count_failed else "and p.status = 'success'"
    extras = (
        ""
        if r.total_without_shipping_tax
        else f" + {cents('o.shipping_amount')} + {cents('o.tax_amount')}"
    )
    status = "" if r.include_cancelled else "and o.status <> 'cancelled'"
    return f"""
        with dupes as ({dupes}),
        paid as (
            select p.order_id, sum({cents("p.amount")}) as paid
            from raw.payments p
            left join dupes d on d.payment_id = p.payment_id
            where d.payment_id is null {paid_status}
            group by p.order_id
        ),
        lines as (
            select order_id, sum({cents("round(quantity * unit_price, 2)")}) as items,
                   sum({cents("discount_amount")}) as discounts
            from raw.order_items group by order_id
        )
        select o.order_id
        from raw.orders o
        join raw.customers c on c.customer_id = o.customer_id
        left join lines l on l.order_id = o.order_id
        left join paid on paid.order_id = o.order_id
        where o.created_at >= timestamp '{period.start}' and o.created_at < timestamp '{period.end}'
          {status} and not c.is_test_account
          and abs(coalesce(paid.paid, 0)
                  - round(coalesce(l.items, 0) - coalesce(l.discounts, 0){extras}, 2)) > 0.005
        order by o.order_id
    """


@dataclass(frozen=True)
class Variant:
    check: Check
    period_kind: PeriodKind | None


VARIANTS: tuple[Variant, ...] = (
    Variant("duplicate_payments", "year"),
    Variant("orphan_items", None),
    Variant("payment_mismatch", "year"),
    Variant("duplicate_payments", "half"),
    Variant("payment_mismatch", "half"),
)
DIFFICULTY: dict[str, Difficulty] = {
    "duplicate_payments": "medium",
    "orphan_items": "easy",
    "payment_mismatch": "hard",
}


def _instruction(check: Check, period: Period | None) -> str:
    if check == "orphan_items":
        return (
            "Some order lines were loaded before their order header: find every orphaned order "
            "item, i.e. every row of raw.order_items whose order_id has no row in raw.orders.\n\n"
            "Submit the order_item_id values as a JSON array (any order), e.g. [12, 57]."
        )
    if period is None:
        raise ValueError(f"{check} needs a period")
    if check == "duplicate_payments":
        return (
            f"The payment provider sometimes records one capture twice. Find the duplicated "
            f"payments made in {period.describe()} (raw.payments.paid_at, UTC).\n\n"
            f"Definition: a payment is a DUPLICATE when its status is 'success' and the previous "
            f"successful payment of the same order_id with the same method and the same amount "
            f"(ordered by paid_at, then payment_id) was made at most {WINDOW_SECONDS} seconds "
            f"before it. The earlier payment is the original and is NOT a duplicate. Failed "
            f"payments are never duplicates and never originals.\n\n"
            f"Submit the payment_id values of the duplicates as a JSON array (any order), "
            f"e.g. [12, 57]."
        )
    return (
        f"Find the orders created in {period.describe()} (orders.created_at, UTC) whose "
        f"payments do not settle the order total.\n\n"
        f"Definitions:\n"
        f"- Orders checked: every order with status other than 'cancelled', excluding orders of "
        f"internal test accounts (raw.customers.is_test_account = true).\n"
        f"- Order total (order currency) = sum of round(quantity * unit_price, 2) of its lines "
        f"- sum of the lines' discount_amount + shipping_amount + tax_amount, rounded to cents.\n"
        f"- Paid amount = sum of amount of the order's payments with status 'success', after "
        f"removing duplicated captures (a successful payment repeating the previous successful "
        f"payment of the same order, method and amount at most {WINDOW_SECONDS} seconds later; "
        f"ordered by paid_at then payment_id; the later copy is the duplicate). An order without "
        f"successful payments has paid amount 0.\n"
        f"- Mismatch: |paid amount - order total| > 0.005.\n\n"
        f"Submit the order_id values of the mismatched orders as a JSON array (any order), "
        f"e.g. [100012, 100057]."
    )


@register_family
class DataQuality(TaskFamily):
    name = "ecommerce.data_quality-v1"
    replica = "ecommerce"
    description = "Ids of duplicated payments, orphaned order items or unsettled orders."
    difficulty = "medium"
    n_variants = 5

    def make(self, ctx: BuildContext) -> Task:
        rng = ctx.rng("params")
        v = VARIANTS[ctx.variant % len(VARIANTS)]

        def ids(query: str) -> list[int]:
            return [int(r[0]) for r in ctx.query(query)]

        def evaluate(period: Period | None) -> Candidate[Period | None]:
            readings: dict[str, list[int]] = {"nothing_found": []}
            if v.check == "orphan_items":
                readings["order_ids_instead_of_item_ids"] = ids(orphan_items_sql(order_ids=True))
                return Candidate(period, ids(orphan_items_sql()), readings)
            if period is None:
                raise ValueError(f"{v.check} needs a period")
            if v.check == "duplicate_payments":
                for name, r in {
                    "originals_listed_too": DupReading(include_originals=True),
                    "failed_attempts_not_excluded": DupReading(ignore_status=True),
                }.items():
                    readings[name] = ids(duplicate_payments_sql(period, r))
                readings["order_ids_instead_of_payment_ids"] = ids(
                    f"select distinct p.order_id from raw.payments p "
                    f"where p.payment_id in ({duplicate_payments_sql(period)}) order by 1"
                )
                return Candidate(period, ids(duplicate_payments_sql(period)), readings)
            for name, m in {
                "duplicates_not_removed": MismatchReading(keep_duplicates=True),
                "failed_payments_counted": MismatchReading(count_failed=True),
                "cancelled_included": MismatchReading(include_cancelled=True),
            }.items():
                readings[name] = ids(payment_mismatch_sql(period, m))
            return Candidate(period, ids(payment_mismatch_sql(period)), readings)

        def draw() -> Period | None:
            return draw_period(rng, v.period_kind) if v.period_kind else None

        chosen = search(draw, evaluate, kind="set", verifier=VERIFIER)
        period = chosen.params
        if v.check == "orphan_items":
            query = orphan_items_sql()
        elif v.check == "duplicate_payments":
            query = duplicate_payments_sql(period)
        else:
            if period is None:
                raise ValueError("payment_mismatch needs a period")
            query = payment_mismatch_sql(period)
        return ctx.task(
            instruction=_instruction(v.check, period),
            answer_kind="set",
            expected=chosen.expected,
            verifier=VERIFIER,
            oracle=(sql(query), submit(chosen.expected)),
            wrong_readings=dict(chosen.readings),
            difficulty=DIFFICULTY[v.check],
            metadata={"check": v.check, "period": period.label if period else None},
        )


@register_family
class DataQualityV2(DataQuality):
    name = "ecommerce.data_quality-v2"
    description = "Find the records breaking one data-quality rule; exact set stated."

    def make(self, ctx: BuildContext) -> Task:
        return state_tolerance(super().make(ctx))
