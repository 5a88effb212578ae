"""Money movements after checkout: payment attempts and refunds.

Payments reproduce what a payment-service export looks like: one successful capture per order
in the common case, a failed attempt followed by a retry, gift card + card splits, and
payment-failure cancellations with no capture at all. Two kinds of dirt are injected on purpose
(see the ``ecommerce`` module docstring): duplicated captures and captures that do not add up to
the order total.

Refunds cover returns (full or partial), cancellations after capture and goodwill partial
refunds; a share arrives weeks or months late, often in a later quarter than the order.
Nothing dated after the as-of instant (2026-06-30 23:59:59 UTC) is emitted.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from replicas.generators.ecommerce import calendar as cal
from replicas.generators.ecommerce.catalog import CURRENCIES
from replicas.generators.ecommerce.customers import COUNTRIES
from replicas.generators.ecommerce.orders import (
    CANCELLED,
    COMPLETED,
    MARKETPLACE,
    RETURNED,
    OrderBook,
)
from replicas.seeding import table_rng

METHODS = ("card", "paypal", "apple_pay", "klarna", "bank_transfer", "gift_card", "marketplace")
CARD, GIFT_CARD, MARKETPLACE_PAYOUT = 0, 5, 6
# Shares of card/paypal/apple_pay/klarna/bank_transfer for the primary payment.
ANGLO_MIX = np.array([0.62, 0.20, 0.13, 0.05, 0.00])
CONTINENTAL_MIX = np.array([0.45, 0.25, 0.07, 0.13, 0.10])
RETRY_SHARE = 0.045
GIFT_SPLIT_SHARE = 0.05
GIFT_BALANCES = np.array([10.0, 20.0, 25.0, 50.0, 100.0])
DUPLICATE_PAYMENT_SHARE = 0.006
MISMATCH_SHARE = 0.004
MISMATCH_FACTORS = np.array([0.9, 0.95, 1.05, 1.1])

PARTIAL_RETURN_SHARE = 0.25
GOODWILL_SHARE = 0.025
LATE_RETURN_REFUND_SHARE = 0.06
LATE_GOODWILL_SHARE = 0.10
GOODWILL_REASONS = ("damaged_item", "late_delivery", "price_adjustment", "missing_item")
REFUND_REASONS = ("return", "order_cancelled", *GOODWILL_REASONS)

S = cal.US_PER_S
DAY = cal.US_PER_DAY


def build_payments(seed: int, book: OrderBook) -> pl.DataFrame:
    rng = table_rng(seed, "payments")
    n = book.size
    rows = np.arange(n)
    continental = np.array([c.continental for c in COUNTRIES])[book.country]
    method = np.where(
        continental,
        rng.choice(5, size=n, p=CONTINENTAL_MIX),
        rng.choice(5, size=n, p=ANGLO_MIX),
    )
    marketplace = book.channel == MARKETPLACE
    method = np.where(marketplace, MARKETPLACE_PAYOUT, method)
    never_paid = book.payment_failure_cancel
    retry = ~marketplace & ~never_paid & (rng.random(n) < RETRY_SHARE)
    split = ~marketplace & ~never_paid & (rng.random(n) < GIFT_SPLIT_SHARE)
    gift = np.where(split, np.minimum(rng.choice(GIFT_BALANCES, size=n), book.total), 0.0)
    main_amount = np.round(book.total - gift, 2)
    has_main = ~never_paid & (main_amount > 0.004)

    t_first = book.created_us + rng.integers(3, 30, size=n) * S
    t_retry = np.where(retry, rng.integers(40, 900, size=n) * S, 0)
    t_gift = t_first + t_retry
    t_main = t_gift + np.where(split, rng.integers(5, 30, size=n), 0) * S

    # Dirt: some captures disagree with the order total; a few are recorded twice.
    mismatch = has_main & (rng.random(n) < MISMATCH_SHARE)
    main_amount = np.where(
        mismatch, np.round(main_amount * rng.choice(MISMATCH_FACTORS, size=n), 2), main_amount
    )
    duplicate = has_main & (rng.random(n) < DUPLICATE_PAYMENT_SHARE)
    t_dup = t_main + rng.integers(1, 20, size=n) * S

    second_failure = never_paid & (rng.random(n) < 0.5)
    parts = [
        # (order rows, method, amount, succeeded, paid_at)
        (rows[retry | never_paid], method, book.total, False, t_first),
        (rows[second_failure], method, book.total, False, t_first + 60 * S),
        (rows[split & (gift > 0)], np.full(n, GIFT_CARD), gift, True, t_gift),
        (rows[has_main], method, main_amount, True, t_main),
        (rows[duplicate], method, main_amount, True, t_dup),
    ]
    order_row = np.concatenate([p[0] for p in parts])
    meth = np.concatenate([p[1][p[0]] for p in parts])
    amount = np.concatenate([p[2][p[0]] for p in parts])
    ok = np.concatenate([np.full(p[0].shape[0], p[3]) for p in parts])
    paid = np.minimum(np.concatenate([p[4][p[0]] for p in parts]), cal.END_US)
    by_time = np.lexsort((np.arange(paid.shape[0]), paid))

    order_row, meth, amount, ok, paid = (a[by_time] for a in (order_row, meth, amount, ok, paid))
    return pl.DataFrame(
        {
            "payment_id": np.arange(1, paid.shape[0] + 1, dtype=np.int64),
            "order_id": book.order_id[order_row],
            "method": pl.Series(METHODS).gather(meth),
            "amount": amount,
            "currency": pl.Series(CURRENCIES).gather(book.currency[order_row]),
            "status": pl.Series(["failed", "success"]).gather(ok.astype(np.int64)),
            "paid_at": cal.to_datetime(paid),
        }
    )


def build_refunds(seed: int, book: OrderBook) -> pl.DataFrame:
    rng = table_rng(seed, "refunds")
    n = book.size
    rows = np.arange(n)

    returned = book.status == RETURNED
    # Return and goodwill refunds cover merchandise value only (lines after discounts); tax and
    # shipping corrections are settled outside this system. Cancellations refund the full total.
    refundable = book.merchandise
    partial = rng.random(n) < PARTIAL_RETURN_SHARE
    return_amount = np.where(
        partial, np.round(refundable * rng.uniform(0.3, 0.8, size=n), 2), refundable
    )
    return_hours = np.clip(rng.lognormal(np.log(4 * 24.0), 0.6, size=n), 1, 480)
    late_return = rng.random(n) < LATE_RETURN_REFUND_SHARE
    return_delay = (return_hours * 3600).astype(np.int64) * S + np.where(
        late_return, rng.integers(30, 150, size=n) * DAY, 0
    )

    cancelled_paid = (book.status == CANCELLED) & ~book.payment_failure_cancel
    cancel_at = book.cancelled_us + rng.integers(10 * 60, 8 * 3600, size=n) * S

    goodwill = (book.status == COMPLETED) & (rng.random(n) < GOODWILL_SHARE)
    goodwill_amount = np.round(book.merchandise * rng.uniform(0.1, 0.4, size=n), 2)
    late_goodwill = rng.random(n) < LATE_GOODWILL_SHARE
    goodwill_at = (
        book.delivered_us
        + rng.integers(1, 20, size=n) * DAY
        + rng.integers(0, 86_400, size=n) * S
        + np.where(late_goodwill, rng.integers(30, 120, size=n) * DAY, 0)
    )
    goodwill_reason = 2 + rng.integers(0, len(GOODWILL_REASONS), size=n)

    parts = [
        (
            rows[returned],
            return_amount,
            np.zeros(n, dtype=np.int64),
            book.returned_us + return_delay,
        ),
        (rows[cancelled_paid], book.total, np.ones(n, dtype=np.int64), cancel_at),
        (rows[goodwill], goodwill_amount, goodwill_reason, goodwill_at),
    ]
    order_row = np.concatenate([p[0] for p in parts])
    amount = np.concatenate([p[1][p[0]] for p in parts])
    reason = np.concatenate([p[2][p[0]] for p in parts])
    at = np.concatenate([p[3][p[0]] for p in parts])
    happened = (at <= cal.END_US) & (amount > 0)
    order_row, amount, reason, at = (a[happened] for a in (order_row, amount, reason, at))
    by_time = np.lexsort((np.arange(at.shape[0]), at))
    order_row, amount, reason, at = (a[by_time] for a in (order_row, amount, reason, at))
    return pl.DataFrame(
        {
            "refund_id": np.arange(1, at.shape[0] + 1, dtype=np.int64),
            "order_id": book.order_id[order_row],
            "amount": amount,
            "currency": pl.Series(CURRENCIES).gather(book.currency[order_row]),
            "reason": pl.Series(REFUND_REASONS).gather(reason),
            "refunded_at": cal.to_datetime(at),
        }
    )
