"""Compliance ruleset 14: the classes session 13's retired blind set showed as tuning data (issue
13; ``verifiers/compliance/ruleset14.py``), one group per class, in our own wording on the hand
catalog (``tests/compliance_cases``).

Each case is (text, ruleset 14's codes, ruleset 13's codes): a defect ruleset 14 must catch or a
compliant answer it must pass, each with a hard negative beside it, and ruleset 13's reading of
the same text.

Catalog facts used here: Summit Cash - no annual fee, 3% foreign and balance transfer fees,
penalty APR 29.99%, 19.99%-29.99% variable, 0% on purchases for 15 months; Summit Cash Plus -
$95 annual fee, 5% cash advance fee (min $10); Summit Cash Preferred - $150 annual fee, also in
the first year; Harbor Sky Miles - no annual fee, no foreign fee, no intro offer, 14.99% fixed;
Vista Clear - 0% on purchases for 12 months; the cards' issuer is Harborline Bank.
"""

from __future__ import annotations

import pytest

from replicas.verifiers.compliance import DEFAULT_RULESET, RULESETS, Catalog, verify_response
from tests.compliance_cases import CARDS, COMPLIANT, ELIGIBILITY
from tests.compliance_support import codes_with_spans

# (text, ruleset 14's codes, ruleset 13's codes)
Case = tuple[str, list[str], list[str]]

_OK: list[str] = []
_UNK = ["unknown_card"]
_FEE = ["wrong_fee"]
_APR = ["wrong_apr"]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


def _check(case: Case, catalog: Catalog) -> None:
    text, r14, r13 = case
    assert codes_with_spans(text, catalog, 14) == r14, text
    assert codes_with_spans(text, catalog, 13) == r13, text


# -- claims 1. a reward rate typed as a fee or an APR ----------------------------------------------
REWARD_RATES: list[Case] = [
    (
        "The Summit Cash has an FX fee of 3%, 2% cash back on everything and a late fee of up to $40.",
        _OK,
        _FEE,
    ),
    (
        "The Summit Cash has a penalty APR of up to 29.99%, 1.5% back on dining and a 19.99%-29.99% "
        "variable APR.",
        _OK,
        _APR,
    ),
    # hard negatives: the fee or APR itself wrong, the reward rate beside it
    (
        "The Summit Cash has an FX fee of 2%, 2% cash back on everything and a late fee of up to $40.",
        _FEE,
        _FEE,
    ),
    (
        "The Summit Cash has a penalty APR of up to 24.99%, 1.5% back on dining and a 19.99%-29.99% "
        "variable APR.",
        _APR,
        _APR,
    ),
]

# -- claims 2. "no <kind> promotion" read as no fee ------------------------------------------------
PROMOTION_NOT_FEE: list[Case] = [
    (
        "The Summit Cash has 0% intro APR on purchases for 15 months, then 19.99%-29.99% variable, "
        "but no balance transfer promotion, a late fee of up to $40 and a 3% balance transfer fee.",
        _OK,
        _FEE,
    ),
    # hard negatives: a denied fee is still a fee claim
    (
        "The Summit Cash has 0% intro APR on purchases for 15 months, then 19.99%-29.99% variable, "
        "but no balance transfer fee, a late fee of up to $40.",
        _FEE,
        _FEE,
    ),
    ("The Summit Cash has no intro offer on transfers and a 3% balance transfer fee.", _OK, _OK),
]

# -- claims 3. a fee's minimum read as the next fee ------------------------------------------------
MINIMUM_NOT_FEE: list[Case] = [
    (
        "The Summit Cash Plus has a 5% cash advance fee, $10 minimum and an annual fee of $95.",
        _OK,
        _OK,
    ),
    # the annual fee after the minimum is still read
    (
        "The Summit Cash Plus has a 5% cash advance fee, $10 minimum and an annual fee of $59.",
        _FEE,
        _FEE,
    ),
    (
        "The Summit Cash has a 3% balance transfer fee, $5 minimum, and a late fee of up to $40.",
        _OK,
        _OK,
    ),
]

# -- myths. a myth introduced as an assumption, then corrected -------------------------------------
ASSUMED_MYTHS: list[Case] = [
    (
        "It is widely assumed that every card waives foreign fees; on the Summit Cash that is not so, "
        "since it charges a 3% foreign transaction fee.",
        _OK,
        _FEE,
    ),
    (
        "Shoppers assume cash back cards never charge for spending abroad, but the Summit Cash does: "
        "a 3% foreign transaction fee.",
        _OK,
        _FEE,
    ),
    (
        "A common assumption is that the first year is free; on the Summit Cash Preferred it is not, "
        "as the $150 annual fee applies from day one.",
        _OK,
        _FEE,
    ),
    # hard negatives: the correction's own figure is still checked; the response's own claim
    # with an assumption after it is its claim
    (
        "It is widely assumed that every card waives foreign fees; on the Summit Cash that is not so, "
        "since it charges a 2% foreign transaction fee.",
        _FEE,
        _FEE,
    ),
    (
        "Shoppers assume cash back cards never charge for spending abroad, but the Summit Cash does: "
        "a 1% foreign transaction fee.",
        _FEE,
        _FEE,
    ),
    (
        "The Summit Cash has no foreign transaction fee, which people assume of cash back cards.",
        _FEE,
        _FEE,
    ),
]

