"""Orders and their lines: baskets, prices, promotions, shipping, tax and the status timeline.

Amounts are in the order currency (the customer's country decides it) and rounded to cents.
The order total a customer pays is ``sum(quantity * unit_price) - sum(discount_amount)
+ shipping_amount + tax_amount``; it is not stored on ``orders`` (as in many source systems),
but payments settle it.

Status is decided as of the end of the data window (2026-06-30 23:59:59 UTC): an order's
intended path (cancel / deliver / deliver-then-return) is simulated with realistic delays and
then cut at the as-of instant, so recent orders are still ``placed`` or ``shipped`` and every
timestamp column is NULL exactly when its event has not happened.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from replicas.generators.ecommerce import calendar as cal
from replicas.generators.ecommerce.catalog import CATEGORIES, CURRENCIES, Catalog, Promotion
from replicas.generators.ecommerce.customers import COUNTRIES, Customers, OrderTimeline
from replicas.generators.ecommerce.sampling import sampler
from replicas.seeding import table_rng

STATUSES = ("placed", "shipped", "completed", "cancelled", "returned")
CHANNELS = ("web", "app", "marketplace")
PLACED, SHIPPED, COMPLETED, CANCELLED, RETURNED = range(5)
WEB, APP, MARKETPLACE = range(3)

ITEMS_GEOMETRIC_P = 0.48  # lines per order: 1 + Geometric → mean ≈ 2.1
BASKET_COHERENCE = 0.85  # share of lines from the order's main category
MEAN_LINES_PER_ORDER = 2.0  # measured (scale 1) after dropping repeated products in an order
MARKETPLACE_SHARE = 0.14
APP_SHARE_START, APP_SHARE_END = 0.22, 0.38
CANCEL_RATE, QA_CANCEL_RATE = 0.035, 0.35
PAYMENT_FAILURE_CANCEL_SHARE = 0.35  # of cancellations: the payment never went through
MARKDOWN_RATE, Q4_MARKDOWN_RATE = 0.07, 0.14
ORPHAN_ITEM_SHARE = 0.002

FREE_SHIPPING_FROM = np.array([50.0, 45.0, 40.0, 65.0])  # per currency, after discounts
FLAT_SHIPPING = np.array([5.99, 4.99, 3.99, 7.99])
EXPRESS_SURCHARGE = np.array([9.99, 8.99, 7.99, 12.99])
EXPRESS_SHARE = 0.08
# Sales tax / VAT added on top of (merchandise after discounts + shipping).
TAX_RATES: dict[str, tuple[float, ...]] = {
    "US": (0.0, 0.04, 0.06, 0.0625, 0.07, 0.0725, 0.0825, 0.0875),
    "CA": (0.05, 0.12, 0.13, 0.14975, 0.15),
    "GB": (0.20,), "IE": (0.23,), "DE": (0.19,), "FR": (0.20,), "NL": (0.21,),
    "ES": (0.21,), "IT": (0.22,), "BE": (0.21,), "AT": (0.20,),
}  # fmt: skip

HOUR_US = 3600 * cal.US_PER_S


@dataclass(frozen=True)
class OrderBook:
    """Everything later stages (payments, refunds, sessions) need, indexed by order row."""

    orders: pl.DataFrame
    order_items: pl.DataFrame
    order_id: np.ndarray
    customer_row: np.ndarray
    created_us: np.ndarray
    channel: np.ndarray
    currency: np.ndarray
    country: np.ndarray
    status: np.ndarray
    merchandise: np.ndarray  # sum of lines minus discounts
    shipping: np.ndarray
    tax: np.ndarray
    total: np.ndarray
    cancelled_us: np.ndarray  # -1 where not applicable (same below)
    delivered_us: np.ndarray
    returned_us: np.ndarray
    payment_failure_cancel: np.ndarray
    n_lines: np.ndarray

    @property
    def size(self) -> int:
        return int(self.order_id.shape[0])


def n_orders_for(scale: float) -> int:
    """Organic orders so that ``scale=1`` yields ≈ 1,000,000 order lines."""
    return max(50, round(1_000_000 * scale / MEAN_LINES_PER_ORDER))


MAX_LINES = 12
RESAMPLE_ROUNDS = 4


def _repeats_earlier_line(order_row: np.ndarray, product: np.ndarray) -> np.ndarray:
    """True where the same product already appeared on an earlier line of the same order.

    Lines of one order are contiguous and at most ``MAX_LINES`` long, so comparing each line with
    its predecessors at distance 1 … MAX_LINES-1 finds every repeat without sorting.
    """
    repeat = np.zeros(product.shape[0], dtype=bool)
    for k in range(1, MAX_LINES):
        repeat[k:] |= (product[k:] == product[:-k]) & (order_row[k:] == order_row[:-k])
    return repeat


def _lines(
    rng: np.random.Generator, created: np.ndarray, catalog: Catalog
) -> tuple[np.ndarray, ...]:
    """(order row, product row) per line.

    Baskets are category-coherent (most lines come from the order's main category, chosen by
    category popularity), products follow Zipf popularity, nothing is sold before its launch,
    and a product appears at most once per order. Invalid draws are redrawn from the same
    distribution a few times (keeping baskets coherent); the rare leftovers fall back to the
    pre-2024 catalogue and any remaining repeat line is dropped.
    """
    n = created.shape[0]
    per_order = np.minimum(rng.geometric(ITEMS_GEOMETRIC_P, size=n), MAX_LINES)
    order_row = np.repeat(np.arange(n), per_order)
    m = order_row.shape[0]
    line_category = sampler(catalog.category_mass, bits=16).sample(rng, n)[order_row]
    coherent = rng.random(m) < BASKET_COHERENCE
    line_created = created[order_row]

    def draw(lines: np.ndarray) -> np.ndarray:
        out = catalog.by_popularity.sample(rng, lines.shape[0])
        inside = coherent[lines]
        out[inside] = catalog.sample_in_categories(rng, line_category[lines[inside]])
        return out

    product = draw(np.arange(m))
    for _ in range(RESAMPLE_ROUNDS):
        bad = np.flatnonzero(
            (catalog.launched_us[product] > line_created)
            | _repeats_earlier_line(order_row, product)
        )
        if bad.shape[0] == 0:
            break
        product[bad] = draw(bad)
    unlaunched = catalog.launched_us[product] > line_created
    product[unlaunched] = catalog.established.sample(rng, int(unlaunched.sum()))
    keep = ~_repeats_earlier_line(order_row, product)
    return order_row[keep], product[keep]


def _whole_seconds(hours: np.ndarray | float) -> np.ndarray:
    """Durations in hours → int64 µs truncated to whole seconds (source systems log seconds)."""
    return (np.asarray(hours) * 3600).astype(np.int64) * cal.US_PER_S


def _status_timeline(
    rng: np.random.Generator,
    created: np.ndarray,
    return_prob: np.ndarray,
    is_qa: np.ndarray,
) -> dict[str, np.ndarray]:
    n = created.shape[0]
    cancel = rng.random(n) < np.where(is_qa, QA_CANCEL_RATE, CANCEL_RATE)
    payment_failure = cancel & (rng.random(n) < PAYMENT_FAILURE_CANCEL_SHARE)
    returns = ~cancel & (rng.random(n) < return_prob)

    cancel_delay = (
        np.where(
            payment_failure,
            rng.integers(5 * 60, 45 * 60, size=n),
            rng.integers(20 * 60, 36 * 3600, size=n),
        ).astype(np.int64)
        * cal.US_PER_S
    )
    ship_delay = _whole_seconds(np.clip(rng.lognormal(np.log(26.0), 0.5, size=n), 2, 192))
    deliver_delay = _whole_seconds(np.clip(rng.lognormal(np.log(72.0), 0.45, size=n), 18, 504))
    return_delay = _whole_seconds(rng.uniform(2 * 24, 30 * 24, size=n))

    cancelled_at = created + cancel_delay
    shipped_at = created + ship_delay
    delivered_at = shipped_at + deliver_delay
    returned_at = delivered_at + return_delay

    asof = cal.END_US
    status = np.full(n, PLACED, dtype=np.int64)
    status[~cancel & (shipped_at <= asof)] = SHIPPED
    status[~cancel & (delivered_at <= asof)] = COMPLETED
    status[returns & (returned_at <= asof)] = RETURNED
    status[cancel & (cancelled_at <= asof)] = CANCELLED

    none = np.int64(-1)
    shipped = np.isin(status, (SHIPPED, COMPLETED, RETURNED))
    delivered = np.isin(status, (COMPLETED, RETURNED))
    return {
        "status": status,
        "payment_failure_cancel": payment_failure,
        "cancelled_us": np.where(status == CANCELLED, cancelled_at, none),
        "shipped_us": np.where(shipped, shipped_at, none),
        "delivered_us": np.where(delivered, delivered_at, none),
        "returned_us": np.where(status == RETURNED, returned_at, none),
    }


def _as_datetime(us: np.ndarray) -> np.ndarray:
    """int64 µs with -1 for 'not happened' → datetime64[us] with NaT (polars: null)."""
    out = us.astype("datetime64[us]")
    out[us < 0] = np.datetime64("NaT")
    return out


def _assign_promotions(
    rng: np.random.Generator,
    promos: tuple[Promotion, ...],
    created: np.ndarray,
    channel: np.ndarray,
    is_first: np.ndarray,
    subtotal: np.ndarray,
) -> np.ndarray:
    """Index into ``promos`` per order (-1 = none); orders are sorted, so windows are slices."""
    choice = np.full(created.shape[0], -1, dtype=np.int64)
    for i, p in enumerate(promos):
        lo = np.searchsorted(created, cal.START_US + cal.day_index(p.starts) * cal.US_PER_DAY)
        hi = np.searchsorted(created, cal.START_US + (cal.day_index(p.ends) + 1) * cal.US_PER_DAY)
        part = slice(lo, hi)
        ch = channel[part]
        ok = (ch != MARKETPLACE) if p.channel is None else (ch == CHANNELS.index(p.channel))
        if p.first_order_only:
            ok &= is_first[part]
        ok &= subtotal[part] >= p.min_order_amount
        ok &= rng.random(hi - lo) < p.take_rate
        choice[part] = np.where(ok, i, choice[part])
    return choice


def build_orders(
    seed: int,
    timeline: OrderTimeline,
    customers: Customers,
    catalog: Catalog,
    promos: tuple[Promotion, ...],
) -> OrderBook:
    rng = table_rng(seed, "orders")
    item_rng = table_rng(seed, "order_items")
    created = timeline.created_us
    n = created.shape[0]
    cust = timeline.customer
    is_qa = customers.is_test[cust]
    country = customers.country[cust]
    currency = np.array([CURRENCIES.index(c.currency) for c in COUNTRIES])[country]

    progress = (created - cal.START_US) / (cal.END_US - cal.START_US)
    app_share = APP_SHARE_START + (APP_SHARE_END - APP_SHARE_START) * progress
    u = rng.random(n)
    channel = np.where(
        u < MARKETPLACE_SHARE, MARKETPLACE, np.where(u < MARKETPLACE_SHARE + app_share, APP, WEB)
    )
    channel[is_qa] = np.where(rng.random(int(is_qa.sum())) < 0.5, WEB, APP)

    # --- lines
    order_row, product = _lines(item_rng, created, catalog)
    m = order_row.shape[0]
    bulk = np.array([c.bulk_buy for c in CATEGORIES])[catalog.category[product]]
    qty = np.where(
        bulk,
        np.minimum(1 + item_rng.poisson(1.2, size=m), 8),
        item_rng.choice(np.array([1, 2, 3, 4]), size=m, p=[0.87, 0.09, 0.03, 0.01]),
    )
    item_currency = currency[order_row]
    list_local = catalog.local_price[product, item_currency]
    month = cal.to_datetime(created[order_row]).astype("datetime64[M]").astype(np.int64) % 12
    markdown_rate = np.where(month >= 10, Q4_MARKDOWN_RATE, MARKDOWN_RATE)
    markdown = item_rng.random(m) < markdown_rate
    factor = np.where(markdown, item_rng.choice([0.9, 0.85, 0.8, 0.75, 0.7], size=m), 1.0)
    unit_price = np.round(list_local * factor, 2)
    line = np.round(qty * unit_price, 2)
    subtotal = np.bincount(order_row, weights=line, minlength=n)

    # --- promotions and discounts
    promo = _assign_promotions(rng, promos, created, channel, timeline.is_first_order, subtotal)
    pct = np.array([p.discount_pct or 0.0 for p in promos] + [0.0])[promo]
    amount = np.array([p.discount_amount or 0.0 for p in promos] + [0.0])[promo]
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(subtotal[order_row] > 0, line / subtotal[order_row], 0.0)
    discount = np.round(line * pct[order_row] / 100.0 + amount[order_row] * share, 2)
    merchandise = np.round(subtotal - np.bincount(order_row, weights=discount, minlength=n), 2)

    # --- shipping, tax, total
    express = rng.random(n) < EXPRESS_SHARE
    shipping = np.where(merchandise >= FREE_SHIPPING_FROM[currency], 0.0, FLAT_SHIPPING[currency])
    shipping = np.where(express, shipping + EXPRESS_SURCHARGE[currency], shipping)
    shipping = np.where(channel == MARKETPLACE, 0.0, np.round(shipping, 2))
    rate = np.zeros(n)
    for ci, c in enumerate(COUNTRIES):
        rows = np.flatnonzero(country == ci)
        rate[rows] = rng.choice(np.array(TAX_RATES[c.code]), size=rows.shape[0])
    tax = np.round(rate * (merchandise + shipping), 2)
    total = np.round(merchandise + shipping + tax, 2)

    # --- status timeline (returns depend on what was bought)
    log_keep = np.bincount(order_row, weights=np.log1p(-catalog.return_rate[product]), minlength=n)
    times = _status_timeline(rng, created, 1.0 - np.exp(log_keep), is_qa)

    order_id = 100_001 + np.arange(n, dtype=np.int64)
    promo_codes = pl.Series([p.code for p in promos] + [None], dtype=pl.String)
    orders = pl.DataFrame(
        {
            "order_id": order_id,
            "customer_id": cust.astype(np.int64) + 1,
            "created_at": cal.to_datetime(created),
            "status": pl.Series(STATUSES).gather(times["status"]),
            "channel": pl.Series(CHANNELS).gather(channel),
            "currency": pl.Series(CURRENCIES).gather(currency),
            "promo_code": promo_codes.gather(np.where(promo < 0, len(promos), promo)),
            "shipping_amount": shipping,
            "tax_amount": tax,
            "shipped_at": _as_datetime(times["shipped_us"]),
            "delivered_at": _as_datetime(times["delivered_us"]),
            "cancelled_at": _as_datetime(times["cancelled_us"]),
            "returned_at": _as_datetime(times["returned_us"]),
        }
    )

    # Dirt: a few lines whose order header never arrived (ids past the last loaded order).
    n_orphans = max(1, round(ORPHAN_ITEM_SHARE * m))
    src = item_rng.integers(0, m, size=n_orphans)
    orphan_order_id = order_id[-1] + item_rng.integers(1, 400, size=n_orphans)
    items = pl.DataFrame(
        {
            "order_item_id": np.arange(1, m + n_orphans + 1, dtype=np.int64),
            "order_id": np.concatenate([order_id[order_row], orphan_order_id]),
            "product_id": np.concatenate([product, product[src]]).astype(np.int64) + 1,
            "quantity": np.concatenate([qty, qty[src]]).astype(np.int32),
            "unit_price": np.concatenate([unit_price, unit_price[src]]),
            "discount_amount": np.concatenate([discount, np.zeros(n_orphans)]),
        }
    )
    return OrderBook(
        orders=orders,
        order_items=items,
        order_id=order_id,
        customer_row=cust,
        created_us=created,
        channel=channel,
        currency=currency,
        country=country,
        status=times["status"],
        merchandise=merchandise,
        shipping=shipping,
        tax=tax,
        total=total,
        cancelled_us=times["cancelled_us"],
        delivered_us=times["delivered_us"],
        returned_us=times["returned_us"],
        payment_failure_cancel=times["payment_failure_cancel"] & (times["status"] == CANCELLED),
        n_lines=np.bincount(order_row, minlength=n),
    )
