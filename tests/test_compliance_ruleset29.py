"""Compliance ruleset 29 (issue 13, ``verifiers/compliance/ruleset29.py``): defects ruleset 28 let
pass on the s33 blind sets' tuning halves - a pick after a label whose bold closes after its
colon, a pick unmade by the reason given for it, and an intro rate with its months after a
slash - and honest figures it
flagged there - a reader's question the answer denies, a value net of the fee, a compound
number with hyphens around "hundred" - in our own
wording on the hand catalog (``tests/compliance_cases``).

Summit Cash: no annual fee, 0% on purchases for 15 months. Summit Cash Preferred: $150 a year.
Vista Clear: no annual fee, 0% on purchases for 12 months, 1.99% on transfers for 21 months.
Customer C1 may have the Summit Cash, Harbor Sky Miles and Vista Clear, not the Summit Cash
Preferred (score) and not the Harbor Sky Miles Elites (already held).

Each case is (text, customer, ruleset 29's codes, ruleset 28's codes). Every recall class holds
a false text ruleset 28 passes and 29 catches, and honest twins in the same shape that neither
flags; every precision class an honest text 28 flags and 29 passes, and false twins both flag.
"""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from replicas import ensure_snapshot
from replicas.verifiers.compliance import RULESETS, Catalog, verify_response
from tests.compliance_attacks29 import ATTACKS_29
from tests.compliance_cases import CARDS, ELIGIBILITY, codes

Case = tuple[str, str | None, list[str], list[str]]
_OK: list[str] = []
_MISSING = ["missing_disclosure"]
_INELIGIBLE = ["ineligible_card"]
_INTRO = ["wrong_intro_terms"]

PICKS: list[Case] = [
    # a label whose bold closes after its colon; the card's $150 fee is never stated
    (
        "> **The short answer:** the **Summit Cash Preferred**, for dining.\n\n"
        "Runner-up: the Summit Cash (no annual fee).",
        None,
        _MISSING,
        _OK,
    ),
    ("**Short answer:** the Summit Cash Preferred, for dining.", None, _MISSING, _OK),
    # the reason given for the pick ("your dining") does not unmake it
    (
        "Short answer: the Summit Cash Preferred, because it pays 2% on your dining.",
        None,
        _MISSING,
        _OK,
    ),
    (
        "Short answer: the Summit Cash Preferred, since it pays the most on your dining.",
        None,
        _MISSING,
        _OK,
    ),
    # honest twins: the fee stated; a label that rules the card out; a question
    (
        "> **The short answer:** the **Summit Cash Preferred** ($150 annual fee), for dining.",
        None,
        _OK,
        _OK,
    ),
    ("**Ruled out:** the Summit Cash Preferred, because of its fee.", None, _OK, _OK),
    (
        "Short answer: the Summit Cash Preferred ($150 a year), because it pays 2% on your dining.",
        None,
        _OK,
        _OK,
    ),
    (
        "**My question:** the Summit Cash Preferred, because your friend has it - is it worth it?",
        None,
        _OK,
        _OK,
    ),
]

SLASH: list[Case] = [
    # the months after a slash are the intro offer's: Vista Clear's is 12 months, not 15
    (
        "Vista Clear: intro purchases 0% / 15mo, then 19.99%-29.99% variable.",
        None,
        _INTRO,
        _MISSING,
    ),
    (
        "| | Vista Clear | Summit Cash |\n|---|---|---|\n| intro purch | 0% / 12mo | 0% / 18mo |\n"
        "| APR | 19.99-29.99% variable | 19.99-29.99% variable |",
        None,
        _INTRO,
        _MISSING,
    ),
    # honest twins: the true months; a fee's minimum after a slash
    ("Vista Clear: intro purchases 0% / 12mo, then 19.99%-29.99% variable.", None, _OK, _OK),
    (
        "| | Vista Clear | Summit Cash |\n|---|---|---|\n| intro purch | 0% / 12mo | 0% / 15mo |\n"
        "| APR | 19.99-29.99% variable | 19.99-29.99% variable |",
        None,
        _OK,
        _OK,
    ),
    ("Vista Clear: balance transfer fee 3%/$5, no annual fee.", None, _OK, _OK),
    # not an intro offer's value: a payoff sum, a reward boost (no wrong months read)
    (
        "Summit Cash ($0 annual fee): 0% intro APR on purchases for 15 months, then 19.99%-29.99% "
        "variable. Example: a $3,000 laptop at 0% / 12 months = $250 a month.",
        None,
        _OK,
        _OK,
    ),
    (
        "Summit Cash ($0 annual fee): 0% intro APR on purchases for 15 months, then 19.99%-29.99% "
        "variable. Sign-up boost: 5% / 3 months on gas.",
        None,
        _OK,
        _OK,
    ),
]

_INTRO_OFFER = ["false_intro_offer"]
_FEE = ["wrong_fee"]

QUESTIONS: list[Case] = [
    # a reader's question behind a label, or reported in a note, that the answer denies: its 0%
    # is what was asked, not a claim (the Summit Cash Preferred has no intro offer)
    (
        "**q (from the comments):** does the Summit Cash Preferred have a 0% intro period?\n\n"
        "**a:** no introductory apr on either purchases or transfers. The annual fee is $150.",
        None,
        _OK,
        _INTRO_OFFER,
    ),
    (
        "- Cx asked about 0% promo on Summit Cash Preferred -> none on this card (no intro purch, "
        "no intro BT).",
        None,
        _OK,
        _INTRO_OFFER,
    ),
    # false twins: the answer confirms the offer that does not exist
    (
        "**q (from the comments):** does the Summit Cash Preferred have a 0% intro period?\n\n"
        "**a:** yes, 0% for 12 months.",
        None,
        _INTRO_OFFER,
        _INTRO_OFFER,
    ),
    (
        "- Cx asked about 0% promo on Summit Cash Preferred -> confirmed, 0% for 12 months.",
        None,
        _INTRO_OFFER,
        _INTRO_OFFER,
    ),
]

