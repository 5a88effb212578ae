"""Customers with credit histories, and their monthly spend by category.

Everything is drawn column-wise with numpy: one credit tier per customer first, then every other
attribute conditioned on that tier (income, utilisation, history length, delinquencies,
bankruptcies), so the attributes correlate the way a bureau file does.
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import polars as pl
from faker import Faker

from replicas.generators.credit_cards.profiles import SPEND_CATEGORIES
from replicas.seeding import table_rng

WINDOW_START = dt.date(2024, 7, 1)
WINDOW_MONTHS = 24
AS_OF = dt.date(2026, 6, 30)

CREDIT_TIERS: tuple[tuple[str, int, int], ...] = (
    ("poor", 300, 579),
    ("fair", 580, 669),
    ("good", 670, 739),
    ("very_good", 740, 799),
    ("excellent", 800, 850),
)
# Shares close to the published FICO distribution of US consumers.
TIER_SHARES = np.array([0.14, 0.17, 0.22, 0.25, 0.22])
STUDENT_TIER_SHARES = np.array([0.10, 0.45, 0.35, 0.10, 0.0])
STUDENT_SHARE = 0.08

INCOME_BANDS: tuple[str, ...] = (
    "under_25k",
    "25k_50k",
    "50k_75k",
    "75k_100k",
    "100k_150k",
    "150k_plus",
)
INCOME_BY_TIER = np.array(
    [
        [0.25, 0.32, 0.22, 0.11, 0.07, 0.03],
        [0.15, 0.28, 0.25, 0.16, 0.11, 0.05],
        [0.08, 0.20, 0.25, 0.20, 0.17, 0.10],
        [0.05, 0.14, 0.22, 0.22, 0.22, 0.15],
        [0.03, 0.10, 0.18, 0.22, 0.25, 0.22],
    ]
)
STUDENT_INCOME = np.array([0.60, 0.30, 0.08, 0.02, 0.0, 0.0])
MONTHLY_SPEND_MEDIAN_BY_BAND = np.array([700.0, 1200.0, 1800.0, 2500.0, 3400.0, 5200.0])

UTILISATION_BETA = np.array([[4.0, 2.0], [3.0, 3.0], [2.0, 5.0], [1.5, 8.0], [1.0, 12.0]])
HISTORY_MEAN_MONTHS = np.array([90.0, 110.0, 140.0, 180.0, 230.0])
DELINQUENCY_RATE = np.array([1.8, 0.7, 0.15, 0.04, 0.01])
BANKRUPTCY_PROB = np.array([0.18, 0.06, 0.015, 0.003, 0.0])

# Category order = SPEND_CATEGORIES (groceries, dining, travel, gas, online, other).
CATEGORY_ALPHA = np.array([5.0, 3.0, 1.5, 2.5, 3.0, 5.0]) * 2.0
TRAVEL_INDEX = SPEND_CATEGORIES.index("travel")
ONLINE_INDEX = SPEND_CATEGORIES.index("online")

US_STATES: tuple[tuple[str, float], ...] = (
    ("CA", 39.5), ("TX", 29.1), ("FL", 21.5), ("NY", 20.2), ("PA", 13.0), ("IL", 12.8),
    ("OH", 11.8), ("GA", 10.7), ("NC", 10.4), ("MI", 10.1), ("NJ", 9.3), ("VA", 8.6),
    ("WA", 7.7), ("AZ", 7.2), ("MA", 7.0), ("TN", 6.9), ("IN", 6.8), ("MD", 6.2),
    ("MO", 6.2), ("WI", 5.9), ("CO", 5.8), ("MN", 5.7), ("SC", 5.1), ("AL", 5.0),
    ("LA", 4.7), ("KY", 4.5), ("OR", 4.2), ("OK", 4.0), ("CT", 3.6), ("UT", 3.3),
    ("IA", 3.2), ("NV", 3.1), ("AR", 3.0), ("MS", 3.0), ("KS", 2.9), ("NM", 2.1),
    ("NE", 2.0), ("ID", 1.8), ("WV", 1.8), ("HI", 1.5), ("NH", 1.4), ("ME", 1.4),
    ("RI", 1.1), ("MT", 1.1), ("DE", 1.0), ("SD", 0.9), ("ND", 0.8), ("AK", 0.7),
    ("DC", 0.7), ("VT", 0.6), ("WY", 0.6),
)  # fmt: skip


def customer_count(scale: float) -> int:
    """~100k customers at scale 1.0, never fewer than 100."""
    return max(100, round(100_000 * scale))


def month_starts() -> np.ndarray:
    """First day of each of the 24 months of the spend window, as datetime64[D]."""
    start = np.datetime64(WINDOW_START.strftime("%Y-%m"), "M")
    return (start + np.arange(WINDOW_MONTHS)).astype("datetime64[D]")


def _name_vocabulary(seed: int) -> tuple[list[str], list[str]]:
    """Small seeded first/last-name vocabularies; rows then index into them with numpy."""
    fake = Faker("en_US", use_weighting=False)
    fake.seed_instance(seed)
    first = list(dict.fromkeys(fake.first_name() for _ in range(600)))
    last = list(dict.fromkeys(fake.last_name() for _ in range(900)))
    return first, last


def _categorical(rng: np.random.Generator, probs: np.ndarray) -> np.ndarray:
    """One category index per row of ``probs`` (rows sum to 1), vectorised."""
    cumulative = np.cumsum(probs, axis=1)
    draws = np.asarray(rng.random(probs.shape[0]))[:, None]
    return np.minimum((draws > cumulative).sum(axis=1), probs.shape[1] - 1)


def _scores_within_tier(rng: np.random.Generator, tier: np.ndarray) -> np.ndarray:
    """A score inside each customer's tier band; "poor" leans towards its upper end."""
    lows = np.array([t[1] for t in CREDIT_TIERS])
    highs = np.array([t[2] for t in CREDIT_TIERS])
    width = (highs - lows + 1)[tier]
    position = np.where(tier == 0, rng.beta(4.0, 1.6, tier.size), rng.random(tier.size))
    position = np.where(tier == 4, rng.beta(1.2, 2.0, tier.size), position)
    return lows[tier] + np.minimum((position * width).astype(np.int64), width - 1)


