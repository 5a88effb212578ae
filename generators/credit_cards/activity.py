"""Card holdings and applications, consistent (mostly) with the eligibility rule.

``eligibility_reasons`` is the Python twin of the dbt ``card_eligibility`` rule; the generator
uses it to decide applications, the tests use it to check the decisions. Rules, first match wins:

1. ``already_holds_card``      the customer already holds this card;
2. ``student_only``            the card is student-only and the customer is not a student;
3. ``recent_bankruptcy``       a bankruptcy within the last 24 months and the card is not secured;
4. ``credit_score_below_min``  credit score below the card's minimum;
5. ``ok``                      eligible.

Customers apply to at most one card of each product; a declined eligible application carries an
issuer-discretion reason (inquiries, income, utilisation), and about 3 % of ineligible
applications are approved anyway (manual underwriting), so the data is realistic, not perfect.
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import polars as pl

from replicas.generators.credit_cards.people import AS_OF, WINDOW_START
from replicas.seeding import table_rng

ELIGIBILITY_REASONS: tuple[str, ...] = (
    "ok",
    "already_holds_card",
    "student_only",
    "recent_bankruptcy",
    "credit_score_below_min",
)
DISCRETIONARY_DECLINES: tuple[str, ...] = (
    "too_many_recent_inquiries",
    "insufficient_income",
    "high_utilisation",
)
DECLINE_REASONS: tuple[str, ...] = ELIGIBILITY_REASONS[2:] + DISCRETIONARY_DECLINES
RECENT_BANKRUPTCY_MONTHS = 24
EXCEPTION_APPROVAL_PROB = 0.03
ELIGIBLE_APPROVAL_PROB = 0.85
CHUNK_ROWS = 50_000  # customers per block, bounds the customer x card matrices at large scale

HOLDINGS_RATE_BY_TIER = np.array([0.4, 0.9, 1.5, 2.0, 2.5])
APPLICATION_RATE = 0.7
EARLIEST_OPENED = dt.date(2005, 1, 1)


def eligibility_reasons(
    customers: pl.DataFrame, cards: pl.DataFrame, holds: np.ndarray | None = None
) -> np.ndarray:
    """customers x cards matrix of indices into ``ELIGIBILITY_REASONS`` (0 = ok)."""
    score = customers["credit_score"].to_numpy()[:, None]
    student = customers["is_student"].to_numpy()[:, None]
    since = customers["months_since_bankruptcy"].fill_null(10**6).to_numpy()[:, None]
    min_score = cards["min_credit_score"].to_numpy()[None, :]
    student_only = cards["is_student_only"].to_numpy()[None, :]
    secured = cards["is_secured"].to_numpy()[None, :]

    reason = np.zeros((customers.height, cards.height), dtype=np.int8)
    rules = (
        (ELIGIBILITY_REASONS.index("credit_score_below_min"), score < min_score),
        (
            ELIGIBILITY_REASONS.index("recent_bankruptcy"),
            (since <= RECENT_BANKRUPTCY_MONTHS) & ~secured,
        ),
        (ELIGIBILITY_REASONS.index("student_only"), student_only & ~student),
    )
    for code, applies in rules:  # lowest priority first, so higher-priority rules overwrite
        reason = np.where(applies, np.int8(code), reason)
    if holds is not None:
        reason = np.where(holds, np.int8(ELIGIBILITY_REASONS.index("already_holds_card")), reason)
    return reason


def _top_k(rng: np.random.Generator, log_weights: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Boolean mask choosing ``k[i]`` distinct columns per row, by Gumbel top-k sampling."""
    keys = log_weights + rng.gumbel(size=log_weights.shape)
    order = np.argsort(-keys, axis=1, kind="stable")
    rank = np.empty_like(order)
    rows = np.arange(order.shape[0])[:, None]
    rank[rows, order] = np.arange(order.shape[1])[None, :]
    return rank < k[:, None]


def _days(date: dt.date) -> int:
    return (date - dt.date(1970, 1, 1)).days


