"""Compliance ruleset 26 (issue 13, ``verifiers/compliance/ruleset26.py``): ruled-out cards,
ranked notes, results, labels, "no 0% transfer offer" and avoided late fees, found on the s29
blind sets' tuning halves - in our own wording on the hand catalog (``tests/compliance_cases``).

Summit Cash: no annual fee, 19.99%-29.99% variable, 0% on purchases for 15 months, 3% transfer
fee (min $5), no transfer offer, cash advances 29.99% and 5% (min $10), late fee $40, 3% foreign
fee; customer C1 may have it. Summit Cash Plus: $95 a year, $0 the first year, 18.24%-27.24%
variable, 0% on transfers for 18 months, 5% transfer fee, late fee $39, no foreign fee; C1's
score is below its minimum. Harbor Sky Miles: 14.99% fixed, no foreign fee (C1 may have it).
Harbor Sky Miles Elites: C1 already holds it. Granite Business Cash: student-only for C1.

Each case is (text, customer, ruleset 26's codes, ruleset 25's codes). Every class holds an
honest case ruleset 25 flags and twins with a real defect that ruleset 26 still catches.
"""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from replicas.verifiers.compliance import RULESETS, Catalog, verify_response
from replicas.verifiers.compliance.ruleset import Ruleset
from tests.compliance_cases import CARDS, ELIGIBILITY

Case = tuple[str, str | None, list[str], list[str]]
_OK: list[str] = []
_FEE = ["wrong_fee"]
_INELIGIBLE = ["ineligible_card"]

_TOP = "My pick for you is the Harbor Sky Miles: no annual fee, 14.99% fixed.\n\n"
WHY_NOT: list[Case] = [
    # a failed requirement answers the question without "Because"
    (
        _TOP + "Why not Harbor Sky Miles Elites? You already hold that one.",
        "C1",
        _OK,
        ["ineligible_card", "missing_disclosure"],
    ),
    (
        _TOP + "**Why not Granite Business Cash?** It's student-only and you aren't.",
        "C1",
        _OK,
        _INELIGIBLE,
    ),
    (
        _TOP + "Why not Summit Cash Plus? It wants a 700+ score; yours is 655.",
        "C1",
        _OK,
        ["ineligible_card", "missing_disclosure"],
    ),
    (
        _TOP + "Why not Summit Cash Plus:\nYour 655 score is under its 700 minimum.",
        "C1",
        _OK,
        ["ineligible_card", "missing_disclosure"],
    ),
    # a requirement the answer says is met keeps the card suggested
    (
        _TOP + "Why not Summit Cash Plus? It needs 640 and yours is 700, so go for it.",
        "C1",
        ["ineligible_card", "missing_disclosure"],
        ["ineligible_card", "missing_disclosure"],
    ),
    (
        _TOP + "Why not Granite Business Cash? It's student-only, and you're a student.",
        "C1",
        _INELIGIBLE,
        _INELIGIBLE,
    ),
    # a reason that is no requirement ("lower fee") keeps it suggested
    (
        _TOP + "Why not Summit Cash Plus? It has a $95 annual fee, $0 the first year, and great "
        "transfers.",
        "C1",
        _INELIGIBLE,
        _INELIGIBLE,
    ),
    # a card recommended elsewhere stays recommended, whatever a later "why not" says
    (
        "I recommend the Summit Cash Plus ($95 a year, $0 the first year).\n\nWhy not Summit Cash "
        "Plus? You already hold it.",
        "C1",
        _INELIGIBLE,
        _INELIGIBLE,
    ),
]

_NOTES = (
    "#1 Summit Cash | annual fee $0 | APR 19.99%-29.99% var\n"
    "#2 Summit Cash Plus | annual fee $95, $0 the first year | APR 18.24%-27.24% var\n"
    "excl: Summit Cash Preferred (score)\n"
)
RANKS: list[Case] = [
    # a note led by a rank is about the card the rank names, not the card named last
    (_NOTES + "notes: #2 late fee up to $39", None, _OK, _FEE),
    (_NOTES + "notes: #1 late fee up to $40; #2 late fee up to $39", None, _OK, _FEE),
    # ... and checked against that card
    (_NOTES + "notes: #1 late fee up to $39", None, _FEE, _FEE),
    (_NOTES + "notes: #2 late fee up to $40", None, _FEE, _OK),
    # "CA" in a ranked note is the cash advance APR
    (_NOTES + "notes: #1 CA 29.99% APR", None, _OK, _OK),
    (_NOTES + "notes: #1 CA 27.99% APR", None, ["wrong_apr"], ["wrong_apr"]),
]

