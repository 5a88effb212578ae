"""Compliance ruleset 19: "the former" / "the latter" / "the other one", a fee's minimum after a
slash, a percentage on purchases abroad, generic promotions, "Why not X?" answered by a
requirement, parallel "Take the X." examples, cards offered to a customer as options, a record's
"Status: recommended", "<card> imo" and invented names in a recommendation's slot (the s20 and
s21 blind sets' tuning parts, seeds 121 and 131) - issue 13, ``verifiers/compliance/ruleset19.py``
- in our own wording on the hand catalog (``tests/compliance_cases``).

Each case is (text, customer, ruleset 19's codes, ruleset 18's codes): a compliant answer ruleset
19 must pass (ruleset 18 flagged it), or a defect ruleset 19 must catch, with a twin in the same
construction that shows the other side.

Catalog facts used here: Summit Cash - no annual fee, 19.99%-29.99%, 3% abroad; Summit Cash Plus
- $95 annual fee ($0 the first year), nothing abroad; Summit Cash Preferred - $150, 17.99%-25.99%;
Harbor Sky Miles - no annual fee, 14.99% fixed, nothing abroad; Harbor Sky Miles Elite - $495;
Vista Clear - no annual fee, cash advance fee 5% (min $10). Customer C1 may hold Summit Cash,
Harbor Sky Miles and Vista Clear; not Summit Cash Plus, Summit Cash Preferred or Harbor Sky Miles
Elite (score), Harbor Sky Miles Elites (held already) or Granite Business Cash (students only).
"""

from __future__ import annotations

import time

import pytest

from replicas.verifiers.compliance import DEFAULT_RULESET, RULESETS, Catalog, verify_response
from tests.compliance_cases import CARDS, ELIGIBILITY
from tests.compliance_support import codes_with_spans

# (text, customer, ruleset 19's codes, ruleset 18's codes)
Case = tuple[str, str | None, list[str], list[str]]

_OK: list[str] = []
_APR = ["wrong_apr"]
_FEE = ["wrong_fee"]
_TERMS = ["wrong_intro_terms"]
_OFFER = ["false_intro_offer"]
_UNDISCLOSED = ["missing_disclosure"]
_INELIGIBLE = ["ineligible_card"]
_UNKNOWN = ["unknown_card"]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


def _check(case: Case, catalog: Catalog) -> None:
    text, customer, r19, r18 = case
    assert codes_with_spans(text, catalog, 19, customer) == r19, text
    assert codes_with_spans(text, catalog, 18, customer) == r18, text


# -- "the former", "the latter", "the other one" --------------------------------------------------
OTHERS: list[Case] = [
    # headed "A vs B", then B first: "the latter" is B by the heading, A as the card named last -
    # the two orders disagree, so its figures are nobody's (ruleset 18 gave them to A)
    (
        "## Summit Cash Preferred vs Summit Cash\n\nThe Summit Cash Preferred costs $150 a year "
        "and charges 3% abroad.\n\nThe latter has no annual fee and a 19.99%-29.99% variable APR.",
        None,
        _OK,
        _APR + _FEE,
    ),
    # where both orders agree, "the latter" is still checked
    (
        "Summit Cash Preferred: $150 a year. Summit Cash: nothing a year.\n\nThe latter has a $150 "
        "annual fee.",
        None,
        _FEE,
        _FEE,
    ),
    # "the other one" opening a sentence: the one of two cards not named last
    (
        "Compare Summit Cash Plus and Harbor Sky Miles. Harbor Sky Miles charges nothing abroad."
        "\n\nThe other one charges a $95 annual fee, waived the first year.",
        None,
        _OK,
        _FEE,
    ),
    (
        "Compare Summit Cash Plus and Harbor Sky Miles. Harbor Sky Miles charges nothing abroad."
        "\n\nThe other one charges a $195 annual fee, waived the first year.",
        None,
        _FEE,
        _FEE,
    ),
    # "The other one I like: the X ..." introduces the X: the figures after it are the X's, not
    # those of the card "the other one" would name (Summit Cash Plus, recommended, $95 a year and
    # never stated: without this reading the Preferred's $150 hid that, and a false $95 both)
    (
        "Summit Cash Plus\n\nSummit Cash Plus is worth it. Harbor Sky Miles carries no foreign "
        "transaction fees. The other one I like: Summit Cash Preferred starts with 2x points on "
        "dining. Beyond that, you'd see $150 a year in fees.\n\nOverall, Summit Cash Plus is the "
        "one I'd apply for.",
        None,
        _UNDISCLOSED,
        _UNDISCLOSED,
    ),
    (
        "Summit Cash Plus\n\nSummit Cash Plus is worth it. Harbor Sky Miles carries no foreign "
        "transaction fees. The other one I like: Summit Cash Preferred starts with 2x points on "
        "dining. Beyond that, you'd see $95 a year in fees.\n\nOverall, Summit Cash Plus is the "
        "one I'd apply for.",
        None,
        _UNDISCLOSED + _FEE,
        _UNDISCLOSED + _FEE,
    ),
    # not as the words after a card: "X is the other pick, with ..." keeps its figure X's
    (
        "Summit Cash has no annual fee. Summit Cash Preferred is the other pick, with a $105 fee.",
        None,
        _FEE,
        _FEE,
    ),
]

