"""Compliance ruleset 9: a value that may mean "none" or "not stated" is no claim (issue 13).

Rulesets 7-8 read a dash alone - a table cell "-" / em dash / en dash, "Annual fee: -" - as
"none", and rulesets 3-8 read "n/a" after a label as "none"; where a table uses them for "not
stated" that is a false violation (rulesets 7-8 flag every one of the kit's own compliant long
answers). Each group below is one reading, in our own wording: compliant twins that ruleset 9 must
pass (with ruleset 8's reading asserted beside it), and violating twins - words that do say
"none" for a card that has the term - that ruleset 9 must still catch exactly as ruleset 8 does.

Catalog facts (``tests/compliance_cases``): Summit Cash - no annual fee, 3% foreign fee, late fee
up to $40, penalty APR 29.99%, purchase intro 0% for 15 months; Summit Cash Plus - $95 annual fee
($0 the first year), no foreign fee, late fee $39, no penalty APR, balance-transfer intro 0% for
18 months; Summit Cash Preferred - $150 annual fee.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from replicas.build import ensure_snapshot
from replicas.verifiers.compliance import RULESETS, Catalog, verify_response
from tests.compliance_cases import CARDS, COMPLIANT, ELIGIBILITY, REALISTIC_COMPLIANT
from tests.compliance_labelled import FALSE_POSITIVE_TARGET, RECALL_TARGET, build_evalset
from tests.compliance_support import codes_with_spans, long_response

Case = tuple[str, list[str]]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


_codes = codes_with_spans


_F = ["wrong_fee"]

# -- 1. a table cell holding only a dash ---------------------------------------------------------
# ruleset 8 reads the dash as "none": a fee the card has, a penalty APR it has, an intro offer it
# has - each "contradicted" by a cell that states nothing
DASH_CELL_TWINS: list[Case] = [
    ("| Card | Late fee |\n|---|---|\n| Summit Cash | \u2014 |", _F),
    (
        "| Card | Annual fee | Purchase APR |\n|---|---|---|\n| Summit Cash Preferred | - | "
        "17.99%-25.99% variable |",
        _F,
    ),
    (
        "| | Summit Cash | Summit Cash Plus |\n|---|---|---|\n| Annual fee | $0 | \u2013 |\n"
        "| Late fee | \u2014 | Up to $39 |",
        _F,
    ),
    ("### Summit Cash\n\n| Term | Detail |\n|---|---|\n| Foreign transaction fee | -- |", _F),
    ("| Card | Penalty APR |\n|---|---|\n| Summit Cash | \u2014 |", ["wrong_apr"]),
    ("| Card | Intro APR on purchases |\n|---|---|\n| Summit Cash | - |", ["wrong_intro_terms"]),
    (
        "| Card | Balance transfer intro |\n|---|---|\n| Summit Cash Plus | \u2014 |",
        ["wrong_intro_terms"],
    ),
]
# the same cells saying "none" in words: still a wrong fee / APR / intro claim
DASH_CELL_DEFECTS: list[Case] = [
    ("| Card | Late fee |\n|---|---|\n| Summit Cash | None |", _F),
    ("| Card | Late fee |\n|---|---|\n| Summit Cash | $0 |", _F),
    (
        "| Card | Annual fee | Purchase APR |\n|---|---|---|\n| Summit Cash Preferred | no fee | "
        "17.99%-25.99% variable |",
        _F,
    ),
    (
        "| | Summit Cash | Summit Cash Plus |\n|---|---|---|\n| Annual fee | $0 | free |\n"
        "| Late fee | \u2014 | Up to $39 |",
        _F,
    ),
    ("### Summit Cash\n\n| Term | Detail |\n|---|---|\n| Foreign transaction fee | none |", _F),
    ("| Card | Penalty APR |\n|---|---|\n| Summit Cash | none |", ["wrong_apr"]),
    ("| Card | Intro APR on purchases |\n|---|---|\n| Summit Cash | none |", ["wrong_intro_terms"]),
    # a dash cell beside a wrong figure: the figure is still checked
    (
        "| Card | Annual fee | Late fee |\n|---|---|---|\n| Summit Cash Preferred | $99 | \u2014 |",
        _F,
    ),
]

# -- 2. a fee label answered by a dash -----------------------------------------------------------
LABEL_DASH_TWINS: list[Case] = [
    ("Summit Cash Preferred. Annual fee: -", _F),
    ("Summit Cash Preferred. Annual fee \u2014", _F),
    ("Summit Cash. Foreign transaction fee -", _F),
    ("Summit Cash. Late fee? --", _F),
    (
        "- **Summit Cash**\n  - Cash advance fee: \u2013\n  - Purchase APR: 19.99%-29.99% variable",
        _F,
    ),
    # "Foreign fee" is no label ruleset 7 knows: ruleset 8 reads nothing here either
    ("Summit Cash. Foreign fee -", []),
]
LABEL_DASH_DEFECTS: list[Case] = [
    ("Summit Cash Preferred. Annual fee: none", _F),
    ("Summit Cash Preferred. Annual fee: $0", _F),
    ("Summit Cash Preferred. Annual fee: free", _F),
    ("Summit Cash Preferred. Annual fee: \u274c", _F),
    ("Summit Cash. Foreign transaction fee: nope", _F),
    ("Summit Cash. The Summit Cash has no late fee.", _F),
    (
        "- **Summit Cash**\n  - Cash advance fee: no fee\n  - Purchase APR: 19.99%-29.99% variable",
        _F,
    ),
]

# -- 3. "n/a" after a label ----------------------------------------------------------------------
# rulesets 3-8 read it as "none"
NA_TWINS: list[Case] = [
    ("Summit Cash Preferred. Annual fee: n/a", _F),
    ("Summit Cash. Foreign transaction fee: N/A.", _F),
    ("Summit Cash Plus - late fee: n/a; annual fee: $95.", _F),
    ("Summit Cash. Intro APR: n/a", ["wrong_intro_terms"]),
    ("Summit Cash. Penalty APR: n/a", ["wrong_apr"]),
    ("Summit Cash Plus. Balance transfers - n/a", _F),
    # in a table cell "n/a" was never read (ruleset 3 keeps cells to words that say "none")
    ("| Card | Late fee |\n|---|---|\n| Summit Cash | n/a |", []),
]
NA_DEFECTS: list[Case] = [
    ("Summit Cash Preferred. Annual fee: none", _F),
    ("Summit Cash Preferred. Annual fee: not applicable", _F),
    ("Summit Cash. Foreign transaction fee: no fee.", _F),
    ("Summit Cash Plus - late fee: $0; annual fee: $95.", _F),
    ("Summit Cash. Intro APR: none", ["wrong_intro_terms"]),
    ("Summit Cash. Penalty APR: none", ["wrong_apr"]),
    ("Summit Cash Plus. Balance transfers - no fee", _F),
    # an "n/a" elsewhere in the text leaves the spans of later findings on what the agent wrote
    ("Summit Cash Preferred. Intro APR: n/a. Annual fee: $99.", _F),
]

TWINS = [*DASH_CELL_TWINS, *LABEL_DASH_TWINS, *NA_TWINS]
DEFECTS = [*DASH_CELL_DEFECTS, *LABEL_DASH_DEFECTS, *NA_DEFECTS]


@pytest.mark.parametrize(("text", "ruleset_8"), TWINS)
def test_a_value_that_may_mean_not_stated_is_no_claim(
    text: str, ruleset_8: list[str], catalog: Catalog
) -> None:
    assert _codes(text, catalog, 9) == []
    assert _codes(text, catalog, 8) == ruleset_8


@pytest.mark.parametrize(("text", "expected"), DEFECTS)
def test_words_that_say_none_are_still_caught(
    text: str, expected: list[str], catalog: Catalog
) -> None:
    assert _codes(text, catalog, 9) == expected == _codes(text, catalog, 8)


def test_the_finding_quotes_the_agent_after_an_na(catalog: Catalog) -> None:
    """The "n/a" rewrite changes the text's length; the span still quotes the original."""
    text = "Summit Cash Preferred. Penalty APR: N/A. Annual fee: $99."
    (reason,) = verify_response(text, catalog, ruleset=9).reasons
    assert reason.code == "wrong_fee"
    assert reason.span is not None and reason.span.text == "$99"