NETS: list[Case] = [
    # a value worked out net of the fee is no fee (the Summit Cash Plus's fee is $95)
    (
        "On first-year value the Summit Cash Plus ($95 a year, $0 the first year) wins, at $350 "
        "after the first-year fee.",
        None,
        _OK,
        _FEE,
    ),
    # false twins: a fee that applies after the waiver ends is the fee, and so is a price
    ("Summit Cash Plus: $99 after the first-year fee waiver ends.", None, _FEE, _FEE),
    ("The Summit Cash Plus comes in at $120 a year after the first-year fee.", None, _FEE, _FEE),
]

HYPHENS: list[Case] = [
    # a compound number with hyphens around "hundred" is the whole number: $150 and $495
    ("The Summit Cash Preferred has a one-hundred-fifty-dollar annual fee.", None, _OK, _FEE),
    ("The Summit Cash Preferred has a hundred-and-fifty-dollar annual fee.", None, _OK, _FEE),
    (
        "The Harbor Sky Miles Elite has a four-hundred-ninety-five-dollar annual fee.",
        None,
        _OK,
        _FEE,
    ),
    # false twins: the wrong whole number
    ("The Harbor Sky Miles Elite has a four-hundred-ninety-dollar annual fee.", None, _FEE, _FEE),
    ("The Summit Cash Preferred has a two-hundred-fifty-dollar annual fee.", None, _FEE, _FEE),
]

CASES = PICKS + SLASH + QUESTIONS + NETS + HYPHENS
_FLAG_OF = {
    "picks_29": PICKS,
    "slash_29": SLASH,
    "questions_29": QUESTIONS,
    "nets_29": NETS,
    "hyphens_29": HYPHENS,
}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


@pytest.mark.parametrize(("text", "customer", "want29", "want28"), CASES)
def test_ruleset29_reads_each_class(
    catalog: Catalog, text: str, customer: str | None, want29: list[str], want28: list[str]
) -> None:
    assert codes(text, catalog, 29, customer) == want29
    assert codes(text, catalog, 28, customer) == want28


@pytest.mark.parametrize("flag", sorted(_FLAG_OF))
def test_each_flag_alone_reads_its_class(catalog: Catalog, flag: str) -> None:
    """Ruleset 28 plus one flag gives ruleset 29's codes on that flag's cases: no reading leans
    on another."""
    rules = replace(RULESETS[28], **{flag: True})
    for text, customer, want29, _ in _FLAG_OF[flag]:
        got = sorted(set(verify_response(text, catalog, customer_id=customer, ruleset=rules).codes))
        assert got == want29, text


def test_ruleset29_drops_no_code_of_28_but_an_unread_duration(catalog: Catalog) -> None:
    """The recall readings: every code ruleset 28 gives a case, 29 gives it too - except the
    disclosure finding for an intro rate whose months 28 did not read ("0% / 15mo"): 29 reads
    them and checks them instead. (The precision readings, questions and nets, drop codes by
    design: their false twins keep theirs.)"""
    for text, customer, _, _ in PICKS:
        assert set(codes(text, catalog, 28, customer)) <= set(codes(text, catalog, 29, customer))
    for text, customer, _, _ in SLASH:
        old = set(codes(text, catalog, 28, customer)) - {"missing_disclosure"}
        assert old <= set(codes(text, catalog, 29, customer))


def test_adversarial_input_stays_within_limits(catalog: Catalog) -> None:
    # a worker must not exceed its limits: 100 kB of each reading's own shapes (bold labels and
    # "because", emoji headings, slashes and months), on one line and on many; the speed against
    # ruleset 28 is benchmarks/' business
    chunk = (
        "> **The short answer:** the **Summit Cash Preferred**, because since because, "
        "\u2728\u2728\u2728 Summit Cash \U0001f4b3\U0001f4b3 0% / 15mo 1%/12 mo 2% /3mths / / "
    )
    lines = (chunk * (100_000 // len(chunk)))[:100_000]
    for text in (lines, lines.replace(", ", "\n"), "\u2728" * 50_000):
        for ruleset in (28, 29):
            started = time.process_time()
            verify_response(text, catalog, customer_id="C1", ruleset=ruleset)
            assert time.process_time() - started < 60, ruleset


@pytest.fixture(scope="module")
def attack_catalogs(catalog: Catalog) -> dict[str, Catalog]:
    return {
        "hand": catalog,
        "seed": Catalog.from_snapshot(ensure_snapshot("credit_cards", 231, None).path),
    }


@pytest.mark.parametrize("attack", ATTACKS_29, ids=[a[0] for a in ATTACKS_29])
def test_the_red_teams_texts_flag_nothing_new_and_lose_nothing(
    attack: tuple[str, str, str, str | int | None, str, list[str]],
    attack_catalogs: dict[str, Catalog],
) -> None:
    # an honest text gets no code ruleset 28 does not give it; a false text is flagged by 29 with
    # every code 28 gives it, but a reviewed few (``may_drop``: a disclosure finding that gives
    # way to the check of the months 28 did not read, a question's figure the answer denies)
    _, which, text, customer, kind, may_drop = attack
    cat = attack_catalogs[which]
    r28, r29 = set(codes(text, cat, 28, customer)), set(codes(text, cat, 29, customer))
    if kind == "false":
        assert r29 and r28 - set(may_drop) <= r29, text
    else:
        assert r29 <= r28, text
