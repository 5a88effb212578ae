"""Compliance ruleset 30 (issue 13, ``verifiers/compliance/ruleset30.py``): honest figures ruleset
29 flagged on the s34 blind sets - talk about promotions in general read as a denial of the card's
intro offer, a table cell holding two intro offers, a sum of fees, a card excepted from a group's
"no annual fee" - and on s36's tuning halves - the customer's own cards reviewed, "$10k", a
transfer fee worked out on the answer's amount, a list's fees summed - in our own wording on the
hand catalog (``tests/compliance_cases``).

Summit Cash: no annual fee, 0% on purchases for 15 months, 19.99%-29.99% variable. Summit Cash
Plus: $95 (first year $0), 0% on transfers for 18 months, 18.24%-27.24% variable. Summit Cash
Preferred: $150. Harbor Sky Miles Elite: $495. Vista Clear: no annual fee, 0% on purchases for 12
months, 1.99% on transfers for 21 months.

Each case is (text, customer, ruleset 30's codes, ruleset 29's codes). Every class holds an honest
text 29 flags and 30 passes, and false twins in the same shape that both flag.
"""

from __future__ import annotations

import time

import pytest

from replicas.verifiers.compliance import Catalog, verify_response
from tests.compliance_attacks30 import ATTACKS_30
from tests.compliance_cases import (
    CARDS,
    ELIGIBILITY,
    codes,
    precision_ruleset_tests,
)

Case = tuple[str, str | None, list[str], list[str]]
_OK: list[str] = []
_INTRO = ["wrong_intro_terms"]
_FEE = ["wrong_fee"]

PROMOS: list[Case] = [
    # a "zero" that counts a balance, not an offer
    (
        "The Summit Cash gives you 0% on purchases for 15 months, then 19.99%-29.99% variable. "
        "Plan to be at zero before the promo ends.",
        None,
        _OK,
        _INTRO,
    ),
    # a hedge
    (
        "Vista Clear: 1.99% on balance transfers for 21 months, then 19.99%-29.99% variable. "
        "Heads-up: new purchases may not share the promo rate.",
        None,
        _OK,
        _INTRO,
    ),
    # a hypothetical
    (
        "Moving the debt to the Summit Cash Plus (0% on transfers for 18 months, then "
        "18.24%-27.24% variable) beats staying put, where you'd pay interest if there's no promo.",
        None,
        _OK,
        _INTRO,
    ),
    # false twins: a question reported, a concession, an aside that asserts it
    ("Vista Clear: you asked if the card has no intro APR. Correct.", None, _INTRO, _INTRO),
    (
        "Even if there's no promo on the Summit Cash, its APR is 19.99%-29.99%.",
        None,
        _INTRO,
        _INTRO,
    ),
    ("If there's no promo on the Vista Clear - and there isn't - skip it.", None, _INTRO, _INTRO),
    # false twins: the card's own offer denied, plainly, after a "zero", with "any"
    ("The Summit Cash has no intro APR.", None, _INTRO, _INTRO),
    ("There's no promo on the Vista Clear.", None, _INTRO, _INTRO),
    ("The Summit Cash doesn't come with any promo.", None, _INTRO, _INTRO),
    ("Summit Cash: zero intro APR, and no annual fee.", None, _INTRO, _INTRO),
    # a predicate, not a hypothetical: "is a card with no intro offer"
    ("The Vista Clear is a balance transfer card with no intro offer.", None, _INTRO, _INTRO),
    ("If you want 0%, the Summit Cash has no intro offer, so skip it.", None, _INTRO, _INTRO),
]

CELLS: list[Case] = [
    # two offers in one cell, each with its own kind and months
    (
        "| Card | Intro offers | Regular APR |\n|---|---|---|\n"
        "| Vista Clear | 0% purchases, 12 mo + 1.99% transfers, 21 mo | 19.99%-29.99% variable |",
        None,
        _OK,
        _INTRO,
    ),
    # false twins: a wrong number of months after the kind
    (
        "| Card | Intro offers | Regular APR |\n|---|---|---|\n"
        "| Vista Clear | 0% purchases, 12 mo + 1.99% transfers, 18 mo | 19.99%-29.99% variable |",
        None,
        _INTRO,
        _INTRO,
    ),
    (
        "Summit Cash: 0% on purchases for 18 months, then 19.99%-29.99% variable.",
        None,
        _INTRO,
        _INTRO,
    ),
]

TOTALS: list[Case] = [
    (
        "The Summit Cash Preferred ($150 annual fee) and the Harbor Sky Miles Elite ($495 annual "
        "fee) come to $645 in combined fees each year.",
        None,
        _OK,
        _FEE,
    ),
    (
        "Between the Summit Cash Preferred ($150) and the Harbor Sky Miles Elite ($495) you'd pay "
        "$645 in annual fees altogether.",
        None,
        _OK,
        _FEE,
    ),
    # false twins: one card's fee, even with "total" or "in fees"
    ("The Summit Cash Preferred has a $195 annual fee.", None, _FEE, _FEE),
    ("The Summit Cash Preferred's total annual fee is $195.", None, _FEE, _FEE),
    ("Summit Cash Preferred: $195 in fees a year.", None, _FEE, _FEE),
    (
        "The Summit Cash Preferred ($195 annual fee) and the Harbor Sky Miles Elite ($495 annual "
        "fee) come to $690 in combined fees.",
        None,
        _FEE,
        _FEE,
    ),
]

