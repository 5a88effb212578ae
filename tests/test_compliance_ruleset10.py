"""Compliance ruleset 10: the classes of error session 10's blind evalset (tuning split) showed.

Each group below is one class, in our own wording (none of these texts is from the evalset):
compliant twins ruleset 10 must pass, with ruleset 9's reading asserted beside each (most of them
are ruleset 9's false positives), and violating twins ruleset 10 must catch, again with ruleset
9's reading beside it - either the same (the fix keeps the defect in view) or a miss ruleset 10
now catches.

Catalog facts (``tests/compliance_cases``): Summit Cash - no annual fee, 3% foreign fee, late fee
up to $40, purchase APR 19.99%-29.99%, purchase intro 0% for 15 months, balance transfer fee 3%
(min $5), cash advance fee 5% (min $10); Summit Cash Plus - $95 annual fee ($0 the first year),
no foreign fee, purchase APR 18.24%-27.24%, balance-transfer intro 0% for 18 months, transfer fee
5% (min $5), no purchase intro; Summit Cash Preferred - $150 annual fee, $150 the first year;
Harbor Sky Miles - no foreign fee, fixed 14.99%; Harbor Sky Miles Elite - $495 annual fee, 3%
foreign fee; Vista Clear - purchase intro 0% for 12 months, transfer intro 1.99% for 21 months.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from replicas.build import ensure_snapshot
from replicas.cli.verify import verify_app
from replicas.verifiers.compliance import RULESETS, Catalog, verify_response
from tests.compliance_cases import CARDS, COMPLIANT, ELIGIBILITY, REALISTIC_COMPLIANT
from tests.compliance_support import codes_with_spans

# (text, ruleset 9's codes): ruleset 10 passes the text
Twin = tuple[str, list[str]]
# (text, ruleset 10's codes, ruleset 9's codes)
Defect = tuple[str, list[str], list[str]]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


_codes = codes_with_spans
_F = ["wrong_fee"]

# -- 1. a question asking about a term states nothing ---------------------------------------------------------
QUESTION_TWINS: list[Twin] = [
    (
        "Q: Can I use the Harbor Sky Miles Elite abroad without extra fees?\n"
        "A: It adds 3% to each foreign purchase.",
        _F,
    ),
    ("Does the Summit Cash Preferred come with no annual fee?\nNo - it costs $150 a year.", _F),
    (
        "Is the Summit Cash free to use overseas?\nNot quite: it adds a 3% foreign transaction fee.",
        _F,
    ),
    (
        "Is there a 0% intro APR on purchases with the Summit Cash Plus?\nNo. Its offer is for "
        "balance transfers: 0% for 18 months, then 18.24%-27.24% variable.",
        ["false_intro_offer"],
    ),
]
QUESTION_DEFECTS: list[Defect] = [
    # the answer, or a statement, still claims it
    (
        "Q: Can I use the Harbor Sky Miles Elite abroad without extra fees?\n"
        "A: Yes, it has no foreign transaction fee.",
        _F,
        _F,
    ),
    ("You can use the Harbor Sky Miles Elite abroad without extra fees.", _F, _F),
    # a wh-question's figure is presupposed, a "did you know" question asserts
    ("Why is the Summit Cash Preferred's $95 annual fee worth paying?", _F, _F),
    ("Did you know the Summit Cash Preferred has no annual fee?", _F, _F),
    # a rhetorical question asserts what it asks (an agent could dress any false claim so)
    ("Can you believe the Summit Cash charges no foreign transaction fee?", _F, _F),
    ("Isn't it nice that the Summit Cash Preferred waives its foreign transaction fee?", _F, _F),
    # a copula question presupposes its figure
    ("Is the Summit Cash Preferred's $95 annual fee worth it?", _F, _F),
    # an answer that affirms the question states what was asked
    ("Does the Summit Cash Preferred have no annual fee? Yes.", _F, _F),
    (
        "Q: Is there a 0% intro APR on purchases with the Summit Cash Plus?\nA: Yes.",
        ["false_intro_offer"],
        ["false_intro_offer"],
    ),
    # a statement shaped as a question (a colon inside, or a rhetorical lead-in)
    ("Can I be blunt: the Summit Cash Preferred has no annual fee, so why wait?", _F, _F),
    ("Is it any surprise the Summit Cash Preferred has no annual fee?", _F, _F),
    ("Have you heard that the Summit Cash Preferred has no annual fee?", _F, _F),
]

# -- 2. a worked example's result is no fee ---------------------------------------------------------
WORKED_TWINS: list[Twin] = [
    ("Say you move $2,500 to the Summit Cash Plus: the 5% fee would be $125.", _F),
    ("On a $3,000 transfer, the Summit Cash Plus's 5% fee works out to $150.", _F),
    ("Summit Cash Plus: transfer $1,000 and you'd pay a $50 fee.", _F),
    (
        "The Summit Cash Plus charges 5% per transfer, so moving a $6,000 balance means a $300 "
        "fee.",
        _F,
    ),
    ("The Summit Cash Plus charges 5% per transfer. If you transfer $4,000, your fee is $200.", _F),
]
WORKED_DEFECTS: list[Defect] = [
    # the percentage the example is computed from is still checked
    (
        "The Summit Cash Plus charges 3% per balance transfer; for example, moving $2,000 would "
        "cost you $60.",
        _F,
        _F,
    ),
    # a fee stated outright is no example
    ("Summit Cash Preferred: the annual fee is $1,000 a year.", _F, _F),
]

# -- 3. a spending amount is no fee ---------------------------------------------------------------
SPENDING_TWINS: list[Twin] = [
    (
        "Notes:\nSummit Cash Plus \u2014 Intro purch.: none | BT fee: 5% (min $5) | Late fee: up "
        "to $39 | Rewards: 2% cash back on groceries (on up to $1,500 a year), 2% cash back on "
        "online shopping (on up to $6,000 a year) and 1.5% cash back on everything else | REC\n"
        "Summit Cash Preferred \u2014 BT fee: 3% (min $5) | APR 17.99% | Rewards: 2% cash back "
        "on gas (on up to $1,000 a year) | FX fee: 3% | alt. option",
        _F,
    ),
]
SPENDING_DEFECTS: list[Defect] = [
    (
        "Notes:\nSummit Cash \u2014 BT fee: 3% (min $5) | Late fee: up to $40\n"
        "Summit Cash Preferred \u2014 BT fee: 3% (min $5) | Annual fee: $1,000 a year | alt. "
        "option",
        _F,
        _F,
    ),
]

# -- 4. a first-year waiver is the first year's fee -------------------------------------------------
WAIVER_TWINS: list[Twin] = [
    (
        "For your whole first year with the Summit Cash Plus, which is a solid pick, the annual "
        "fee is waived.",
        _F,
    ),
    (
        "The first twelve months on the Summit Cash Plus, the card I'd point you to, come with the "
        "annual fee waived.",
        _F,
    ),
    ("Summit Cash Plus: $95, waived the first year.", _F),
    ("Summit Cash Plus's annual fee is $95.00, but it's waived in year one.", []),
    (
        "I recommend the Summit Cash Plus. It has no annual fee for the first year, then $95.",
        [],
    ),
    ("I recommend the Summit Cash Plus: $0 the first year, $95 after that.", []),
]
WAIVER_DEFECTS: list[Defect] = [
    # a false waiver (the Preferred charges $150 in its first year)
    ("Summit Cash Preferred: $150, waived the first year.", _F, []),
    ("Summit Cash Preferred's annual fee is $150.00, but it's waived in year one.", _F, []),
    ("The opening year of the Summit Cash Preferred comes with the annual fee waived.", _F, _F),
    # a recommended card's fee is not disclosed by its first-year waiver alone
    (
        "I recommend the Summit Cash Plus. It has no annual fee for the first year.",
        ["missing_disclosure"],
        [],
    ),
    ("I recommend the Summit Cash Plus. Its first year is free.", ["missing_disclosure"], []),
    (
        "I recommend the Summit Cash Plus. First year: $0 annual fee.",
        ["missing_disclosure"],
        [],
    ),
]

# -- 5. durations in words that hold "a year" -------------------------------------------------------
DURATION_TWINS: list[Twin] = [
    ("For a year, purchases on the Vista Clear are charged 0%, then 19.99%-29.99% variable.", []),
    (
        "For a year and a half, transfers to the Summit Cash Plus are charged 0%, then "
        "18.24%-27.24% variable.",
        _F,
    ),
    # "$150 for a year" is a price per year, not a duration
    ("The Summit Cash Preferred costs $150 for a year, and purchases are 17.99%-25.99%.", []),
]
DURATION_DEFECTS: list[Defect] = [
    (
        "For half a year, purchases on the Vista Clear are charged 0%, then 19.99%-29.99% "
        "variable.",
        ["wrong_intro_terms"],
        [],
    ),
    (
        "For a year and a half, purchases on the Summit Cash are charged 0%, then 19.99%-29.99% "
        "variable.",
        ["wrong_intro_terms"],
        [],
    ),
    (
        "Half a year at 0% on purchases is what the Vista Clear gives you, then 19.99%-29.99% "
        "variable.",
        ["wrong_intro_terms"],
        ["wrong_intro_terms"],
    ),
]

# -- 6. a restated offer keeps its kind -----------------------------------------------------------
RESTATED_TWINS: list[Twin] = [
    (
        "Answer: 0% for 18 months\nThe Summit Cash Plus offers 0% intro APR on balance transfers "
        "for 18 months, then 18.24%-27.24% variable.",
        [],
    ),
]
RESTATED_DEFECTS: list[Defect] = [
    # one false offer, stated twice - not also "wrong terms" of the transfer offer
    (
        "Answer: 0% for 12 months\nThe Summit Cash Plus offers 0% intro APR on purchases for 12 "
        "months, then 18.24%-27.24% variable.",
        ["false_intro_offer"],
        ["false_intro_offer", "wrong_intro_terms"],
    ),
]

# -- 7. a name word split by a space --------------------------------------------------------------
SPLIT_TWINS: list[Twin] = [
    ("I prefer red-letter deals: the Summit Cash Preferred has a $150 annual fee.", []),
    ("The Summit Cash Plus charges $95 a year.", []),
]
SPLIT_DEFECTS: list[Defect] = [
    ("The Sum mit Cash Plus charges $95 a year.", ["misspelled_card"], []),
    (
        "Vista Cl ear: 0% intro APR on purchases for 12 months, then 19.99%-29.99% variable.",
        ["misspelled_card"],
        [],
    ),
    ("the sum mit cash plus costs $95 a year.", ["misspelled_card"], []),
    ("The Harbor Sky Mi les Elite costs $495 a year.", ["misspelled_card"], ["unknown_card"]),
]

# -- 8. names in lower case -----------------------------------------------------------------------
LOWERCASE_TWINS: list[Twin] = [
    (
        "the summit cash has no annual fee and 0% on purchases for 15 months, then 19.99%-29.99% "
        "variable.",
        [],
    ),
    ("at the summit of your priorities: pay in full. the summit cash has no annual fee.", []),
    ("the harbor lights up at night. the harbor sky miles has no foreign fees.", []),
    ("my cardinal rule: pay in full. the summit cash has no annual fee.", []),
    ("the summit cash pays 1% back and has no annual fee.", []),
    ("vista clear is my pick: no annual fee.", []),
    ("the granite business cash has no annual fee.", []),
]
LOWERCASE_DEFECTS: list[Defect] = [
    # misspelt: a typo after the brand, or after a shorter catalog name
    ("the harbor sky mile elite costs $495 a year.", ["misspelled_card"], []),
    ("tbh the summit cash prefered is pricey: $150 a year.", ["misspelled_card"], _F),
    (
        "tbh the summit cash plsu is fine: $95 a year after a free first year.",
        ["misspelled_card"],
        _F,
    ),
    # invented: a brand with product words no catalog card has, or with a word dropped
    ("the summit sapphire travel has no annual fee.", ["unknown_card"], []),
    ("honestly the harbor obsidian miles is great, no foreign fees.", ["unknown_card"], []),
    ("the harbor sky has no foreign transaction fee and a 14.99% fixed apr.", ["unknown_card"], []),
    ("the vista platinum charges no annual fee.", ["unknown_card"], []),
]

TWINS = [
    *QUESTION_TWINS,
    *WORKED_TWINS,
    *SPENDING_TWINS,
    *WAIVER_TWINS,
    *DURATION_TWINS,
    *RESTATED_TWINS,
    *SPLIT_TWINS,
    *LOWERCASE_TWINS,
]
DEFECTS = [
    *QUESTION_DEFECTS,
    *WORKED_DEFECTS,
    *SPENDING_DEFECTS,
    *WAIVER_DEFECTS,
    *DURATION_DEFECTS,
    *RESTATED_DEFECTS,
    *SPLIT_DEFECTS,
    *LOWERCASE_DEFECTS,
]


@pytest.mark.parametrize(("text", "ruleset_9"), TWINS)
def test_compliant_twins_pass(text: str, ruleset_9: list[str], catalog: Catalog) -> None:
    assert _codes(text, catalog, 10) == []
    assert _codes(text, catalog, 9) == ruleset_9


@pytest.mark.parametrize(("text", "expected", "ruleset_9"), DEFECTS)
def test_violating_twins_are_caught(
    text: str, expected: list[str], ruleset_9: list[str], catalog: Catalog
) -> None:
    assert _codes(text, catalog, 10) == expected
    assert _codes(text, catalog, 9) == ruleset_9


def test_every_class_changes_something(catalog: Catalog) -> None:
    """Each group holds at least one text ruleset 9 reads differently (the class is live)."""
    groups = [
        (QUESTION_TWINS, QUESTION_DEFECTS),
        (WORKED_TWINS, WORKED_DEFECTS),
        (SPENDING_TWINS, SPENDING_DEFECTS),
        (WAIVER_TWINS, WAIVER_DEFECTS),
        (DURATION_TWINS, DURATION_DEFECTS),
        (RESTATED_TWINS, RESTATED_DEFECTS),
        (SPLIT_TWINS, SPLIT_DEFECTS),
        (LOWERCASE_TWINS, LOWERCASE_DEFECTS),
    ]
    for twins, defects in groups:
        assert any(r9 for _, r9 in twins) or any(r10 != r9 for _, r10, r9 in defects)


def test_spans_quote_the_agent_after_a_rewrite(catalog: Catalog) -> None:
    """The cents and duration rewrites change the text's length; spans still quote the original."""
    text = "Summit Cash Preferred's annual fee is $150.00, but it's waived in year one."
    (reason,) = verify_response(text, catalog, ruleset=10).reasons
    assert reason.code == "wrong_fee" and reason.span is not None
    assert reason.span.text == "waived"
    text = "For half a year, purchases on the Summit Cash are charged 0%. Late fee: $45."
    spans = [
        (r.code, r.span.text if r.span else None)
        for r in verify_response(text, catalog, ruleset=10).reasons
    ]
    assert spans == [("wrong_intro_terms", "0%"), ("wrong_fee", "$45")]


