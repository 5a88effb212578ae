"""Compliance verifier v2 (issue 13): one group of cases per failure class of v1.

Every sentence the issue quotes is here (adapted to the hand-built catalog of
``tests/compliance_cases``), and each class has at least five sentences of our own wording as well,
compliant ones next to violating ones: a class is only handled when the honest phrasing passes and
the false one fails. Catalog facts the cases rely on:

* Summit Cash: no annual fee, 19.99%-29.99% variable, 0% intro APR on purchases for 15 months, no
  intro offer on balance transfers, BT fee 3% (min $5), cash advance fee 5% (min $10), 3% foreign
  fee, late fee $40, penalty APR 29.99%;
* Summit Cash Plus: $95 annual fee waived the first year, 18.24%-27.24% variable, 0% intro APR on
  balance transfers for 18 months (none on purchases), BT fee 5%, no foreign fee, no penalty APR,
  late fee $39;
* Summit Cash Preferred: $150 annual fee (also the first year), 17.99%-25.99% variable, no intro;
* Harbor Sky Miles: 14.99% fixed, no intro, no foreign fee; Vista Clear: 0% on purchases for 12
  months, 1.99% on balance transfers for 21 months.
"""

from __future__ import annotations

import pytest

from replicas.verifiers.compliance import Catalog, extract_claims, verify_response
from replicas.verifiers.compliance import negation as neg
from tests.compliance_cases import CARDS, ELIGIBILITY

Case = tuple[str, list[str]]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


def _check(text: str, expected: list[str], catalog: Catalog) -> None:
    verdict = verify_response(text, catalog)
    found = sorted(set(verdict.codes))
    assert found == sorted(expected), [(r.code, r.message) for r in verdict.reasons]
    for reason in verdict.reasons:
        assert reason.span is not None and text[reason.span.start : reason.span.end] == (
            reason.span.text
        )


# -- 1. negation and contrast scope ----------------------------------------------------------

NEGATION_SCOPE: list[Case] = [
    # the sentences
    (
        "The Summit Cash Plus has no intro APR on purchases, but balance transfers get 0% for 18 "
        "months, then 18.24%-27.24% variable.",
        [],
    ),
    ("Harbor Sky Miles: 14.99% fixed APR, no intro offer.", []),
    ("Summit Cash: 19.99%-29.99% variable APR, no intro offer.", ["wrong_intro_terms"]),
    # our own wording
    (
        "There's no introductory rate on purchases with the Summit Cash Plus; however, transfers "
        "enjoy 0% for 18 months before the 18.24%-27.24% variable APR kicks in.",
        [],
    ),
    (
        "Unlike the Summit Cash, the Harbor Sky Miles doesn't offer any intro APR, and its rate is "
        "a fixed 14.99%.",
        [],
    ),
    (
        "No annual fee on the Summit Cash, while the Summit Cash Plus charges $95 a year.",
        [],
    ),
    (
        "The Summit Cash Plus has no penalty APR, whereas the Summit Cash's penalty APR is up to "
        "29.99%.",
        [],
    ),
    (
        "The Summit Cash Preferred has no intro offer at all - its 17.99%-25.99% variable APR "
        "applies from day one.",
        [],
    ),
    (
        "The Summit Cash Plus offers no 0% period on purchases, but balance transfers get 0% for "
        "21 months, then 18.24%-27.24% variable.",
        ["wrong_intro_terms"],
    ),
    (
        "The Harbor Sky Miles has no intro APR; the Summit Cash does not either.",
        ["wrong_intro_terms"],
    ),
]


@pytest.mark.parametrize(("text", "expected"), NEGATION_SCOPE)
def test_negation_and_contrast_scope(text: str, expected: list[str], catalog: Catalog) -> None:
    _check(text, expected, catalog)


# -- 2. binding by phrase, not proximity ------------------------------------------------------

BINDING: list[Case] = [
    ("The Summit Cash has a 19.99%-29.99% variable APR and 1.5% cash back on everything.", []),
    ("Summit Cash Plus (18.24%-27.24% variable APR) has no foreign transaction fees.", []),
    ("The Harbor Sky Miles APR is fixed, not variable: 14.99%.", []),
    ("The Summit Cash APR is fixed, not variable: 19.99%-29.99%.", ["wrong_apr"]),
    ("The Summit Cash Plus annual fee is $95 - not the $99 you may have seen.", []),
    ("The Summit Cash Plus annual fee is $99 - not the $95 you may have seen.", ["wrong_fee"]),
    (
        "Compare the Summit Cash Plus and the Summit Cash Preferred:\n- Plus: $95 annual fee\n"
        "- Preferred: $150 annual fee",
        [],
    ),
    (
        "Compare the Summit Cash Plus and the Summit Cash Preferred:\n- Plus: $150 annual fee\n"
        "- Preferred: $95 annual fee",
        ["wrong_fee"],
    ),
    (
        "You'll earn 2% back at gas stations with the Summit Cash, whose APR is 19.99%-29.99% "
        "variable.",
        [],
    ),
    ("Harbor Sky Miles - 14.99% fixed APR; 3% back on travel; no foreign transaction fees.", []),
    ("The Harbor Sky Miles (14.99% APR, fixed) earns 2 miles per dollar on flights.", []),
    ("The Summit Cash has a 19.99%-29.99% variable APR, 1.5% cash back, and a 3% foreign fee.", []),
]


