"""Per-card-type term profiles for the credit-card catalog.

A profile says which values a product of one type realistically carries in its Regulation Z
(§1026.60) disclosure: fee ladders by tier, APR bands, intro offers, rewards and eligibility.
Keeping them as data (one registry entry per type) lets the catalog builder stay a loop of draws
instead of a chain of per-type conditionals.
"""

from __future__ import annotations

from dataclasses import dataclass

CARD_TYPES: tuple[str, ...] = (
    "cash_back",
    "travel",
    "balance_transfer",
    "student",
    "secured",
    "business",
)
SPEND_CATEGORIES: tuple[str, ...] = ("groceries", "dining", "travel", "gas", "online", "other")
BONUS_CATEGORIES: tuple[str, ...] = ("groceries", "dining", "travel", "gas", "online")
REWARD_CURRENCIES: tuple[str, ...] = ("cash_back", "points", "miles")

APR_CEILING_PCT = 35.99
PENALTY_APR_CEILING_PCT = 29.99


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ValueError(message)


@dataclass(frozen=True)
class BonusSpec:
    """One possible bonus category: how often a card of the type has it, its rates and caps.

    ``caps`` are annual spend caps in USD on which the bonus rate applies; ``None`` = uncapped.
    """

    category: str
    probability: float
    rates: tuple[float, ...]
    caps: tuple[int | None, ...]

    def __post_init__(self) -> None:
        _require(self.category in BONUS_CATEGORIES, f"unknown bonus category {self.category!r}")
        _require(0.0 <= self.probability <= 1.0, "bonus probability must be in [0, 1]")
        _require(bool(self.rates) and all(r > 0 for r in self.rates), "bonus rates must be > 0")
        _require(bool(self.caps), "bonus caps must not be empty")
        _require(all(c is None or c > 0 for c in self.caps), "bonus caps must be > 0 or None")


@dataclass(frozen=True)
class CardTypeProfile:
    """The realistic term ranges of one card type; tier 0 is the entry product of a family."""

    card_type: str
    family_weight: float
    products: tuple[str, ...]
    tiers: tuple[str, ...]
    annual_fees_by_tier: tuple[tuple[int, ...], ...]
    first_year_waiver_prob: float
    apr_min_whole_range: tuple[int, int]
    apr_spreads: tuple[int, ...]
    fixed_apr_prob: float
    intro_purchase_prob: float
    intro_purchase_months: tuple[int, ...]
    intro_bt_prob: float
    intro_bt_months: tuple[int, ...]
    fx_free_prob: float
    reward_currency: str
    base_rates: tuple[float, ...]
    point_values_usd: tuple[float, ...]
    bonuses: tuple[BonusSpec, ...]
    max_bonus_categories: int
    signup_prob: float
    signup_bonuses_usd: tuple[int, ...]
    signup_spends_usd: tuple[int, ...]
    signup_months: tuple[int, ...]
    min_scores: tuple[int, ...]
    score_step_per_tier: int
    is_secured: bool
    is_student_only: bool

    def __post_init__(self) -> None:
        _require(self.card_type in CARD_TYPES, f"unknown card type {self.card_type!r}")
        _require(self.family_weight > 0, "family_weight must be > 0")
        _require(bool(self.products), "products must not be empty")
        _require(bool(self.tiers) and self.tiers[0] == "", "the first tier must be the bare name")
        _require(
            len(self.annual_fees_by_tier) >= 1
            and all(all(0 <= f <= 695 for f in fees) and fees for fees in self.annual_fees_by_tier),
            "annual fees must be in [0, 695]",
        )
        lo, hi = self.apr_min_whole_range
        _require(10 <= lo <= hi <= 35, "purchase APR whole range must lie in [10, 35]")
        _require(all(s >= 0 for s in self.apr_spreads) and bool(self.apr_spreads), "bad spreads")
        for months in (self.intro_purchase_months, self.intro_bt_months):
            _require(bool(months) and all(6 <= m <= 21 for m in months), "intro months in 6..21")
        for prob in (
            self.first_year_waiver_prob,
            self.fixed_apr_prob,
            self.intro_purchase_prob,
            self.intro_bt_prob,
            self.fx_free_prob,
            self.signup_prob,
        ):
            _require(0.0 <= prob <= 1.0, "probabilities must be in [0, 1]")
        _require(self.reward_currency in REWARD_CURRENCIES, "unknown reward currency")
        _require(bool(self.base_rates) and all(r >= 0 for r in self.base_rates), "bad base rates")
        _require(all(0 < v <= 0.02 for v in self.point_values_usd), "point value in (0, 0.02]")
        _require(self.max_bonus_categories >= 0, "max_bonus_categories must be >= 0")
        _require(
            bool(self.signup_bonuses_usd and self.signup_spends_usd and self.signup_months),
            "sign-up choices must not be empty",
        )
        _require(all(300 <= s <= 850 for s in self.min_scores), "min scores in [300, 850]")


