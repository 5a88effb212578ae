"""What the store sells and at which prices: product catalogue, promotions and FX rates.

Each builder returns the raw table plus the numpy arrays later stages need (category index,
popularity, local price lists) so that orders never re-derive them from the strings.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np
import polars as pl

from replicas.generators.ecommerce import calendar as cal
from replicas.generators.ecommerce.sampling import TableSampler, inverse_cdf_table, sampler
from replicas.generators.vocab import brand_names
from replicas.seeding import table_rng


@dataclass(frozen=True)
class Category:
    """One product category; the numbers drive prices, basket quantities and returns."""

    name: str
    sku_prefix: str
    catalogue_share: float
    median_price_usd: float
    price_sigma: float
    item_return_rate: float  # probability that one line of this category triggers a return
    bulk_buy: bool  # grocery-style: larger quantities per line
    nouns: tuple[str, ...]
    adjectives: tuple[str, ...]

    def __post_init__(self) -> None:
        if not (self.name.isidentifier() and len(self.sku_prefix) == 3):
            raise ValueError(f"bad category identity: {self.name!r}/{self.sku_prefix!r}")
        if not 0 < self.catalogue_share < 1 or not 0 <= self.item_return_rate < 1:
            raise ValueError(f"category {self.name}: shares and rates must lie in [0, 1)")
        if self.median_price_usd <= 1 or self.price_sigma <= 0:
            raise ValueError(f"category {self.name}: bad price distribution")
        if not self.nouns or not self.adjectives:
            raise ValueError(f"category {self.name}: needs nouns and adjectives")


# Return rates differ on purpose (apparel high, electronics medium, grocery low): tasks test it.
CATEGORIES: tuple[Category, ...] = (
    Category("apparel", "APP", 0.22, 38, 0.50, 0.14, False,
             ("T-Shirt", "Hoodie", "Chinos", "Denim Jacket", "Sweater", "Polo Shirt", "Dress",
              "Leggings", "Rain Jacket", "Flannel Shirt", "Cardigan", "Joggers"),
             ("Merino", "Organic Cotton", "Linen", "Relaxed", "Slim", "Classic", "Heritage",
              "Everyday", "Performance", "Waffle-Knit")),
    Category("footwear", "FTW", 0.08, 85, 0.40, 0.11, False,
             ("Sneakers", "Running Shoes", "Chelsea Boots", "Loafers", "Sandals", "Hiking Boots",
              "Slippers", "Trail Runners"),
             ("Leather", "Suede", "Lightweight", "Waterproof", "Cushioned", "Canvas", "Vegan")),
    Category("electronics", "ELE", 0.12, 110, 0.80, 0.055, False,
             ("Wireless Earbuds", "Bluetooth Speaker", "Smartwatch", "USB-C Charger", "Power Bank",
              "Noise-Cancelling Headphones", "4K Webcam", "Mechanical Keyboard", "Wireless Mouse",
              "E-Reader", "Action Camera", "Smart Plug"),
             ("Pro", "Mini", "Ultra", "Compact", "Smart", "Max", "Lite", "Studio")),
    Category("home_kitchen", "HOM", 0.14, 45, 0.70, 0.03, False,
             ("Chef's Knife", "Cast Iron Skillet", "French Press", "Throw Blanket",
              "Linen Sheet Set", "Table Lamp", "Storage Bins", "Ceramic Mug Set", "Dutch Oven",
              "Cutting Board"),
             ("Stoneware", "Walnut", "Nordic", "Hand-Thrown", "Enamel", "Bamboo", "Essential")),
    Category("beauty", "BEA", 0.10, 22, 0.50, 0.015, False,
             ("Face Serum", "Moisturizer", "Shampoo", "Lip Balm", "Sunscreen SPF 50",
              "Eau de Parfum", "Hair Oil", "Body Wash", "Clay Mask"),
             ("Hydrating", "Vitamin C", "Fragrance-Free", "Botanical", "Repair", "Daily", "Rose")),
    Category("sports_outdoors", "SPO", 0.08, 50, 0.70, 0.035, False,
             ("Yoga Mat", "Water Bottle", "Daypack", "Camping Lantern", "Resistance Bands",
              "Dumbbell Set", "Cycling Gloves", "Trekking Poles", "Sleeping Bag"),
             ("Trail", "Alpine", "Insulated", "Packable", "Pro-Grip", "Summit", "Ultralight")),
    Category("toys_games", "TOY", 0.07, 28, 0.60, 0.02, False,
             ("Building Blocks Set", "Board Game", "1000-Piece Puzzle", "Plush Bear", "RC Car",
              "Card Game", "Wooden Train Set", "Art Kit"),
             ("Deluxe", "Junior", "Family", "Classic", "Adventure", "Rainbow", "Explorer")),
    Category("books", "BOK", 0.07, 16, 0.35, 0.012, False,
             ("Cookbook", "Novel", "Travel Guide", "Picture Book", "Biography", "Field Guide",
              "Poetry Collection"),
             ("Illustrated", "Paperback", "Hardcover", "Collected", "Pocket", "Annotated")),
    Category("grocery", "GRO", 0.07, 9, 0.50, 0.002, True,
             ("Ground Coffee", "Green Tea", "Dark Chocolate", "Olive Oil", "Granola", "Pasta",
              "Hot Sauce", "Protein Bars", "Honey"),
             ("Organic", "Single-Origin", "Fair Trade", "Artisan", "Cold-Pressed", "Raw")),
    Category("pet_supplies", "PET", 0.05, 24, 0.70, 0.006, True,
             ("Dog Food", "Cat Litter", "Chew Toy", "Pet Bed", "Leash", "Cat Tree", "Fish Food"),
             ("Grain-Free", "Durable", "Orthopedic", "Natural", "Reflective", "Senior")),
)  # fmt: skip

# Local list prices: the store publishes one price list per currency (not a daily FX conversion),
# so USD-reported revenue moves with the exchange rate — the reason marts convert at order date.
CURRENCIES: tuple[str, ...] = ("USD", "EUR", "GBP", "CAD")
PRICE_LIST_FACTOR = np.array([1.00, 0.95, 0.82, 1.38])
FX_LEVEL = np.array([1.0, 1.08, 1.27, 0.74])  # USD per unit of currency
FX_DAILY_VOL = 0.0045
FX_MEAN_REVERSION = 0.01

ZIPF_EXPONENT = 1.1
PRE_WINDOW_LAUNCH_SHARE = 0.75
INACTIVE_SHARE = 0.08


CATEGORY_TABLE_BITS = 18


@dataclass(frozen=True)
class Catalog:
    """The ``products`` table plus per-product arrays indexed by ``product_id - 1``."""

    products: pl.DataFrame
    category: np.ndarray  # index into CATEGORIES
    popularity: np.ndarray  # sampling weights, sum to 1 (Zipf over a random rank order)
    launched_us: np.ndarray
    local_price: np.ndarray  # shape (n_products, len(CURRENCIES))
    return_rate: np.ndarray  # per-line return probability
    by_popularity: TableSampler  # any product
    established: TableSampler  # products launched before the window
    category_mass: np.ndarray  # popularity summed per category
    category_tables: np.ndarray  # (n_categories, 2**CATEGORY_TABLE_BITS) inverse-CDF tables

    @property
    def size(self) -> int:
        return int(self.category.shape[0])

    def sample_in_categories(self, rng: np.random.Generator, categories: np.ndarray) -> np.ndarray:
        """One product per entry of ``categories``, by popularity within that category."""
        cell = rng.integers(0, self.category_tables.shape[1], size=categories.shape[0])
        return self.category_tables[categories, cell].astype(np.int64)


def n_products(scale: float) -> int:
    """Catalogue size grows sub-linearly with order volume, like a real store's."""
    return max(150, round(4000 * scale**0.5))


