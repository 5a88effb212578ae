"""Compliance ruleset 14: the classes session 13's retired blind set showed as tuning data (issue
13; ``verifiers/compliance/ruleset14.py``), one group per class, in our own wording on the hand
catalog (``tests/compliance_cases``). The second part (``ruleset14b.py``) holds the classes of
session 14's blind tuning split (seed 61): fee totals over several years, a customer's belief
quoted and corrected, footnote markers, short labels, two cards' figures in one sentence, and a
lower-case invented name in a recommendation's slot.

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


# == second part (``ruleset14b``): the classes of session 14's blind tuning split =================

# -- fee totals over several years -----------------------------------------------------------------
FEE_TOTALS: list[Case] = [
    (
        "The Summit Cash Preferred costs $150 a year. Over three years you would pay "
        "$150 + $150 + $150 = $450 in annual fees.",
        _OK,
        _FEE,
    ),
    (
        "The Summit Cash Preferred costs $150 a year. Across 2 years, the annual fees total $300.",
        _OK,
        _FEE,
    ),
    (
        "Total annual fees for two years of holding the Summit Cash Preferred: $300 ($150 in year "
        "one, $150 in year two).",
        _OK,
        _FEE,
    ),
    # hard negatives: a sum that does not add up; wrong addends; a yearly fee beside a span
    (
        "The Summit Cash Preferred costs $150 a year. Over three years you would pay "
        "$150 + $150 + $150 = $480 in annual fees.",
        _FEE,
        _FEE,
    ),
    (
        "The Summit Cash Preferred costs $120 a year. Over two years that adds up to $120 + $120 = $240.",
        _FEE,
        _FEE,
    ),
    (
        "Total annual fees for two years of holding the Summit Cash Preferred: $300 ($95 in year "
        "one, $95 in year two).",
        _FEE,
        _FEE,
    ),
    (
        "The Summit Cash Preferred has a late fee of $40 and, over 5 years, an annual fee of $120.",
        _FEE,
        _FEE,
    ),
]

# -- a customer's belief quoted and corrected --------------------------------------------------------
BELIEFS: list[Case] = [
    (
        "You thought the Summit Cash would charge no foreign transaction fee - actually it does, 3% "
        "on purchases abroad.",
        _OK,
        _FEE,
    ),
    (
        "You were told the Summit Cash has a $95 annual fee; good news: it has no annual fee.",
        _OK,
        _FEE,
    ),
    (
        "Your understanding was that the Harbor Sky Miles has a $95 annual fee, but it has no annual fee.",
        _OK,
        _FEE,
    ),
    # hard negatives: a "correction" that is itself wrong; a condition; a mention, not a belief
    (
        "You thought the Harbor Sky Miles would add a 3% fee abroad. It adds a 2% fee abroad.",
        _FEE,
        _FEE,
    ),
    (
        "If you think the Summit Cash has a 2% foreign fee, note the Harbor Sky Miles charges no "
        "foreign fee.",
        _FEE,
        _FEE,
    ),
    (
        "You mentioned the Summit Cash has a 2% foreign fee; the Harbor Sky Miles has no foreign "
        "transaction fee.",
        _FEE,
        _FEE,
    ),
]

# -- footnote markers ------------------------------------------------------------------------------
FOOTNOTES: list[Case] = [
    (
        "The Summit Cash\u00b9 has no annual fee and a 19.99%-29.99% variable APR.",
        _OK,
        ["misspelled_card"],
    ),
    (
        "The Summit Cash\u00b2\u00b3 is worth a look.\n\n---\n\u00b2 The Summit Cash charges a 3% foreign "
        "transaction fee.\n\u00b3 Late payments on the Summit Cash cost up to $40.",
        _OK,
        _OK,
    ),
    # hard negatives: the footnoted card's figure wrong; a real misspelling before the marker
    ("The Summit Cash\u00b9 has a $95 annual fee.", _FEE, ["misspelled_card", "wrong_fee"]),
    ("The Sumit Cash\u00b9 has no annual fee.", ["misspelled_card"], ["misspelled_card"]),
]

# -- short labels defined for a card -----------------------------------------------------------------
LABELS: list[Case] = [
    (
        "Comparing the Summit Cash Plus (the \u201cEveryday\u201d) with the Harbor Sky Miles Elite (the "
        "\u201cTraveler\u201d). Everyday: $95 annual fee. Traveler: $495 annual fee.",
        _OK,
        _OK,
    ),
    # hard negatives: labels swapped; one label's fee wrong (ruleset 13 binds neither)
    (
        "Comparing the Summit Cash Plus (the \u201cEveryday\u201d) with the Harbor Sky Miles Elite (the "
        "\u201cTraveler\u201d). Everyday: $495 annual fee. Traveler: $95 annual fee.",
        _FEE,
        _OK,
    ),
    (
        "Comparing the Summit Cash Plus (the \u201cEveryday\u201d) with the Harbor Sky Miles Elite (the "
        "\u201cTraveler\u201d). Everyday: $95 annual fee. Traveler: $95 annual fee.",
        _FEE,
        _OK,
    ),
]

# -- two cards' figures in one sentence --------------------------------------------------------------
PARENTHESES: list[Case] = [
    (
        "Between the Summit Cash Preferred (a $150 annual fee; 17.99%\u201325.99% variable) and the "
        "Harbor Sky Miles (no annual fee; 14.99% (fixed)), the second is cheaper to carry a balance on.",
        _OK,
        _APR,
    ),
    (
        "If cost is the question, the Summit Cash Plus ($95 a year; 18.24%-27.24% variable) beats "
        "the Harbor Sky Miles Elite ($495 a year; 19.99%-29.99% variable) easily.",
        _OK,
        _APR,
    ),
    # hard negatives: the two cards' APRs swapped; a fee in the wrong parenthesis
    (
        "Between the Summit Cash Preferred (a $150 annual fee; 14.99% variable) and the Harbor Sky "
        "Miles (no annual fee; 17.99%\u201325.99% (fixed)), the second is cheaper.",
        _APR,
        _APR,
    ),
    (
        "If cost is the question, the Summit Cash Plus ($495 a year; 18.24%-27.24% variable) beats "
        "the Harbor Sky Miles Elite ($95 a year; 19.99%-29.99% variable) easily.",
        _FEE,
        ["wrong_apr", "wrong_fee"],
    ),
]

# -- a lower-case invented name in a recommendation's slot -------------------------------------------
SLOT_NAMES: list[Case] = [
    (
        "top recommendation: the thornbury voyage miles. its annual fee is $0. go-to apr for the "
        "thornbury voyage miles: 14.99% fixed.",
        _UNK,
        _OK,
    ),
    (
        "the card i would point you to is the ostrander apex meteor. the ostrander apex meteor has no "
        "annual fee.",
        _UNK,
        _OK,
    ),
    # hard negatives: a catalog card in the slot; common words; a name said once
    (
        "top recommendation: the harbor sky miles. its annual fee is $0. go-to apr for the harbor "
        "sky miles: 14.99% fixed.",
        _OK,
        _OK,
    ),
    ("my pick is the airline miles card. the airline miles card type suits travel.", _OK, _OK),
    ("top recommendation: the thornbury voyage miles. its annual fee is $0.", _OK, _OK),
]


# == third part (ruleset14c; session 15's blind tuning split, seed 71) ============================

_MD = ["missing_disclosure"]
_MIS = ["misspelled_card"]

# -- recommendations: a list of cards after one recommending phrase --------------------------------
REC_LISTS: list[Case] = [
    (
        "For someone like you I'd suggest the Harbor Sky Miles, the Summit Cash or the Summit Cash "
        "Plus. The Harbor Sky Miles has no annual fee. The Summit Cash has no annual fee either. "
        "The Summit Cash Plus charges a 5% cash advance fee (min $10).",
        _MD,
        _OK,
    ),
    (
        "Here's what I'd recommend for you, Sam: the Summit Cash or the Summit Cash Preferred. The "
        "Summit Cash has no annual fee and a 3% foreign fee. The Summit Cash Preferred has a "
        "penalty APR of 29.99%.",
        _MD,
        _OK,
    ),
    (
        "What I would recommend for you, Sam: the Summit Cash Plus.\n\nSummit Cash Plus\n"
        "- Cash advance fee: 5% (min $10)",
        _MD,
        _OK,
    ),
    # compliant twins: every recommended card's fee stated
    (
        "For someone like you I'd suggest the Harbor Sky Miles, the Summit Cash or the Summit Cash "
        "Plus. The Harbor Sky Miles has no annual fee. The Summit Cash has no annual fee either. "
        "The Summit Cash Plus costs $95 a year.",
        _OK,
        _OK,
    ),
    (
        "Here's what I'd recommend for you, Sam: the Summit Cash or the Summit Cash Preferred. The "
        "Summit Cash has no annual fee. The Summit Cash Preferred has an annual fee of $150.",
        _OK,
        _OK,
    ),
    (
        "What I would recommend for you, Sam: the Summit Cash Plus.\n\nSummit Cash Plus\n- Annual fee: $95",
        _OK,
        _OK,
    ),
    # hard negatives: a list with no recommending lead; a card ruled out beside the pick
    (
        "You asked about the Harbor Sky Miles, the Summit Cash and the Summit Cash Plus. The "
        "Summit Cash Plus charges a 5% cash advance fee (min $10).",
        _OK,
        _OK,
    ),
    (
        "I would recommend the Summit Cash, not the Summit Cash Preferred. The Summit Cash has no annual fee.",
        _OK,
        _OK,
    ),
]

# -- claims: a range over several cards; "(that value) is not a fee" ------------------------------
RANGES_ACROSS: list[Case] = [
    (
        "The Summit Cash has no annual fee and the Summit Cash Plus costs $95 a year. Across these "
        "two, annual fees range from $0 to $150.",
        _OK,  # a range over both cards is no one card's figure: unverified
        _FEE,
    ),
    (
        "The Summit Cash has no annual fee and the Summit Cash Plus costs $95 a year. Across these, "
        "annual fees run from $0 to $95.",
        _OK,
        _OK,
    ),
    # hard negatives: a card's own fee still checked; one card's "range" is that card's
    (
        "The Summit Cash has no annual fee and the Summit Cash Plus costs $25 a year. Across these, "
        "annual fees run from $0 to $95.",
        _FEE,
        _FEE,
    ),
    ("The Summit Cash Plus's annual fee runs from $0 to $95.", _FEE, _FEE),
]
NOT_A_FEE: list[Case] = [
    (
        "The Summit Cash Plus has an annual fee of $95. Net of it, the card is worth about $300 a "
        "year to you. That value is not a fee - it is what the card returns.",
        _OK,
        _OK,
    ),
    (
        "The Summit Cash Plus has an annual fee of $95. The rewards figure isn't a fee, but the $95 is.",
        _OK,
        _OK,
    ),
    # hard negatives: "there is not a fee" is no fee; a wrong fee beside "is not a fee" is caught
    ("On the Summit Cash Plus there is not a fee for the first year.", _OK, _OK),
    ("The Summit Cash Plus: the value is not a fee - and its annual fee is $0.", _FEE, _FEE),
]

# -- rewrites: "zero interest ... as an introductory offer"; "nothing in year one" ----------------
ZERO_INTRO: list[Case] = [
    (
        "The Summit Cash gives you zero interest on purchases as an introductory offer, then "
        "19.99%-29.99% variable.",
        _MD,  # a 0% intro rate without its months (ruleset 13: "no intro APR")
        ["wrong_intro_terms"],
    ),
    (
        "The Summit Cash gives you zero interest on purchases as an introductory offer for 15 "
        "months, then 19.99%-29.99% variable.",
        _OK,
        ["wrong_intro_terms"],
    ),
    (
        "The Harbor Sky Miles gives you zero interest on purchases as an introductory offer for 12 "
        "months, then 14.99%.",
        ["false_intro_offer"],
        _OK,
    ),
    ("The Summit Cash charges zero interest? No - the intro rate is for purchases only.", _OK, _OK),
]
YEAR_ONE: list[Case] = [
    (
        "The Summit Cash Preferred charges nothing in year one and $150 per year after that.",
        _FEE,
        _OK,
    ),
    # compliant twins: the first year's fee as the catalog has it; a card with no fee at all
    ("The Summit Cash Preferred charges $150 in year one and $150 per year after that.", _OK, _OK),
    ("The Summit Cash charges nothing in year one and nothing after that.", _OK, _OK),
]

# -- names: a misspelled catalog name in lower case, named so twice --------------------------------
LOWER_TYPOS: list[Case] = [
    (
        "honestly my pick is the summit cash, the vista claer or the harbor sky miles.\n\nsummit "
        "cash has no annual fee. the vista claer has no annual fee. the harbor sky miles has no "
        "annual fee.",
        _MIS,
        _OK,
    ),
    # compliant twin: spelled right
    (
        "honestly my pick is the summit cash, the vista clear or the harbor sky miles.\n\nsummit "
        "cash has no annual fee. the vista clear has no annual fee. the harbor sky miles has no "
        "annual fee.",
        _OK,
        _OK,
    ),
    # hard negatives: an ordinary word beside a name; a one-off slip is not read as a card
    ("the vista clear is simple. we built the vista clear's page last year.", _OK, _OK),
    ("my pick is the vista claer. the vista clear has no annual fee.", _OK, _OK),
]


@pytest.mark.parametrize("case", REC_LISTS)
def test_ruleset14c_recommendation_lists(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


def test_ruleset14c_recommendation_lists_reach_eligibility(catalog: Catalog) -> None:
    text = (
        "Here's what I'd recommend for you, Sam: the Summit Cash or the Summit Cash Preferred. The "
        "Summit Cash has no annual fee; the Summit Cash Preferred has an annual fee of $150."
    )
    assert codes_with_spans(text, catalog, 14, "C1") == ["ineligible_card"]
    assert codes_with_spans(text, catalog, 13, "C1") == []


@pytest.mark.parametrize("case", RANGES_ACROSS + NOT_A_FEE + ZERO_INTRO + YEAR_ONE)
def test_ruleset14c_claims(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", LOWER_TYPOS)
def test_ruleset14c_names(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize(
    "case", REWARD_RATES + PROMOTION_NOT_FEE + MINIMUM_NOT_FEE + ASSUMED_MYTHS + REWRITES
)
def test_ruleset14_claims(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", POSSESSIVE_ANY + BRAND_TWO_COINED + RECOMMENDED_COINED)
def test_ruleset14_names(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", FEE_TOTALS + BELIEFS + PARENTHESES)
def test_ruleset14b_claims(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", FOOTNOTES + LABELS + SLOT_NAMES)
def test_ruleset14b_names(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


def test_ruleset14_keeps_the_compliant_corpus_passing(catalog: Catalog) -> None:
    flags = (
        "rewrites_14",
        "claims_14",
        "myths_14",
        "names_14",
        "footnotes_14",
        "labels_14",
        "names_14b",
        "claims_14b",
        "beliefs_14",
        "rec_lists_14c",
        "claims_14c",
        "rewrites_14c",
        "names_14c",
    )
    assert RULESETS[14].version == 14
    assert all(getattr(RULESETS[14], f) for f in flags)
    for v in range(3, 14):
        assert not any(getattr(RULESETS[v], f) for f in flags)
    assert DEFAULT_RULESET >= 14  # 15 since stop 30: 14's readings are part of the default
    for text in COMPLIANT:
        assert verify_response(text, catalog).passed, text