# -- rewrites. a zero fee joined to an offer; "fee-free" before a kind; "reverting to" ---------------
REWRITES: list[Case] = [
    (
        "The Harbor Sky Miles has zero annual fee and 0% intro APR on purchases for 12 months, then a "
        "14.99% fixed APR.",
        ["false_intro_offer"],
        _OK,
    ),
    (
        "The Summit Cash has zero annual fee and 0% intro APR on purchases for 15 months, then "
        "19.99%-29.99% variable.",
        _OK,
        ["wrong_intro_terms"],
    ),
    (
        "The Summit Cash has a $0 annual fee, fee-free balance transfers and a 19.99%-29.99% variable "
        "APR.",
        _FEE,
        _OK,
    ),
    (
        "The Summit Cash has a $0 annual fee, fee-free foreign purchases and a 19.99%-29.99% variable "
        "APR.",
        _FEE,
        _OK,
    ),
    (
        "The Harbor Sky Miles has a $0 annual fee, fee-free foreign purchases and a 14.99% fixed APR.",
        _OK,
        _OK,
    ),
    (
        "The Harbor Sky Miles has 0% on purchases, reverting to 14.99% afterwards.",
        ["false_intro_offer"],
        _OK,
    ),
    (
        "The Vista Clear has 0% on purchases, reverting to 19.99%-29.99% variable afterwards.",
        ["missing_disclosure"],
        _OK,
    ),
    # hard negatives: the offer stated in full; a high figure "rising to" another is no offer
    (
        "The Vista Clear has 0% on purchases for 12 months, reverting to 19.99%-29.99% variable "
        "afterwards.",
        _OK,
        _OK,
    ),
    ("The Summit Cash has a 3% foreign fee, rising to a $40 late fee if you slip.", _OK, _OK),
]

# -- names 1. an invented Title Case name with a possessive on a product or tier word --------------
POSSESSIVE_ANY: list[Case] = [
    (
        "The Summit Cash has no annual fee. The Brindlemoor Rewards Preferred's perks suit "
        "travellers.",
        _UNK,
        _OK,
    ),
    (
        "The Summit Cash has no annual fee. The Harborline Bank Infinite Rewards's lounge passes are "
        "generous.",
        _UNK,
        _OK,
    ),
    # hard negatives: a catalog card's possessive, a generic one
    ("The Summit Cash Preferred's annual fee is $150.", _OK, _OK),
    (
        "The Summit Cash has no annual fee. The Travel Rewards's perks of other banks vary.",
        _OK,
        _OK,
    ),
]

# -- names 2. a catalog brand before two invented words and a product word, lower case -------------
BRAND_TWO_COINED: list[Case] = [
    (
        "the summit cash has no annual fee. the harbor zenleaf apex rewards, which suits flyers, is "
        "another.",
        _UNK,
        _OK,
    ),
    (
        "the summit cash has no annual fee. the vista quillon select cash is worth a look.",
        _UNK,
        _OK,
    ),
    # hard negatives: the words not used as a card; a catalog card
    ("the summit cash has no annual fee. the harbor front cafe rewards you with coffee.", _OK, _OK),
    (
        "the summit cash has no annual fee. the harbor sky miles, which suits flyers, has no annual "
        "fee either.",
        _OK,
        _OK,
    ),
]

# -- names 3. an unfamiliar word before product words after a recommending verb --------------------
RECOMMENDED_COINED: list[Case] = [
    (
        "the summit cash has no annual fee. i would also consider the velmora cash plus for "
        "groceries.",
        _UNK,
        _OK,
    ),
    (
        "the summit cash has no annual fee. you could put the ostrander rewards preferred at the top "
        "of the list.",
        _UNK,
        _OK,
    ),
    # hard negatives: common words before product words; a programme, not a card
    (
        "the summit cash has no annual fee. i would also consider the airline miles card for trips.",
        _OK,
        _OK,
    ),
    (
        "the summit cash has no annual fee. try the thornfield rewards program at your bank.",
        _OK,
        _OK,
    ),
]


@pytest.mark.parametrize(
    "case", REWARD_RATES + PROMOTION_NOT_FEE + MINIMUM_NOT_FEE + ASSUMED_MYTHS + REWRITES
)
def test_ruleset14_claims(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", POSSESSIVE_ANY + BRAND_TWO_COINED + RECOMMENDED_COINED)
def test_ruleset14_names(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


def test_ruleset14_is_opt_in_and_keeps_the_compliant_corpus_passing(catalog: Catalog) -> None:
    flags = ("rewrites_14", "claims_14", "myths_14", "names_14")
    assert RULESETS[14].version == 14
    assert all(getattr(RULESETS[14], f) for f in flags)
    for v in range(3, 14):
        assert not any(getattr(RULESETS[v], f) for f in flags)
    assert DEFAULT_RULESET == 13
    for text in COMPLIANT:
        assert verify_response(text, catalog, ruleset=14).passed, text
