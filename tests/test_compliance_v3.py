"""Compliance verifier v3 (issue 13, precision first): one group of cases per class.

A figure becomes a violation only when the text ties it to one term and one card; where it leaves
either open, the figure has to be wrong for every reading to count. Each group pairs compliant
sentences with violating ones in wording of our own (not the evalset's templates). Catalog facts
used (``tests/compliance_cases``):

* Summit Cash: no annual fee, 19.99%-29.99% variable, 0% intro on purchases for 15 months, no
  balance-transfer intro, BT fee 3% (min $5), cash advance fee 5% (min $10), cash APR 29.99%,
  penalty APR 29.99%, 3% foreign fee, late fee $40;
* Summit Cash Plus: $95 annual fee ($0 the first year), 18.24%-27.24% variable, 0% intro on balance
  transfers for 18 months, BT fee 5% (min $5), no foreign fee, no penalty APR, cash APR 29.99%,
  late fee $39;
* Summit Cash Preferred: $150 annual fee (also the first year), 17.99%-25.99%, no intro, BT fee 3%,
  3% foreign fee; Harbor Sky Miles: 14.99% fixed; Vista Clear: 0% on purchases for 12 months,
  1.99% on balance transfers for 21 months.
"""

from __future__ import annotations

import pytest

from replicas.verifiers.compliance import Catalog, extract_claims, verify_response
from tests.compliance_cases import CARDS, ELIGIBILITY, card

Case = tuple[str, list[str]]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


@pytest.fixture(scope="module")
def worded_catalog() -> Catalog:
    """Cards whose names are made of term words."""
    return Catalog.from_records(
        [
            card("W-1", "Willow Balance Transfer", bt_fee_pct=3.0, bt_fee_min_usd=10.0),
            card("W-2", "Orion Low Rate Cash Rewards", foreign_txn_fee_pct=0.0, late_fee_usd=25.0),
            card("W-3", "Sterling Voyager"),
        ]
    )


def _check(text: str, expected: list[str], catalog: Catalog) -> None:
    verdict = verify_response(text, catalog)
    assert sorted(set(verdict.codes)) == sorted(expected), [
        (r.code, r.message) for r in verdict.reasons
    ]
    for reason in verdict.reasons:
        assert reason.span is not None
        assert text[reason.span.start : reason.span.end] == reason.span.text


# -- 1. a rate is wrong only if it is none of the card's rates ---------------------------------

RATES: list[Case] = [
    ("The Summit Cash Plus charges 29.99% on cash advances.", []),
    # 27.24% is the top of its purchase range: which APR the sentence means is left open
    ("On the Summit Cash Plus, the rate on cash you withdraw is 27.24%.", []),
    ("On the Summit Cash Plus, the rate on cash you withdraw is 31.99%.", ["wrong_apr"]),
    # a range is only ever the purchase APR
    ("Purchases on the Summit Cash Preferred run 18.99% to 25.99%.", ["wrong_apr"]),
    ("Purchases on the Summit Cash Preferred run 17.99%/25.99%, variable.", []),
    ("Purchases on the Summit Cash Preferred run 17.99%-to-25.99%, variable.", []),
    # a reversed range: both ends are stated rates, and the wrong one is not a name's number
    ("The Summit Cash Preferred has a purchase APR of 99.99%-25.99% variable.", ["wrong_apr"]),
    ("The Summit Cash Preferred has a purchase APR of 25.99% - 17.99% variable.", []),
    ("The Summit Cash Preferred 360 - 25.99% variable APR.", ["unknown_card"]),
    # an APR the card does not have at all, named as such
    ("Miss a payment and the Summit Cash Plus applies a penalty rate of 27.24%.", ["wrong_apr"]),
    ("The Harbor Sky Miles has a 14.99% variable rate.", ["wrong_apr"]),
    ("The Harbor Sky Miles has a 14.99% rate that never floats.", []),
    # cash scope, no APR word: the size says rate or fee
    ("Summit Cash Preferred: cash withdrawals are 29.99%.", []),
    ("Summit Cash Preferred: cash withdrawals are 24.99%.", ["wrong_apr"]),
]


@pytest.mark.parametrize(("text", "expected"), RATES)
def test_rates_are_checked_against_every_rate_of_the_card(
    text: str, expected: list[str], catalog: Catalog
) -> None:
    _check(text, expected, catalog)


# -- 2. a fee is checked against the fee its words name, else against all of them -------------

