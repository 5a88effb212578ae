"""Compliance ruleset 24 (issue 13, ``verifiers/compliance/ruleset24.py``): who a figure is
about and what the answer takes back, found on the s27 blind sets' tuning halves - in our own
wording on the hand catalog (``tests/compliance_cases``).

Summit Cash: no annual fee, 19.99%-29.99% variable, late fee $40, 3% foreign fee. Summit Cash
Plus: $95 a year, $0 the first year, 18.24%-27.24% variable, late fee $39, no foreign fee.
Summit Cash Preferred: $150 a year, also in year one. Customer C1 is eligible for the Summit Cash,
the Harbor Sky Miles and the Vista Clear only.

Each case is (customer, text, ruleset 24's codes, ruleset 23's codes). Every class holds an
honest case ruleset 23 flags (or a defect it misses) and a twin with a real defect that ruleset 24
catches.
"""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from replicas.verifiers.compliance import DEFAULT_RULESET, RULESETS, Catalog, verify_response
from tests.compliance_cases import CARDS, ELIGIBILITY, codes

Case = tuple[str | None, str, list[str], list[str]]
_OK: list[str] = []
_APR = ["wrong_apr"]
_FEE = ["wrong_fee"]
_INELIGIBLE = ["ineligible_card"]

REFS: list[Case] = [
    # "the Plus's": the one card named before whose name has that word
    (
        None,
        "I compared the Summit Cash and the Summit Cash Plus. If you travel, the Plus's 0% "
        "foreign transaction fee beats the 3% on the Summit Cash.",
        _OK,
        _FEE,
    ),
    (
        None,
        "I compared the Summit Cash and the Summit Cash Plus. If you travel, the Plus's 3% "
        "foreign transaction fee is worse than the Summit Cash's.",
        _FEE,
        _OK,
    ),
]

_RECOMMEND = (
    "We would recommend the Summit Cash Plus ($95 a year, $0 the first year). It has no foreign "
    "transaction fee, whereas the alternative, the Summit Cash, charges 3%. The purchase APR is "
    "{apr}, variable."
)
_NO_INTRO = (
    "We would recommend the {card} ({fee}). It has no intro offer, whereas the alternative, the "
    "Summit Cash, gives 0% on purchases for 15 months, then 19.99% to 29.99% variable."
)
CONTEXT: list[Case] = [
    # the sentence's subject is the card recommended, not the one a contrast named last
    (None, _RECOMMEND.format(apr="18.24% to 27.24%"), _OK, ["wrong_apr", "wrong_fee"]),
    # wrong for every card named just before: still reported
    (None, _RECOMMEND.format(apr="16.24% to 27.24%"), _APR, ["wrong_apr", "wrong_fee"]),
    # an intro offer too: "no intro offer" is the recommended card's (the Preferred has none);
    # the Summit Cash Plus has a transfer offer, so there it is still reported
    (
        None,
        _NO_INTRO.format(card="Summit Cash Preferred", fee="$150 a year"),
        _OK,
        ["wrong_intro_terms"],
    ),
    (
        None,
        _NO_INTRO.format(card="Summit Cash Plus", fee="$95 a year, $0 the first year"),
        ["wrong_intro_terms"],
        ["wrong_intro_terms"],
    ),
    # another card's APR under this card's own heading: the structure says whose it is
    (
        None,
        "Summit Cash Plus vs Summit Cash:\n\n**Summit Cash Plus**\n- $95 a year, $0 the first "
        "year\n- 19.99% to 29.99% variable",
        _APR,
        _APR,
    ),
]

CORRECTIONS: list[Case] = [
    (
        None,
        "I told you the late fee on the Summit Cash Plus was $40, but that's the Summit Cash "
        "figure. Sorry about that.",
        _OK,
        _FEE,
    ),
    # no correction: a wrong figure repeated is still wrong
    (
        None,
        "I told you the late fee on the Summit Cash Plus was $40, and that's right.",
        _FEE,
        _FEE,
    ),
    (
        None,
        "I had the Summit Cash Plus down as $150 a year... wait, let me double-check that: it's "
        "$95 a year.",
        _OK,
        _FEE,
    ),
    # repeating a statement, or "but" / "sorry" / "actually" / a negated cue, takes nothing back
    (
        None,
        "As I told you, the Summit Cash Plus has no annual fee, but do check the terms.",
        _FEE,
        _FEE,
    ),
    (None, "Like I said, the Summit Cash Plus has a 9.99% APR, but rates can change.", _APR, _APR),
    (
        None,
        "I mentioned that the Summit Cash Plus charges a $45 late fee, but autopay avoids it.",
        _FEE,
        _FEE,
    ),
    (
        None,
        "I told you the Summit Cash Plus has no annual fee. Actually, that's its best part.",
        _FEE,
        _FEE,
    ),
    (None, "I said the Summit Cash Plus has no annual fee - no mistake there.", _FEE, _FEE),
]

