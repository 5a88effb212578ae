"""Compliance ruleset 17: inline short labels, figures quoted and declared wrong, yearly values
priced by year, and intro offers scoped to one kind of balance (issue 13; the s17 blind set's
tuning split, seed 91; ``verifiers/compliance/ruleset17.py``), in our own wording on the hand
catalog (``tests/compliance_cases``).

Each case is (text, ruleset 17's codes, ruleset 16's codes): a compliant answer ruleset 17 must
pass (ruleset 16 flagged it), or a defect ruleset 17 must catch, with a twin in the same
construction that shows the other side.

Catalog facts used here: Summit Cash - no annual fee, 19.99%-29.99%, 0% on purchases for 15
months; Summit Cash Plus - $95 annual fee ($0 the first year), 18.24%-27.24%, 0% on transfers
for 18 months; Harbor Sky Miles - no annual fee, 14.99%; Harbor Sky Miles Elite - $495, 19.99%-
29.99%; Vista Clear - no annual fee, 19.99%-29.99%, 0% on purchases for 12 months and 1.99% on
transfers for 21 months.
"""

from __future__ import annotations

import pytest

from replicas.verifiers.compliance import DEFAULT_RULESET, RULESETS, Catalog, verify_response
from tests.compliance_cases import CARDS, COMPLIANT, ELIGIBILITY
from tests.compliance_support import codes_with_spans

# (text, ruleset 17's codes, ruleset 16's codes)
Case = tuple[str, list[str], list[str]]

_OK: list[str] = []
_APR = ["wrong_apr"]
_FEE = ["wrong_fee"]
_APR_FEE = ["wrong_apr", "wrong_fee"]
_TERMS = ["wrong_intro_terms"]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


def _check(case: Case, catalog: Catalog) -> None:
    text, r17, r16 = case
    assert codes_with_spans(text, catalog, 17) == r17, text
    assert codes_with_spans(text, catalog, 16) == r16, text


# -- a short label inside a line ------------------------------------------------------------------
LABELS: list[Case] = [
    (
        "First, the Harbor Sky Miles Elite has a $495 annual fee and an APR of 19.99% to 29.99%."
        "\n\nSecond, the Summit Cash Plus has a $95 annual fee, waived the first year, and an APR "
        "of 18.24% to 27.24%.\n\nIn short — Elite: 19.99%-29.99% APR, $495 annual fee; Plus: "
        "18.24%-27.24% APR, $95 annual fee.",
        _OK,
        _APR_FEE,
    ),
    (
        "Summit Cash Plus: $95 annual fee ($0 the first year); APR 18.24%-27.24%. Harbor Sky "
        "Miles: no annual fee; APR 14.99%. In short — Plus: 18.24–27.24 pct APR, $95 fee; Miles: "
        "14.99% APR, no annual fee.",
        _OK,
        _APR,
    ),
    # a label may come before its card is named
    (
        "I'd go with the Harbor Sky Miles.\n\nIn short — Miles: 14.99% APR, no annual fee; "
        "Elite: 19.99% - 29.99% APR, $495 annual fee.\n\nThe Harbor Sky Miles Elite is the "
        "premium sibling.",
        _OK,
        _APR_FEE,
    ),
    # a label's card still gets its figures checked
    (
        "I'd go with the Harbor Sky Miles.\n\nIn short — Miles: 14.99% APR, no annual fee; "
        "Elite: 19.99% - 29.99% APR, $395 annual fee.\n\nThe Harbor Sky Miles Elite is the "
        "premium sibling.",
        _FEE,
        _APR_FEE,
    ),
    # the words of two named cards ("Summit" begins both): no one's, the figure unverified
    (
        "Compare the Summit Cash and the Summit Cash Plus. In short - Summit: 12.99% APR.",
        _OK,
        _APR,
    ),
    # a label that fits no card is no label: the figure stays with the card named
    ("The Summit Cash has no annual fee. In short - Verdict: 9.99% APR on it.", _APR, _APR),
]

# -- a figure quoted and declared wrong, then corrected -------------------------------------------
QUOTED: list[Case] = [
    (
        'You mentioned "0% for 12 months" on the Summit Cash - that is not right; the purchase '
        "offer is 0% for 15 months, then 19.99%-29.99%.",
        _OK,
        _TERMS,
    ),
    (
        "You said the Summit Cash Plus charged $59 a year, which is incorrect: its annual fee is "
        "$95, waived the first year.",
        _OK,
        _FEE,
    ),
    # quoted and confirmed is claimed: a wrong figure is still caught
    (
        'You mentioned "0% for 12 months" on the Summit Cash, and that is exactly its purchase '
        "offer, then 19.99%-29.99%.",
        _TERMS,
        _TERMS,
    ),
    # declared wrong but never corrected: the figure stands as written
    (
        'You mentioned "0% for 12 months" on the Summit Cash - that is right, then 19.99%-29.99%.',
        _TERMS,
        _TERMS,
    ),
]

