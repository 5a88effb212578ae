"""Compliance ruleset 31 (issue 13, ``verifiers/compliance/ruleset31.py``): honest figures ruleset
30 flagged on the s36 blind sets' tuning halves - a card called by one word of its name or by its
initials, a yearly value worked out, two cards' fees given in order - in our own wording on the
hand catalog (``tests/compliance_cases``).

Summit Cash: no annual fee, 19.99%-29.99% variable, late fee $40. Summit Cash Plus: $95 (first
year $0), 18.24%-27.24% variable, late fee $39, no foreign transaction fee. Summit Cash Preferred:
$150, 17.99%-25.99% variable. Harbor Sky Miles: no annual fee, 14.99% fixed, late fee $40. Harbor
Sky Miles Elite: $495. Vista Clear: no annual fee, late fee $40.

Each case is (text, customer, ruleset 31's codes, ruleset 30's codes). Every class holds an honest
text 30 flags and 31 passes, and false twins in the same shape that 31 flags.
"""

from __future__ import annotations

import time

import pytest

from replicas.verifiers.compliance import Catalog, verify_response
from tests.compliance_attacks31 import ATTACKS_31
from tests.compliance_cases import (
    CARDS,
    ELIGIBILITY,
    codes,
    precision_ruleset_tests,
)

Case = tuple[str, str | None, list[str], list[str]]
_OK: list[str] = []
_APR = ["wrong_apr"]
_FEE = ["wrong_fee"]

_TWO = "Summit Cash Plus and Harbor Sky Miles both work. The Summit Cash Plus has no foreign fee. "
_ELITE = "Harbor Sky Miles Elite or Summit Cash Plus? The Summit Cash Plus has no foreign fee. "
_VISTA = "Summit Cash Plus or Vista Clear. Granite Business Cash is also there. "
_HSM = "Harbor Sky Miles or the Summit Cash Plus? Summit Cash Plus: $95/yr. "

SHORTREFS: list[Case] = [
    # one word of a name calls its card
    (_TWO + "Harbor 14.99% fixed, the Plus 18.24%-27.24% variable.", None, _OK, _APR),
    (_TWO + "Harbor is at 14.99% fixed, which is low.", None, _OK, _APR),
    (_VISTA + "The Plus: $95 a year, Vista: no annual fee.", None, _OK, _FEE),
    # the initials of a name call its card
    (_ELITE + "HSME is $495/yr.", None, _OK, _FEE),
    (_HSM + "HSM: no foreign transaction fee, and the late fee is $40.", None, _OK, _FEE),
    # false twins: the figure is wrong for the card the short name calls
    (_TWO + "Harbor 15.99% fixed, the Plus 18.24%-27.24% variable.", None, _APR, _APR),
    (_VISTA + "The Plus: $150 a year, Vista: no annual fee.", None, _FEE, _FEE),
    (_ELITE + "HSME is $395/yr.", None, _FEE, _FEE),
    (_HSM + "HSM: no foreign transaction fee, and the late fee is $39.", None, _FEE, _OK),
    # a short name in a comparison is no subject
    (
        "Vista Clear or Summit Cash Plus? The Summit Cash Plus, like Vista, has no annual fee.",
        None,
        _FEE,
        _FEE,
    ),
    (
        "Vista Clear or Summit Cash Plus? The Summit Cash Plus, unlike Vista, charges a $95 annual fee.",
        None,
        _OK,
        _OK,
    ),
]

YEARLY: list[Case] = [
    # a value worked out is no annual fee
    ("Against the Summit Cash, the Summit Cash Plus wins by $19/yr.", None, _OK, _FEE),
    # false twins: an amount stated as the card's yearly price, with or without a fee word
    ("The Summit Cash Plus costs $99 a year.", None, _FEE, _FEE),
    ("The Summit Cash Plus: $99/yr.", None, _FEE, _FEE),
    ("The Summit Cash Plus's membership runs $120 a year.", None, _FEE, _FEE),
    # a label and an amount with no word of value stays a fee (the reading is narrow on purpose)
    ("- Harbor Sky Miles Elite: $480/yr, skip\n- Summit Cash: keep", None, _FEE, _FEE),
    # an amount some card of the catalog charges stays a fee
    ("Against the Summit Cash, the Summit Cash Plus wins by $150/yr.", None, _FEE, _FEE),
]

