"""Compliance ruleset 20: a percentage per balance transfer, "N percent", a bare intro rate after
a fee list, a negated fee before a rate, "purch", first-year footnotes, generic issuers, a
customer's chat turn the bot corrects, and rated headings offered to a customer (the s20-s22 blind
sets' tuning parts) - issue 13, ``verifiers/compliance/ruleset20.py`` - in our own wording on the
hand catalog (``tests/compliance_cases``).

Each case is (text, customer, ruleset 20's codes, ruleset 19's codes): a compliant answer ruleset
20 must pass, or a defect ruleset 20 must catch, with a twin in the same construction that shows
the other side.

Catalog facts used here: Summit Cash - no annual fee, 19.99%-29.99%, 0% on purchases for 15
months, 3% abroad; Summit Cash Plus - $95 annual fee ($0 the first year), 18.24%-27.24%, 0% on
transfers for 18 months, a 5% transfer fee; Summit Cash Preferred - $150 every year, no intro
offer; Harbor Sky Miles - no annual fee, 14.99% fixed, nothing abroad; Vista Clear - no annual
fee, 1.99% on transfers for 21 months, a 3% transfer fee, a 5% cash advance fee. Customer C1 may
hold Summit Cash, Harbor Sky Miles and Vista Clear, not Summit Cash Preferred (score).
"""

from __future__ import annotations

import time

import pytest

from replicas.verifiers.compliance import DEFAULT_RULESET, RULESETS, Catalog, verify_response
from tests.compliance_cases import CARDS, ELIGIBILITY
from tests.compliance_support import codes_with_spans

# (text, customer, ruleset 20's codes, ruleset 19's codes)
Case = tuple[str, str | None, list[str], list[str]]

_OK: list[str] = []
_APR = ["wrong_apr"]
_FEE = ["wrong_fee"]
_TERMS = ["wrong_intro_terms"]
_OFFER = ["false_intro_offer"]
_INELIGIBLE = ["ineligible_card"]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


def _check(case: Case, catalog: Catalog) -> None:
    text, customer, r20, r19 = case
    assert codes_with_spans(text, catalog, 20, customer) == r20, text
    assert codes_with_spans(text, catalog, 19, customer) == r19, text


FEES: list[Case] = [
    # a percentage per balance transfer after the go-to rate is the transfer fee (ruleset 19: an APR)
    (
        "Summit Cash Plus gives you 0% on balance transfers for 18 months, then 18.24%-27.24% variable, and 5% per balance transfer.",
        None,
        _OK,
        _APR,
    ),
    # twin: the wrong transfer fee in the same words is caught as a fee
    (
        "Summit Cash Plus gives you 0% on balance transfers for 18 months, then 18.24%-27.24% variable, and 3% per balance transfer.",
        None,
        _FEE,
        _APR,
    ),
    # twin: alone in its sentence, ruleset 19 read nothing
    ("The Vista Clear takes 5% per transfer.", None, _FEE, _OK),
    # per cash advance: the cash advance fee
    ("Vista Clear: 19.99%-29.99% variable, and 5% per cash advance.", None, _OK, _OK),
    # "0 percent" reads as "0%": the negation of the fee ends before it (ruleset 19: no intro APR)
    (
        "Summit Cash: no annual fee and 0 percent intro APR on purchases for 15 months, then 19.99%-29.99% variable.",
        None,
        _OK,
        _TERMS,
    ),
    # twin: a wrong length in the same words
    (
        "Summit Cash: no annual fee and 0 percent intro APR on purchases for 18 months, then 19.99%-29.99% variable.",
        None,
        _TERMS,
        _TERMS,
    ),
    # a negated fee, "and", a rate: the negation ends at the rate
    (
        "Summit Cash comes with no annual fee at all and 0% APR on purchases for 15 months, then 19.99%-29.99% variable.",
        None,
        _OK,
        _TERMS,
    ),
    # twin: the wrong length is still caught
    (
        "Summit Cash comes with no annual fee at all and 0% APR on purchases for 12 months, then 19.99%-29.99% variable.",
        None,
        _TERMS,
        _TERMS,
    ),
    # "purch" is purchases: no purchase intro is true of a card with only a transfer offer
    (
        "- Summit Cash Plus | AF $95, first yr free | no intro purch APR | 18.24%-27.24% var",
        None,
        _OK,
        _TERMS,
    ),
    # twin: the card that has a purchase offer
    ("- Summit Cash | AF $0 | no intro purch APR | 19.99%-29.99% var", None, _TERMS, _TERMS),
]

