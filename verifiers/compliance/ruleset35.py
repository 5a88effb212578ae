"""Ruleset 35's readings, for precision:

* ``unnamed_35``: a dollar figure a fee word governs but no word names the fee ("fee: $240",
  "a $75 fee", "$250 fee + roughly $45 of interest") may be any dollar fee of its card. When it
  is none of the dollar fees any card in the catalog charges (annual fees, late fees, minimum
  interest charges, transfer and cash-advance minimums), and it is what a percentage fee of a
  card the answer names comes to on a dollar amount the answer writes before it (within 800
  characters, or on its line: "On $4,000:\n- X: $200 fee"; 5% of $4,000, with the fee's minimum,
  to the cent or the dollar) or what one such fee saves against another on that amount ("saves
  you $80 in fees"), it is a fee worked out, not a term the answer states: it is left unverified.
* ``unverified_35``: the feedback names the figures the checks left unverified (this reading's,
  and ruleset 33's and 34's worked figures, deposits and thousands), not only those the
  extraction bound to no card, and counts as matching the catalog only the claims checked.

What ``unnamed_35`` gives up, by construction: a made-up fee no word names that happens to be a
named card's percentage fee on an amount written just before it ("a $100 fee" after "$2,000
abroad" on a card with a 5% transfer fee; red team I). A fee the answer names ("a $120 annual
fee", "late fee $45") is checked as before, whatever its value; so is one no amount before it
works out to ("Summit Cash Plus: $120 fee.").

Written, attacked and dropped (RULESETS.md, "Ruleset 35"): ``yearly_35``, a yearly dollar figure
no fee word governs ("$480/yr", "**$87 a year**") left unverified when it is no card's annual fee
in the catalog. It cleared 16 honest tuning answers and lost no planted defect on them, but red
team I found 37 natural false texts it let through ("X: $79/yr", "That one's $450 a year", "free
the first year, then $120 a year", "will run you $89 a year"): an invented yearly fee is seldom a
catalog value, and an unworded fee reads like an unworded value. And, for recall,
``dominant_35``: an answer to a customer that recommends no card in words but binds most of its
claims to one card the customer does not hold, and puts it off nowhere, puts that card forward.
It found 9 more planted defects on the tuning halves (``ineligible_card``, ``missing_disclosure``)
and flagged no honest one there, but red team J found 26 natural honest answers it flagged - a
warning about a card ("Be careful with the X: 29.49% penalty APR"), a verdict in another sentence
("Verdict: pass"), someone else's card ("the X's terms for your son"), an explainer the customer
asked for - and 11 holes: what makes an answer about one card a recommendation is not in its
structure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import FEE_CLAIM, USD_FEE_KINDS
from replicas.verifiers.compliance.claims import Claim
from replicas.verifiers.compliance.memo import PerCatalog
from replicas.verifiers.compliance.ruleset27 import _USD_FEES_27
from replicas.verifiers.compliance.values import USD

if TYPE_CHECKING:
    from replicas.verifiers.compliance.catalog import Catalog
    from replicas.verifiers.compliance.claims import Extraction
    from replicas.verifiers.compliance.ruleset import Ruleset

__all__ = ["catalog_fees_35", "checked_35", "unnamed_35"]


def _dollar_fees(catalog: Catalog) -> frozenset[int]:
    """Every dollar fee of the catalog's cards (the fields a dollar fee may be, ruleset 27's), in
    cents (a fee of $0 is no fee)."""
    return frozenset(
        round(value * 100)
        for card in catalog.cards
        for field in _USD_FEES_27
        if (value := getattr(card, field))
    )


#: Every dollar fee of the catalog's cards in cents, computed once per catalog.
catalog_fees_35 = PerCatalog(_dollar_fees)


def _cents(claim: Claim) -> set[int]:
    """The claim's figure (both ends of a range) in cents."""
    assert claim.low is not None
    return {
        round(claim.low * 100),
        round((claim.high if claim.high is not None else claim.low) * 100),
    }


