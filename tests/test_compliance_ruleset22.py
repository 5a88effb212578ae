"""Compliance ruleset 22, part a: fee and APR figures bound to the wrong card or read against their
words (the s25 tuning set) - issue 13, ``verifiers/compliance/ruleset22.py`` - in our own wording
on the hand catalog (``tests/compliance_cases``) plus two cards of this module's own.

Each case is (text, ruleset 22's codes, ruleset 21's codes): a compliant answer ruleset 22 must
pass, or a defect it must catch, with a twin in the same construction (a real wrong figure) that
is still caught.

Cards added here: Orbit Cash - 17.99%-24.99% variable, a 27.99% cash advance APR, a $35 late fee;
Orbit Cash Plus - $95 a year from the first year, a $29 late fee, no foreign transaction fee.
"""

from __future__ import annotations

import time

import pytest

from replicas.verifiers.compliance import DEFAULT_RULESET, RULESETS, Catalog, verify_response
from tests.compliance_cases import CARDS, ELIGIBILITY, card
from tests.compliance_support import codes_with_spans

Case = tuple[str, list[str], list[str]]

_OK: list[str] = []
_APR = ["wrong_apr"]
_FEE = ["wrong_fee"]
_FALSE = ["false_intro_offer"]

MORE_CARDS = [
    card(
        "CC-31",
        "Orbit Cash",
        purchase_apr_min_pct=17.99,
        purchase_apr_max_pct=24.99,
        cash_advance_apr_pct=27.99,
        late_fee_usd=35.0,
    ),
    card(
        "CC-32",
        "Orbit Cash Plus",
        annual_fee_usd=95.0,
        annual_fee_first_year_usd=95.0,
        late_fee_usd=29.0,
        foreign_txn_fee_pct=0.0,
    ),
]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS + MORE_CARDS, ELIGIBILITY)


def _check(case: Case, catalog: Catalog) -> None:
    text, r22, r21 = case
    assert codes_with_spans(text, catalog, 22) == r22, text
    assert codes_with_spans(text, catalog, 21) == r21, text


# A denied waiver or freedom from a fee is no "no fee" claim.
WAIVERS: list[Case] = [
    (
        "The Summit Cash Preferred and the Orbit Cash Plus both charge their fee from day one: "
        "neither one waives the annual fee in year one.",
        _OK,
        _FEE,
    ),
    # twin: the waiver claimed of a card that has none
    ("The Summit Cash Preferred waives the annual fee in year one.", _FEE, _FEE),
    ("Balance transfers on the Summit Cash aren't fee-free: 3% with a $5 minimum.", _OK, _FEE),
    ("Balance transfers on the Summit Cash are fee-free.", _FEE, _FEE),
    (
        "No card on this page waives the cash advance fee: the Summit Cash charges 5% (min $10).",
        _OK,
        _FEE,
    ),
    ("Orbit Cash Plus: $95 a year (no yr1 waiver), no foreign transaction fee.", _OK, _FEE),
    ("Orbit Cash Plus: $95 a year (yr1 waived), no foreign transaction fee.", _FEE, _FEE),
]

# A figure followed by a parenthesis holding only a card's name is that card's.
OWNERS: list[Case] = [
    ("Late fees on these two run from $35 (Orbit Cash) to $40 (Summit Cash).", _OK, _FEE),
    # twin: the parenthesised card's own figure is wrong
    ("Late fees on these two run from $30 (Orbit Cash) to $40 (Summit Cash).", _FEE, _FEE),
]

_ORBIT = "**Orbit Cash**\n- Balance transfer fee: 3%, min $5 "

# A card named as a point of comparison in an aside is not what the next lines are about.
REFERENCES: list[Case] = [
    (
        _ORBIT + "(the same as the Summit Cash).\n- Late fee: $35. Cash advance APR: 27.99%.",
        _OK,
        ["wrong_apr", "wrong_fee"],
    ),
    # twin: a wrong late fee of the card the lines are about
    (
        _ORBIT + "(the same as the Summit Cash).\n- Late fee: $30. Cash advance APR: 27.99%.",
        _FEE,
        ["wrong_apr", "wrong_fee"],
    ),
    (_ORBIT + "- the same as on the Summit Cash.\n- Late fee: $35.", _OK, _FEE),
    (
        'Draft note: this card charges $95 from the first year (the "first year free" line '
        "applies only to the Summit Cash Plus). Orbit Cash Plus, $95 annual fee.",
        _OK,
        _FEE,
    ),
]

