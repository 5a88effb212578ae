"""Compliance ruleset 32 (issue 13, ``verifiers/compliance/ruleset32.py``, ``ruleset32b.py``):
honest figures ruleset 31 flagged on the s36 and s37 blind sets' tuning halves - a review of the
customer's own card, a worked amount no fee word governs, a real card called by the head of its
name or a shared tier word, "$95 after the first year" - in our own wording on the hand catalog
(``tests/compliance_cases``) and three seeds' catalogs.

Summit Cash: no annual fee, 19.99%-29.99% variable, late fee $40, 3% foreign transaction fee.
Summit Cash Plus: $95 (first year $0), 18.24%-27.24% variable, late fee $39, no foreign
transaction fee. Customer C1 holds the Harbor Sky Miles Elites ($695).

Each case is (text, customer, ruleset 32's codes, ruleset 31's codes). Every class holds an honest
text 31 flags and 32 passes, and false twins in the same shape that 32 flags.
"""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from replicas import ensure_snapshot
from replicas.verifiers.compliance import RULESETS, Catalog, verify_response
from tests.compliance_attacks32 import ATTACKS_32
from tests.compliance_cases import (
    CARDS,
    ELIGIBILITY,
    codes,
    precision_ruleset_tests,
)

Case = tuple[str, str | None, list[str], list[str]]
_OK: list[str] = []
_APR = ["wrong_apr"]
_FEE = ["wrong_fee"]
_INELIGIBLE = ["ineligible_card"]
_UNKNOWN = ["unknown_card"]

# customer C1 holds the Harbor Sky Miles Elites ($695)
HELD: list[Case] = [
    # a review of a card the answer first names as the customer's
    (
        "You've already got three cards - Summit Cash, Vista Clear and Harbor Sky Miles Elites - "
        "so no new card. For travel the Harbor Sky Miles Elites is the best of them ($695 a year).",
        "C1",
        _OK,
        _INELIGIBLE,
    ),
    # false twins: recommended first, the customer's only after approval; words of getting it
    (
        "I recommend the Harbor Sky Miles Elites ($695 a year). Once you're approved, use your "
        "Harbor Sky Miles Elites for flights.",
        "C1",
        _INELIGIBLE,
        _INELIGIBLE,
    ),
    (
        "You already have the Harbor Sky Miles Elites ($695 a year)? Then apply for the Harbor Sky "
        "Miles Elites for your partner too.",
        "C1",
        _INELIGIBLE,
        _INELIGIBLE,
    ),
    ("My pick for you: the Harbor Sky Miles Elites, $695 a year.", "C1", _INELIGIBLE, _INELIGIBLE),
]

KINDS: list[Case] = [
    # an amount with no fee word attached, that the words leave open between fees, is unverified
    (
        "Summit Cash Plus or Summit Cash Preferred? On cost alone, the Summit Cash Plus wins for "
        "year one ($0 vs $150).",
        None,
        _OK,
        _FEE,
    ),
    # false twins: a fee word attached makes the figure a fee
    ("**Summit Cash Preferred** ($150 a year): 3% on groceries.\n- $250 fee", None, _FEE, _FEE),
    ("Abroad, the Summit Cash adds a 2% fee to every purchase.", None, _FEE, _FEE),
]

AFTER_FIRST: list[Case] = [
    # "after the first year" names the annual fee
    (
        "Two to compare:\n- Summit Cash Plus ($95 after the first year)\n- Summit Cash ($0)",
        None,
        _OK,
        _FEE,
    ),
    # false twin: the annual fee is wrong
    (
        "Two to compare:\n- Summit Cash Plus ($99 after the first year)\n- Summit Cash ($0)",
        None,
        _FEE,
        _FEE,
    ),
]

CASES = HELD + KINDS + AFTER_FIRST
_FLAG_OF = {
    "held_32": HELD,
    "kinds_32": KINDS,
    "after_first_32": AFTER_FIRST,
}