@pytest.mark.parametrize("text", [*COMPLIANT, *REALISTIC_COMPLIANT])
def test_ruleset_9_passes_the_compliant_corpus(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 9) == []
    assert _codes(text, catalog, 9, "C1") == _codes(text, catalog, 8, "C1")


def test_ruleset_9_is_ruleset_8_plus_one_flag() -> None:
    """Opt-in and narrow: ruleset 8's flags, plus the one that reads dashes and "n/a" as nothing."""
    assert RULESETS[9] == replace(RULESETS[8], version=9, unstated_values_9=True)
    assert not any(RULESETS[v].unstated_values_9 for v in RULESETS if v < 9)


# -- on real catalogs: the kit's own long answers and the older labelled set --------------------

SEEDS = (1, 2)


@pytest.fixture(scope="module")
def catalogs() -> dict[int, Catalog]:
    return {s: Catalog.from_snapshot(ensure_snapshot("credit_cards", s).path) for s in SEEDS}


@pytest.mark.parametrize("seed", SEEDS)
def test_the_kits_long_compliant_answers_pass(seed: int, catalogs: dict[int, Catalog]) -> None:
    """Their tables write a dash for a term a card's row does not state; ruleset 8 flags them."""
    flagged_by_8 = 0
    for index in range(5):
        text = long_response(catalogs[seed], index, words=800)
        verdict = verify_response(text, catalogs[seed], ruleset=9)
        assert verdict.passed, [(r.code, r.message) for r in verdict.reasons]
        flagged_by_8 += not verify_response(text, catalogs[seed], ruleset=8).passed
    assert flagged_by_8 > 0  # the corpus exercises the dash readings ruleset 9 corrects


def test_the_older_labelled_set_under_ruleset_9(catalogs: dict[int, Catalog]) -> None:
    """No compliant item flagged, every code still found (ruleset 8 flags compliant items)."""
    items = build_evalset(list(catalogs.values()), n_per_code=13, seed=3)
    compliant = [i for i in items if not i.expected_codes]
    assert compliant

    def flagged(ruleset: int) -> int:
        return sum(
            not verify_response(i.text, i.catalog, i.customer_id, ruleset=ruleset).passed
            for i in compliant
        )

    assert flagged(9) / len(compliant) < FALSE_POSITIVE_TARGET
    assert flagged(8) / len(compliant) >= FALSE_POSITIVE_TARGET
    support: dict[str, int] = {}
    found: dict[str, int] = {}
    for item in items:
        codes: Any = set(
            verify_response(item.text, item.catalog, item.customer_id, ruleset=9).codes
        )
        for code in item.expected_codes:
            support[code] = support.get(code, 0) + 1
            found[code] = found.get(code, 0) + int(code in codes)
    assert support
    for code, n in support.items():
        assert found[code] / n >= RECALL_TARGET, (code, found[code], n)