SHORTHAND: list[Case] = [
    # "SUB $200" is a sign-up bonus, not the annual fee the label before it named
    ("- Summit Cash | AF $0 | 19.99%-29.99% var | SUB $200 after $1k spend", None, _OK, _FEE),
    # twin: the annual fee in the same shorthand is still checked
    ("- Summit Cash | AF $200 | 19.99%-29.99% var | SUB $200 after $1k spend", None, _FEE, _FEE),
]

INTROS: list[Case] = [
    # a bare rate on transferred balances with a length, after a fee: an intro rate (ruleset 19: a transfer fee)
    (
        "Vista Clear pairs a $0 annual fee, 1.99% on transferred balances for 21 months before the usual 19.99%-29.99% variable rate applies, and a 3% fee on each transfer, $5 minimum.",
        None,
        _OK,
        _FEE,
    ),
    # twin: the wrong intro rate
    (
        "Vista Clear pairs a $0 annual fee, 3.99% on transferred balances for 21 months before the usual 19.99%-29.99% variable rate applies, and a 3% fee on each transfer, $5 minimum.",
        None,
        _TERMS,
        _FEE,
    ),
    # twin: a card with no transfer offer at all ("a year and a quarter" is 15 months)
    (
        "Summit Cash Preferred: a $150 annual fee, a 3% transfer fee, and 0% on balance transfers for a year and a quarter before the regular 17.99%-25.99% APR kicks in.",
        None,
        _OFFER,
        _FEE,
    ),
    # a reward on purchases for a year is no intro rate
    (
        "Summit Cash Preferred: a $150 annual fee, and you earn 2% on purchases for a year.",
        None,
        _OK,
        _OK,
    ),
]

NOTES: list[Case] = [
    # a "$0*" cell with its first-year footnote is the first year's fee
    (
        "| Card | Annual fee | APR |\n|---|---|---|\n| Summit Cash Plus | $0* | 18.24%-27.24% |\n| Summit Cash | $0 | 19.99%-29.99% |\n\n* first year; $95 after (Summit Cash Plus)",
        None,
        _OK,
        _FEE,
    ),
    # twin: the footnote's fee after the first year is wrong
    (
        "| Card | Annual fee | APR |\n|---|---|---|\n| Summit Cash Plus | $0* | 18.24%-27.24% |\n| Summit Cash | $0 | 19.99%-29.99% |\n\n* first year; $75 after (Summit Cash Plus)",
        None,
        _FEE,
        _FEE,
    ),
    # twin: a card that charges its fee in the first year too
    (
        "| Card | Annual fee | APR |\n|---|---|---|\n| Summit Cash Preferred | $0* | 17.99%-25.99% |\n\n* first year; $150 after (Summit Cash Preferred)",
        None,
        _FEE,
        _FEE,
    ),
]

GENERIC: list[Case] = [
    # "most issuers charge ..." is about cards in general
    (
        "I'd look at Harbor Sky Miles: no annual fee and a 14.99% fixed APR.\n\nA tip for travellers: most issuers charge about 3% on purchases abroad, so check before you go.",
        None,
        _OK,
        _FEE,
    ),
    # twin: the same figure said of the card
    (
        "I'd look at Harbor Sky Miles: no annual fee and a 14.99% fixed APR.\n\nA tip for travellers: it charges about 3% on purchases abroad, so check before you go.",
        None,
        _FEE,
        _FEE,
    ),
]

TURNS: list[Case] = [
    # a customer's figure naming no card, answered "Not quite", is nobody's claim
    (
        "Customer: what does the Summit Cash Plus cost per year?\nBot: The Summit Cash Plus has a $95 annual fee, $0 the first year. Harbor Sky Miles has no annual fee.\nCustomer: so it's $150 a year?\nBot: Not quite - the Summit Cash Plus is $95 a year after a free first year.",
        None,
        _OK,
        _FEE,
    ),
    # twin: the bot confirms it - still checked (against the card last talked about)
    (
        "Customer: what does the Summit Cash Plus cost per year?\nBot: The Summit Cash Plus has a $95 annual fee, $0 the first year. Harbor Sky Miles has no annual fee.\nCustomer: so it's $150 a year?\nBot: Yes, that's right.",
        None,
        _FEE,
        _FEE,
    ),
    # twin: the bot's own correction is wrong - still caught
    (
        "Customer: what does the Summit Cash Plus cost per year?\nBot: The Summit Cash Plus has a $95 annual fee, $0 the first year.\nCustomer: so it's $150 a year?\nBot: Not quite - the Summit Cash Plus is $125 a year after a free first year.",
        None,
        _FEE,
        _FEE,
    ),
]

