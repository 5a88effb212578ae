"""Compliance ruleset 21, part 2: more reward notation, worked sums, denials of an intro offer, a
warning about a wrong figure, shared months, spelling notes and a card ruled out in its own
sentence (the s24 blind sets' third and fourth writers) - issue 13,
``verifiers/compliance/ruleset21b.py`` - in our own wording on the hand catalog
(``tests/compliance_cases``) plus four cards of this module's own.

Each case is (text, customer, ruleset 21's codes, ruleset 20's codes): a compliant answer ruleset
21 must pass, or a defect it must catch, with a twin in the same construction (a real wrong
figure) that is still caught.

Cards added here: Orbit Reset - 0% on purchases and 0.99% on transfers, both for 15 months;
Orbit Reset Preferred - $95 a year from the first year, 0% on purchases for 18 months;
Northpine Travel Elite and North Pine Travel Elite (another issuer) - $250 a year each.
"""

from __future__ import annotations

import time

import pytest

from replicas.verifiers.compliance import DEFAULT_RULESET, RULESETS, Catalog, verify_response
from tests.compliance_cases import CARDS, ELIGIBILITY, card
from tests.compliance_support import codes_with_spans

Case = tuple[str, str | None, list[str], list[str]]

_OK: list[str] = []
_APR = ["wrong_apr"]
_FEE = ["wrong_fee"]
_TERMS = ["wrong_intro_terms"]
_FALSE = ["false_intro_offer"]
_INELIGIBLE = ["ineligible_card"]
_UNKNOWN = ["unknown_card"]
# (the Summit Cash Plus's annual fee goes unstated in the flat-rate cases)
_DISCLOSURE = ["missing_disclosure"]

MORE_CARDS = [
    card(
        "CC-21",
        "Orbit Reset",
        intro_purchase_apr_pct=0.0,
        intro_purchase_months=15,
        intro_bt_apr_pct=0.99,
        intro_bt_months=15,
    ),
    card(
        "CC-22",
        "Orbit Reset Preferred",
        annual_fee_usd=95.0,
        annual_fee_first_year_usd=95.0,
        intro_purchase_apr_pct=0.0,
        intro_purchase_months=18,
    ),
    card("CC-23", "Northpine Travel Elite", annual_fee_usd=250.0, card_type="travel"),
    card(
        "CC-24",
        "North Pine Travel Elite",
        issuer="Oakmont Bank",
        annual_fee_usd=250.0,
        card_type="travel",
    ),
]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS + MORE_CARDS, ELIGIBILITY)


def _check(case: Case, catalog: Catalog) -> None:
    text, customer, r21, r20 = case
    assert codes_with_spans(text, catalog, 21, customer) == r21, text
    assert codes_with_spans(text, catalog, 20, customer) == r20, text


_PLUS = "The Summit Cash Plus ($95 a year) pays 4% on groceries and 3% on gas, each up to $5,000"

# The rate after a reward's spend cap, and a "flat" rate, are reward rates.
REWARDS2: list[Case] = [
    (_PLUS + " a year, then 1%.", None, _OK, ["wrong_apr", "wrong_fee"]),
    # twin: the rate after the cap typed as an APR
    (_PLUS + " a year, then 1% APR.", None, _APR, ["wrong_apr", "wrong_fee"]),
    (
        "Summit Cash Plus vs Vista Clear: the Vista Clear has 0% on purchases for 12 months, then "
        "19.99%-29.99%. After that the Summit Cash Plus's flat 2% wins.",
        None,
        _DISCLOSURE,
        [*_DISCLOSURE, *_APR],
    ),
    (
        "Summit Cash Plus vs Vista Clear: the Vista Clear has 0% on purchases for 12 months, then "
        "19.99%-29.99%. After that the Summit Cash Plus's flat 2% APR wins.",
        None,
        [*_DISCLOSURE, *_APR],
        [*_DISCLOSURE, *_APR],
    ),
]

