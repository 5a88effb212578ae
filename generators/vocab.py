"""Small seeded vocabularies (person names, brands) built with Faker.

Faker is slow per call (~5 µs even unweighted) and keeps global-ish state, so generators never call
it per row: they build a few hundred distinct strings here, once per seed, and index into them
with numpy. Each vocabulary is drawn from a Faker instance re-seeded from the replica seed, so the
same seed always yields the same vocabulary (for a given Faker version).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import lru_cache

from faker import Faker

from replicas.seeding import table_rng

#: The only Faker provider the vocabularies call (``first_name``, ``last_name`` and the
#: ``random_element`` every provider has). Loading all ~25 providers cost ~70 ms per locale
#: (Faker lists each provider's locale modules on disk); the draws are the same either way,
#: since every provider shares the instance's seeded random stream.
_PROVIDERS = ["faker.providers.person"]


@lru_cache(maxsize=32)
def _faker(locale: str) -> Faker:
    # Re-seeding in seeded_faker makes reuse deterministic.
    return Faker(locale, providers=_PROVIDERS, use_weighting=False)


def seeded_faker(seed: int, locale: str, purpose: str) -> Faker:
    """A Faker for ``locale`` whose stream depends only on (seed, locale, purpose)."""
    fake = _faker(locale)
    fake.seed_instance(int(table_rng(seed, "vocab", locale, purpose).integers(0, 2**31 - 1)))
    return fake


def distinct(draw: Callable[[], str], n: int, *, max_tries: int = 20) -> list[str]:
    """Up to ``n`` distinct values of ``draw()`` in first-seen order (small pools may give fewer)."""
    seen: dict[str, None] = {}
    for _ in range(n * max_tries):
        seen.setdefault(draw(), None)
        if len(seen) == n:
            break
    return list(seen)


def ascii_slug(text: str) -> str:
    """Lower-case ASCII letters and digits only: 'Müller-Lüdenscheidt' → 'mullerludenscheidt'."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "".join(ch for ch in folded.lower() if ch.isalnum()) or "user"


def person_names(seed: int, locale: str, n: int) -> tuple[list[str], list[str]]:
    """(first names, last names) typical of ``locale``, each up to ``n`` distinct values."""
    fake = seeded_faker(seed, locale, "person")
    return distinct(fake.first_name, n), distinct(fake.last_name, n)


_BRAND_SUFFIXES = ("", "", "", " & Co", " Goods", " Supply", " Studio", " Labs", " Works", " Home")


def brand_names(seed: int, n: int) -> list[str]:
    """``n`` distinct brand names such as 'Harlow', 'Vance & Co', 'Okafor Labs'."""
    fake = seeded_faker(seed, "en_US", "brand")

    def draw() -> str:
        return fake.last_name() + fake.random_element(_BRAND_SUFFIXES)

    return distinct(draw, n)