OPTIONS: list[Case] = [
    # a rated heading offers its card to the customer (score too low)
    (
        "Our ratings for you:\n\n**Summit Cash** ★★★★☆ 4/5\n- no annual fee\n\n### 2. Summit Cash Preferred  ★★★☆☆ (3/5)\n- a $150 annual fee\n",
        "C1",
        _INELIGIBLE,
        _OK,
    ),
    # its block rules it out
    (
        "Our ratings for you:\n\n**Summit Cash** ★★★★☆ 4/5\n- no annual fee\n\n### 2. Summit Cash Preferred  ★★★☆☆ (3/5)\n- a $150 annual fee\n- it needs a higher score than yours, so it's ruled out\n",
        "C1",
        _OK,
        _OK,
    ),
    # rated headings of eligible cards only
    (
        "Our ratings for you:\n\n**Summit Cash** ★★★★☆ 4/5\n- no annual fee\n\n2) vista clear - 4.5/5\n- no annual fee\n",
        "C1",
        _OK,
        _OK,
    ),
]


# A figure someone else stated (or one the response denies), corrected by a figure of its kind in
# its sentence or the next, is not the card's claim; the correcting figure is, and is checked.
BELIEFS: list[Case] = [
    # "you said ...; it's ..." (ruleset 19: the customer's figure was checked)
    (
        "Summit Cash Preferred suits you. You said its annual fee was $95; it's $150.",
        None,
        _OK,
        _FEE,
    ),
    # twin: the correcting figure is itself wrong
    (
        "Summit Cash Preferred suits you. You said its annual fee was $95; it's $125.",
        None,
        _FEE,
        _FEE,
    ),
    # twin: the other person's wrong figure confirmed
    (
        "Summit Cash Preferred suits you. You said its annual fee was $95 - that's right.",
        None,
        _FEE,
        _FEE,
    ),
    # a bare correcting figure after a copula takes the term of the figure it corrects
    (
        "Summit Cash Preferred suits you. You mentioned $95 for the annual fee, but it's actually $150.",
        None,
        _OK,
        _FEE,
    ),
    (
        "Summit Cash Preferred suits you. You mentioned $95 for the annual fee, but it's actually $175.",
        None,
        _FEE,
        _FEE,
    ),
    # a belief of "no fee" corrected by a bare figure: the figure is checked
    (
        "Summit Cash Preferred suits you. You were told it has no annual fee, but it's actually $120.",
        None,
        _FEE,
        ["missing_disclosure"],
    ),
    # a third person's figure
    (
        "Summit Cash is a good fit. A coworker told you $59 a year, but the annual fee is $0.",
        None,
        _OK,
        _FEE,
    ),
    (
        "Summit Cash is a good fit. A coworker told you $59 a year, but the annual fee is $29.",
        None,
        _FEE,
        _FEE,
    ),
    # a denied figure corrected in its sentence
    ("Summit Cash is a good fit. Heads-up: its annual fee isn't $49, it's $0.", None, _OK, _FEE),
    ("Summit Cash is a good fit. Heads-up: its annual fee isn't $49, it's $19.", None, _FEE, _FEE),
    # twin: a denial with no correction is read as ruleset 19 reads it
    ("Summit Cash is a good fit. Heads-up: its annual fee isn't $49.", None, _FEE, _FEE),
    # an APR range "as you may have read", corrected after a dash
    (
        "Harbor Sky Miles is a fine pick. The APR isn't 19.99% to 29.99%, as you may have read - it's 14.99% fixed.",
        None,
        _OK,
        _APR,
    ),
    (
        "Harbor Sky Miles is a fine pick. The APR isn't 19.99% to 29.99%, as you may have read - it's 16.99% fixed.",
        None,
        _APR,
        _APR,
    ),
    # "seen online", the correction in the next unit
    (
        "Harbor Sky Miles is a fine pick. Forget the 19.99% you saw online: its APR is 14.99% fixed.",
        None,
        _OK,
        _APR,
    ),
    (
        "Harbor Sky Miles is a fine pick. Forget the 19.99% you saw online: its APR is 15.99% fixed.",
        None,
        _APR,
        _APR,
    ),
    # a percentage fee
    ("Summit Cash suits you. You said the foreign fee was 5%; it's 3%.", None, _OK, _FEE),
    ("Summit Cash suits you. You said the foreign fee was 5%; it's 4%.", None, _FEE, _FEE),
    # twin: a fee of another kind after the customer's figure corrects nothing
    (
        "Summit Cash suits you. You said the late fee was $25, and the annual fee is $0.",
        None,
        _FEE,
        _FEE,
    ),
]


