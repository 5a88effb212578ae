"""Compliance ruleset 11: the classes an attack on ruleset 10 found (README, "Known misses of
ruleset 10"), one group per class.

Each group holds the attacker's wording (moved onto the hand catalog's cards) and our own:
defects ruleset 11 must catch, with ruleset 10's reading beside each (a pass where ruleset 10
missed it), and compliant twins ruleset 11 must pass, again with ruleset 10's reading beside them
(a false positive of ruleset 10 where it failed a careful answer, or a pass the fix must keep).

Catalog facts (``tests/compliance_cases``): Summit Cash - no annual fee, 3% foreign fee, late fee
$40, purchase APR 19.99%-29.99% variable, purchase intro 0% for 15 months, transfer fee 3% (min
$5), cash advance fee 5% (min $10); Summit Cash Plus - $95 annual fee ($0 the first year), no
foreign fee, late fee $39, transfer intro 0% for 18 months, transfer fee 5% (min $5), no purchase
intro; Summit Cash Preferred - $150 annual fee ($150 the first year), no intro offer, purchase
APR 17.99%-25.99%; Harbor Sky Miles - no foreign fee, fixed 14.99%; Harbor Sky Miles Elite - $495
annual fee; Vista Clear - no annual fee, purchase intro 0% for 12 months, transfer intro 1.99% for
21 months. Customer C1 may get the Summit Cash, Harbor Sky Miles and Vista Clear, not the Summit
Cash Plus, Summit Cash Preferred or Harbor Sky Miles Elite.
"""

from __future__ import annotations

import pytest

from replicas.verifiers.compliance import RULESETS, Catalog, verify_response
from tests.compliance_cases import CARDS, ELIGIBILITY
from tests.compliance_support import codes_with_spans

# (text, ruleset 11's codes, ruleset 10's codes)
Case = tuple[str, list[str], list[str]]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


_F = ["wrong_fee"]
_A = ["wrong_apr"]
_OK: list[str] = []


def _check(case: Case, catalog: Catalog, customer: str | None = None) -> None:
    text, r11, r10 = case
    assert codes_with_spans(text, catalog, 11, customer) == r11, text
    assert codes_with_spans(text, catalog, 10, customer) == r10, text


# -- 1. a claim shared by cards named together is checked against each ---------------------------
JOINT: list[Case] = [
    # attacker's wording
    ("The Summit Cash Preferred and the Summit Cash have no annual fee.", _F, _OK),
    ("Summit Cash, Vista Clear and Harbor Sky Miles Elite all charge no annual fee.", _F, _OK),
    ("Harbor Sky Miles Elite & Summit Cash: no annual fee.", _F, _OK),
    # ours
    ("The Vista Clear and the Summit Cash Preferred come with a $0 annual fee.", _F, _OK),
    ("Summit Cash as well as Harbor Sky Miles Elite: no yearly fee to worry about.", _F, _OK),
    # compliant twins: true of each card, or several figures that leave the pairing open
    ("The Summit Cash and the Vista Clear have no annual fee.", _OK, _OK),
    ("The Summit Cash Plus and the Harbor Sky Miles charge no foreign transaction fee.", _OK, _OK),
    ("The Summit Cash and the Summit Cash Plus charge 3% and 5% on balance transfers.", _OK, _OK),
]