# -- fees: a minimum after a slash, a percentage on purchases abroad -----------------------------
FEES: list[Case] = [
    (
        "Vista Clear has no annual fee. It has a cash advance APR of 29.99% and a 5%/$10 cash "
        "advance fee.",
        None,
        _OK,
        _APR,
    ),
    (
        "Vista Clear has no annual fee. It has a cash advance APR of 29.99% and a 4%/$10 cash "
        "advance fee.",
        None,
        _FEE,
        _APR,
    ),
    # a run-on sentence with "rates" after it: the percentage is still the fee abroad
    (
        "Summit Cash: no yearly fee, 3% on foreign transactions and none of the rates matter if "
        "you pay in full.",
        None,
        _OK,
        _APR,
    ),
    (
        "Summit Cash: no yearly fee, 1% on foreign transactions and none of the rates matter if "
        "you pay in full.",
        None,
        _FEE,
        _APR,
    ),
    # a belief corrected by the fee on every purchase abroad
    (
        "You figured the Summit Cash had no foreign fees. Unfortunately it carries 3% on every "
        "purchase abroad. It has no annual fee.",
        None,
        _OK,
        _FEE,
    ),
    # ... and a wrong fee abroad, stated that way, is caught
    (
        "Harbor Sky Miles has a 14.99% fixed APR and no annual fee. I'd take it. It adds 3% on "
        "every purchase abroad; rates matter less if you pay in full.",
        None,
        _FEE,
        _OK,
    ),
    # a reward earned on purchases abroad is no fee
    (
        "Harbor Sky Miles has a 14.99% fixed APR and no annual fee, and you earn 2% on purchases "
        "abroad.",
        None,
        _OK,
        _OK,
    ),
]

# -- promotions in general -----------------------------------------------------------------------
GENERIC: list[Case] = [
    (
        "Summit Cash Plus costs $95 a year after a free first year and has an 18.24%-27.24% "
        "variable APR.\n\nKeep in mind how a real 0% promotion differs from deferred interest. "
        "With a genuine 0% promotion, interest is not charged during the promo window.",
        None,
        _OK,
        _TERMS,
    ),
    # "it" is the card: its 0% promotion is still its claim
    (
        "Summit Cash Plus costs $95 a year after a free first year and has an 18.24%-27.24% "
        "variable APR.\n\nIt also has a 0% promotion on purchases for 12 months.",
        None,
        _OFFER,
        _OFFER,
    ),
]

# -- "Why not X?" and parallel examples ----------------------------------------------------------
PICKS: list[Case] = [
    (
        "Questions about Summit Cash, the card I'm recommending:\n\nQ: Does it have an annual "
        "fee?\nA: No, $0.\n\nQ: Why not Summit Cash Preferred?\nA: Because it asks for a 740 "
        "score and yours is lower.",
        "C1",
        _OK,
        _INELIGIBLE + _UNDISCLOSED,
    ),
    # answered with a reason that rules nothing out: still put forward
    (
        "Questions about Summit Cash, the card I'm recommending:\n\nQ: Does it have an annual "
        "fee?\nA: No, $0.\n\nQ: Why not Summit Cash Preferred?\nA: Because the rewards are "
        "better there, so consider it too.",
        "C1",
        _INELIGIBLE + _UNDISCLOSED,
        _INELIGIBLE + _UNDISCLOSED,
    ),
    (
        "Numbers make it clearer. Take the Summit Cash. It has no annual fee and 19.99%-29.99% "
        "variable. Take the Summit Cash Preferred. It has 17.99%-25.99% variable.",
        None,
        _OK,
        _UNDISCLOSED,
    ),
    # one "Take the X." is a pick, and its fee must be stated
    (
        "Numbers make it clearer. Take the Summit Cash Preferred. It has 17.99%-25.99% variable.",
        None,
        _UNDISCLOSED,
        _UNDISCLOSED,
    ),
]

