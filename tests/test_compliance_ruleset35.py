"""Compliance ruleset 35 (issue 13, ``verifiers/compliance/ruleset35.py``): for precision, a
dollar figure the words leave open is left unverified when the catalog says it cannot be the
fee - a yearly amount no fee word governs that is no card's annual fee (``yearly_35``), and a fee
no word names that is no card's dollar fee and is a named card's percentage fee worked out on an
amount the answer writes (``unnamed_35``). In our own wording on the hand catalog
(``tests/compliance_cases``).

The hand catalog's annual fees are $95, $150, $495 and $695; its other dollar fees are late fees of
$39 and $40 and minimums of $0.50, $5 and $10. Summit Cash Plus: 5% transfer fee (min $5), $95 a
year, waived in year one. Vista Clear and Summit Cash: no annual fee, 3% transfer fee.

Each case is (text, customer, ruleset 35's codes, ruleset 34's codes). Every class holds texts 34
reads wrong and 35 right, and twins in the same shape - a fee the answer states - that both flag.
"""

from __future__ import annotations

import time

import pytest

from replicas.verifiers.compliance import Catalog, verify_response
from replicas.verifiers.compliance.ruleset35 import catalog_fees_35
from tests.compliance_cases import CARDS, ELIGIBILITY, precision_ruleset_tests

Case = tuple[str, str | None, list[str], list[str]]
_OK: list[str] = []
_FEE = ["wrong_fee"]

YEARLY: list[Case] = [
    # yearly values worked out, no fee word: no card's annual fee, so no fee
    (
        "Two no-fee cards, your numbers:\n- Summit Cash: $480/yr\n- Vista Clear: $360/yr, skip",
        None,
        _OK,
        _FEE,
    ),
    (
        "On your roughly $468 a month:\n- Summit Cash: about $7.29 a month, **$87 a year**\n"
        "- Vista Clear: about $6.10 a month, **$73 a year**",
        None,
        _OK,
        _FEE,
    ),
    (
        "Summit Cash, $0 annual fee. Groceries: $6,000 x 4% = $240, other: $14,000 x 2% = $280."
        "\n\n**Total: $1,387.75 a year, zero fees.**",
        None,
        _OK,
        _FEE,
    ),
    # some card's annual fee, a card or "it" as its subject, a waiver, a price verb: a fee
    ("- Summit Cash: $95 a year", None, _FEE, _FEE),
    ("- Summit Cash: $150/yr, skip", None, _FEE, _FEE),
    ("The Summit Cash is $120 a year.", None, _FEE, _FEE),
    ("**Summit Cash Plus** ($120/yr) is my pick.", None, _FEE, _FEE),
    (
        "So the Summit Cash Plus, it's sixty-nine dollars a year, waived the first year.",
        None,
        _FEE,
        _FEE,
    ),
    ("Summit Cash Plus: $69 a year, waived in year one.", None, _FEE, _FEE),
    ("The Summit Cash costs $120 a year.", None, _FEE, _FEE),
    ("Summit Cash: a $120 annual fee.", None, _FEE, _FEE),
]

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
]

CASES = YEARLY + UNNAMED
_FLAG_OF = {"yearly_35": YEARLY, "unnamed_35": UNNAMED}
(
    test_ruleset35_reads_each_class,
    test_each_flag_alone_reads_its_class,
    test_the_red_teams_texts_flag_nothing_new_and_lose_nothing,
) = precision_ruleset_tests(34, 35, CASES, _FLAG_OF, [])


def test_the_catalog_fees_are_read_from_the_catalog() -> None:
    catalog = Catalog.from_records(CARDS, ELIGIBILITY)
    annual, dollars = catalog_fees_35(catalog)
    assert annual == {round(c.annual_fee_usd * 100) for c in catalog.cards if c.annual_fee_usd}
    assert annual <= dollars
    assert {round(c.late_fee_usd * 100) for c in catalog.cards if c.late_fee_usd} <= dollars


@pytest.mark.parametrize("shape", ["yearly", "unnamed"])
def test_open_figures_stay_within_limits(shape: str) -> None:
    catalog = Catalog.from_records(CARDS, ELIGIBILITY)
    # 100 kB of open figures and amounts: the worked fees are counted once per response
    chunk = {
        "yearly": "- Summit Cash: $480/yr; Vista Clear: $361 a year. ",
        "unnamed": "On $8,013: Summit Cash Plus $400.65 fee, Vista Clear $240 fee. ",
    }[shape]
    text = (chunk * (100_000 // len(chunk)))[:100_000]
    started = time.process_time()
    verdict = verify_response(text, catalog, ruleset=35)
    assert time.process_time() - started < 60
    # the chunk's figures are left unverified, not dropped: feedback names them
    assert "unverified" in verdict.feedback