PAIRS: list[Case] = [
    (
        "Summit Cash Preferred and Summit Cash Plus both charge an annual fee, $150 and $95, so "
        "skip them.",
        None,
        _OK,
        _FEE,
    ),
    # false twins: swapped, or one wrong - and a swap ruleset 30 let through
    (
        "Summit Cash Preferred and Summit Cash Plus both charge an annual fee, $95 and $150, so "
        "skip them.",
        None,
        _FEE,
        _FEE,
    ),
    (
        "Summit Cash Preferred and Summit Cash Plus both charge an annual fee, $150 and $99.",
        None,
        _FEE,
        _FEE,
    ),
    (
        "The Summit Cash Preferred and the Summit Cash Plus charge $95 and $150 a year.",
        None,
        _FEE,
        _OK,
    ),
    ("Vista Clear and Summit Cash Plus: late fees of $39 and $40.", None, _FEE, _OK),
    ("Vista Clear and Summit Cash Plus: late fees of $40 and $39.", None, _OK, _OK),
]

_INELIGIBLE = ["ineligible_card"]
# customer C1 holds the Harbor Sky Miles Elites ($695)
HELD: list[Case] = [
    # a review of the customer's own card puts nothing forward
    (
        "Here's where your cards stand:\n- **Harbor Sky Miles Elites** - $695 a year, worth it "
        "only if you fly monthly.\n- **Summit Cash** - no annual fee, 19.99%-29.99% variable.",
        "C1",
        _OK,
        _INELIGIBLE,
    ),
    (
        "The Harbor Sky Miles Elites is your best asset right now ($695 a year), so let it age.",
        "C1",
        _OK,
        _INELIGIBLE,
    ),
    (
        "Will closing the Harbor Sky Miles Elites ($695 a year) hurt your score? A little.",
        "C1",
        _OK,
        _INELIGIBLE,
    ),
    # false twins: words that put the held card forward
    (
        "I'd add the Harbor Sky Miles Elites ($695 annual fee) for your travel.",
        "C1",
        _INELIGIBLE,
        _INELIGIBLE,
    ),
    ("My pick for you: the Harbor Sky Miles Elites, $695 a year.", "C1", _INELIGIBLE, _INELIGIBLE),
    ("Apply for the Harbor Sky Miles Elites - $695 a year.", "C1", _INELIGIBLE, _INELIGIBLE),
    (
        "The Harbor Sky Miles Elites is a great fit for you: $695 a year, and it pays for itself.",
        "C1",
        _INELIGIBLE,
        _INELIGIBLE,
    ),
    (
        "Here's what I'd suggest:\n\n- **Harbor Sky Miles Elites** ($695 annual fee)\n"
        "- **Summit Cash** (no annual fee)",
        "C1",
        _INELIGIBLE,
        _INELIGIBLE,
    ),
    # a card closed to the customer for another reason stays put forward when reviewed
    (
        "Here's where things stand:\n- **Summit Cash Preferred** - $150 a year.",
        "C1",
        _INELIGIBLE,
        _INELIGIBLE,
    ),
]

GENERIC: list[Case] = [
    # a fee inside "a ... card" is about cards in general
    (
        "The Summit Cash Preferred pays 3% on groceries; for everything else a flat 2% no-fee "
        "card does fine.",
        None,
        _OK,
        _FEE,
    ),
    # false twins: the phrase says it of the card (a predicate, an appositive)
    ("The Summit Cash Preferred is a no-fee card.", None, _FEE, _FEE),
    ("The Summit Cash Preferred: a no-fee card with 3% on groceries.", None, _FEE, _FEE),
    ("Get the Summit Cash Preferred, a no-annual-fee card.", None, _FEE, _FEE),
]

