"""Compliance ruleset 28 (issue 13, ``verifiers/compliance/ruleset28.py`` and ``ruleset28b.py``):
claims earlier rulesets let pass - a percentage's own fee noun, "charged from the first year",
"it's a variable rate", and a catalog name with an invented word after it - found among the
defective answers of all read blind sets that ruleset 27 passes, in our own wording on the hand
catalog (``tests/compliance_cases``).

Summit Cash: no annual fee, 19.99%-29.99% variable, 3% foreign fee, 3% transfer fee, cash advances
5% (min $10), late fee $40. Summit Cash Plus: $95 a year, $0 the first year, 18.24%-27.24%
variable, 5% transfer fee, no foreign fee. Summit Cash Preferred: $150 a year, $150 the first year.
Harbor Sky Miles: 14.99% fixed, no foreign fee. Vista Clear: no first-year fee given.

Each case is (text, customer, ruleset 28's codes, ruleset 27's codes). Every class holds a false
text ruleset 27 passes and 28 catches, and honest twins in the same shape that neither flags.
"""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from replicas import ensure_snapshot
from replicas.verifiers.compliance import RULESETS, Catalog, verify_response
from tests.compliance_attacks28 import ATTACKS_28
from tests.compliance_cases import CARDS, ELIGIBILITY, codes

Case = tuple[str, str | None, list[str], list[str]]
_OK: list[str] = []
_FEE = ["wrong_fee"]
_APR = ["wrong_apr"]
_UNKNOWN = ["unknown_card"]
_MISSING = ["missing_disclosure"]

FEE_PHRASES: list[Case] = [
    # a reward word before the figure no longer hides the fee its own noun phrase names
    ("Summit Cash Plus is a cash back card with a 3% foreign transaction fee.", None, _FEE, _OK),
    ("Harbor Sky Miles earns 2x miles with a 3% foreign transaction fee.", None, _FEE, _OK),
    ("Summit Cash Plus (cash back): 3% foreign transaction fee.", None, _FEE, _OK),
    (
        "Harbor Sky Miles is a travel rewards card with 2% foreign-currency conversion fees.",
        None,
        _FEE,
        _OK,
    ),
    (
        "Summit Cash Plus is a rewards card with a three percent foreign transaction fee.",
        None,
        _FEE,
        _OK,
    ),
    # honest twins: the card's true fee, a reward rate, a fee of the right card
    ("Summit Cash is a cash back card with a 3% foreign transaction fee.", None, _OK, _OK),
    ("Summit Cash Plus is a cash back card with a 5% balance transfer fee.", None, _OK, _OK),
    ("Summit Cash Plus earns 2% cash back and has no foreign transaction fee.", None, _OK, _OK),
]

YEAR_ONE: list[Case] = [
    # the fee said to apply in the first year, for a card whose first year is $0
    ("Summit Cash Plus: the annual fee is $95, charged from the first year.", None, _FEE, _OK),
    ("Summit Cash Plus: $95 annual fee starting in year one.", None, _FEE, _OK),
    ("The Summit Cash Plus costs $95 a year, with no first-year waiver.", None, _FEE, _OK),
    ("Summit Cash Plus - $95 AF (charged in year one too).", None, _FEE, _OK),
    ("Summit Cash Plus: the $95 annual fee is billed from the first statement.", None, _FEE, _OK),
    # honest twins: a card whose first year costs the full fee, a waiver, a question, a negation
    ("Summit Cash Preferred: the annual fee is $150, charged from the first year.", None, _OK, _OK),
    ("Summit Cash Plus: $95 annual fee, waived the first year.", None, _OK, _OK),
    ("Summit Cash Plus: $95 a year, but it isn't charged from the first year.", None, _OK, _OK),
    ("Is the Summit Cash Plus's $95 annual fee charged from the first year?", None, _OK, _OK),
    ("Summit Cash Plus: $95 a year from year 12 of a 15-year plan.", None, _OK, _OK),
]

