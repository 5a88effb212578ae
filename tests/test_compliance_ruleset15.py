"""Compliance ruleset 15: the classes the s16 blind set's tuning split showed (issue 13, seed 81;
``verifiers/compliance/ruleset15.py``), one group per class, in our own wording on the hand
catalog (``tests/compliance_cases``).

Each case is (text, ruleset 15's codes, ruleset 14's codes): a compliant answer ruleset 15 must
pass (ruleset 14 flagged it) and a defect in the same construction it must still catch.

Catalog facts used here: Summit Cash - no annual fee, 3% balance transfer fee, 19.99%-29.99%
variable, 0% on purchases for 15 months; Summit Cash Plus - $95 annual fee ($0 the first year),
5% balance transfer fee (min $5), 18.24%-27.24% variable, 0% on transfers for 18 months; Vista
Clear - 0% on purchases for 12 months, 1.99% on transfers for 21 months.
"""

from __future__ import annotations

import pytest

from replicas.verifiers.compliance import DEFAULT_RULESET, RULESETS, Catalog, verify_response
from tests.compliance_cases import CARDS, COMPLIANT, ELIGIBILITY
from tests.compliance_support import codes_with_spans

# (text, ruleset 15's codes, ruleset 14's codes)
Case = tuple[str, list[str], list[str]]

_OK: list[str] = []
_FEE = ["wrong_fee"]
_APR = ["wrong_apr"]
_MD = ["missing_disclosure"]
_TERMS = ["wrong_intro_terms"]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


def _check(case: Case, catalog: Catalog) -> None:
    text, r15, r14 = case
    assert codes_with_spans(text, catalog, 15) == r15, text
    assert codes_with_spans(text, catalog, 14) == r14, text


# -- claims 1. a yearly value with its first year in brackets -------------------------------------
YEARLY_VALUES: list[Case] = [
    (
        "The Summit Cash Plus has a $95 annual fee. I'd put its net value for you near $400 a year "
        "($520 in year one).",
        _OK,
        _FEE,
    ),
    (
        "The Summit Cash Plus has a $95 annual fee. Its rewards should be worth roughly $300 per "
        "year, or $450 in the first year.",
        _OK,
        _FEE,
    ),
    (
        "Summit Cash Plus: annual fee $95. Expected savings: ~$210 annually [$305 in the first year].",
        _OK,
        _FEE,
    ),
    # defects in the same construction: the bracket follows a fee, so it is the first-year fee
    (
        "The Summit Cash Plus has an annual fee of $95 a year ($60 in year one).",
        _FEE,
        _FEE,
    ),
    (
        "The Summit Cash Plus costs $120 a year ($0 the first year), and its rewards are worth more.",
        _FEE,
        _FEE,
    ),
]

# -- claims 2. a periodic rate worked out from the APR ------------------------------------------
PERIODIC_RATES: list[Case] = [
    (
        "The Summit Cash has a 19.99%-29.99% variable APR; that is about 1.67% of interest per month "
        "at the low end.",
        _OK,
        _APR,
    ),
    (
        "The Summit Cash carries a 19.99%-29.99% variable APR, which is a monthly periodic rate "
        "of roughly 1.67% at the low end.",
        _OK,
        _APR,
    ),
    (
        "The Summit Cash has a 19.99%-29.99% variable APR (19.99% APR over twelve months is 1.67% a "
        "month).",
        _OK,
        ["wrong_intro_terms"],
    ),
    (
        "The Summit Cash has a 19.99%-29.99% variable APR; the monthly interest rate is about 1.67% "
        "at the low end.",
        _OK,
        _APR,
    ),
    # defects: the APR the periodic rate is worked out from is still checked
    (
        "The Summit Cash has a 19.99%-29.99% variable APR (21.99% APR \u00f7 12 \u2248 1.83% a month).",
        _APR,
        _APR,
    ),
    (
        "The Summit Cash has a 17.99%-29.99% variable APR; the monthly periodic rate is about 1.5%.",
        _APR,
        _APR,
    ),
]

# -- claims 3. a myth that a 0% offer means no fee -----------------------------------------------
DENIED_MEANINGS: list[Case] = [
    (
        "The Summit Cash Plus has a $95 annual fee. Careful: a 0% intro rate on transfers doesn't "
        "mean moving a balance costs nothing - the Summit Cash Plus charges 5% (minimum $5).",
        _OK,
        ["missing_disclosure", "wrong_fee"],
    ),
    (
        "The Summit Cash Plus has a $95 annual fee. Remember that 0% interest on a transfer is not "
        "the same as no balance transfer fee; the Summit Cash Plus charges 5% (min $5).",
        _OK,
        _FEE,
    ),
    # defects: the fee stated after the myth is checked; a plain "no fee" claim still is
    (
        "The Summit Cash Plus has a $95 annual fee. A 0% transfer offer does not mean transfers "
        "are free: on the Summit Cash Plus each transfer costs 3% (minimum $5).",
        _FEE,
        _FEE,
    ),
    (
        "The Summit Cash Plus has a $95 annual fee. Don't worry about fees when you move a "
        "balance: there is no balance transfer fee.",
        _FEE,
        _FEE,
    ),
]

