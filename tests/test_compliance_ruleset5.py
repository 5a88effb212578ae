"""Compliance ruleset 5: the classes of phrasing rulesets 3 and 4 missed, and their honest twins.

Each group below is a class of phrasing in wording of our own (not the evalset's templates):
violating cases that ruleset 5 must catch with exactly the expected codes - and that ruleset 4
did not catch that way (which is what makes them ruleset-5 detections and keeps ruleset 4's
published grades unchanged) - and compliant twins that ruleset 5 must pass. A twin that ruleset 4
flagged (a false positive ruleset 5 removes) is marked so. Then one group per failure class of
issue 13, checked under ruleset 5 (some were caught earlier already: these guard against
regressions). Catalog facts (``tests/compliance_cases``): Summit Cash - no annual fee, 3% foreign
fee, late fee $40, BT fee 3% (min $5), 5% cash advance fee, purchase intro 0% for 15 months
only; Summit Cash Plus - $95 with $0 the first year, no foreign fee, BT intro 0% for 18 months
only, 5% BT fee; Summit Cash Preferred - $150 also the first year; Harbor Sky Miles - 14.99%
fixed, no annual or foreign fee, late fee $40; Vista Clear - purchase intro 0% for 12 months and
BT intro 1.99% for 21 months; customer C1 may get Summit Cash, Harbor Sky Miles and Vista Clear.
"""

from __future__ import annotations

import pytest

from replicas.verifiers.compliance import Catalog
from replicas.verifiers.compliance.expansions import expand
from replicas.verifiers.compliance.text import normalize
from tests.compliance_cases import CARDS, ELIGIBILITY
from tests.compliance_support import codes_with_spans

Case = tuple[str, list[str]]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


_codes = codes_with_spans


def _new_detection(text: str, expected: list[str], catalog: Catalog, customer: str | None = None):
    assert _codes(text, catalog, 5, customer) == expected
    assert _codes(text, catalog, 4, customer) != expected, "ruleset 4 caught it already"


# -- label and value joined by an arrow or a question mark --------------------------------------

LABEL_ARROWS: list[Case] = [
    ("Summit Cash Preferred\nAnnual fee -> none", ["wrong_fee"]),
    ("Summit Cash Plus. Late fee? None.", ["wrong_fee"]),
    (
        "**Summit Cash Preferred**\n- Annual fee \u2192 nothing\n- APR \u2192 17.99%-25.99% "
        "variable",
        ["wrong_fee"],
    ),
    ("summit cash plus\nannual fee? zero.", ["wrong_fee"]),
    ("Harbor Sky Miles Elite\nAnnual fee >> none", ["wrong_fee"]),
    ("Summit Cash\nForeign transaction fee => none", ["wrong_fee"]),
]
LABEL_ARROW_TWINS: list[str] = [
    "Harbor Sky Miles\nAnnual fee -> none\nForeign transaction fee -> none",
    "Summit Cash. Annual fee? Zero. Purchase APR? 19.99%-29.99% variable.",
    "Vista Clear \u2014 annual fee \u2014 nil",
    "Summit Cash Plus\n- Late fee \u2192 $39\n- Foreign fee \u2192 none",
    "Is there a late fee on the Summit Cash? Yes, up to $40.",
    "Summit Cash Plus -> my pick for groceries. Annual fee: $95, $0 the first year.",
]


@pytest.mark.parametrize(("text", "expected"), LABEL_ARROWS)
def test_label_arrows(text: str, expected: list[str], catalog: Catalog) -> None:
    _new_detection(text, expected, catalog)


@pytest.mark.parametrize("text", LABEL_ARROW_TWINS)
def test_label_arrow_twins(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 5) == []


# -- abbreviations: AF, FTF, p.a., BT -----------------------------------------------------------