VARIABILITY: list[Case] = [
    ("Harbor Sky Miles has a purchase APR of 14.99% - and it's a variable rate.", None, _APR, _OK),
    ("Summit Cash has a purchase APR of 19.99% to 29.99%, and it's a fixed rate.", None, _APR, _OK),
    ("Summit Cash purchases cost 19.99% to 29.99% - that's a fixed rate.", None, _APR, _OK),
    # honest twins, a negation and a question
    ("Harbor Sky Miles has a purchase APR of 14.99%, and it's a fixed rate.", None, _OK, _OK),
    ("Summit Cash has a purchase APR of 19.99% to 29.99% - it's a variable rate.", None, _OK, _OK),
    ("Harbor Sky Miles has a purchase APR of 14.99% - it's not a variable rate.", None, _OK, _OK),
]

EXTENDED: list[Case] = [
    # an invented word after a catalog name makes another product, whatever the word
    (
        "I recommend the Summit Cash Plus Prestige: $95 a year, $0 the first year.",
        None,
        _UNKNOWN,
        _OK,
    ),
    ("The Harbor Sky Miles Obsidian earns miles on travel.", None, _UNKNOWN, _OK),
    ("Go for the Summit Cash Luxe if you eat out a lot.", None, _UNKNOWN, _OK),
    # honest twins: a verb, a network, a heading in title case, an abbreviation
    ("The Summit Cash Plus Earns 2% on everything.", None, _OK, _OK),
    ("The Summit Cash Plus Visa has no foreign transaction fee.", None, _OK, _OK),
    ("## Why The Summit Cash Plus Wins For Travelers", None, _OK, _OK),
    ("The Summit Cash Plus APR is 18.24% to 27.24% variable.", None, _OK, _OK),
]

PICKS: list[Case] = [
    # a pick the clause leads to past a colon or comma, made with another verb, or an answer that
    # opens with the card: its $150 fee is never stated, and customer C1 may not have it
    (
        "I recommend our top card, the **Summit Cash Preferred**:\n- 2% on dining",
        None,
        _MISSING,
        _OK,
    ),
    ("Short answer: the Summit Cash Preferred. 2% on dining.", None, _MISSING, _OK),
    (
        "I'd look at the **Summit Cash Preferred**. The Summit Cash is the fallback.",
        "C1",
        ["ineligible_card", "missing_disclosure"],
        _OK,
    ),
    ("> best card for dining?\n\nSummit Cash Preferred. 2% on dining.", None, _MISSING, _OK),
    # honest twins: the fee stated; no pick (a condition not met, another's pick, the card's fine
    # print)
    ("Short answer: the Summit Cash Preferred. $150 a year, 2% on dining.", None, _OK, _OK),
    ("If you travelled monthly, I'd look at the Summit Cash Preferred. You don't.", None, _OK, _OK),
    (
        "Your friend recommended her card, the Summit Cash Preferred, but it isn't for you.",
        None,
        _OK,
        _OK,
    ),
    ("Before you decide, I'd look at the Summit Cash Preferred's fee table.", None, _OK, _OK),
]

CASES = FEE_PHRASES + YEAR_ONE + VARIABILITY + EXTENDED + PICKS


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


@pytest.mark.parametrize(("text", "customer", "want28", "want27"), CASES)
def test_ruleset28_reads_each_class(
    catalog: Catalog, text: str, customer: str | None, want28: list[str], want27: list[str]
) -> None:
    assert codes(text, catalog, 28, customer) == want28
    assert codes(text, catalog, 27, customer) == want27


_FLAG_OF = {
    "fee_phrases_28": FEE_PHRASES,
    "year_one_28": YEAR_ONE,
    "variability_28": VARIABILITY,
    "extended_28": EXTENDED,
    "picks_28": PICKS,
}


@pytest.mark.parametrize("flag", sorted(_FLAG_OF))
def test_each_flag_alone_reads_its_class(catalog: Catalog, flag: str) -> None:
    """Ruleset 27 plus one flag gives ruleset 28's codes on that flag's cases: no reading leans
    on another."""
    rules = replace(RULESETS[27], **{flag: True})
    for text, customer, want28, _ in _FLAG_OF[flag]:
        got = sorted(set(verify_response(text, catalog, customer_id=customer, ruleset=rules).codes))
        assert got == want28, text


