"""The ecommerce time axis: which days and hours orders and sessions fall on.

All demand shapes the task authors test live here, in one place, as multiplicative day weights:
a growth trend over the 30 months, a weekly cycle, a Q4 peak with Black Friday / Cyber Monday
spikes and a post-Christmas lull. Sampling a timestamp is then one inverse-CDF draw for the day
and one for the hour, so every table that samples from this calendar shows the same seasonality.

Timestamps are naive UTC, represented internally as int64 microseconds since the Unix epoch.
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache

import numpy as np

from replicas.generators.ecommerce.sampling import TableSampler, sampler

START_DATE = dt.date(2024, 1, 1)
END_DATE = dt.date(2026, 6, 30)  # inclusive: the last second is 2026-06-30 23:59:59
N_DAYS = (END_DATE - START_DATE).days + 1

US_PER_S = 1_000_000
US_PER_DAY = 86_400 * US_PER_S
START_US = int(np.datetime64(START_DATE.isoformat(), "us").astype(np.int64))
END_US = START_US + N_DAYS * US_PER_DAY - US_PER_S  # last representable second, inclusive

# Annual growth of underlying demand: ~ +50 %/year makes 2026 H1 clearly larger than 2024 H1.
GROWTH_PER_YEAR = np.log(1.5)
# Monday … Sunday. Shoppers buy most on Sunday evening and Monday, least on Friday/Saturday.
WEEKDAY_FACTOR = np.array([1.08, 1.03, 1.00, 0.97, 0.90, 0.86, 1.12])
# January … December: a post-holiday slump, a flat summer and a strong Q4.
MONTH_FACTOR = np.array([0.86, 0.88, 0.96, 0.95, 0.99, 0.96, 0.97, 0.99, 0.96, 1.03, 1.32, 1.42])
# UTC hour of day. The store sells in North America and Europe, so the curve has a European
# evening shoulder (17–21 UTC) and a North-American evening peak (22–03 UTC).
HOUR_WEIGHTS = np.array(
    [1.30, 1.25, 1.10, 0.85, 0.55, 0.35, 0.25, 0.25, 0.35, 0.50, 0.65, 0.75,
     0.85, 0.95, 1.00, 1.05, 1.10, 1.20, 1.30, 1.35, 1.35, 1.30, 1.30, 1.35]
)  # fmt: skip


def black_friday(year: int) -> dt.date:
    """The day after the fourth Thursday of November (US Thanksgiving)."""
    first = dt.date(year, 11, 1)
    first_thursday = first + dt.timedelta(days=(3 - first.weekday()) % 7)
    return first_thursday + dt.timedelta(days=22)


def cyber_monday(year: int) -> dt.date:
    return black_friday(year) + dt.timedelta(days=3)


def day_index(day: dt.date) -> int:
    return (day - START_DATE).days


def _event_multipliers() -> np.ndarray:
    """Extra demand on named shopping days, on top of the month and weekday factors."""
    mult = np.ones(N_DAYS)
    for year in range(START_DATE.year, END_DATE.year + 1):
        bf = black_friday(year)
        spikes = {
            bf - dt.timedelta(days=7): 1.25,
            bf - dt.timedelta(days=6): 1.25,
            bf - dt.timedelta(days=5): 1.30,
            bf - dt.timedelta(days=4): 1.30,
            bf - dt.timedelta(days=3): 1.35,
            bf - dt.timedelta(days=2): 1.40,
            bf - dt.timedelta(days=1): 1.50,  # Thanksgiving
            bf: 3.40,
            bf + dt.timedelta(days=1): 2.00,
            bf + dt.timedelta(days=2): 1.80,
            bf + dt.timedelta(days=3): 2.90,  # Cyber Monday
            bf + dt.timedelta(days=4): 1.40,
            dt.date(year, 12, 24): 0.80,
            dt.date(year, 12, 25): 0.55,
            dt.date(year, 12, 26): 0.95,
        }
        # Last shipping week before Christmas.
        for d in range(14, 22):
            spikes[dt.date(year, 12, d)] = 1.20
        for day, factor in spikes.items():
            if START_DATE <= day <= END_DATE:
                mult[day_index(day)] *= factor
    return mult


@lru_cache(maxsize=1)
def day_weights() -> np.ndarray:
    """Normalised demand per day (length ``N_DAYS``); read-only, shared by every table."""
    days = np.arange(N_DAYS)
    dates = np.datetime64(START_DATE.isoformat(), "D") + days
    weekday = (dates.astype(np.int64) + 3) % 7  # 1970-01-01 was a Thursday (weekday 3)
    month = dates.astype("datetime64[M]").astype(np.int64) % 12
    growth = np.exp(GROWTH_PER_YEAR * days / 365.25)
    w = growth * WEEKDAY_FACTOR[weekday] * MONTH_FACTOR[month] * _event_multipliers()
    w = w / w.sum()
    w.setflags(write=False)
    return w


@lru_cache(maxsize=1)
def _day_sampler() -> TableSampler:
    return sampler(day_weights())


@lru_cache(maxsize=1)
def _hour_sampler() -> TableSampler:
    return sampler(HOUR_WEIGHTS, bits=16)


def sample_days(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` day indices (0 = 2024-01-01) drawn from the demand curve."""
    return _day_sampler().sample(rng, n)


def sample_seconds_of_day(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` offsets into a day in whole seconds, following the hourly profile."""
    return _hour_sampler().sample(rng, n) * 3600 + rng.integers(0, 3600, size=n)


def sample_timestamps(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` int64 microsecond timestamps inside the window, shaped by day and hour demand."""
    days = sample_days(rng, n)
    return START_US + days * US_PER_DAY + sample_seconds_of_day(rng, n) * US_PER_S


def to_datetime(us: np.ndarray) -> np.ndarray:
    """int64 microseconds → ``datetime64[us]`` (polars maps this to ``Datetime("us")``)."""
    return us.astype("datetime64[us]")


def day_of(us: np.ndarray) -> np.ndarray:
    """Day index (0 = 2024-01-01) of int64 microsecond timestamps; may fall outside the window."""
    return (us - START_US) // US_PER_DAY
