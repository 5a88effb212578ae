"""Ruleset 16: a card's rewards rate is neither a card name nor an APR (issue 13).

The s17 blind set (a fifth writer, seeds 91-94) showed, on its tuning part (seed 91), one
class that every ruleset misread, and rulesets 13-15 misread twice:

* **"the <word> rewards rate" read as an invented card.** "rate" is a product word of the
  catalog ("Aspen Low Rate"), so "the headline rewards rate", "the base rewards rate" and "the
  effective cashback rate" were lower-case invented names (``unknown_card``, rulesets 13-15; a
  quarter of that writer's compliant answers on the held-out seeds). A run of words whose last two
  are a reward word and "rate" ("rewards rate", "cash back rate", "points rate", "earn rate"),
  written in lower case, names a rate, not a product: ``names_16`` drops such invented
  (``UNKNOWN``) mentions. A capitalised one ("the Zenith Rewards Rate") is still an invented card.
* **A rewards rate read as an APR.** "The base cash back rate is 1.5%", "its rewards rate: 2%",
  "an effective cashback rate of 1.5%" made a purchase APR claim of 1.5 % (``wrong_apr``, every
  ruleset since 3). ``revise_16`` unbinds a percentage claim whose clause, just before the
  figure, calls it a reward word's rate (at most 40 characters back, no other figure between).
  A real APR in the same clause ("a 19.99% APR and a 1.5% cash back rate") is still read: only
  the figure the reward rate governs is unbound.

Precision first, as everywhere: a figure unbound is unverified, not passed as true.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claims import unbind_claims
from replicas.verifiers.compliance.mentions import UNKNOWN, NameMention

if TYPE_CHECKING:
    from collections.abc import Sequence

    from replicas.verifiers.compliance.claims import Claim, Extraction

_REWARD_WORDS = r"(?:rewards?|cash[ \t-]?back|points?|miles|earn(?:ing)?|bonus|redemption)"

# a mention's text ending in "<reward word> rate(s)"
_RATE_NAME_16 = re.compile(rf"{_REWARD_WORDS}[ \t]+rates?$", re.IGNORECASE)

# just before a figure: "<reward word> rate" then "is", ":", "of", "=", "at", "around" ...
_RATE_BEFORE_16 = re.compile(
    rf"\b{_REWARD_WORDS}[ \t]+rates?[ \t]*(?:\)|\*\*|__)?[ \t]*"
    r"(?:(?:is|was|are|of|at|=|:|-|–|—|sits[ \t]+at|comes[ \t]+to|works[ \t]+out[ \t]+(?:to|at))"
    r"[ \t]*)?(?:(?:about|around|roughly|approximately|approx\.?|~|an?[ \t]+flat|a[ \t]+solid"
    r"|only|just)[ \t]*)?(?:\*\*|__)?[ \t]*$"
)


def names_16(mentions: Sequence[NameMention]) -> list[NameMention]:
    """The mentions without the invented names that are a rewards rate (module docstring)."""
    return [
        m
        for m in mentions
        if not (
            m.kind == UNKNOWN and m.surface.islower() and _RATE_NAME_16.search(m.surface.strip())
        )
    ]


def _reward_rate_16(claim: Claim, masked: str) -> bool:
    if claim.unit != "pct" or claim.family not in ("apr", "fee"):
        return False
    lo = max(0, claim.start - 40)
    if masked.find("rate", lo, claim.start) < 0:
        return False  # every match holds "rate" (a cheap test before the pattern)
    return _RATE_BEFORE_16.search(masked, lo, claim.start) is not None


def revise_16(extraction: Extraction) -> Extraction:
    """The extraction with rewards rates unbound (module docstring)."""
    if " rate" not in extraction.masked:
        return extraction
    return unbind_claims(extraction, [_reward_rate_16])


__all__ = ["names_16", "revise_16"]
