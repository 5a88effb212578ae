"""The ``credit_cards`` replica: a US credit-card catalog, customers, spend and applications.

The catalog carries every term a Regulation Z §1026.60 disclosure ("Schumer box") shows, with
names built to be confusable (tier ladders, shared brands, variant spellings; see
``names``), so that a compliance verifier has real hallucinations to catch. Customers
have bureau-like credit attributes and 24 months of spend by category (2024-07 .. 2026-06);
holdings and applications follow the eligibility rule in ``activity`` (mostly).

Modules: ``profiles`` (term ranges per card type), ``names`` (naming),
``catalog`` (issuers, cards, card_rewards), ``people`` (customers, card_spend),
``activity`` (existing_cards, applications).
"""

from __future__ import annotations

import polars as pl

from replicas.generators.credit_cards.activity import build_activity
from replicas.generators.credit_cards.catalog import build_catalog, build_issuers
from replicas.generators.credit_cards.people import build_card_spend, build_customers

TABLES: tuple[str, ...] = (
    "issuers",
    "cards",
    "card_rewards",
    "customers",
    "card_spend",
    "existing_cards",
    "applications",
)
DESCRIPTION = (
    "US credit-card compliance replica: 40-120 card products with every Schumer-box term "
    "(APRs, intro offers, fees, grace period), rewards with bonus categories and caps, "
    "customers with credit histories and 24 months of spend (2024-07..2026-06), holdings "
    "and applications; marts for card terms, eligibility, card value and the best card."
)
MAX_SCALE = 20.0


def _validate(seed: object, scale: object) -> float:
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if isinstance(scale, bool) or not isinstance(scale, int | float):
        raise ValueError(f"scale must be a number, got {scale!r}")
    if not 0.0 < float(scale) <= MAX_SCALE:
        raise ValueError(f"scale must be in (0, {MAX_SCALE}], got {scale!r}")
    return float(scale)


def generate(seed: int, scale: float = 0.01) -> dict[str, pl.DataFrame]:
    """All raw tables of one build, keyed by table name in ``TABLES`` (load) order.

    Pure and deterministic: the same (seed, scale) gives byte-identical frames.
    """
    scale = _validate(seed, scale)
    issuers = build_issuers(seed)
    cards, card_rewards = build_catalog(seed, scale, issuers.height)
    customers = build_customers(seed, scale)
    card_spend = build_card_spend(seed, customers)
    existing_cards, applications = build_activity(seed, customers, cards)
    tables = {
        "issuers": issuers,
        "cards": cards,
        "card_rewards": card_rewards,
        "customers": customers,
        "card_spend": card_spend,
        "existing_cards": existing_cards,
        "applications": applications,
    }
    return {name: tables[name] for name in TABLES}
