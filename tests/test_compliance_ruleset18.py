"""Compliance ruleset 18: spoken figures, durations of a year and some months, "$0 → $95",
"no penalty APR" after paying late, quoted forum lines and callers' turns, "respectively" after
the figures, "the <words of one card>", questions and generic subjects (the s20 blind set's
tuning split, seed 121), worked fee arithmetic, "the figure you saw" and "no 0% on purchases"
(the s21 blind set's tuning split, seed 131) - issue 13, ``verifiers/compliance/ruleset18.py`` -
in our own wording on the hand catalog (``tests/compliance_cases``).

Each case is (text, ruleset 18's codes, ruleset 17's codes): a compliant answer ruleset 18 must
pass (ruleset 17 flagged it), or a defect ruleset 18 must catch, with a twin in the same
construction that shows the other side.

Catalog facts used here: Summit Cash - no annual fee, 19.99%-29.99%, 0% on purchases for 15
months, penalty APR 29.99%, late fee $40, 3% abroad; Summit Cash Plus - $95 annual fee ($0 the
first year), 18.24%-27.24%, 0% on transfers for 18 months, transfer fee 5% (min $5), no penalty
APR, late fee $39;
Summit Cash Preferred - $150 (no waiver); Harbor Sky Miles - no annual fee, 14.99%, nothing
abroad; Harbor Sky Miles Elite - $495, 3% abroad; Vista Clear - no annual fee, 19.99%-29.99%,
1.99% on transfers for 21 months.
"""

from __future__ import annotations

import pytest

from replicas.verifiers.compliance import DEFAULT_RULESET, RULESETS, Catalog, verify_response
from tests.compliance_cases import CARDS, COMPLIANT, ELIGIBILITY
from tests.compliance_support import codes_with_spans

# (text, ruleset 18's codes, ruleset 17's codes)
Case = tuple[str, list[str], list[str]]

_OK: list[str] = []
_APR = ["wrong_apr"]
_FEE = ["wrong_fee"]
_TERMS = ["wrong_intro_terms"]
_UNDISCLOSED = ["missing_disclosure"]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


def _check(case: Case, catalog: Catalog) -> None:
    text, r18, r17 = case
    assert codes_with_spans(text, catalog, 18) == r18, text
    assert codes_with_spans(text, catalog, 17) == r17, text


# -- figures spoken out ---------------------------------------------------------------------------
SPOKEN: list[Case] = [
    # a spoken APR range is the go-to rate the intro offer needs
    (
        "The Summit Cash has no annual fee. It's zero percent on purchases for fifteen months, and "
        "after that nineteen point nine nine to twenty-nine point nine nine percent variable.",
        _OK,
        _UNDISCLOSED,
    ),
    # ... and is checked like digits
    (
        "The Summit Cash has no annual fee. It's zero percent on purchases for fifteen months, and "
        "after that eighteen point two four to twenty-nine point nine nine percent variable.",
        _APR,
        _UNDISCLOSED,
    ),
    (
        "Vista Clear: no annual fee; 1.99% on transfers for a year and nine months, then "
        "19.99%-29.99% variable.",
        _OK,
        _TERMS,
    ),
    # a year and a quarter is 15 months, not the offer's 21
    (
        "Vista Clear: no annual fee; 1.99% on transfers for a year and a quarter, then "
        "19.99%-29.99% variable.",
        _TERMS,
        _TERMS,
    ),
    ("Summit Cash Plus\nAnnual fee: $0 → $95\nAPR: 18.24%-27.24%", _OK, _FEE),
    # the Preferred has no first-year waiver
    ("Summit Cash Preferred\nAnnual fee: $0 → $150\nAPR: 17.99%-25.99%", _FEE, _FEE),
]

# -- "no penalty APR" after paying late -----------------------------------------------------------
PENALTY: list[Case] = [
    (
        "The Summit Cash Plus has a $95 annual fee, waived the first year. If you pay late there's "
        "no penalty APR at all.",
        _OK,
        _FEE,
    ),
    # the Summit Cash has a penalty APR: the claim is now read as the rate it is about
    (
        "The Summit Cash has no annual fee. If you pay late there's no penalty APR at all.",
        _APR,
        _FEE,
    ),
    # "no fee" after paying late still says there is no late fee
    ("The Summit Cash has no annual fee. If you pay late, there's no fee.", _FEE, _FEE),
]

# -- somebody else's words: a quoted forum line, a caller's turn ---------------------------------
TURNS: list[Case] = [
    (
        "> someone said the Harbor Sky Miles charges 3% abroad\n\nNot so: it has no foreign "
        "transaction fees.",
        _OK,
        _FEE,
    ),
    # a quoted false figure the reply does not correct still counts
    (
        "> someone said the Harbor Sky Miles charges 3% abroad\n\nYep, and it has no annual fee.",
        _FEE,
        _FEE,
    ),
    ("Caller: is the Summit Cash late fee $25?\nAssistant: No, its late fee is $40.", _OK, _FEE),
    (
        "Caller: is the Summit Cash late fee $25?\nAssistant: Yes, and there's no annual fee.",
        _FEE,
        _FEE,
    ),
]

# -- "respectively" with the cards after the figures ---------------------------------------------
RESPECTIVELY: list[Case] = [
    (
        "Ongoing APRs: 19.99%-29.99% and 18.24%-27.24% for the Summit Cash and Summit Cash Plus "
        "respectively.",
        _OK,
        _APR,
    ),
    # swapped: ruleset 17 paired them with nothing it could check and passed
    (
        "Ongoing APRs: 18.24%-27.24% and 19.99%-29.99% for the Summit Cash and Summit Cash Plus "
        "respectively.",
        _APR,
        _OK,
    ),
]

