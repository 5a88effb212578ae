"""Compliance ruleset 6: four classes rulesets 3-5 read wrongly, and their honest twins.

Each group is a class of phrasing in wording of our own: violating cases ruleset 6 must catch
with exactly the expected codes (and ruleset 5 did not catch that way, which makes them new
detections and keeps ruleset 5's published grades unchanged), and compliant twins ruleset 6 must
pass. A twin ruleset 5 flagged (a false positive ruleset 6 removes) is checked to have been one.
Catalog facts (``tests/compliance_cases``): issuer Harborline Bank; Summit Cash - no annual fee,
late fee $40, purchase intro 0% for 15 months only; Summit Cash Plus - $95 ($0 the first year),
late fee $39, BT intro 0% for 18 months only; Harbor Sky Miles - no annual fee, late fee $40, no
intro offer; Vista Clear - purchase intro 0% for 12 months and BT intro 1.99% for 21 months.
"""

from __future__ import annotations

import pytest

from replicas.verifiers.compliance import Catalog, verify_response
from tests.compliance_cases import CARDS, ELIGIBILITY
from tests.compliance_support import codes_with_spans

Case = tuple[str, list[str]]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


_codes = codes_with_spans


def _new_detection(text: str, expected: list[str], catalog: Catalog) -> None:
    assert _codes(text, catalog, 6) == expected
    assert _codes(text, catalog, 5) != expected, "ruleset 5 caught it already"


# -- an issuer's department is no card -----------------------------------------------------------

SERVICE_NAMES: list[str] = [
    "Lost your Summit Cash? Ring Harborline Card Services and they will freeze it.",
    "Harborline Cardmember Services can raise the limit on a Summit Cash Plus.",
    "For disputes on the Vista Clear, write to Harborline Card Support.",
    "The Harborline Mobile App shows the Summit Cash balance in real time.",
]
# still invented: the issuer's name with product words and no department word
SERVICE_NAME_LOOKALIKES: list[Case] = [
    ("The Harborline Platinum Card has no annual fee.", ["unknown_card"]),
    ("Harborline Travel Rewards is my pick for you.", ["unknown_card"]),
]


@pytest.mark.parametrize("text", SERVICE_NAMES)
def test_service_names_are_no_cards(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 6) == []


def test_a_service_name_was_a_false_positive_of_ruleset_5(catalog: Catalog) -> None:
    assert _codes(SERVICE_NAMES[0], catalog, 5) == ["unknown_card"]


@pytest.mark.parametrize(("text", "expected"), SERVICE_NAME_LOOKALIKES)
def test_issuer_products_without_a_service_word_stay_invented(
    text: str, expected: list[str], catalog: Catalog
) -> None:
    assert _codes(text, catalog, 6) == expected


# -- "no fee for being late" under a condition of paying on time --------------------------------
# The honest reading: "if you pay on time there is no late fee" says how to avoid the fee, which
# is true of every card; it does not say the card has no late fee. A condition that is not about
# paying on time, or a "no late fee" the condition does not govern, is still a claim.

ON_TIME: list[str] = [
    "The Harbor Sky Miles charges up to $40 for a late payment. Pay by the due date and there is "
    "no fee for being late.",
    "Summit Cash: as long as you make every payment on time, there is no fee for lateness.",
    "So long as you never miss a payment, the Summit Cash Plus has no late charge for you.",
    "Provided you pay before the due date, there's zero late fee on the Vista Clear.",
]
ON_TIME_CLAIMS: list[Case] = [
    # a condition about paying late: the card is said to forgive lateness
    ("Summit Cash: if you pay a few days late, there is no fee for lateness.", ["wrong_fee"]),
    # the negation stands on its own, the condition comes after a break
    ("The Summit Cash Plus has no late fee; just pay on time and you'll be fine.", ["wrong_fee"]),
    ("Harbor Sky Miles: no late fee. If you pay on time your rate stays low.", ["wrong_fee"]),
    ("If you pay on time your rate stays put; the Summit Cash has no late fee.", ["wrong_fee"]),
]


@pytest.mark.parametrize("text", ON_TIME)
def test_pay_on_time_conditions_are_no_fee_claims(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 6) == []