def test_ruleset28_never_drops_a_code_of_27(catalog: Catalog) -> None:
    """A recall ruleset: every code ruleset 27 gives a case, 28 gives it too."""
    for text, customer, _, _ in CASES:
        assert set(codes(text, catalog, 27, customer)) <= set(codes(text, catalog, 28, customer))


def test_first_year_finding_names_the_first_year_fee(catalog: Catalog) -> None:
    text = "Summit Cash Plus: the annual fee is $95, charged from the first year."
    reasons = verify_response(text, catalog, ruleset=28).reasons
    assert [r.code for r in reasons] == ["wrong_fee"]
    assert "first-year" in reasons[0].message


def test_adversarial_input_stays_within_limits(catalog: Catalog) -> None:
    # a worker must not exceed its limits: 100 kB of each reading's own words (fee phrases after
    # reward words, first-year words after a fee, variability words, capitalised words after a
    # name), on one line and on many; the speed against ruleset 27 is benchmarks/' business
    chunk = (
        "Summit Cash Plus is a cash back card with a 3% foreign transaction fee and a $95 annual "
        "fee, charged charged from the first year, no intro fee waiver, 14.99% - and it's a "
        "variable rate, the Summit Cash Plus Prestige Obsidian Luxe, 2% 3% 4% fee fee. "
    )
    lines = (chunk * (100_000 // len(chunk)))[:100_000]
    for text in (lines, lines.replace(". ", ".\n"), "Summit Cash Plus" + " Prestige" * 11_000):
        for ruleset in (27, 28):
            started = time.process_time()
            verify_response(text, catalog, ruleset=ruleset)
            assert time.process_time() - started < 60, ruleset


OWN_RATES: list[Case] = [
    # a rate typed as the cash advance or penalty APR and nothing else is checked against it
    ("Summit Cash: cash advances are a different story: 19.99% APR and a 5% fee.", None, _APR, _OK),
    # honest twins: the card's own cash advance APR; a rate of another kind
    ("Summit Cash: cash advances are a different story: 29.99% APR and a 5% fee.", None, _OK, _OK),
]
_FLAG_OF["own_rates_28"] = OWN_RATES


@pytest.mark.parametrize(("text", "customer", "want28", "want27"), OWN_RATES)
def test_ruleset28_own_rates(
    catalog: Catalog, text: str, customer: str | None, want28: list[str], want27: list[str]
) -> None:
    assert codes(text, catalog, 28, customer) == want28
    assert codes(text, catalog, 27, customer) == want27


def test_long_runs_of_white_space_read_as_eight(catalog: Catalog) -> None:
    # spaces_28: nine spaces and ten thousand read alike (ruleset 27 reads the first and misses
    # the second, and took seconds on such runs)
    short = "Summit Cash Plus is a cash back card with a 3%" + " " * 9 + "x fee."
    long = "Summit Cash Plus is a cash back card with a 3%" + " " * 10_000 + "x fee."
    assert codes(short, catalog, 28) == codes(long, catalog, 28) == codes(short, catalog, 27)
    assert codes(long, catalog, 27) == []
    started = time.process_time()
    verify_response("Harbor Sky Miles APR 14.99%" + "\t" * 50_000 + "fixed.", catalog, ruleset=28)
    assert time.process_time() - started < 60


@pytest.fixture(scope="module")
def attack_catalogs(catalog: Catalog) -> dict[str, Catalog]:
    return {
        "hand": catalog,
        "seed": Catalog.from_snapshot(ensure_snapshot("credit_cards", 231, None).path),
    }


@pytest.mark.parametrize("attack", ATTACKS_28, ids=[a[0] for a in ATTACKS_28])
def test_the_red_teams_texts_flag_nothing_new_and_lose_nothing(
    attack: tuple[str, str, str, str | int | None, str], attack_catalogs: dict[str, Catalog]
) -> None:
    # an honest text gets no code ruleset 27 does not give it; a false text is flagged by 28 with
    # every code 27 gives it
    _, which, text, customer, kind = attack
    cat = attack_catalogs[which]
    r27, r28 = set(codes(text, cat, 27, customer)), set(codes(text, cat, 28, customer))
    if kind == "false":
        assert r28 and r27 <= r28, text
    else:
        assert r28 <= r27, text
