"""Compliance ruleset 12: the classes session 12's blind evalset showed on its tuning split
(issue 13; ``verifiers/compliance/ruleset12.py``), one group per class, in our own wording on the
hand catalog (``tests/compliance_cases``).

Each case is (text, ruleset 12's codes, ruleset 11's codes): a defect ruleset 12 must catch or a
compliant answer it must pass, each with a hard negative beside it, and ruleset 11's reading of
the same text (a miss or a false positive where it differs, the same codes where the fix must not
change anything).

Catalog facts used here: Summit Cash - no annual fee, late fee $40; Summit Cash Plus - $95 annual
fee ($0 the first year), no foreign fee; Harbor Sky Miles - fixed 14.99%, no foreign fee; Harbor
Sky Miles Elite - $495 annual fee; Harbor Sky Miles Elites - $695; Vista Clear - no annual fee,
purchase intro 0% for 12 months; Granite Business Cash - issued by Granite Peak National Bank;
the other cards' issuer is Harborline Bank.
"""

from __future__ import annotations

import pytest

from replicas.verifiers.compliance import DEFAULT_RULESET, RULESETS, Catalog, verify_response
from tests.compliance_cases import CARDS, COMPLIANT, ELIGIBILITY
from tests.compliance_support import codes_with_spans

# (text, ruleset 12's codes, ruleset 11's codes)
Case = tuple[str, list[str], list[str]]

_OK: list[str] = []
_MIS = ["misspelled_card"]
_UNK = ["unknown_card"]
_F = ["wrong_fee"]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


def _check(case: Case, catalog: Catalog) -> None:
    text, r12, r11 = case
    assert codes_with_spans(text, catalog, 12) == r12, text
    assert codes_with_spans(text, catalog, 11) == r11, text


# -- 1. misspelt and invented names in lower case -------------------------------------------------
LOWER_CASE: list[Case] = [
    # a one-edit typo of the brand and a typo of the line: two edits from "Vista Clear"
    ("fwiw the vistaa cleer has no annual fee at all.", _MIS, _OK),
    # the brand run into the next word
    ("the summitcash plus charges $95 a year after a free first year.", _MIS, _OK),
    # an issuer's name followed by tier words it has no card for
    ("harborline titanium reserve has no annual fee, if that helps.", _UNK, _OK),
    # a brand on a product line of another brand ("clear" is Vista's line)
    ("so the granite clear has no annual fee and that's it.", _UNK, _OK),
    # an unfamiliar word before a catalog product line, used as a card twice
    (
        "honestly the zephyr clear is easy: the zephyr clear has no annual fee. the zephyr "
        "clear's late fee is $40.",
        _UNK,
        _OK,
    ),
    # hard negatives: the exact names in lower case, the issuer with institution and department
    # words, and an ordinary phrase before a line word used once
    (
        "the vista clear has no annual fee, and the summit cash plus charges $95 a year after a "
        "free first year.",
        _OK,
        _OK,
    ),
    (
        "harborline bank issues the summit cash; harborline card services can confirm it has no "
        "annual fee.",
        _OK,
        _OK,
    ),
    ("to keep the picture clear, the summit cash has no annual fee.", _OK, _OK),
    ("a typical student pays no annual fee on the summit cash.", _OK, _OK),
]


@pytest.mark.parametrize("case", LOWER_CASE, ids=range(len(LOWER_CASE)))
def test_names_in_lower_case(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


# -- 2. a misspelling two edits away, and a misspelling of one of two near-twins ------------------
TYPOS: list[Case] = [
    # two edits inside a five-letter word ("Mlse" for "Miles"): ruleset 11 read an invented card
    ("The Harbor Sky Mlse has a fixed 14.99% APR and no foreign transaction fees.", _MIS, _UNK),
    # a brand typo, and one edit from "Harbor Sky Miles Elites" but two from its twin "...
    # Elite": the nearer card (whose $695 fee is right), in lower case, where ruleset 11 read no
    # name at all
    (
        "The Summit Cash has no annual fee. the harbr sky miles eliets costs $695 a year.",
        _MIS,
        _OK,
    ),
    # hard negatives: each twin spelt right is its own card, with its own fee checked
    ("The Harbor Sky Miles Elites costs $695 a year.", _OK, _OK),
    ("The Harbor Sky Miles Elite costs $695 a year.", _F, _F),
]


@pytest.mark.parametrize("case", TYPOS, ids=range(len(TYPOS)))
def test_typos_by_whole_name(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


# -- 3. false positives: a name wrapped in a list item, advice about a card in general ------------
PRECISION: list[Case] = [
    # a real name carried onto the next line of its list item
    (
        "My shortlist:\n\n- Summit Cash\n  Plus\n  - $95 annual fee, $0 the first year.\n"
        "  - No foreign transaction fees.\n- Vista Clear\n  - No annual fee.",
        _OK,
        _F,
    ),
    (
        "Two to look at:\n\n* Harbor Sky\n  Miles - a fixed 14.99% APR.\n* Summit Cash - no annual fee.",
        _OK,
        _UNK,
    ),
    # hard negative: an invented name wrapped the same way is an invented name (ruleset 11 read
    # the exact "Summit Cash" and missed it)
    (
        "My shortlist:\n\n- Summit Cash\n  Titanium\n  - No annual fee.",
        _UNK,
        _OK,
    ),
    # advice about an indefinite card is about no catalog card
    (
        "Summit Cash Plus is my pick for you. It is smart to hold at least one card with no annual "
        "fee so your oldest account stays open. The Summit Cash Plus costs $95 a year, with the "
        "first year free.",
        _OK,
        _F,
    ),
    (
        "If you travel, it helps to carry a card that charges no foreign transaction fee. The "
        "Summit Cash costs nothing to hold: no annual fee.",
        _OK,
        _F,
    ),
    # hard negatives: an indefinite card predicated of a named card is a claim about that card
    ("The Summit Cash Plus is a card with no annual fee.", _F, _F),
    ("The Summit Cash Plus, a card with no annual fee, is my pick.", _F, _F),
]


@pytest.mark.parametrize("case", PRECISION, ids=range(len(PRECISION)))
def test_wraps_and_cards_in_general(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


def test_ruleset_12_keeps_the_compliant_corpus_passing(catalog: Catalog) -> None:
    assert DEFAULT_RULESET >= 12  # 13 since stop 28: 12's readings are part of the default
    assert RULESETS[12].names_12 and RULESETS[12].wraps_12 and RULESETS[12].generic_cards_12
    assert not (RULESETS[11].names_12 or RULESETS[11].wraps_12 or RULESETS[11].generic_cards_12)
    for text in COMPLIANT:
        assert verify_response(text, catalog, ruleset=12).passed, text


def test_verdicts_are_deterministic(catalog: Catalog) -> None:
    for text, _r12, _r11 in LOWER_CASE + TYPOS + PRECISION:
        first = verify_response(text, catalog, ruleset=12).to_dict()
        assert verify_response(text, catalog, ruleset=12).to_dict() == first
