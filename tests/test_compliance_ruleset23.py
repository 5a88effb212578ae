"""Compliance ruleset 23 (issue 13, ``verifiers/compliance/ruleset23.py``): readings of what a
figure can be, found on the s26 blind sets' tuning halves - in our own wording on the hand
catalog (``tests/compliance_cases``: the lowest purchase APR is 14.99 %, so an "APR" under
7.495 % is implausible; the largest dollar fee is $695, so a "fee" over $1,390 is).

Each case is (text, ruleset 23's codes, ruleset 22's codes). Every honest case that ruleset 22
flags has a twin in the same construction with a real wrong figure that ruleset 23 still
catches.
"""

from __future__ import annotations

import time

import pytest

from replicas.verifiers.compliance import RULESETS, Catalog, verify_response
from tests.compliance_cases import CARDS, ELIGIBILITY

Case = tuple[str, list[str], list[str]]
_OK: list[str] = []
_APR = ["wrong_apr"]
_FEE = ["wrong_fee"]

# Summit Cash Preferred (hand catalog): $150 a year, also in year one; 17.99%-25.99% variable.
# Summit Cash Plus: $95 a year, $0 the first year; 18.24%-27.24% variable; late fee $39.
# Summit Cash: no annual fee; 19.99%-29.99% variable; late fee $40.
_TABLE = (
    "| Card | Annual fee | Purchase APR | Rewards |\n|---|---|---|---|\n"
    "| Summit Cash Preferred | $150 | {apr} variable | 6% groceries |"
)
_TOP = "The Summit Cash Preferred ($150 a year, {apr} variable) pays well at its top rate of {r}."
_ALL_IN = (
    "With the Summit Cash Preferred ($150 a year) you're looking at well over {v} a year all "
    "in, give or take."
)
_ON = "Purchase APRs: 18.24%-27.24% variable on the Summit Cash Plus and {apr} variable on the {c}."
_NET = "The Summit Cash Preferred ($150 annual fee) would return about $410 a year ({v} after the fee)."
_NET_CELL = (
    "| Card | Annual fee | Year-one value | Later years |\n|---|---|---|---|\n"
    "| Summit Cash Preferred | $150 | $560 | $410 ({v} before the fee) |"
)

PLAUSIBLE: list[Case] = [
    # a reward rate in its own words is no APR, whatever the reader typed it as
    (_TOP.format(apr="17.99%-25.99%", r="5% on dining"), _OK, _APR),
    (_TOP.format(apr="16.99%-25.99%", r="5% on dining"), _APR, _APR),
    # a rate its own words call an APR is still checked, however low; so is a 0 % "APR"
    ("The Summit Cash Preferred ($150 a year) has a 3% APR on purchases.", _APR, _APR),
    ("The Summit Cash Preferred has a 0% APR.", _APR, _APR),
    # a plausible wrong APR is checked
    ("The Summit Cash Preferred ($150 a year) has a 9.99% variable APR.", _APR, _APR),
    (_TABLE.format(apr="16.99%-25.99%"), _APR, _APR),
    # a total far above any fee of the catalog, in words that name no fee
    (_ALL_IN.format(v="$1,500"), _OK, _FEE),
    # ... but a figure the catalog's fees could be is checked, and a named fee always is
    (_ALL_IN.format(v="$1,300"), _FEE, _FEE),
    ("The Summit Cash Preferred's fees: $2,000 a year.", _FEE, _FEE),
    ("The Summit Cash Preferred has a $1,200 annual fee.", _FEE, _FEE),
]

POSTPOSED: list[Case] = [
    # each range is the card's named right after it ("on the X")
    (_ON.format(apr="17.99%-25.99%", c="Summit Cash Preferred"), _OK, _APR),
    (_ON.format(apr="19.99%-25.99%", c="Summit Cash Preferred"), _APR, _APR),
    (_ON.format(apr="17.99%-25.99%", c="Summit Cash"), _APR, _APR),
    ("Late fees: up to $40 on the Summit Cash and $45 on the Summit Cash Plus.", _FEE, _FEE),
]