# A one-term question types the bare figure that opens the answer on the next line.
ANSWERS: list[Case] = [
    (
        "User: penalty rate on the Orbit Cash?\nAgent: 29.99%. Purchases are 17.99%-24.99% "
        "variable.",
        _OK,
        _OK,
    ),
    # the defect: the cash advance APR given as the penalty APR
    (
        "User: penalty rate on the Orbit Cash?\nAgent: 27.99%. Purchases are 17.99%-24.99% "
        "variable.",
        _APR,
        _OK,
    ),
    ("Q: late fee on the Orbit Cash?\nA: Up to $35. No annual fee.", _OK, _OK),
    ("Q: late fee on the Orbit Cash?\nA: Up to $39. No annual fee.", _FEE, _OK),
]

# A rate the reader is told not to expect is no claim.
EXPECT: list[Case] = [
    (
        "The Summit Cash Preferred has no intro APR, so don't expect a 0% stretch. Its APR is "
        "17.99%-25.99% variable.",
        _OK,
        _APR,
    ),
    (
        "The Summit Cash Preferred has no intro APR, so never count on 0% there. Its APR is "
        "17.99%-25.99% variable.",
        _OK,
        _APR,
    ),
    # twin: the same 0% offered
    (
        "The Summit Cash Preferred gives you 0% for a year. Its APR is 17.99%-25.99% variable.",
        _FALSE,
        _FALSE,
    ),
]

# A rate its own words call the cash advance APR is checked against that APR alone.
ADVANCES: list[Case] = [
    ("Orbit Cash: the cash advance APR is 27.99%, purchases 17.99%-24.99% variable.", _OK, _OK),
    ("Orbit Cash: the cash advance APR is 24.99%, purchases 17.99%-24.99% variable.", _APR, _OK),
    ("Orbit Cash: 24.99% on cash advances, purchases 17.99%-24.99% variable.", _APR, _OK),
]


@pytest.mark.parametrize("case", WAIVERS, ids=lambda c: c[0][:40])
def test_waivers_22(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", OWNERS, ids=lambda c: c[0][:40])
def test_owners_22(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", REFERENCES, ids=lambda c: c[0][-40:])
def test_references_22(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", ANSWERS, ids=lambda c: c[0][:50])
def test_answers_22(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", EXPECT, ids=lambda c: c[0][40:80])
def test_expect_22(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", ADVANCES, ids=lambda c: c[0][:50])
def test_advances_22(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


def test_ruleset21_reads_each_class_the_old_way(catalog: Catalog) -> None:
    for cases in (WAIVERS, OWNERS, REFERENCES, ANSWERS, EXPECT, ADVANCES):
        assert any(r22 != r21 for _, r22, r21 in cases)


def test_ruleset22_flags_and_default() -> None:
    r22 = RULESETS[22]
    for flag in ("waivers_22", "owners_22", "references_22", "answers_22", "expect_22"):
        assert getattr(r22, flag) and not getattr(RULESETS[21], flag)
    assert r22.advance_22 and not RULESETS[21].advance_22
    assert DEFAULT_RULESET == 35


# 200 kB of each new reading's trigger, then one real violation: every reading stays linear.
@pytest.mark.parametrize(
    "filler",
    [
        "neither one waives the fee in year one, and it isn't fee-free, no yr1 waiver. ",
        "from $35 (Orbit Cash) to $40 (Summit Cash) and (the Summit Cash Plus) ",
        "fee 3% (the same as the Summit Cash) - the same as on the Orbit Cash. ",
        "User: late fee on the Orbit Cash?\nAgent: Up to $35.\n",
        "so don't expect a 0% stretch, never count on 0% there, ",
        "the cash advance APR is 27.99% and 27.99% on cash advances, ",
    ],
    ids=["waivers", "owners", "references", "answers", "expect", "advances"],
)
def test_ruleset22_200kb_stays_fast_and_still_catches_the_violation(
    filler: str, catalog: Catalog
) -> None:
    text = filler * (200_000 // len(filler)) + "\n\nThe Summit Cash Plus has a $89 annual fee."
    start = time.process_time()  # CPU seconds: other jobs on the machine do not count
    verdict = verify_response(text, catalog, customer_id="C1", ruleset=22)
    elapsed = time.process_time() - start
    assert "wrong_fee" in verdict.codes and not verdict.passed
    assert elapsed < 10.0, f"200 kB took {elapsed:.1f}s"
