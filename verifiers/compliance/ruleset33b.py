"""Ruleset 33's reading of whole-number rates, for precision (``round_33``).

No card of any catalog has a whole-number APR: every rate is quoted to the hundredth ("24.74%").
A whole-number rate ("at, say, 24% APR", "your rate landed at 25%", "a month of interest at 25%")
that lies strictly inside a card's purchase APR range is a rate the reader may be charged, worked
into an example - not a misquoted term. It is left unverified. A whole number outside the range
("a 27% card" beside a 11.99%-22.99% one), a rate written with decimals, a range, and every rate of
a card whose purchase APR is a single figure stay checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import APR_CLAIM

if TYPE_CHECKING:
    from replicas.verifiers.compliance.catalog import Catalog
    from replicas.verifiers.compliance.claims import Claim

__all__ = ["round_33"]


def round_33(claims: Sequence[Claim], catalog: Catalog) -> Sequence[Claim]:
    """``round_33`` (module docstring): a whole-number APR strictly inside each of its cards'
    purchase APR ranges is unverified."""
    out: list[Claim] | None = None
    for i, claim in enumerate(claims):
        if (
            claim.family != APR_CLAIM
            or not claim.cards
            or claim.is_none
            or claim.low is None
            or (claim.high is not None and claim.high != claim.low)
            or not float(claim.low).is_integer()
            or "." in claim.text
            or "point" in claim.text.lower()
        ):
            continue
        inside = True
        for card_id in claim.cards:
            card = catalog.card(card_id)
            lo, hi = card.purchase_apr_min_pct, card.purchase_apr_max_pct
            if lo is None or hi is None or not lo < claim.low < hi:
                inside = False
                break
        if inside:
            if out is None:
                out = list(claims)
            out[i] = replace(claim, cards=(), binding="")
    return claims if out is None else out
