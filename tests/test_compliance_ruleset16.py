"""Compliance ruleset 16: a card's rewards rate is neither a card name nor an APR (issue 13;
the s17 blind set's tuning split, seed 91; ``verifiers/compliance/ruleset16.py``), in our own
wording on the hand catalog (``tests/compliance_cases``).

Each case is (text, ruleset 16's codes, ruleset 15's codes): a compliant answer ruleset 16 must
pass (ruleset 15 flagged it) and a defect in the same construction it must still catch.

Catalog facts used here: Summit Cash - no annual fee, 19.99%-29.99% variable; Summit Cash Plus -
$95 annual fee ($0 the first year), 18.24%-27.24% variable.
"""

from __future__ import annotations

import pytest

from replicas.verifiers.compliance import DEFAULT_RULESET, RULESETS, Catalog, verify_response
from tests.compliance_cases import CARDS, COMPLIANT, ELIGIBILITY
from tests.compliance_support import codes_with_spans

# (text, ruleset 16's codes, ruleset 15's codes)
Case = tuple[str, list[str], list[str]]

_OK: list[str] = []
_APR = ["wrong_apr"]
_UNKNOWN = ["unknown_card"]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


def _check(case: Case, catalog: Catalog) -> None:
    text, r16, r15 = case
    assert codes_with_spans(text, catalog, 16) == r16, text
    assert codes_with_spans(text, catalog, 15) == r15, text


# -- "the <word> rewards rate" is no invented card ------------------------------------------------
RATE_NAMES: list[Case] = [
    ("The Summit Cash has no annual fee. The base rewards rate is 1.5%.", _OK, _UNKNOWN),
    ("The Summit Cash has no annual fee. The headline rewards rate is 1.5% cash back.", _OK, _UNKNOWN),
    ("With the Summit Cash (no annual fee), the advertised cashback rate is 2% at grocers.", _OK, _UNKNOWN),
    # an invented card is still one, a capitalised "... Rewards Rate" too
    ("The Summit Cash has no annual fee. The Zenith Rewards Rate is another card to consider.", _UNKNOWN, _UNKNOWN),
    ("Consider the Zenith Cashback Rate: it has no annual fee.", _UNKNOWN, _UNKNOWN),
    ("The Summit Cash has no annual fee. The Summit Quartz Select Rewards is another option.", _UNKNOWN, _UNKNOWN),
    ("the summit quartz select rewards is worth a look.", _UNKNOWN, _UNKNOWN),
]  # fmt: skip

# -- a rewards rate is no APR -----------------------------------------------------------------
RATE_FIGURES: list[Case] = [
    ("The Summit Cash has no annual fee. Its effective cashback rate is 1.5%.", _OK, _APR),
    ("Summit Cash: no annual fee; the standard points rate is 1.5%.", _OK, _APR),
    ("The Summit Cash has no annual fee and a rewards rate of about 2% on groceries.", _OK, _APR),
    ("Summit Cash - annual fee: $0; cash back rate: 1.5%; APR: 19.99%-29.99% variable.", _OK, _APR),
    # the card's APR beside it is still read, and a wrong one caught
    ("The Summit Cash has no annual fee, a 12.99% APR and a rewards rate of 2%.", _APR, _APR),
    ("Summit Cash - annual fee: $0; cash back rate: 1.5%; APR: 9.99% variable.", _APR, _APR),
    ("The Summit Cash has no annual fee and a 12.99% APR.", _APR, _APR),
]  # fmt: skip


@pytest.mark.parametrize("case", RATE_NAMES)
def test_ruleset16_a_rewards_rate_is_no_card(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


@pytest.mark.parametrize("case", RATE_FIGURES)
def test_ruleset16_a_rewards_rate_is_no_apr(case: Case, catalog: Catalog) -> None:
    _check(case, catalog)


def test_ruleset16_is_on_by_default_and_keeps_the_compliant_corpus_passing(
    catalog: Catalog,
) -> None:
    assert RULESETS[16].version == 16 and RULESETS[16].rates_16
    for v in range(3, 16):
        assert not RULESETS[v].rates_16
    assert DEFAULT_RULESET >= 16
    for text in COMPLIANT:
        assert verify_response(text, catalog).passed, text
