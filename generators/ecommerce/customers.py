"""Who buys when: the order timeline, the customer behind each order, and the customers table.

Order times are drawn first, straight from the demand calendar, so the weekly cycle, the Q4 peak
and the growth trend show exactly as designed. Customers are then attached in time order with a
vectorised Simon process: each order is a first order (new customer) with probability
``NEW_CUSTOMER_SHARE``; otherwise it repeats either the customer of a uniformly chosen earlier
order (preferential attachment → heavy tail) or a uniformly chosen earlier customer (keeps the
tail realistic, max ≈ a few dozen orders). Chains are resolved by pointer jumping, so the whole
assignment is a handful of numpy passes. Signup precedes the first order by design.

Internal test accounts (QA) are a separate stream with their own order pattern.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from replicas.generators.ecommerce import calendar as cal
from replicas.generators.ecommerce.catalog import CURRENCIES
from replicas.generators.ecommerce.sampling import choose
from replicas.generators.vocab import ascii_slug, person_names
from replicas.seeding import table_rng

STORE_DOMAIN = "lumenmarket.com"
NEW_CUSTOMER_SHARE = 0.45
PREFERENTIAL_SHARE = 0.5
# The store existed before the window: a burn-in history of this many orders per window order
# (spread over the two prior years, then discarded) gives 2024 a realistic base of returning
# customers instead of letting the first customers of 2024-01-01 hoard repeat orders.
HISTORY_SHARE = 0.5
HISTORY_DAYS = 730
NON_BUYER_SHARE = 0.10  # registered customers who never ordered, relative to buyers
TEST_ACCOUNT_SHARE = 0.007
NAMES_PER_COUNTRY = 150


@dataclass(frozen=True)
class Country:
    code: str
    locale: str
    currency: str
    share: float
    email_domains: tuple[str, ...]
    continental: bool  # payment-method mix: bank transfer / Klarna popular

    def __post_init__(self) -> None:
        if len(self.code) != 2 or self.currency not in CURRENCIES or not 0 < self.share < 1:
            raise ValueError(f"bad country {self.code!r}")


_GLOBAL_MAIL = ("gmail.com", "outlook.com", "yahoo.com", "icloud.com")
COUNTRIES: tuple[Country, ...] = (
    Country("US", "en_US", "USD", 0.46, (*_GLOBAL_MAIL, "aol.com", "hotmail.com"), False),
    Country("CA", "en_CA", "CAD", 0.08, (*_GLOBAL_MAIL, "shaw.ca"), False),
    Country("GB", "en_GB", "GBP", 0.13, (*_GLOBAL_MAIL, "hotmail.co.uk", "btinternet.com"), False),
    Country("IE", "en_IE", "EUR", 0.02, (*_GLOBAL_MAIL, "eircom.net"), False),
    Country("DE", "de_DE", "EUR", 0.10, ("gmail.com", "web.de", "gmx.de", "t-online.de"), True),
    Country("FR", "fr_FR", "EUR", 0.07, ("gmail.com", "orange.fr", "free.fr", "laposte.net"), True),
    Country("NL", "nl_NL", "EUR", 0.04, ("gmail.com", "ziggo.nl", "kpnmail.nl"), True),
    Country("ES", "es_ES", "EUR", 0.04, ("gmail.com", "hotmail.es", "telefonica.net"), True),
    Country("IT", "it_IT", "EUR", 0.03, ("gmail.com", "libero.it", "virgilio.it"), True),
    Country("BE", "nl_BE", "EUR", 0.02, ("gmail.com", "telenet.be", "skynet.be"), True),
    Country("AT", "de_AT", "EUR", 0.01, ("gmail.com", "gmx.at", "aon.at"), True),
)

ACQUISITION_CHANNELS = (
    "organic_search", "paid_search", "social", "email", "referral", "affiliate", "direct",
)  # fmt: skip
ACQUISITION_WEIGHTS = np.array([0.28, 0.20, 0.15, 0.07, 0.08, 0.07, 0.15])


@dataclass(frozen=True)
class OrderTimeline:
    """Orders (organic and QA), sorted by time; ``customer`` indexes ``Customers`` rows."""

    created_us: np.ndarray
    customer: np.ndarray
    is_first_order: np.ndarray  # the customer's first order in the data


@dataclass(frozen=True)
class Customers:
    frame: pl.DataFrame  # the raw ``customers`` table, row i has customer_id i + 1
    country: np.ndarray  # index into COUNTRIES
    signup_us: np.ndarray
    is_test: np.ndarray


def _simon_customers(rng: np.random.Generator, n: int) -> np.ndarray:
    """For ``n`` time-ordered orders, the index of the first order of their customer."""
    idx = np.arange(n)
    is_new = rng.random(n) < NEW_CUSTOMER_SHARE
    is_new[0] = True
    roots = np.flatnonzero(is_new)
    # Customers that exist strictly before order i (≥ 1 for every i > 0, as order 0 is new).
    roots_before: np.ndarray = np.cumsum(is_new) - is_new
    preferential = rng.random(n) < PREFERENTIAL_SHARE
    u = rng.random(n)
    earlier_order = (u * idx).astype(np.int64)
    earlier_customer = roots[np.minimum((u * roots_before).astype(np.int64), len(roots) - 1)]
    parent = np.where(is_new, idx, np.where(preferential, earlier_order, earlier_customer))
    # Every parent is an earlier order, so pointer jumping reaches the chain's root in O(log n).
    while True:
        grand = parent[parent]
        if np.array_equal(grand, parent):
            return parent
        parent = grand


def _signup_delay_us(rng: np.random.Generator, n: int) -> np.ndarray:
    """How long before the first order each buyer registered."""
    kind = choose(rng, [0.55, 0.30, 0.15], n)
    at_checkout = rng.integers(2 * 60, 40 * 60, size=n)  # seconds
    weeks = rng.exponential(20 * 86_400, size=n).astype(np.int64)
    long_ago = rng.integers(0, 900 * 86_400, size=n)
    seconds = np.select([kind == 0, kind == 1], [at_checkout, weeks], long_ago)
    return seconds * cal.US_PER_S


def _qa_accounts(rng: np.random.Generator, n_test: int) -> tuple[np.ndarray, ...]:
    """(signup per account, owning account per QA order, QA order times).

    QA staff test in business hours (13–21 UTC), one to six orders per account spread
    uniformly over the window — unlike shoppers, with no seasonality.
    """
    signup = (
        cal.START_US
        + rng.integers(-120, cal.N_DAYS // 2, size=n_test) * cal.US_PER_DAY
        + rng.integers(13 * 3600, 21 * 3600, size=n_test) * cal.US_PER_S
    )
    owner = np.repeat(np.arange(n_test), rng.integers(1, 7, size=n_test))
    lo = np.maximum(signup[owner], cal.START_US)
    span_days = (cal.END_US - lo) // cal.US_PER_DAY
    created = (
        lo
        - (lo - cal.START_US) % cal.US_PER_DAY
        + (rng.random(owner.shape[0]) * span_days).astype(np.int64) * cal.US_PER_DAY
        + rng.integers(13 * 3600, 21 * 3600, size=owner.shape[0]) * cal.US_PER_S
    )
    created = np.clip(np.maximum(created, lo + 60 * cal.US_PER_S), None, cal.END_US)
    return signup, owner, created


def build_timeline_and_customers(seed: int, n_orders: int) -> tuple[OrderTimeline, Customers]:
    rng = table_rng(seed, "customers")
    order_rng = table_rng(seed, "orders", "timeline")

    # --- organic orders (after a discarded burn-in history) and their buyers
    n_hist = round(HISTORY_SHARE * n_orders)
    history = (
        cal.START_US - order_rng.integers(1, HISTORY_DAYS * 86_400, size=n_hist) * cal.US_PER_S
    )
    created_all = np.concatenate(
        [np.sort(history), np.sort(cal.sample_timestamps(order_rng, n_orders))]
    )
    root = _simon_customers(order_rng, n_hist + n_orders)
    is_first_all = root == np.arange(n_hist + n_orders)
    buyer_first_us = created_all[is_first_all]  # lapsed customers: first order before 2024
    n_buyers = buyer_first_us.shape[0]
    buyer_of_order = (np.cumsum(is_first_all)[root] - 1)[n_hist:]
    is_first = is_first_all[n_hist:]
    created = created_all[n_hist:]
    buyer_signup = buyer_first_us - _signup_delay_us(rng, n_buyers)

    # --- registered but never ordered
    n_idle = round(NON_BUYER_SHARE * n_buyers)
    idle_signup = cal.sample_timestamps(rng, n_idle)
    pre_window = rng.random(n_idle) < 0.10
    idle_signup[pre_window] -= rng.integers(1, 700, size=int(pre_window.sum())) * cal.US_PER_DAY

    # --- internal QA accounts and their orders
    n_test = max(3, round(TEST_ACCOUNT_SHARE * (n_buyers + n_idle)))
    test_signup, test_owner, test_created = _qa_accounts(rng, n_test)

    # --- all customers, numbered by signup time
    signup = np.concatenate([buyer_signup, idle_signup, test_signup])
    is_test = np.zeros(signup.shape[0], dtype=bool)
    is_test[n_buyers + n_idle :] = True
    by_signup = np.argsort(signup, kind="stable")
    rank = np.empty_like(by_signup)
    rank[by_signup] = np.arange(by_signup.shape[0])

    # --- all orders, in time order
    order_customer = np.concatenate([rank[buyer_of_order], rank[n_buyers + n_idle + test_owner]])
    all_created = np.concatenate([created, test_created])
    test_first = np.zeros(test_owner.shape[0], dtype=bool)
    by_time = np.argsort(all_created, kind="stable")
    first_flag = np.concatenate([is_first, test_first])[by_time]
    order_customer = order_customer[by_time]
    # QA accounts: first order is whichever of theirs comes first.
    qa_orders = np.flatnonzero(is_test[by_signup][order_customer])
    qa_customers = order_customer[qa_orders]
    _, first_pos = np.unique(qa_customers, return_index=True)
    first_flag[qa_orders[first_pos]] = True

    timeline = OrderTimeline(
        created_us=all_created[by_time], customer=order_customer, is_first_order=first_flag
    )
    customers = _customer_frame(seed, rng, signup[by_signup], is_test[by_signup])
    return timeline, customers


def _email_clashes(
    first_slugs: list[str],
    last_slugs: list[str],
    first_idx: np.ndarray,
    last_idx: np.ndarray,
    domain_id: np.ndarray,
    pattern: np.ndarray,
    digits: np.ndarray,
) -> np.ndarray:
    """Which customers would share an email address with someone else.

    Real stores enforce unique emails. Every pattern (``f.l``, ``f.l<dd>``, ``<initial>l``,
    ``f_l<dd>``) splits unambiguously (slugs are alphanumeric; only patterns 1/3 end in digits,
    only 0/1 contain a dot), so two addresses are equal exactly when this packed integer key is:
    no string hashing needed.
    """
    _, first_slug_id = np.unique(first_slugs, return_inverse=True)
    _, last_slug_id = np.unique(last_slugs, return_inverse=True)
    initial = np.array([ord(f[0]) for f in first_slugs])
    first_key = np.where(pattern == 2, initial[first_idx], 128 + first_slug_id[first_idx])
    key = (
        ((first_key.astype(np.int64) * 4096 + last_slug_id[last_idx]) * 64 + domain_id) * 4
        + pattern
    ) * 128 + np.where(np.isin(pattern, (1, 3)), digits, 0)
    _, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
    return counts[inverse] > 1


def _customer_frame(
    seed: int, rng: np.random.Generator, signup: np.ndarray, is_test: np.ndarray
) -> Customers:
    n = signup.shape[0]
    shares = np.array([c.share for c in COUNTRIES])
    country = choose(rng, shares, n)
    # QA accounts live in the two home markets.
    country[is_test] = np.where(rng.random(int(is_test.sum())) < 0.7, 0, 2)

    firsts: list[str] = []
    lasts: list[str] = []
    first_off = np.zeros(len(COUNTRIES) + 1, dtype=np.int64)
    last_off = np.zeros(len(COUNTRIES) + 1, dtype=np.int64)
    for i, c in enumerate(COUNTRIES):
        f, ln = person_names(seed, c.locale, NAMES_PER_COUNTRY)
        firsts += f
        lasts += ln
        first_off[i + 1] = len(firsts)
        last_off[i + 1] = len(lasts)
    first_sizes = np.diff(first_off)[country]
    last_sizes = np.diff(last_off)[country]
    first_idx = first_off[country] + (rng.random(n) * first_sizes).astype(np.int64)
    last_idx = last_off[country] + (rng.random(n) * last_sizes).astype(np.int64)

    domains = [d for c in COUNTRIES for d in c.email_domains]
    dom_off = np.cumsum([0] + [len(c.email_domains) for c in COUNTRIES])
    dom_idx = dom_off[country] + (rng.random(n) * np.diff(dom_off)[country]).astype(np.int64)
    pattern = choose(rng, [0.40, 0.25, 0.20, 0.15], n)
    digits = np.asarray(rng.integers(1, 100, size=n))
    first_slugs = [ascii_slug(x) for x in firsts]
    last_slugs = [ascii_slug(x) for x in lasts]
    _, domain_id = np.unique(domains, return_inverse=True)  # gmail.com recurs across countries
    clash = _email_clashes(
        first_slugs, last_slugs, first_idx, last_idx, domain_id[dom_idx], pattern, digits
    )

    customer_id = np.arange(1, n + 1, dtype=np.int64)
    acq = choose(rng, ACQUISITION_WEIGHTS, n)
    frame = pl.DataFrame(
        {
            "customer_id": customer_id,
            "first_name": pl.Series(firsts).gather(first_idx),
            "last_name": pl.Series(lasts).gather(last_idx),
            "f_slug": pl.Series(first_slugs).gather(first_idx),
            "l_slug": pl.Series(last_slugs).gather(last_idx),
            "domain": pl.Series(domains).gather(dom_idx),
            "pattern": pattern,
            "digits": digits,
            "clash": clash,
            "country": pl.Series([c.code for c in COUNTRIES]).gather(country),
            "signup_at": cal.to_datetime(signup),
            "acquisition_channel": pl.Series(ACQUISITION_CHANNELS).gather(acq),
            "is_test_account": is_test,
        }
    )
    f, ln, d = pl.col("f_slug"), pl.col("l_slug"), pl.col("digits").cast(pl.String)
    local = (
        pl.when(pl.col("pattern") == 0).then(f + "." + ln)
        .when(pl.col("pattern") == 1).then(f + "." + ln + d)
        .when(pl.col("pattern") == 2).then(f.str.slice(0, 1) + ln)
        .otherwise(f + "_" + ln + d)
    )  # fmt: skip
    frame = frame.with_columns(
        local=pl.when(pl.col("clash"))
        .then(local + pl.col("customer_id").cast(pl.String))
        .otherwise(local)
    )
    qa = pl.col("is_test_account")
    frame = frame.with_columns(
        email=pl.when(qa)
        .then(pl.lit("qa+") + pl.col("customer_id").cast(pl.String) + "@" + STORE_DOMAIN)
        .otherwise(pl.col("local") + "@" + pl.col("domain")),
        acquisition_channel=pl.when(qa).then(pl.lit("internal")).otherwise("acquisition_channel"),
    ).select(
        "customer_id", "email", "first_name", "last_name", "country", "signup_at",
        "acquisition_channel", "is_test_account",
    )  # fmt: skip
    return Customers(frame=frame, country=country, signup_us=signup, is_test=is_test)
