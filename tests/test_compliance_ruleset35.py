"""Compliance ruleset 35 (issue 13, ``verifiers/compliance/ruleset35.py``): for precision, a fee
figure no word names is left unverified when it is no dollar fee in the catalog and a named card's
percentage fee worked out on an amount the answer writes before it (``unnamed_35``); the feedback
names every figure left unverified (``unverified_35``). In our own wording on the hand catalog
(``tests/compliance_cases``).

The hand catalog's dollar fees: annual fees of $95, $150, $495 and $695, late fees of $39 and $40,
minimums of $0.50, $5 and $10. Summit Cash Plus: 5% transfer fee (min $5), $95 a year, waived in
year one. Vista Clear and Summit Cash: no annual fee, 3% transfer fee.

Each case is (text, customer, ruleset 35's codes, ruleset 34's codes). Each class holds texts 34
reads wrong and 35 right, and twins in the same shape that both read alike.
"""

from __future__ import annotations

import time

from replicas.verifiers.compliance import Catalog, verify_response
from replicas.verifiers.compliance.ruleset35 import catalog_fees_35
from tests.compliance_attacks35 import ATTACKS_35
from tests.compliance_cases import CARDS, ELIGIBILITY, precision_ruleset_tests

Case = tuple[str, str | None, list[str], list[str]]
_OK: list[str] = []
_FEE = ["wrong_fee"]

UNNAMED: list[Case] = [
    # a percentage fee of a named card on an amount the answer writes, and what one saves
    # against another: worked out, no term
    (
        "On $8,000:\n- Summit Cash Plus: $400 fee + ~$140 interest = $540\n- Vista Clear: $240 "
        "fee, no interest = **$240**",
        None,
        _OK,
        _FEE,
    ),
    (
        "On $4,000:\n- Summit Cash Plus: $200 fee\n- Vista Clear: $120 fee, and it saves you $80",
        None,
        _OK,
        _FEE,
    ),
    # a fee no word names that no percentage fee on the answer's amounts comes to: checked
    ("Summit Cash Plus: $120 fee.", None, _FEE, _FEE),
    ("On $8,000:\n- Summit Cash Plus: $300 fee + ~$140 interest = $440", None, _FEE, _FEE),
    # a catalog dollar fee is always checked, worked out or not ($150 is 3% of $5,000)
    ("On $5,000, Summit Cash Plus: $150 fee.", None, _FEE, _FEE),
    # a fee the answer names is checked whatever amounts it writes
    ("On $8,000: the Summit Cash Plus has a $400 annual fee.", None, _FEE, _FEE),
    # an amount written after the figure: checked
    (
        "- Summit Cash Plus: $400 fee + ~$140 interest = $540\n\nThat is on $8,000.",
        None,
        _FEE,
        _FEE,
    ),
    # yearly values worked out stay flagged (yearly_35 was dropped: RULESETS.md, "Ruleset 35")
    ("Two no-fee cards, your numbers:\n- Summit Cash: $480/yr", None, _FEE, _FEE),
]

CASES = UNNAMED
_FLAG_OF = {"unnamed_35": UNNAMED}
(
    test_ruleset35_reads_each_class,
    test_each_flag_alone_reads_its_class,
    test_the_red_teams_texts_flag_nothing_new_and_lose_nothing,
) = precision_ruleset_tests(34, 35, CASES, _FLAG_OF, ATTACKS_35)


def test_the_catalog_fees_are_read_from_the_catalog() -> None:
    catalog = Catalog.from_records(CARDS, ELIGIBILITY)
    dollars = catalog_fees_35(catalog)
    for field in ("annual_fee_usd", "late_fee_usd", "bt_fee_min_usd", "cash_advance_fee_min_usd"):
        assert {
            round(getattr(c, field) * 100) for c in catalog.cards if getattr(c, field)
        } <= dollars
    assert 0 not in dollars


def test_feedback_names_the_figures_left_unverified() -> None:
    catalog = Catalog.from_records(CARDS, ELIGIBILITY)
    text = (
        "On $8,000:\n- Summit Cash Plus: $400 fee + ~$140 interest = $540\n"
        "- Vista Clear: $240 fee, no interest = **$240**"
    )
    before, after = (verify_response(text, catalog, ruleset=r) for r in (34, 35))
    assert list(before.codes) == ["wrong_fee"] and after.passed
    assert "unverified" in after.feedback and "$400" in after.feedback
    # only the claims checked are counted as matching the catalog
    assert "0 term claim(s) all match" in after.feedback, after.feedback
    # a figure ruleset 34 leaves unverified (a deposit) is named too, under 35 only
    deposit = "3. **Summit Cash**: $0 annual fee, only $200 down, but no rewards."
    assert "unverified" in verify_response(deposit, catalog, ruleset=35).feedback
    assert "unverified" not in verify_response(deposit, catalog, ruleset=34).feedback


def test_open_figures_stay_within_limits() -> None:
    catalog = Catalog.from_records(CARDS, ELIGIBILITY)
    # 100 kB of amounts and unnamed fees: each fee looks back over at most 800 characters
    chunk = "On $8,013: Summit Cash Plus $400.65 fee, Vista Clear $240.39 fee; $1,234 more. "
    text = (chunk * (100_000 // len(chunk)))[:100_000]
    timings = {}
    for ruleset in (34, 35):
        started = time.process_time()
        verdict = verify_response(text, catalog, ruleset=ruleset)
        timings[ruleset] = time.process_time() - started
    assert timings[35] < 60, timings
    # the worked fees are left unverified, and feedback says so
    assert "wrong_fee" not in verdict.codes and "unverified" in verdict.feedback
