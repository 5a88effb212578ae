"""The ecommerce replica's raw data: a seeded online store ("Lumen Market", lumenmarket.com).

``generate(seed, scale)`` returns the nine raw tables below as polars DataFrames. Same seed and
scale ⇒ identical data (no global RNG, no wall clock); ``scale=1.0`` ≈ 1,000,000 order lines.
Everything is vectorised (numpy + polars); Faker only seeds small name/brand vocabularies.

Conventions
    * Timestamps are naive UTC ``Datetime("us")``; the window is 2024-01-01 00:00:00 through
      2026-06-30 23:59:59 and nothing is dated after it (statuses are "as of" its last second).
    * Money is Float64 rounded to cents in the order's currency (``products`` is in USD).
      ``fx_rates.rate_to_usd`` converts: ``usd = amount * rate_to_usd`` (USD rate is 1.0).
    * Order total (what a customer pays) = ``sum(quantity * unit_price) - sum(discount_amount)``
      ``+ shipping_amount + tax_amount``; it is not stored, payments settle it.
    * Currency follows the customer's country (US→USD, CA→CAD, GB→GBP, euro area→EUR).

Realism signals (deliberate, tested)
    weekly cycle (Sun/Mon high, Fri/Sat low); Q4 peak with Black Friday / Cyber Monday spikes;
    ~+50 %/year growth; Zipf product popularity; heavy-tailed repeat purchasing (most customers
    buy once, a few dozen times); returns by category (apparel ≫ electronics ≫ grocery);
    payment retries and gift-card splits; funnel-shaped sessions (session → cart → checkout →
    purchase; conversion ≈ 28 %, higher than a real store's so that browsing sessions do not
    dominate the row count).

Dirt (deliberate, small; marts must handle it)
    * internal QA accounts: ~0.7 % of customers, ``is_test_account``, ``qa+<id>@lumenmarket.com``,
      ``acquisition_channel = 'internal'``; their orders (≈1–2 % of orders) are not revenue.
    * duplicated payments: ~0.6 % of orders have their successful capture recorded twice (same
      order, amount, method and status, 1–20 s apart, new ``payment_id``).
    * payment mismatches: ~0.4 % of orders have successful captures that do not sum to the
      order total (±5–10 %).
    * orphaned order lines: ~0.2 % of ``order_items`` reference an ``order_id`` absent from
      ``orders`` (headers not yet loaded; ids beyond the last order).
    * duplicate tracker events: ~1.5 % of ``web_events`` are re-sent copies (same session, type
      and timestamp, new ``event_id``).
    * late refunds: ~5 % of return refunds and ~10 % of goodwill refunds arrive 1–5 months after
      the return/delivery; about a quarter of all refunds land in a later calendar quarter than
      the order (late ones and returns of end-of-quarter orders).
"""

from __future__ import annotations

import math

import polars as pl

from replicas.generators.ecommerce.catalog import build_catalog, build_fx, build_promotions
from replicas.generators.ecommerce.customers import build_timeline_and_customers
from replicas.generators.ecommerce.events import build_web_events
from replicas.generators.ecommerce.orders import build_orders, n_orders_for
from replicas.generators.ecommerce.payments import build_payments, build_refunds

TABLES: tuple[str, ...] = (
    "customers",
    "products",
    "promotions",
    "fx_rates",
    "orders",
    "order_items",
    "payments",
    "refunds",
    "web_events",
)
DESCRIPTION = (
    "Online store: customers, products, promotions, FX rates, orders, order items, payments, "
    "refunds and web events (2024-01 … 2026-06, UTC), with realistic seasonality and dirt."
)
MAX_SCALE = 20.0


def _validate(seed: int, scale: float) -> float:
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if isinstance(scale, bool) or not isinstance(scale, (int, float)):
        raise ValueError(f"scale must be a number, got {scale!r}")
    scale = float(scale)
    if not math.isfinite(scale) or not 0 < scale <= MAX_SCALE:
        raise ValueError(f"scale must lie in (0, {MAX_SCALE:g}], got {scale!r}")
    return scale


def generate(seed: int, scale: float = 0.01) -> dict[str, pl.DataFrame]:
    """All raw tables for ``(seed, scale)``, keyed by name in load order (``TABLES``)."""
    scale = _validate(seed, scale)
    catalog = build_catalog(seed, scale)
    promotions, promos = build_promotions(seed)
    fx_rates, _ = build_fx(seed)
    timeline, customers = build_timeline_and_customers(seed, n_orders_for(scale))
    book = build_orders(seed, timeline, customers, catalog, promos)
    tables = {
        "customers": customers.frame,
        "products": catalog.products,
        "promotions": promotions,
        "fx_rates": fx_rates,
        "orders": book.orders,
        "order_items": book.order_items,
        "payments": build_payments(seed, book),
        "refunds": build_refunds(seed, book),
        "web_events": build_web_events(seed, book, customers, catalog),
    }
    return {name: tables[name] for name in TABLES}