def build_activity(
    seed: int, customers: pl.DataFrame, cards: pl.DataFrame
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``existing_cards`` (holdings opened before or during the window) and ``applications``."""
    held_rng = table_rng(seed, "existing_cards")
    app_rng = table_rng(seed, "applications")
    card_ids = cards["card_id"].to_numpy()
    tier_edges = np.array([580, 670, 740, 800])
    window_start, as_of = _days(WINDOW_START), _days(AS_OF)

    held_parts: list[pl.DataFrame] = []
    app_parts: list[pl.DataFrame] = []
    for start in range(0, customers.height, CHUNK_ROWS):
        block = customers.slice(start, CHUNK_ROWS)
        n = block.height
        ids = block["customer_id"].to_numpy()
        tier = np.searchsorted(tier_edges, block["credit_score"].to_numpy(), side="right")
        base = eligibility_reasons(block, cards)
        eligible = base == 0

        # Holdings opened before the window: mostly cards the customer qualifies for.
        history_start = as_of - (block["months_of_history"].to_numpy() * 30.44).astype(np.int64)
        first_day = np.maximum(history_start, _days(EARLIEST_OPENED))
        k_held = np.minimum(held_rng.poisson(HOLDINGS_RATE_BY_TIER[tier]), 4)
        k_held = np.where(first_day < window_start, k_held, 0)
        held = _top_k(held_rng, np.where(eligible, 0.0, np.log(0.05)), k_held)
        rows, cols = np.nonzero(held)
        span = np.maximum(window_start - first_day[rows], 1)
        opened = first_day[rows] + (held_rng.random(rows.size) * span).astype(np.int64)
        held_parts.append(_holdings_frame(ids[rows], card_ids[cols], opened, None))

        # Applications during the window, never for a card already held.
        k_apps = np.minimum(app_rng.poisson(APPLICATION_RATE, n), 4)
        log_w = np.where(held, -np.inf, np.where(eligible, 0.0, np.log(0.25)))
        k_apps = np.minimum(k_apps, (~held).sum(axis=1))
        applied = _top_k(app_rng, log_w, k_apps)
        rows, cols = np.nonzero(applied)
        applied_on = window_start + app_rng.integers(0, as_of - window_start + 1, rows.size)
        reason = base[rows, cols]
        exception = app_rng.random(rows.size) < EXCEPTION_APPROVAL_PROB
        discretionary = app_rng.random(rows.size) >= ELIGIBLE_APPROVAL_PROB
        approved = np.where(reason == 0, ~discretionary, exception)
        utilisation = block["utilisation_pct"].to_numpy()[rows]
        discretionary_reason = np.where(
            utilisation > 60.0,
            "high_utilisation",
            np.array(DISCRETIONARY_DECLINES[:2])[app_rng.integers(0, 2, rows.size)],
        )
        decline_reason = np.where(
            reason == 0, discretionary_reason, np.array(ELIGIBILITY_REASONS)[reason]
        )
        app_parts.append(
            pl.DataFrame(
                {
                    "customer_id": ids[rows],
                    "card_id": card_ids[cols],
                    "applied_on": applied_on,
                    "approved": approved,
                    "decline_reason": decline_reason,
                    "opened_on": np.minimum(applied_on + app_rng.integers(3, 15, rows.size), as_of),
                }
            )
        )

    applications = (
        pl.concat(app_parts)
        .sort("applied_on", "customer_id", "card_id")
        .with_row_index("application_id", offset=1)
        .with_columns(
            pl.col("application_id").cast(pl.Int64),
            pl.col("applied_on").cast(pl.Int32).cast(pl.Date),
            pl.when(pl.col("approved"))
            .then(pl.lit("approved"))
            .otherwise(pl.lit("declined"))
            .alias("decision"),
            pl.when(pl.col("approved"))
            .then(None)
            .otherwise(pl.col("decline_reason"))
            .alias("decline_reason"),
        )
    )
    from_apps = applications.filter(pl.col("approved"))
    held_parts.append(
        _holdings_frame(
            from_apps["customer_id"].to_numpy(),
            from_apps["card_id"].to_numpy(),
            from_apps["opened_on"].to_numpy(),
            from_apps["application_id"].to_numpy(),
        )
    )
    existing = pl.concat(held_parts).sort("customer_id", "opened_on", "card_id")
    applications = applications.select(
        "application_id", "customer_id", "card_id", "applied_on", "decision", "decline_reason"
    )
    return existing, applications


def _holdings_frame(
    customer_ids: np.ndarray,
    card_ids: np.ndarray,
    opened_days: np.ndarray,
    application_ids: np.ndarray | None,
) -> pl.DataFrame:
    """Rows of ``existing_cards``; ``application_id`` is NULL for cards opened before the window."""
    return pl.DataFrame(
        {
            "customer_id": customer_ids.astype(np.int64),
            "card_id": card_ids.astype(str),
            "opened_on": pl.Series(opened_days.astype(np.int64)).cast(pl.Int32).cast(pl.Date),
            "application_id": pl.Series(
                application_ids if application_ids is not None else [None] * len(customer_ids),
                dtype=pl.Int64,
            ),
        }
    )