# A low rate the go-to rate follows ("N% on purchases, after which X applies", "N%, then the
# standard X", "at N% before the rate becomes X") is an intro rate: stated without its months.
THEN_RATES: list[Case] = [
    (
        "Summit Cash gives you 0% on purchases, after which 19.99%-29.99% applies.",
        None,
        ["missing_disclosure"],
        _OK,
    ),
    # twin: with its months the same sentence is compliant
    (
        "Summit Cash gives you 0% on purchases for 15 months, after which 19.99%-29.99% applies.",
        None,
        _OK,
        _OK,
    ),
    # twin: a card with no purchase offer
    (
        "Summit Cash Preferred gives you 0% on purchases, after which 17.99%-25.99% applies.",
        None,
        _OFFER,
        _OK,
    ),
    # twin: the wrong intro rate
    (
        "Summit Cash gives you 2.99% on purchases, after which 19.99%-29.99% applies.",
        None,
        _TERMS,
        _OK,
    ),
    (
        "Vista Clear: move a balance over at 1.99% before the rate becomes 19.99% to 29.99%.",
        None,
        ["missing_disclosure"],
        _OK,
    ),
    # ruleset 19 read the rate as the transfer fee
    (
        "Vista Clear: for transfers you'd pay 1.99 %, then the standard 19.99 %-29.99 %, plus a 3 % fee.",
        None,
        ["missing_disclosure"],
        _FEE,
    ),
    # a reward rate followed by another is no intro rate
    ("Summit Cash earns 3% on groceries, then 1% on everything else.", None, _OK, _OK),
]


# "Number one for me: X" and "X ticks most of your boxes" recommend X (eligibility, disclosure)
_BOTH = "Summit Cash has no annual fee. Vista Clear has no annual fee either. "
PICKS: list[Case] = [
    (
        _BOTH + "Number one for me: Summit Cash Preferred. It earns 2% on everything.",
        "C1",
        ["ineligible_card", "missing_disclosure"],
        _OK,
    ),
    # twin: an eligible card with no annual fee in the same words
    (_BOTH + "Number one for me: Summit Cash. It earns 2% on everything.", "C1", _OK, _OK),
    (
        _BOTH + "Summit Cash Preferred ticks most of your boxes. It earns 2%.",
        "C1",
        ["ineligible_card", "missing_disclosure"],
        _OK,
    ),
    # twin: ruled out in its own line
    (
        _BOTH + "Summit Cash Preferred ticks most of your boxes, but your score is too low for it.",
        "C1",
        _OK,
        _OK,
    ),
    # the fee disclosure alone (no customer): stated, then not
    (
        "Summit Cash Plus ticks most of your boxes. Its annual fee is $95, waived the first year.",
        None,
        _OK,
        _OK,
    ),
    (
        "Vista Clear is fine. Summit Cash Plus ticks most of your boxes. It earns 2%.",
        None,
        ["missing_disclosure"],
        _OK,
    ),
]


# A rate its own words call the penalty APR is checked against the penalty APR alone (ruleset 19
# passed any rate of the card)
PENALTY: list[Case] = [
    ("Vista Clear: a late payment can trigger a 19.99 percent penalty APR.", None, _APR, _OK),
    # twin: the true penalty APR in the same words
    ("Vista Clear: a late payment can trigger a 29.99 percent penalty APR.", None, _OK, _OK),
    ("Vista Clear: the penalty APR is 19.99%.", None, _APR, _OK),
    ("Vista Clear: the penalty APR is up to 29.99%.", None, _OK, _OK),
]


