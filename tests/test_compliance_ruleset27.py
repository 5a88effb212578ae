"""Compliance ruleset 27 (issue 13, ``verifiers/compliance/ruleset27.py``): what a figure or a name
can be - open fee figures that must look like a fee, worked results, tails of named cards and lower-case kinds of card - found on the tuning halves of all read blind sets, in our own
wording on the hand catalog (``tests/compliance_cases``).

Summit Cash: no annual fee, 19.99%-29.99% variable, 0% on purchases for 15 months, 3% transfer
fee (min $5), cash advances 5% (min $10), late fee $40, 3% foreign fee. Summit Cash Plus: $95 a
year, $0 the first year, 18.24%-27.24% variable, 0% on transfers for 18 months, 5% transfer fee,
late fee $39, no foreign fee. Summit Cash Preferred: $150 a year, 17.99%-25.99%. Harbor Sky Miles:
14.99% fixed, no foreign fee. "Everyday Cash Rewards" (this file's own card) makes "everyday" a
brand word.

Each case is (text, customer, ruleset 27's codes, ruleset 26's codes). Every class holds an
honest case ruleset 26 flags and a twin with a real defect that ruleset 27 still catches.
"""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from replicas import ensure_snapshot
from replicas.verifiers.compliance import RULESETS, Catalog, verify_response
from tests.compliance_attacks27 import ATTACKS_27
from tests.compliance_cases import CARDS, ELIGIBILITY, card, codes

Case = tuple[str, str | None, list[str], list[str]]
_OK: list[str] = []
_FEE = ["wrong_fee"]
_APR = ["wrong_apr"]
_UNKNOWN = ["unknown_card"]

SHAPES: list[Case] = [
    # a reward rate or an amount with no fee word at it is no fee
    (
        "For mixed spending, keep it simple: a flat 2% card with no fee, like the Summit Cash.",
        None,
        _OK,
        _FEE,
    ),
    (
        "Summit Cash Plus: about $336 a year in rewards, or $247 once the fee is paid.",
        None,
        _OK,
        _FEE,
    ),
    # a value some card has for a fee is still checked ("3%": the Plus has no 3% fee)
    ("Summit Cash Plus fee: 3% (min $5).", None, _FEE, _FEE),
    # a fee noun right at the figure, or a dollar minimum, keeps any value checked
    ("The Summit Cash Plus: $60 fee.", None, _FEE, _FEE),
    ("The Summit Cash Plus: $12 annual charge.", None, _FEE, _FEE),
    ("Summit Cash Plus: 1.5% (min $7).", None, _FEE, _FEE),
    # near one of the card's own fees: a mistyped fee ("$89" for $95)
    ("The Summit Cash Plus: $89 fee.", None, _FEE, _FEE),
    # a fee word about the figure anywhere in its clause, or a "Fee" column: a fee claim
    ("The Summit Cash Plus has a $60 service fee.", None, _FEE, _FEE),
    ("The Summit Cash Plus has $60 in fees.", None, _FEE, _FEE),
    ("The Summit Cash Plus fees are sixty dollars.", None, _FEE, _FEE),
    ("| Card | Fee |\n|---|---|\n| Summit Cash Plus | $60 |", None, _FEE, _FEE),
    # ... not another figure's fee, a denied, netted or compared one
    (
        "Summit Cash Plus rewards: dividing the $95 fee by 2.5% gives $3,800 of spend a year.",
        None,
        _OK,
        _FEE,
    ),
    # an open "0%" with no fee noun is an intro rate's
    ("the Vista Clear is the sweet spot - a cheaper fee, plus 0% on purchases.", None, _OK, _FEE),
]