def build_catalog(seed: int, scale: float) -> Catalog:
    rng = table_rng(seed, "products")
    n = n_products(scale)
    shares = np.array([c.catalogue_share for c in CATEGORIES])
    category = rng.choice(len(CATEGORIES), size=n, p=shares / shares.sum())

    median = np.array([c.median_price_usd for c in CATEGORIES])[category]
    sigma = np.array([c.price_sigma for c in CATEGORIES])[category]
    raw_price = median * np.exp(sigma * rng.standard_normal(n))
    list_price = np.floor(np.clip(raw_price, 1.0, 2500.0)) + 0.99
    cost = np.round(list_price * rng.uniform(0.35, 0.65, size=n), 2)

    ranks = rng.permutation(n) + 1
    popularity = 1.0 / ranks**ZIPF_EXPONENT
    popularity /= popularity.sum()

    pre_window = rng.random(n) < PRE_WINDOW_LAUNCH_SHARE
    pre_start = (dt.date(2019, 1, 1) - cal.START_DATE).days
    launch_day = np.where(
        pre_window,
        rng.integers(pre_start, 0, size=n),
        rng.integers(0, cal.N_DAYS - 30, size=n),
    )
    launch_second = rng.integers(8 * 3600, 17 * 3600, size=n)
    launched_us = cal.START_US + launch_day * cal.US_PER_DAY + launch_second * cal.US_PER_S

    local_price = np.floor(list_price[:, None] * PRICE_LIST_FACTOR[None, :]) + 0.99

    product_id = np.arange(1, n + 1, dtype=np.int64)
    brands = pl.Series(brand_names(seed, 160))
    adjective_pool = [(ci, a) for ci, c in enumerate(CATEGORIES) for a in c.adjectives]
    noun_pool = [(ci, w) for ci, c in enumerate(CATEGORIES) for w in c.nouns]
    adjective = _pick_within_category(rng, category, adjective_pool)
    noun = _pick_within_category(rng, category, noun_pool)
    prefixes = pl.Series([c.sku_prefix for c in CATEGORIES])
    names = pl.Series([c.name for c in CATEGORIES])

    frame = pl.DataFrame(
        {
            "product_id": product_id,
            "prefix": prefixes.gather(category),
            "brand": brands.gather(rng.integers(0, brands.len(), size=n)),
            "adjective": pl.Series([a for _, a in adjective_pool]).gather(adjective),
            "noun": pl.Series([w for _, w in noun_pool]).gather(noun),
            "category": names.gather(category),
            "cost_usd": cost,
            "list_price_usd": list_price,
            "launched_at": cal.to_datetime(launched_us),
            "is_active": rng.random(n) >= INACTIVE_SHARE,
        }
    )
    base_name = pl.concat_str(["brand", "adjective", "noun"], separator=" ")
    products = frame.with_columns(
        sku=pl.concat_str([pl.col("prefix"), pl.col("product_id").cast(pl.String).str.zfill(6)],
                          separator="-"),
        name=base_name,
    ).with_columns(
        # Brand × adjective × noun can collide; later duplicates become "… v2", "… v3".
        name=pl.when(pl.col("name").cum_count().over("name") > 1)
        .then(pl.col("name") + " v" + pl.col("name").cum_count().over("name").cast(pl.String))
        .otherwise(pl.col("name"))
    ).select(
        "product_id", "sku", "name", "category", "brand", "cost_usd", "list_price_usd",
        "launched_at", "is_active",
    )  # fmt: skip

    established = np.where(launched_us < cal.START_US, popularity, 0.0)
    if established.sum() == 0:  # tiny catalogues: fall back to everything
        established = popularity
    tables = np.stack([
        inverse_cdf_table(np.where(category == ci, popularity, 0.0), CATEGORY_TABLE_BITS)
        if (category == ci).any() else inverse_cdf_table(popularity, CATEGORY_TABLE_BITS)
        for ci in range(len(CATEGORIES))
    ])  # fmt: skip
    return Catalog(
        products=products,
        category=category,
        popularity=popularity,
        launched_us=launched_us,
        local_price=local_price,
        return_rate=np.array([c.item_return_rate for c in CATEGORIES])[category],
        by_popularity=sampler(popularity),
        established=sampler(established),
        category_mass=np.bincount(category, weights=popularity, minlength=len(CATEGORIES)),
        category_tables=tables,
    )


