"""Compliance ruleset 21: terse reward notation, reward caps, an issuer's family of cards, a fee's
rate explained in a worked example, bounds, and lists under a heading that names their term (the
s24 blind set's first writer) - issue 13, ``verifiers/compliance/ruleset21.py`` - in our own
wording on the hand catalog (``tests/compliance_cases``).

Each case is (text, customer, ruleset 21's codes, ruleset 20's codes): a compliant answer ruleset
21 must pass, or a defect ruleset 21 must catch, with a twin in the same construction that shows
the other side.

Catalog facts used here: Summit Cash - no annual fee, 19.99%-29.99%, 0% on purchases for 15
months, 3% abroad, a 29.99% penalty and cash advance APR; Summit Cash Plus - $95 annual fee,
18.24%-27.24%, nothing abroad, no penalty APR, a 5% transfer fee, a $39 late fee; Harbor Sky
Miles - no annual fee, nothing abroad; Vista Clear - no annual fee, 1.99% on transfers for 21
months, a 3% transfer fee, a 29.99% penalty APR.
"""

from __future__ import annotations

import time

import pytest

from replicas.verifiers.compliance import DEFAULT_RULESET, RULESETS, Catalog, verify_response
from tests.compliance_cases import CARDS, ELIGIBILITY
from tests.compliance_support import codes_with_spans

# (text, customer, ruleset 21's codes, ruleset 20's codes)
Case = tuple[str, str | None, list[str], list[str]]

_OK: list[str] = []
_APR = ["wrong_apr"]
_FEE = ["wrong_fee"]
_TERMS = ["wrong_intro_terms"]
_UNKNOWN = ["unknown_card"]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


def _check(case: Case, catalog: Catalog) -> None:
    text, customer, r21, r20 = case
    assert codes_with_spans(text, catalog, 21, customer) == r21, text
    assert codes_with_spans(text, catalog, 20, customer) == r20, text


# A percentage whose own words are a spend category (or that a card "pays") is a reward rate.
REWARDS: list[Case] = [
    (
        "Summit Cash Plus: $95 a year, 18.24%-27.24% variable, 4% groceries, 2% fuel, 1% on "
        "everything else.",
        None,
        _OK,
        _APR,
    ),
    (
        "Summit Cash Plus: $95 a year, 18.24%-27.24% variable, 4% groceries, and just 2% on "
        "restaurants.",
        None,
        _OK,
        _APR,
    ),
    (
        "Summit Cash Preferred costs $150 a year and pays 4% at supermarkets vs the Summit "
        "Cash's 1%.",
        None,
        _OK,
        _OK,
    ),
    # twins: a fee in the same list is still read and checked (Summit Cash Plus: nothing abroad)
    (
        "Summit Cash Plus: $95 a year, 18.24%-27.24% variable, 4% groceries, 3% on purchases "
        "abroad.",
        None,
        _FEE,
        ["wrong_apr", "wrong_fee"],
    ),
    (
        "Summit Cash Plus: $95 a year, 18.24%-27.24% variable, 4% groceries, 3% foreign "
        "transaction fee.",
        None,
        _FEE,
        ["wrong_apr", "wrong_fee"],
    ),
    # twin: a wrong APR after the rewards is still an APR
    (
        "Summit Cash Plus: $95 a year, 4% groceries, 2% gas. Purchase APR 31.99% variable.",
        None,
        _APR,
        _APR,
    ),
]

# A dollar figure capping a reward rate's spend is no fee; "$45 a year" as the cost still is.
CAPS: list[Case] = [
    (
        "Summit Cash: no annual fee, 19.99%-29.99% variable, 5% dining (first $2,500 a year), "
        "1% base.",
        None,
        _OK,
        ["wrong_apr", "wrong_fee"],
    ),
    (
        "Summit Cash: no annual fee, 19.99%-29.99% variable, 5% on first $8k/yr of travel, "
        "1% base.",
        None,
        _OK,
        ["wrong_apr", "wrong_fee"],
    ),
    (
        "Summit Cash Plus: 18.24%-27.24% variable, annual fee $95. What you'd earn: groceries ~ "
        "$310, total \u2248 $1,150 a year.",
        None,
        _OK,
        _OK,
    ),
    # twins: the card's cost after the rewards is still its annual fee (Summit Cash: none)
    (
        "Summit Cash: 19.99%-29.99% variable, 5% travel up to $7k, 1% base. It is $45/yr.",
        None,
        _FEE,
        ["wrong_apr", "wrong_fee"],
    ),
    (
        "Summit Cash: 19.99%-29.99% variable, 3% online, and it costs $45 a year.",
        None,
        _FEE,
        ["wrong_apr", "wrong_fee"],
    ),
]

