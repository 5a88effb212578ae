"""Compliance ruleset 22, part b: shortened card names, benchmark rates, column gaps, an added
lower-case tier word, picks confirmed after their list, CRM "rec" lines, inline numbered picks
and cards ruled out without a "but" (the s25 blind sets' tuning file) - issue 13,
``verifiers/compliance/ruleset22b.py`` - in our own wording on the hand catalog
(``tests/compliance_cases``) plus two cards of this module's own.

Each case is (text, customer, ruleset 22's codes, ruleset 21's codes): a compliant answer ruleset
22 must pass, or a defect it must catch, with a twin in the same construction that is still
caught. Customer C1 may hold the Summit Cash, Harbor Sky Miles and Vista Clear only.

Cards added here: Harbor Travel Reserve ($550 a year) and Vista Travel Reserve ($695), neither
with a foreign transaction fee.
"""

from __future__ import annotations

import time

import pytest

from replicas.verifiers.compliance import DEFAULT_RULESET, RULESETS, Catalog, verify_response
from tests.compliance_cases import CARDS, ELIGIBILITY, card
from tests.compliance_support import codes_with_spans

Case = tuple[str, str | None, list[str], list[str]]

_OK: list[str] = []
_FEE = ["wrong_fee"]
_UNKNOWN = ["unknown_card"]
_INELIGIBLE = ["ineligible_card"]
_DISCLOSURE = ["missing_disclosure"]
_BOTH = ["ineligible_card", "missing_disclosure"]

MORE_CARDS = [
    card(
        "CC-31",
        "Harbor Travel Reserve",
        annual_fee_usd=550.0,
        card_type="travel",
        foreign_txn_fee_pct=0.0,
    ),
    card(
        "CC-32",
        "Vista Travel Reserve",
        annual_fee_usd=695.0,
        card_type="travel",
        foreign_txn_fee_pct=0.0,
    ),
]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS + MORE_CARDS, ELIGIBILITY)


def _check(case: Case, catalog: Catalog) -> None:
    text, customer, r22, r21 = case
    assert codes_with_spans(text, catalog, 22, customer) == r22, text
    assert codes_with_spans(text, catalog, 21, customer) == r21, text


_RESERVES = "The Harbor Travel Reserve costs $550 a year and the Vista Travel Reserve $695. "

# A shortened name of a card the response names in full is that card.
NAMES: list[Case] = [
    (_RESERVES + "The Harbor Reserve charges no foreign transaction fee.", None, _OK, _UNKNOWN),
    # twin: the short name's claim is checked against its card
    (_RESERVES + "The Harbor Reserve charges a 3% foreign transaction fee.", None, _FEE, _UNKNOWN),
    # twin: a word no named card has keeps the name invented
    (
        _RESERVES + "The Harbor Reserve Max has no foreign transaction fee.",
        None,
        _UNKNOWN,
        _UNKNOWN,
    ),
    (
        "## Harbor Travel vs. Vista Travel\n\n" + _RESERVES + "Neither has a foreign "
        "transaction fee.",
        None,
        _OK,
        _UNKNOWN,
    ),
    # a benchmark rate written as a proper noun is no product
    (
        "A variable APR follows an index, usually the Federal Funds Rate. The Vista Clear's "
        "purchase APR is 19.99%-29.99% variable.",
        None,
        _OK,
        _UNKNOWN,
    ),
    (
        "A variable APR follows an index. The Vista Prime Rate has a purchase APR of "
        "19.99%-29.99% variable.",
        None,
        _UNKNOWN,
        _UNKNOWN,
    ),
    # a column gap ends a name
    (
        "```\n                 Summit Cash Plus   Harbor Sky Miles\n"
        "Annual fee       $95                $0\n```",
        None,
        _OK,
        [*_UNKNOWN, *_FEE],
    ),
    (
        "```\n                 Summit Cash Pro   Harbor Sky Miles\n"
        "Annual fee       $95               $0\n```",
        None,
        [*_UNKNOWN, *_FEE],
        [*_UNKNOWN, *_FEE],
    ),
    # a lower-case tier word the card lacks, before a verb, names an invented card (a miss)
    (
        "the vista clear has no annual fee. for travel perks the vista clear plus is worth a look.",
        None,
        _UNKNOWN,
        _OK,
    ),
    (
        "the vista clear has no annual fee, plus it has 0% on purchases for 12 months, then "
        "19.99%-29.99% variable.",
        None,
        _OK,
        _OK,
    ),
    ("get the vista clear plus a debit card for daily spending; no annual fee.", None, _OK, _OK),
]

_TABLE = "Two picks:\n\n| | {a} | Vista Clear |\n|---|---|---|\n| Annual fee | {fee} | $0 |\n\n"

