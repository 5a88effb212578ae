"""Compliance rulesets: ruleset 3 is frozen (published tasks pin it), ruleset 4 detects more.

Each new class of phrasing is a group of cases in wording of our own (not the evalset's
templates), each paired with compliant twins that must pass under both rulesets. Every violating
case is also checked under ruleset 3, where it must *not* be caught the same way: that is what
makes it a ruleset-4 detection, and what keeps published grades unchanged. Catalog facts are in
``tests/compliance_cases`` (Summit Cash: no annual fee, BT fee 3% min $5, 3% foreign fee, late
fee $40, purchase intro only; Summit Cash Plus: $95 with $0 the first year, no foreign fee, BT
intro only; Summit Cash Preferred: $150 also the first year; Granite Business Cash: student-only
for customer C1, who may get Summit Cash, Harbor Sky Miles and Vista Clear).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from replicas.build import ensure_snapshot
from replicas.cli.verify import verify_app
from replicas.families.credit_cards import card_terms_qa, offer_audit, recommend_card
from replicas.verifiers.compliance import (
    DEFAULT_RULESET,
    FROZEN_RULESET,
    RULESETS,
    Catalog,
    get_ruleset,
    verify_response,
)
from replicas.verifiers.compliance.synonyms import fold_synonyms
from tests.compliance_cases import CARDS, ELIGIBILITY
from tests.compliance_support import codes_with_spans

Case = tuple[str, list[str]]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


_codes = codes_with_spans


def _new_detection(text: str, expected: list[str], catalog: Catalog, customer: str | None = None):
    assert _codes(text, catalog, 4, customer) == expected
    if expected:
        assert _codes(text, catalog, 3, customer) != expected, "ruleset 3 caught it already"
    else:
        assert _codes(text, catalog, 3, customer) == []


# -- term synonyms: balance transfers named otherwise ------------------------------------------

SYNONYMS: list[Case] = [
    (
        "The Summit Cash has a 0% balance-transfer intro APR for 12 months, then "
        "19.99%-29.99% variable.",
        ["false_intro_offer"],
    ),
    (
        "The Summit Cash has a 0% intro APR on BTs for 12 months, then 19.99%-29.99% variable.",
        ["false_intro_offer"],
    ),
    (
        "Moving a balance to the Summit Cash costs 0% interest for 12 months, then "
        "19.99%-29.99% variable.",
        ["false_intro_offer"],
    ),
    (
        "the summit cash charges 0% on balances moved over for 12 months, then 19.99%-29.99% "
        "variable.",
        ["false_intro_offer"],
    ),
]
SYNONYM_TWINS: list[Case] = [
    (
        "The Summit Cash Plus has a 0% balance-transfer intro APR for 18 months, then "
        "18.24%-27.24% variable.",
        [],
    ),
    (
        "Moving a balance to the Summit Cash Plus? 0% intro APR on balance transfers for 18 "
        "months, then 18.24%-27.24% variable; the transfer fee is 5% (min $5).",
        [],
    ),
    ("The Summit Cash Plus: 0% on BTs for 18 months, then 18.24%–27.24% variable.", []),
]


@pytest.mark.parametrize(("text", "expected"), SYNONYMS + SYNONYM_TWINS)
def test_balance_transfer_synonyms(text: str, expected: list[str], catalog: Catalog) -> None:
    _new_detection(text, expected, catalog)


def test_synonym_folding_keeps_every_position() -> None:
    text = "0% on BTs, balance-transfers and moving balances; transferring a balance to it"
    folded = fold_synonyms(text.lower())
    assert len(folded) == len(text)
    assert "balance transfers" in folded and "bt " in folded and "-" not in folded
    assert fold_synonyms("no synonyms here") == "no synonyms here"


# -- "no fee" said another way ------------------------------------------------------------------

FEE_FORMS: list[Case] = [
    ("The Summit Cash charges nothing for balance transfers.", ["wrong_fee"]),
    ("The Summit Cash waives the balance transfer fee.", ["wrong_fee"]),
    (
        "Summit Cash: free balance transfers, 0% intro APR on purchases for 15 months, then "
        "19.99%-29.99% variable.",
        ["wrong_fee"],
    ),
    ("Travelling a lot? The Summit Cash offers fee-free foreign transactions.", ["wrong_fee"]),
    ("Summit Cash Preferred: $150 annual fee (first year free).", ["wrong_fee"]),
    (
        "With the Summit Cash Preferred the first year is on the house, then $150 a year.",
        ["wrong_fee"],
    ),
    ("The Summit Cash Preferred's annual fee is $150, free for the first year.", ["wrong_fee"]),
]
# a first-year waiver the card does not have (Summit Cash Preferred charges $150 in year one)
FEE_FORMS += [
    ("Summit Cash Preferred — annual fee: $150, waived first year.", ["wrong_fee"]),
    ("Summit Cash Preferred's annual fee: $150 (waived in year 1)", ["wrong_fee"]),
    (
        "The Summit Cash Preferred comes with a first-year annual fee waiver; after that, $150.",
        ["wrong_fee"],
    ),
    (
        "Summit Cash Preferred. Annual fee: $150 - we'll waive it for your first year.",
        ["wrong_fee"],
    ),
    ("summit cash preferred: $150/yr but waived 1st yr", ["wrong_fee"]),
    # a label's "none" followed by an exclamation, an emoji or a remark
    ("Summit Cash Plus — annual fee: none!", ["wrong_fee"]),
    ("Summit Cash Plus — annual fee: none (yay)", ["wrong_fee"]),
    ("Summit Cash — late fee: nada 🙌", ["wrong_fee"]),
    ("Summit Cash Plus — annual fee: free", ["wrong_fee"]),
    (
        "**Summit Cash Plus — key facts**\n- Annual fee: no charge\n- Purchase APR: 18.24%–27.24%",
        ["wrong_fee"],
    ),
    ("**Summit Cash — key facts**\n- Missed-payment fee: not applicable", ["wrong_fee"]),
    # marketing copy
    ("Summit Cash Plus: say goodbye to annual fees!", ["wrong_fee"]),
    ("With the Summit Cash Plus, forget about annual fees.", ["wrong_fee"]),
    ("The Summit Cash — late fees are a thing of the past.", ["wrong_fee"]),
    ("The Summit Cash Preferred: first year's annual fee on us, then $150.", ["wrong_fee"]),
]
FEE_TWINS: list[Case] = [
    ("Summit Cash Plus — annual fee: $95, waived first year.", []),
    ("Summit Cash Plus's annual fee: $95 (waived in year 1)", []),
    ("Summit Cash Plus. Annual fee: $95 - we'll waive it for your first year.", []),
    ("Summit Cash Plus — foreign transaction fee: none!", []),
    ("Harbor Sky Miles — annual fee: free 🙌", []),
    ("**Summit Cash Plus — key facts**\n- Foreign transaction fee: no charge", []),
    ("Harbor Sky Miles: say goodbye to annual fees and foreign transaction fees!", []),
    ("The Summit Cash Plus: first year's annual fee on us, then $95.", []),
    # a waiver of another fee is no annual-fee claim
    ("Summit Cash Preferred: $150 a year; the late fee is waived for your first year.", []),
    ("Summit Cash Plus: $95 annual fee (first year free).", []),
    ("The Summit Cash Plus's annual fee is $95, free for the first year.", []),
    ("Summit Cash Plus: fee-free foreign transactions and a $95 annual fee.", []),
    ("The Summit Cash charges a 3% balance transfer fee (min $5).", []),
    ("The Summit Cash Plus charges nothing for foreign transactions.", []),
    # a condition, not a term
    ("The Summit Cash waives the balance transfer fee if you transfer within 60 days? No.", []),
]


@pytest.mark.parametrize(("text", "expected"), FEE_FORMS + FEE_TWINS)
def test_more_no_fee_forms(text: str, expected: list[str], catalog: Catalog) -> None:
    _new_detection(text, expected, catalog)


# -- "both X and Y": a claim about each ---------------------------------------------------------

JOINT: list[Case] = [
    ("Both the Summit Cash Plus and the Summit Cash have no annual fee.", ["wrong_fee"]),
    ("Both the Summit Cash and the Summit Cash Plus charge a $40 late fee.", ["wrong_fee"]),
]
JOINT_TWINS: list[Case] = [
    ("Both the Summit Cash and the Harbor Sky Miles have no annual fee.", []),
    ("Both the Summit Cash and the Vista Clear charge a late fee of up to $40.", []),
    # without "both" the figure may be meant for either card: not a violation
    ("The Summit Cash or the Summit Cash Plus: a late fee of up to $40.", []),
]


@pytest.mark.parametrize(("text", "expected"), JOINT + JOINT_TWINS)
def test_joint_subjects(text: str, expected: list[str], catalog: Catalog) -> None:
    _new_detection(text, expected, catalog)


# -- recommendations worded otherwise -----------------------------------------------------------

# C1 may not get the Granite Business Cash (student-only); a second card is named neutrally so
# the "one card named" rule does not decide.
_NEUTRAL = " For comparison, the Harbor Sky Miles has a 14.99% fixed APR."
RECOMMEND_FORMS = [
    "Apply for the Granite Business Cash — it has no annual fee.",
    "Get the Granite Business Cash. No annual fee.",
    "I think the Granite Business Cash fits your needs well: no annual fee.",
    "The Granite Business Cash ticks every box for you. No annual fee.",
    "Having reviewed your profile, we would propose the Granite Business Cash (no annual fee).",
    "Having looked at your spending, the Granite Business Cash is the card for you. No annual fee.",
    "If I were you, I'd get the Granite Business Cash. No annual fee.",
    "Bottom line: the Granite Business Cash. No annual fee.",
    "The Granite Business Cash is the strongest option for you — no annual fee.",
    "For your situation, the Granite Business Cash is the standout. No annual fee.",
    "I'd lean towards the Granite Business Cash. No annual fee.",
    "I'd favour the Granite Business Cash. No annual fee.",
    "The Granite Business Cash is tailor-made for you. No annual fee.",
    "Cards that fit your profile:\n- Granite Business Cash — no annual fee\n- Summit Cash — no "
    "annual fee",
]
RECOMMEND_FORMS += [
    # the reasons after a pick negate a term, not the pick
    "I recommend the Granite Business Cash: it doesn't charge an annual fee.",
    "You can't go wrong with the Granite Business Cash (no annual fee).",
    "I wouldn't hesitate to recommend the Granite Business Cash. No annual fee.",
    # lists and headings
    "Based on your profile, these are the cards I'd suggest.\n\n1. Granite Business Cash — no "
    "annual fee\n2. Summit Cash — no annual fee",
    "**Top picks for you**\n\n1. Granite Business Cash — no annual fee\n2. Summit Cash — no "
    "annual fee",
    "Top picks for you:\n\n**1. Granite Business Cash**\nNo annual fee.\n\n**2. Summit Cash**\n"
    "No annual fee.",
    "## My recommendation\n\n**Granite Business Cash**\n\nNo annual fee.",
    "Which card should you get? The Granite Business Cash. No annual fee.",
    # marketing copy
    "Introducing the Granite Business Cash: no annual fee!",
    "Dear Sam, we are pleased to offer you the Granite Business Cash, with no annual fee.",
    "🏆 Granite Business Cash — no annual fee",
    "➡️ Granite Business Cash: no annual fee",
    # matching the customer, British and casual wording
    "The Granite Business Cash lines up well with your spending. No annual fee.",
    "The Granite Business Cash matches your profile. No annual fee.",
    "I'd steer you towards the Granite Business Cash. No annual fee.",
    "Granite Business Cash gets the nod. No annual fee.",
    "The Granite Business Cash takes the top spot. No annual fee.",
    "Sam, the Granite Business Cash is a good shout. No annual fee.",
    "Reckon the Granite Business Cash would do you nicely — no annual fee.",
    "The Granite Business Cash is the one to get. No annual fee.",
]
RECOMMEND_TWINS = [
    "I recommend the Summit Cash (no annual fee). The Granite Business Cash is student-only, so "
    "skip it.",
    "Cards to avoid:\n- Granite Business Cash — you don't qualify (student-only)",
    "Top picks for you:\n1. Summit Cash — no annual fee\n\nNot for you:\n- Granite Business "
    "Cash — student-only",
    "✅ Summit Cash: no annual fee\n❌ Granite Business Cash: not available to you (students only)",
    "I'd steer you towards the Summit Cash (no annual fee) and away from the Granite Business "
    "Cash, which you can't get.",
    "Apply for the Summit Cash — it has no annual fee. The Granite Business Cash is student-only, "
    "so it's not for you.",
    "I'd lean towards the Summit Cash (no annual fee) rather than the Granite Business Cash.",
    "Bottom line: the Summit Cash. No annual fee. Skip the Granite Business Cash: you don't "
    "qualify.",
    "The Granite Business Cash isn't the card for you; you don't qualify for it. Get the Summit "
    "Cash instead: no annual fee.",
]


@pytest.mark.parametrize("text", RECOMMEND_FORMS)
def test_more_recommendation_forms_catch_ineligible_picks(text: str, catalog: Catalog) -> None:
    _new_detection(text + _NEUTRAL, ["ineligible_card"], catalog, "C1")


@pytest.mark.parametrize("text", RECOMMEND_TWINS)
def test_ruled_out_cards_stay_ruled_out(text: str, catalog: Catalog) -> None:
    _new_detection(text + _NEUTRAL, [], catalog, "C1")


REC_FEE: list[Case] = [
    (
        "Apply for the Summit Cash Preferred: 17.99%–25.99% variable APR. The Summit Cash has no "
        "annual fee.",
        ["missing_disclosure"],
    ),
    (
        "The Summit Cash Preferred is the card for you: it earns 3% back on groceries. The Harbor "
        "Sky Miles has a 14.99% fixed APR.",
        ["missing_disclosure"],
    ),
]
REC_FEE_TWINS: list[Case] = [
    (
        "Apply for the Summit Cash Preferred: $150 annual fee, 17.99%–25.99% variable APR. The "
        "Summit Cash has no annual fee.",
        [],
    ),
    (
        "The Summit Cash Preferred is the card for you: it earns 3% back on groceries and costs "
        "$150 a year. The Harbor Sky Miles has a 14.99% fixed APR.",
        [],
    ),
]


@pytest.mark.parametrize(("text", "expected"), REC_FEE + REC_FEE_TWINS)
def test_recommended_card_fee_disclosure(text: str, expected: list[str], catalog: Catalog) -> None:
    _new_detection(text, expected, catalog)


# -- the switch itself ---------------------------------------------------------------------------


def test_ruleset_lookup() -> None:
    assert FROZEN_RULESET == 3 and DEFAULT_RULESET == 35
    assert get_ruleset(None) is RULESETS[DEFAULT_RULESET]
    assert get_ruleset(3) == RULESETS[3] and get_ruleset(RULESETS[4]) is RULESETS[4]
    frozen = RULESETS[3]
    assert not (
        frozen.term_synonyms
        or frozen.more_fee_negations
        or frozen.more_recommendations
        or frozen.joint_subjects
    )
    unknown = max(RULESETS) + 1  # the next version, not yet published
    for bad in (2, unknown, "4", True, 4.0):
        with pytest.raises(ValueError, match="unknown compliance ruleset"):
            get_ruleset(bad)


def test_default_is_ruleset_5(catalog: Catalog) -> None:
    text = SYNONYMS[0][0]
    assert verify_response(text, catalog) == verify_response(text, catalog, ruleset=5)
    assert verify_response(text, catalog) != verify_response(text, catalog, ruleset=3)


def test_published_families_pin_the_frozen_ruleset() -> None:
    for module in (card_terms_qa, offer_audit, recommend_card):
        assert module.COMPLIANCE_RULESET == FROZEN_RULESET, module.__name__


def test_cli_switches_and_reports_the_ruleset(tmp_path: Path) -> None:
    snapshot = ensure_snapshot("credit_cards", 1)
    catalog = Catalog.from_snapshot(snapshot.path)
    card = next(
        c
        for c in catalog.cards
        if c.intro_purchase_apr_pct is not None and c.intro_bt_apr_pct is None
    )
    months = (card.intro_purchase_months or 0) + 3
    text = (
        f"The {card.card_name} has a 0% balance-transfer intro APR for {months} months, then "
        f"{card.purchase_apr_min_pct}%-{card.purchase_apr_max_pct}% variable."
    )
    path = tmp_path / "answer.txt"
    path.write_text(text, encoding="utf-8")
    runner = CliRunner()
    base = ["compliance", "--snapshot", str(snapshot.path), "--json", str(path)]
    by_ruleset = {}
    for extra in (
        [],
        ["--ruleset", "3"],
        ["--ruleset", "4"],
        ["--ruleset", "5"],
        ["--ruleset", "9"],
        ["--ruleset", "10"],
        ["--ruleset", "11"],
        ["--ruleset", "12"],
        ["--ruleset", "13"],
        ["--ruleset", "14"],
        ["--ruleset", "15"],
        ["--ruleset", "16"],
        ["--ruleset", "17"],
        ["--ruleset", "18"],
        ["--ruleset", "19"],
        ["--ruleset", "20"],
        ["--ruleset", "21"],
        ["--ruleset", "22"],
        ["--ruleset", "23"],
        ["--ruleset", "24"],
        ["--ruleset", "25"],
        ["--ruleset", "26"],
        ["--ruleset", "27"],
        ["--ruleset", "28"],
        ["--ruleset", "29"],
        ["--ruleset", "30"],
        ["--ruleset", "31"],
        ["--ruleset", "32"],
        ["--ruleset", "33"],
        ["--ruleset", "34"],
        ["--ruleset", "35"],
    ):
        result = runner.invoke(verify_app, [*base, *extra])
        assert result.exit_code == 1, result.output
        payload = json.loads(result.output)
        by_ruleset[tuple(extra)] = payload
        assert payload["ruleset"] == (int(extra[1]) if extra else DEFAULT_RULESET)
    assert by_ruleset[()] == by_ruleset[("--ruleset", str(DEFAULT_RULESET))]
    assert by_ruleset[("--ruleset", "5")]["reasons"] == by_ruleset[()]["reasons"]
    assert by_ruleset[("--ruleset", "4")]["reasons"] == by_ruleset[()]["reasons"]
    assert [r["code"] for r in by_ruleset[()]["reasons"]] == ["false_intro_offer"]
    assert [r["code"] for r in by_ruleset[("--ruleset", "3")]["reasons"]] != ["false_intro_offer"]
    unknown = max(RULESETS) + 1  # the next version, not yet published
    bad = runner.invoke(verify_app, [*base, "--ruleset", str(unknown)])
    assert bad.exit_code == 2 and f"unknown compliance ruleset {unknown}" in bad.output
