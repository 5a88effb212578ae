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


_OK: list[Finding] = []  # shared by every check that finds nothing; never appended to


def _one(
    code: str, message: str, start: int, end: int, expected: object, found: object
) -> list[Finding]:
    return [Finding(code, message, start, end, expected, found)]


# -- APRs --------------------------------------------------------------------------------------


def _purchase_apr(card: CardTerms) -> str:
    low, high = card.purchase_apr_min_pct, card.purchase_apr_max_pct
    text = pct(low) if low == high else f"{pct(low)}–{pct(high)}"
    if card.apr_is_variable is not None:
        text += " variable" if card.apr_is_variable else " fixed"
    return text


def _rates(card: CardTerms) -> list[float]:
    """Every rate the card has: purchase APR ends, cash advance, penalty and intro rates."""
    return [
        r
        for r in (
            card.purchase_apr_min_pct,
            card.purchase_apr_max_pct,
            card.cash_advance_apr_pct,
            card.penalty_apr_pct,
            card.intro_purchase_apr_pct,
            card.intro_bt_apr_pct,
        )
        if r is not None
    ]


def _all_rates(card: CardTerms) -> str:
    parts = [f"purchase {_purchase_apr(card)}"]
    if card.cash_advance_apr_pct is not None:
        parts.append(f"cash advance {pct(card.cash_advance_apr_pct)}")
    if card.penalty_apr_pct is not None:
        parts.append(f"penalty {pct(card.penalty_apr_pct)}")
    return ", ".join(parts)


_APR_LABEL = {"cash_advance": "cash advance APR", "penalty": "penalty APR"}
_APR_FIELD = {"cash_advance": "cash_advance_apr_pct", "penalty": "penalty_apr_pct"}


def check_apr(claim: Claim, card: CardTerms, name: str) -> list[Finding]:
    """A stated rate is wrong only if it is none of the card's rates.

    Which APR a sentence talks about (purchases, cash advances, penalty, the rate after an
    intro offer) is easy to misread, and a misreading must not become a violation: a single
    rate passes when it equals any rate of the card, a range when it is the purchase range.
    Two things are still checked against the term itself: a penalty or cash advance APR the
    text names for a card that has none, and "fixed" / "variable" said of the purchase APR.
    """
    if claim.is_none:
        truth = getattr(card, _APR_FIELD.get(claim.kind, "penalty_apr_pct"))
        if truth is not None:
            label = _APR_LABEL.get(claim.kind, "penalty APR")
            return _one(
                WRONG_APR,
                f"{name} has a {label} of {pct(truth)}; the response says it has none",
                claim.start,
                claim.end,
                pct(truth),
                "none",
            )
        return _OK
    low, high = card.purchase_apr_min_pct, card.purchase_apr_max_pct
    if claim.low is None or claim.high is None:
        return _OK
    if claim.low != claim.high:
        ok = _same(claim.low, low) and _same(claim.high, high)
        on_purchase = ok
    else:
        on_purchase = _same(claim.low, low) or _same(claim.low, high)
        ok = any(_same(claim.low, r) for r in _rates(card))
    if not ok:
        return _one(
            WRONG_APR,
            f"{_claimed(claim)} is none of the APRs of {name} ({_all_rates(card)})",
            claim.start,
            claim.end,
            _purchase_apr(card) if claim.kind == "purchase" else _all_rates(card),
            _claimed(claim),
        )
    named = claim.kinds if len(claim.kinds) == 1 else frozenset()
    for kind in named & _APR_FIELD.keys():
        if getattr(card, _APR_FIELD[kind]) is None:
            return _one(
                WRONG_APR,
                f"{name} has no {_APR_LABEL[kind]}; the response states {_claimed(claim)}",
                claim.start,
                claim.end,
                "none",
                _claimed(claim),
            )
    if (
        on_purchase
        and claim.kind == "purchase"
        and claim.variability is not None
        and card.apr_is_variable is not None
        and (claim.variability == "variable") != card.apr_is_variable
    ):
        truth = "variable" if card.apr_is_variable else "fixed"
        return _one(
            WRONG_APR,
            f"the purchase APR of {name} is {truth}, not {claim.variability}",
            claim.start,
            claim.end,
            _purchase_apr(card),
            f"{_claimed(claim)} {claim.variability}",
        )
    return _OK


# -- intro offers ------------------------------------------------------------------------------

_INTRO_LABEL = {"purchase": "purchases", "bt": "balance transfers"}
_INTRO_KINDS = ("purchase", "bt")