# "<issuer> <generic words> cards" names a category, not an invented card.
FAMILIES: list[Case] = [
    (
        "Dana, here is how the two Summit cash back cards compare: Summit Cash has no annual "
        "fee, Summit Cash Plus charges $95.",
        None,
        _OK,
        _OK,
    ),
    # twin: an invented singular product name is still an unknown card
    (
        "Have a look at the Summit Travel Elite Card: Summit Cash has no annual fee.",
        None,
        _UNKNOWN,
        _UNKNOWN,
    ),
]

# "$120 up front (3%)" is the fee's rate, "under 2%" a bound, a worked fee arithmetic.
WORKED: list[Case] = [
    (
        "If you moved $4,000 to the Vista Clear, you'd pay $120 up front (3%), then 1.99% for 21 "
        "months, then 19.99%-29.99% variable.",
        None,
        _OK,
        _APR,
    ),
    # twin: the fee stated with its own words is still checked
    (
        "If you moved $4,000 to the Vista Clear, you'd pay $120 up front, then 1.99% for 21 "
        "months, then 19.99%-29.99% variable, 4% transfer fee.",
        None,
        _FEE,
        _FEE,
    ),
    (
        "Vista Clear: 1.99% on transfers for 21 months, then 19.99%-29.99% variable - almost two "
        "years at under 2%.",
        None,
        _OK,
        _TERMS,
    ),
    # "N%+" is a bound too; twin: the figure alone is still an APR
    (
        "Summit Cash: 19.99%-29.99% variable, so the 20%+ APR matters if you carry a balance.",
        None,
        _OK,
        _APR,
    ),
    (
        "Summit Cash: 19.99%-29.99% variable, so the 20% APR matters if you carry a balance.",
        None,
        _APR,
        _APR,
    ),
    # twin: an exact figure in the same words is still an intro claim
    (
        "Vista Clear: 1.99% on transfers for 21 months, then 19.99%-29.99% variable - almost two "
        "years at 1.5%.",
        None,
        _TERMS,
        _TERMS,
    ),
    (
        "Say you owe $6,000.\nVista Clear: 1.99% on transfers for 21 months, then 19.99%-29.99% "
        "variable, fee 3%.\nSummit Cash Plus: 0% on transfers for 18 months, then 18.24%-27.24% "
        "variable, fee 5%.\n\nOn the Summit Cash Plus the fee is $300, on the Vista Clear it is "
        "$180.",
        None,
        _OK,
        _OK,
    ),
    # twin: a fee no percentage of the debt makes is still checked
    (
        "Say you owe $6,000.\nVista Clear: 1.99% on transfers for 21 months, then 19.99%-29.99% "
        "variable, fee 3%.\nSummit Cash Plus: 0% on transfers for 18 months, then 18.24%-27.24% "
        "variable, fee 5%.\n\nOn the Summit Cash Plus the fee is $75.",
        None,
        _FEE,
        _FEE,
    ),
]

# A list under a heading that names its term: each item's figure is that term.
HEADINGS: list[Case] = [
    ("Penalty APRs at a glance:\n- Summit Cash: 27.99%\n- Vista Clear: 29.99%", None, _APR, _OK),
    ("Penalty APRs at a glance:\n- Summit Cash: 29.99%\n- Vista Clear: 29.99%", None, _OK, _OK),
    ("Cash advance rates, our lineup:\nSummit Cash 29.99%\nVista Clear 24.99%", None, _APR, _OK),
    ("Cash advance rates, our lineup:\nSummit Cash 29.99%\nVista Clear 29.99%", None, _OK, _OK),
    (
        "Foreign transaction fees (quick look):\nSummit Cash - 3%\nHarbor Sky Miles - 0%\n"
        "Summit Cash Plus - 3%",
        None,
        _FEE,
        _OK,
    ),
    (
        "Foreign transaction fees (quick look):\nSummit Cash - 3%\nHarbor Sky Miles - 0%\n"
        "Summit Cash Plus - 0%",
        None,
        _OK,
        _OK,
    ),
    ("Late fees:\n- Summit Cash: $40\n- Summit Cash Plus: $29", None, _FEE, _OK),
    ("Late fees:\n- Summit Cash: $40\n- Summit Cash Plus: $39", None, _OK, _OK),
]


