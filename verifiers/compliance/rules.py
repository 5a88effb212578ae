"""Compliance rules: each extracted claim checked against the catalog's true terms.

One checker per claim family, registered in ``CHECKERS``; the name, eligibility and disclosure
rules look at the response as a whole. Every finding carries the offending span (normalised
positions; the caller maps them back to the original text), the catalog's value (``expected``)
and what the response said (``found``).

Tolerances: percentages and dollar amounts match within 0.005. A purchase APR claim passes if it
states the minimum, the maximum or exactly the range. A fee stated as a range passes if the
catalog's fee lies inside it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from replicas.verifiers.compliance.catalog import CardTerms, Catalog
from replicas.verifiers.compliance.claims import (
    APR_CLAIM,
    FEE_CLAIM,
    INTRO_CLAIM,
    NONE,
    PCT,
    USD,
    Claim,
    Extraction,
)
from replicas.verifiers.compliance.mentions import MISSPELLED, UNKNOWN, NameMention
from replicas.verifiers.compliance.recommend import Recommendations, find_recommendations

TOLERANCE = 0.005

UNKNOWN_CARD = "unknown_card"
MISSPELLED_CARD = "misspelled_card"
WRONG_APR = "wrong_apr"
FALSE_INTRO_OFFER = "false_intro_offer"
WRONG_INTRO_TERMS = "wrong_intro_terms"
WRONG_FEE = "wrong_fee"
INELIGIBLE_CARD = "ineligible_card"
MISSING_DISCLOSURE = "missing_disclosure"

REASON_CODES: tuple[str, ...] = (
    UNKNOWN_CARD,
    MISSPELLED_CARD,
    WRONG_APR,
    FALSE_INTRO_OFFER,
    WRONG_INTRO_TERMS,
    WRONG_FEE,
    INELIGIBLE_CARD,
    MISSING_DISCLOSURE,
)
FAMILY_OF_CODE: dict[str, str] = {
    UNKNOWN_CARD: "names",
    MISSPELLED_CARD: "names",
    WRONG_APR: "aprs",
    FALSE_INTRO_OFFER: "intro_offers",
    WRONG_INTRO_TERMS: "intro_offers",
    WRONG_FEE: "fees",
    INELIGIBLE_CARD: "eligibility",
    MISSING_DISCLOSURE: "disclosures",
}
OBJECTIVES: tuple[str, ...] = (
    "names",
    "aprs",
    "intro_offers",
    "fees",
    "eligibility",
    "disclosures",
)


@dataclass(frozen=True)
class Finding:
    """One violation, positions in the normalised text."""

    code: str
    message: str
    start: int
    end: int
    expected: object = None
    found: object = None

    def __post_init__(self) -> None:
        if self.code not in FAMILY_OF_CODE:
            raise ValueError(f"unknown reason code {self.code!r}")


@dataclass
class Tally:
    """Checks made and violations found per objective family."""

    checked: dict[str, int]
    failed: dict[str, int]

    @classmethod
    def empty(cls) -> Tally:
        return cls({f: 0 for f in OBJECTIVES}, {f: 0 for f in OBJECTIVES})

    def count(self, family: str, ok: bool) -> None:
        self.checked[family] += 1
        if not ok:
            self.failed[family] += 1

    def scores(self) -> dict[str, float]:
        return {
            f: 1.0 if not self.checked[f] else round(1.0 - self.failed[f] / self.checked[f], 4)
            for f in OBJECTIVES
        }


# -- formatting --------------------------------------------------------------------------------


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else f"{int(value)}"


def pct(value: float | None) -> str:
    return "none" if value is None else f"{_num(value)}%"


def usd(value: float | None) -> str:
    if value is None:
        return "none"
    return f"${value:,.2f}" if value != int(value) else f"${int(value):,}"


def _same(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and abs(a - b) <= TOLERANCE + 1e-9


def _claimed(claim: Claim) -> str:
    if claim.is_none:
        return "none"
    show = pct if claim.unit == PCT else usd
    if claim.low is None:
        return f"minimum {usd(claim.min_usd)}"
    text = show(claim.low) if claim.low == claim.high else f"{show(claim.low)}–{show(claim.high)}"
    if claim.min_usd is not None:
        text += f" (minimum {usd(claim.min_usd)})"
    if claim.months is not None:
        text += f" for {claim.months} months"
    return text


# -- APRs --------------------------------------------------------------------------------------


def _purchase_apr(card: CardTerms) -> str:
    low, high = card.purchase_apr_min_pct, card.purchase_apr_max_pct
    text = pct(low) if low == high else f"{pct(low)}–{pct(high)}"
    if card.apr_is_variable is not None:
        text += " variable" if card.apr_is_variable else " fixed"
    return text


def check_apr(claim: Claim, card: CardTerms, name: str) -> Iterator[Finding]:
    if claim.kind == "purchase":
        low, high = card.purchase_apr_min_pct, card.purchase_apr_max_pct
        if low is None or high is None or claim.low is None:
            return
        if claim.low == claim.high:
            ok = _same(claim.low, low) or _same(claim.low, high)
        else:
            ok = _same(claim.low, low) and _same(claim.high, high)
        if not ok:
            yield Finding(
                WRONG_APR,
                f"the purchase APR of {name} is {_purchase_apr(card)}, not {_claimed(claim)}",
                claim.start,
                claim.end,
                _purchase_apr(card),
                _claimed(claim),
            )
            return
        if claim.variability is not None and card.apr_is_variable is not None:
            said_variable = claim.variability == "variable"
            if said_variable != card.apr_is_variable:
                truth = "variable" if card.apr_is_variable else "fixed"
                yield Finding(
                    WRONG_APR,
                    f"the purchase APR of {name} is {truth}, not {claim.variability}",
                    claim.start,
                    claim.end,
                    _purchase_apr(card),
                    f"{_claimed(claim)} {claim.variability}",
                )
        return
    field = {"cash_advance": "cash_advance_apr_pct", "penalty": "penalty_apr_pct"}[claim.kind]
    label = {"cash_advance": "cash advance APR", "penalty": "penalty APR"}[claim.kind]
    truth = getattr(card, field)
    if claim.is_none:
        if truth is not None:
            yield Finding(
                WRONG_APR,
                f"{name} has a {label} of {pct(truth)}; the response says it has none",
                claim.start,
                claim.end,
                pct(truth),
                "none",
            )
        return
    if truth is None:
        yield Finding(
            WRONG_APR,
            f"{name} has no {label}; the response states {_claimed(claim)}",
            claim.start,
            claim.end,
            "none",
            _claimed(claim),
        )
        return
    if not (_same(claim.low, truth) and _same(claim.high, truth)):
        yield Finding(
            WRONG_APR,
            f"the {label} of {name} is {pct(truth)}, not {_claimed(claim)}",
            claim.start,
            claim.end,
            pct(truth),
            _claimed(claim),
        )


# -- intro offers ------------------------------------------------------------------------------

_INTRO_LABEL = {"purchase": "purchases", "bt": "balance transfers"}


def _offer(card: CardTerms, kind: str) -> str:
    rate = getattr(card, f"intro_{kind}_apr_pct")
    months = getattr(card, f"intro_{kind}_months")
    if rate is None:
        return f"no intro APR on {_INTRO_LABEL[kind]}"
    return f"{pct(rate)} intro APR on {_INTRO_LABEL[kind]} for {months} months"


def _offer_matches(claim: Claim, card: CardTerms, kind: str) -> bool:
    rate = getattr(card, f"intro_{kind}_apr_pct")
    months = getattr(card, f"intro_{kind}_months")
    return _same(claim.low, rate) and (claim.months is None or claim.months == months)


def check_intro(claim: Claim, card: CardTerms, name: str) -> Iterator[Finding]:
    if claim.is_none:
        yield from _check_no_intro(claim, card, name)
        return
    kinds = sorted(claim.scopes) if claim.scopes else []
    if not kinds:
        offered = [k for k in ("purchase", "bt") if card.has_intro(k)]
        if not offered:
            yield Finding(
                FALSE_INTRO_OFFER,
                f"{name} has no intro APR offer; the response claims {_claimed(claim)}",
                claim.start,
                claim.end,
                "no intro APR offer",
                _claimed(claim),
            )
        elif not any(_offer_matches(claim, card, k) for k in offered):
            truth = "; ".join(_offer(card, k) for k in offered)
            yield Finding(
                WRONG_INTRO_TERMS,
                f"the intro offer of {name} is {truth}, not {_claimed(claim)}",
                claim.start,
                claim.end,
                truth,
                _claimed(claim),
            )
        return
    for kind in kinds:
        if not card.has_intro(kind):
            yield Finding(
                FALSE_INTRO_OFFER,
                f"{name} has no intro APR on {_INTRO_LABEL[kind]}; "
                f"the response claims {_claimed(claim)}",
                claim.start,
                claim.end,
                _offer(card, kind),
                _claimed(claim),
            )
        elif not _offer_matches(claim, card, kind):
            yield Finding(
                WRONG_INTRO_TERMS,
                f"the intro offer of {name} is {_offer(card, kind)}, not {_claimed(claim)}",
                claim.start,
                claim.end,
                _offer(card, kind),
                _claimed(claim),
            )


def _check_no_intro(claim: Claim, card: CardTerms, name: str) -> Iterator[Finding]:
    """ "No intro offer" (on purchases / balance transfers): false when the card has one."""
    kinds = sorted(claim.scopes) or ["purchase", "bt"]
    offered = [k for k in kinds if card.has_intro(k)]
    if offered:
        truth = "; ".join(_offer(card, k) for k in offered)
        what = "an intro APR" if not claim.scopes else f"an intro APR on {_INTRO_LABEL[kinds[0]]}"
        yield Finding(
            WRONG_INTRO_TERMS,
            f"{name} has {what} ({truth}); the response says it has none",
            claim.start,
            claim.end,
            truth,
            "none",
        )


# -- fees --------------------------------------------------------------------------------------

# fee kind -> (percentage field, dollar field, dollar-minimum field, label)
_FEES: dict[str, tuple[str | None, str | None, str | None, str]] = {
    "annual": (None, "annual_fee_usd", None, "annual fee"),
    "annual_first_year": (None, "annual_fee_first_year_usd", None, "first-year annual fee"),
    "late": (None, "late_fee_usd", None, "late fee"),
    "min_interest": (None, "min_interest_charge_usd", None, "minimum interest charge"),
    "foreign": ("foreign_txn_fee_pct", None, None, "foreign transaction fee"),
    "bt": ("bt_fee_pct", None, "bt_fee_min_usd", "balance transfer fee"),
    "cash_advance": ("cash_advance_fee_pct", None, "cash_advance_fee_min_usd", "cash advance fee"),
}


def _fee_truth(card: CardTerms, kind: str) -> str:
    pct_field, usd_field, min_field, _ = _FEES[kind]
    if usd_field is not None:
        value = getattr(card, usd_field)
        return "none" if not value else usd(value)
    value = getattr(card, pct_field or "")
    if not value:
        return "none"
    minimum = getattr(card, min_field) if min_field else None
    return pct(value) + (f" (minimum {usd(minimum)})" if minimum else "")


def _value_ok(claim: Claim, truth: float | None) -> bool:
    truth = truth or 0.0
    if claim.low is None or claim.high is None:
        return True
    if claim.low == claim.high:
        return _same(claim.low, truth)
    return claim.low - TOLERANCE <= truth <= claim.high + TOLERANCE


def _fee_ok(claim: Claim, card: CardTerms, kind: str) -> bool:
    pct_field, usd_field, min_field, _ = _FEES[kind]
    if claim.is_none:
        field_name = usd_field or pct_field or ""
        return not getattr(card, field_name)
    if claim.unit == USD and claim.low is not None:
        if usd_field is None:
            return False
        return _value_ok(claim, getattr(card, usd_field))
    if claim.unit == PCT and (pct_field is None or not _value_ok(claim, getattr(card, pct_field))):
        return False
    if claim.min_usd is not None:
        return min_field is not None and _same(claim.min_usd, getattr(card, min_field) or 0.0)
    return True


def check_fee(claim: Claim, card: CardTerms, name: str) -> Iterator[Finding]:
    if claim.kind == "annual_first_year" and card.annual_fee_first_year_usd is None:
        return  # the catalog does not say what the first year costs: unverifiable, not wrong
    if claim.kind == "any":
        candidates = [
            k
            for k, spec in _FEES.items()
            if (spec[1] if claim.unit == USD else spec[0]) is not None and k != "annual_first_year"
        ]
        if claim.unit == USD:
            candidates = [*candidates, "bt", "cash_advance"]
        if any(_fee_ok(_as_minimum(claim, k), card, k) for k in candidates):
            return
        truth = "; ".join(f"{_FEES[k][3]} {_fee_truth(card, k)}" for k in dict.fromkeys(candidates))
        yield Finding(
            WRONG_FEE,
            f"no fee of {name} is {_claimed(claim)} ({truth})",
            claim.start,
            claim.end,
            truth,
            _claimed(claim),
        )
        return
    if not _fee_ok(claim, card, claim.kind):
        label = _FEES[claim.kind][3]
        truth = _fee_truth(card, claim.kind)
        yield Finding(
            WRONG_FEE,
            f"the {label} of {name} is {truth}, not {_claimed(claim)}",
            claim.start,
            claim.end,
            truth,
            _claimed(claim),
        )


def _as_minimum(claim: Claim, kind: str) -> Claim:
    """A bare dollar figure read as the dollar minimum of a percentage fee."""
    if claim.unit == USD and kind in ("bt", "cash_advance") and claim.low is not None:
        from dataclasses import replace

        return replace(claim, unit=PCT, low=None, high=None, min_usd=claim.low)
    return claim


CHECKERS: dict[str, Callable[[Claim, CardTerms, str], Iterator[Finding]]] = {
    APR_CLAIM: check_apr,
    INTRO_CLAIM: check_intro,
    FEE_CLAIM: check_fee,
}
_FAMILY_OBJECTIVE = {APR_CLAIM: "aprs", INTRO_CLAIM: "intro_offers", FEE_CLAIM: "fees"}


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


def check_disclosures(
    catalog: Catalog, claims: Sequence[Claim], recs: Recommendations, tally: Tally
) -> Iterator[Finding]:
    has_purchase_apr: set[str] = set()
    annual_fee_stated: set[str] = set()
    for claim in claims:
        for card_id in claim.cards:
            if claim.family == APR_CLAIM and claim.kind == "purchase":
                has_purchase_apr.add(card_id)
            if claim.family == FEE_CLAIM and claim.kind == "annual":
                annual_fee_stated.add(card_id)
            if (
                claim.family == FEE_CLAIM
                and claim.kind == "any"
                and claim.unit == USD
                and _same(claim.low, catalog.card(card_id).annual_fee_usd)
            ):
                annual_fee_stated.add(card_id)
    for claim in claims:
        if claim.family != INTRO_CLAIM or claim.is_none:
            continue
        for card_id in claim.cards:
            card = catalog.card(card_id)
            scopes = sorted(claim.scopes) or ["purchase", "bt"]
            if not any(card.has_intro(k) for k in scopes):
                continue  # a false offer is reported as such; its disclosure is moot
            name = catalog.names.name_of(card_id)
            missing = []
            if claim.months is None:
                missing.append("how many months it lasts")
            if card_id not in has_purchase_apr:
                missing.append("the APR that applies after it")
            tally.count("disclosures", not missing)
            if missing:
                yield Finding(
                    MISSING_DISCLOSURE,
                    f"the intro APR of {name} is stated without " + " and ".join(missing),
                    claim.start,
                    claim.end,
                    _disclosure_truth(card, scopes),
                    _claimed(claim),
                )
    for card_id, mention in recs.positive.items():
        card = catalog.card(card_id)
        if not card.annual_fee_usd:
            continue
        ok = card_id in annual_fee_stated
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


def _disclosure_truth(card: CardTerms, scopes: Sequence[str]) -> str:
    offers = [_offer(card, k) for k in scopes if card.has_intro(k)]
    return "; ".join(offers) + f"; then {_purchase_apr(card)}"


def check_claims(catalog: Catalog, claims: Sequence[Claim], tally: Tally) -> Iterator[Finding]:
    for claim in claims:
        checker = CHECKERS[claim.family]
        for card_id in claim.cards:
            card = catalog.card(card_id)
            findings = list(checker(claim, card, catalog.names.name_of(card_id)))
            tally.count(_FAMILY_OBJECTIVE[claim.family], not findings)
            yield from findings


def evaluate(
    catalog: Catalog, lower: str, extraction: Extraction, customer_id: str | None
) -> tuple[list[Finding], Tally]:
    """All findings for one response, de-duplicated, in text order."""
    tally = Tally.empty()
    recs = find_recommendations(lower, extraction)
    findings = [
        *check_names(extraction.mentions, tally),
        *check_claims(catalog, extraction.claims, tally),
        *check_eligibility(catalog, customer_id, extraction, recs, tally),
        *check_disclosures(catalog, extraction.claims, recs, tally),
    ]
    seen: set[tuple[str, int, int, str]] = set()
    unique = []
    for finding in sorted(findings, key=lambda f: (f.start, f.end, f.code)):
        key = (finding.code, finding.start, finding.end, finding.message)
        if key not in seen:
            seen.add(key)
            unique.append(finding)
    return unique, tally


__all__ = [
    "FAMILY_OF_CODE",
    "NONE",
    "OBJECTIVES",
    "REASON_CODES",
    "Finding",
    "Tally",
    "evaluate",
    "re",
]
