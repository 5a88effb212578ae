"""Compliance ruleset 7: classes of phrasing rulesets 3-6 misread, and their honest twins.

Each group is one class, in wording of our own, written in many surface forms (formal, casual,
lists, labels, lower case): violating cases ruleset 7 must catch with exactly the expected codes
and ruleset 6 did not catch that way (a new detection, so ruleset 6's published grades stay
unchanged), and compliant twins - the same shapes with the catalog's true figures - that ruleset
7 must pass. Catalog facts (``tests/compliance_cases``): Summit Cash - no annual fee, late fee
$40, 3% foreign fee, purchase intro 0% for 15 months only; Summit Cash Plus - $95 ($0 the first
year), no foreign fee, late fee $39, balance-transfer intro 0% for 18 months only; Summit Cash
Preferred - $150 from the first year, 3% foreign fee, no intro offer; Harbor Sky Miles - no
annual fee, no foreign fee, 14.99% fixed, no intro offer; Vista Clear - purchase intro 0% for 12
months and balance-transfer intro 1.99% for 21 months. Customer C1 may not get the Granite
Business Cash (student only); the Summit Cash is open to C1.
"""

from __future__ import annotations

import pytest

from replicas.verifiers.compliance import Catalog, verify_response
from tests.compliance_cases import CARDS, COMPLIANT, ELIGIBILITY, REALISTIC_COMPLIANT
from tests.compliance_support import codes_with_spans

Case = tuple[str, list[str]]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


_codes = codes_with_spans


_SC = "The Summit Cash: 0% intro APR on purchases for 15 months, then 19.99%-29.99% variable. "
_F = ["false_intro_offer"]
_W = ["wrong_fee"]

# -- a label joined to its value by a dash or a question mark -----------------------------------
LABEL_DASH: list[Case] = [
    (_SC + "Balance transfers - 0% for 18 months.", _F),
    (_SC + "Balance transfers \u2014 0% for eighteen months.", _F),
    (_SC + "Transferring? 0% for 18 months.", _F),
    (_SC + "It doubles as a balance transfer card \u2013 0% intro APR for 18 months.", _F),
]
LABEL_DASH_TWINS: list[str] = [
    "The Summit Cash Plus:\n- Balance transfers - 0% for 18 months, then 18.24%-27.24% variable",
    "Vista Clear\n* Purchases \u2014 0% for 12 months\n* Balance transfers \u2014 1.99% for 21 "
    "months\n* After either: 19.99%-29.99% variable",
    "Summit Cash Plus: transferring? 0% intro APR for 18 months, then 18.24%-27.24% variable.",
    "The Summit Cash Plus costs $95 - not the $99 you may have seen.",
    "Summit Cash \u2013 $0 annual fee, 19.99%-29.99% variable APR.",
]

# -- a kind of transaction as the label of "no fee" ---------------------------------------------
KIND_NO_FEE: list[Case] = [
    ("Summit Cash Preferred. Foreign purchases: no fee.", _W),
    ("Summit Cash Preferred \u2014 foreign transactions - no fees", _W),
    ("Summit Cash. Late payments: no charge.", _W),
    ("Summit Cash\n- Balance transfers: no fee\n- Cash advances: no fee", _W),
]
KIND_NO_FEE_TWINS: list[str] = [
    "Harbor Sky Miles. Foreign purchases: no fee.",
    "Summit Cash Plus \u2014 foreign transactions - no fees",
    "Summit Cash. Late payments: up to $40.",
]