FEES: list[Case] = [
    ("The Summit Cash Plus adds a 5% fee on purchases made abroad.", ["wrong_fee"]),
    ("Moving a balance to the Summit Cash Plus costs 5% (never less than $5).", []),
    ("The Summit Cash charges a 4% fee.", ["wrong_fee"]),
    ("The Summit Cash charges a 5% fee.", []),  # its cash advance fee
    ("Year one on the Summit Cash Plus costs $0; from year two the fee is $95.", []),
    (
        "Year one on the Summit Cash Preferred costs $0; from year two the fee is $150.",
        ["wrong_fee"],
    ),
    ("Summit Cash Plus - yearly cost = $95 ($0 yr 1)", []),
    ("Summit Cash Plus - yearly cost = $89", ["wrong_fee"]),
    # a dollar figure on a percentage fee is its minimum only when the text says so
    ("Shifting $4,000 onto the Summit Cash Plus adds about $200 in transfer charges.", []),
    ("The Summit Cash Plus transfer fee is 5%, with $15 as the minimum.", ["wrong_fee"]),
]


@pytest.mark.parametrize(("text", "expected"), FEES)
def test_fees_are_checked_against_the_fees_their_words_leave_open(
    text: str, expected: list[str], catalog: Catalog
) -> None:
    _check(text, expected, catalog)


def test_an_unnamed_fee_may_be_any_fee_and_a_named_one_only_that_one(catalog: Catalog) -> None:
    (named,) = extract_claims("The Summit Cash Plus adds a 5% fee on foreign purchases.", catalog)
    assert named.kinds == frozenset({"foreign"})
    (unnamed,) = extract_claims("The Summit Cash charges a 5% fee.", catalog)
    assert unnamed.kinds == frozenset({"foreign", "bt", "cash_advance"})


# -- 3. intro offers ---------------------------------------------------------------------------

INTROS: list[Case] = [
    # exactly the card's other offer: which offer a sentence means is easy to misread (until
    # ruleset 17, which checks an offer whose unit names one kind against that offer alone:
    # tests/test_compliance_ruleset17.py)
    ("The Vista Clear gives 1.99% for 21 months on its intro offer, then 19.99%-29.99%.", []),
    (
        "The Vista Clear gives purchases 1.99% for 18 months, then 19.99%-29.99%.",
        ["wrong_intro_terms"],
    ),
    # an offer the card lacks is false, whatever its other offer says
    (
        "The Summit Cash gives balance transfers 0% for 15 months, then 19.99%-29.99%.",
        ["false_intro_offer"],
    ),
    # a low rate for some months is an offer even without the words "intro" or "APR"
    ("Stuff you buy with the Summit Cash Preferred costs 0% for 12 months.", ["false_intro_offer"]),
    (
        "Anything you buy on the Summit Cash costs 0% in interest for 15 months, then 19.99%-29.99%.",
        [],
    ),
    # a high rate next to an offer is the rate it rolls into
    ("The Summit Cash: 0% on purchases for 15 months, after which 19.99% to 29.99% applies.", []),
    (
        "The Summit Cash: 0% on purchases for 15 months, after which 21.99% to 29.99% applies.",
        ["wrong_apr"],
    ),
    # a question types its answer
    (
        "Does the Summit Cash Plus have a promo on transfers? Yes: 0% for 18 months, then 18.24%-27.24%.",
        [],
    ),
    (
        "Does the Summit Cash Plus have a promo on transfers? Yes: 0% for 21 months, then 18.24%-27.24%.",
        ["wrong_intro_terms"],
    ),
    (
        "The Summit Cash Plus charges transferred balances 0% for half a year, then 18.24%-27.24%.",
        ["wrong_intro_terms"],
    ),
]


@pytest.mark.parametrize(("text", "expected"), INTROS)
def test_intro_offers(text: str, expected: list[str], catalog: Catalog) -> None:
    _check(text, expected, catalog)


# -- 4. which card a figure is about -----------------------------------------------------------