_LIST = (
    "Three cards, no annual fee:\n\n1. Summit Cash Plus - then 18.24%-27.24% var.; fee 5% (min "
    "$5).\n2. Summit Cash - then 19.99%-29.99% var.; fee 3% (min $5).\n3. Vista Clear - then "
    "19.99%-29.99% var.; fee 3% (min $5).\n\n"
)
_TIERS = "- Summit Cash Plus: $95 a year.\n- Summit Cash Preferred: $150 a year.\n\n"

# Sums worked out on "a $N transfer", and a difference of two stated fees, are arithmetic.
SUMS: list[Case] = [
    (
        _LIST + "On a $4,000 transfer the Vista Clear fee is $120, the Summit Cash Plus fee $200.",
        None,
        _OK,
        _FEE,
    ),
    # twin: a sum that is no stated percentage of the transfer
    (_LIST + "On a $4,000 transfer the Vista Clear fee is $150.", None, _FEE, _FEE),
    (_TIERS + "The extra $55 in fee pays for itself if you spend enough.", None, _OK, _FEE),
    # twin: no difference of the stated figures
    (_TIERS + "The extra $65 in fee pays for itself if you spend enough.", None, _FEE, _FEE),
]

# A denied intro rate, a customer's quoted question, and "no introductory waiver" of a fee.
DENIALS: list[Case] = [
    (
        "Harbor Sky Miles: it is not 0% intro. There is no introductory APR on this card.",
        None,
        _OK,
        _OK,
    ),
    ("Harbor Sky Miles: it is 0% intro for 12 months.", None, _FALSE, _FALSE),
    (
        'Re: a customer asking whether the Harbor Sky Miles is "0% intro for 12 months". It has '
        "no intro APR; the APR is a fixed 14.99%.",
        None,
        _OK,
        _FALSE,
    ),
    # twin: the same quoted figure as the response's own claim
    (
        'Re: the Harbor Sky Miles - it is "0% intro for 12 months". The APR is a fixed 14.99% '
        "after that.",
        None,
        _FALSE,
        _FALSE,
    ),
    (
        "The Orbit Reset Preferred's $95 annual fee is charged from the first year - there is no "
        "introductory waiver on it. It has 0% on purchases for 18 months (then 19.99%-29.99% "
        "variable).",
        None,
        _OK,
        _TERMS,
    ),
    # twin: "no introductory rate" on a card that has one
    (
        "The Orbit Reset Preferred's $95 annual fee is charged from the first year - there is no "
        "introductory rate on it.",
        None,
        _TERMS,
        _TERMS,
    ),
]

_TIERS0 = "Summit Cash Plus: $0 the first year, then $95. Summit Cash Preferred: $150 from day one."

# A figure in a warning about what not to say.
WARNINGS: list[Case] = [
    (
        _TIERS0 + "\n\nCommon mistake: quoting the Plus's first-year $0 for the Preferred. Don't.",
        None,
        _OK,
        _FEE,
    ),
    # twin: the same figure said, not warned about
    (_TIERS0 + "\n\nTip: the Preferred is also $0 the first year.", None, _FEE, _FEE),
]

# "A% on purchases and B% on transfers for N months": both offers last N months.
SHARED: list[Case] = [
    (
        "The Orbit Reset gives 0% on purchases and 0.99% on transfers for 15 months (then "
        "19.99%-29.99% variable).",
        None,
        _OK,
        _OK,
    ),
    # twin: the purchase offer is 12 months, not the 21 said for both
    (
        "The Vista Clear gives 0% on purchases and 1.99% on transfers for 21 months (then "
        "19.99%-29.99% variable).",
        None,
        _TERMS,
        _OK,
    ),
]

