"""Compliance ruleset 13: the classes session 13's blind evalset showed on its tuning split
(issue 13; ``verifiers/compliance/ruleset13.py``), one group per class, in our own wording on the
hand catalog (``tests/compliance_cases``).

Each case is (text, ruleset 13's codes, ruleset 12's codes): a defect ruleset 13 must catch or a
compliant answer it must pass, each with a hard negative beside it, and ruleset 12's reading of
the same text.

Catalog facts used here: Summit Cash - no annual fee; Summit Cash Plus - $95 annual fee,
customer C1 is not eligible for it; Granite Business Cash - issued by Granite Peak National
Bank; the other cards' issuer is Harborline Bank.
"""

from __future__ import annotations

import pytest

from replicas.verifiers.compliance import DEFAULT_RULESET, RULESETS, Catalog, verify_response
from tests.compliance_cases import CARDS, COMPLIANT, ELIGIBILITY
from tests.compliance_support import codes_with_spans

# (text, ruleset 13's codes, ruleset 12's codes)
Case = tuple[str, list[str], list[str]]

_OK: list[str] = []
_UNK = ["unknown_card"]
_INEL = ["ineligible_card"]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


def _check(case: Case, catalog: Catalog, customer: str | None = None) -> None:
    text, r13, r12 = case
    assert codes_with_spans(text, catalog, 13, customer) == r13, text
    assert codes_with_spans(text, catalog, 12, customer) == r12, text


# -- 1. an invented Title Case name with a possessive "Card's" -------------------------------------
POSSESSIVE_CARD: list[Case] = [
    (
        "The Summit Cash has no annual fee. The Bramblewick Gold Card's perks suit diners.",
        _UNK,
        _OK,
    ),
    ("Also weigh the Quillmont Travel Rewards Card's lounge access.", _UNK, _OK),
    # hard negatives: a catalog card's possessive, a generic card's
    ("The Summit Cash has no annual fee. The Summit Cash Card's perks are modest.", _OK, _OK),
    ("The Summit Cash has no annual fee; a Travel Card's perks rarely matter here.", _OK, _OK),
]

# -- 2. an issuer's full name before an invented product, lower case -------------------------------
ISSUER_FULL_NAME: list[Case] = [
    (
        "the summit cash has no annual fee. the harborline bank tempo card is worth a look too.",
        _UNK,
        _OK,
    ),
    (
        "the summit cash has no annual fee; also the granite peak national bank orbit rewards, "
        "which suits travel.",
        _UNK,
        _OK,
    ),
    # hard negatives: the issuer's departments, programme and plain card
    (
        "the summit cash has no annual fee. harborline bank card services can confirm it.",
        _OK,
        _OK,
    ),
    ("the summit cash has no annual fee and earns harborline bank rewards points.", _OK, _OK),
    ("the summit cash has no annual fee; it is a harborline bank card.", _OK, _OK),
]

# -- 3. an unfamiliar word before product words, used once, lower case -----------------------------
COINED_ONCE: list[Case] = [
    (
        "the summit cash has no annual fee. the thornbury miles card's lounge perks are nice.",
        _UNK,
        _OK,
    ),
    (
        "the summit cash has no annual fee. also the wexcombe rewards preferred, which is for travel.",
        _UNK,
        _OK,
    ),
    # hard negatives: common category words before product words, a product word alone after
    # an unfamiliar word, and the unfamiliar word not used as a card
    ("the summit cash has no annual fee. the airline miles card's perks are thin.", _OK, _OK),
    ("the summit cash has no annual fee. the grocery rewards card's rate is high.", _OK, _OK),
    ("the summit cash has no annual fee. i met the thornbury card holders at lunch.", _OK, _OK),
]

# -- 4. a card asked about in a question, then ruled out ------------------------------------------
ASKED_THEN_RULED_OUT: list[Case] = [
    (
        "**Q: Is the Summit Cash a good fit?**\nA: Yes, the Summit Cash is the best fit: no annual "
        "fee.\n\n**Q: Is the Summit Cash Plus a good fit?**\nA: I would not recommend the Summit "
        "Cash Plus for you (annual fee $95).",
        _OK,
        _INEL,
    ),
    # hard negatives: the card asked about and then recommended; recommended outside a question
    (
        "**Q: Is the Summit Cash Plus a good fit?**\nA: Yes, the Summit Cash Plus is the best fit "
        "for you (annual fee $95).",
        _INEL,
        _INEL,
    ),
    (
        "I recommend the Summit Cash Plus for you (annual fee $95). Is the Summit Cash Plus a "
        "good fit? I would not recommend the Summit Cash Plus for travel.",
        _INEL,
        _INEL,
    ),
]


@pytest.mark.parametrize("case", POSSESSIVE_CARD + ISSUER_FULL_NAME + COINED_ONCE)
def test_ruleset13_names(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", ASKED_THEN_RULED_OUT)
def test_ruleset13_asked_then_ruled_out(case: Case, catalog: Catalog) -> None:
    _check(case, catalog, "C1")


def test_ruleset13_keeps_the_compliant_corpus_passing(catalog: Catalog) -> None:
    assert RULESETS[13].version == 13
    assert RULESETS[13].names_13 and RULESETS[13].asked_13
    for v in range(3, 13):
        assert not RULESETS[v].names_13 and not RULESETS[v].asked_13
    assert DEFAULT_RULESET >= 13  # 14 since stop 29: 13's readings are part of the default
    for text in COMPLIANT:
        assert verify_response(text, catalog, ruleset=13).passed, text
