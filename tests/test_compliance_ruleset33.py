"""Compliance ruleset 33 (issue 13, ``verifiers/compliance/ruleset33.py``):
worked figures ruleset 32 flagged as fees on the s36, s37 and s38 blind sets' tuning halves - a
percentage fee worked out on the reader's amount, a sum or difference of the answer's own
figures, a reward rate times the reader's spending, a total of the cards' own fees - in our own
wording on the hand catalog (``tests/compliance_cases``). An amount only echoed from elsewhere in the answer (a deposit, a
budget) stays checked: copying a nearby number into a fee is a hallucination.

Summit Cash: no annual fee, 19.99%-29.99% variable, 3% transfer fee (min $5). Summit Cash Plus:
$95 (first year $0), 5% transfer fee. Summit Cash Preferred: $150.

Each case is (text, customer, ruleset 33's codes, ruleset 32's codes). Every class holds an honest
text 32 flags and 33 passes, and false twins in the same shape that 33 flags.
"""

from __future__ import annotations

import time

from replicas.verifiers.compliance import Catalog, verify_response
from tests.compliance_attacks33 import ATTACKS_33
from tests.compliance_cases import CARDS, ELIGIBILITY, precision_ruleset_tests

Case = tuple[str, str | None, list[str], list[str]]
_OK: list[str] = []
_FEE = ["wrong_fee"]

WORKED: list[Case] = [
    # (a) the card's own transfer fee on the amount the reader moves (5% of $6,000)
    (
        "Say you're moving **$6,000** off a card charging ~28%.\n\n- Summit Cash Plus: fee = $300. "
        "you now owe $6,300. divide by 18 = **~$350/mo**",
        None,
        _OK,
        _FEE,
    ),
    # false twin: 6% of the amount is no fee of the card
    (
        "Say you're moving **$6,000** off a card charging ~28%.\n\n- Summit Cash Plus: fee = $360. "
        "you now owe $6,360. divide by 18 = **~$353/mo**",
        None,
        _FEE,
        _FEE,
    ),
    # (b) a sum of two annual fees, a total by the words after it
    (
        "Between the Summit Cash Plus ($95) and the Summit Cash Preferred ($150), you're paying "
        "$245 a year in fees.",
        None,
        _OK,
        _FEE,
    ),
    # (b) a difference of two figures of the sentence
    (
        "The Summit Cash Preferred is $150 a year and the Summit Cash Plus is $95 a year, so the "
        "Summit Cash Preferred costs $55 more a year.",
        None,
        _OK,
        _FEE,
    ),
    # (b) a reward rate on its line times a year of the reader's monthly spending (2% of $24,000)
    (
        "The Summit Cash pays a flat 2% back with no annual fee.\n\nOn your $2,000 a month:\n"
        "- Summit Cash at 2%: that's $480 a year",
        None,
        _OK,
        _FEE,
    ),
    # false twins: a fee word names the fee; a yearly figure no words mark as worked
    ("The Summit Cash Plus has a $245 annual fee.", None, _FEE, _FEE),
    (
        "The Summit Cash pays a flat 2% back.\n\nOn your $2,000 a month:\n"
        "- Summit Cash at 2%: that's $95 a year",
        None,
        _FEE,
        _FEE,
    ),
    # (a) a worked example's amount; false twin: a fee stated with "has a" is the card's fee
    (
        "Quick maths on $6,000:\n- Summit Cash Plus: $300 fee, then ~$350 a month for 18 months",
        None,
        _OK,
        _FEE,
    ),
    ("Say you're moving $3,000. The Summit Cash Plus has a $150 fee.", None, _FEE, _FEE),
    # a total of the named cards' annual fees, a multiple of one card's late fee
    (
        "You hold the Summit Cash Plus and the Summit Cash Preferred. Total annual fees: $245.",
        None,
        _OK,
        _FEE,
    ),
    ("Pay late twice on the Summit Cash Plus and that's $78 in late fees.", None, _OK, _FEE),
    # false twin: no sum of the named cards' fees
    (
        "You hold the Summit Cash Plus and the Summit Cash Preferred. Total annual fees: $255.",
        None,
        _FEE,
        _FEE,
    ),
]

CASES = WORKED
_FLAG_OF = {"worked_33": WORKED}


(
    test_ruleset33_reads_each_class,
    test_each_flag_alone_reads_its_class,
    test_the_red_teams_texts_flag_nothing_new_and_lose_nothing,
) = precision_ruleset_tests(32, 33, CASES, _FLAG_OF, ATTACKS_33)


def test_worked_figures_stay_within_limits() -> None:
    catalog = Catalog.from_records(CARDS, ELIGIBILITY)
    # 100 kB of wrong fee figures among dollar amounts and rates: the reading reads at most 64
    # figures an answer, each against a bounded set of operands
    chunk = (
        "Summit Cash Plus: $97 a year. On your $2,113 a month at 2.5%, $6,000 moved, a $75 "
        "bonus, $123 and $456 in fees, 4x dining, total $9,999. "
    )
    text = (chunk * (100_000 // len(chunk)))[:100_000]
    for body in (text, text.replace(". ", ".\n\n")):
        timings = {}
        for ruleset in (32, 33):
            started = time.process_time()
            verify_response(body, catalog, ruleset=ruleset)
            timings[ruleset] = time.process_time() - started
        assert timings[33] < 60, timings