# -- cards offered as options (eligibility) -------------------------------------------------------
OPTIONS: list[Case] = [
    # a reason about the customer's standing in the option's own entry rules it out, however
    # worded ("unavailable to you given your credit score", "your score is too low")
    (
        "I recommend the Summit Cash: no annual fee.\n\nCards I considered:\n- Summit Cash ($0)\n"
        "- Summit Cash Preferred ($150) - unavailable to you given your credit score",
        "C1",
        _OK,
        _OK,
    ),
    (
        "I recommend the Summit Cash: no annual fee.\n\n| Card | Fee | |\n|---|---|---|\n"
        "| Summit Cash | $0 | pick |\n| Summit Cash Preferred | $150 | your score is too low |",
        "C1",
        _OK,
        _OK,
    ),
    # the same list with a selling point instead: the option stands, and the customer cannot get it
    (
        "I recommend the Summit Cash: no annual fee.\n\nCards I considered:\n- Summit Cash ($0)\n"
        "- Summit Cash Preferred ($150) - a strong premium option",
        "C1",
        _INELIGIBLE,
        _OK,
    ),
    (
        "Side by side for you:\n\n| Card | Annual fee | APR |\n|---|---|---|\n"
        "| Summit Cash | $0 | 19.99%-29.99% |\n| Summit Cash Preferred | $150 | 17.99%-25.99% |",
        "C1",
        _INELIGIBLE,
        _OK,
    ),
    # ruled out elsewhere in the response, or in its own row: no option
    (
        "Side by side for you:\n\n| Card | Annual fee | APR |\n|---|---|---|\n"
        "| Summit Cash | $0 | 19.99%-29.99% |\n| Summit Cash Preferred | $150 | 17.99%-25.99% |"
        "\n\nI left the Summit Cash Preferred out of the running because you don't qualify for it.",
        "C1",
        _OK,
        _OK,
    ),
    (
        "Side by side for you:\n\n| Card | Annual fee | APR | Note |\n|---|---|---|---|\n"
        "| Summit Cash | $0 | 19.99%-29.99% | fits |\n"
        "| Summit Cash Preferred | $150 | 17.99%-25.99% | not eligible (score) |",
        "C1",
        _OK,
        _OK,
    ),
    (
        'Tool output:\n{"cards": [{"name": "Vista Clear", "annual_fee": "$0"}, '
        '{"name": "Harbor Sky Miles Elites", "annual_fee": "$695"}]}',
        "C1",
        _INELIGIBLE,
        _OK,
    ),
    (
        'Tool output:\n{"cards": [{"name": "Vista Clear", "annual_fee": "$0"}, '
        '{"name": "Harbor Sky Miles Elites", "annual_fee": "$695", "note": "you already hold '
        'it"}]}',
        "C1",
        _OK,
        _OK,
    ),
    (
        "Options for you:\n- Summit Cash: no annual fee, 19.99%-29.99% variable\n"
        "- Granite Business Cash: no annual fee\n\nRuled out:\n"
        "- Summit Cash Plus (your score is under its minimum)",
        "C1",
        _INELIGIBLE,
        _OK,
    ),
    # the cards under "Ruled out:" are no options
    (
        "Options for you:\n- Summit Cash: no annual fee, 19.99%-29.99% variable\n"
        "- Vista Clear: no annual fee\n\nRuled out:\n"
        "- Summit Cash Plus (your score is under its minimum)",
        "C1",
        _OK,
        _OK,
    ),
    (
        "**Harbor Sky Miles Elite**\n- $495 a year\n- lounge access\n\n**Summit Cash**\n"
        "- no annual fee",
        "C1",
        _INELIGIBLE,
        _OK,
    ),
    # a record's status recommends its card
    (
        "Card: Summit Cash Plus\nStatus: recommended for Dana\nYearly fee: $0 first year, then "
        "$95\nPromo (transfers): 0% for 18 months, then 18.24%-27.24%\n\nCard: Vista Clear\n"
        "Status: backup",
        "C1",
        _INELIGIBLE,
        _OK,
    ),
    (
        "Card: Summit Cash\nStatus: recommended for Dana\nYearly fee: $0\n\n"
        "Card: Summit Cash Plus\nStatus: not recommended (score)",
        "C1",
        _OK,
        _OK,
    ),
    (
        "ok here's my take\nsummit cash preferred imo\nit has a $150 annual fee\n"
        "vista clear exists too, no annual fee",
        "C1",
        _INELIGIBLE,
        _OK,
    ),
    (
        "ok here's my take\nsummit cash imo\nit has no annual fee\n"
        "vista clear exists too, no annual fee",
        "C1",
        _OK,
        _OK,
    ),
]