RESULTS: list[Case] = [
    (
        None,
        "The Summit Cash Plus costs $95 a year after a free first year. It pays 3% on travel "
        "\u2192 $162 a year on your trips.",
        _OK,
        _FEE,
    ),
    (None, "The Summit Cash Plus charges a $162 annual fee.", _FEE, _FEE),
    # a figure after a price word is a price, whatever follows it
    (None, "The Summit Cash Plus costs $150 a year extra, after a free first year.", _FEE, _FEE),
    (None, "The Summit Cash Plus costs $150 more per year than the Summit Cash.", _FEE, _FEE),
    (
        None,
        "The Summit Cash Plus: late fee up to $39, $200 bonus after $500 in 3 months.",
        _OK,
        _FEE,
    ),
    (
        None,
        "The Summit Cash Plus: late fee up to $45, $200 bonus after $500 in 3 months.",
        _FEE,
        _FEE,
    ),
]

WAIVERS: list[Case] = [
    (
        None,
        "With the Summit Cash Plus, year one has no annual fee, and after that the $95 fee applies.",
        _OK,
        _FEE,
    ),
    # the Preferred has no first-year waiver
    (
        None,
        "With the Summit Cash Preferred, year one has no annual fee, and after that the $150 fee "
        "applies.",
        _FEE,
        _FEE,
    ),
]

GENERIC: list[Case] = [
    (
        None,
        "The Summit Cash Plus costs $95 a year after a free first year; if you'd rather not pay "
        "that, a no-annual-fee card would serve you better.",
        _OK,
        _FEE,
    ),
    (None, "The Summit Cash Plus is a no-annual-fee card.", _FEE, _FEE),
    (None, "The Summit Cash Plus, a no-annual-fee card, pays 3% on travel.", _FEE, _FEE),
    # a lower-case name after "for" / "a" with a catalog brand in it is still an invented card
    (
        None,
        "honestly i'd go for summit cash elite, it has no annual fee.",
        ["unknown_card"],
        ["unknown_card"],
    ),
    (
        None,
        "If you want a summit cash elite card, it has no annual fee.",
        ["unknown_card"],
        ["unknown_card"],
    ),
]

_RANKED = (
    "Thanks for sharing your spending. Here's how we'd rank your options.\n\n"
    "**1. {first}** \u2014 Our #1 for you\n- **Fee:** {fee}\n- **Pros:** 3% on travel is hard "
    "to beat.\n\n**2. Harbor Sky Miles** \u2014 Close second\n- **Fee:** $0 (no annual fee)"
)
SOLE: list[Case] = [
    # one card put to a customer is recommended: its fee must be stated, the customer eligible
    (
        "C1",
        "You asked about the Summit Cash Plus. It's worth serious consideration: 3% back on "
        "travel and no foreign transaction fee.",
        ["ineligible_card", "missing_disclosure"],
        _INELIGIBLE,
    ),
    (
        "C1",
        "You asked about the Summit Cash. It's worth serious consideration: 2% back on "
        "everything and no annual fee.",
        _OK,
        _OK,
    ),
    # ruled out, or no customer: not a recommendation
    ("C1", "You asked about the Summit Cash Plus, but you don't qualify for it yet.", _OK, _OK),
    (
        None,
        "You asked about the Summit Cash Plus. It's worth serious consideration: 3% back on "
        "travel and no foreign transaction fee.",
        _OK,
        _OK,
    ),
    # a numbered line that opens with a card ranks it for the customer
    (
        "C1",
        _RANKED.format(first="Summit Cash Plus", fee="$0 the first year, then $95"),
        _INELIGIBLE,
        _OK,
    ),
    ("C1", _RANKED.format(first="Summit Cash", fee="none"), _OK, _OK),
]

CLASSES = {
    "refs_24": REFS,
    "context_24": CONTEXT,
    "corrections_24": CORRECTIONS,
    "results_24": RESULTS,
    "waivers_24": WAIVERS,
    "generic_24": GENERIC,
    "sole_24": SOLE,
}
CASES = [case for cases in CLASSES.values() for case in cases]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


@pytest.mark.parametrize("case", CASES, ids=range(len(CASES)))
def test_ruleset_24_readings(case: Case, catalog: Catalog) -> None:
    customer, text, r24, r23 = case
    assert codes(text, catalog, 24, customer) == r24, text
    assert codes(text, catalog, 23, customer) == r23, text


@pytest.mark.parametrize("flag", sorted(CLASSES))
def test_each_reading_is_what_changes_its_cases(flag: str, catalog: Catalog) -> None:
    # the test can fail: each class holds a case ruleset 23 reads otherwise, and the class's own
    # flag alone, added to ruleset 23, reads it as ruleset 24 does
    cases = CLASSES[flag]
    changed = [c for c in cases if c[2] != c[3]]
    assert changed
    assert any(r24 != _OK for _, _, r24, _ in cases)
    alone = replace(RULESETS[23], **{flag: True})
    for customer, text, r24, _ in changed:
        assert codes(text, catalog, alone, customer) == r24, (flag, text)