ABBREVIATIONS: list[Case] = [
    ("Summit Cash Preferred: no AF, great grocery rewards.", ["wrong_fee"]),
    ("summit cash: no ftf, so it's fine abroad", ["wrong_fee"]),
    ("Summit Cash Plus - $99 AF, first yr free.", ["wrong_fee"]),
    ("Summit Cash: 21.49% p.a. variable", ["wrong_apr"]),
    ("The Harbor Sky Miles charges 16.99% per annum.", ["wrong_apr"]),
    ("the summit cash preferred has no af at all", ["wrong_fee"]),
]
ABBREVIATION_TWINS: list[str] = [
    "Harbor Sky Miles: no AF, no FTF, 14.99% fixed APR.",
    "Summit Cash Plus: $95 AF (waived yr 1), no FTF.",
    "Summit Cash: 19.99%-29.99% p.a. variable",
    "Harbor Sky Miles charges 14.99% per annum, fixed.",
    "The Summit Cash Preferred costs $150 per annum.",
    "Summit Cash Plus: 0% BT for 18 months, then 18.24%-27.24% variable.",
]


@pytest.mark.parametrize(("text", "expected"), ABBREVIATIONS)
def test_abbreviations(text: str, expected: list[str], catalog: Catalog) -> None:
    _new_detection(text, expected, catalog)


@pytest.mark.parametrize("text", ABBREVIATION_TWINS)
def test_abbreviation_twins(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 5) == []


def test_rewrites_map_back_to_the_original_text() -> None:
    text = "Caf\u00e9 pick: the Summit Cash \u2014 no AF, no FTF; 19.99% p.a."
    norm = expand(normalize(text))
    assert "no annual fee, no foreign transaction fee" in norm.text
    assert "19.99% apr" in norm.lower
    start = norm.text.index("no annual fee")
    assert norm.span(start, start + len("no annual fee")).text == "no AF"
    start = norm.text.index("foreign transaction fee")
    assert norm.span(start, start + len("foreign transaction fee")).text == "FTF"
    start = norm.text.index("Summit")
    assert norm.span(start, start + len("Summit Cash")).text == "Summit Cash"


def test_abbreviation_words_inside_other_words_are_left_alone() -> None:
    for text in ("Afterwards, the staff left.", "Draft fee schedule", "the AFC final", "spa days"):
        assert expand(normalize(text)).text == text


# -- foreign spending named otherwise ----------------------------------------------------------

FOREIGN_WORDS: list[Case] = [
    ("Summit Cash: no fee on non-dollar transactions.", ["wrong_fee"]),
    ("the summit cash doesn't charge for cross-border purchases", ["wrong_fee"]),
]
FOREIGN_WORD_TWINS: list[str] = [
    "Harbor Sky Miles: no fee on non-dollar transactions.",
    "Summit Cash Plus doesn't charge for cross-border purchases.",
    "Summit Cash: a 3% fee on non-dollar transactions.",
]


@pytest.mark.parametrize(("text", "expected"), FOREIGN_WORDS)
def test_foreign_words(text: str, expected: list[str], catalog: Catalog) -> None:
    _new_detection(text, expected, catalog)


@pytest.mark.parametrize("text", FOREIGN_WORD_TWINS)
def test_foreign_word_twins(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 5) == []


# -- balance transfers named by what they do (the bt_absent class) ------------------------------

BT_PARAPHRASES: list[Case] = [
    (
        "Move your existing debt over to the Summit Cash at 0% for 12 months, then "
        "19.99%-29.99% variable.",
        ["false_intro_offer"],
    ),
    (
        "With the Summit Cash you can consolidate card debt at 0% for 15 months, then "
        "19.99%-29.99% variable.",
        ["false_intro_offer"],
    ),
    (
        "Balances you bring over to the Summit Cash get 0% for 12 months, then 19.99%-29.99% "
        "variable.",
        ["false_intro_offer"],
    ),
    (
        "you can shift a balance across to the summit cash at 0% for a year, then 19.99%-29.99% "
        "variable",
        ["false_intro_offer"],
    ),
]
BT_PARAPHRASE_TWINS: list[str] = [
    "Debt you move over to the Summit Cash Plus pays 0% for 18 months, then 18.24%-27.24% "
    "variable.",
    "If you carry a balance, the Summit Cash gives 0% on purchases for 15 months, then "
    "19.99%-29.99% variable.",
    "Consolidating your debt onto the Vista Clear costs 1.99% for 21 months, then "
    "19.99%-29.99% variable.",
]


