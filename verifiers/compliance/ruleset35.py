"""Ruleset 35's readings, for precision. Both ask the catalog, not a word list, whether a dollar
figure the words leave open can be a fee at all:

* ``yearly_35``: a yearly dollar figure no fee word or price verb governs ("$480 a year",
  "**$468/yr**", "Total: $1,387.75 a year", "$800+ a year at a typical 20% APR") is read by the
  extraction as an annual fee. When the figure is no card's annual fee in the catalog, it is
  a value worked out (rewards, interest, savings, a difference), not a fee the answer
  discloses: it is left unverified. It stays a claim when it is some card's annual fee
  ("$35 a year for the Vista Foundation", "($95/yr)"), a card or "it" right before it is its
  subject ("the X is $120 a year", "it's $69 a year", "**X** ($120/yr)"), or its clause speaks
  of a waiver ("sixty-nine dollars a year, waived the first year").
* ``unnamed_35``: a dollar figure a fee word governs but no word names the fee ("fee: $240",
  "a $75 fee", "$250 fee + roughly $45 of interest") may be any dollar fee of its card. When it
  is none of the dollar fees any card in the catalog charges (annual fees, late fees, minimum
  interest charges, transfer and cash-advance minimums) and it is what a percentage fee of a
  card the answer names comes to on a dollar amount the answer writes (3% of $8,000, with the
  fee's minimum, to the cent or the dollar), or what one such fee saves against another on the
  same amount ("saves you $80 in fees"), it is a fee worked out, not a term the answer states:
  it is left unverified.

What ``yearly_35`` gives up, by construction: a made-up yearly fee the catalog has nowhere, stated
without a fee word or subject ("X: $120/yr"). What ``unnamed_35`` gives up: a made-up fee that
happens to be a named card's percentage fee on an amount the answer writes. A fee the answer
names ("a $120 annual fee", "late fee $45") is checked as before, whatever its value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import FEE_CLAIM, USD_FEE_KINDS
from replicas.verifiers.compliance.claims import Claim
from replicas.verifiers.compliance.values import USD

if TYPE_CHECKING:
    from replicas.verifiers.compliance.catalog import Catalog
    from replicas.verifiers.compliance.claims import Extraction
    from replicas.verifiers.compliance.ruleset import Ruleset

__all__ = ["catalog_fees_35", "checked_35", "unnamed_35", "yearly_35"]

# The figure right after a card or "it" as its subject ("the X is $120 a year", "it's $69 a
# year", "**X** ($120/yr)"): what the card costs, said without a fee word. (A label's colon,
# "X: $480/yr", heads a value as often as a fee.)
_SUBJECT_BEFORE_35 = re.compile(
    r"(?:#|\bit)\**[ \t]*(?:\(|(?:is|'s|\u2019s)[ \t]+(?:only[ \t]+|just[ \t]+)?)$"
)
_SUBJECT_REACH_35 = 24
# A waiver in the figure's clause ("$69 a year, waived the first year"): only fees are waived.
_WAIVER_35 = re.compile(r"\bwaiv")
# The end of the figure's clause: a sentence or line end, a semicolon or a dash between words.
_CLAUSE_END_35 = re.compile(r"[.!?;\n]|\s[-\u2013\u2014]\s")
_CLAUSE_REACH_35 = 80


def catalog_fees_35(catalog: Catalog) -> tuple[frozenset[int], frozenset[int]]:
    """The catalog's annual fees, and all its dollar fees, in cents (a fee of $0 is no fee)."""
    annual: set[int] = set()
    dollars: set[int] = set()
    for card in catalog.cards:
        for value, is_annual in (
            (card.annual_fee_usd, True),
            (card.annual_fee_first_year_usd, False),
            (card.late_fee_usd, False),
            (card.min_interest_charge_usd, False),
            (card.bt_fee_min_usd, False),
            (card.cash_advance_fee_min_usd, False),
        ):
            if value:
                cents = round(value * 100)
                dollars.add(cents)
                if is_annual:
                    annual.add(cents)
    return frozenset(annual), frozenset(dollars)


def _in(fees: frozenset[int], claim: Claim) -> bool:
    """Whether the claim's figure (or either end of its range) is one of ``fees``."""
    assert claim.low is not None
    ends = {claim.low, claim.high if claim.high is not None else claim.low}
    return any(round(end * 100) in fees for end in ends)


def _clause_after(masked: str, end: int) -> str:
    stop = _CLAUSE_END_35.search(masked, end, end + _CLAUSE_REACH_35)
    return masked[end : stop.start() if stop else end + _CLAUSE_REACH_35]


def yearly_35(claims: Sequence[Claim], masked: str, annual: frozenset[int]) -> Sequence[Claim]:
    """``claims`` with an unworded yearly figure that is no card's annual fee left unverified."""
    out: list[Claim] | None = None
    for i, claim in enumerate(claims):
        if (
            claim.worded
            or claim.family != FEE_CLAIM
            or claim.unit != USD
            or claim.is_none
            or not claim.cards
            or claim.low is None
            or _in(annual, claim)
            or _SUBJECT_BEFORE_35.search(
                masked, max(0, claim.start - _SUBJECT_REACH_35), claim.start
            )
            or _WAIVER_35.search(_clause_after(masked, claim.end))
        ):
            continue
        if out is None:
            out = list(claims)
        out[i] = replace(claim, cards=())
    return claims if out is None else out


def _worked_fees(catalog: Catalog, extraction: Extraction) -> frozenset[int]:
    """Every percentage fee (transfer, cash advance, foreign) of a card the response names, on
    every dollar amount it writes, with the fee's minimum, and the difference of two of them on
    one amount - in cents, and rounded to the dollar."""
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
    worked: set[int] = set()
    for amount in set(extraction.amounts):
        fees = {max(amount * pct / 100, minimum) for pct, minimum in rates}
        # each fee, and what one saves against another on the same amount ("saves you $80 in
        # fees": 5% and 3% of $4,000)
        for fee in fees | {abs(a - b) for a in fees for b in fees if a > b}:
            worked.add(round(fee * 100))
            worked.add(round(fee) * 100)
    return frozenset(worked)


def unnamed_35(
    claims: Sequence[Claim], dollars: frozenset[int], worked: Callable[[], frozenset[int]]
) -> Sequence[Claim]:
    """``claims`` with a dollar fee figure no word names, that is no dollar fee in the catalog
    and is a percentage fee of a named card on an amount the response writes, left unverified."""
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
            or not _in(worked(), claim)
        ):
            continue
        if out is None:
            out = list(claims)
        out[i] = replace(claim, cards=())
    return claims if out is None else out


def checked_35(
    previous: Callable[[Extraction], Sequence[Claim]] | None, catalog: Catalog, rules: Ruleset
) -> Callable[[Extraction], Sequence[Claim]]:
    """The claims as ruleset 35 checks them: ruleset 34's, then ``yearly_35`` and
    ``unnamed_35`` where ``rules`` has them."""
    annual, dollars = catalog_fees_35(catalog)

    def checked(extraction: Extraction) -> Sequence[Claim]:
        claims = extraction.claims if previous is None else previous(extraction)
        if rules.yearly_35:
            claims = yearly_35(claims, extraction.masked, annual)
        if rules.unnamed_35:
            cache: list[frozenset[int]] = []

            def worked() -> frozenset[int]:
                if not cache:
                    cache.append(_worked_fees(catalog, extraction))
                return cache[0]

            claims = unnamed_35(claims, dollars, worked)
        return claims

    return checked