_CASH = "The Summit Cash has no annual fee and earns 2% back on groceries and 1% on the rest."
RESULTS: list[Case] = [
    # a figure the answer says is the reader's
    ("The Summit Cash has a $0 annual fee, so that $412.50 is all yours.", None, _OK, _FEE),
    ("Summit Cash: no annual fee, so the $412.50 goes straight to you.", None, _OK, _OK),
    # an estimate in a note's cell
    ("#1 Summit Cash | annual fee $0 | est rew $412/yr | net $412/yr", None, _OK, _FEE),
    # "that comes to" after what the card earns
    (_CASH + " That comes to something like $388 a year.", None, _OK, _FEE),
    # ... not after a price, nor with a price before the figure in its own sentence
    (
        "The Summit Cash Plus earns 2% back and has an annual fee. That comes to $150 a year.",
        None,
        _FEE,
        _FEE,
    ),
    (_CASH + " Its annual fee? That comes to $95 a year.", None, _FEE, _FEE),
    # a price cell stays a price
    ("#1 Summit Cash | annual fee $95 | est rew $412/yr", None, _FEE, _FEE),
]

LABELS: list[Case] = [
    # a goal in a list of goals is no claim; a hyphenated label before a noun is
    (
        "Summit Cash Plus: $95 a year, $0 the first year, 5% transfer fee. Want another goal "
        "(travel, balance transfer, no-fee)?",
        None,
        _OK,
        _FEE,
    ),
    (
        "Summit Cash Plus: $95 a year, $0 the first year, a balance transfer, no-fee card.",
        None,
        _FEE,
        _FEE,
    ),
    # "Annual Percentage Rate" is a header, never a card
    (
        "| Annual Percentage Rate (APR) for purchases | 19.99%-29.99% variable |\n"
        "The Summit Cash has no annual fee.",
        None,
        _OK,
        ["unknown_card"],
    ),
    # an invented name is still one
    (
        "The Summit Percentage Rewards Card has no annual fee.",
        None,
        ["unknown_card"],
        ["unknown_card"],
    ),
    # a lower-case "plus" after a capitalised name is a word, not the tier
    (
        "I'd take the Summit Cash plus a second card later: no annual fee, 19.99%-29.99% variable.",
        None,
        _OK,
        ["wrong_apr", "wrong_fee"],
    ),
    (
        "I'd take the Summit Cash Plus: no annual fee, 19.99%-29.99% variable.",
        None,
        ["wrong_apr", "wrong_fee"],
        ["wrong_apr", "wrong_fee"],
    ),
]

OFFERS: list[Case] = [
    # the 0% is the offer the card lacks
    (
        "The Summit Cash has 0% on purchases for 15 months (then 19.99%-29.99% variable) and no 0% "
        "transfer offer; transfers carry a 3% fee.",
        None,
        _OK,
        _OK,
    ),
    (
        "The Summit Cash: no annual fee, no 0% transfer offer with a 3% transfer fee ($5 min).",
        None,
        _OK,
        _FEE,
    ),
    # ... the fee after it is still checked, and a second "no" still denies it
    (
        "The Summit Cash: no annual fee, no 0% transfer offer with a 4% transfer fee ($5 min).",
        None,
        _FEE,
        _FEE,
    ),
    ("The Summit Cash: no annual fee, no 0% transfer offer and no transfer fee.", None, _FEE, _FEE),
    # a card that has the offer is denied it
    (
        "The Summit Cash Plus ($95 a year, $0 the first year) has no 0% transfer offer.",
        None,
        ["wrong_intro_terms"],
        ["wrong_intro_terms"],
    ),
]