# Picks confirmed after their list, CRM "rec" lines and inline numbered picks (misses).
PICKS: list[Case] = [
    (_TABLE.format(a="Summit Cash", fee="$0") + "Both are good fits for you.", "C1", _OK, _OK),
    (
        _TABLE.format(a="Summit Cash Plus", fee="$95") + "Both are solid options for you.",
        "C1",
        _INELIGIBLE,
        _OK,
    ),
    # a confirmation that negates recommends nothing
    (
        _TABLE.format(a="Summit Cash Plus", fee="$95") + "Both are good cards, but you can't get "
        "the first one yet.",
        "C1",
        _OK,
        _OK,
    ),
    (
        "The Summit Cash Preferred earns 2% on everything. It's a great pick for you.",
        None,
        _DISCLOSURE,
        _OK,
    ),
    (
        "The Summit Cash Preferred earns 2% on everything and costs $150 a year. It's a great "
        "pick for you.",
        None,
        _OK,
        _OK,
    ),
    (
        "The Summit Cash Preferred earns 2% on everything. It's not a great pick for you.",
        None,
        _OK,
        _OK,
    ),
    ("- rec: Summit Cash Preferred. 2% back on all spend.\n- cust agreed.", None, _DISCLOSURE, _OK),
    (
        "- rec: Summit Cash Preferred ($150/yr). 2% back on all spend.\n- cust agreed.",
        None,
        _OK,
        _OK,
    ),
    (
        "my top 2 for u: 1) summit cash, no annual fee 2) summit cash plus, $95/yr, 0% on "
        "transfers for 18 months then 18.24%-27.24% variable",
        "C1",
        _INELIGIBLE,
        _OK,
    ),
    (
        "my top 2 for u: 1) summit cash, no annual fee 2) vista clear, no annual fee",
        "C1",
        _OK,
        _OK,
    ),
]

_VISTA = (
    "\n\nVista Clear: no annual fee, 1.99% on transfers for 21 months, then 19.99%-29.99% "
    "variable. My pick."
)

# A card ruled out in new words, in its own sentence or the next.
RULED: list[Case] = [
    (
        "For your balance: (The Summit Cash Plus would be ideal, but it isn't available at your "
        "current score, so please don't apply for it.)" + _VISTA,
        "C1",
        _OK,
        _BOTH,
    ),
    # twin: the card said to be available
    (
        "For your balance: (The Summit Cash Plus would be ideal, and it's available at your "
        "score.)" + _VISTA,
        "C1",
        _BOTH,
        _BOTH,
    ),
    (
        "You asked whether the Summit Cash Preferred is worth it for you. Honestly, it's not one "
        "I can recommend right now - your score is below what that card requires." + _VISTA,
        "C1",
        _OK,
        _BOTH,
    ),
    (
        "You asked whether the Summit Cash Preferred is worth it for you. Honestly, it is one I "
        "can recommend right now." + _VISTA,
        "C1",
        _BOTH,
        _BOTH,
    ),
    (
        "The Summit Cash Preferred is a great fit for you; it isn't available to everyone, though.",
        "C1",
        _BOTH,
        _BOTH,
    ),
]


@pytest.mark.parametrize("case", NAMES)
def test_ruleset22b_names(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", PICKS)
def test_ruleset22b_picks(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", RULED)
def test_ruleset22b_ruled_out_in_new_words(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


_FLAGS = ("short_names_22b", "picks_22b")


def test_ruleset22b_is_in_the_default() -> None:
    assert all(getattr(RULESETS[22], f) for f in _FLAGS)
    for v in range(3, 22):
        assert not any(getattr(RULESETS[v], f) for f in _FLAGS)
    assert DEFAULT_RULESET == 35


@pytest.mark.parametrize(
    "filler",
    [
        "The Harbor Travel Reserve and the Harbor Reserve and the vista clear plus is, ",
        "Summit Cash and Vista Clear. Both are good picks for you. It's a great fit for you. ",
        "- rec: Summit Cash\nmy top 2: 1) Summit Cash 2) Vista Clear\n",
        "The Summit Cash Plus isn't available at your score. Please don't apply. ",
        "Summit Cash Plus     Harbor Sky Miles   the Prime Rate\n",
    ],
    ids=["names", "picks", "rec", "ruled", "gaps"],
)
def test_ruleset22b_200kb_stays_fast_and_still_catches_the_violation(
    filler: str, catalog: Catalog
) -> None:
    text = filler * (200_000 // len(filler)) + "\n\nThe Summit Cash Plus has a $89 annual fee."
    start = time.process_time()
    verdict = verify_response(text, catalog, customer_id="C1", ruleset=22)
    elapsed = time.process_time() - start
    assert "wrong_fee" in verdict.codes and not verdict.passed
    assert elapsed < 10.0, f"200 kB took {elapsed:.1f}s"