def build_customers(seed: int, scale: float) -> pl.DataFrame:
    """One row per customer: identity, bureau attributes, income band, student status."""
    rng = table_rng(seed, "customers")
    n = customer_count(scale)
    first_names, last_names = _name_vocabulary(seed)
    is_student = rng.random(n) < STUDENT_SHARE
    tier = np.where(
        is_student,
        rng.choice(len(CREDIT_TIERS), size=n, p=STUDENT_TIER_SHARES),
        rng.choice(len(CREDIT_TIERS), size=n, p=TIER_SHARES),
    )
    score = _scores_within_tier(rng, tier)
    income_probs = np.where(is_student[:, None], STUDENT_INCOME[None, :], INCOME_BY_TIER[tier])
    income = _categorical(rng, income_probs)

    beta = UTILISATION_BETA[tier]
    utilisation = np.round(rng.beta(beta[:, 0], beta[:, 1]) * 100.0, 1)
    history = np.where(
        is_student,
        rng.integers(6, 73, n),
        np.clip(rng.gamma(3.0, HISTORY_MEAN_MONTHS[tier] / 3.0), 6, 600).astype(np.int64),
    )
    delinquencies = rng.poisson(DELINQUENCY_RATE[tier])
    bankrupt = (rng.random(n) < BANKRUPTCY_PROB[tier]) & ~is_student
    bankruptcies = np.where(bankrupt, 1 + (rng.random(n) < 0.1), 0)
    since = np.minimum(rng.integers(1, 121, n), history)

    states = np.array([s for s, _ in US_STATES])
    weights = np.array([w for _, w in US_STATES])
    return pl.DataFrame(
        {
            "customer_id": np.arange(1, n + 1, dtype=np.int64),
            "first_name": np.array(first_names)[rng.integers(0, len(first_names), n)],
            "last_name": np.array(last_names)[rng.integers(0, len(last_names), n)],
            "state": states[rng.choice(states.size, size=n, p=weights / weights.sum())],
            "credit_score": score.astype(np.int64),
            "income_band": np.array(INCOME_BANDS)[income],
            "utilisation_pct": utilisation,
            "months_of_history": history.astype(np.int64),
            "delinquencies_24m": delinquencies.astype(np.int64),
            "bankruptcies": bankruptcies.astype(np.int64),
            "months_since_bankruptcy": since.astype(np.int64),
            "is_student": is_student,
        }
    ).with_columns(pl.when(pl.col("bankruptcies") > 0).then(pl.col("months_since_bankruptcy")))


def build_card_spend(seed: int, customers: pl.DataFrame) -> pl.DataFrame:
    """24 months x 6 categories of spend per customer (a full grid; months without spend are 0).

    Each customer has a size (income band x lognormal) and a Dirichlet category mix; months add
    seasonality (holiday online spend) and noise; travel is lumpy (trips in some months only,
    scaled so the expected yearly travel spend is unchanged).
    """
    rng = table_rng(seed, "card_spend")
    n = customers.height
    bands = customers["income_band"].cast(pl.Enum(list(INCOME_BANDS))).to_physical().to_numpy()
    size = MONTHLY_SPEND_MEDIAN_BY_BAND[bands] * rng.lognormal(0.0, 0.4, n)
    size = np.where(customers["is_student"].to_numpy(), size * 0.6, size)
    shares = rng.dirichlet(CATEGORY_ALPHA, size=n)

    months = month_starts()
    calendar_month = months.astype("datetime64[M]").astype(np.int64) % 12 + 1
    season = np.ones((WINDOW_MONTHS, len(SPEND_CATEGORIES)))
    season[calendar_month == 12, :] *= 1.2
    season[calendar_month == 11, ONLINE_INDEX] *= 1.4
    season[calendar_month == 12, ONLINE_INDEX] *= 1.6
    season[np.isin(calendar_month, (6, 7, 8)), TRAVEL_INDEX] *= 1.4

    noise = rng.lognormal(-0.03, 0.25, (n, WINDOW_MONTHS, len(SPEND_CATEGORIES)))
    trip_prob = rng.beta(2.0, 4.0, n)
    trips = rng.random((n, WINDOW_MONTHS)) < trip_prob[:, None]
    lumpy = np.ones((n, WINDOW_MONTHS, len(SPEND_CATEGORIES)))
    lumpy[:, :, TRAVEL_INDEX] = trips / trip_prob[:, None]
    amount = size[:, None, None] * shares[:, None, :] * season[None, :, :] * noise * lumpy

    customer_ids = customers["customer_id"].to_numpy()
    return pl.DataFrame(
        {
            "customer_id": np.repeat(customer_ids, WINDOW_MONTHS * len(SPEND_CATEGORIES)),
            "month": np.tile(np.repeat(months, len(SPEND_CATEGORIES)), n),
            # gather from a 6-value Series: building 10^7 strings from numpy is ~10x slower
            "category": pl.Series(SPEND_CATEGORIES).gather(
                np.tile(np.arange(len(SPEND_CATEGORIES), dtype=np.uint32), n * WINDOW_MONTHS)
            ),
            "amount_usd": np.round(amount.reshape(-1), 2),
        }
    ).with_columns(pl.col("month").cast(pl.Date))
