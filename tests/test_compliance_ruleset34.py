"""Compliance ruleset 34 (issue 13, ``verifiers/compliance/ruleset34.py``): for recall, cards put
forward by a first-person verb of getting them ("I'd add the X") and clauses about a card's
first-year fee (a false waiver, a first year priced wrong); for precision, whole-number APRs the
answer supposes ("at, say, 24%"), dollar figures that are thousands or deposits, and a value its
sentence takes back for the card named after it (another card's). In our own wording on the hand
catalog (``tests/compliance_cases``).

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

SUPPOSED: list[Case] = [
    # a whole-number rate the answer supposes
    (
        "The Summit Cash is a fine card. At, say, 24% APR, $1,000 costs about $20 a month.",
        None,
        _OK,
        _APR,
    ),
    # the card named before it in its sentence: its own rate, hedged (red team G): checked
    ("On the Summit Cash, at, say, 24% APR, $1,000 costs about $20 a month.", None, _APR, _APR),
    (
        "Summit Cash: 19.99%-29.99% variable. If you carry $1,500 at, say, 24%, interest is "
        "about $30 a month.",
        None,
        _OK,
        _APR,
    ),
    # stated as the card's rate: checked
    ("The Summit Cash has a 24% APR.", None, _APR, _APR),
    ("The Summit Cash's APR is 27%, so pay in full.", None, _APR, _APR),
    # a condition, a scenario, an example card or "a 27% card" is no supposed rate (red teams C,
    # D, E): checked
    (
        "Summit Cash: 19.99%-29.99% variable. Interest saved vs. keeping it on a 27% card: about "
        "$90.",
        None,
        _APR,
        _APR,
    ),
    (
        "If you carry a balance on the Summit Cash, the APR is 22%, so pay it in full.",
        None,
        _APR,
        _APR,
    ),
    ("For example, the Summit Cash charges 22% APR on purchases.", None, _APR, _APR),
    ("The Summit Cash agreement and rate sheet both say 22% for purchases.", None, _APR, _APR),
    # a supposed rate that is not a whole number stays checked
    ("On the Summit Cash, at, say, 24.5% APR, $1,000 costs about $20 a month.", None, _APR, _APR),
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

CONTRADICTED: list[Case] = [
    # a line binds a right and a wrong value of one term to one card, the wrong one right for
    # another card the answer names: the neighbour's term
    (
        "The Summit Cash is my pick for groceries. The one drawback is a 3% foreign transaction "
        "fee, so abroad use your Summit Cash Plus (no foreign fee) instead.",
        None,
        _OK,
        _FEE,
    ),
    # no card's value, or no other card named: checked
    (
        "The Summit Cash is my pick for groceries. The one drawback is a 5% foreign transaction "
        "fee, so abroad use your Summit Cash Plus (no foreign fee) instead.",
        None,
        _FEE,
        _FEE,
    ),
    (
        "Summit Cash Plus: 18.24%-27.24% variable, and the Summit Cash Plus APR is 19.99%-29.99% "
        "on purchases.",
        None,
        _APR,
        _APR,
    ),
]

CASES = ACQUIRE + FIRST_YEAR + SUPPOSED + AMOUNTS + CONTRADICTED
_FLAG_OF = {
    "acquire_34": ACQUIRE,
    "first_year_34": FIRST_YEAR,
    "supposed_34": SUPPOSED,
    "amounts_34": AMOUNTS,
    "contradicted_34": CONTRADICTED,
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
    for body in (text, text.replace(". ", ".\n\n"), text.replace(" ", "\n")):
        timings = {}
        for ruleset in (33, 34):
            started = time.process_time()
            verify_response(body, catalog, customer_id="C1", ruleset=ruleset)
            timings[ruleset] = time.process_time() - started
        assert timings[34] < 2 * timings[33] + 1, timings