# -- claims 4. the other card's fee in a comparison ------------------------------------------------
COMPARED_FEES: list[Case] = [
    # defects: the compared card's fee is wrong (Summit Cash Plus: $95)
    (
        "The Summit Cash Preferred runs $150 a year, which is $41 more than the Summit Cash Plus's $109.",
        _FEE,
        _OK,
    ),
    (
        "The Summit Cash Preferred has a $150 annual fee, versus the Summit Cash Plus's $109.",
        _FEE,
        _OK,
    ),
    (
        "The Summit Cash Preferred has a $150 annual fee, $41 more than the $109 of the Summit Cash Plus.",
        _FEE,
        _OK,
    ),
    # compliant twins: the right fee in the same constructions
    (
        "The Summit Cash Preferred runs $150 a year, which is $55 more than the Summit Cash Plus's $95.",
        _OK,
        _OK,
    ),
    (
        "The Summit Cash Preferred has a $150 annual fee, $55 more than the $95 on the Summit Cash Plus.",
        _OK,
        _OK,
    ),
    # hard negative: the difference alone binds nothing
    (
        "The Summit Cash Preferred has a $150 annual fee, $20 more than you may expect.",
        _OK,
        _OK,
    ),
]

# -- text 1. an intro offer whose length sits in a footnote ---------------------------------------
FOOTNOTE_OFFERS: list[Case] = [
    (
        "Summit Cash - 0% intro APR on purchases\u2020\n\nNo annual fee.\n\n"
        "\u2020 Lasts 15 months; then 19.99%-29.99% variable APR.",
        _OK,
        _MD,
    ),
    (
        "Summit Cash: 0% intro APR on purchases[1]\n\nNo annual fee.\n\n"
        "[1] For the first fifteen months, then a 19.99%-29.99% variable APR.",
        _OK,
        _MD,
    ),
    (
        "Summit Cash: a 0% introductory rate on purchases\u00b9\n\nNo annual fee.\n\n"
        "\u00b9 Good for 15 billing cycles; after that 19.99%-29.99% variable.",
        _OK,
        _MD,
    ),
    (
        "**Summit Cash** - 0% intro APR on purchases*\n\nNo annual fee.\n\n"
        "\\* 15 months from opening, then 19.99%-29.99% variable APR.",
        _OK,
        _MD,
    ),
    # defects: a wrong length in the footnote is wrong intro terms
    (
        "Summit Cash - 0% intro APR on purchases\u2020\n\nNo annual fee.\n\n"
        "\u2020 Lasts 12 months; then 19.99%-29.99% variable APR.",
        _TERMS,
        _MD,
    ),
    (
        "Summit Cash: 0% intro APR on purchases[1]\n\nNo annual fee.\n\n"
        "[1] For the first twenty-one months, then a 19.99%-29.99% variable APR.",
        _TERMS,
        _MD,
    ),
    # hard negatives: a bold phrase's closing "**" is no marker; a footnote with no length
    (
        "**Summit Cash - 0% intro APR on purchases**\n\nNo annual fee.\n\n"
        "** For 15 months; then 19.99%-29.99% variable APR.",
        _MD,
        _MD,
    ),
    (
        "Summit Cash - 0% intro APR on purchases\u2020\n\nNo annual fee.\n\n"
        "\u2020 Then 19.99%-29.99% variable APR.",
        _MD,
        _MD,
    ),
]


# -- names 1. an issuer's first word before an invented product, in lower case --------------------
# (on the hand catalog with the Vista Clear issued by "Willow Creek Bank")
ISSUER_FIRST_WORDS: list[Case] = [
    (
        "quick answer: the summit cash has no annual fee. willow ascent cash offers a $95 annual "
        "fee and a 19.99%-29.99% variable apr.",
        ["unknown_card"],
        _FEE,
    ),
    (
        "the summit cash has no annual fee and 0% intro apr on purchases for 15 months, then "
        "19.99%-29.99% variable. willow ascent cash's annual fee is $95.",
        ["unknown_card"],
        _FEE,
    ),
    (
        "for travel, willow ascent miles could work. i'd still pick the summit cash (no annual "
        "fee) over willow ascent miles.",
        ["unknown_card"],
        _OK,
    ),
    # compliant twins: the issuer's whole name; an invented name used once, not as a card; no
    # unfamiliar word (a programme, not a product)
    (
        "quick answer: the summit cash has no annual fee. willow creek bank also issues the vista "
        "clear, which has no annual fee.",
        _OK,
        _OK,
    ),
    (
        "quick answer: the summit cash has no annual fee. the willow ascent cash card from your "
        "local bank may also suit you.",
        _OK,
        _OK,
    ),
    (
        "quick answer: the summit cash has no annual fee. willow rewards cash offers points on groceries.",
        _OK,
        _OK,
    ),
]


@pytest.fixture(scope="module")
def willow_catalog() -> Catalog:
    cards = [
        dict(c, issuer="Willow Creek Bank") if c["card_name"] == "Vista Clear" else c for c in CARDS
    ]
    return Catalog.from_records(cards, ELIGIBILITY)


@pytest.mark.parametrize("case", ISSUER_FIRST_WORDS)
def test_ruleset15_issuer_first_words(case: Case, willow_catalog: Catalog) -> None:
    _check(case, willow_catalog)


@pytest.mark.parametrize("case", YEARLY_VALUES + PERIODIC_RATES + DENIED_MEANINGS + COMPARED_FEES)
def test_ruleset15_claims(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", FOOTNOTE_OFFERS)
def test_ruleset15_footnote_offers(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


def test_ruleset15_keeps_the_compliant_corpus_passing(catalog: Catalog) -> None:
    flags = ("footnote_offers_15", "claims_15", "names_15")
    assert RULESETS[15].version == 15
    assert all(getattr(RULESETS[15], f) for f in flags)
    for v in range(3, 15):
        assert not any(getattr(RULESETS[v], f) for f in flags)
    assert DEFAULT_RULESET >= 15  # 16 since stop 30: 15's readings are part of the default
    for text in COMPLIANT:
        assert verify_response(text, catalog, ruleset=15).passed, text