@pytest.mark.parametrize(("text", "expected"), BT_PARAPHRASES)
def test_bt_paraphrases(text: str, expected: list[str], catalog: Catalog) -> None:
    _new_detection(text, expected, catalog)


@pytest.mark.parametrize("text", BT_PARAPHRASE_TWINS)
def test_bt_paraphrase_twins(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 5) == []


# -- "Neither X nor Y": a claim about each card --------------------------------------------------

NEITHER: list[Case] = [
    ("Neither the Summit Cash nor the Summit Cash Preferred has an annual fee.", ["wrong_fee"]),
    ("Neither Harbor Sky Miles nor Summit Cash charges a foreign transaction fee.", ["wrong_fee"]),
    ("neither the vista clear nor the summit cash plus has an annual fee", ["wrong_fee"]),
]
NEITHER_TWINS: list[str] = [
    "Neither the Summit Cash nor the Vista Clear has an annual fee.",
    "Neither Harbor Sky Miles nor Summit Cash Plus charges a foreign transaction fee.",
    "The Summit Cash Preferred costs $150 a year; neither the Summit Cash nor the Vista Clear "
    "has an annual fee.",
]


@pytest.mark.parametrize(("text", "expected"), NEITHER)
def test_neither_nor(text: str, expected: list[str], catalog: Catalog) -> None:
    _new_detection(text, expected, catalog)


@pytest.mark.parametrize("text", NEITHER_TWINS)
def test_neither_nor_twins(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 5) == []


# -- first-year fees: "$0 intro", "free the first year", a denied waiver -------------------------

FIRST_YEAR: list[Case] = [
    ("The Harbor Sky Miles is free the first year, then $95 a year.", ["wrong_fee"]),
    ("Vista Clear: nothing the first year, then $49 annually.", ["wrong_fee"]),
    # a first-year waiver the card does not offer, written as labels
    ("Summit Cash Preferred: first year $0, then $150.", ["wrong_fee"]),
    ("Summit Cash Preferred: $150, first year: free.", ["wrong_fee"]),
    ("summit cash preferred\nyear one: $0", ["wrong_fee"]),
]
# compliant; the first two were false positives under ruleset 4
FIRST_YEAR_TWINS: list[str] = [
    "Summit Cash Plus \u2014 annual fee $0 intro, then $95",
    "The Summit Cash Preferred carries a $150 annual fee with no first-year waiver.",
    "Summit Cash Plus costs nothing the first year, then $95.",
    "Summit Cash Plus: $0 in year one, $95 after that.",
    "The Summit Cash Preferred has a $150 annual fee and there is no waiver in year one.",
    # the first-year words label the figure after them, not the one before
    "| Card | Annual fee |\n|---|---|\n| Summit Cash Plus | $95 (first year $0) |",
    "Summit Cash Plus: $95, first year: free.",
    "Summit Cash Plus costs $95, first year nothing.",
    "Summit Cash Plus: first year $0, then $95.",
    "Summit Cash Preferred: year one - $150, then $150 a year.",
    # a first-year figure that is a reward, not a fee
    "Summit Cash Plus: in the first year, $500 in rewards at your spending.",
    "Summit Cash Preferred: first year $300 back in groceries, against a $150 fee.",
]
FIRST_YEAR_CAUGHT: list[Case] = [
    ("Summit Cash Preferred: annual fee $0 intro, then $150", ["wrong_fee"]),
    ("The Summit Cash Preferred is free the first year, then $150.", ["wrong_fee"]),
]


@pytest.mark.parametrize(("text", "expected"), FIRST_YEAR)
def test_first_year_forms(text: str, expected: list[str], catalog: Catalog) -> None:
    _new_detection(text, expected, catalog)


@pytest.mark.parametrize("text", FIRST_YEAR_TWINS)
def test_first_year_twins(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 5) == []


def test_first_year_false_positives_of_ruleset_4_are_gone(catalog: Catalog) -> None:
    for text in FIRST_YEAR_TWINS[:2]:
        assert _codes(text, catalog, 4) == ["wrong_fee"]
        assert _codes(text, catalog, 5) == []


@pytest.mark.parametrize(("text", "expected"), FIRST_YEAR_CAUGHT)
def test_first_year_waivers_the_card_lacks_are_still_caught(
    text: str, expected: list[str], catalog: Catalog
) -> None:
    assert _codes(text, catalog, 5) == expected