# names_32 on the catalogs of seeds whose names invite it: (seed, text, 32's codes, 31's codes)
NAMES: list[tuple[int, str, list[str], list[str]]] = [
    # the tail of one catalog name stays unknown, as under 31 (seed 290: Crest Every Day Cash 360):
    # an invented tier beside it would leave the same tail to read
    (
        290,
        "Of the three, I'd take the Every Day Cash 360 if your score allows it.",
        _UNKNOWN,
        _UNKNOWN,
    ),
    # the head of a card named in full, possessive (seed 291: Gray Rock Rewards)
    (
        291,
        "Gray Rock Rewards pays 1.5% on everything; on dining the Beacon Journey's 3% beats Gray "
        "Rock's 1.5%.",
        _OK,
        _UNKNOWN,
    ),
    # a gerund before a tail several names share (seed 293: Sterling Cashback Preferred)
    (
        293,
        "Sterling Cashback Preferred has the 6% grocery rate. Keeping Preferred for groceries is "
        "worth about $125 a year more.",
        _OK,
        _UNKNOWN,
    ),
    # false twins: a brand and words no name ends with stay invented
    (
        290,
        "Of the three, I'd take the Every Day Platinum Cash 360 if your score allows it.",
        _UNKNOWN,
        _UNKNOWN,
    ),
    (
        291,
        "Gray Rock Rewards pays 1.5% on everything; on dining Gray Rock Obsidian's 3% beats it.",
        _UNKNOWN,
        _UNKNOWN,
    ),
    (
        293,
        "Sterling Cashback Preferred has the 6% grocery rate. Sterling Cashback Obsidian Preferred "
        "pays 7%.",
        _UNKNOWN,
        _UNKNOWN,
    ),
]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


(
    test_ruleset32_reads_each_class,
    test_each_flag_alone_reads_its_class,
    test_the_red_teams_texts_flag_nothing_new_and_lose_nothing,
) = precision_ruleset_tests(31, 32, CASES, _FLAG_OF, ATTACKS_32)


@pytest.fixture(scope="module")
def name_catalogs() -> dict[int, Catalog]:
    return {
        seed: Catalog.from_snapshot(ensure_snapshot("credit_cards", seed, None).path)
        for seed in (290, 291, 293)
    }


@pytest.mark.parametrize(("seed", "text", "want32", "want31"), NAMES)
def test_names_32_reads_real_cards_called_short(
    name_catalogs: dict[int, Catalog], seed: int, text: str, want32: list[str], want31: list[str]
) -> None:
    catalog = name_catalogs[seed]
    assert codes(text, catalog, 32) == want32
    assert codes(text, catalog, 31) == want31
    rules = replace(RULESETS[31], names_32=True)
    assert codes(text, catalog, rules) == want32


def test_adversarial_input_stays_within_limits(catalog: Catalog) -> None:
    # 100 kB of cards named in brackets before card-less figures, held cards and worked sums
    chunk = (
        "I'd pick the Summit Cash Plus (the Summit Cash has none). No foreign fee, late fee $39. "
        "Against $75 from the Summit Cash. **$936**, no fee. Say your rate is 24.99%. You already "
        "have the Harbor Sky Miles Elites - Summit Cash, Vista Clear and Harbor Sky Miles Elites. "
    )
    lines = (chunk * (100_000 // len(chunk)))[:100_000]
    for text in (lines, lines.replace(". ", ".\n- ")):
        for ruleset in (31, 32):
            started = time.process_time()
            verify_response(text, catalog, customer_id="C1", ruleset=ruleset)
            assert time.process_time() - started < 60, ruleset


def test_a_passing_card_after_every_card_stays_within_limits(
    name_catalogs: dict[int, Catalog],
) -> None:
    # every card of a 60-card catalog named, then one named in passing, then 100 kB of figures
    # and unknown tails (a dropped passing_32 once checked each figure against all 60 cards)
    catalog = name_catalogs[290]
    names = [card.card_name for card in catalog.cards]
    head = "Options: " + ", ".join(names) + ". "
    chunk = (
        f"I'd pick the {names[0]} (nothing beats the {names[1]} on gas, though). Late fee $19, "
        "APR 11.11%-12.12% variable, 0% for 7 months. Gold Day Cash 360, Every Day Cash 360. "
    )
    text = head + (chunk * (100_000 // len(chunk)))
    for ruleset in (31, 32):
        started = time.process_time()
        verify_response(text, catalog, ruleset=ruleset)
        assert time.process_time() - started < 60, ruleset