# -- balance transfers named otherwise ----------------------------------------------------------
TRANSFER_WORDS: list[Case] = [
    (_SC + "Balance xfers: 0% for 18 months.", _F),
    (_SC + "Xfers get 0% for 18 months.", _F),
    (_SC + "Transfers from other cards: 0% for 18 months.", _F),
    (_SC + "Pay down a balance from elsewhere at 0% for 18 months.", _F),
    (_SC + "Great for paying off debt: 0% for 18 months.", _F),
    (_SC + "Tackle high-interest debt with 0% intro APR for 18 months.", _F),
    (_SC + "It also lets you consolidate at 0% for 18 months.", _F),
    (_SC + "Switch your balance to it and pay 0% for 18 months.", _F),
    (_SC + "Migrate what you owe to it and pay 0% for 18 months.", _F),
    (_SC + "Bring across the money you owe elsewhere and pay 0% for 18 months.", _F),
    (_SC + "It charges 0% for 18 months on debt you move to it.", _F),
    (_SC + "Consolidation: 0% for 18 months.", _F),
    (_SC + "You'll pay 0% for 18 months on amounts transferred.", _F),
]
TRANSFER_WORDS_TWINS: list[str] = [
    "The Summit Cash Plus: balance xfers get 0% for 18 months, then 18.24%-27.24% variable.",
    "Summit Cash Plus - transfers from other cards: 0% for 18 months, then 18.24%-27.24% variable.",
    "Great for paying off debt: the Summit Cash Plus, at 0% for 18 months, then 18.24%-27.24% "
    "variable.",
    "Switch your balance to the Summit Cash Plus and pay 0% for 18 months, then 18.24%-27.24% "
    "variable.",
    # paying off debt after the rate names no transfer; a balance brought down is no transfer
    "The Summit Cash's 0% intro APR on purchases for 15 months, then 19.99%-29.99% variable, "
    "gives you time to pay off debt.",
    "Bring your balance down with the Summit Cash: 0% intro APR on purchases for 15 months, then "
    "19.99%-29.99% variable.",
    "If you carry over a balance on the Summit Cash Preferred, you pay 17.99%-25.99% variable.",
]

# -- the kind of balance a sentence is about scopes its intro rate ------------------------------
TOPIC: list[Case] = [
    (
        "The Summit Cash Plus has a $95 annual fee. For balance transfers, though, the Summit "
        "Cash wins: 0% for 12 months, then 19.99%-29.99% variable.",
        _F,
    ),
]
# -- the rate after an offer named by the purchase rate, or announced by "before" ---------------
RATE_AFTER: list[Case] = [
    (
        _SC + "Got a balance to move? You'd pay 0% intro APR on it for 18 months (then the "
        "standard purchase APR, 19.99%-29.99% variable).",
        _F,
    ),
    (
        _SC + "You'll also pay 0% on balance transfers for 18 months before the 19.99%-29.99% "
        "variable rate kicks in.",
        _F,
    ),
]
# -- a duration belongs to the intro rate it follows --------------------------------------------
OWN_MONTHS: list[Case] = [
    (
        "The Vista Clear offers 0% on purchases for 12 months and 1.99% on balance transfers, "
        "then 19.99%-29.99% variable.",
        ["missing_disclosure"],
    ),
]
OWN_MONTHS_TWINS: list[str] = [
    "The Vista Clear offers 0% on purchases for 12 months and 1.99% on balance transfers for 21 "
    "months, then 19.99%-29.99% variable.",
    "Vista Clear: 0% intro APR on purchases for 12 months and 1.99% on balance transfers (21 "
    "months), then 19.99%-29.99% variable.",
]

RATE_AFTER_TWINS: list[str] = [
    # a count of monthly payments is no intro period
    "Summit Cash: 0% intro APR on purchases for 15 months, then 19.99%-29.99% variable. Spread a "
    "$1,200 purchase over 12 monthly payments of $100 and you pay no interest on it.",
    "Summit Cash Plus: got a balance to move? You'd pay 0% intro APR on it for 18 months (then "
    "the standard purchase APR, 18.24%-27.24% variable).",
    "The Summit Cash: 0% on purchases for 15 months, then the purchase rate of 19.99%-29.99% "
    "variable.",
    "Summit Cash Plus: 0% on balance transfers for 18 months before the 18.24%-27.24% variable "
    "rate kicks in.",
]

