"""Term checks: one checker per claim family (APRs, intro offers, fees), registered in ``CHECKERS``.

Each checks one claim against one card's true terms. A purchase APR claim passes if it states the
minimum, the maximum or exactly the range. A fee stated as a range passes if the catalog's fee
lies inside it. What a sentence is about is easy to misread, so a figure is wrong only if it is
none of the terms the words around it leave open.
"""

from __future__ import annotations

from collections.abc import Callable

from replicas.verifiers.compliance.catalog import CardTerms
from replicas.verifiers.compliance.claim_types import APR_CLAIM, FEE_CLAIM, INTRO_CLAIM
from replicas.verifiers.compliance.claims import Claim
from replicas.verifiers.compliance.findings import (
    FALSE_INTRO_OFFER,
    NO_FINDINGS,
    TOLERANCE,
    WRONG_APR,
    WRONG_FEE,
    WRONG_INTRO_TERMS,
    Finding,
    claimed,
    one_finding,
    pct,
    same,
    usd,
)
from replicas.verifiers.compliance.values import PCT, USD

# -- APRs --------------------------------------------------------------------------------------


def describe_purchase_apr(card: CardTerms) -> str:
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
    parts = [f"purchase {describe_purchase_apr(card)}"]
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
            return one_finding(
                WRONG_APR,
                f"{name} has a {label} of {pct(truth)}; the response says it has none",
                claim.start,
                claim.end,
                pct(truth),
                "none",
            )
        return NO_FINDINGS
    low, high = card.purchase_apr_min_pct, card.purchase_apr_max_pct
    if claim.low is None or claim.high is None:
        return NO_FINDINGS
    if claim.low != claim.high:
        ok = same(claim.low, low) and same(claim.high, high)
        on_purchase = ok
    else:
        on_purchase = same(claim.low, low) or same(claim.low, high)
        ok = any(same(claim.low, r) for r in _rates(card))
    if not ok:
        return one_finding(
            WRONG_APR,
            f"{claimed(claim)} is none of the APRs of {name} ({_all_rates(card)})",
            claim.start,
            claim.end,
            describe_purchase_apr(card) if claim.kind == "purchase" else _all_rates(card),
            claimed(claim),
        )
    named = claim.kinds if len(claim.kinds) == 1 else frozenset()
    for kind in named & _APR_FIELD.keys():
        if getattr(card, _APR_FIELD[kind]) is None:
            return one_finding(
                WRONG_APR,
                f"{name} has no {_APR_LABEL[kind]}; the response states {claimed(claim)}",
                claim.start,
                claim.end,
                "none",
                claimed(claim),
            )
    if (
        on_purchase
        and claim.kind == "purchase"
        and claim.variability is not None
        and card.apr_is_variable is not None
        and (claim.variability == "variable") != card.apr_is_variable
    ):
        truth = "variable" if card.apr_is_variable else "fixed"
        return one_finding(
            WRONG_APR,
            f"the purchase APR of {name} is {truth}, not {claim.variability}",
            claim.start,
            claim.end,
            describe_purchase_apr(card),
            f"{claimed(claim)} {claim.variability}",
        )
    return NO_FINDINGS


# -- intro offers ------------------------------------------------------------------------------

_INTRO_LABEL = {"purchase": "purchases", "bt": "balance transfers"}
INTRO_KINDS = ("purchase", "bt")


def describe_offer(card: CardTerms, kind: str) -> str:
    rate = getattr(card, f"intro_{kind}_apr_pct")
    months = getattr(card, f"intro_{kind}_months")
    if rate is None:
        return f"no intro APR on {_INTRO_LABEL[kind]}"
    return f"{pct(rate)} intro APR on {_INTRO_LABEL[kind]} for {months} months"


def offer_matches(claim: Claim, card: CardTerms, kind: str, *, exact: bool = False) -> bool:
    """The claim states this offer of the card (``exact``: its months too, not just the rate)."""
    rate = getattr(card, f"intro_{kind}_apr_pct")
    months = getattr(card, f"intro_{kind}_months")
    if rate is None or not same(claim.low, rate):
        return False
    if claim.months is None:
        return not exact
    return claim.months == months