def _offer(card: CardTerms, kind: str) -> str:
    rate = getattr(card, f"intro_{kind}_apr_pct")
    months = getattr(card, f"intro_{kind}_months")
    if rate is None:
        return f"no intro APR on {_INTRO_LABEL[kind]}"
    return f"{pct(rate)} intro APR on {_INTRO_LABEL[kind]} for {months} months"


def _offer_matches(claim: Claim, card: CardTerms, kind: str, *, exact: bool = False) -> bool:
    """The claim states this offer of the card (``exact``: its months too, not just the rate)."""
    rate = getattr(card, f"intro_{kind}_apr_pct")
    months = getattr(card, f"intro_{kind}_months")
    if rate is None or not _same(claim.low, rate):
        return False
    if claim.months is None:
        return not exact
    return claim.months == months


def check_intro(claim: Claim, card: CardTerms, name: str) -> list[Finding]:
    """An intro offer is checked against the offer the text names (purchases or balance
    transfers). An offer the card does not have is false; for one it has, a rate and length that
    are exactly the card's other offer pass (which offer a sentence means is easy to misread), as
    do any rate and length of the card when the text names no scope."""
    if claim.is_none:
        return _check_no_intro(claim, card, name)
    kinds = sorted(claim.scopes) if claim.scopes else []
    offered = [k for k in _INTRO_KINDS if card.has_intro(k)]
    if not kinds:
        if not offered:
            return _one(
                FALSE_INTRO_OFFER,
                f"{name} has no intro APR offer; the response claims {_claimed(claim)}",
                claim.start,
                claim.end,
                "no intro APR offer",
                _claimed(claim),
            )
        if not any(_offer_matches(claim, card, k) for k in offered):
            truth = "; ".join(_offer(card, k) for k in offered)
            return _one(
                WRONG_INTRO_TERMS,
                f"the intro offer of {name} is {truth}, not {_claimed(claim)}",
                claim.start,
                claim.end,
                truth,
                _claimed(claim),
            )
        return _OK
    found: list[Finding] = []
    for kind in kinds:
        if _offer_matches(claim, card, kind):
            continue
        others = [k for k in offered if k != kind]
        if card.has_intro(kind) and any(_offer_matches(claim, card, k, exact=True) for k in others):
            continue
        if not card.has_intro(kind):
            found.append(
                Finding(
                    FALSE_INTRO_OFFER,
                    f"{name} has no intro APR on {_INTRO_LABEL[kind]}; "
                    f"the response claims {_claimed(claim)}",
                    claim.start,
                    claim.end,
                    _offer(card, kind),
                    _claimed(claim),
                )
            )
        else:
            found.append(
                Finding(
                    WRONG_INTRO_TERMS,
                    f"the intro offer of {name} is {_offer(card, kind)}, not {_claimed(claim)}",
                    claim.start,
                    claim.end,
                    _offer(card, kind),
                    _claimed(claim),
                )
            )
    return found


def _check_no_intro(claim: Claim, card: CardTerms, name: str) -> list[Finding]:
    """ "No intro offer" (on purchases / balance transfers): false when the card has one."""
    kinds = sorted(claim.scopes) or list(_INTRO_KINDS)
    offered = [k for k in kinds if card.has_intro(k)]
    if offered:
        truth = "; ".join(_offer(card, k) for k in offered)
        what = "an intro APR" if not claim.scopes else f"an intro APR on {_INTRO_LABEL[kinds[0]]}"
        return _one(
            WRONG_INTRO_TERMS,
            f"{name} has {what} ({truth}); the response says it has none",
            claim.start,
            claim.end,
            truth,
            "none",
        )
    return _OK


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
_PCT_FEES = tuple(k for k, spec in _FEES.items() if spec[0] is not None)
_USD_FEES = tuple(k for k, spec in _FEES.items() if spec[1] is not None or spec[2] is not None)


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
    if kind == "annual_first_year" and card.annual_fee_first_year_usd is None:
        return True  # the catalog does not say what the first year costs: unverifiable
    if claim.unit == USD and claim.low is not None:
        if usd_field is not None:
            return _value_ok(claim, getattr(card, usd_field))
        # a bare dollar figure on a percentage fee is its minimum
        return min_field is not None and _same(claim.low, getattr(card, min_field) or 0.0)
    if claim.unit == PCT and (pct_field is None or not _value_ok(claim, getattr(card, pct_field))):
        return False
    if claim.min_usd is not None:
        return min_field is not None and _same(claim.min_usd, getattr(card, min_field) or 0.0)
    return True


_KINDS_IN_ORDER: dict[frozenset[str], tuple[str, ...]] = {}