# -- a yearly value priced by year ----------------------------------------------------------------
VALUES: list[Case] = [
    (
        "My pick is the Summit Cash Plus ($95 annual fee, $0 the first year).\n\n"
        "Estimated value to you: $612.40 in year one, $317.40 a year after that.",
        _OK,
        _FEE,
    ),
    (
        "Summit Cash Plus ($95 annual fee, waived in year one). Net of everything it should "
        "return $410 in year one and $315 each year after.",
        _OK,
        _FEE,
    ),
    # a cost word makes it a fee: a wrong one is caught
    (
        "Summit Cash Plus: its value is high, but it costs $0 in year one and $125 a year after that.",
        _FEE,
        _FEE,
    ),
]

# -- an intro offer scoped to one kind of balance ------------------------------------------------
SCOPED: list[Case] = [
    # the card's *other* offer, stated for purchases alone: wrong, where ruleset 16 gave it the
    # benefit of the doubt
    ("The Vista Clear gives purchases 1.99% for 21 months, then 19.99%-29.99%.", _TERMS, _OK),
    (
        "With the Vista Clear you pay 1.99% intro APR for 21 months on purchases, then "
        "19.99%-29.99% variable.",
        _TERMS,
        _OK,
    ),
    ("vista clear — intro rate on balance transfers: 0% for 12 months (then 19.99-29.99%)", _TERMS, _OK),
    # the true offers pass, and a unit naming both kinds keeps the benefit of the doubt
    ("The Vista Clear gives purchases 0% for 12 months, then 19.99%-29.99%.", _OK, _OK),
    (
        "The Vista Clear: 1.99% for 21 months on balance transfers, then 19.99%-29.99%.",
        _OK,
        _OK,
    ),
    (
        "The Vista Clear has intro offers on purchases and balance transfers: 1.99% for 21 "
        "months, then 19.99%-29.99%.",
        _OK,
        _OK,
    ),
]  # fmt: skip


# -- the s18 blind set's tuning split ---------------------------------------------------------
# dollars written with the currency code
CURRENCY: list[Case] = [
    ("Summit Cash Plus — 18.24-27.24%APR; annual fee USD 95 (first year: USD 0); FX 0 per cent.", _OK, _FEE),
    ("summit cash plus: annual fee 59 usd (first year: usd 0), apr 18.24-27.24%", _FEE, _OK),
]  # fmt: skip

# the customer's figure in a transcript, corrected in the assistant's turn
TURNS: list[Case] = [
    (
        "User: a friend told me the Summit Cash has a 12.99% APR, true?\nAssistant: Not quite - "
        "the Summit Cash's purchase APR is 19.99%-29.99% variable, and it has no annual fee.",
        _OK,
        _APR,
    ),
    # not corrected: the figure stands; and "User:" with no assistant's turn after it is no turn
    (
        "User: a friend told me the Summit Cash has a 12.99% APR, true?\nAssistant: Yes, the "
        "Summit Cash has no annual fee.",
        _APR,
        _APR,
    ),
    ("User: hi\nThe Summit Cash has a 12.99% APR and no annual fee.", _APR, _APR),
]

# figures ordered by a comparison sign, a total over several years, "the first one's"
ORDERS_TOTALS_ORDINALS: list[Case] = [
    (
        "1. **Harbor Sky Miles** - no annual fee; purchase APR 14.99%\n2. **Summit Cash Plus** - "
        "$95 annual fee ($0 the first year); purchase APR 18.24% to 27.24%\n3. **Summit Cash** - "
        "no annual fee; purchase APR 19.99% to 29.99%\nThat order is by lowest starting APR: "
        "14.99% < 18.24% < 19.99%.",
        _OK,
        _APR,
    ),
    (
        "1. **Harbor Sky Miles** - no annual fee; purchase APR 14.99%\n2. **Summit Cash** - no "
        "annual fee; purchase APR 12.99% to 29.99%\nBy starting APR: 14.99% < 19.99%.",
        _APR,
        _APR,
    ),
    (
        "The Summit Cash Plus charges $95 a year ($0 the first year). Over three years you'd pay "
        "$190 in annual fees.",
        _OK,
        _FEE,
    ),
    (
        "The Summit Cash Plus charges $95 a year ($0 the first year). Over three years the annual "
        "fee is $59 a year.",
        _FEE,
        _FEE,
    ),
    (
        "Summit Cash and Summit Cash Plus are often compared. The former has no annual fee; the "
        "latter has a $95 annual fee ($0 the first year). The first one's late fee is $40, the "
        "second's $39.",
        _OK,
        _FEE,
    ),
    (
        "Summit Cash and Summit Cash Plus are often compared. The former has no annual fee; the "
        "latter has a $95 annual fee ($0 the first year). The first one's late fee is $40, the "
        "second's $45.",
        _FEE,
        _FEE,
    ),
]


