"""Clickstream: funnel-shaped web/app sessions, as a tracker would export them.

Every tracked web/app order has a purchase session that ends with a ``purchase`` event carrying
the order id; browsing sessions (logged-in or anonymous) drop out of the funnel earlier. Each
session is ``session_start → page_view* → add_to_cart* → checkout? → purchase?``.

Built without per-session Python: sessions are numbered by their anchor time (purchase time or
start), per-session event counts become one ``np.repeat`` and per-event gaps one cumulative sum.
Like real trackers, a small share of events is delivered twice (an identical payload right
after the original: same session, type, timestamp and page, new ``event_id``), and events after
the extraction instant are cut off.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from replicas.generators.ecommerce import calendar as cal
from replicas.generators.ecommerce.catalog import CATEGORIES, Catalog
from replicas.generators.ecommerce.customers import Customers
from replicas.generators.ecommerce.orders import APP, MARKETPLACE, WEB, OrderBook
from replicas.seeding import table_rng

EVENT_TYPES = ("session_start", "page_view", "add_to_cart", "checkout", "purchase")
SESSION_START, PAGE_VIEW, ADD_TO_CART, CHECKOUT_EVENT, PURCHASE = range(5)
PLATFORMS = ("web", "app")
TRACKED_SHARE = {WEB: 0.85, APP: 0.97}  # ad blockers hide some web purchases
BROWSING_SESSIONS_PER_PURCHASE = 2.5
LOGGED_IN_BROWSING_SHARE = 0.45
BROWSING_APP_SHARE = 0.35
BOUNCE_SHARE = 0.45
PAGE_VIEW_GEOMETRIC_P = 0.45
BROWSING_PAGE_VIEW_GEOMETRIC_P = 0.55
CART_SHARE = 0.18
CHECKOUT_GIVEN_CART = 0.30
MEAN_GAP_S = 35.0
DUPLICATE_EVENT_SHARE = 0.015

FIXED_PAGES = ("/", "/search", "/cart", "/checkout", "/checkout/confirmation")
HOME, SEARCH, CART, CHECKOUT, CONFIRMATION = range(5)
# Page of the cart/checkout/purchase events (session_start and page_view pages are drawn).
_FIXED_PAGE_OF_TYPE = np.array([HOME, HOME, CART, CHECKOUT, CONFIRMATION], dtype=np.int32)


@dataclass(frozen=True)
class _Sessions:
    """Per-session attributes, in session_id order (roughly by start time)."""

    is_purchase: np.ndarray
    platform: np.ndarray
    customer_row: np.ndarray  # -1 = anonymous
    order_row: np.ndarray  # -1 = no purchase
    anchor_us: np.ndarray  # purchase sessions: when the purchase fired; others: session start

    @property
    def size(self) -> int:
        return int(self.is_purchase.shape[0])


def _sessions(rng: np.random.Generator, book: OrderBook, customers: Customers) -> _Sessions:
    online = book.channel != MARKETPLACE
    tracked_p = np.where(book.channel == APP, TRACKED_SHARE[APP], TRACKED_SHARE[WEB])
    bought = np.flatnonzero(online & (rng.random(book.size) < tracked_p))
    n_buy = bought.shape[0]
    purchase_at = book.created_us[bought] + rng.integers(0, 3000, size=n_buy) * 1000

    # Logged-in browsing is anchored shortly before a random order of the same customer;
    # anonymous browsing follows the demand calendar.
    n_browse = round(BROWSING_SESSIONS_PER_PURCHASE * n_buy)
    logged = rng.random(n_browse) < LOGGED_IN_BROWSING_SHARE
    anchor = rng.integers(0, book.size, size=n_browse)
    anchor_us = book.created_us[anchor]
    floor_us = np.maximum(
        customers.signup_us[book.customer_row[anchor]] + 60 * cal.US_PER_S, cal.START_US
    )
    before = rng.integers(3600, 20 * 86_400, size=n_browse) * cal.US_PER_S
    # Too early for this customer: browse somewhere between signup and the anchor order instead.
    fallback = floor_us + (rng.random(n_browse) * np.maximum(anchor_us - floor_us, 0)).astype(
        np.int64
    )
    logged_start = np.where(anchor_us - before >= floor_us, anchor_us - before, fallback)
    browse_start = np.where(logged, logged_start, cal.sample_timestamps(rng, n_browse))
    browse_start += rng.integers(0, 1000, size=n_browse) * 1000

    anchor_all = np.concatenate([purchase_at, browse_start])
    by_time = np.argsort(anchor_all, kind="stable")
    is_purchase = np.zeros(n_buy + n_browse, dtype=bool)
    is_purchase[:n_buy] = True
    platform = np.concatenate(
        [book.channel[bought] == APP, rng.random(n_browse) < BROWSING_APP_SHARE]
    ).astype(np.int64)
    customer = np.concatenate(
        [book.customer_row[bought], np.where(logged, book.customer_row[anchor], -1)]
    )
    order_row = np.concatenate([bought, np.full(n_browse, -1)])
    return _Sessions(
        is_purchase=is_purchase[by_time],
        platform=platform[by_time],
        customer_row=customer[by_time],
        order_row=order_row[by_time],
        anchor_us=anchor_all[by_time],
    )


def _funnel_counts(rng: np.random.Generator, sess: _Sessions, n_lines: np.ndarray) -> np.ndarray:
    """(n_sessions, 5) counts of each event type, columns in ``EVENT_TYPES`` order."""
    n = sess.size
    buy = sess.is_purchase
    counts = np.zeros((n, 5), dtype=np.int64)
    counts[:, SESSION_START] = 1
    page_views = np.minimum(
        rng.geometric(np.where(buy, PAGE_VIEW_GEOMETRIC_P, BROWSING_PAGE_VIEW_GEOMETRIC_P)), 20
    )
    bounce = ~buy & (rng.random(n) < BOUNCE_SHARE)
    counts[:, PAGE_VIEW] = np.where(bounce, 0, page_views)
    cart = buy | (~bounce & (rng.random(n) < CART_SHARE))
    adds = np.where(
        buy,
        np.minimum(n_lines[np.maximum(sess.order_row, 0)], 6),
        np.minimum(rng.geometric(0.6, size=n), 3),
    )
    counts[:, ADD_TO_CART] = np.where(cart, adds, 0)
    counts[:, CHECKOUT_EVENT] = buy | (cart & (rng.random(n) < CHECKOUT_GIVEN_CART))
    counts[:, PURCHASE] = buy
    return counts


def _pages(rng: np.random.Generator, etype: np.ndarray, catalog: Catalog) -> np.ndarray:
    """Index into the page vocabulary (fixed pages, category pages, product pages) per event."""
    n = etype.shape[0]
    page = _FIXED_PAGE_OF_TYPE[etype]
    u = rng.random(n)
    n_cat = len(CATEGORIES)
    landing = etype == SESSION_START
    browsing = etype == PAGE_VIEW
    to_product = (landing & (u >= 0.70)) | (browsing & (u < 0.70))
    to_category = (landing & (u >= 0.45) & (u < 0.70)) | (browsing & (u >= 0.70) & (u < 0.90))
    page[browsing & (u >= 0.90)] = SEARCH
    idx = np.flatnonzero(to_category)
    page[idx] = len(FIXED_PAGES) + rng.integers(0, n_cat, size=idx.shape[0])
    idx = np.flatnonzero(to_product)
    page[idx] = len(FIXED_PAGES) + n_cat + catalog.by_popularity.sample(rng, idx.shape[0])
    return page


def _nullable(values: np.ndarray, valid: np.ndarray) -> pl.Series:
    """``values`` with nulls where not ``valid`` (polars-native: ``pa.array(mask=…)`` imports
    pandas, ~0.5 s of a small build)."""
    return pl.select(pl.when(pl.Series(valid)).then(pl.Series(values))).to_series()


def build_web_events(
    seed: int, book: OrderBook, customers: Customers, catalog: Catalog
) -> pl.DataFrame:
    rng = table_rng(seed, "web_events")
    sess = _sessions(rng, book, customers)
    counts = _funnel_counts(table_rng(seed, "web_events", "funnel"), sess, book.n_lines)
    length = counts.sum(axis=1)
    n_sess = sess.size

    # Events in session order: one repeat for types, one cumulative sum for timestamps.
    # (Memory matters at scale: ~5 M events per scale unit, so temporaries are reused in place.)
    etype = np.repeat(np.tile(np.arange(5, dtype=np.int8), n_sess), counts.reshape(-1))
    del counts
    offset = np.cumsum(length) - length
    within_ms = rng.exponential(MEAN_GAP_S * 1000, size=etype.shape[0]).astype(np.int64)
    within_ms += 1000
    within_ms[offset] = 0
    np.cumsum(within_ms, out=within_ms)
    within_ms -= np.repeat(within_ms[offset], length)
    duration_us = within_ms[offset + length - 1] * 1000
    start = np.where(sess.is_purchase, sess.anchor_us - duration_us, sess.anchor_us)
    event_at = np.repeat(start, length)
    within_ms *= 1000
    event_at += within_ms
    del within_ms

    # Extraction cut-off, then tracker re-sends (a copy right after the original, new id).
    keep = event_at <= cal.END_US
    copies = keep.astype(np.int8) + (keep & (rng.random(keep.shape[0]) < DUPLICATE_EVENT_SHARE))
    rows = np.repeat(np.arange(keep.shape[0], dtype=np.int64), copies)
    del keep, copies
    session = np.repeat(np.arange(n_sess, dtype=np.int32), length)[rows]
    # Pages are drawn per original event, so a re-sent copy repeats its original's page.
    page = _pages(table_rng(seed, "web_events", "pages"), etype, catalog)[rows]
    etype, event_at = etype[rows], event_at[rows]
    n_out = rows.shape[0]
    del rows

    columns: dict[str, pl.Series] = {}
    columns["event_id"] = pl.Series(np.arange(1, n_out + 1, dtype=np.int64))
    columns["session_id"] = pl.Series(session.astype(np.int64) + 1)
    customer = sess.customer_row[session]
    columns["customer_id"] = pl.Series(_nullable(customer + 1, customer >= 0))
    del customer
    columns["platform"] = pl.Series(PLATFORMS).gather(sess.platform[session])
    columns["event_type"] = pl.Series(EVENT_TYPES).gather(etype)
    columns["event_at"] = pl.Series(cal.to_datetime(event_at))
    del event_at
    vocab = pl.concat([
        pl.Series(FIXED_PAGES),
        pl.Series(["/c/" + c.name.replace("_", "-") for c in CATEGORIES]),
        "/p/" + catalog.products["sku"].str.to_lowercase(),
    ])  # fmt: skip
    columns["page_path"] = vocab.gather(page)
    del page
    order_row = sess.order_row[session]
    columns["order_id"] = pl.Series(
        _nullable(book.order_id[np.maximum(order_row, 0)], etype == PURCHASE)
    )
    return pl.DataFrame([series.alias(name) for name, series in columns.items()])