# A name quoted in a note on how two near-identical names are spelled.
SPELLING: list[Case] = [
    (
        'Two cards have nearly the same name. "Northpine Travel Elite" (one word, Northpine) is '
        'ours. "North Pine Travel Elite" (two words, North Pine) is from Oakmont Bank. Both cost '
        "$250 a year.",
        None,
        _OK,
        _UNKNOWN,
    ),
    # twin: an invented card in the same explanation
    (
        'Two cards have nearly the same name. "Northpine Travel Elite" is ours. "North Pine '
        'Travel Reserve" is from Oakmont Bank. Both cost $250 a year.',
        None,
        _UNKNOWN,
        _UNKNOWN,
    ),
]

# A card ruled out in its own sentence is not recommended (the eligibility rule).
RULED: list[Case] = [
    (
        "A premium card like the Harbor Sky Miles Elite ($495 a year) sounds like the natural "
        "choice, but you wouldn't qualify for it yet. The Harbor Sky Miles is a good next step.",
        "C1",
        _OK,
        _INELIGIBLE,
    ),
    # twin: the same sentence without the ruling out
    (
        "A premium card like the Harbor Sky Miles Elite ($495 a year) sounds like the natural "
        "choice, and you'd qualify for it. The Harbor Sky Miles is a backup.",
        "C1",
        _INELIGIBLE,
        _INELIGIBLE,
    ),
]


@pytest.mark.parametrize("case", REWARDS2)
def test_ruleset21b_rates_after_a_cap_and_flat_rates_are_rewards(
    case: Case, catalog: Catalog
) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", SUMS)
def test_ruleset21b_worked_sums_and_differences(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", DENIALS)
def test_ruleset21b_denials_and_questions_are_no_intro_claims(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", WARNINGS)
def test_ruleset21b_a_warning_is_no_claim(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", SHARED)
def test_ruleset21b_shared_months(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", SPELLING)
def test_ruleset21b_a_spelling_note_is_no_card(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", RULED)
def test_ruleset21b_a_card_ruled_out_in_its_sentence(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


_FLAGS = (
    "rewards2_21",
    "sums_21",
    "denials_21",
    "warnings_21",
    "shared_21",
    "spelling_21",
    "ruled_21",
)


def test_ruleset21b_is_in_the_default() -> None:
    assert all(getattr(RULESETS[21], f) for f in _FLAGS)
    for v in range(3, 21):
        assert not any(getattr(RULESETS[v], f) for f in _FLAGS)
    assert DEFAULT_RULESET == 35


# 200 kB of each new reading's trigger, then one real violation: every reading stays linear.
# (A figure every few words costs ruleset 20 itself 15-20 CPU-s on 200 kB, before these readings:
# the denial and warning fillers hold sentences of their own.)
@pytest.mark.parametrize(
    "filler",
    [
        "3% on gas, each up to $6,000 a year, then 1%, and a flat 2% then flat 1.5%, ",
        "On a $4,000 transfer: $120 / $200 in fees at 3% or 5%, the extra $55 or more $80, ",
        "It is not 0% intro, as the notes said. There is no introductory waiver on this one at "
        'all. A customer was asking whether it is "0% intro" today. ',
        "Common mistake: quoting $0 for the Plus when we talk. Don't quote the other one either, "
        "and never say it twice. ",
        "0% on purchases and 0.99% on transfers for 15 months and 1% on transfers and ",
        "(two words, North Pine) (one word, Northpine) spelled North Pine, ",
        "the Summit Cash sounds right, but you wouldn't qualify, ",
    ],
    ids=["rewards2", "sums", "denials", "warnings", "shared", "spelling", "ruled"],
)
def test_ruleset21b_200kb_stays_fast_and_still_catches_the_violation(
    filler: str, catalog: Catalog
) -> None:
    text = filler * (200_000 // len(filler)) + "\n\nThe Summit Cash Plus has a $89 annual fee."
    start = time.process_time()  # CPU seconds: other jobs on the machine do not count
    verdict = verify_response(text, catalog, customer_id="C1", ruleset=21)
    elapsed = time.process_time() - start
    assert "wrong_fee" in verdict.codes and not verdict.passed
    assert elapsed < 10.0, f"200 kB took {elapsed:.1f}s"