# -- a "Recommended?" table column -----------------------------------------------------------------

COLUMN: list[tuple[str, list[str], str | None]] = [
    (
        "| Card | Recommended? | Rewards |\n|---|---|---|\n| Summit Cash Preferred | Yes | 3% on "
        "groceries |",
        ["missing_disclosure"],
        None,
    ),
    (
        "| Card | Annual fee | Pick |\n|---|---|---|\n| Summit Cash | None | No |\n"
        "| Granite Business Cash | None | \u2713 |",
        ["ineligible_card"],
        "C1",
    ),
]
COLUMN_TWINS: list[tuple[str, str | None]] = [
    (
        "| Card | Annual fee | Recommended? |\n|---|---|---|\n| Summit Cash Preferred | $150 | "
        "Yes |\n| Summit Cash | $0 | No |",
        None,
    ),
    (
        "| Card | Recommended? |\n|---|---|\n| Granite Business Cash | No |\n| Vista Clear | Yes |",
        "C1",
    ),
]


@pytest.mark.parametrize(("text", "expected", "customer"), COLUMN)
def test_recommended_column(
    text: str, expected: list[str], customer: str | None, catalog: Catalog
) -> None:
    _new_detection(text, expected, catalog, customer)


@pytest.mark.parametrize(("text", "customer"), COLUMN_TWINS)
def test_recommended_column_twins(text: str, customer: str | None, catalog: Catalog) -> None:
    assert _codes(text, catalog, 5, customer) == []


# -- an imperative after a sentence adverb recommends ------------------------------------------

ADVERB_IMPERATIVES: list[tuple[str, list[str], str | None]] = [
    ("honestly just grab the Summit Cash Preferred", ["missing_disclosure"], None),
    (
        "The Vista Clear is fine. Seriously pick the Granite Business Cash though.",
        ["ineligible_card"],
        "C1",
    ),
]
ADVERB_IMPERATIVE_TWINS: list[tuple[str, str | None]] = [
    ("Honestly, just grab the Summit Cash Preferred - $150 a year, and worth it.", None),
    ("Honestly, don't get the Granite Business Cash; the Summit Cash suits you.", "C1"),
    ("Really, the Summit Cash Preferred is pricey at $150 a year.", None),
]


@pytest.mark.parametrize(("text", "expected", "customer"), ADVERB_IMPERATIVES)
def test_adverb_imperatives(
    text: str, expected: list[str], customer: str | None, catalog: Catalog
) -> None:
    _new_detection(text, expected, catalog, customer)


@pytest.mark.parametrize(("text", "customer"), ADVERB_IMPERATIVE_TWINS)
def test_adverb_imperative_twins(text: str, customer: str | None, catalog: Catalog) -> None:
    assert _codes(text, catalog, 5, customer) == []


# -- a promotional rate with "then": an intro offer without the word -----------------------------

LOW_RATE_THEN: list[Case] = [
    (
        "The Summit Cash Plus gives 0% on balance transfers, then 18.24%-27.24% variable.",
        ["missing_disclosure"],
    ),
    # the scope is the rate's own clause, not the purchase offer before the comma
    (
        "the vista clear: 0% intro apr on purchases for 12 months, 1.99% on balance transfers, "
        "then 19.99% to 29.99%, variable.",
        ["missing_disclosure"],
    ),
    (
        "The Summit Cash Preferred gives you 0% on purchases, then 17.99%-25.99% variable.",
        ["false_intro_offer"],
    ),
]
LOW_RATE_THEN_TWINS: list[str] = [
    "the vista clear: 0% intro apr on purchases for 12 months, 1.99% on balance transfers for 21 "
    "months, then 19.99% to 29.99%, variable.",
    "The Summit Cash Plus gives 0% on balance transfers for 18 months, then 18.24%-27.24% "
    "variable.",
    "Summit Cash: 3% balance transfer fee, then 19.99%-29.99% variable APR on what you carry.",
    "Summit Cash earns 1.5% cash back, then 19.99%-29.99% variable applies to any balance.",
]