def _fee_kinds(claim: Claim) -> tuple[str, ...]:
    """The fees the claim may be about, in a fixed order (for deterministic messages)."""
    if claim.kind == "any" and not claim.kinds:
        return _USD_FEES if claim.unit == USD else _PCT_FEES
    admissible = claim.admissible
    ordered = _KINDS_IN_ORDER.get(admissible)
    if ordered is None:
        ordered = _KINDS_IN_ORDER[admissible] = tuple(k for k in _FEES if k in admissible)
    return ordered


def check_fee(claim: Claim, card: CardTerms, name: str) -> list[Finding]:
    """A fee is wrong only if it is none of the fees the words around it leave open."""
    kinds = _fee_kinds(claim)
    if not kinds:
        return _OK
    for k in kinds:
        if _fee_ok(claim, card, k):
            return _OK
    if len(kinds) == 1:
        label = _FEES[kinds[0]][3]
        truth = _fee_truth(card, kinds[0])
        message = f"the {label} of {name} is {truth}, not {_claimed(claim)}"
    else:
        truth = "; ".join(f"{_FEES[k][3]} {_fee_truth(card, k)}" for k in kinds)
        message = f"no fee of {name} is {_claimed(claim)} ({truth})"
    return _one(WRONG_FEE, message, claim.start, claim.end, truth, _claimed(claim))


CHECKERS: dict[str, Callable[[Claim, CardTerms, str], list[Finding]]] = {
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


def _states_purchase_apr(claim: Claim, card: CardTerms) -> bool:
    """The claim gives the card's purchase APR - rightly or not (a wrong one is a wrong APR,
    not a missing disclosure): a range, a rate read as the purchase APR, or one of its ends."""
    low, high = card.purchase_apr_min_pct, card.purchase_apr_max_pct
    if claim.family != APR_CLAIM or claim.is_none or claim.low is None or low is None:
        return False
    if claim.low != claim.high or claim.kind == "purchase":
        return True
    return _same(claim.low, low) or _same(claim.low, high)


def check_disclosures(
    catalog: Catalog, extraction: Extraction, recs: Recommendations, tally: Tally
) -> Iterator[Finding]:
    """An intro offer needs its length and the APR after it; a recommended card its annual fee.

    Precision first: an intro offer is only held to this when the text binds it to one card for
    certain, and a disclosure counts wherever it appears for that card (a table, a list, another
    sentence) - or, for the length, anywhere in the offer's own sentence. A recommended card's
    fee counts as stated when any dollar figure of the response is that fee.
    """
    claims = extraction.claims
    goto_stated: set[str] = set()
    months_stated: set[tuple[str, str]] = set()
    fee_stated: set[str] = set()
    for claim in claims:
        for card_id in claim.cards:
            card = catalog.card(card_id)
            if _states_purchase_apr(claim, card):
                goto_stated.add(card_id)
            elif claim.family == INTRO_CLAIM and not claim.is_none and claim.months is not None:
                for scope in claim.scopes or _INTRO_KINDS:
                    months_stated.add((card_id, scope))
            elif claim.family == FEE_CLAIM and (
                claim.kind in ("annual", "annual_first_year")
                or (claim.unit == USD and _same(claim.low, card.annual_fee_usd))
            ):
                fee_stated.add(card_id)
    for claim in claims:
        if claim.family != INTRO_CLAIM or claim.is_none or not claim.certain:
            continue
        card_id = claim.cards[0]
        card = catalog.card(card_id)
        scopes = sorted(claim.scopes) or [k for k in _INTRO_KINDS if card.has_intro(k)]
        offered = [k for k in scopes if card.has_intro(k)]
        if not offered:
            continue  # a false offer is reported as such; its disclosure is moot
        if not any(_offer_matches(claim, card, k) for k in offered):
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
                _claimed(claim),
            )
    for card_id, mention in recs.positive.items():
        card = catalog.card(card_id)
        if not card.annual_fee_usd:
            continue
        ok = card_id in fee_stated or any(
            _same(amount, card.annual_fee_usd) for amount in extraction.amounts
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


def _disclosure_truth(card: CardTerms, scopes: Sequence[str]) -> str:
    offers = [_offer(card, k) for k in scopes if card.has_intro(k)]
    return "; ".join(offers) + f"; then {_purchase_apr(card)}"


def check_claims(catalog: Catalog, claims: Sequence[Claim], tally: Tally) -> Iterator[Finding]:
    """Each claim against its card(s): every card when the text says so of each ("both cards"),
    any one of them when it leaves open which card it means."""
    for claim in claims:
        if not claim.cards:
            continue
        checker = CHECKERS[claim.family]
        objective = _FAMILY_OBJECTIVE[claim.family]
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
        *check_disclosures(catalog, extraction, recs, tally),
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
