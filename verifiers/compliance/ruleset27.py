"""Ruleset 27: readings about what a figure or a name can be, whoever wrote it.

Rulesets 24-26 read one round's writers phrase by phrase, and each carried to the same writers'
held-out halves but not to new writers (RULESETS.md, "Ruleset 26"). The readings here were chosen
on the tuning halves of all read blind sets at once (w1-w24), and only where a class holds for
any writer, not a phrasing:

* ``shapes_27`` - **a figure with no fee named at it must look like a fee to be held as one.** A
  fee figure whose words name no fee ("a flat 2% card with no fee", "groceries (3% vs 2%)",
  "roughly $247 after the fee", "Fee on $4,000 | $120") may be any fee of its card, and ruleset 26
  reported "no fee of X is 2%". Here such an open figure is checked only when its value is a value
  some card of the catalog has for a fee of its unit (a dollar fee or minimum, a percentage fee),
  or within 15 % of one of its card's own fees it may be: otherwise it is a reward rate, an
  amount or a result, and it is left unverified. A figure whose words name the fee ("a 4% foreign
  fee", "annual fee $89", "$89 a year") is always checked, and so is a figure that may only be the
  annual or first-year fee.
* ``tails_27`` - **"the Clear Plus" after "Cascade Clear Plus" is that card.** Ruleset 18 read
  "the <last words of one named card>" as that card, but a tail that ends in a product word
  ("Plus", "Elite") was taken first as an unknown product. An unknown product whose words are the
  last words (all but the first) of exactly one card the response names in full is that card;
  of several, it is ambiguous. A name that only begins like a named card ("Redwood Journey" after
  "Redwood Journey Elite") stays unknown: that is how invented names are made.

See "Ruleset 27" in ``verifiers/compliance/RULESETS.md``.
"""

from __future__ import annotations

import weakref
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.catalog import Catalog
from replicas.verifiers.compliance.claims import Claim, Extraction
from replicas.verifiers.compliance.mentions import (
    AMBIGUOUS,
    EXACT,
    MISSPELLED,
    UNKNOWN,
    NameMention,
    tokens_of,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from replicas.verifiers.compliance.names import NameIndex

# -- shapes: an open fee figure must look like a fee ------------------------------------------------

#: the catalog fields a fee of each unit may be, and the fields each fee kind is checked against
_USD_FEES_27 = (
    "annual_fee_usd",
    "annual_fee_first_year_usd",
    "late_fee_usd",
    "min_interest_charge_usd",
    "bt_fee_min_usd",
    "cash_advance_fee_min_usd",
)
_PCT_FEES_27 = ("foreign_txn_fee_pct", "bt_fee_pct", "cash_advance_fee_pct")
_FIELDS_OF_KIND_27 = {
    ("usd", "annual"): ("annual_fee_usd",),
    ("usd", "annual_first_year"): ("annual_fee_first_year_usd", "annual_fee_usd"),
    ("usd", "late"): ("late_fee_usd",),
    ("usd", "min_interest"): ("min_interest_charge_usd",),
    ("usd", "bt"): ("bt_fee_min_usd",),
    ("usd", "cash_advance"): ("cash_advance_fee_min_usd",),
    ("pct", "foreign"): ("foreign_txn_fee_pct",),
    ("pct", "bt"): ("bt_fee_pct",),
    ("pct", "cash_advance"): ("cash_advance_fee_pct",),
}
_ANNUAL_27 = frozenset({"annual", "annual_first_year"})
#: how near one of its card's own fees an open figure may be and still be read as that fee (a
#: mistyped fee: "$89" for $95)
_NEAR_27 = 0.15
_SHAPES_CACHE_27: dict[int, tuple[weakref.ref[Catalog], dict[str, frozenset[float]]]] = {}


def _shapes(catalog: Catalog) -> dict[str, frozenset[float]]:
    """Every value a dollar fee and a percentage fee has in the catalog ("no fee" is 0), once per
    catalog object (a catalog is immutable once built)."""
    held = _SHAPES_CACHE_27.get(id(catalog))
    if held is not None and held[0]() is catalog:
        return held[1]
    shapes = {
        unit: frozenset(
            0.0 if (v := getattr(card, f)) is None else float(v)
            for card in catalog.cards
            for f in fields
        )
        for unit, fields in (("usd", _USD_FEES_27), ("pct", _PCT_FEES_27))
    }
    key = id(catalog)
    _SHAPES_CACHE_27[key] = (
        weakref.ref(catalog, lambda _: _SHAPES_CACHE_27.pop(key, None)),
        shapes,
    )
    return shapes


def _is_open(claim: Claim) -> bool:
    """A fee figure whose words name no fee: it may be several fees, not only the annual one."""
    return (
        claim.family == "fee"
        and not claim.is_none
        and claim.low is not None
        and claim.unit in ("usd", "pct")
        and len(claim.kinds) > 1
        and not claim.kinds <= _ANNUAL_27
    )


def _near_own(claim: Claim, catalog: Catalog, value: float) -> bool:
    """``value`` is within ``_NEAR_27`` of a non-zero fee its card may have as one of its kinds."""
    for card_id in claim.cards:
        card = catalog.card(card_id)
        for kind in claim.kinds:
            for f in _FIELDS_OF_KIND_27.get((claim.unit, kind), ()):
                own = getattr(card, f)
                if own and abs(value - float(own)) <= _NEAR_27 * float(own):
                    return True
    return False


def _fee_shaped(claim: Claim, catalog: Catalog) -> bool:
    shapes = _shapes(catalog)[claim.unit]
    values = [claim.low] if claim.high is None else [claim.low, claim.high]
    return all(
        v is not None and (float(v) in shapes or _near_own(claim, catalog, float(v)))
        for v in values
    )


def revise_27(extraction: Extraction, catalog: Catalog, shapes: bool) -> Extraction:
    """The extraction with ruleset 27's claim readings (module docstring)."""
    if not shapes or not extraction.claims:
        return extraction
    out = list(extraction.claims)
    changed = False
    for i, claim in enumerate(out):
        if claim.cards and _is_open(claim) and not _fee_shaped(claim, catalog):
            out[i] = replace(claim, cards=())
            changed = True
    return replace(extraction, claims=tuple(out)) if changed else extraction


# -- tails: "the Clear Plus" after "Cascade Clear Plus" ------------------------------------------


def tails_27(index: NameIndex, mentions: Sequence[NameMention]) -> list[NameMention]:
    """The mentions with each unknown product that is the tail of exactly one card named in full
    read as that card (of several: ambiguous) - module docstring."""
    out = list(mentions)
    if not any(m.kind == UNKNOWN for m in out):
        return out
    named = sorted({m.card_id for m in out if m.kind in (EXACT, MISSPELLED) and m.card_id})
    if not named:
        return out
    tails: dict[tuple[str, ...], set[str]] = {}
    for c in named:
        words = tuple(index.words_by_card[c])
        for n in range(1, len(words)):
            tails.setdefault(words[-n:], set()).add(c)
    for i, m in enumerate(out):
        if m.kind != UNKNOWN:
            continue
        fits = sorted(tails.get(tuple(tokens_of(m.surface)), ()))
        if len(fits) == 1:
            out[i] = NameMention(m.start, m.end, EXACT, fits[0], m.surface)
        elif fits:
            out[i] = NameMention(m.start, m.end, AMBIGUOUS, None, m.surface)
    return out


__all__ = ["revise_27", "tails_27"]
