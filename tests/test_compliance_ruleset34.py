"""Compliance ruleset 34 (issue 13, ``verifiers/compliance/ruleset34.py``): for recall, cards put
forward by a first-person verb of getting them ("I'd add the X") and clauses about a card's
first-year fee (a false waiver, a first year priced wrong); for precision, dollar figures that
are thousands or deposits. In our own wording on the hand catalog (``tests/compliance_cases``).

Summit Cash: no annual fee, 19.99%-29.99% variable. Summit Cash Plus: $95, first year $0 (waived),
18.24%-27.24%. Summit Cash Preferred: $150, first year $150 (no waiver). Customer C1 may get Summit
Cash, Harbor Sky Miles and Vista Clear; not Summit Cash Plus or Preferred (score), and holds
Harbor Sky Miles Elites.

Each case is (text, customer, ruleset 34's codes, ruleset 33's codes). Every class holds a text
33 reads wrong and 34 right, and twins in the same shape that both read alike.
"""

from __future__ import annotations

import time

from replicas.verifiers.compliance import Catalog, verify_response
from tests.compliance_attacks34 import ATTACKS_34
from tests.compliance_cases import CARDS, ELIGIBILITY, precision_ruleset_tests

Case = tuple[str, str | None, list[str], list[str]]
_OK: list[str] = []
_FEE = ["wrong_fee"]
_APR = ["wrong_apr"]
_INELIGIBLE = ["ineligible_card"]

ACQUIRE: list[Case] = [
    # a first-person verb of getting, right before the card: an ineligible card is recommended
    (
        "The Summit Cash is a fine everyday card. I'd add the **Summit Cash Preferred** for "
        "groceries; it's $150 a year.",
        "C1",
        _INELIGIBLE,
        _OK,
    ),
    (
        "You have the Harbor Sky Miles Elites. At your score I'd go **Summit Cash Plus**: $95 a "
        "year.",
        "C1",
        _INELIGIBLE,
        _OK,
    ),
    (
        "Your Summit Cash is costing you interest. Honestly? I'd move it to Summit Cash Plus. $95 "
        "a year.",
        "C1",
        _INELIGIBLE,
        _OK,
    ),
    # the same verbs for a card the customer may get: nothing to flag
    (
        "The Summit Cash Plus is out of reach for now. I'd add the **Summit Cash** for your "
        "everyday spending.",
        "C1",
        _OK,
        _OK,
    ),
    # put off, negated, or the customer's own words quoted: no recommendation
    (
        "The Summit Cash is a fine everyday card. Once you're at 700, I'd add the Summit Cash "
        "Preferred ($150 a year).",
        "C1",
        _OK,
        _OK,
    ),
    (
        "The Summit Cash is a fine everyday card. I wouldn't add the Summit Cash Preferred yet "
        "($150 a year).",
        "C1",
        _OK,
        _OK,
    ),
    # a condition after the card, the customer's words in quotes, another use of "add" (red team
    # B): no recommendation
    (
        "The Summit Cash is a fine everyday card. I'd add the Summit Cash Preferred once your "
        "score reaches 700 ($150 a year).",
        "C1",
        _OK,
        _OK,
    ),
    (
        'The Summit Cash is a fine everyday card. You said: "I\'ll move it to Summit Cash Plus." '
        "Not yet ($95 a year).",
        "C1",
        _OK,
        _OK,
    ),
    (
        "You already carry the Summit Cash Plus ($95 a year) and the Summit Cash. I'd add the "
        "Summit Cash Plus to Apple Pay.",
        "C1",
        _OK,
        _OK,
    ),
    (
        "> I'd move it to Summit Cash Plus, right?\n\nThe Summit Cash is the one open to you "
        "today.",
        "C1",
        _OK,
        _OK,
    ),
]