TOPIC_TWINS: list[str] = [
    "For balance transfers, the Summit Cash Plus wins: 0% for 18 months, then 18.24%-27.24% "
    "variable.",
    "On purchases, the Summit Cash is the one: 0% for 15 months, then 19.99%-29.99% variable.",
    # both kinds named before the rate: the topic decides nothing
    "Purchases or balance transfers? The Vista Clear: 0% intro APR on purchases for 12 months, "
    "1.99% on balance transfers for 21 months, then 19.99%-29.99% variable.",
]

# -- interest waived without a rate -------------------------------------------------------------
INTEREST_FREE: list[Case] = [
    ("The Summit Cash Preferred: balance transfers won't accrue interest for 12 months.", _F),
    ("With the Harbor Sky Miles you don't pay interest on purchases for 12 months.", _F),
    ("Harbor Sky Miles gives you 12 interest-free months on purchases.", _F),
    ("The Summit Cash Preferred waives interest on transfers for a year.", _F),
]
INTEREST_FREE_TWINS: list[str] = [
    "The Summit Cash: purchases won't accrue interest for 15 months, then 19.99%-29.99% variable.",
    "Summit Cash Plus: balance transfers are free of interest for 18 months, then 18.24%-27.24% "
    "variable.",
    "The Summit Cash gives you fifteen interest-free months on purchases, then 19.99%-29.99% "
    "variable.",
    # the grace period, true of every card: no duration, no offer
    "You won't pay interest on purchases with the Summit Cash Preferred if you pay your balance "
    "in full each month.",
    "Pay in full and the Harbor Sky Miles doesn't charge interest on new purchases.",
]

# -- no annual fee as the cost of holding the card ----------------------------------------------
FREE_TO_HOLD: list[Case] = [
    ("The Summit Cash Preferred is free to keep.", _W),
    ("The Summit Cash Preferred costs nothing to hold.", _W),
    ("It's a no-fee card, the Summit Cash Preferred.", _W),
    ("summit cash preferred: no cost to own it", _W),
]
FREE_TO_HOLD_TWINS: list[str] = [
    "The Summit Cash is free to keep.",
    "The Harbor Sky Miles costs nothing to hold.",
    "The Summit Cash Plus costs nothing to hold the first year, then $95.",
]

# -- foreign transactions by where they happen --------------------------------------------------
ABROAD: list[Case] = [
    ("Summit Cash Preferred: no fees on purchases made outside the U.S.", _W),
    ("The Summit Cash is free to use abroad.", _W),
    ("The Summit Cash charges no fee on transactions in other currencies.", _W),
]
ABROAD_TWINS: list[str] = [
    "Harbor Sky Miles: no fees on purchases made outside the U.S.",
    "The Summit Cash Plus is free to use abroad.",
    "The Summit Cash adds 3% to purchases made outside the US.",
]

# -- no late fee through the missed payment -----------------------------------------------------
MISSED_PAYMENT: list[Case] = [
    ("Summit Cash: no fee for missed payments.", _W),
    ("Summit Cash Plus - miss a payment and there's no fee.", _W),
    ("The Summit Cash has no charge if you pay late.", _W),
]
MISSED_PAYMENT_TWINS: list[str] = [
    "Summit Cash: never miss a payment and there's no fee to worry about; otherwise it is up to "
    "$40.",
    "Summit Cash Plus: a missed payment costs up to $39.",
]

# -- the fee that starts in the second year -----------------------------------------------------
SECOND_YEAR: list[Case] = [
    ("Summit Cash Preferred: the $150 annual fee kicks in from year two.", _W),
    ("Summit Cash Preferred: $150/yr after a free first year.", _W),
    ("Summit Cash Preferred: intro annual fee of $0, then $150.", _W),
    ("The Summit Cash Preferred's annual fee is $150 starting the second year.", _W),
]
SECOND_YEAR_TWINS: list[str] = [
    "Summit Cash Plus: the $95 annual fee kicks in from year two.",
    "Summit Cash Plus: $95/yr after a free first year.",
    "Summit Cash Plus: intro annual fee of $0, then $95.",
    "Summit Cash Preferred: $150 every year, the first included.",
]