NET_FEE: list[Case] = [
    # a yearly value net of the card's $150 fee, beside the gross one
    (_NET.format(v="$260"), _OK, _FEE),
    (_NET.format(v="$250"), _FEE, _FEE),
    (_NET_CELL.format(v="$560"), _OK, _FEE),
    # "$0" is a waiver claim, never arithmetic: the Preferred has no first-year waiver
    ("The Summit Cash Preferred is $0 the first year, then $150.", _FEE, _FEE),
    # a fee that differs from another figure by the fee is still checked when it is named, when
    # the sentence denies a figure, and when it works nothing out
    ("The Summit Cash Preferred costs $300 a year, not $150 as some sites say.", _FEE, _FEE),
    ("The Summit Cash Preferred costs $300 a year; the Summit Cash Plus costs $150.", _FEE, _FEE),
    (
        "The Summit Cash Preferred has a $300 annual fee; $450 in rewards less that is $150.",
        _FEE,
        _FEE,
    ),
]

_COLUMNS = (
    "| Card | Annual fee | Est. rewards / yr | {h} |\n|---|---|---|---|\n"
    "| Summit Cash Preferred | $150 | $560 | {v} |\n| Summit Cash | $0 | $380 | $380 |"
)
_ROWS = (
    "| | Summit Cash Preferred | Summit Cash |\n|---|---|---|\n| Annual fee | $150 | $0 |\n"
    "| {h} | {v} | $380 |"
)

COLUMNS: list[Case] = [
    # a column that names a value the answer works out: its figures are no fee
    (_COLUMNS.format(h="After fee", v="$410"), _OK, _FEE),
    (_COLUMNS.format(h="Net value", v="$410"), _OK, _OK),
    # a term column is still checked, and so is a wrong fee beside a value column
    (_COLUMNS.format(h="Late fee", v="$45"), _FEE, _FEE),
    (_COLUMNS.format(h="Annual fee after year one", v="$410"), _FEE, _FEE),
    (_COLUMNS.format(h="After fee", v="$410").replace("| $150 |", "| $160 |"), _FEE, _FEE),
    # cards as columns: the row label names the value
    (_ROWS.format(h="After fee", v="$410"), _OK, _FEE),
    (_ROWS.format(h="Late fee", v="$45"), _FEE, _FEE),
]

CASES = PLAUSIBLE + POSTPOSED + NET_FEE + COLUMNS


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


def codes_with_spans(text: str, catalog: Catalog, ruleset: int) -> list[str]:
    verdict = verify_response(text, catalog, ruleset=ruleset)
    for reason in verdict.reasons:
        assert reason.span is not None
        assert text[reason.span.start : reason.span.end] == reason.span.text
    return sorted(set(verdict.codes))


@pytest.mark.parametrize("case", CASES, ids=range(len(CASES)))
def test_ruleset_23_readings(case: Case, catalog: Catalog) -> None:
    text, r23, r22 = case
    assert codes_with_spans(text, catalog, 23) == r23, text
    assert codes_with_spans(text, catalog, 22) == r22, text


def test_each_class_fixes_honest_text_that_ruleset_22_flags() -> None:
    # the test can fail: each class holds an honest case ruleset 22 flags and 23 passes, and a
    # twin both catch
    for cases in (PLAUSIBLE, POSTPOSED, NET_FEE, COLUMNS):
        assert any(r23 == _OK and r22 != _OK for _, r23, r22 in cases)
        assert any(r23 != _OK and r22 != _OK for _, r23, r22 in cases)


def test_an_unverified_figure_is_named_in_feedback(catalog: Catalog) -> None:
    verdict = verify_response(_ALL_IN.format(v="$1,500"), catalog, ruleset=23)
    assert verdict.passed
    assert '"$1,500"' in verdict.feedback and "unverified" in verdict.feedback


def test_ruleset_23_is_22_plus_part_c_and_its_own_flags() -> None:
    r22, r23 = RULESETS[22], RULESETS[23]
    own = ("plausible_23", "postposed_23", "net_fee_23", "columns_23")
    assert r23.arithmetic_22c and all(getattr(r23, f) for f in own)
    assert not any(getattr(RULESETS[v], f) for v in RULESETS if v < 23 for f in own)
    for name in r22.__dataclass_fields__:
        if name not in ("version", "arithmetic_22c", *own):
            assert getattr(r23, name) == getattr(r22, name), name


def test_adversarial_input_stays_within_limits(catalog: Catalog) -> None:
    # a worker must not exceed its limits: 200 kB of figures "on the" cards, net-of-fee pairs and
    # large totals, no sentence break
    chunk = (
        "$4,150 on the Summit Cash Preferred and $410 ($260 after the fee) 3% on the Summit Cash "
        "Plus, 6% groceries "
    )
    text = (chunk * (200_000 // len(chunk)))[:200_000]
    started = time.process_time()
    verify_response(text, catalog, ruleset=23)
    assert time.process_time() - started < 60