# "0% on purchases for a while" is an intro rate whose length is not stated.
VAGUE: list[Case] = [
    (
        "Summit Cash has 0% on purchases for a while (then 19.99%-29.99% variable), and no "
        "annual fee.",
        None,
        ["missing_disclosure"],
        _OK,
    ),
    # twins: the length stated, and a reward rate "for a limited time"
    (
        "Summit Cash has 0% on purchases for 15 months (then 19.99%-29.99% variable), and no "
        "annual fee.",
        None,
        _OK,
        _OK,
    ),
    (
        "Summit Cash: earn 2% on purchases for a limited time; 19.99%-29.99% variable; no annual "
        "fee.",
        None,
        _OK,
        _OK,
    ),
]

# "your options are the A and the B" offers both to the customer (the eligibility rule).
OPTIONS: list[Case] = [
    (
        "Sam, your options are the Summit Cash (no annual fee) and the Harbor Sky Miles Elites "
        "($695 a year). I'd pick the Summit Cash.",
        "C1",
        ["ineligible_card"],
        _OK,
    ),
    # twins: eligible options, and the ineligible card ruled out
    (
        "Sam, your options are the Summit Cash (no annual fee) and the Vista Clear (no annual "
        "fee). I'd pick the Summit Cash.",
        "C1",
        _OK,
        _OK,
    ),
    (
        "Sam, your options are the Summit Cash (no annual fee) and the Vista Clear (no annual "
        "fee). You don't qualify for the Harbor Sky Miles Elites ($695 a year).",
        "C1",
        _OK,
        _OK,
    ),
]


@pytest.mark.parametrize("case", VAGUE)
def test_ruleset21_an_intro_rate_for_a_while(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", OPTIONS)
def test_ruleset21_options_in_a_sentence(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", REWARDS)
def test_ruleset21_terse_reward_notation_is_no_apr_or_fee(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", CAPS)
def test_ruleset21_reward_caps_are_no_annual_fee(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", FAMILIES)
def test_ruleset21_an_issuers_family_of_cards_is_no_card(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", WORKED)
def test_ruleset21_worked_examples_and_bounds(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", HEADINGS)
def test_ruleset21_a_heading_names_its_lists_term(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


_FLAGS = (
    "rewards_21",
    "caps_21",
    "families_21",
    "worked_21",
    "headings_21",
    "vague_21",
    "options_21",
)


def test_ruleset21_is_in_the_default() -> None:
    assert RULESETS[21].version == 21 and all(getattr(RULESETS[21], f) for f in _FLAGS)
    for v in range(3, 21):
        assert not any(getattr(RULESETS[v], f) for f in _FLAGS)
    assert DEFAULT_RULESET == 35


# 200 kB of each new reading's trigger, then one real violation: every reading stays linear.
@pytest.mark.parametrize(
    "filler",
    [
        "Summit Cash: 4% groceries, 3% gas, 1.5% base, it pays 2% there vs 1% here, ",
        "5% dining (first $2,500 a year), 6% on first $12k/yr, total \u2248 $1,150 a year, ",
        "the two Summit travel cards and Harbor's cash back cards, ",
        "you'd pay $120 up front (3%), then under 2%, ",
        "Say you owe $6,000. The fee is $300 (5%). ",
        "Penalty APRs:\n- Summit Cash: 29.99%\n- Vista Clear: 29.99%\n",
        "Late fees:\n",
        "Summit Cash: 0% on purchases for a while, 0% on transfers temporarily, ",
        # (sentences of their own: 200 kB of back-to-back card names cost ruleset 20 itself
        # ~27 CPU-s, before this reading)
        "Sam, your options are the Summit Cash and the Vista Clear. More words keep names apart. ",
    ],
    ids=[
        "rewards",
        "caps",
        "families",
        "worked",
        "arithmetic",
        "headings",
        "bare-headings",
        "vague",
        "options",
    ],
)
def test_ruleset21_200kb_stays_fast_and_still_catches_the_violation(
    filler: str, catalog: Catalog
) -> None:
    text = filler * (200_000 // len(filler)) + "\n\nThe Summit Cash Plus has a $89 annual fee."
    start = time.process_time()  # CPU seconds: other jobs on the machine do not count
    verdict = verify_response(text, catalog, customer_id="C1", ruleset=21)
    elapsed = time.process_time() - start
    assert "wrong_fee" in verdict.codes and not verdict.passed
    assert elapsed < 10.0, f"200 kB took {elapsed:.1f}s"