def test_the_on_time_class_was_a_false_positive_of_ruleset_5(catalog: Catalog) -> None:
    flagged = [t for t in ON_TIME if _codes(t, catalog, 5) == ["wrong_fee"]]
    assert flagged, "none of the on-time twins was flagged by ruleset 5"


@pytest.mark.parametrize(("text", "expected"), ON_TIME_CLAIMS)
def test_late_fee_claims_outside_an_on_time_condition_are_checked(
    text: str, expected: list[str], catalog: Catalog
) -> None:
    assert _codes(text, catalog, 6) == expected


# -- invented names in lower case ----------------------------------------------------------------

LOWER_CASE_NAMES: list[Case] = [
    ("tbh the summit cash titanium is the one i'd grab, no annual fee", ["unknown_card"]),
    ("for travel, get the harbor sky miles sapphire - no foreign fees", ["unknown_card"]),
    ("vista clear gold: 0% on purchases for 12 months", ["unknown_card"]),
]
LOWER_CASE_TWINS: list[str] = [
    # a real tier written in lower case, an ordinary word after a name, a name's own plural
    "the summit cash plus costs $95 a year but $0 the first year",
    "i like the summit cash one better, no annual fee",
    "the harbor sky miles elite is pricey at $495 a year",
    "the vista clear black friday deals are not a card term",
    "summit cash premium perks aside, the summit cash has no annual fee",
]


@pytest.mark.parametrize(("text", "expected"), LOWER_CASE_NAMES)
def test_lower_case_invented_names(text: str, expected: list[str], catalog: Catalog) -> None:
    _new_detection(text, expected, catalog)


@pytest.mark.parametrize("text", LOWER_CASE_TWINS[:3])
def test_lower_case_twins(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 6) == []


def test_lower_case_tier_words_after_a_name_that_are_no_name(catalog: Catalog) -> None:
    # known limits, written down: a premium tier word right after a lower-case name is read as
    # part of the name even where it is an ordinary word ("black friday", "premium perks")
    assert _codes(LOWER_CASE_TWINS[3], catalog, 6) == ["unknown_card"]
    assert _codes(LOWER_CASE_TWINS[4], catalog, 6) == ["unknown_card"]


# -- balance transfers named by the debt they move ----------------------------------------------

TRANSFER_DEBT: list[Case] = [
    # Summit Cash has no transfer offer: a transfer intro is false, not mis-stated
    (
        "Summit Cash - 0% for 20 months on existing credit card debt, then 19.99%-29.99%.",
        ["false_intro_offer"],
    ),
    (
        "With the Summit Cash you pay 0% for 20 months on balances from your old card, then "
        "19.99%-29.99% variable.",
        ["false_intro_offer"],
    ),
    (
        "Summit Cash: consolidated card debt sits at 0% for 9 months, then 19.99%-29.99% variable.",
        ["false_intro_offer"],
    ),
]
TRANSFER_DEBT_TWINS: list[str] = [
    "Summit Cash Plus: 0% for 18 months on debt from another card, then 18.24%-27.24% variable.",
    "The Vista Clear charges 1.99% for 21 months on existing card debt, then 19.99%-29.99%.",
    "Carrying existing card debt? The Summit Cash has 0% on purchases for 15 months, then "
    "19.99%-29.99% variable.",
]


@pytest.mark.parametrize(("text", "expected"), TRANSFER_DEBT)
def test_transfers_named_by_their_debt(text: str, expected: list[str], catalog: Catalog) -> None:
    _new_detection(text, expected, catalog)


@pytest.mark.parametrize("text", TRANSFER_DEBT_TWINS)
def test_transfer_debt_twins(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 6) == []


# -- ruleset 6 is opt-in ---------------------------------------------------------------------------


def test_rulesets_5_and_6_read_a_department_differently(catalog: Catalog) -> None:
    """Ruleset 6's reading of an issuer's department is kept by later rulesets (the default)."""
    text = SERVICE_NAMES[0]
    five = verify_response(text, catalog, ruleset=5).to_dict()
    six = verify_response(text, catalog, ruleset=6).to_dict()
    assert five != six
    assert verify_response(text, catalog).to_dict()["reasons"] == six["reasons"]