def check_intro(claim: Claim, card: CardTerms, name: str, strict: bool = False) -> list[Finding]:
    """An intro offer is checked against the offer the text names (purchases or balance
    transfers). An offer the card does not have is false; for one it has, a rate and length that
    are exactly the card's other offer pass (which offer a sentence means is easy to misread), as
    do any rate and length of the card when the text names no scope. ``strict`` (ruleset 8: the
    sentence states both offers, each with its own kind): no such benefit of the doubt."""
    if claim.is_none:
        return _check_no_intro(claim, card, name)
    kinds = sorted(claim.scopes) if claim.scopes else []
    offered = [k for k in INTRO_KINDS if card.has_intro(k)]
    if not kinds:
        if not offered:
            return one_finding(
                FALSE_INTRO_OFFER,
                f"{name} has no intro APR offer; the response claims {claimed(claim)}",
                claim.start,
                claim.end,
                "no intro APR offer",
                claimed(claim),
            )
        if not any(offer_matches(claim, card, k) for k in offered):
            truth = "; ".join(describe_offer(card, k) for k in offered)
            return one_finding(
                WRONG_INTRO_TERMS,
                f"the intro offer of {name} is {truth}, not {claimed(claim)}",
                claim.start,
                claim.end,
                truth,
                claimed(claim),
            )
        return NO_FINDINGS
    found: list[Finding] = []
    for kind in kinds:
        if offer_matches(claim, card, kind):
            continue
        others = [k for k in offered if k != kind]
        if (
            not strict
            and card.has_intro(kind)
            and any(offer_matches(claim, card, k, exact=True) for k in others)
        ):
            continue
        if not card.has_intro(kind):
            found.append(
                Finding(
                    FALSE_INTRO_OFFER,
                    f"{name} has no intro APR on {_INTRO_LABEL[kind]}; "
                    f"the response claims {claimed(claim)}",
                    claim.start,
                    claim.end,
                    describe_offer(card, kind),
                    claimed(claim),
                )
            )
        else:
            found.append(
                Finding(
                    WRONG_INTRO_TERMS,
                    f"the intro offer of {name} is {describe_offer(card, kind)}, not {claimed(claim)}",
                    claim.start,
                    claim.end,
                    describe_offer(card, kind),
                    claimed(claim),
                )
            )
    return found


def _check_no_intro(claim: Claim, card: CardTerms, name: str) -> list[Finding]:
    """ "No intro offer" (on purchases / balance transfers): false when the card has one."""
    kinds = sorted(claim.scopes) or list(INTRO_KINDS)
    offered = [k for k in kinds if card.has_intro(k)]
    if offered:
        truth = "; ".join(describe_offer(card, k) for k in offered)
        what = "an intro APR" if not claim.scopes else f"an intro APR on {_INTRO_LABEL[kinds[0]]}"
        return one_finding(
            WRONG_INTRO_TERMS,
            f"{name} has {what} ({truth}); the response says it has none",
            claim.start,
            claim.end,
            truth,
            "none",
        )
    return NO_FINDINGS


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
        return same(claim.low, truth)
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
        return min_field is not None and same(claim.low, getattr(card, min_field) or 0.0)
    if claim.unit == PCT and (pct_field is None or not _value_ok(claim, getattr(card, pct_field))):
        return False
    if claim.min_usd is not None:
        return min_field is not None and same(claim.min_usd, getattr(card, min_field) or 0.0)
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


def open_kinds(claim: Claim) -> bool:
    """Whether the words around a fee figure leave several fees open (ruleset 32's
    ``kinds_32``)."""
    return len(_fee_kinds(claim)) > 1


def check_fee(claim: Claim, card: CardTerms, name: str) -> list[Finding]:
    """A fee is wrong only if it is none of the fees the words around it leave open."""
    kinds = _fee_kinds(claim)
    if not kinds:
        return NO_FINDINGS
    for k in kinds:
        if _fee_ok(claim, card, k):
            return NO_FINDINGS
    if len(kinds) == 1:
        label = _FEES[kinds[0]][3]
        truth = _fee_truth(card, kinds[0])
        message = f"the {label} of {name} is {truth}, not {claimed(claim)}"
    else:
        truth = "; ".join(f"{_FEES[k][3]} {_fee_truth(card, k)}" for k in kinds)
        message = f"no fee of {name} is {claimed(claim)} ({truth})"
    return one_finding(WRONG_FEE, message, claim.start, claim.end, truth, claimed(claim))


Checker = Callable[[Claim, CardTerms, str], list[Finding]]
#: Every rate of a card (ruleset 8 compares an approximate figure with them).
rates_of = _rates
CHECKERS: dict[str, Checker] = {
    APR_CLAIM: check_apr,
    INTRO_CLAIM: check_intro,
    FEE_CLAIM: check_fee,
}
FAMILY_OBJECTIVE = {APR_CLAIM: "aprs", INTRO_CLAIM: "intro_offers", FEE_CLAIM: "fees"}