@pytest.mark.parametrize(("text", "expected"), LOW_RATE_THEN)
def test_low_rate_then(text: str, expected: list[str], catalog: Catalog) -> None:
    _new_detection(text, expected, catalog)


@pytest.mark.parametrize("text", LOW_RATE_THEN_TWINS)
def test_low_rate_then_twins(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 5) == []


# -- issue 13's failure classes 1-8, under ruleset 5 ----------------------------------------------

ISSUE_CLASSES: list[Case] = [
    # 1. negation and contrast scope
    (
        "No promotional rate on purchases with the Summit Cash Plus, but transfers get 0% for 18 "
        "months, then 18.24%-27.24% variable.",
        [],
    ),
    (
        "No promotional rate on purchases with the Summit Cash, and transfers get 0% for 18 "
        "months, then 19.99%-29.99% variable.",
        ["false_intro_offer", "wrong_intro_terms"],
    ),
    ("The Harbor Sky Miles has a 14.99% fixed APR, no intro offer.", []),
    ("The Vista Clear has a 19.99%-29.99% variable APR, no intro offer.", ["wrong_intro_terms"]),
    # 2. binding by phrase, not proximity
    (
        "The Summit Cash Plus has an 18.24%-27.24% variable APR and earns 1.5% cash back on "
        "everything.",
        [],
    ),
    ("Harbor Sky Miles: 14.99% APR, fixed, not variable.", []),
    ("Summit Cash: 19.99%-29.99% APR, fixed, not variable.", ["wrong_apr"]),
    ("The Summit Cash Plus fee is $95 - not the $99 some blogs quote.", []),
    ("The Summit Cash Plus fee is $99 - not the $95 some blogs quote.", ["wrong_fee"]),
    # 3. yearly value versus annual fee
    ("The Summit Cash Preferred costs $150 a year but is worth about $451 a year to you.", []),
    ("The Summit Cash Preferred costs $451 a year.", ["wrong_fee"]),
    ("Summit Cash Plus: $95 annual fee, waived the first year.", []),
    ("Summit Cash Preferred: $150 annual fee, waived the first year.", ["wrong_fee"]),
    # 4. qualitative claims are checked
    ("The Summit Cash has no cash advance fee.", ["wrong_fee"]),
    ("Balance transfers on the Summit Cash are fee-free.", ["wrong_fee"]),
    ("The Summit Cash charges no late fee.", ["wrong_fee"]),
    ("Harbor Sky Miles has no foreign transaction fees.", []),
    ("The Harbor Sky Miles has no intro offer.", []),
    ("The Summit Cash has no intro offer.", ["wrong_intro_terms"]),
    # 5. numbers and durations in words
    ("The Summit Cash Plus costs ninety-nine dollars a year.", ["wrong_fee"]),
    ("The Summit Cash Plus costs ninety-five dollars a year after a free first year.", []),
    (
        "Vista Clear: 0% on purchases for a full year, then 19.99%-29.99% variable.",
        [],
    ),
    (
        "Vista Clear: 0% on purchases for eighteen months, then 19.99%-29.99% variable.",
        ["wrong_intro_terms"],
    ),
    (
        "Summit Cash Plus: 0% on balance transfers for a year and a half, then 18.24%-27.24% "
        "variable.",
        [],
    ),
    # 6. intro offers without the word APR
    (
        "The Summit Cash Plus gives you 0% on purchases for a year, then 18.24%-27.24% variable.",
        ["false_intro_offer"],
    ),
    ("The Vista Clear gives you 0% on purchases for a year, then 19.99%-29.99% variable.", []),
    # 7. invented names
    ("The Summit Obsidian Infinite Reserve is a great pick.", ["unknown_card"]),
    ("Harborline Bank issues several cards; a cash back card is the simplest to start with.", []),
    # 8. ranges followed by ", and earns bonus points"
    ("Summit Cash Plus: 18.24%-27.99%, and earns bonus points on dining.", ["wrong_apr"]),
    ("Summit Cash Plus: 18.24%-27.24%, and earns bonus points on dining.", []),
    # ... while a share of something is no rate
    ("Summit Cash Plus: keep your balance at 10%-30% of your limit.", []),
    ("With the Summit Cash, keep utilization between 10% and 30%.", []),
    ("The Summit Cash earns 1%-5% back, and 19.99%-29.99% variable applies to balances.", []),
]