_SPEND = "Your spending: $250 travel, $200 gas a month.\n- "
WORKED: list[Case] = [
    # the expression before "=" works out to the figure, and its paragraph says what the amounts
    # are worth: a result
    (_SPEND + "Summit Cash Plus: $216 + $90 + $30 + $150 = **$486 a year**", None, _OK, _FEE),
    ("Summit Cash: flat 2% back. $413 × 12 × 2% = **$99.12 a year**.", None, _OK, _FEE),
    # a sum that is wrong, a price named before the expression or after the figure, or nothing
    # said of what the amounts are: still a claim
    (_SPEND + "Summit Cash Plus: $216 + $90 + $30 + $150 = **$586 a year**", None, _FEE, _FEE),
    ("Summit Cash: flat 2% back. $413 × 12 × 2% = **$89.12 a year**.", None, _FEE, _FEE),
    (
        _SPEND + "Summit Cash Plus: $216 + $90 + $30 + $150 = **$486** a year to keep it.",
        None,
        _FEE,
        _FEE,
    ),
    ("The Summit Cash costs $50 + $45 = $95 a year.", None, _FEE, _FEE),
    ("Summit Cash: 2% back. To keep it you pay 12 x $8 = **$96** a year.", None, _FEE, _FEE),
    ("Summit Cash Plus: $216 + $90 + $30 + $150 = **$486 a year**", None, _FEE, _FEE),
    ("Summit Cash: $8 x 12 → **$96** a year.", None, _FEE, _FEE),
]

GENERIC: list[Case] = [
    # a lower-case kind of card is no product
    (
        "Thank you for your enquiry about an everyday cash back card. The Summit Cash has no "
        "annual fee.",
        None,
        _OK,
        _UNKNOWN,
    ),
    ("For everyday rewards, the Summit Cash is the strongest: no annual fee.", None, _OK, _UNKNOWN),
    # a tier word, "the", or capitals: a product
    ("I recommend the everyday rewards elite card: no annual fee.", None, _UNKNOWN, _UNKNOWN),
    ("Consider the everyday rewards card: no annual fee.", None, _UNKNOWN, _UNKNOWN),
    ("Get the Everyday Rewards card: no annual fee.", None, _UNKNOWN, _UNKNOWN),
    # after "is an", it describes the card named before it, and its figures stay that card's
    (
        "The Summit Cash is an everyday rewards card with a $95 annual fee.",
        None,
        _FEE,
        _UNKNOWN,
    ),
]

REWARDS: list[Case] = [
    # a rate before a spend category is a reward rate, even after "the first year"
    (
        "- **Summit Cash Plus** (annual fee: $95, $0 the first year): 5% on gas, capped at "
        "$6,000 a year.",
        None,
        _OK,
        ["wrong_intro_terms"],
    ),
    (
        "Summit Cash Plus - $95 annual fee, $0 the first year, 3% travel and dining.",
        None,
        _OK,
        ["wrong_intro_terms"],
    ),
    # an intro word before it, or "for N months" after, keeps it an intro offer
    (
        "Summit Cash Plus: 5% intro APR on gas for 12 months.",
        None,
        ["wrong_intro_terms"],
        ["wrong_intro_terms"],
    ),
    (
        "Summit Cash: 3% on purchases for 15 months.",
        None,
        ["wrong_intro_terms"],
        ["wrong_intro_terms"],
    ),
    (
        "Summit Cash Plus: 0% on purchases for 15 months.",
        None,
        ["false_intro_offer"],
        ["false_intro_offer"],
    ),
]

CLASSES = {
    "shapes_27": SHAPES,
    "rewards_27": REWARDS,
    "worked_27": WORKED,
    "generic_27": GENERIC,
}
CASES = [case for cases in CLASSES.values() for case in cases]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records([*CARDS, card("CC-30", "Everyday Cash Rewards")], ELIGIBILITY)


@pytest.mark.parametrize("case", CASES, ids=range(len(CASES)))
def test_ruleset_27_readings(case: Case, catalog: Catalog) -> None:
    text, customer, r27, r26 = case
    assert codes(text, catalog, 27, customer) == r27, text
    assert codes(text, catalog, 26, customer) == r26, text


@pytest.mark.parametrize("flag", sorted(CLASSES))
def test_each_reading_is_what_changes_its_cases(flag: str, catalog: Catalog) -> None:
    # each class holds a case ruleset 26 reads otherwise and a twin ruleset 27 still flags; the
    # class's own flag alone, added to ruleset 26, reads the changed cases as ruleset 27 does
    cases = CLASSES[flag]
    changed = [c for c in cases if c[2] != c[3]]
    assert changed
    assert any(r27 != _OK for _, _, r27, _ in cases)
    alone = replace(RULESETS[26], **{flag: True})
    for text, customer, r27, _ in changed:
        assert codes(text, catalog, alone, customer) == r27, (flag, text)