_FINE_PRINT = (
    "**Fine print** for the Summit Cash: no annual fee; transfers cost 3% of the amount, minimum "
    "$5 · a 29.99% cash advance APR plus a {fee} (min $10) minimum fee · penalty APR: 29.99%"
)
FEES: list[Case] = [
    # a late fee the reader avoids is no term
    (
        "The Summit Cash has no annual fee. Set up autopay so you never trip a late fee.",
        None,
        _OK,
        _FEE,
    ),
    (
        "The Summit Cash has no annual fee. Autopay means you never incur a late fee.",
        None,
        _OK,
        _FEE,
    ),
    # a card that "never charges" one, or "no late fee", is a claim
    (
        "The Summit Cash has no annual fee. You'll never pay a late fee on this card.",
        None,
        _FEE,
        _FEE,
    ),
    ("The Summit Cash has no annual fee and never charges a late fee.", None, _FEE, _FEE),
    # a percentage called a fee is a fee, checked as one
    (_FINE_PRINT.format(fee="5%"), None, _OK, ["wrong_apr"]),
    # ... the cash advance fee its sentence names, not any of the card's percentage fees
    (_FINE_PRINT.format(fee="3%"), None, _FEE, ["wrong_apr"]),
    # "var" is "variable"
    (
        "#1 Summit Cash | annual fee $0 | APR 19.99%-29.99% var\n#2 Harbor Sky Miles | annual fee "
        "$0 | APR 14.99% fixed",
        None,
        _OK,
        _OK,
    ),
]

CLASSES = {
    "why_not_26": WHY_NOT,
    "ranks_26": RANKS,
    "results_26": RESULTS,
    "labels_26": LABELS,
    "offers_26": OFFERS,
    "fees_26": FEES,
}
CASES = [case for cases in CLASSES.values() for case in cases]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


def codes(
    text: str, catalog: Catalog, ruleset: int | Ruleset, customer: str | None = None
) -> list[str]:
    verdict = verify_response(text, catalog, customer_id=customer, ruleset=ruleset)
    for reason in verdict.reasons:
        assert reason.span is not None
        assert text[reason.span.start : reason.span.end] == reason.span.text
    return sorted(set(verdict.codes))


@pytest.mark.parametrize("case", CASES, ids=range(len(CASES)))
def test_ruleset_26_readings(case: Case, catalog: Catalog) -> None:
    text, customer, r26, r25 = case
    assert codes(text, catalog, 26, customer) == r26, text
    assert codes(text, catalog, 25, customer) == r25, text


@pytest.mark.parametrize("flag", sorted(CLASSES))
def test_each_reading_is_what_changes_its_cases(flag: str, catalog: Catalog) -> None:
    # each class holds a case ruleset 25 reads otherwise and a twin ruleset 26 still flags; the
    # class's own flag alone, added to ruleset 25, reads the changed cases as ruleset 26 does
    cases = CLASSES[flag]
    changed = [c for c in cases if c[2] != c[3]]
    assert changed
    assert any(r26 != _OK for _, _, r26, _ in cases)
    alone = replace(RULESETS[25], **{flag: True})
    for text, customer, r26, _ in changed:
        assert codes(text, catalog, alone, customer) == r26, (flag, text)


def test_ruleset_26_is_25_plus_its_own_flags() -> None:
    r25, r26 = RULESETS[25], RULESETS[26]
    assert all(getattr(r26, f) for f in CLASSES)
    assert not any(getattr(RULESETS[v], f) for v in RULESETS if v < 26 for f in CLASSES)
    for name in r25.__dataclass_fields__:
        if name not in ("version", *CLASSES):
            assert getattr(r26, name) == getattr(r25, name), name


def test_adversarial_input_stays_within_limits(catalog: Catalog) -> None:
    # a worker must not exceed its limits: 100 kB of ranked notes, "why not" lines, estimates,
    # goals and "no 0%" offers, on one line and on many
    chunk = (
        "#1 Summit Cash | est rew $412/yr | net $412/yr; #1 CA 29.99%; #2 late fee up to $39 "
        "Why not Summit Cash Plus? Yours is 655, it needs 700. (travel, no-fee) no 0% transfer "
        "offer with a 3% transfer fee, so that $412 is all yours. That comes to about $388 a "
        "year. Summit Cash plus 5% (min $10) minimum fee, so you never trip a late fee. "
    )
    lines = (chunk * (100_000 // len(chunk)))[:100_000]
    for text in (lines, lines.replace(" Why", "\nWhy")):
        started = time.process_time()
        verify_response(text, catalog, customer_id="C1", ruleset=26)
        assert time.process_time() - started < 60
