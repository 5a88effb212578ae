"""The seed's card catalog and customers, read straight from a built credit_cards snapshot.

Only the marts a person would read to answer a card question are used: ``card_terms`` (the
Schumer-box terms), ``card_rewards_terms`` (rewards, sign-up bonus, first-year fee, student-only
and secured flags), ``customer_profile`` (credit score, spend) and ``card_eligibility`` (one row per
customer and card with the first rule that applies). Nothing here imports the verifier.

Also here: the name arithmetic the builder needs to plant name defects that are unambiguous
(a typo close to exactly one real name; an invented name far from every real one).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

CATEGORIES: tuple[str, ...] = ("groceries", "dining", "travel", "gas", "online", "other")

_TERMS_SQL = """
select card_id, card_name, issuer, card_type, min_credit_score, annual_fee_usd,
       purchase_apr_min_pct, purchase_apr_max_pct, apr_is_variable,
       intro_purchase_apr_pct, intro_purchase_months, intro_bt_apr_pct, intro_bt_months,
       bt_fee_pct, bt_fee_min_usd, cash_advance_apr_pct, cash_advance_fee_pct,
       cash_advance_fee_min_usd, penalty_apr_pct, foreign_txn_fee_pct, late_fee_usd,
       grace_period_days, min_interest_charge_usd
from card_terms order by card_id
"""

_REWARDS_SQL = """
select card_id, network, reward_currency, base_reward_rate, point_value_usd,
       groceries_rate, groceries_cap_usd, dining_rate, dining_cap_usd, travel_rate,
       travel_cap_usd, gas_rate, gas_cap_usd, online_rate, online_cap_usd, other_rate,
       bonus_categories, signup_bonus_usd, signup_spend_usd, signup_months,
       annual_fee_first_year_usd, is_secured, is_student_only, security_deposit_min_usd
from card_rewards_terms order by card_id
"""

_PROFILE_SQL = """
select customer_id, first_name, credit_score, credit_tier, is_student, months_since_bankruptcy,
       avg_monthly_groceries_usd, avg_monthly_dining_usd, avg_monthly_travel_usd,
       avg_monthly_gas_usd, avg_monthly_online_usd, avg_monthly_other_usd, avg_monthly_total_usd