@pytest.fixture(scope="module")
def attack_catalogs() -> dict[str, Catalog]:
    seeded = Catalog.from_snapshot(ensure_snapshot("credit_cards", 231, None).path)
    return {"hand": Catalog.from_records(CARDS, ELIGIBILITY), "seed": seeded}


@pytest.mark.parametrize("attack", ATTACKS_27, ids=[a[0] for a in ATTACKS_27])
def test_the_red_teams_attacks_lose_nothing_and_flag_nothing_new(
    attack: tuple[str, str, str, str | int | None, str], attack_catalogs: dict[str, Catalog]
) -> None:
    # a false text keeps every code ruleset 26 gives it (26 flags each one); an honest text gets
    # no code 26 does not
    _, which, text, customer, kind = attack
    cat = attack_catalogs[which]
    r26, r27 = set(codes(text, cat, 26, customer)), set(codes(text, cat, 27, customer))
    if kind == "false":
        assert r26 and r26 <= r27, text
    else:
        assert r27 <= r26, text


def test_a_tail_of_one_named_card_is_that_card() -> None:
    # "Clear Plus" ends in a product word, so ruleset 26 took it as an unknown product; it is the
    # tail of the one card named in full that ends so
    cat = Catalog.from_records(
        [
            card("CC-40", "Cascade Clear", bt_fee_pct=3.0),
            card("CC-41", "Cascade Clear Plus", bt_fee_pct=5.0),
            card("CC-42", "Cascade Reset Plus"),
        ],
        [],
    )
    named = "Cascade Clear Plus vs Cascade Clear: both have no annual fee.\n\n"
    right = named + "The Clear Plus has a 5% (min $5) transfer fee."
    assert codes(right, cat, 26) == _UNKNOWN
    assert codes(right, cat, 27) == _OK
    assert codes(right, cat, replace(RULESETS[26], tails_27=True)) == _OK
    # its figures are checked as that card's, and a name that only begins like it is invented
    wrong = named + "The Clear Plus has a 3% (min $5) transfer fee."
    assert codes(wrong, cat, 26) == _UNKNOWN
    assert codes(wrong, cat, 27) == _FEE
    invented = named + "Or the Clear Plus Elite: no annual fee."
    assert codes(invented, cat, 27) == _UNKNOWN
    # a tail of several named cards ("Plus") is ambiguous, not an invented card and not either
    both = "Cascade Clear Plus or Cascade Reset Plus? The Plus Max has no annual fee."
    assert codes(both, cat, 27) == codes(both, cat, 26)


def test_ruleset_27_is_26_plus_its_own_flags() -> None:
    r26, r27 = RULESETS[26], RULESETS[27]
    flags = [*CLASSES, "tails_27"]
    assert all(getattr(r27, f) for f in flags)
    assert not any(getattr(RULESETS[v], f) for v in RULESETS if v < 27 for f in flags)
    for name in r26.__dataclass_fields__:
        if name not in ("version", *flags):
            assert getattr(r27, name) == getattr(r26, name), name


def test_adversarial_input_stays_within_limits(catalog: Catalog) -> None:
    # a worker must not exceed its limits: 100 kB of arithmetic chains, comparisons, open fee
    # figures and lower-case kinds of card, on one line and on many
    chunk = (
        "Summit Cash Plus vs Summit Cash: $1 + $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 = $45 "
        "(3% vs 2% vs 1.25% against 0.99%), a flat 2% card, an everyday cash back card, "
        "$413 x 12 x 2% = $99.12, 18.24% vs 19.99% vs 14.99%, the Cash Plus. "
    )
    lines = (chunk * (100_000 // len(chunk)))[:100_000]
    for text in (lines, lines.replace(". ", ".\n")):
        for ruleset in (26, 27):
            started = time.process_time()
            verify_response(text, catalog, ruleset=ruleset)
            assert time.process_time() - started < 60, ruleset
