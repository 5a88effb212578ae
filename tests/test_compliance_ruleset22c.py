"""Compliance ruleset 22, part c (in ruleset 23, not 22: read here as ruleset 22 plus its
flag, ``PART_C``): a dollar figure typed only as "a fee" (or as the annual fee by
"a year" alone) that is arithmetic on the amounts of its sentence is a worked example, not a fee
term (the s25 blind sets' tuning halves) - issue 13, ``verifiers/compliance/ruleset22c.py`` - in
our own wording on the hand catalog (``tests/compliance_cases``).

Each case is (text, ``PART_C``'s codes, ruleset 21's codes). The compliant cases are honest
explanations ruleset 21 flags; each has a twin in the same construction with a real wrong figure
(or a wrong fee typed by its own words) that ruleset 22 still catches.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from replicas.verifiers.compliance import (
    DEFAULT_RULESET,
    RULESETS,
    Catalog,
    Ruleset,
    verify_response,
)
from tests.compliance_cases import CARDS, ELIGIBILITY

#: ruleset 22 with part c's reading on (ruleset 23 has the flag too, with its own readings)
PART_C = replace(RULESETS[22], arithmetic_22c=True)


def codes_with_spans(text: str, catalog: Catalog, ruleset: int | Ruleset) -> list[str]:
    verdict = verify_response(text, catalog, ruleset=ruleset)
    for reason in verdict.reasons:
        assert reason.span is not None
        assert text[reason.span.start : reason.span.end] == reason.span.text
    return sorted(set(verdict.codes))


Case = tuple[str, list[str], list[str]]

_OK: list[str] = []
_FEE = ["wrong_fee"]

# Summit Cash Plus (hand catalog): $95 a year, $0 the first year; 5% per transfer ($5 minimum),
# 0% on transfers for 18 months, then 18.24%-27.24% variable; late fee $39.
# Summit Cash: no annual fee; 3% per transfer ($5 minimum); cash advances 5% ($10 minimum).
_PLUS = "**Summit Cash Plus**\n- Transfer fee: 5%, minimum $5 -> {fee} on your $7,000.\n"
_SUMS = (
    "Summit Cash Plus: 0% on transfers for 18 months, then 18.24%-27.24% variable, annual fee "
    "$95 (waived in year one). Quick sums: $2,000 plus the {fee} fee is {total}."
)
_SPOKEN = (
    "Say you move two thousand dollars to the Summit Cash Plus: the transfer fee is five "
    "percent, so {fee}."
)
_YEARLY = (
    "The Summit Cash Plus ($95 a year after a free first year) pays 4% on groceries: on $250 a "
    "month, 4% is {value}."
)

WORKED: list[Case] = [
    # the fee a percentage of the amount moved comes to, after an arrow
    (_PLUS.format(fee="$350") + "- Annual fee: $95, waived the first year.", _OK, _FEE),
    (_PLUS.format(fee="$300") + "- Annual fee: $95, waived the first year.", _FEE, _FEE),
    (_PLUS.format(fee="$350") + "- Annual fee: $120.", _FEE, _FEE),
    # a sum the sentence works out ("plus ... is")
    (_SUMS.format(fee="$100", total="$2,100"), _OK, _FEE),
    (_SUMS.format(fee="$100", total="$2,100") + " The card's annual fee is $120.", _FEE, _FEE),
    # spoken figures: "two thousand dollars", "five percent", "one hundred dollars"
    (_SPOKEN.format(fee="one hundred dollars"), _OK, _FEE),
    (_SPOKEN.format(fee="one hundred dollars, and the late fee is $45"), _FEE, _FEE),
    (_SPOKEN.format(fee="sixty dollars"), _FEE, _FEE),
    # a yearly reward figure on a monthly spend, typed as the annual fee by "a year" alone
    (_YEARLY.format(value="$120 a year"), _OK, _FEE),
    (_YEARLY.format(value="$150 a year"), _FEE, _FEE),
    (
        "The Summit Cash Plus costs $120 a year; on $250 a month, 4% back is $120 a year.",
        _FEE,
        _FEE,
    ),
    (
        "The Summit Cash Plus has a $120 annual fee; on $250 a month, 4% back is $120 a year.",
        _FEE,
        _FEE,
    ),
]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


@pytest.mark.parametrize("case", WORKED, ids=range(len(WORKED)))
def test_worked_fee_amounts(case: Case, catalog: Catalog) -> None:
    text, r22, r21 = case
    assert codes_with_spans(text, catalog, PART_C) == r22, text
    assert codes_with_spans(text, catalog, 21) == r21, text


def test_the_flag_is_in_no_ruleset_before_23() -> None:
    # it hid planted wrong fees on the s25 held-out halves (RULESETS.md, "Ruleset 22, part c");
    # ruleset 23 (the default in stop 37; 24, the default in stop 38, 25, the default in stop 39,
    # 26, the default in stop 40, 27, the default in stop 41, 28, the default in stop 42, 29, the
    # default in stop 43, 30, the default in stop 44, 31, the default in stop 45, 32, the default
    # in stop 46, 33, the default in stop 47, 34, the default in stop 48, and 35, the default
    # since, keep it) switches it on: the s26 blind sets lost no defect to it
    assert not any(RULESETS[v].arithmetic_22c for v in RULESETS if v < 23)
    assert RULESETS[23].arithmetic_22c and RULESETS[DEFAULT_RULESET].arithmetic_22c


def test_ruleset_21_reads_these_the_old_way(catalog: Catalog) -> None:
    # the test can fail: at least four honest worked sums ruleset 21 flags pass under 22
    fixed = [t for t, r22, r21 in WORKED if r22 == _OK and r21 == _FEE]
    assert len(fixed) >= 4
    assert all(codes_with_spans(t, catalog, PART_C) == _OK for t in fixed)