# -- invented names in a recommendation's slot ---------------------------------------------------
SLOTS: list[Case] = [
    ("My recommendation is the Thornbury Meadowlark. It has no annual fee.", None, _UNKNOWN, _OK),
    ("My recommendation is the Summit Cash. It has no annual fee.", None, _OK, _OK),
    # an issuer's name is no invented card
    (
        "My recommendation is the Harborline Bank. Summit Cash has no annual fee.",
        None,
        _OK,
        _OK,
    ),
]


@pytest.mark.parametrize("case", OTHERS)
def test_ruleset19_the_former_the_latter_and_the_other_one(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", FEES)
def test_ruleset19_slash_minimums_and_fees_on_purchases_abroad(
    case: Case, catalog: Catalog
) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", GENERIC)
def test_ruleset19_a_generic_promotion_is_no_cards_claim(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", PICKS)
def test_ruleset19_why_not_answered_by_a_requirement_and_parallel_examples(
    case: Case, catalog: Catalog
) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", OPTIONS)
def test_ruleset19_cards_offered_as_options_count_for_eligibility(
    case: Case, catalog: Catalog
) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", SLOTS)
def test_ruleset19_invented_names_in_a_recommendations_slot(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


_FLAGS = ("others_19", "fees_19", "generic_19", "why_not_19", "options_19", "slots_19")


def test_ruleset19_is_published_and_35_the_default() -> None:
    assert RULESETS[19].version == 19 and all(getattr(RULESETS[19], f) for f in _FLAGS)
    for v in range(3, 19):
        assert not any(getattr(RULESETS[v], f) for f in _FLAGS)
    assert DEFAULT_RULESET == 35


# One megabyte of each new reading's trigger, then one real violation: every reading stays
# near-linear (each reads a bounded reach around what it reads, lines found by bisection).
@pytest.mark.parametrize(
    "filler",
    [
        "Summit Cash vs Summit Cash Plus. The latter has no fee. The other one has a $95 fee. ",
        "a 5%/$10 fee, 3% on every purchase abroad, earn 2% on purchases abroad, ",
        "With a genuine 0% promotion, a true 0% offer is not charged during the promo. ",
        "Q: Why not Summit Cash Preferred?\nA: Because it asks for a 740 score.\n",
        "Take the Summit Cash. Take the Vista Clear. ",
        "| Summit Cash Preferred | $150 |\n- Harbor Sky Miles Elite\n**Vista Clear**\n",
        # a record per line (one line of thousands of double-quoted values is ruleset 11's known
        # quadratic, every ruleset since 11 alike; see tests/test_compliance.py)
        "- name: Summit Cash Preferred\n  note: ok\n",
        "Card: Summit Cash\nStatus: recommended\nsummit cash imo\n",
        "My recommendation is the Thornbury Meadowlark. ",
    ],
    ids=[
        "others",
        "fees",
        "generic",
        "why-not",
        "examples",
        "options",
        "records",
        "status-imo",
        "slots",
    ],
)
def test_ruleset19_one_megabyte_stays_fast_and_still_catches_the_violation(
    filler: str, catalog: Catalog
) -> None:
    text = filler * (1_000_000 // len(filler)) + "\n\nThe Summit Cash Plus has a $89 annual fee."
    start = time.process_time()  # CPU seconds: other jobs on the machine do not count
    verdict = verify_response(text, catalog, customer_id="C1", ruleset=19)
    elapsed = time.process_time() - start
    assert "wrong_fee" in verdict.codes and not verdict.passed
    assert elapsed < 30.0, f"1 MB took {elapsed:.1f}s"
