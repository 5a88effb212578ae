"""Compliance rules: every claim checked against its card(s), and the whole-response rules.

Each claim goes to the checker of its family (``term_checks``) for each card it is about; the
name, eligibility and disclosure rules look at the response as a whole. Every finding carries the
offending span (normalised positions; the caller maps them back to the original text), the
catalog's value (``expected``) and what the response said (``found``). Reason codes, findings and
the tally are in ``findings``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

from replicas.verifiers.compliance.catalog import CardTerms, Catalog
from replicas.verifiers.compliance.claim_types import APR_CLAIM, FEE_CLAIM, INTRO_CLAIM
from replicas.verifiers.compliance.claims import Claim, Extraction
from replicas.verifiers.compliance.findings import (
    INELIGIBLE_CARD,
    MISSING_DISCLOSURE,
    MISSPELLED_CARD,
    UNKNOWN_CARD,
    Finding,
    Tally,
    claimed,
    same,
    usd,
)
from replicas.verifiers.compliance.mentions import MISSPELLED, UNKNOWN, NameMention
from replicas.verifiers.compliance.recommend import Recommendations, find_recommendations
from replicas.verifiers.compliance.recommend5 import column_picks
from replicas.verifiers.compliance.ruleset import RULESETS, Ruleset
from replicas.verifiers.compliance.ruleset8 import (
    close_enough,
    is_approximate,
    ordinal_picks,
    position_phrases,
    ruled_out_units,
)
from replicas.verifiers.compliance.ruleset11 import recommend_11
from replicas.verifiers.compliance.ruleset13 import asked_13
from replicas.verifiers.compliance.ruleset17 import fee_stated_near, sole_scope_17
from replicas.verifiers.compliance.term_checks import (
    CHECKERS,
    FAMILY_OBJECTIVE,
    INTRO_KINDS,
    Checker,
    check_intro,
    describe_offer,
    describe_purchase_apr,
    offer_matches,
    rates_of,
)
from replicas.verifiers.compliance.values import USD

# -- whole-response rules ----------------------------------------------------------------------


def check_names(mentions: Sequence[NameMention], tally: Tally) -> Iterator[Finding]:
    for mention in mentions:
        tally.count("names", mention.kind not in (MISSPELLED, UNKNOWN))
        if mention.kind == MISSPELLED:
            intended = mention.expected[0] if mention.expected else ""
            yield Finding(
                MISSPELLED_CARD,
                f'"{mention.surface}" is a misspelling of the card "{intended}"',
                mention.start,
                mention.end,
                intended,
                mention.surface,
            )
        elif mention.kind == UNKNOWN:
            near = ", ".join(f'"{n}"' for n in mention.expected) or "none"
            yield Finding(
                UNKNOWN_CARD,
                f'"{mention.surface}" is not a card in the catalog (closest: {near})',
                mention.start,
                mention.end,
                list(mention.expected),
                mention.surface,
            )


def check_eligibility(
    catalog: Catalog,
    customer_id: str | None,
    extraction: Extraction,
    recs: Recommendations,
    tally: Tally,
) -> Iterator[Finding]:
    if customer_id is None:
        return
    rows = catalog.eligibility_of(customer_id)
    suitable = dict(recs.positive)
    distinct = {m.card_id for m in extraction.mentions if m.card_id is not None}
    if len(distinct) == 1 and not any(m.kind == UNKNOWN for m in extraction.mentions):
        only = next(iter(distinct))
        if only not in recs.negated and only not in suitable:
            suitable[only] = next(m for m in extraction.mentions if m.card_id == only)
    for card_id, mention in suitable.items():
        row = rows.get(card_id)
        if row is None:
            continue
        tally.count("eligibility", row.eligible)
        if not row.eligible:
            reason = row.reason or "not eligible"
            yield Finding(
                INELIGIBLE_CARD,
                f"customer {customer_id} is not eligible for "
                f'"{catalog.names.name_of(card_id)}" ({reason}) but the response '
                "recommends it",
                mention.start,
                mention.end,
                f"not eligible: {reason}",
                catalog.names.name_of(card_id),
            )


def _states_purchase_apr(claim: Claim, card: CardTerms, other_kinds: bool = False) -> bool:
    """The claim gives the card's purchase APR - rightly or not (a wrong one is a wrong APR,
    not a missing disclosure): a range, a rate read as the purchase APR, or one of its ends.
    ``other_kinds`` (ruleset 8): a rate the text names as the cash advance or penalty APR is not
    the purchase APR, even when it equals one of its ends ("the cash advance APR is 33.74%")."""
    low, high = card.purchase_apr_min_pct, card.purchase_apr_max_pct
    if claim.family != APR_CLAIM or claim.is_none or claim.low is None or low is None:
        return False
    if claim.low != claim.high or claim.kind == "purchase":
        return True
    if other_kinds and claim.kind in _OTHER_APRS:
        return False
    return same(claim.low, low) or same(claim.low, high)


_OTHER_APRS = frozenset({"cash_advance", "penalty"})


def check_disclosures(
    catalog: Catalog,
    extraction: Extraction,
    recs: Recommendations,
    tally: Tally,
    goto_rates_8: bool = False,
    first_year_discloses: bool = True,
    any_amount_discloses: bool = True,
) -> Iterator[Finding]:
    """An intro offer needs its length and the APR after it; a recommended card its annual fee.

    Precision first: an intro offer is only held to this when the text binds it to one card for
    certain, and a disclosure counts wherever it appears for that card (a table, a list, another
    sentence) - or, for the length, anywhere in the offer's own sentence. A recommended card's
    fee counts as stated when any dollar figure of the response is that fee.
    ``first_year_discloses=False`` (ruleset 10): a first-year waiver alone ("no annual fee for
    the first year", "first year $0") does not state the annual fee.
    """
    claims = extraction.claims
    goto_stated: set[str] = set()
    months_stated: set[tuple[str, str]] = set()
    fee_stated: set[str] = set()
    for claim in claims:
        for card_id in claim.cards:
            card = catalog.card(card_id)
            if _states_purchase_apr(claim, card, goto_rates_8):
                goto_stated.add(card_id)
            elif claim.family == INTRO_CLAIM and not claim.is_none and claim.months is not None:
                for scope in claim.scopes or INTRO_KINDS:
                    months_stated.add((card_id, scope))
            elif (
                claim.family == FEE_CLAIM
                and (
                    claim.kind in ("annual", "annual_first_year")
                    or (claim.unit == USD and same(claim.low, card.annual_fee_usd))
                )
                and (first_year_discloses or not _waiver_only(claim))
            ):
                fee_stated.add(card_id)
    for claim in claims:
        if claim.family != INTRO_CLAIM or claim.is_none or not claim.certain:
            continue
        card_id = claim.cards[0]
        card = catalog.card(card_id)
        scopes = sorted(claim.scopes) or [k for k in INTRO_KINDS if card.has_intro(k)]
        offered = [k for k in scopes if card.has_intro(k)]
        if not offered:
            continue  # a false offer is reported as such; its disclosure is moot
        if not any(offer_matches(claim, card, k) for k in offered):
            continue  # wrong terms are reported as such
        name = catalog.names.name_of(card_id)
        missing = []
        if claim.months is None and not any((card_id, k) in months_stated for k in offered):
            unit_months = extraction.months_in_unit(claim.start)
            if not any(getattr(card, f"intro_{k}_months") in unit_months for k in offered):
                missing.append("how many months it lasts")
        if card_id not in goto_stated and not extraction.states_range(
            card.purchase_apr_min_pct, card.purchase_apr_max_pct
        ):
            missing.append("the APR that applies after it")
        tally.count("disclosures", not missing)
        if missing:
            yield Finding(
                MISSING_DISCLOSURE,
                f"the intro APR of {name} is stated without " + " and ".join(missing),
                claim.start,
                claim.end,
                _disclosure_truth(card, offered),
                claimed(claim),
            )
    for card_id, mention in recs.positive.items():
        card = catalog.card(card_id)
        if not card.annual_fee_usd:
            continue
        # until ruleset 17, any dollar figure of the response equal to the fee disclosed it -
        # another card's "$95 annual fee" too; since, a fee claim bound to the card, or an equal
        # figure beside a cost word in a unit naming that card alone
        ok = card_id in fee_stated or (
            any(same(amount, card.annual_fee_usd) for amount in extraction.amounts)
            if any_amount_discloses
            else fee_stated_near(extraction, card_id, card.annual_fee_usd)
        )
        tally.count("disclosures", ok)
        if not ok:
            name = catalog.names.name_of(card_id)
            yield Finding(
                MISSING_DISCLOSURE,
                f"{name} is recommended without stating its annual "
                f"fee of {usd(card.annual_fee_usd)}",
                mention.start,
                mention.end,
                f"annual fee {usd(card.annual_fee_usd)}",
                "annual fee not stated",
            )


def _waiver_only(claim: Claim) -> bool:
    """A first-year fee of nothing: it says the first year is free, not what the fee is."""
    return claim.kind == "annual_first_year" and (claim.is_none or not claim.low)


def _disclosure_truth(card: CardTerms, scopes: Sequence[str]) -> str:
    offers = [describe_offer(card, k) for k in scopes if card.has_intro(k)]
    return "; ".join(offers) + f"; then {describe_purchase_apr(card)}"


def check_claims(
    catalog: Catalog,
    claims: Sequence[Claim],
    tally: Tally,
    masked: str | None = None,
    both: frozenset[int] = frozenset(),
) -> Iterator[Finding]:
    """Each claim against its card(s): every card when the text says so of each ("both cards"),
    any one of them when it leaves open which card it means. Ruleset 8: ``masked`` (the masked
    text) - an APR the words mark as approximate passes when it is close to the card's rate;
    ``both`` - the intro claims checked strictly (``_both_offers``)."""
    for i, claim in enumerate(claims):
        if not claim.cards:
            continue
        checker = CHECKERS[claim.family]
        if masked is not None and claim.family == APR_CLAIM and is_approximate(masked, claim):
            checker = _approximately(checker)
        elif i in both:
            checker = _strict_intro
        objective = FAMILY_OBJECTIVE[claim.family]
        if claim.any_card:
            first: list[Finding] | None = None
            for card_id in claim.cards:
                found = checker(claim, catalog.card(card_id), catalog.names.name_of(card_id))
                if not found:
                    first = []
                    break
                if first is None:
                    first = found
            tally.count(objective, not first)
            yield from first or []
            continue
        for card_id in claim.cards:
            card = catalog.card(card_id)
            findings = checker(claim, card, catalog.names.name_of(card_id))
            tally.count(objective, not findings)
            yield from findings


def _strict_intro(claim: Claim, card: CardTerms, name: str) -> list[Finding]:
    return check_intro(claim, card, name, strict=True)


def _both_offers(extraction: Extraction) -> frozenset[int]:
    """Ruleset 8: the intro claims whose sentence (or list item) also states the card's other
    offer, each scoped by its own words ("0% on purchases for 15 months, and transfers run 12
    months at 0%"): which offer each figure is about is then no guess."""
    starts = [u[0] for u in extraction.units]
    intros = [
        (i, c, bisect_right(starts, c.start))
        for i, c in enumerate(extraction.claims)
        if c.family == INTRO_CLAIM and not c.is_none and len(c.scopes) == 1 and len(c.cards) == 1
    ]
    # a claim qualifies when its (unit, card) group holds a claim of other scopes: counted per
    # group, not by comparing every pair (a long text holds thousands of intro claims)
    groups: dict[tuple[int, tuple[str, ...]], Counter[frozenset[str]]] = {}
    for _, claim, unit in intros:
        groups.setdefault((unit, claim.cards), Counter())[claim.scopes] += 1
    out = set()
    for i, claim, unit in intros:
        group = groups[(unit, claim.cards)]
        if sum(group.values()) > group[claim.scopes]:
            out.add(i)
    return frozenset(out)


def _approximately(checker: Checker) -> Checker:
    """``checker`` for an approximate APR: no finding when it is close to the card's rate
    (``ruleset8.close_enough``), else the exact check's findings."""

    def check(claim: Claim, card: CardTerms, name: str) -> list[Finding]:
        if not claim.is_none and close_enough(
            claim, rates_of(card), card.purchase_apr_min_pct, card.purchase_apr_max_pct
        ):
            return []
        return checker(claim, card, name)

    return check


def evaluate(
    catalog: Catalog,
    lower: str,
    extraction: Extraction,
    customer_id: str | None,
    rules: Ruleset = RULESETS[3],
    more_recommendations: Callable[[str, Extraction, Recommendations], Recommendations]
    | None = None,
    offered: Callable[[str, Extraction, Recommendations], Recommendations] | None = None,
    claims_of: Callable[[Extraction], Sequence[Claim]] | None = None,
) -> tuple[list[Finding], Tally]:
    """All findings for one response, de-duplicated, in text order (``rules``: the ruleset;
    the default is the frozen ruleset 3; ``more_recommendations``: a later ruleset's reading of
    recommendations, applied after the others; ``offered``: ruleset 19's cards put to the
    customer as options, added for the eligibility rule only; ``claims_of``: ruleset 32's claims
    as checked - the disclosure rules keep the extraction's)."""
    tally = Tally.empty()
    level = (
        3
        if rules.more_recommendations_7
        else 2
        if rules.more_recommendations_5
        else rules.more_recommendations
    )
    recs = find_recommendations(lower, extraction, level)
    if rules.recommended_column:
        picks = column_picks(lower, extraction.mentions)
        if picks:
            positive = dict(recs.positive)
            for card_id, mention in picks.items():
                if card_id not in recs.negated:
                    positive.setdefault(card_id, mention)
            recs = Recommendations(positive, recs.negated)
    masked = extraction.masked or lower
    positions = position_phrases(masked) if rules.ordinal_picks_8 else []
    if rules.ruled_out_8:
        recs = ruled_out_units(masked, extraction, recs, positions)
    if rules.ordinal_picks_8:
        recs = ordinal_picks(masked, extraction, recs, positions)
    if rules.recommend_11:
        recs = recommend_11(masked, extraction, recs)
    if rules.asked_13:
        recs = asked_13(masked, extraction, recs)
    if more_recommendations is not None:
        recs = more_recommendations(masked, extraction, recs)
    findings = [
        *check_names(extraction.mentions, tally),
        *check_claims(
            catalog,
            extraction.claims if claims_of is None else claims_of(extraction),
            tally,
            masked if rules.approximate_figures_8 else None,
            (_both_offers(extraction) if rules.own_months_8 else frozenset())
            | (sole_scope_17(extraction) if rules.sole_scope_17 else frozenset()),
        ),
        *check_eligibility(
            catalog,
            customer_id,
            extraction,
            # the options only count for a customer (no customer: no eligibility rule to feed)
            recs if offered is None or customer_id is None else offered(masked, extraction, recs),
            tally,
        ),
        *check_disclosures(
            catalog,
            extraction,
            recs,
            tally,
            rules.goto_rates_8,
            not rules.waivers_10,
            not rules.fee_disclosed_17,
        ),
    ]
    seen: set[tuple[str, int, int, str]] = set()
    unique = []
    for finding in sorted(findings, key=lambda f: (f.start, f.end, f.code)):
        key = (finding.code, finding.start, finding.end, finding.message)
        if key not in seen:
            seen.add(key)
            unique.append(finding)
    return unique, tally


__all__ = ["evaluate"]
