"""Issuer and card-product names, with deliberate near-collisions.

The compliance verifier must catch a misspelled or confused card name, so the catalog is built
to be confusable on purpose, the way real catalogs are ("Venture" / "VentureOne"):

- tier ladders: one brand + product across tiers ("Summit Cash", "Summit Cash Plus",
  "Summit Cash Preferred"), so one name is a prefix of another;
- shared words: brands are drawn with replacement, so the same brand shows up at several
  issuers with different products;
- twins: a product copied to another issuer under a variant spelling (``VARIANTS``:
  "Harbor" / "Harbour", "Cash Back" / "Cash-Back", "Traveler" / "Traveler's", "... One").

Names stay unique case-insensitively and use only letters, digits, spaces, hyphens and
apostrophes.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9' -]*[A-Za-z0-9']$")

ISSUER_STEMS: tuple[str, ...] = (
    "Harborline",
    "Bluewater",
    "Granite Peak",
    "Northgate",
    "Riverbend",
    "Copperleaf",
    "Stonebridge",
    "Lakeshore",
    "Ironwood",
    "Silverline",
    "Prairie Plains",
    "Fairhaven",
    "Westbrook",
    "Oakmont",
    "Kingsbridge",
    "Maplecrest",
    "Clearwater",
    "Tidewater",
    "Brightpath",
    "First Meridian",
    "Hollow Creek",
    "Palisade",
    "Sandpiper",
    "Red Mesa",
)
ISSUER_SUFFIXES: tuple[str, ...] = (
    "Bank",
    "Bank",
    "National Bank",
    "Financial",
    "Credit Union",
    "Bancorp",
    "Savings Bank",
    "Trust",
)
NETWORKS: tuple[str, ...] = ("Visa", "Mastercard", "American Express", "Discover")
NETWORK_WEIGHTS: tuple[float, ...] = (0.45, 0.35, 0.1, 0.1)

BRANDS: tuple[str, ...] = (
    "Summit",
    "Horizon",
    "Atlas",
    "Meridian",
    "Evergreen",
    "Beacon",
    "Cascade",
    "Pinnacle",
    "Harbor",
    "Aspen",
    "Frontier",
    "Liberty",
    "Keystone",
    "Crest",
    "Sterling",
    "Compass",
    "Northstar",
    "Bluesky",
    "Redwood",
    "Vista",
    "Cardinal",
    "Juniper",
    "Solstice",
    "Granite",
    "Orion",
    "Willow",
    "Prism",
    "Gray Rock",
    "Centerline",
    "Everyday",
)

_SWAPS: dict[str, str] = {
    "Harbor": "Harbour",
    "Traveler": "Traveller",
    "Centerline": "Centreline",
    "Gray": "Grey",
    "Northstar": "North Star",
    "Bluesky": "Blue Sky",
    "Everyday": "Every Day",
    "Cashback": "Cash Back",
    "Cash Back": "Cash-Back",
    "Low Rate": "Low-Rate",
    "Rewards": "Reward",
    "Explorer": "Explorer's",
    "Voyager": "Voyager's",
    "Sky Miles": "SkyMiles",
}


def _swap_word(name: str) -> str | None:
    """Replace the first word (or phrase) with a known near-spelling; None if nothing applies."""
    for original, variant in _SWAPS.items():
        pattern = rf"\b{re.escape(original)}(?![\w'-])"
        if re.search(pattern, name):
            return re.sub(pattern, variant, name, count=1)
    return None


TIER_WORDS = frozenset({"Plus", "Preferred", "Reserve", "Elite", "360", "One"})
_PLURALS: dict[str, str] = {
    "Rewards": "Reward",
    "Miles": "Mile",
    "Explorer": "Explorers",
    "Traveler": "Travelers",
    "Voyager": "Voyagers",
    "Journey": "Journeys",
    "Scholar": "Scholars",
}


def _append_one(name: str) -> str | None:
    """The "QuicksilverOne" pattern: an entry product with " One" appended (a prefix collision)."""
    return None if name.rpartition(" ")[2] in TIER_WORDS else f"{name} One"


def _toggle_plural(name: str) -> str | None:
    """Plural/singular confusion on the last word ("Summit Miles" -> "Summit Mile")."""
    head, _, last = name.rpartition(" ")
    return f"{head} {_PLURALS[last]}" if head and last in _PLURALS else None


VARIANTS: dict[str, Callable[[str], str | None]] = {
    "spelling_swap": _swap_word,
    "one_suffix": _append_one,
    "plural_toggle": _toggle_plural,
}


def issuer_names(rng: np.random.Generator, count: int) -> list[str]:
    """``count`` distinct fictional bank names ("Harborline Bank")."""
    if not 1 <= count <= len(ISSUER_STEMS):
        raise ValueError(f"issuer count must be in 1..{len(ISSUER_STEMS)}, got {count}")
    stems = rng.choice(len(ISSUER_STEMS), size=count, replace=False)
    suffixes = rng.integers(0, len(ISSUER_SUFFIXES), size=count)
    return [f"{ISSUER_STEMS[s]} {ISSUER_SUFFIXES[x]}" for s, x in zip(stems, suffixes, strict=True)]


def family_name(brand: str, product: str, tier: str) -> str:
    """The product name of one tier of a family ("Summit Cash" + "Plus")."""
    return " ".join(part for part in (brand, product, tier) if part)


def twin_name(rng: np.random.Generator, source: str, taken: set[str]) -> str | None:
    """A near-collision of ``source`` not yet in ``taken`` (lower-cased), or None.

    Variants are tried in a seeded order so the kind of confusion differs between seeds.
    """
    names = list(VARIANTS)
    for index in rng.permutation(len(names)):
        candidate = VARIANTS[names[int(index)]](source)
        if candidate and candidate.lower() not in taken and NAME_PATTERN.match(candidate):
            return candidate
    return None