@pytest.mark.parametrize(("text", "expected"), BINDING)
def test_binding_by_phrase(text: str, expected: list[str], catalog: Catalog) -> None:
    _check(text, expected, catalog)


def test_a_bracketed_apr_is_an_apr_not_a_fee(catalog: Catalog) -> None:
    claims = extract_claims(
        "Summit Cash Plus (18.24%-27.24% variable APR) has no foreign transaction fees.", catalog
    )
    assert {(c.family, c.kind) for c in claims} == {("apr", "purchase"), ("fee", "foreign")}


# -- 3. yearly value versus annual fee; first-year waivers -------------------------------------

YEARLY: list[Case] = [
    (
        "Recommendation: Summit Cash Plus\nIt would be worth about $451 a year to you after its "
        "$95 annual fee.",
        [],
    ),
    (
        "On your spending the Summit Cash Preferred nets roughly $566 per year, even with the $150 "
        "annual fee.",
        [],
    ),
    ("Expect around $300 a year in cash back from the Summit Cash.", []),
    ("The Summit Cash Plus gives you about $210 annually in rewards.", []),
    ("The Summit Cash Plus charges $95 a year.", []),
    ("The Summit Cash Plus costs $99 a year.", ["wrong_fee"]),
    ("The Summit Cash Plus: $95 annual fee, waived the first year.", []),
    ("The Summit Cash Preferred: $150 annual fee, waived the first year.", ["wrong_fee"]),
    ("No annual fee the first year, then $95, on the Summit Cash Plus.", []),
    ("The Summit Cash costs $0 in the first year and $95 after that.", ["wrong_fee"]),
    ("The Summit Cash Plus has a $0 intro annual fee for the first year, then $95.", []),
    ("The Summit Cash Plus has no annual fee the first year, then $89.", ["wrong_fee"]),
]


@pytest.mark.parametrize(("text", "expected"), YEARLY)
def test_yearly_value_and_first_year_fees(text: str, expected: list[str], catalog: Catalog) -> None:
    _check(text, expected, catalog)


# -- 4. qualitative claims are checked ---------------------------------------------------------

QUALITATIVE: list[Case] = [
    ("The Summit Cash has no late fee.", ["wrong_fee"]),
    ("There's no cash advance fee on the Summit Cash.", ["wrong_fee"]),
    ("Balance transfers on the Summit Cash are fee-free.", ["wrong_fee"]),
    ("The Summit Cash has no foreign transaction fees.", ["wrong_fee"]),
    ("The Summit Cash has no intro offer.", ["wrong_intro_terms"]),
    ("The Summit Cash Plus has no annual fee.", ["wrong_fee"]),
    ("You won't pay a late fee with the Summit Cash.", ["wrong_fee"]),
    ("The Summit Cash Plus doesn't charge a balance transfer fee.", ["wrong_fee"]),
    ("Cash advances are free of fees on the Vista Clear.", ["wrong_fee"]),
    ("The Summit Cash Preferred doesn't come with an intro APR.", []),
    ("Harbor Sky Miles charges no foreign transaction fees.", []),
    ("The Summit Cash Plus doesn't have a penalty APR.", []),
    ("The Summit Cash doesn't charge an annual fee.", []),
    ("The Summit Cash Plus has no intro APR on purchases.", []),
]


@pytest.mark.parametrize(("text", "expected"), QUALITATIVE)
def test_qualitative_claims_are_checked(text: str, expected: list[str], catalog: Catalog) -> None:
    _check(text, expected, catalog)


# -- 5. numbers and durations in words ---------------------------------------------------------