_GROCERY_CAPS: tuple[int | None, ...] = (6000, 6000, 12000, None)
_ROTATING_CAPS: tuple[int | None, ...] = (6000, 10000, None, None)
_BUSINESS_CAPS: tuple[int | None, ...] = (25000, 50000, 150000, None)

PROFILES: dict[str, CardTypeProfile] = {
    p.card_type: p
    for p in (
        CardTypeProfile(
            card_type="cash_back",
            family_weight=0.28,
            products=("Cash", "Cash Back", "Everyday Cash", "Cash Rewards", "Rewards", "Cashback"),
            tiers=("", "Plus", "Preferred", "360"),
            annual_fees_by_tier=((0,), (0, 0, 95), (95,), (95, 0)),
            first_year_waiver_prob=0.5,
            apr_min_whole_range=(18, 24),
            apr_spreads=(6, 7, 8, 10),
            fixed_apr_prob=0.03,
            intro_purchase_prob=0.6,
            intro_purchase_months=(12, 15, 15, 18),
            intro_bt_prob=0.45,
            intro_bt_months=(12, 15, 18),
            fx_free_prob=0.2,
            reward_currency="cash_back",
            base_rates=(1.0, 1.0, 1.5, 2.0),
            point_values_usd=(0.01,),
            bonuses=(
                BonusSpec("groceries", 0.55, (2.0, 3.0, 4.0, 6.0), _GROCERY_CAPS),
                BonusSpec("dining", 0.5, (2.0, 3.0, 4.0), (None, 6000, 10000)),
                BonusSpec("gas", 0.4, (2.0, 3.0), _ROTATING_CAPS),
                BonusSpec("online", 0.35, (2.0, 3.0, 5.0), _ROTATING_CAPS),
                BonusSpec("travel", 0.15, (2.0, 5.0), (None,)),
            ),
            max_bonus_categories=3,
            signup_prob=0.8,
            signup_bonuses_usd=(150, 200, 200, 250, 300),
            signup_spends_usd=(500, 1000, 1500),
            signup_months=(3,),
            min_scores=(640, 670, 670, 690),
            score_step_per_tier=30,
            is_secured=False,
            is_student_only=False,
        ),
        CardTypeProfile(
            card_type="travel",
            family_weight=0.24,
            products=("Travel", "Miles", "Voyager", "Explorer", "Traveler", "Sky Miles", "Journey"),
            tiers=("", "Plus", "Preferred", "Reserve", "Elite"),
            annual_fees_by_tier=((0, 95), (95, 95, 150), (250, 325, 395), (550, 695), (495, 695)),
            first_year_waiver_prob=0.35,
            apr_min_whole_range=(19, 27),
            apr_spreads=(6, 7, 8),
            fixed_apr_prob=0.02,
            intro_purchase_prob=0.2,
            intro_purchase_months=(12, 15),
            intro_bt_prob=0.1,
            intro_bt_months=(12, 15),
            fx_free_prob=0.9,
            reward_currency="points",
            base_rates=(1.0, 1.25, 1.5, 2.0),
            point_values_usd=(0.01, 0.01, 0.0125),
            bonuses=(
                BonusSpec("travel", 0.95, (2.0, 3.0, 3.0, 5.0), (None,)),
                BonusSpec("dining", 0.7, (2.0, 3.0, 4.0), (None,)),
                BonusSpec("groceries", 0.25, (2.0, 3.0), (25000, None)),
                BonusSpec("gas", 0.15, (2.0,), (None,)),
            ),
            max_bonus_categories=3,
            signup_prob=0.95,
            signup_bonuses_usd=(300, 500, 600, 750, 1000),
            signup_spends_usd=(3000, 4000, 5000, 6000),
            signup_months=(3,),
            min_scores=(690, 700, 720),
            score_step_per_tier=25,
            is_secured=False,
            is_student_only=False,
        ),
        CardTypeProfile(
            card_type="balance_transfer",
            family_weight=0.12,
            products=("Balance Transfer", "Low Rate", "Clear", "Reset", "Platinum"),
            tiers=("", "Plus"),
            annual_fees_by_tier=((0,),),
            first_year_waiver_prob=0.0,
            apr_min_whole_range=(11, 19),
            apr_spreads=(8, 10, 11),
            fixed_apr_prob=0.08,
            intro_purchase_prob=0.7,
            intro_purchase_months=(12, 15, 18, 21),
            intro_bt_prob=1.0,
            intro_bt_months=(15, 18, 21, 21),
            fx_free_prob=0.1,
            reward_currency="cash_back",
            base_rates=(0.0, 0.0, 1.0),
            point_values_usd=(0.01,),
            bonuses=(),
            max_bonus_categories=0,
            signup_prob=0.1,
            signup_bonuses_usd=(100, 150),
            signup_spends_usd=(500, 1000),
            signup_months=(3,),
            min_scores=(670, 680, 700),
            score_step_per_tier=20,
            is_secured=False,
            is_student_only=False,
        ),
        CardTypeProfile(
            card_type="student",
            family_weight=0.1,
            products=("Student", "Campus Cash", "Student Rewards", "Scholar"),
            tiers=("",),
            annual_fees_by_tier=((0, 0, 0, 0, 0, 0, 0, 0, 0, 39),),
            first_year_waiver_prob=0.0,
            apr_min_whole_range=(18, 27),
            apr_spreads=(0, 6, 8),
            fixed_apr_prob=0.1,
            intro_purchase_prob=0.3,
            intro_purchase_months=(6, 6, 9, 12),
            intro_bt_prob=0.1,
            intro_bt_months=(6, 9),
            fx_free_prob=0.5,
            reward_currency="cash_back",
            base_rates=(1.0, 1.0, 1.5),
            point_values_usd=(0.01,),
            bonuses=(
                BonusSpec("dining", 0.5, (2.0, 3.0), (1500, 6000, None)),
                BonusSpec("online", 0.4, (2.0, 3.0), (1500, 6000)),
                BonusSpec("groceries", 0.3, (2.0,), (1500, 6000)),
            ),
            max_bonus_categories=2,
            signup_prob=0.5,
            signup_bonuses_usd=(50, 75, 100),
            signup_spends_usd=(200, 300, 500),
            signup_months=(3,),
            min_scores=(580, 600, 620),
            score_step_per_tier=0,
            is_secured=False,
            is_student_only=True,
        ),
        CardTypeProfile(
            card_type="secured",
            family_weight=0.1,
            products=("Secured", "Secured Cash", "Build", "Foundation"),
            tiers=("",),
            annual_fees_by_tier=((0, 0, 0, 0, 0, 0, 25, 29, 35, 39),),
            first_year_waiver_prob=0.0,
            apr_min_whole_range=(22, 29),
            apr_spreads=(0, 0, 0, 4),
            fixed_apr_prob=0.15,
            intro_purchase_prob=0.0,
            intro_purchase_months=(6,),
            intro_bt_prob=0.0,
            intro_bt_months=(6,),
            fx_free_prob=0.4,
            reward_currency="cash_back",
            base_rates=(0.0, 1.0, 1.0),
            point_values_usd=(0.01,),
            bonuses=(
                BonusSpec("gas", 0.25, (2.0,), (1000, 6000)),
                BonusSpec("dining", 0.25, (2.0,), (1000, 6000)),
            ),
            max_bonus_categories=1,
            signup_prob=0.0,
            signup_bonuses_usd=(0,),
            signup_spends_usd=(0,),
            signup_months=(3,),
            min_scores=(300,),
            score_step_per_tier=0,
            is_secured=True,
            is_student_only=False,
        ),
        CardTypeProfile(
            card_type="business",
            family_weight=0.16,
            products=("Business Cash", "Business Miles", "Business Rewards", "Business Platinum"),
            tiers=("", "Plus", "Preferred", "Elite"),
            annual_fees_by_tier=((0,), (0, 95, 99), (150, 195), (250,)),
            first_year_waiver_prob=0.4,
            apr_min_whole_range=(17, 25),
            apr_spreads=(6, 8),
            fixed_apr_prob=0.03,
            intro_purchase_prob=0.5,
            intro_purchase_months=(9, 12, 12),
            intro_bt_prob=0.2,
            intro_bt_months=(9, 12),
            fx_free_prob=0.6,
            reward_currency="points",
            base_rates=(1.0, 1.0, 1.5, 2.0),
            point_values_usd=(0.01, 0.01, 0.0125),
            bonuses=(
                BonusSpec("gas", 0.5, (2.0, 3.0, 5.0), _BUSINESS_CAPS),
                BonusSpec("online", 0.5, (2.0, 3.0, 5.0), _BUSINESS_CAPS),
                BonusSpec("travel", 0.4, (2.0, 3.0), (None,)),
                BonusSpec("dining", 0.3, (2.0, 3.0), (None, 50000)),
            ),
            max_bonus_categories=3,
            signup_prob=0.85,
            signup_bonuses_usd=(500, 750, 900, 1000),
            signup_spends_usd=(3000, 5000, 8000, 15000),
            signup_months=(3, 3, 6),
            min_scores=(680, 690, 700),
            score_step_per_tier=20,
            is_secured=False,
            is_student_only=False,
        ),
    )
}