def _pick_within_category(
    rng: np.random.Generator, category: np.ndarray, pool: list[tuple[int, str]]
) -> np.ndarray:
    """For each product, an index into ``pool`` among the entries of its own category."""
    owner = np.array([ci for ci, _ in pool])
    starts = np.searchsorted(owner, np.arange(len(CATEGORIES)), side="left")
    counts = np.bincount(owner, minlength=len(CATEGORIES))
    return starts[category] + (rng.random(category.shape[0]) * counts[category]).astype(np.int64)


# ------------------------------------------------------------------------------------------------
# promotions


@dataclass(frozen=True)
class Promotion:
    code: str
    description: str
    discount_pct: float | None
    discount_amount: float | None
    min_order_amount: float
    starts: dt.date
    ends: dt.date  # inclusive: valid through 23:59:59 of this day
    channel: str | None  # None = web and app; marketplace orders never take store codes
    first_order_only: bool
    take_rate: float  # share of eligible orders that use the code (not a column)

    def __post_init__(self) -> None:
        if (self.discount_pct is None) == (self.discount_amount is None):
            raise ValueError(f"{self.code}: exactly one of discount_pct / discount_amount")
        if self.ends < self.starts or not 0 < self.take_rate < 1:
            raise ValueError(f"{self.code}: bad window or take rate")


