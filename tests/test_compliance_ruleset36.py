"""Compliance ruleset 36 (issue 13, ``verifiers/compliance/ruleset36.py``): for precision, a fee
figure bound to the card an answer turns to instead is checked against the card the text was
talking about (``alternative_36``). In our own wording on the hand catalog
(``tests/compliance_cases``); the red teams' texts (``tests/compliance_attacks36``) include
those of the three readings written and dropped (``held_36``, ``within_36``, ``names_36``), as
guards for any later reading of their classes.

The hand catalog: Summit Cash charges a 3% foreign fee and a 3% transfer fee; Harbor Sky Miles
and Summit Cash Plus charge no foreign fee, Summit Cash Plus a 5% transfer fee and $95 a year.

Each case is (text, customer, ruleset 36's codes, ruleset 35's codes). Each class holds texts 35
reads wrong and 36 right, and twins in the same shape that both read alike.
"""

from __future__ import annotations

import time

from replicas.verifiers.compliance import Catalog, verify_response
from tests.compliance_attacks36 import ATTACKS_36
from tests.compliance_cases import CARDS, ELIGIBILITY, precision_ruleset_tests

Case = tuple[str, str | None, list[str], list[str]]
_OK: list[str] = []
_FEE = ["wrong_fee"]

ALTERNATIVE: list[Case] = [
    # the card turned to has its own figure of the term right after it, and another one: the
    # figure before it is the card's named before
    (
        "Summit Cash is a fine everyday card. The foreign transaction fee is 3%, so keep the "
        "Harbor Sky Miles (no foreign fee) for trips.",
        None,
        _OK,
        _FEE,
    ),
    (
        "Summit Cash is my everyday pick. Its one weak spot is a 3% foreign transaction fee, "
        "which the Harbor Sky Miles does better (0%).",
        None,
        _OK,
        _FEE,
    ),
    (
        "Vista Clear is the transfer card. 3% transfer fee, so if you move a balance, pair it "
        "with the Summit Cash Plus (5% transfer fee) only for purchases.",
        None,
        _OK,
        _FEE,
    ),
    # ... and checked against it: wrong for the card named before, flagged
    (
        "Summit Cash Plus is a fine everyday card. The foreign transaction fee is 3%, so keep "
        "the Harbor Sky Miles (no foreign fee) for trips.",
        None,
        _FEE,
        _FEE,
    ),
    # no card named before: left unverified
    (
        "The foreign transaction fee is 3%, so keep the Harbor Sky Miles (no foreign fee) for "
        "trips.",
        None,
        _OK,
        _FEE,
    ),
    # the card's own figure agrees: the figure stays with it (right here)
    (
        "Summit Cash is a fine everyday card. The foreign transaction fee is 0%, so keep the "
        "Harbor Sky Miles (no foreign fee) for trips.",
        None,
        _OK,
        _OK,
    ),
    # no clause break between the figure and the card: the figure is the card's
    (
        "Summit Cash is a fine card. A $150 annual fee applies to the Summit Cash Plus ($0 the "
        "first year).",
        None,
        _FEE,
        _FEE,
    ),
    # a drawback before "so ... keep X" with no figure of X's after it stays X's (the dropped
    # trigger: red team K)
    (
        "There's a 2% foreign transaction fee, so leave the Harbor Sky Miles at home when you "
        "travel.",
        None,
        _FEE,
        _FEE,
    ),
]

CASES = ALTERNATIVE
_FLAG_OF = {"alternative_36": ALTERNATIVE}
(
    test_ruleset36_reads_each_class,
    test_each_flag_alone_reads_its_class,
    test_the_red_teams_texts_flag_nothing_new_and_lose_nothing,
) = precision_ruleset_tests(35, 36, CASES, _FLAG_OF, ATTACKS_36)


def test_rebinding_stays_within_limits() -> None:
    catalog = Catalog.from_records(CARDS, ELIGIBILITY)
    # 100 kB of figures, each before a card with its own disagreeing figure: each figure looks at
    # the claims within a few characters of its card, and the card before it in one step
    chunk = (
        "Summit Cash is fine. The foreign fee is 3%, so keep the Harbor Sky Miles (no foreign "
        "fee) for trips. "
    )
    text = (chunk * (100_000 // len(chunk)))[:100_000]
    timings = {}
    for ruleset in (35, 36):
        started = time.process_time()
        verdict = verify_response(text, catalog, ruleset=ruleset)
        timings[ruleset] = time.process_time() - started
    assert timings[36] < 3 * timings[35] + 1, timings
    assert "wrong_fee" not in verdict.codes, verdict.codes