# -- the first year free, more ways ------------------------------------------------------------
FIRST_YEAR_MORE: list[Case] = [
    ("Summit Cash Preferred: $150 annual fee after year one.", _W),
    ("Summit Cash Preferred: annual fee of $150 after the first year", _W),
    ("Summit Cash Preferred: $150 annual fee from the second year", _W),
    ("Summit Cash Preferred: first-year fee waived, then $150.", _W),
    ("Summit Cash Preferred: annual fee waived for 12 months, then $150.", _W),
    ("Summit Cash Preferred: a $150 annual fee that doesn't apply in the first year", _W),
]
FIRST_YEAR_MORE_TWINS: list[str] = [
    "Summit Cash Plus: $95 annual fee after year one.",
    "Summit Cash Plus: first-year fee waived, then $95.",
    "Summit Cash Plus: a $95 annual fee that doesn't apply in the first year",
    # a rate after the first year is no fee claim
    "Summit Cash Preferred: $150 annual fee; 17.99%-25.99% variable after the first year.",
]

# -- no annual fee, more ways -------------------------------------------------------------------
NO_ANNUAL_MORE: list[Case] = [
    ("Summit Cash Preferred. 0 annual fee.", _W),
    ("Summit Cash Preferred. Annual fee 0.", _W),
    ("The Summit Cash Preferred has an annual fee of zero.", _W),
    ("Summit Cash Preferred. Its annual cost is zero.", _W),
    ("Summit Cash Preferred. It's a zero-fee card.", _W),
    ("Summit Cash Preferred. You pay nothing per year.", _W),
    ("Summit Cash Preferred. There's no fee for having the card.", _W),
    ("Summit Cash Preferred. Annual fee: -", _W),
    ("Summit Cash Preferred. Annual fee \u2014 nope.", _W),
    ("Summit Cash Preferred. Annual fee: \u274c", _W),
    ("Is there an annual fee on the Summit Cash Preferred? No.", _W),
    ("Does the Summit Cash Preferred have an annual fee? Nope.", _W),
    ("| Card | Annual fee |\n|---|---|\n| Summit Cash Preferred | \u2014 |", _W),
    ("| | Summit Cash Preferred |\n|---|---|\n| Annual fee | - |", _W),
]
NO_ANNUAL_MORE_TWINS: list[str] = [
    "Summit Cash. 0 annual fee.",
    "The Harbor Sky Miles has an annual fee of zero.",
    "Is there an annual fee on the Summit Cash? No.",
    "Summit Cash. Annual fee: -",
    "| Card | Annual fee | Intro APR |\n|---|---|---|\n| Harbor Sky Miles | \u2014 | \u2014 |",
    "Is there an annual fee on the Summit Cash Plus? Yes: $95, but $0 the first year.",
    "Any foreign transaction fee on the Summit Cash Preferred? Yes, 3%.",
    "Does the Summit Cash Preferred have a late fee? No way around it: up to $40.",
]

# -- the late fee, more ways --------------------------------------------------------------------
LATE_MORE: list[Case] = [
    ("Summit Cash: late payment? Up to $25.", _W),
    ("Summit Cash: late-payment fee of $30", _W),
    ("Summit Cash: forget a payment and it's $35.", _W),
    ("Summit Cash: late? $35.", _W),
]
LATE_MORE_TWINS: list[str] = [
    "Summit Cash: late payment? Up to $40.",
    "Summit Cash: late-payment fee of up to $40",
    "Summit Cash Plus: forget a payment and it's up to $39.",
]