@pytest.mark.parametrize("case", FEES)
def test_ruleset20_fees_per_transfer_percent_words_and_shorthand(
    case: Case, catalog: Catalog
) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", SHORTHAND)
def test_ruleset20_a_sign_up_bonus_in_shorthand(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", INTROS)
def test_ruleset20_a_bare_rate_on_a_balance_for_months_is_an_intro_rate(
    case: Case, catalog: Catalog
) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", NOTES)
def test_ruleset20_a_first_year_footnote(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", GENERIC)
def test_ruleset20_generic_issuers_are_no_cards_claim(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", TURNS)
def test_ruleset20_a_customers_turn_the_bot_corrects(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", OPTIONS)
def test_ruleset20_rated_headings_are_options(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", BELIEFS)
def test_ruleset20_someone_elses_figure_corrected(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", THEN_RATES)
def test_ruleset20_a_low_rate_the_goto_rate_follows_is_an_intro_rate(
    case: Case, catalog: Catalog
) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", PICKS)
def test_ruleset20_number_one_and_ticks_the_boxes_recommend(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", PENALTY)
def test_ruleset20_a_penalty_apr_named_is_that_apr(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


_FLAGS = ("fees_20", "generic_20", "turns_20", "options_20", "beliefs_20", "picks_20", "penalty_20")


def test_ruleset20_is_published_and_35_the_default() -> None:
    assert RULESETS[20].version == 20 and all(getattr(RULESETS[20], f) for f in _FLAGS)
    for v in range(3, 20):
        assert not any(getattr(RULESETS[v], f) for f in _FLAGS)
    assert DEFAULT_RULESET == 35


# One megabyte of each new reading's trigger, then one real violation: every reading stays
# near-linear (each reads a bounded reach around what it reads).
@pytest.mark.parametrize(
    "filler",
    [
        "Vista Clear: 19.99%-29.99% variable, and 3% per balance transfer, 5 percent per advance. ",
        "a $0 annual fee, 1.99% on transferred balances for 21 months before the usual rate, ",
        "no annual fee at all and 0% APR on purchases for 15 months, no intro purch APR, ",
        "| Summit Cash Plus | $0* |\n",
        "* first year; $95 after (Summit Cash Plus)\n| Summit Cash Plus | $0* |\n",
        "Tip: most issuers charge about 3% on purchases abroad. ",
        "Customer: so it's $150 a year?\nBot: Not quite - no.\n",
        "**Summit Cash** ★★★★☆ 4/5\n- no annual fee\n",
        "Summit Cash Plus: you mentioned $150 a year, but it's actually $95. ",
        "Its annual fee isn't $49, it's $0. Not $59 as you were told - it's $0. ",
        "0% on purchases, after which 19.99% applies, then 29.99%, before it becomes 30% ",
        "Number one for me: Vista Clear. Vista Clear ticks most of your boxes. ",
        "Vista Clear: the penalty APR is 29.99%, a 29.99 percent penalty APR. ",
        # one unbroken unit of denied and corrected fees: ruleset 14's quoted-belief reading
        # searched each belief's end from that belief to the end (637 s per MB before stop 34);
        # now ~22 CPU-s, most of it in SpanIndex.holding over spans that all reach the text's
        # end - near the 30 s limit, so in the slow tier
        pytest.param(
            "its annual fee isn't $49, it's $0, not $59 as you were told, ",
            marks=pytest.mark.slow,
        ),
    ],
    ids=[
        "fees",
        "intros",
        "negations",
        "cells",
        "notes",
        "issuers",
        "turns",
        "rated",
        "beliefs",
        "denials",
        "then",
        "picks",
        "penalty",
        "one-unit-denials",
    ],
)
def test_ruleset20_one_megabyte_stays_fast_and_still_catches_the_violation(
    filler: str, catalog: Catalog
) -> None:
    text = filler * (1_000_000 // len(filler)) + "\n\nThe Summit Cash Plus has a $89 annual fee."
    start = time.process_time()  # CPU seconds: other jobs on the machine do not count
    verdict = verify_response(text, catalog, customer_id="C1", ruleset=20)
    elapsed = time.process_time() - start
    assert "wrong_fee" in verdict.codes and not verdict.passed
    assert elapsed < 30.0, f"1 MB took {elapsed:.1f}s"