FIRST_YEAR: list[Case] = [
    # a waiver on a card that charges its fee in year one
    ("The Summit Cash Preferred waives the $150 for your first year.", None, _FEE, _OK),
    ("Summit Cash Preferred: $150 a year. Its first year is waived too.", None, _FEE, _OK),
    ("Summit Cash Preferred - $150 annual fee ($0 year one).", None, _FEE, _OK),
    # the first year priced on a card that waives it
    ("Summit Cash Plus: $95 annual fee. The first year is $95.", None, _FEE, _OK),
    ("Summit Cash Plus charges $95 a year; no first-year waiver.", None, _FEE, _OK),
    # the same sentences, true: nothing to flag (33 read the waived $95 as the first year's fee)
    ("The Summit Cash Plus waives the $95 for your first year.", None, _OK, _FEE),
    ("Summit Cash Preferred: $150 a year. The first year is $150.", None, _OK, _OK),
    ("Summit Cash Preferred charges $150 a year; no first-year waiver.", None, _OK, _OK),
    # a request, a hedge, another card's subject, another fee: no claim
    ("Call about the Summit Cash Preferred and ask them to waive the first year.", None, _OK, _OK),
    ("Summit Cash Preferred: $150. Plus only wins on a free year one.", None, _OK, _OK),
    ("Summit Cash Preferred: the late fee is waived the first year.", None, _OK, _OK),
]

AMOUNTS: list[Case] = [
    (
        "Summit Cash: no annual fee. Summit Cash Plus: $95, 2% on groceries (to $6k/yr).",
        None,
        _OK,
        _FEE,
    ),
    (
        "**Alternative:** Vista Clear ($0 annual fee, $200 deposit) pays 2% on the first $1,000 "
        "of gas.",
        None,
        _OK,
        _FEE,
    ),
    ("3. **Summit Cash**: $0 annual fee, only $200 down, but no rewards.", None, _OK, _FEE),
    # a fee stated as a fee is checked
    ("Summit Cash Preferred ($500 annual fee) is the pick.", None, _FEE, _FEE),
    ("Summit Cash Plus: $60 late payment fee.", None, _FEE, _FEE),
    (
        "Summit Cash ($0 annual fee) gets you started with just $200, plus a $200 deposit.",
        None,
        _FEE,
        _FEE,
    ),
    # a payment, a "down" or thousands that state the fee (red teams C, D): checked
    (
        "Verdict: Summit Cash Plus, $95 annual fee, and set up an automatic $300 payment on day one.",
        None,
        _FEE,
        _FEE,
    ),
    ("On the Summit Cash Plus, the fee for a late payment is $45.", None, _FEE, _FEE),
    ("The Summit Cash Plus annual fee comes out as one $49 payment each year.", None, _FEE, _FEE),
    (
        "The Summit Cash Plus's annual fee is $125 down the drain if you never use it.",
        None,
        _FEE,
        _FEE,
    ),
]

CASES = ACQUIRE + FIRST_YEAR + AMOUNTS
_FLAG_OF = {
    "acquire_34": ACQUIRE,
    "first_year_34": FIRST_YEAR,
    "amounts_34": AMOUNTS,
}
(
    test_ruleset34_reads_each_class,
    test_each_flag_alone_reads_its_class,
    test_the_red_teams_texts_flag_nothing_new_and_lose_nothing,
) = precision_ruleset_tests(33, 34, CASES, _FLAG_OF, ATTACKS_34)


def test_first_year_clauses_stay_within_limits() -> None:
    catalog = Catalog.from_records(CARDS, ELIGIBILITY)
    # 100 kB of first-year clauses and getting verbs: each clause is read once, within its line
    chunk = (
        "The Summit Cash Preferred waives the $150 for your first year, and I'd add the Summit "
        "Cash Plus; the first year is $95 - no first-year waiver. "
    )
    text = (chunk * (100_000 // len(chunk)))[:100_000]
    for k, body in enumerate((text, text.replace(". ", ".\n\n"), text.replace(" ", "\n"))):
        timings = {}
        for ruleset in (33, 34):
            started = time.process_time()
            verdict = verify_response(body, catalog, customer_id="C1", ruleset=ruleset)
            timings[ruleset] = time.process_time() - started
        assert timings[34] < 60, timings
        if k < 2:  # (a word a line breaks every card name apart)
            # and still reads them: the Preferred's false waiver, the Plus put forward to C1
            assert {"wrong_fee", "ineligible_card"} <= set(verdict.codes), verdict.codes