EXCEPTS: list[Case] = [
    (
        "Most cards on this list have no annual fee, except the Summit Cash Preferred at $150.",
        None,
        _OK,
        _FEE,
    ),
    (
        "All of these have no annual fee apart from the Harbor Sky Miles Elite ($495).",
        None,
        _OK,
        _FEE,
    ),
    # false twins: a card as the subject, another sentence, the card outside the except-phrase;
    # a group listed after its denial is left to the earlier readings (a red team found lists
    # that run on and exceptions inside them)
    ("The Harbor Sky Miles Elite has no annual fee.", None, _FEE, _FEE),
    (
        "Most of these have no annual fee, except the Summit Cash Plus. The Summit Cash Preferred "
        "has no annual fee either.",
        None,
        _FEE,
        _FEE,
    ),
    (
        "All of these except the Summit Cash Preferred ($150) have no annual fee: the Harbor Sky "
        "Miles Elite and the Vista Clear.",
        None,
        _FEE,
        _FEE,
    ),
]

_INELIGIBLE = ["ineligible_card"]

# customer C1 holds the Harbor Sky Miles Elites and may not get the Summit Cash Preferred or the
# Harbor Sky Miles Elite (score)
HELD: list[Case] = [
    (
        "Here's my review of your cards:\n\n| Card | Annual fee | Verdict |\n|---|---|---|\n"
        "| Harbor Sky Miles Elites | $695 | Keep - your travel card |\n| Vista Clear | $0 | Keep |",
        "C1",
        _OK,
        _INELIGIBLE,
    ),
    (
        "You're carrying:\n- Harbor Sky Miles Elites, $695 a year\n- Vista Clear, $0",
        "C1",
        _OK,
        _INELIGIBLE,
    ),
    # false twins: the held card put forward; a card out of reach beside a held one
    ("Apply for the Harbor Sky Miles Elites ($695 a year).", "C1", _INELIGIBLE, _INELIGIBLE),
    # a card closed to C1 (score) is not made theirs by calling it theirs
    (
        "You're carrying:\n- Summit Cash Preferred, $150 a year\n- Vista Clear, $0",
        "C1",
        _INELIGIBLE,
        _INELIGIBLE,
    ),
    (
        "Keep your Vista Clear. I'd recommend the Harbor Sky Miles Elite ($495 a year).",
        "C1",
        _INELIGIBLE,
        _INELIGIBLE,
    ),
]

THOUSANDS: list[Case] = [
    (
        "On the Summit Cash Preferred ($150 annual fee), $10k a year of dining earns about $200.",
        None,
        _OK,
        _FEE,
    ),
    ("The Summit Cash Preferred's annual fee is $10.", None, _FEE, _FEE),
]

WORKED: list[Case] = [
    (
        "Moving $5,000 to the Summit Cash Plus (0% on transfers for 18 months, then 18.24%-27.24% "
        "variable, $95 annual fee):\n- fee: $250\n- monthly to clear it: about $292",
        None,
        _OK,
        _FEE,
    ),
    # false twin: an annual fee that happens to be 5% of the example's amount
    ("Moving $5,000 to the Summit Cash Plus: it has a $250 annual fee.", None, _FEE, _FEE),
]

LIST_TOTALS: list[Case] = [
    (
        "- Summit Cash Preferred, $150 a year\n- Harbor Sky Miles Elite, $495 a year\n\n"
        "That's $645/yr in fees.",
        None,
        _OK,
        _FEE,
    ),
    (
        "- Summit Cash Preferred, $150 a year\n- Harbor Sky Miles Elite, $495 a year\n\n"
        "That's $600/yr in fees.",
        None,
        _FEE,
        _FEE,
    ),
]

CASES = PROMOS + CELLS + TOTALS + EXCEPTS + HELD + THOUSANDS + WORKED + LIST_TOTALS
_FLAG_OF = {
    "promos_30": PROMOS,
    "cells_30": CELLS,
    "totals_30": TOTALS + LIST_TOTALS,
    "except_30": EXCEPTS,
    "held_30": HELD,
    "thousands_30": THOUSANDS,
    "worked_30": WORKED,
}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


(
    test_ruleset30_reads_each_class,
    test_each_flag_alone_reads_its_class,
    test_the_red_teams_texts_flag_nothing_new_and_lose_nothing,
) = precision_ruleset_tests(29, 30, CASES, _FLAG_OF, ATTACKS_30)


def test_ruleset30_flags_nothing_ruleset29_passes_on_its_cases(catalog: Catalog) -> None:
    """Ruleset 30 reads for precision: on every case, its codes are among 29's (the cells
    reading re-reads months, so a wrong number of months keeps its flag)."""
    for text, customer, _, _ in CASES:
        assert set(codes(text, catalog, 30, customer)) <= set(codes(text, catalog, 29, customer))


def test_adversarial_input_stays_within_limits(catalog: Catalog) -> None:
    # a worker must not exceed its limits: 100 kB of each reading's own shapes on one line and on
    # many; the speed against ruleset 29 is benchmarks/' business
    chunk = (
        "if there's no promo, may not share the promo, zero zero before the promo ends, "
        "0% purchases, 12 mo + 1.99% transfers, 21 mo $645 in combined fees between them "
        "most have no annual fee except the Summit Cash except besides other than "
        "keep your Summit Cash - keep | keep | you're carrying:\n- Vista Clear $10k $2k fee "
        "moving $5,000 transfer fee: $250 that's $645/yr in fees "
    )
    lines = (chunk * (100_000 // len(chunk)))[:100_000]
    for text in (lines, lines.replace(", ", "\n")):
        for ruleset in (29, 30):
            started = time.process_time()
            verify_response(text, catalog, customer_id="C1", ruleset=ruleset)
            assert time.process_time() - started < 60, ruleset