BINDING: list[Case] = [
    (
        "The Summit Cash Preferred costs $150 a year, compared with $95 for the Summit Cash Plus.",
        [],
    ),
    (
        "The Summit Cash Preferred costs $95 a year, compared with $150 for the Summit Cash Plus.",
        ["wrong_fee"],
    ),
    (
        "The Summit Cash Plus has an 18.24%-27.24% APR, versus 17.99%-25.99% on the Summit Cash "
        "Preferred.",
        [],
    ),
    (
        "The Summit Cash Plus has an 18.24%-27.24% APR, versus 19.99%-29.99% on the Summit Cash "
        "Preferred.",
        ["wrong_apr"],
    ),
    # two cards, one figure, no word saying whose: right for one of them is enough ...
    ("The Summit Cash and the Summit Cash Preferred are close. The yearly fee is $150.", []),
    # ... but wrong for both is wrong
    (
        "The Summit Cash and the Summit Cash Preferred are close. The yearly fee is $99.",
        ["wrong_fee"],
    ),
    # short labels with dashes, numbers or parentheses name the card
    (
        "Compare the Summit Cash Plus and the Summit Cash Preferred:\n1. Plus - $95 a year\n"
        "2. Preferred - $150 a year",
        [],
    ),
    (
        "Compare the Summit Cash Plus and the Summit Cash Preferred:\n1. Plus - $150 a year\n"
        "2. Preferred - $95 a year",
        ["wrong_fee"],
    ),
    (
        "Summit Cash Plus or Summit Cash Preferred?\n(Plus) $95 a year\n(Preferred) $150 a year",
        [],
    ),
    # a figure in a generic sentence is about no card
    ("The Summit Cash has no annual fee. Most cards like it charge a $39 late fee.", []),
]


@pytest.mark.parametrize(("text", "expected"), BINDING)
def test_binding_to_cards(text: str, expected: list[str], catalog: Catalog) -> None:
    _check(text, expected, catalog)


def test_an_open_binding_is_recorded_as_a_union(catalog: Catalog) -> None:
    text = "The Summit Cash and the Summit Cash Preferred are close. The yearly fee is $150."
    fee = next(c for c in extract_claims(text, catalog) if c.family == "fee")
    assert fee.any_card and set(fee.cards) == {"CC-1", "CC-3"} and not fee.certain


# -- 5. tables: the header decides the term, the row (or column) the card ----------------------

TABLES: list[Case] = [
    (
        "| | Summit Cash | Summit Cash Plus |\n|---|---|---|\n| Yearly fee | $0 | $95 |\n"
        "| Fee abroad | 3% | none |",
        [],
    ),
    (
        "| | Summit Cash | Summit Cash Plus |\n|---|---|---|\n| Yearly fee | $95 | $0 |\n"
        "| Fee abroad | 3% | none |",
        ["wrong_fee"],
    ),
    (
        "<table><tr><th>Card</th><th>Yearly fee</th></tr><tr><td>Summit Cash Plus</td>"
        "<td>$95</td></tr><tr><td>Summit Cash Preferred</td><td>$150</td></tr></table>",
        [],
    ),
    (
        "<table><tr><th>Card</th><th>Yearly fee</th></tr><tr><td>Summit Cash Plus</td>"
        "<td>$95</td></tr><tr><td>Summit Cash Preferred</td><td>$99</td></tr></table>",
        ["wrong_fee"],
    ),
    # "none" under an intro column is no fee claim; a dash says nothing
    ("| Card | 0% transfers? |\n|---|---|\n| Summit Cash | none |", []),
    ("| Card | Late fee |\n|---|---|\n| Summit Cash | — |\n| Summit Cash Plus | n/a |", []),
    (
        "| Card | 0% purchases? |\n|---|---|\n| Summit Cash Preferred | 0% for 12 months |",
        ["false_intro_offer"],
    ),
    # a table naming no card takes the card of the text around it
    ("### Summit Cash Plus\n\n| Term | Detail |\n|---|---|\n| Annual fee | $95 |", []),
    ("### Summit Cash Plus\n\n| Term | Detail |\n|---|---|\n| Annual fee | $59 |", ["wrong_fee"]),
]


@pytest.mark.parametrize(("text", "expected"), TABLES)
def test_tables(text: str, expected: list[str], catalog: Catalog) -> None:
    _check(text, expected, catalog)


# -- 6. the words of card names are not term words ---------------------------------------------

NAME_WORDS: list[Case] = [
    ("Holding the Willow Balance Transfer costs nothing per year.", []),
    ("The Willow Balance Transfer charges no balance transfer fee.", ["wrong_fee"]),
    ("The Orion Low Rate Cash Rewards costs nothing abroad; late payments cost up to $25.", []),
    (
        "The Orion Low Rate Cash Rewards costs nothing abroad; late payments cost up to $35.",
        ["wrong_fee"],
    ),
    # a heading-like word ending in "-ing" may be a misspelt brand
    ("Meet the Streling Voyager: no annual fee.", ["misspelled_card"]),
    ("## Comparing With A Secured Card\n\nThe Sterling Voyager has no annual fee.", []),
]