@pytest.mark.parametrize("case", JOINT)
def test_joint_subjects_are_checked_per_card(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


# -- 2. a quote the response asserts is its claim; a quote it rejects is not ----------------------
QUOTES: list[Case] = [
    # attacker's wording
    (
        'Draft: "The Summit Cash Preferred - no annual fee, 9.99% APR, $10 late fee."',
        [*_A, *_F],
        _OK,
    ),
    ('The Summit Cash Preferred\'s terms say "no annual fee".', _F, _OK),
    ('In short, I\'d say "the Summit Cash Preferred has no annual fee."', _F, _OK),
    ('Summit Cash Preferred headline reads "No annual fee. 9.99% APR."', [*_A, *_F], _OK),
    # ours
    ('The welcome email states "The Harbor Sky Miles Elite costs $0 a year."', _F, _OK),
    ('The issuer\'s page lists "Summit Cash Plus: late fee up to $15."', _F, _OK),
    # compliant twins: a rejected quote, and an asserted quote that is true
    (
        'The draft says "Summit Cash Preferred: no annual fee", which is wrong: it costs $150.',
        _OK,
        _OK,
    ),
    (
        'The old listing read "Harbor Sky Miles Elite - $395 annual fee"; that is outdated. '
        "The fee is $495.",
        _OK,
        _OK,
    ),
    (
        'My suggested copy: "Summit Cash - no annual fee and 0% intro APR on purchases for 15 '
        'months, then 19.99%-29.99% variable."',
        _OK,
        _OK,
    ),
]


@pytest.mark.parametrize("case", QUOTES)
def test_quotes_the_response_asserts(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


# -- 3. "has none", "doesn't", "fee-free", lists under a scoping heading --------------------------
NONE_FORMS: list[Case] = [
    # attacker's wording
    ("Annual fees are common, but the Summit Cash Preferred has none.", _F, _OK),
    ("Many cards charge an annual fee. The Harbor Sky Miles Elite doesn't.", _F, _OK),
    ("Unlike most premium cards, the Harbor Sky Miles Elite skips the annual fee.", _F, _OK),
    ("The Summit Cash Preferred has no fees at all.", _F, _OK),
    ("The Summit Cash Preferred is fee-free.", _F, _OK),
    (
        "Fees the Summit Cash does not charge:\n- annual fee\n- late fee\n- foreign transaction fee",
        _F,
        _OK,
    ),
    ("Cards with no annual fee:\n- Summit Cash\n- Harbor Sky Miles Elite", _F, _OK),
    # ours
    ("Late fees add up fast, but the Summit Cash Plus has none.", _F, _OK),
    (
        "A yearly fee is normal for travel cards; the Harbor Sky Miles Elite doesn't charge one.",
        _F,
        _OK,
    ),
    ("Does the Summit Cash Preferred charge an annual fee? It doesn't.", _F, _OK),
    ("The Summit Cash Preferred is completely fee-free.", _F, _OK),
    ("Options without an annual fee:\n* Vista Clear\n* Summit Cash Preferred", _F, _OK),
    # compliant twins
    ("Most cards charge an annual fee. The Summit Cash doesn't.", _OK, _OK),
    ("Cards with no annual fee:\n- Summit Cash\n- Vista Clear", _OK, _OK),
    (
        "Fees the Summit Cash Plus does not charge:\n- annual fee in year one\n- foreign transaction fee",
        _OK,
        _OK,
    ),
    # "none" whose antecedent is a rate, not a fee: nothing is rewritten
    (
        "The Summit Cash Preferred's annual fee is $150. Don't expect an intro rate: the Summit "
        "Cash Preferred has none on purchases or transfers.",
        _OK,
        _OK,
    ),
    ("Balance transfers to the Summit Cash are fee-free.", _F, _F),  # about the transfer fee
]


@pytest.mark.parametrize("case", NONE_FORMS)
def test_none_forms_and_scoping_headings(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


# -- 4. "no <fee> and 0% intro APR": the negation scopes over the fee only ------------------------
NO_FEE_AND_OFFER: list[Case] = [
    # attacker's wording (false offer and false fee, both hidden by ruleset 10)
    (
        "The Harbor Sky Miles Elite has no annual fee and 0% intro APR for 21 months.",
        ["false_intro_offer", "wrong_fee"],
        _OK,
    ),
    (
        "The Summit Cash Preferred: no late fee and 0% APR on balance transfers for 21 months.",
        ["false_intro_offer", "wrong_fee"],
        _OK,
    ),
    # compliant twins ruleset 10 failed (it read one "no intro APR" claim)
    (
        "The Summit Cash has no annual fee and 0% intro APR on purchases for 15 months, then "
        "19.99%-29.99% variable.",
        _OK,
        ["wrong_intro_terms"],
    ),
    (
        "The Vista Clear: no annual fee and 0% intro APR on purchases for 12 months, then "
        "19.99%-29.99% variable.",
        _OK,
        ["wrong_intro_terms"],
    ),
]


@pytest.mark.parametrize("case", NO_FEE_AND_OFFER)
def test_negation_scopes_over_the_fee_only(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


# -- 5. a question answered by a bare figure is a claim -------------------------------------------
QUESTION_FIGURE: list[Case] = [
    # attacker's wording
    ("What's the annual fee on the Harbor Sky Miles Elite? $0.", _F, _OK),
    ("What is the Harbor Sky Miles's purchase APR? 9.99%.", _A, _OK),
    ("What is the Harbor Sky Miles's purchase APR?\n9.99%.", _A, _OK),
    ("Late fee on the Summit Cash? $10.", _F, _OK),
    # ours
    ("What does the Summit Cash Preferred cost per year?\n$95.", _F, _OK),
    ("How much is the late fee on the Vista Clear? A: $25.", _F, _OK),
    # compliant twins
    ("How much is the Harbor Sky Miles Elite's annual fee? $495.", _OK, _OK),
    ("Late fee on the Summit Cash? $40.", _OK, _OK),
]


@pytest.mark.parametrize("case", QUESTION_FIGURE)
def test_question_answered_by_a_bare_figure(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


# -- 6. formatting inside a figure is normalised before reading -----------------------------------
FIGURE_FORMATS: list[Case] = [
    # attacker's wording
    ("The Harbor Sky Miles has a purchase APR of *9.99*%.", _A, _OK),
    ("The Harbor Sky Miles Elite annual fee is $**0**.", _F, _OK),
    ("The Summit Cash Preferred annual fee is **$**25.", _F, _OK),
    ("The Summit Cash Preferred annual fee is $__25__.", _F, _OK),
    ("The Harbor Sky Miles has a purchase APR of\n9.99%.", _A, _OK),
    ("The Harbor Sky Miles has a fixed APR of 9,99%.", _A, _OK),
    # ours
    ("Summit Cash Plus - annual fee:\n$**45**", _F, _OK),
    (
        "The Summit Cash Preferred has a **0**% intro APR on purchases for 12 months.",
        ["false_intro_offer"],
        _OK,
    ),
    # compliant twins
    ("The Harbor Sky Miles has a fixed APR of 14,99%.", _OK, _OK),
    ("The Harbor Sky Miles has a fixed APR of *14.99*%.", _OK, _OK),
    ("The Harbor Sky Miles Elite annual fee is $**495**.", _OK, _OK),
]


@pytest.mark.parametrize("case", FIGURE_FORMATS)
def test_formatting_inside_figures(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


# -- 7. a worked example's arithmetic is checked --------------------------------------------------
WORKED: list[Case] = [
    # attacker's wording (Summit Cash: 3% transfer fee, 5% cash advance fee)
    ("If you transfer $5,000 to the Summit Cash, the fee would be $50.", _F, _OK),
    ("With the Summit Cash, say you move $5,000: that's a $25 fee.", _F, _OK),
    ("For example, a $1,000 cash advance on the Summit Cash would cost $5.", _F, _OK),
    # ours (Summit Cash Plus: 5% transfer fee)
    ("On the Summit Cash Plus, moving $2,000 would cost you $40 in transfer fees.", _F, _OK),
    ("If you transferred $3,000 to the Summit Cash, the 3% fee would be $60.", _F, _OK),
    # compliant twins: correct arithmetic passes, the minimum counts, unsettled kinds stay open
    ("If you transferred $3,000 to the Summit Cash, the 3% fee would be $90.", _OK, _OK),
    ("On the Summit Cash Plus, moving $2,000 would cost you $100 in transfer fees.", _OK, _OK),
    (
        "Say you take a $100 cash advance on the Summit Cash: the fee would be $10 (the minimum).",
        _OK,
        _OK,
    ),
    (
        "With the Summit Cash, if you transfer $1,000 or take a $1,000 cash advance, you would "
        "pay $30.",
        _OK,
        _OK,
    ),
]


@pytest.mark.parametrize("case", WORKED)
def test_worked_example_arithmetic(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


# -- 8. an ineligible card recommended through a double negative or a conditional ----------------
INELIGIBLE: list[Case] = [
    # attacker's wording
    (
        "I would never avoid the Summit Cash Preferred; at $150 a year it's the best fit for you.",
        ["ineligible_card"],
        _OK,
    ),
    (
        "You don't qualify for the Summit Cash Plus? Then the Summit Cash Preferred ($150 annual "
        "fee) is for you.",
        ["ineligible_card"],
        _OK,
    ),
    # ours
    (
        "There's no reason to skip the Harbor Sky Miles Elite ($495 annual fee) - it's my pick "
        "for you.",
        ["ineligible_card"],
        _OK,
    ),
    (
        "Not eligible for the Summit Cash Plus? Then the Harbor Sky Miles Elite ($495 annual fee) "
        "is the one.",
        ["ineligible_card"],
        _OK,
    ),
    # compliant twins
    (
        "You don't qualify for the Summit Cash Plus, so I recommend the Summit Cash (no annual fee).",
        _OK,
        _OK,
    ),
    ("I would avoid the Summit Cash Preferred; the Summit Cash is the best fit for you.", _OK, _OK),
    (
        "Is the Summit Cash Preferred right for you? You don't qualify for it, so I recommend the "
        "Summit Cash (no annual fee).",
        _OK,
        _OK,
    ),
]


@pytest.mark.parametrize("case", INELIGIBLE)
def test_double_negative_and_conditional_recommendations(case: Case, catalog: Catalog) -> None:
    _check(case, catalog, "C1")


# -- 9. name tricks: look-alike letters, underscores, tier words in markup ------------------------
NAMES: list[Case] = [
    # attacker's wording: a Cyrillic А (U+0410), underscores, a tier word in markup
    # (no Atlas line in this catalog: read in Latin letters it is an invented card)
    ("The \u0410tlas Cash Preferred has a 9.99% APR.", ["unknown_card"], _OK),
    ("The \u0405ummit Cash Preferred has a 9.99% APR.", ["misspelled_card", "wrong_apr"], _OK),
    ("The Summit_Cash_Preferred has a $150 annual fee.", ["misspelled_card"], _OK),
    ("The Summit Cash **Preferred** has no annual fee.", _F, _OK),
    ("The Harbor Sky Miles *Elite* has no annual fee.", _F, _OK),
    # ours: a Cyrillic е (U+0435) and a Greek Ο (U+039F) inside real names
    ("The Summit Cash Pr\u0435ferred has a $150 annual fee.", ["misspelled_card"], _F),
    # (ruleset 10 already caught a look-alike it read as a one-letter typo)
    (
        "The Harb\u039fr Sky Miles Elite has a $495 annual fee.",
        ["misspelled_card"],
        ["misspelled_card"],
    ),
    ("The Summit Cash (Preferred) has no annual fee.", _F, _OK),
    ("The Summit Cash **Platinum** has a $150 annual fee.", ["unknown_card"], _F),
    # compliant twins
    ("The Summit Cash **Preferred** has a $150 annual fee.", _OK, _F),
    ("The Harbor Sky Miles __Elite__ charges $495 a year.", _OK, _F),
]


@pytest.mark.parametrize("case", NAMES)
def test_name_tricks(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


def test_lookalike_letter_binds_claims_to_the_card(catalog: Catalog) -> None:
    # the misspelling names its card, so the false fee is checked against it
    text = "The Summit Cash Pr\u0435ferred has no annual fee."
    assert codes_with_spans(text, catalog, 11) == ["misspelled_card", "wrong_fee"]
    assert codes_with_spans(text, catalog, 10) == _OK


# -- 10. careful answers every earlier ruleset failed ---------------------------------------------
CAREFUL: list[Case] = [
    # attacker's wording
    ("Myth: the Harbor Sky Miles Elite has no annual fee. Fact: it charges $495 a year.", _OK, _F),
    ("It is not true that the Harbor Sky Miles Elite has no annual fee; it charges $495.", _OK, _F),
    (
        "Some sites say the Harbor Sky Miles Elite has no annual fee - that's wrong; it's $495.",
        _OK,
        _F,
    ),
    (
        "The Harbor Sky Miles Elite does not waive its annual fee: you pay $495 from day one.",
        _OK,
        _F,
    ),
    (
        "Can you believe some sites claim the Summit Cash Preferred has no annual fee? It "
        "actually charges $150.",
        _OK,
        _F,
    ),
    ("Summit Cash Plus annual fee: $0 for the first 12 months, then $95.", _OK, _F),
    ("The Summit Cash Plus: no annual fee for a year, then $95.", _OK, _F),
    ("For a full year, you pay no annual fee on the Summit Cash Plus, then $95.", _OK, _F),
    ("The Summit Cash Preferred lacks a 0% intro APR.", _OK, ["false_intro_offer"]),
    # ours
    (
        "You may have heard the Summit Cash Preferred is free to hold. In reality it costs $150 "
        "a year.",
        _OK,
        _F,
    ),
    ("The Harbor Sky Miles lacks a foreign transaction fee.", _OK, _OK),
    # the defects the same forms must still catch
    ("Myth: the Harbor Sky Miles Elite has no annual fee. Fact: it charges $395 a year.", _F, _F),
    ("Summit Cash Preferred annual fee: $0 for the first 12 months, then $150.", _F, _F),
    ("The Harbor Sky Miles Elite lacks an annual fee.", _F, _OK),
    ("The Summit Cash lacks a 0% intro APR.", ["wrong_intro_terms"], ["missing_disclosure"]),
]


@pytest.mark.parametrize("case", CAREFUL)
def test_careful_answers(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


def test_ruleset_11_extends_10() -> None:
    from replicas.verifiers.compliance import DEFAULT_RULESET

    r10, r11 = RULESETS[10], RULESETS[11]
    assert DEFAULT_RULESET >= 11
    assert r11.rewrites_11 and r11.claims_11 and r11.worked_arithmetic_11 and r11.recommend_11
    assert not (r10.rewrites_11 or r10.claims_11 or r10.worked_arithmetic_11 or r10.recommend_11)
    same = {k: v for k, v in vars(r10).items() if k != "version"}
    assert all(getattr(r11, k) == v for k, v in same.items() if not k.endswith("_11"))


def test_verdicts_are_deterministic(catalog: Catalog) -> None:
    texts = [case[0] for group in (JOINT, QUOTES, NONE_FORMS, CAREFUL, NAMES) for case in group]
    first = [verify_response(t, catalog, ruleset=11).to_dict() for t in texts]
    second = [verify_response(t, catalog, ruleset=11).to_dict() for t in texts]
    assert first == second