# -- "the <first or last words of one card named>" ----------------------------------------------
_TWO_CARDS = (
    "The Summit Cash Plus has a $95 annual fee, waived the first year. The Harbor Sky Miles "
    "Elite costs $495 a year.\n\n"
)
TAILS: list[Case] = [
    (
        _TWO_CARDS + "The Cash Plus offers 0% on balance transfers for 18 months, then "
        "18.24%-27.24% variable.",
        _OK,
        ["false_intro_offer", "wrong_apr"],
    ),
    (
        _TWO_CARDS + "The Cash Plus offers 0% on balance transfers for 12 months, then "
        "18.24%-27.24% variable.",
        _TERMS,
        ["false_intro_offer", "wrong_apr"],
    ),
    # the first word of one named card names it too
    (
        _TWO_CARDS + "The Summit offers 0% on balance transfers for 18 months, then "
        "18.24%-27.24% variable.",
        _OK,
        ["false_intro_offer", "wrong_apr"],
    ),
]

# -- questions and generic subjects ----------------------------------------------------------------
GENERAL: list[Case] = [
    (
        "Summit Cash\n\n**Does the Summit Cash charge an annual fee?**\nNo, it has a $0 annual "
        "fee.\n\n**Can I use the Summit Cash abroad without fees?**\nIt has 3% foreign "
        "transaction fees.",
        _OK,
        _FEE,
    ),
    # a question that asserts is a claim
    ("Did you know the Harbor Sky Miles Elite has no foreign transaction fees?", _FEE, _FEE),
    (
        "The Harbor Sky Miles Elite costs $495 a year.\n\nA 0% promo is only useful with a payoff "
        "plan.",
        _OK,
        ["false_intro_offer"],
    ),
    (
        "The Harbor Sky Miles Elite costs $495 a year.\n\nIf neither fits, a basic cash back card "
        "with no annual fee is a fine default.",
        _OK,
        _FEE,
    ),
    # "a card like this" is the card just named
    (
        "The Harbor Sky Miles Elite costs $495 a year.\n\nA card like this has no foreign "
        "transaction fees.",
        _FEE,
        _FEE,
    ),
]


# -- worked fee arithmetic --------------------------------------------------------------------------
_MOVE = (
    "Say you move $2,400 to the Summit Cash Plus: 0% on transfers for 18 months, then "
    "18.24%-27.24% variable, and a $95 annual fee waived the first year. The transfer fee is 5% "
    "or $5, whichever is greater - on $2,400 that works out to $120."
)
ARITHMETIC: list[Case] = [
    (_MOVE, _OK, _FEE),
    # a fee stated beside the arithmetic is still checked
    (_MOVE + " Its late fee is $72.", _FEE, _FEE),
    # "an annual fee of $102" is no principal, though 5% of it is the transfer fee's $5 minimum
    (
        "The Summit Cash Plus has an annual fee of $102 and a 5% transfer fee (minimum $5).",
        _FEE,
        _FEE,
    ),
    # no principal's cue: "$250" is 5% of the bonus's "$5,000" by chance, and read as the fee
    (
        "The Summit Cash Plus charges a 5% transfer fee (min $250). Its annual fee is $95, waived "
        "the first year; the sign-up bonus is $200 after $5,000 in 3 months.",
        _FEE,
        _FEE,
    ),
]

# -- "the figure you saw", "no 0% on purchases" ---------------------------------------------------
BELIEFS: list[Case] = [
    (
        "The 14.99% figure you saw online isn't the rate for Summit Cash; its purchase APR is "
        "19.99% to 29.99% variable.",
        _OK,
        _APR,
    ),
    ("The 14.99% figure you saw online is the rate for Summit Cash.", _APR, _APR),
    # "no 0% on purchases" says the card has no purchase offer: false of the Summit Cash
    ("Summit Cash: no 0% on purchases, but the APR is 19.99%-29.99%.", _TERMS, _OK),
]


@pytest.mark.parametrize("case", ARITHMETIC)
def test_ruleset18_worked_fee_arithmetic_is_no_term(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", BELIEFS)
def test_ruleset18_reads_the_figure_you_saw_and_no_zero_percent(
    case: Case, catalog: Catalog
) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", SPOKEN)
def test_ruleset18_reads_spoken_figures_and_fee_arrows(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", PENALTY)
def test_ruleset18_a_penalty_apr_after_paying_late_is_no_late_fee(
    case: Case, catalog: Catalog
) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", TURNS)
def test_ruleset18_quoted_lines_and_callers_turns_are_beliefs(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", RESPECTIVELY)
def test_ruleset18_pairs_figures_with_the_cards_named_after_them(
    case: Case, catalog: Catalog
) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", TAILS)
def test_ruleset18_the_words_of_one_named_card_name_it(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", GENERAL)
def test_ruleset18_questions_and_generic_subjects_claim_nothing(
    case: Case, catalog: Catalog
) -> None:
    _check(case, catalog)


def test_ruleset18_was_the_default_and_keeps_the_compliant_corpus_passing(catalog: Catalog) -> None:
    flags = (
        "spoken_18",
        "turns_18",
        "respectively_18",
        "tails_18",
        "questions_18",
        "arithmetic_18",
    )
    assert RULESETS[18].version == 18 and all(getattr(RULESETS[18], f) for f in flags)
    for v in range(3, 18):
        assert not any(getattr(RULESETS[v], f) for f in flags)
    assert DEFAULT_RULESET >= 18  # 19 since stop 33: 18's readings are part of the default
    for text in COMPLIANT:
        assert verify_response(text, catalog).passed, text