@pytest.mark.parametrize(("text", "expected"), NAME_WORDS)
def test_card_name_words_are_not_cues(
    text: str, expected: list[str], worded_catalog: Catalog
) -> None:
    _check(text, expected, worded_catalog)


# -- 7. figures the text disowns, estimates and worked examples ---------------------------------

NOT_CLAIMS: list[Case] = [
    ("The Summit Cash late fee is up to $40; ignore the $50 figure on old forum posts.", []),
    (
        "The Summit Cash late fee is up to $50; ignore the $40 figure on old forum posts.",
        ["wrong_fee"],
    ),
    ("Summit Cash Plus: $95 a year (older listings say $89).", []),
    ("After the fee, the Summit Cash Plus should leave you roughly $310 ahead each year.", []),
    ("You'd likely collect something like $420 in rewards a year with the Summit Cash Plus.", []),
]


@pytest.mark.parametrize(("text", "expected"), NOT_CLAIMS)
def test_disowned_and_derived_figures(text: str, expected: list[str], catalog: Catalog) -> None:
    _check(text, expected, catalog)


# -- 8. list shapes: label separators, markdown emphasis, headings -------------------------------

SHAPES: list[Case] = [
    ("__Summit Cash Plus__\n- Annual fee - $95\n- FX fee - not charged", []),
    ("__Summit Cash Plus__\n- Annual fee - $95\n- FX fee - 3%", ["wrong_fee"]),
    ("**Summit Cash**\n> Late fee ... none", ["wrong_fee"]),
    ("**Summit Cash**\n> Late fee ... up to $40\n> Cash advance APR ... 29.99%", []),
    ("Summit Cash / no yearly fee / 3% on foreign purchases / cash withdrawals are 29.99%", []),
    (
        "Summit Cash / no yearly fee / 3% on foreign purchases / cash withdrawals are 27.99%",
        ["wrong_apr"],
    ),
    ("## Choosing With A Secured Card\n\nThe Summit Cash has no annual fee.", []),
    ("The Summit Crown Titan has no annual fee.", ["unknown_card"]),
]


@pytest.mark.parametrize(("text", "expected"), SHAPES)
def test_list_shapes(text: str, expected: list[str], catalog: Catalog) -> None:
    _check(text, expected, catalog)


# -- 9. disclosures count wherever the response makes them ---------------------------------------

DISCLOSURES: list[Case] = [
    (
        "| Card | Purchase promo | APR |\n|---|---|---|\n| Summit Cash | 0% for 15 months | 19.99%-29.99% |",
        [],
    ),
    ("The Summit Cash gives 0% intro APR on purchases for 15 months. Ongoing: 19.99%-29.99%.", []),
    (
        "The Summit Cash gives 0% intro APR on purchases, then 19.99%-29.99%.",
        ["missing_disclosure"],
    ),
    # an offer the text does not tie to one card is not held to the disclosure rule
    ("The Summit Cash and the Vista Clear both start purchases at 0%.", []),
    (
        "I'd put the Summit Cash Plus forward for you.\n\n| Card | Yearly cost |\n|---|---|\n| Summit Cash Plus | $95 |",
        [],
    ),
    (
        "The Summit Cash Plus comes out on top for you. It has no foreign transaction fees.",
        ["missing_disclosure"],
    ),
]


@pytest.mark.parametrize(("text", "expected"), DISCLOSURES)
def test_disclosures(text: str, expected: list[str], catalog: Catalog) -> None:
    _check(text, expected, catalog)


def test_recommendation_wording_with_a_customer(catalog: Catalog) -> None:
    """C1 may not have the Summit Cash Plus (credit score); wording of our own recommends it."""
    for lead in (
        "For you, the Summit Cash Plus comes out on top.",
        "I'd point you to the Summit Cash Plus.",
        "The Summit Cash Plus is the one I'd put forward.",
    ):
        text = f"I looked at the Summit Cash too. {lead} It costs $95 a year."
        assert "ineligible_card" in verify_response(text, catalog, "C1").codes, lead
    ruled_out = (
        "The Summit Cash Plus is out of reach for now, so I left it out. The Summit Cash is "
        "the better pick for you: no annual fee."
    )
    assert verify_response(ruled_out, catalog, "C1").passed