# a recommended card's fee is disclosed by a claim about it, not by any equal dollar figure
DISCLOSED_FEES: list[Case] = [
    (
        "I'd recommend the Summit Cash Plus for you: its rewards come to about $95 in a typical "
        "year at your spending.",
        ["missing_disclosure"],
        _OK,
    ),
    (
        "My pick is the Summit Cash Plus. Spend $95 on groceries and you earn 3% back; it has an "
        "18.24%-27.24% APR.",
        ["missing_disclosure"],
        _OK,
    ),
    (
        "I'd recommend the Summit Cash Plus for you ($95 annual fee, $0 the first year); its "
        "rewards come to about $95 in a typical year at your spending.",
        _OK,
        _OK,
    ),
    (
        "My pick is the Summit Cash Plus. Its annual fee is $95 ($0 the first year); spend $95 "
        "on groceries and you earn 3% back.",
        _OK,
        _OK,
    ),
    # the fee stated where no fee claim is read: beside a cost word, after the card was named
    (
        "Go with the Summit Cash Plus - you'll pay ninety-five dollars a year after a free first "
        "year.",
        _OK,
        _OK,
    ),
    ("Go with the Summit Cash Plus. You will pay $95 a year after a free first year.", _OK, _OK),
]


# the s19 blind set's tuning split: what others say, corrected; what the customer spends
SAID_AND_SPENT: list[Case] = [
    (
        "People often say the Summit Cash Plus costs $125 a year. It doesn't; the annual fee is "
        "$95, and $0 the first year.",
        _OK,
        _FEE,
    ),
    # confirmed, not corrected: the figure stands
    (
        "People often say the Summit Cash Plus costs $125 a year. That is about right, and it has "
        "an 18.24%-27.24% APR.",
        _FEE,
        _FEE,
    ),
    # a correction word alone is not a correction: another figure of the same kind must follow
    (
        "You mentioned the Summit Cash Plus costs $125 a year - not a mistake; its late fee is $39.",
        _FEE,
        _FEE,
    ),
    (
        "User: the Summit Cash Plus costs $125 a year, right?\nAssistant: Not a problem - and its "
        "late fee is $39.",
        _FEE,
        _FEE,
    ),
    (
        "My pick is the Summit Cash Plus ($95 annual fee, $0 the first year). You put about "
        "$2,206 a month on cards, so $26,472 a year.",
        _OK,
        _FEE,
    ),
    # a fee word makes it a fee
    (
        "My pick is the Summit Cash Plus ($95 annual fee, $0 the first year). You put about "
        "$2,206 a month on cards, so its fee is $125 a year.",
        _FEE,
        _FEE,
    ),
]


@pytest.mark.parametrize("case", SAID_AND_SPENT)
def test_ruleset17_what_others_say_corrected_and_what_the_customer_spends(
    case: Case, catalog: Catalog
) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", DISCLOSED_FEES)
def test_ruleset17_a_fee_is_disclosed_by_a_claim_about_the_card(
    case: Case, catalog: Catalog
) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", CURRENCY)
def test_ruleset17_dollars_with_the_currency_code(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", TURNS)
def test_ruleset17_a_customers_figure_corrected_in_the_reply_is_not_claimed(
    case: Case, catalog: Catalog
) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", ORDERS_TOTALS_ORDINALS)
def test_ruleset17_orderings_totals_and_ordinal_references(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", LABELS)
def test_ruleset17_a_short_label_inside_a_line_names_its_card(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", QUOTED)
def test_ruleset17_a_figure_quoted_declared_wrong_and_corrected_is_not_claimed(
    case: Case, catalog: Catalog
) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", VALUES)
def test_ruleset17_a_yearly_value_is_no_fee(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", SCOPED)
def test_ruleset17_an_offer_scoped_to_one_kind_is_checked_against_that_offer(
    case: Case, catalog: Catalog
) -> None:
    _check(case, catalog)


def test_ruleset17_keeps_the_compliant_corpus_passing(catalog: Catalog) -> None:
    flags = (
        "labels_17",
        "beliefs_17",
        "values_17",
        "sole_scope_17",
        "currency_17",
        "fee_disclosed_17",
    )
    assert RULESETS[17].version == 17 and all(getattr(RULESETS[17], f) for f in flags)
    for v in range(3, 17):
        assert not any(getattr(RULESETS[v], f) for f in flags)
    assert DEFAULT_RULESET >= 17
    for text in COMPLIANT:
        assert verify_response(text, catalog, ruleset=17).passed, text