WORDS: list[Case] = [
    ("The Summit Cash Plus has an annual fee of ninety-five dollars.", []),
    ("The Summit Cash Plus has an annual fee of ninety-nine dollars.", ["wrong_fee"]),
    (
        "The Summit Cash Plus gives 0% intro APR on balance transfers for eighteen months, then "
        "18.24%-27.24% variable.",
        [],
    ),
    (
        "The Summit Cash Plus gives 0% intro APR on balance transfers for twenty-one months, then "
        "18.24%-27.24% variable.",
        ["wrong_intro_terms"],
    ),
    (
        "The Vista Clear offers 0% intro APR on purchases for a full year, then 19.99%-29.99% "
        "variable.",
        [],
    ),
    (
        "The Summit Cash's 0% intro APR on purchases lasts a full year, then 19.99%-29.99% "
        "variable.",
        ["wrong_intro_terms"],
    ),
    (
        "The Summit Cash Plus gives 0% on balance transfers for a year and a half, then "
        "18.24%-27.24% variable.",
        [],
    ),
    ("The late fee on the Summit Cash is up to forty dollars.", []),
    (
        "The Summit Cash has zero percent intro APR on purchases for fifteen months, then "
        "19.99%-29.99% variable.",
        [],
    ),
    (
        "The Summit Cash Plus has a two-year 0% intro APR on balance transfers, then "
        "18.24%-27.24% variable.",
        ["wrong_intro_terms"],
    ),
]


@pytest.mark.parametrize(("text", "expected"), WORDS)
def test_numbers_and_durations_in_words(text: str, expected: list[str], catalog: Catalog) -> None:
    _check(text, expected, catalog)


# -- 6. intro offers without the word APR ------------------------------------------------------

INTRO_WITHOUT_APR: list[Case] = [
    ("The Summit Cash Preferred gives you 0% on purchases for a year.", ["false_intro_offer"]),
    (
        "Pay no interest on purchases for 15 months with the Summit Cash, then 19.99%-29.99% "
        "variable.",
        [],
    ),
    (
        "Summit Cash Plus: 0% interest on balance transfers for 18 months, after which "
        "18.24%-27.24% variable applies.",
        [],
    ),
    ("The Harbor Sky Miles is interest-free on purchases for 12 months.", ["false_intro_offer"]),
    (
        "With the Summit Cash you get 0% for 15 months on new purchases, then 19.99%-29.99% "
        "variable.",
        [],
    ),
    (
        "The Summit Cash Preferred charges no interest on balance transfers for 18 months.",
        ["false_intro_offer"],
    ),
]


@pytest.mark.parametrize(("text", "expected"), INTRO_WITHOUT_APR)
def test_intro_offers_without_the_word_apr(
    text: str, expected: list[str], catalog: Catalog
) -> None:
    _check(text, expected, catalog)


# -- 7. invented names -----------------------------------------------------------------------

NAMES: list[Case] = [
    ("The Summit Obsidian Infinite Reserve has no annual fee.", ["unknown_card"]),
    ("Consider the Harbor Platinum Elite Card for travel.", ["unknown_card"]),
    ("The Vista Rewards Signature is great for dining.", ["unknown_card"]),
    ("Look at the Granite Peak Diamond Cash Rewards.", ["unknown_card"]),
    ("The Meridian Sapphire Preferred has a $95 annual fee.", ["unknown_card"]),
    ("The Crestline Travel Rewards Card is another option.", ["unknown_card"]),
    ("The Summit Cash Plsu charges a $95 annual fee.", ["misspelled_card"]),
    ("Granite Peak National Bank issues the Granite Business Cash.", []),
    ("A cash back card is a good start if you pay in full.", []),
    ("## Best Travel Card\n\nThe Harbor Sky Miles has a fixed 14.99% APR.", []),
    ("Summit cards are widely accepted, and Visa Signature perks apply.", []),
    ("### Cash Back Rewards\n\nThe Summit Cash has no annual fee.", []),
]


@pytest.mark.parametrize(("text", "expected"), NAMES)
def test_invented_names(text: str, expected: list[str], catalog: Catalog) -> None:
    _check(text, expected, catalog)


# -- 8. a range followed by more clauses keeps its APR -----------------------------------------

RANGES: list[Case] = [
    (
        "The Summit Cash has a 19.99%-29.99% variable APR, and earns bonus points on dining.",
        [],
    ),
    (
        "The Summit Cash has a 18.99%-29.99% variable APR, and earns bonus points on dining.",
        ["wrong_apr"],
    ),
    (
        "Purchase APR on the Summit Cash Preferred: 16.99% to 25.99%, and it earns 3% back on "
        "groceries.",
        ["wrong_apr"],
    ),
    (
        "The Harbor Sky Miles carries a fixed 15.99% APR and earns 2x miles on travel.",
        ["wrong_apr"],
    ),
    (
        "The Summit Cash Plus APR ranges from 18.24% to 28.24%, plus you earn points on every "
        "purchase.",
        ["wrong_apr"],
    ),
    (
        "The Summit Cash Preferred's 17.99%-26.99% variable APR, and the bonus rewards, make it "
        "a fair deal.",
        ["wrong_apr"],
    ),
]