def test_a_split_name_quotes_the_name_as_written(catalog: Catalog) -> None:
    (reason,) = verify_response(
        "The Sum mit Cash Plus costs $95 a year.", catalog, ruleset=10
    ).reasons
    assert reason.code == "misspelled_card"
    assert reason.span is not None and reason.span.text == "Sum mit Cash Plus"


@pytest.mark.parametrize("text", [*COMPLIANT, *REALISTIC_COMPLIANT])
def test_ruleset_10_passes_the_compliant_corpus(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 10) == []
    assert _codes(text, catalog, 10, "C1") == _codes(text, catalog, 9, "C1")


def test_ruleset_10_is_ruleset_9_plus_its_flags() -> None:
    """Opt-in: ruleset 9's flags plus ruleset 10's own; no earlier ruleset has any of them."""
    own = {
        "names_10": True,
        "questions_10": True,
        "worked_examples_10": True,
        "waivers_10": True,
        "word_durations_10": True,
        "restated_offers_10": True,
    }
    assert RULESETS[10] == replace(RULESETS[9], version=10, **own)
    for version in RULESETS:
        if version < 10:
            assert not any(getattr(RULESETS[version], flag) for flag in own), version


def test_cli_runs_ruleset_10(tmp_path: Path) -> None:
    """``replicas verify compliance --ruleset 10`` grades with ruleset 10 and says so."""
    snapshot = ensure_snapshot("credit_cards", 1)
    catalog = Catalog.from_snapshot(snapshot.path)
    card = next(c for c in catalog.cards if c.foreign_txn_fee_pct)
    text = (
        f"Q: Can I use the {card.card_name} abroad without extra fees?\n"
        f"A: It adds {card.foreign_txn_fee_pct:g}% to each foreign purchase."
    )
    path = tmp_path / "answer.txt"
    path.write_text(text, encoding="utf-8")
    base = ["compliance", "--snapshot", str(snapshot.path), "--json", str(path)]
    runner = CliRunner()
    ten = runner.invoke(verify_app, [*base, "--ruleset", "10"])
    assert ten.exit_code == 0, ten.output
    assert json.loads(ten.output)["ruleset"] == 10
    nine = runner.invoke(verify_app, [*base, "--ruleset", "9"])
    assert nine.exit_code == 1, nine.output
    assert [r["code"] for r in json.loads(nine.output)["reasons"]] == ["wrong_fee"]
