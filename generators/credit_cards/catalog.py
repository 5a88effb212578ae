"""The card catalog: ``issuers``, ``cards`` and ``card_rewards``.

The catalog is small (40-120 products), so it is built card by card, but every card draws its
terms from its own sub-stream ``table_rng(seed, "cards", "terms", index)``: changing how one
term is drawn never shifts the names or the terms of other cards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from replicas.generators.credit_cards.names import (
    BRANDS,
    NETWORK_WEIGHTS,
    NETWORKS,
    family_name,
    issuer_names,
    twin_name,
)
from replicas.generators.credit_cards.profiles import (
    APR_CEILING_PCT,
    PENALTY_APR_CEILING_PCT,
    PROFILES,
    CardTypeProfile,
)
from replicas.seeding import table_rng

MAX_CARDS = 120
APR_ENDINGS: tuple[float, ...] = (0.24, 0.49, 0.74, 0.99)
TWIN_PROBABILITY = 0.18
GUARANTEED_LADDERS = 3


@dataclass(frozen=True)
class CardSlot:
    """A catalog entry before its terms are drawn: who issues it, what it is called, its tier."""

    name: str
    issuer_index: int
    card_type: str
    tier: int

    def __post_init__(self) -> None:
        if self.card_type not in PROFILES:
            raise ValueError(f"unknown card type {self.card_type!r}")
        if self.tier < 0:
            raise ValueError("tier must be >= 0")


def catalog_size(seed: int, scale: float) -> int:
    """40-80 products at scale 0.01, growing by ~10 per tenfold scale, capped at ``MAX_CARDS``."""
    base = int(table_rng(seed, "cards", "size").integers(44, 77))
    growth = 10.0 * math.log10(max(scale / 0.01, 1.0))
    return min(MAX_CARDS, base + round(growth))


def build_issuers(seed: int) -> pl.DataFrame:
    """8-12 fictional issuers, each on one card network."""
    rng = table_rng(seed, "issuers")
    count = int(rng.integers(8, 13))
    names = issuer_names(rng, count)
    networks = rng.choice(len(NETWORKS), size=count, p=np.asarray(NETWORK_WEIGHTS))
    return pl.DataFrame(
        {
            "issuer_id": np.arange(1, count + 1, dtype=np.int64),
            "issuer_name": names,
            "network": [NETWORKS[int(n)] for n in networks],
        },
        schema={"issuer_id": pl.Int64, "issuer_name": pl.Utf8, "network": pl.Utf8},
    )


def _family_tiers(rng: np.random.Generator, profile: CardTypeProfile, wanted: int) -> list[int]:
    """Tier indices of one family: always the bare product, plus higher tiers in order."""
    wanted = min(wanted, len(profile.tiers))
    extra = rng.choice(np.arange(1, len(profile.tiers)), size=wanted - 1, replace=False)
    return [0, *sorted(int(t) for t in extra)]


def plan_slots(seed: int, target: int, n_issuers: int) -> list[CardSlot]:
    """Names, issuers, types and tiers of ``target`` products (see ``names``)."""
    rng = table_rng(seed, "cards", "names")
    types = list(PROFILES)
    weights = np.asarray([PROFILES[t].family_weight for t in types])
    weights = weights / weights.sum()
    ladder_types = [t for t in types if len(PROFILES[t].tiers) >= 3]
    slots: list[CardSlot] = []
    originals: list[CardSlot] = []  # twins are made from family members only, never from twins
    taken: set[str] = set()

    def add(slot: CardSlot) -> None:
        slots.append(slot)
        taken.add(slot.name.lower())

    families = 0
    for _attempt in range(50 * target):
        if len(slots) >= target:
            break
        room = target - len(slots)
        if originals and rng.random() < TWIN_PROBABILITY:
            source = originals[int(rng.integers(0, len(originals)))]
            name = twin_name(rng, source.name, taken)
            if name is not None:
                other = int(rng.integers(0, n_issuers - 1)) if n_issuers > 1 else 0
                issuer = other + int(other >= source.issuer_index) if n_issuers > 1 else 0
                add(CardSlot(name, issuer, source.card_type, source.tier))
            continue
        if families < GUARANTEED_LADDERS:
            card_type = ladder_types[int(rng.integers(0, len(ladder_types)))]
            size = 3
        else:
            # every catalog carries every type, so each eligibility rule has cards to bite on
            missing = [t for t in types if t not in {slot.card_type for slot in slots}]
            if missing:
                card_type = missing[int(rng.integers(0, len(missing)))]
            else:
                card_type = types[int(rng.choice(len(types), p=weights))]
            size = int(rng.choice([1, 2, 3], p=[0.45, 0.35, 0.2]))
        profile = PROFILES[card_type]
        brand = BRANDS[int(rng.integers(0, len(BRANDS)))]
        product = profile.products[int(rng.integers(0, len(profile.products)))]
        issuer = int(rng.integers(0, n_issuers))
        tiers = _family_tiers(rng, profile, min(size, room))
        names = [family_name(brand, product, profile.tiers[t]) for t in tiers]
        if any(n.lower() in taken for n in names):
            continue
        families += 1
        for tier, name in zip(tiers, names, strict=True):
            add(CardSlot(name, issuer, card_type, tier))
            originals.append(slots[-1])
    if len(slots) < target:
        raise ValueError(f"could not name {target} distinct products (got {len(slots)})")
    return slots


def _pick(rng: np.random.Generator, values: tuple[Any, ...]) -> Any:
    return values[int(rng.integers(0, len(values)))]


def _apr(whole: int, ending: float) -> float:
    return round(min(whole + ending, APR_CEILING_PCT), 2)


def draw_terms(rng: np.random.Generator, profile: CardTypeProfile, tier: int) -> dict[str, Any]:
    """Every disclosed term of one card (a row of ``cards`` minus identity columns)."""
    fees = profile.annual_fees_by_tier[min(tier, len(profile.annual_fees_by_tier) - 1)]
    annual_fee = int(_pick(rng, fees))
    waived = annual_fee > 0 and annual_fee < 400 and rng.random() < profile.first_year_waiver_prob

    is_fixed = bool(rng.random() < profile.fixed_apr_prob)
    ending = float(_pick(rng, APR_ENDINGS))
    lo, hi = profile.apr_min_whole_range
    whole = int(rng.integers(lo, hi + 1))
    spread = int(_pick(rng, profile.apr_spreads))
    apr_min = _apr(whole, ending)
    apr_max = apr_min if is_fixed else _apr(whole + spread, ending)

    has_intro_purchase = rng.random() < profile.intro_purchase_prob
    intro_purchase_apr = float(_pick(rng, (0.0,) * 6 + (0.99, 1.99, 2.99)))
    intro_purchase_months = int(_pick(rng, profile.intro_purchase_months))
    has_intro_bt = rng.random() < profile.intro_bt_prob
    intro_bt_apr = float(_pick(rng, (0.0,) * 5 + (0.99, 1.99, 3.99)))
    intro_bt_months = int(_pick(rng, profile.intro_bt_months))

    cash_advance_apr = max(apr_max, float(_pick(rng, (25.99, 27.99, 28.99, 29.24, 29.99))))
    has_penalty = rng.random() < 0.65 and apr_max < PENALTY_APR_CEILING_PCT
    penalty_apr = max(apr_max, float(_pick(rng, (27.99, 29.99, 29.99, 29.99))))

    base_rate = float(_pick(rng, profile.base_rates))
    if base_rate > 0 and tier > 0 and profile.reward_currency != "cash_back":
        base_rate = max(base_rate, 1.5)
    point_value = float(_pick(rng, profile.point_values_usd))
    has_signup = rng.random() < profile.signup_prob
    tier_boost = 1.0 + 0.25 * tier  # richer tiers: bigger bonus, higher spend requirement
    signup_value = int(_pick(rng, profile.signup_bonuses_usd))
    signup_spend = int(_pick(rng, profile.signup_spends_usd))
    if tier > 0:
        signup_value = 50 * round(signup_value * tier_boost / 50)
        signup_spend = 500 * round(signup_spend * tier_boost / 500)
    min_score = min(int(_pick(rng, profile.min_scores)) + tier * profile.score_step_per_tier, 760)

    return {
        "is_secured": profile.is_secured,
        "is_student_only": profile.is_student_only,
        "min_credit_score": min_score,
        "security_deposit_min_usd": int(_pick(rng, (200, 200, 300, 500)))
        if profile.is_secured
        else None,
        "annual_fee_usd": float(annual_fee),
        "annual_fee_first_year_usd": 0.0 if waived else float(annual_fee),
        "purchase_apr_min_pct": apr_min,
        "purchase_apr_max_pct": apr_max,
        "apr_is_variable": not is_fixed,
        "intro_purchase_apr_pct": intro_purchase_apr if has_intro_purchase else None,
        "intro_purchase_months": intro_purchase_months if has_intro_purchase else None,
        "intro_bt_apr_pct": intro_bt_apr if has_intro_bt else None,
        "intro_bt_months": intro_bt_months if has_intro_bt else None,
        "bt_fee_pct": float(_pick(rng, (3.0, 3.0, 4.0, 5.0, 5.0))),
        "bt_fee_min_usd": float(_pick(rng, (5.0, 10.0))),
        "cash_advance_apr_pct": round(min(cash_advance_apr, APR_CEILING_PCT), 2),
        "cash_advance_fee_pct": float(_pick(rng, (5.0, 5.0, 5.0, 4.0, 3.0))),
        "cash_advance_fee_min_usd": float(_pick(rng, (10.0, 10.0, 5.0))),
        "penalty_apr_pct": round(penalty_apr, 2) if has_penalty else None,
        "foreign_txn_fee_pct": 0.0
        if rng.random() < profile.fx_free_prob
        else float(_pick(rng, (3.0, 3.0, 3.0, 2.7))),
        "late_fee_usd": float(_pick(rng, (25.0, 29.0, 30.0, 32.0, 35.0, 39.0, 40.0, 41.0))),
        "grace_period_days": int(_pick(rng, (21, 23, 25, 25, 25))),
        "min_interest_charge_usd": float(_pick(rng, (0.5, 0.5, 1.0, 2.0))),
        "reward_currency": profile.reward_currency,
        "base_reward_rate": base_rate,
        "point_value_usd": point_value,
        "signup_bonus_usd": float(signup_value) if has_signup else None,
        "signup_spend_usd": float(signup_spend) if has_signup else None,
        "signup_months": int(_pick(rng, profile.signup_months)) if has_signup else None,
    }


def draw_bonuses(
    rng: np.random.Generator, profile: CardTypeProfile, tier: int, base_rate: float
) -> list[tuple[str, float, float | None]]:
    """Bonus categories of one card as (category, rate, annual cap USD or None)."""
    chosen: list[tuple[str, float, float | None]] = []
    for index in rng.permutation(len(profile.bonuses)):
        spec = profile.bonuses[int(index)]
        if len(chosen) >= profile.max_bonus_categories or rng.random() >= spec.probability:
            continue
        draws = [float(_pick(rng, spec.rates)) for _ in range(1 + min(tier, 2))]
        rate = max(draws)  # higher tiers take the best of several draws: richer, same menu
        if rate <= base_rate:
            continue
        cap = _pick(rng, spec.caps)
        chosen.append((spec.category, rate, None if cap is None else float(cap)))
    return sorted(chosen)


CARD_SCHEMA: dict[str, pl.DataType] = {
    "card_id": pl.Utf8(),
    "card_name": pl.Utf8(),
    "issuer_id": pl.Int64(),
    "card_type": pl.Utf8(),
    "tier": pl.Int64(),
    "is_secured": pl.Boolean(),
    "is_student_only": pl.Boolean(),
    "min_credit_score": pl.Int64(),
    "security_deposit_min_usd": pl.Int64(),
    "annual_fee_usd": pl.Float64(),
    "annual_fee_first_year_usd": pl.Float64(),
    "purchase_apr_min_pct": pl.Float64(),
    "purchase_apr_max_pct": pl.Float64(),
    "apr_is_variable": pl.Boolean(),
    "intro_purchase_apr_pct": pl.Float64(),
    "intro_purchase_months": pl.Int64(),
    "intro_bt_apr_pct": pl.Float64(),
    "intro_bt_months": pl.Int64(),
    "bt_fee_pct": pl.Float64(),
    "bt_fee_min_usd": pl.Float64(),
    "cash_advance_apr_pct": pl.Float64(),
    "cash_advance_fee_pct": pl.Float64(),
    "cash_advance_fee_min_usd": pl.Float64(),
    "penalty_apr_pct": pl.Float64(),
    "foreign_txn_fee_pct": pl.Float64(),
    "late_fee_usd": pl.Float64(),
    "grace_period_days": pl.Int64(),
    "min_interest_charge_usd": pl.Float64(),
    "reward_currency": pl.Utf8(),
    "base_reward_rate": pl.Float64(),
    "point_value_usd": pl.Float64(),
    "signup_bonus_usd": pl.Float64(),
    "signup_spend_usd": pl.Float64(),
    "signup_months": pl.Int64(),
}
REWARD_SCHEMA: dict[str, pl.DataType] = {
    "card_id": pl.Utf8(),
    "category": pl.Utf8(),
    "rate": pl.Float64(),
    "annual_cap_usd": pl.Float64(),
}


def build_catalog(seed: int, scale: float, n_issuers: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``cards`` and ``card_rewards``; card ids are assigned in a shuffled order.

    Shuffling keeps a family's tiers from sitting on consecutive ids, so an id reveals nothing
    about which products are siblings.
    """
    slots = plan_slots(seed, catalog_size(seed, scale), n_issuers)
    order = table_rng(seed, "cards", "order").permutation(len(slots))
    rows: list[dict[str, Any]] = []
    rewards: list[dict[str, Any]] = []
    for position, slot_index in enumerate(order, start=1):
        slot = slots[int(slot_index)]
        card_id = f"CC-{position:04d}"
        rng = table_rng(seed, "cards", "terms", card_id)
        profile = PROFILES[slot.card_type]
        terms = draw_terms(rng, profile, slot.tier)
        rows.append(
            {
                "card_id": card_id,
                "card_name": slot.name,
                "issuer_id": slot.issuer_index + 1,
                "card_type": slot.card_type,
                "tier": slot.tier,
                **terms,
            }
        )
        for category, rate, cap in draw_bonuses(rng, profile, slot.tier, terms["base_reward_rate"]):
            rewards.append(
                {"card_id": card_id, "category": category, "rate": rate, "annual_cap_usd": cap}
            )
    cards = pl.DataFrame(rows, schema=CARD_SCHEMA)
    card_rewards = pl.DataFrame(rewards, schema=REWARD_SCHEMA)
    return cards, card_rewards