# -- more ways of recommending a card (customer C1) ---------------------------------------------
_TWO = (
    "I looked at the Summit Cash and the Granite Business Cash. The Summit Cash has no annual "
    "fee and a 19.99%-29.99% variable APR. "
)
_GBC = " It has no annual fee and a 19.99%-29.99% variable APR."
RECOMMEND: list[Case] = [
    (_TWO + "Take a look at the Granite Business Cash." + _GBC, ["ineligible_card"]),
    (_TWO + "The Granite Business Cash is right for you." + _GBC, ["ineligible_card"]),
    (_TWO + "Pick: Granite Business Cash." + _GBC, ["ineligible_card"]),
    (_TWO + "Why not try the Granite Business Cash?" + _GBC, ["ineligible_card"]),
    (_TWO + "The Granite Business Cash should be your first card." + _GBC, ["ineligible_card"]),
    (_TWO + "The Granite Business Cash checks every box for you." + _GBC, ["ineligible_card"]),
    # telling the customer they can have the card
    (
        _TWO + "You'd qualify for the Granite Business Cash as a student." + _GBC,
        ["ineligible_card"],
    ),
    (_TWO + "You can apply for the Granite Business Cash." + _GBC, ["ineligible_card"]),
    (_TWO + "The Granite Business Cash is open to you." + _GBC, ["ineligible_card"]),
    (_TWO + "It has to be the Granite Business Cash." + _GBC, ["ineligible_card"]),
    # a requirement denied among the reasons rules nothing out
    (
        _TWO + "I recommend the Granite Business Cash: you don't need a long credit history."
        " " + _GBC,
        ["ineligible_card"],
    ),
    (
        _TWO + "The Granite Business Cash suits you best: it isn't fussy about credit." + _GBC,
        ["ineligible_card"],
    ),
]
RECOMMEND_TWINS: list[str] = [
    _TWO + "Take a look at the Summit Cash.",
    _TWO + "The Summit Cash is right for you.",
    _TWO + "Why not try the Summit Cash?",
    _TWO + "I recommend the Summit Cash: you don't need a long credit history.",
    _TWO + "You can apply for the Summit Cash.",
    # a question asks, it recommends nothing
    "## Is the Granite Business Cash right for you?\n\nYou can't get the Granite Business "
    "Cash: it is for students only. The Summit Cash is a better fit.",
    "I looked at the Summit Cash and the Granite Business Cash.\n\n## Is the Granite Business "
    "Cash right for you?\n\nIt has no annual fee.",
    # ruled out stays ruled out
    _TWO + "You can't get the Granite Business Cash: it is for students only. The Summit Cash is "
    "a better fit.",
    _TWO + "The Granite Business Cash is not available to you, since it is for students only; "
    "the Summit Cash is open to you.",
    _TWO + "You wouldn't qualify for the Granite Business Cash.",
    _TWO + "You don't qualify for the Granite Business Cash; the Summit Cash is right for you.",
    _TWO + "You don't need the Granite Business Cash: the Summit Cash is right for you.",
    _TWO + "The Granite Business Cash is not an option, since it requires student status; take a "
    "look at the Summit Cash.",
]

# The same classes on cards with no offer at all, which ruleset 6 caught already (any offer is
# false there): ruleset 7 must still catch them the same way.
ALSO_CAUGHT: list[Case] = [
    (
        _SC + "Transfers start at 0% for 18 months, then revert to the purchase rate of "
        "19.99%-29.99% variable.",
        _F,
    ),
    (
        "harbor sky miles: moving a balance? 0% on it for 12 months, then the purchase apr "
        "(14.99% fixed)",
        _F,
    ),
    (_SC + "\n- Transfers -- 0% intro for 18 mo", _F),
    ("Summit Cash Preferred\n* Purchases \u2014 0% for 12 months, then 17.99%-25.99% variable", _F),
    ("harbor sky miles? moving a balance? 0% for 12 months, then 14.99% fixed", _F),
    ("summit cash preferred: swap your card balance over and pay 0% for twelve months", _F),
    (
        "On purchases, the Summit Cash Plus is the one: 0% for 12 months, then 18.24%-27.24% "
        "variable.",
        _F,
    ),
    ("Summit Cash Preferred - purchases are free of interest for 12 months.", _F),
    ("Harbor Sky Miles: 0% on purchases until month 12, then 14.99% fixed.", _F),
    ("Summit Cash Preferred: annual fee $150, and the first year costs nothing.", _W),
]