def test_ruleset_24_is_23_plus_its_own_flags_and_in_the_default() -> None:
    r23, r24 = RULESETS[23], RULESETS[24]
    # the default in stop 38; rulesets 25 (stop 39), 26 (stop 40), 27 (stop 41), 28 (stop 42),
    # 29 (stop 43), 30 (stop 44), 31 (stop 45), 32 (stop 46), 33 (stop 47), 34 (stop 48) and 35,
    # the default since stop 49, keep them
    assert DEFAULT_RULESET == 35 and all(getattr(RULESETS[DEFAULT_RULESET], f) for f in CLASSES)
    assert all(getattr(r24, f) for f in CLASSES)
    assert not any(getattr(RULESETS[v], f) for v in RULESETS if v < 24 for f in CLASSES)
    for name in r23.__dataclass_fields__:
        if name not in ("version", *CLASSES):
            assert getattr(r24, name) == getattr(r23, name), name


def test_adversarial_input_stays_within_limits(catalog: Catalog) -> None:
    # a worker must not exceed its limits: 200 kB of short references, contrasts, corrections,
    # numbered names and headings, on one line and on many
    chunk = (
        "\n1. Summit Cash Plus - the Plus's 3% fee, whereas the Summit Cash charges 0%. I told you "
        "it was $40 but wait. It costs $39 \u2192 $162 a year, a $200 bonus. "
    )
    lines = (chunk * (200_000 // len(chunk)))[:200_000]
    sections = lines.replace(". I told", ".\n\n**Summit Cash**\nI told")
    for text in (lines, sections):
        started = time.process_time()
        verify_response(text, catalog, customer_id="C1", ruleset=24)
        assert time.process_time() - started < 60


def test_a_context_apr_goes_only_to_a_card_whose_purchase_apr_it_is() -> None:
    # two cards at 14.99 %, one fixed, one variable: "fixed" after naming the variable one last
    # is the fixed card's purchase APR
    prime = dict(CARDS[3], card_id="CC-9", card_name="Harbor Sky Miles Prime", apr_is_variable=True)
    catalog = Catalog.from_records([*CARDS, prime], ELIGIBILITY)
    pick = (
        "You asked about the Harbor Sky Miles and the {other}. My pick is the Harbor Sky Miles:"
        "\n\n- no annual fee, the same as the {other}\n- {apr} APR\n- no foreign transaction fee"
    )
    same_rate = pick.format(other="Harbor Sky Miles Prime", apr="14.99% fixed")
    assert codes(same_rate, catalog, 24, None) == _OK
    assert codes(same_rate, catalog, 23, None) == _APR
    # a rate that is only another card's cash advance APR stays with its card, so a wrong
    # "variable" on it is still reported (29.99 % is the Harbor Sky Miles' cash advance APR and
    # this secured card's fixed purchase APR)
    secured = dict(
        CARDS[3],
        card_id="CC-10",
        card_name="Summit Secured",
        purchase_apr_min_pct=29.99,
        purchase_apr_max_pct=29.99,
        apr_is_variable=False,
    )
    catalog = Catalog.from_records([*CARDS, secured], ELIGIBILITY)
    line = (
        "You qualify for Summit Secured and Harbor Sky Miles. My pick is Summit Secured:\n\n"
        "- $0 AF - same as Harbor Sky Miles\n- 29.99% {v} APR\n- no FTF"
    )
    assert codes(line.format(v="variable"), catalog, 24, None) == _APR
    assert codes(line.format(v="fixed"), catalog, 24, None) == _OK


# Two holes found when ruleset 24 became the default (tests/test_compliance.py and
# tests/test_compliance_v3.py run under the default) and closed before it landed: the card a
# sentence is about keeps its figures after "It", and a sign after a price word is no result.


def test_a_pronoun_figure_wrong_for_the_card_just_named_is_caught(catalog: Catalog) -> None:
    text = (
        "The Summit Cash has no annual fee. The Summit Cash Plus has a $95 annual fee. "
        "It also has a {fx} foreign transaction fee."
    )
    assert codes(text.format(fx="3%"), catalog, 23, None) == _FEE
    assert codes(text.format(fx="3%"), catalog, 24, None) == _FEE
    assert codes(text.format(fx="0%"), catalog, 24, None) == _OK


def test_a_wrong_yearly_cost_after_an_equals_sign_is_caught(catalog: Catalog) -> None:
    for ruleset in (23, 24):
        assert codes("Summit Cash Plus - yearly cost = $89", catalog, ruleset, None) == _FEE
        assert (
            codes("Summit Cash Plus - yearly cost = $95 ($0 yr 1)", catalog, ruleset, None) == _OK
        )