from customer_profile order by customer_id
"""

_ELIGIBILITY_SQL = "select customer_id, card_id, reason from card_eligibility order by 1, 2"


@dataclass(frozen=True)
class Card:
    card_id: str
    name: str
    issuer: str
    card_type: str
    min_credit_score: int
    annual_fee: float
    first_year_fee: float
    apr_min: float
    apr_max: float
    apr_variable: bool
    intro_purchase_rate: float | None
    intro_purchase_months: int | None
    intro_bt_rate: float | None
    intro_bt_months: int | None
    bt_fee_pct: float
    bt_fee_min: float
    cash_apr: float
    cash_fee_pct: float
    cash_fee_min: float
    penalty_apr: float | None
    foreign_fee_pct: float
    late_fee: float
    grace_days: int
    min_interest: float
    network: str
    reward_currency: str
    base_rate: float
    point_value: float
    rates: tuple[tuple[str, float, float | None], ...]  # (category, rate, cap_usd)
    bonus_categories: tuple[str, ...]
    signup_bonus: float | None
    signup_spend: float | None
    signup_months: int | None
    is_secured: bool
    is_student_only: bool
    deposit_min: int | None

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise ValueError(f"{self.card_id}: empty card name")
        if self.apr_min > self.apr_max:
            raise ValueError(f"{self.card_id}: purchase APR min above max")
        if (self.intro_purchase_rate is None) != (self.intro_purchase_months is None):
            raise ValueError(f"{self.card_id}: intro purchase rate and months disagree")
        if (self.intro_bt_rate is None) != (self.intro_bt_months is None):
            raise ValueError(f"{self.card_id}: intro balance-transfer rate and months disagree")

    @property
    def single_apr(self) -> bool:
        return self.apr_min == self.apr_max

    @property
    def has_waiver(self) -> bool:
        return self.first_year_fee < self.annual_fee

    @property
    def has_intro(self) -> bool:
        return self.intro_purchase_rate is not None or self.intro_bt_rate is not None

    def rate_for(self, category: str) -> tuple[float, float | None]:
        for cat, rate, cap in self.rates:
            if cat == category:
                return rate, cap
        raise ValueError(f"unknown category {category!r}")


@dataclass(frozen=True)
class Customer:
    customer_id: int
    first_name: str
    credit_score: int
    credit_tier: str
    is_student: bool
    months_since_bankruptcy: int | None
    monthly_spend: tuple[tuple[str, float], ...]
    monthly_total: float

    def __post_init__(self) -> None:
        if not 300 <= self.credit_score <= 850:
            raise ValueError(f"customer {self.customer_id}: credit score out of range")


@dataclass(frozen=True)
class SeedCatalog:
    seed: int
    cards: tuple[Card, ...]
    customers: tuple[Customer, ...]
    # (customer_id, card_id) -> reason ('ok' = eligible)
    eligibility: dict[tuple[int, str], str] = field(compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.cards:
            raise ValueError(f"seed {self.seed}: catalog has no cards")
        if len({c.name.lower() for c in self.cards}) != len(self.cards):
            raise ValueError(f"seed {self.seed}: duplicate card names")

    def card(self, card_id: str) -> Card:
        for c in self.cards:
            if c.card_id == card_id:
                return c
        raise KeyError(card_id)

    def customer(self, customer_id: int) -> Customer:
        for c in self.customers:
            if c.customer_id == customer_id:
                return c
        raise KeyError(customer_id)

    def reason(self, customer_id: int, card_id: str) -> str:
        return self.eligibility[(customer_id, card_id)]

    def eligible(self, customer_id: int, card_id: str) -> bool:
        return self.eligibility[(customer_id, card_id)] == "ok"

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.cards)

    @property
    def issuers(self) -> tuple[str, ...]:
        return tuple(sorted({c.issuer for c in self.cards}))


def _f(value: object) -> float:
    if not isinstance(value, int | float):
        raise ValueError(f"expected a number, got {value!r}")
    return float(value)


def _opt_f(value: object) -> float | None:
    return None if value is None else _f(value)


def _opt_i(value: object) -> int | None:
    return None if value is None else int(_f(value))


def load_catalog(seed: int, scale: float | None = None) -> SeedCatalog:
    """The catalog of one seed, building the snapshot first when it is not cached."""
    # Imported here so `--help` and the template modules work without the kit's build stack.
    import replicas

    snapshot = replicas.ensure_snapshot("credit_cards", seed=seed, scale=scale)
    return read_catalog(snapshot.warehouse, seed)


def read_catalog(warehouse: Path, seed: int) -> SeedCatalog:
    from replicas.db import open_readonly

    con = open_readonly(warehouse)
    try:
        terms = con.execute(_TERMS_SQL).fetchall()
        rewards = {r[0]: r for r in con.execute(_REWARDS_SQL).fetchall()}
        profiles = con.execute(_PROFILE_SQL).fetchall()
        elig = con.execute(_ELIGIBILITY_SQL).fetchall()
    finally:
        con.close()
    cards = []
    for t in terms:
        rw = rewards[t[0]]
        rates: list[tuple[str, float, float | None]] = []
        for i, cat in enumerate(CATEGORIES):
            if cat == "other":
                rates.append((cat, _f(rw[15]), None))
            else:
                rates.append((cat, _f(rw[5 + 2 * i]), _opt_f(rw[6 + 2 * i])))
        bonus = tuple(x.strip() for x in rw[16].split(",")) if rw[16] else ()
        cards.append(
            Card(
                card_id=t[0],
                name=t[1],
                issuer=t[2],
                card_type=t[3],
                min_credit_score=int(t[4]),
                annual_fee=_f(t[5]),
                first_year_fee=_f(rw[20]),
                apr_min=_f(t[6]),
                apr_max=_f(t[7]),
                apr_variable=bool(t[8]),
                intro_purchase_rate=_opt_f(t[9]),
                intro_purchase_months=_opt_i(t[10]),
                intro_bt_rate=_opt_f(t[11]),
                intro_bt_months=_opt_i(t[12]),
                bt_fee_pct=_f(t[13]),
                bt_fee_min=_f(t[14]),
                cash_apr=_f(t[15]),
                cash_fee_pct=_f(t[16]),
                cash_fee_min=_f(t[17]),
                penalty_apr=_opt_f(t[18]),
                foreign_fee_pct=_f(t[19]),
                late_fee=_f(t[20]),
                grace_days=int(t[21]),
                min_interest=_f(t[22]),
                network=str(rw[1]),
                reward_currency=str(rw[2]),
                base_rate=_f(rw[3]),
                point_value=_f(rw[4]),
                rates=tuple(rates),
                bonus_categories=bonus,
                signup_bonus=_opt_f(rw[17]),
                signup_spend=_opt_f(rw[18]),
                signup_months=_opt_i(rw[19]),
                is_secured=bool(rw[21]),
                is_student_only=bool(rw[22]),
                deposit_min=_opt_i(rw[23]),
            )
        )
    customers = tuple(
        Customer(
            customer_id=int(p[0]),
            first_name=str(p[1]),
            credit_score=int(p[2]),
            credit_tier=str(p[3]),
            is_student=bool(p[4]),
            months_since_bankruptcy=_opt_i(p[5]),
            monthly_spend=tuple((cat, _f(p[6 + i])) for i, cat in enumerate(CATEGORIES)),
            monthly_total=_f(p[12]),
        )
        for p in profiles
    )
    eligibility = {(int(e[0]), str(e[1])): str(e[2]) for e in elig}
    return SeedCatalog(seed=seed, cards=tuple(cards), customers=customers, eligibility=eligibility)


def annual_rewards_usd(card: Card, customer: Customer) -> float:
    """Yearly rewards in USD on the customer's average spend (the card_value mart's formula)."""
    total = 0.0
    for cat, monthly in customer.monthly_spend:
        spend = monthly * 12
        rate, cap = card.rate_for(cat)
        if cap is None:
            total += spend * rate
        else:
            total += min(spend, cap) * rate + max(spend - cap, 0.0) * card.base_rate
    return total * card.point_value


# --- names ---------------------------------------------------------------------------------


def normalize_name(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def edit_distance(a: str, b: str) -> int:
    """Optimal string alignment distance (an adjacent transposition costs one edit)."""
    if a == b:
        return 0
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


def within(a: str, b: str, k: int) -> bool:
    """edit_distance(a, b) <= k, skipping the quadratic work when lengths already rule it out."""
    return abs(len(a) - len(b)) <= k and edit_distance(a, b) <= k


def is_clean_typo(candidate: str, target: str, names: Iterable[str]) -> bool:
    """A typo of ``target`` only: not a real name, close to ``target``, far from every other."""
    names = tuple(names)
    if candidate.lower() in {n.lower() for n in names}:
        return False
    cand = normalize_name(candidate)
    if cand in {normalize_name(n) for n in names}:
        return False
    if edit_distance(cand, normalize_name(target)) > 2:
        return False
    return not any(within(cand, normalize_name(n), 3) for n in names if n != target)


def is_clean_invention(candidate: str, names: Iterable[str]) -> bool:
    """An invented name no reader could take for a typo of a real one."""
    cand = normalize_name(candidate)
    return not any(within(cand, normalize_name(n), 3) for n in names)


@functools.lru_cache(maxsize=16)
def near_collision_pairs(names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Pairs of *real* names that look like typos of each other (the catalog's deliberate traps)."""
    ordered = sorted(names)
    out = []
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if within(normalize_name(a), normalize_name(b), 1):
                out.append((a, b))
    return tuple(out)