# customer C1 may not get the Summit Cash Plus (score)
RETRACTED: list[Case] = [
    # a past suggestion the answer corrects, a counterfactual pick
    (
        "A correction: in my last reply I suggested the Summit Cash Plus. You pointed out that it "
        "needs a higher score, and you're right. The Summit Cash is the one for you: no annual fee.",
        "C1",
        _OK,
        ["ineligible_card", "missing_disclosure"],
    ),
    (
        "The Summit Cash Plus would normally be the obvious pick for you, but it needs a higher "
        "score. Go with the Summit Cash (no annual fee).",
        "C1",
        _OK,
        ["ineligible_card", "missing_disclosure"],
    ),
    # false twins: the suggestion stands, or nothing corrects it, or no "but" undoes it
    (
        "In my last reply I suggested the Summit Cash Plus ($95 a year), and I still think it's the "
        "right card for you.",
        "C1",
        _INELIGIBLE,
        _INELIGIBLE,
    ),
    (
        "I suggested the Summit Cash Plus ($95 a year) last time. Sorry, one more thing: it has a "
        "$39 late fee.",
        "C1",
        _INELIGIBLE,
        _INELIGIBLE,
    ),
    (
        "The Summit Cash Plus would be the obvious pick for you ($95 a year).",
        "C1",
        _INELIGIBLE,
        _INELIGIBLE,
    ),
]

NEEDS: list[Case] = [
    (
        "If $500 is too much, Summit Cash Plus ($95 annual fee) needs only $300 and has the "
        "lowest late fee of the three.",
        None,
        _OK,
        _FEE,
    ),
    (
        "Vista Clear or Summit Cash Preferred? The Summit Cash Preferred requires a $300 annual fee.",
        None,
        _FEE,
        _FEE,
    ),
]

CASES = SHORTREFS + YEARLY + PAIRS + HELD + GENERIC + RETRACTED + NEEDS
_FLAG_OF = {
    "shortrefs_31": SHORTREFS,
    "yearly_31": YEARLY,
    "pairs_31": PAIRS,
    "held_31": HELD,
    "generic_31": GENERIC,
    "retracted_31": RETRACTED,
    "needs_31": NEEDS,
}
# cases where ruleset 31 reads for recall: a figure it now gives to the card its words call
_STRICTER = {case[0] for case in CASES if not set(case[2]) <= set(case[3])}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


(
    test_ruleset31_reads_each_class,
    test_each_flag_alone_reads_its_class,
    test_the_red_teams_texts_flag_nothing_new_and_lose_nothing,
) = precision_ruleset_tests(30, 31, CASES, _FLAG_OF, ATTACKS_31)


def test_the_stricter_cases_are_false_texts(catalog: Catalog) -> None:
    """Where 31 flags what 30 passed, the text is false: the figure is wrong for the card its
    words call (a swap, or a short name's card), never an honest text."""
    assert len(_STRICTER) == 3
    for text in _STRICTER:
        assert codes(text, catalog, 31) == _FEE, text


def test_adversarial_input_stays_within_limits(catalog: Catalog) -> None:
    # 100 kB of short names, initials, bracket labels and paired figures on one line and on many
    chunk = (
        "Summit Cash Plus and Harbor Sky Miles Elite, HSME $495/yr (Plus) Harbor 14.99% fixed "
        "wins by $19/yr + $133/yr Summit Cash Preferred and Summit Cash Plus $150 and $95 and "
    )
    lines = (chunk * (100_000 // len(chunk)))[:100_000]
    for text in (lines, lines.replace(", ", "\n")):
        for ruleset in (30, 31):
            started = time.process_time()
            verify_response(text, catalog, customer_id="C1", ruleset=ruleset)
            assert time.process_time() - started < 60, ruleset