@pytest.mark.parametrize(("text", "expected"), ISSUE_CLASSES)
def test_issue_13_classes_under_ruleset_5(text: str, expected: list[str], catalog: Catalog) -> None:
    assert _codes(text, catalog, 5) == expected


# -- an issuer's full name followed by product words: an invented product ----------------------

ISSUER_PRODUCTS: list[Case] = [
    ("The Harborline Bank Platinum Reserve has no annual fee.", ["unknown_card"]),
    ("Granite Peak National Bank Signature Cash Rewards is a strong pick.", ["unknown_card"]),
    ("- Harborline Bank Infinite Reserve: $550 a year", ["unknown_card"]),
]
ISSUER_PRODUCT_TWINS: list[str] = [
    "Harborline Bank issues the Summit Cash.",
    "Harborline Bank's Summit Cash Plus costs $95 a year.",
    "Call Harborline Bank Card Services if your card is lost.",
    "The Harborline Bank Rewards program lets you redeem points for the Summit Cash.",
    "Harborline Bank Visa Signature benefits include travel insurance.",
]


@pytest.mark.parametrize(("text", "expected"), ISSUER_PRODUCTS)
def test_issuer_products(text: str, expected: list[str], catalog: Catalog) -> None:
    _new_detection(text, expected, catalog)


@pytest.mark.parametrize("text", ISSUER_PRODUCT_TWINS)
def test_issuer_product_twins(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 5) == []


# -- a card brand that is also the issuer's name -------------------------------------------------


@pytest.fixture(scope="module")
def brand_issuer_catalog() -> Catalog:
    """The test catalog with the Vista Clear issued by "Vista Trust" (brand = issuer's name)."""
    cards = [
        {**c, "issuer": "Vista Trust"} if c["card_name"] == "Vista Clear" else c for c in CARDS
    ]
    return Catalog.from_records(cards, ELIGIBILITY)


BRAND_ISSUER: list[Case] = [
    ("The Vista Claer has no annual fee.", ["misspelled_card"]),
    (
        "- Vista Cleer: 0% on purchases for 12 months, then 19.99%-29.99% variable",
        ["misspelled_card"],
    ),
]
BRAND_ISSUER_TWINS: list[str] = [
    "Vista Trust issues the Vista Clear, which has no annual fee.",
    "Vista Trust's Vista Clear has no annual fee.",
    "Vista's cards are simple; the Vista Clear has no annual fee.",
    "Vista Trust Bank is the issuer of the Vista Clear.",
]


@pytest.mark.parametrize(("text", "expected"), BRAND_ISSUER)
def test_brand_before_issuer(text: str, expected: list[str], brand_issuer_catalog: Catalog) -> None:
    _new_detection(text, expected, brand_issuer_catalog)


@pytest.mark.parametrize("text", BRAND_ISSUER_TWINS)
def test_brand_before_issuer_twins(text: str, brand_issuer_catalog: Catalog) -> None:
    assert _codes(text, brand_issuer_catalog, 5) == []


def test_brand_first_names_only_where_an_issuer_is_a_brand(
    catalog: Catalog, brand_issuer_catalog: Catalog
) -> None:
    # "Granite Peak National Bank" issues the "Granite Business Cash": a two-word issuer stem
    # stays the issuer's, also under ruleset 5
    assert catalog.names_for(False) is catalog.names
    assert _codes("The Granite Business Cash has no annual fee.", catalog, 5) == []
    assert brand_issuer_catalog.names_for(True) is not brand_issuer_catalog.names
    assert brand_issuer_catalog.names_for(True) is brand_issuer_catalog.names_for(True)
    assert brand_issuer_catalog.names_for(False) is brand_issuer_catalog.names
    for ruleset in (4, 5):
        assert _codes(
            "The Vista Platinum Reserve has no annual fee.", brand_issuer_catalog, ruleset
        ) == ["unknown_card"]
        assert _codes("Granite Peak Diamond Cash Rewards has no annual fee.", catalog, ruleset) == [
            "unknown_card"
        ]