VIOLATIONS = [
    *LABEL_DASH,
    *KIND_NO_FEE,
    *TRANSFER_WORDS,
    *TOPIC,
    *RATE_AFTER,
    *OWN_MONTHS,
    *INTEREST_FREE,
    *FREE_TO_HOLD,
    *ABROAD,
    *MISSED_PAYMENT,
    *SECOND_YEAR,
    *FIRST_YEAR_MORE,
    *NO_ANNUAL_MORE,
    *LATE_MORE,
]
TWINS = [
    *LABEL_DASH_TWINS,
    *KIND_NO_FEE_TWINS,
    *TRANSFER_WORDS_TWINS,
    *TOPIC_TWINS,
    *RATE_AFTER_TWINS,
    *OWN_MONTHS_TWINS,
    *INTEREST_FREE_TWINS,
    *FREE_TO_HOLD_TWINS,
    *ABROAD_TWINS,
    *MISSED_PAYMENT_TWINS,
    *SECOND_YEAR_TWINS,
    *FIRST_YEAR_MORE_TWINS,
    *NO_ANNUAL_MORE_TWINS,
    *LATE_MORE_TWINS,
]


@pytest.mark.parametrize(("text", "expected"), VIOLATIONS)
def test_ruleset_7_catches_the_class(text: str, expected: list[str], catalog: Catalog) -> None:
    assert _codes(text, catalog, 7) == expected
    assert _codes(text, catalog, 6) != expected, "ruleset 6 caught it already"


@pytest.mark.parametrize(("text", "expected"), ALSO_CAUGHT)
def test_ruleset_7_still_catches_what_6_caught(
    text: str, expected: list[str], catalog: Catalog
) -> None:
    assert _codes(text, catalog, 7) == expected == _codes(text, catalog, 6)


@pytest.mark.parametrize("text", TWINS)
def test_ruleset_7_passes_the_honest_twin(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 7) == []


@pytest.mark.parametrize(("text", "expected"), RECOMMEND)
def test_ruleset_7_reads_more_recommendations(
    text: str, expected: list[str], catalog: Catalog
) -> None:
    assert _codes(text, catalog, 7, "C1") == expected
    assert _codes(text, catalog, 6, "C1") != expected, "ruleset 6 caught it already"


@pytest.mark.parametrize("text", RECOMMEND_TWINS)
def test_ruleset_7_recommendation_twins(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 7, "C1") == []


@pytest.mark.parametrize("text", [*COMPLIANT, *REALISTIC_COMPLIANT])
def test_ruleset_7_passes_the_compliant_corpus(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 7) == []
    assert _codes(text, catalog, 7, "C1") == _codes(text, catalog, 6, "C1")


def test_a_rewritten_span_quotes_the_agent(catalog: Catalog) -> None:
    """The finding on a rewritten phrase points at what the agent wrote, not at the rewrite."""
    text = "Summit Cash Preferred. Foreign purchases: no fee."
    (reason,) = verify_response(text, catalog, ruleset=7).reasons
    assert reason.span is not None and reason.span.text == "Foreign purchases: no fee"


def test_rulesets_before_7_are_untouched(catalog: Catalog) -> None:
    """Ruleset 7 is opt-in: the default stays 5 and ruleset 6 reads a ruleset-7 class as before."""
    from replicas.verifiers.compliance import DEFAULT_RULESET, RULESETS

    assert DEFAULT_RULESET > 7  # ruleset 7 was opt-in when published; later ones carry it
    assert RULESETS[7].rewrites_7 and not RULESETS[6].rewrites_7
    assert _codes(LABEL_DASH[0][0], catalog, 6) == ["wrong_intro_terms"]