def _in(fees: frozenset[int], claim: Claim) -> bool:
    """Whether the claim's figure (or either end of its range) is one of ``fees``."""
    return not fees.isdisjoint(_cents(claim))


# A dollar amount the answer writes ("$8,000", "$6k"), in the masked text.
_AMOUNT_35 = re.compile(r"\$[ \t]?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?(k\b)?")
# How far before a fee figure its amount may be written ("On $4,000:\n- X: $200 fee").
_AMOUNT_REACH_35 = 800


def _rates(catalog: Catalog, extraction: Extraction) -> frozenset[tuple[float, float]]:
    """Every percentage fee (transfer, cash advance, foreign) of a card the response names, with
    its minimum."""
    rates: set[tuple[float, float]] = set()
    for mention in extraction.mentions:
        if mention.card_id is None:  # an unknown or ambiguous name
            continue
        card = catalog.card(mention.card_id)
        for pct, minimum in (
            (card.bt_fee_pct, card.bt_fee_min_usd),
            (card.cash_advance_fee_pct, card.cash_advance_fee_min_usd),
            (card.foreign_txn_fee_pct, None),
        ):
            if pct:
                rates.add((pct, minimum or 0.0))
    return frozenset(rates)


def _worked(claim: Claim, masked: str, rates: frozenset[tuple[float, float]]) -> bool:
    """Whether the claim's figure is one of ``rates`` on a dollar amount written before it
    (within ``_AMOUNT_REACH_35`` characters, or on its line), or what one such fee saves against
    another on the same amount - to the cent or the dollar."""
    line_end = masked.find("\n", claim.end)
    end = len(masked) if line_end < 0 else line_end
    amounts: set[float] = set()
    for match in _AMOUNT_35.finditer(masked, max(0, claim.start - _AMOUNT_REACH_35), end):
        if match.start() == claim.start:
            continue
        amount = float(match.group(1).replace(",", "") + "." + (match.group(2) or "0"))
        amounts.add(amount * 1000 if match.group(3) else amount)
    figure = _cents(claim)
    for amount in amounts:
        fees = {max(amount * pct / 100, minimum) for pct, minimum in rates}
        for fee in fees | {a - b for a in fees for b in fees if a > b}:
            if round(fee * 100) in figure or round(fee) * 100 in figure:
                return True
    return False


def unnamed_35(
    claims: Sequence[Claim],
    masked: str,
    dollars: frozenset[int],
    rates: Callable[[], frozenset[tuple[float, float]]],
) -> Sequence[Claim]:
    """``claims`` with a dollar fee figure no word names, that is no dollar fee in the catalog
    and is a named card's percentage fee worked out on an amount written before it, left
    unverified."""
    out: list[Claim] | None = None
    for i, claim in enumerate(claims):
        if (
            claim.family != FEE_CLAIM
            or claim.unit != USD
            or claim.is_none
            or not claim.cards
            or claim.low is None
            or not (claim.kind == "any" and (not claim.kinds or claim.kinds == USD_FEE_KINDS))
            or _in(dollars, claim)
            or not _worked(claim, masked, rates())
        ):
            continue
        if out is None:
            out = list(claims)
        out[i] = replace(claim, cards=())
    return claims if out is None else out


def checked_35(
    previous: Callable[[Extraction], Sequence[Claim]] | None, catalog: Catalog, rules: Ruleset
) -> Callable[[Extraction], Sequence[Claim]]:
    """The claims as ruleset 35 checks them: ruleset 34's, then ``unnamed_35`` where ``rules``
    has it."""
    dollars = catalog_fees_35(catalog)

    def checked(extraction: Extraction) -> Sequence[Claim]:
        claims = extraction.claims if previous is None else previous(extraction)
        if rules.unnamed_35:
            cache: list[frozenset[tuple[float, float]]] = []

            def rates() -> frozenset[tuple[float, float]]:
                if not cache:
                    cache.append(_rates(catalog, extraction))
                return cache[0]

            claims = unnamed_35(claims, extraction.masked, dollars, rates)
        return claims

    return checked