def _seasonal_promotions(rng: np.random.Generator, year: int) -> list[Promotion]:
    yy = year % 100
    bf = cal.black_friday(year)
    pct = [10.0, 15.0]

    def d(m: int, day: int) -> dt.date:
        return dt.date(year, m, day)

    return [
        Promotion(f"NEWYEAR{yy}", "New-year sale", float(rng.choice(pct)), None, 0.0,
                  d(1, 1), d(1, 7), None, False, 0.25),
        Promotion(f"VALENTINE{yy}", "Valentine's gifts", 10.0, None, 30.0,
                  d(2, 7), d(2, 14), None, False, 0.20),
        Promotion(f"SPRING{yy}", "Spring refresh", float(rng.choice(pct)), None, 0.0,
                  d(3, 20), d(4, 10), None, False, 0.22),
        Promotion(f"SUMMER{yy}", "Summer: 10 off 60+", None, 10.0, 60.0,
                  d(7, 1), d(7, 21), None, False, 0.30),
        Promotion(f"BACK2SCHOOL{yy}", "Back to school (web only)", 12.0, None, 0.0,
                  d(8, 15), d(9, 5), "web", False, 0.22),
        Promotion(f"BLACKFRIDAY{yy}", "Black Friday week", float(rng.choice([20.0, 25.0])),
                  None, 0.0, bf - dt.timedelta(days=3), bf + dt.timedelta(days=2), None, False,
                  0.45),
        Promotion(f"CYBER{yy}", "Cyber Monday: 20 off 100+ (web only)", None, 20.0, 100.0,
                  cal.cyber_monday(year), cal.cyber_monday(year), "web", False, 0.40),
        Promotion(f"HOLIDAY{yy}", "Holiday gifting", 15.0, None, 0.0,
                  d(12, 1), d(12, 20), None, False, 0.25),
    ]  # fmt: skip


def build_promotions(seed: int) -> tuple[pl.DataFrame, tuple[Promotion, ...]]:
    rng = table_rng(seed, "promotions")
    promos: list[Promotion] = [
        Promotion("WELCOME10", "10 % off a first order", 10.0, None, 0.0,
                  cal.START_DATE, cal.END_DATE, None, True, 0.35),
        Promotion("APP15", "15 % off in the app", 15.0, None, 0.0,
                  dt.date(2024, 4, 1), cal.END_DATE, "app", False, 0.10),
        Promotion("VIP25", "25 off orders of 150+", None, 25.0, 150.0,
                  dt.date(2025, 1, 1), cal.END_DATE, None, False, 0.06),
    ]  # fmt: skip
    for year in range(cal.START_DATE.year, cal.END_DATE.year + 1):
        promos.extend(p for p in _seasonal_promotions(rng, year) if p.starts <= cal.END_DATE)

    def ts(day: dt.date, end: bool) -> np.datetime64:
        base = np.datetime64(day.isoformat(), "us")
        return base + (np.timedelta64(86_399, "s") if end else np.timedelta64(0, "s"))

    frame = pl.DataFrame(
        {
            "promo_code": [p.code for p in promos],
            "description": [p.description for p in promos],
            "discount_type": [
                "percent" if p.discount_pct is not None else "amount" for p in promos
            ],
            "discount_pct": pl.Series([p.discount_pct for p in promos], dtype=pl.Float64),
            "discount_amount": pl.Series([p.discount_amount for p in promos], dtype=pl.Float64),
            "min_order_amount": [p.min_order_amount for p in promos],
            "starts_at": np.array([ts(p.starts, False) for p in promos], dtype="datetime64[us]"),
            "ends_at": np.array([ts(p.ends, True) for p in promos], dtype="datetime64[us]"),
            "channel": pl.Series([p.channel for p in promos], dtype=pl.String),
            "first_order_only": [p.first_order_only for p in promos],
        }
    )
    return frame, tuple(promos)


# ------------------------------------------------------------------------------------------------
# FX


def build_fx(seed: int) -> tuple[pl.DataFrame, np.ndarray]:
    """Daily ``rate_to_usd`` per currency (mean-reverting log random walk); also (day, cur) array."""
    rng = table_rng(seed, "fx_rates")
    n_cur = len(CURRENCIES)
    target = np.log(FX_LEVEL)
    shocks = FX_DAILY_VOL * rng.standard_normal((cal.N_DAYS, n_cur))
    log_rate = np.empty((cal.N_DAYS, n_cur))
    level = target + 0.02 * rng.standard_normal(n_cur)
    for day in range(cal.N_DAYS):
        level = level + FX_MEAN_REVERSION * (target - level) + shocks[day]
        log_rate[day] = level
    rates = np.round(np.exp(log_rate), 6)
    rates[:, 0] = 1.0  # USD
    dates = np.datetime64(cal.START_DATE.isoformat(), "D") + np.arange(cal.N_DAYS)
    frame = pl.DataFrame(
        {
            "date": np.repeat(dates, n_cur),
            "currency": np.tile(np.array(CURRENCIES), cal.N_DAYS),
            "rate_to_usd": rates.reshape(-1),
        }
    )
    return frame, rates