@pytest.mark.parametrize(("text", "expected"), RANGES)
def test_ranges_keep_their_apr(text: str, expected: list[str], catalog: Catalog) -> None:
    _check(text, expected, catalog)


# -- precision first ---------------------------------------------------------------------------


def test_unattributable_figures_are_reported_as_unverified(catalog: Catalog) -> None:
    verdict = verify_response("Most people pay a $39 late fee. Rates are around 24.99%.", catalog)
    assert verdict.passed
    assert "unverified" in verdict.feedback


# -- phrasings of chatbot answers met along the way ---------------------------------------------

CHATBOT: list[Case] = [
    ("The Summit Cash has no annual or foreign transaction fees.", ["wrong_fee"]),
    ("The Harbor Sky Miles has no annual or foreign transaction fees.", []),
    ("The Summit Cash Plus has no annual, foreign transaction or late fees.", ["wrong_fee"]),
    ("The Summit Cash Plus has a $95 annual fee (waived the first year).", []),
    (
        "The Summit Cash Preferred has a $150 annual fee, but it's waived the first year.",
        ["wrong_fee"],
    ),
    (
        "The Summit Cash Plus costs $95 a year, but the rewards more than make up for it - I "
        "estimate about $400 in annual value.",
        [],
    ),
    ("The Summit Cash Plus costs $99 a year, but the rewards make up for it.", ["wrong_fee"]),
    (
        "The Summit Cash and the Vista Clear look alike: the former has 0% on purchases for 15 "
        "months, while the latter gives 0% on purchases for 12 months; both then go to "
        "19.99%-29.99% variable.",
        [],
    ),
    (
        "The Summit Cash and the Vista Clear look alike: the former has 0% on purchases for 12 "
        "months, while the latter gives 0% on purchases for 15 months; both then go to "
        "19.99%-29.99% variable.",
        ["wrong_intro_terms"],
    ),
    ("If you always pay on time, you'll never pay a late fee with the Summit Cash.", []),
    ("The Summit Cash Plus charges an annual membership of $99.", ["wrong_fee"]),
    ("With the Summit Cash, late payments cost nothing.", ["wrong_fee"]),
    ("The Summit Cash's balance transfer fee is waived.", ["wrong_fee"]),
    ("The Summit Cash Plus balance transfer fee is waived for the first transfer.", []),
    ("Consider the Summit Cash Plus Signature Reserve for travel.", ["unknown_card"]),
    ("Cash advances on the Summit Cash don't carry a fee.", ["wrong_fee"]),
    ("- **Late fee:** none\n- **Annual fee:** $0\n(Summit Cash)", ["wrong_fee"]),
    ("Summit Cash Plus\n- Foreign transaction fees: none\n- Annual fee: $95", []),
    (
        "Summit Cash Plus: the first year is free, and after that it's $89 annually.",
        ["wrong_fee"],
    ),
    ("Summit Cash Plus\n- Annual fee: $95 ($0 in year one)", []),
    (
        "A quick example: if you transferred $5,000 to the Summit Cash, the transfer fee alone "
        "would come to roughly $150.",
        [],
    ),
    ("If you owe $2,000 on the Summit Cash Plus, a $95 annual fee still applies.", []),
    (
        "The Summit Cash and the Summit Cash Plus differ: the Plus has a $95 annual fee and "
        "0% on balance transfers for 18 months, then 18.24%-27.24% variable.",
        [],
    ),
    (
        "The Summit Cash and the Summit Cash Plus differ: the Plus has no annual fee.",
        ["wrong_fee"],
    ),
    ("Summit Cash Preferred\n- Annual fee: $150 ($0 in year one)", ["wrong_fee"]),
    (
        "The Summit Cash Plus comes out to roughly $420 per year in cash back after the $95 "
        "annual fee.",
        [],
    ),
    (
        "Compare the Summit Cash Plus and the Summit Cash:\n- Standard: no annual fee\n"
        "- Plus: $95 annual fee",
        [],
    ),
    (
        "Compare the Summit Cash Plus and the Summit Cash:\n- Standard: $95 annual fee\n"
        "- Plus: no annual fee",
        ["wrong_fee"],
    ),
]


@pytest.mark.parametrize(("text", "expected"), CHATBOT)
def test_chatbot_phrasings(text: str, expected: list[str], catalog: Catalog) -> None:
    _check(text, expected, catalog)


def test_negation_windows_find_what_a_whole_text_scan_finds() -> None:
    """Negators are only searched near attribute words; that must lose no negation."""
    cases = (NEGATION_SCOPE, BINDING, YEARLY, QUALITATIVE, WORDS, INTRO_WITHOUT_APR, CHATBOT)
    for text in (t for group in cases for t, _ in group):
        lower = text.lower()
        assert neg.none_values(lower) == neg.none_values(lower, whole_text=True), text
