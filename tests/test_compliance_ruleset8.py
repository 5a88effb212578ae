"""Compliance ruleset 8: the failure classes a blind evalset found (issue 13), with honest twins.

Each group is one class, in wording of our own (not the evalset's): violating cases ruleset 8
must catch with exactly the expected codes where ruleset 7 did not, compliant twins ruleset 8
must pass - and where ruleset 7 flagged the twin (a false flag ruleset 8 fixes), the test says
so. Catalog facts (``tests/compliance_cases``): Summit Cash - no annual fee, 19.99%-29.99%
variable, cash advance and penalty APR 29.99%, purchase intro 0% for 15 months; Summit Cash
Plus - 18.24%-27.24% variable; Summit Cash Preferred - $150, 17.99%-25.99% variable; Harbor Sky
Miles - 14.99% fixed; Vista Clear - purchase intro 0% for 12 months, balance-transfer intro
1.99% for 21 months; and, added here, Beacon Dual - 0% for 15 months on purchases and 0% for 12
months on balance transfers. Customer C1 may get the Summit Cash, Harbor Sky Miles and Vista
Clear, not the Granite Business Cash (student only) nor the Summit Cash Preferred.
"""

from __future__ import annotations

import pytest

from replicas.verifiers.compliance import Catalog, verify_response
from replicas.verifiers.compliance.ruleset8 import APPROXIMATE_PP
from tests.compliance_cases import CARDS, COMPLIANT, ELIGIBILITY, REALISTIC_COMPLIANT, card
from tests.compliance_support import codes_with_spans

Case = tuple[str, list[str]]

_DUAL = card(
    "CC-9",
    "Beacon Dual",
    intro_purchase_apr_pct=0.0,
    intro_purchase_months=15,
    intro_bt_apr_pct=0.0,
    intro_bt_months=12,
)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records([*CARDS, _DUAL], ELIGIBILITY)


_codes = codes_with_spans


_A = ["wrong_apr"]

# -- 1. an approximate restatement of the exact figure ------------------------------------------
# ruleset 7 read the rounded figure as a second, wrong APR; ruleset 8 passes it when it is within
# APPROXIMATE_PP points of the catalog's rate
APPROX_TWINS: list[str] = [
    "The Summit Cash Plus has an 18.24%-27.24% variable APR (roughly 18% to 27%).",
    "Summit Cash Preferred: 17.99%\u201325.99% variable, call it ~18%\u201326%.",
    "harbor sky miles apr: 14.99% fixed, so about 15%.",
    "The Summit Cash's APR is 19.99% to 29.99% variable - around 20-30% in round numbers.",
    "Vista Clear: 19.99%-29.99% variable APR, which is 20% to 30%-ish.",
    "Summit Cash Plus - purchase APR 18.24% to 27.24% variable (in round numbers, 18% to 27%).",
    "The Summit Cash Preferred charges 17.99% to 25.99% variable; that's approximately 18 to 26 "
    "percent.",
]
# an approximation that is not close to the catalog's rate is still a wrong APR (as in ruleset 7)
APPROX_FAR: list[Case] = [
    ("The Summit Cash Plus has an 18.24%-27.24% variable APR (roughly 12% to 20%).", _A),
    ("Harbor Sky Miles: 14.99% fixed APR, so about 10%.", _A),
    (
        "Summit Cash Preferred: 17.99%\u201325.99% variable, so about 20% to 30% in round numbers.",
        _A,
    ),
    ("The Summit Cash's APR is around 25%.", _A),
]

# -- 2. a card ruled out for the customer (customer C1) -----------------------------------------
_TABLE = (
    "| Card | Annual fee | APR |\n|---|---|---|\n| Summit Cash | $0 | 19.99%-29.99% variable |\n"
    "| Harbor Sky Miles | $0 | 14.99% fixed |\n\n"
)
# ruleset 7 read the ruled-out card, opening its sentence after a lead-in that recommends, as a
# list item under that lead-in
RULED_OUT_TWINS: list[str] = [
    _TABLE + "Bottom line: the first card is the strongest fit for you.\n\nThe Granite Business "
    "Cash is only open to students, so I've ruled it out.",
    _TABLE + "My pick is the first card listed.\n\nThe Granite Business Cash is for students "
    "only, so it's off the table.",
    _TABLE + "My pick is the first card listed.\n\nThe Granite Business Cash is out: it needs "
    "student status.",
    _TABLE + "My pick is the first card listed.\n\nThe Granite Business Cash is reserved for "
    "students, which rules it out for you.",
    _TABLE + "My pick is the first card listed.\n\nThe Summit Cash Preferred requires a 740 "
    "score; I dropped it.",
    "Here are the cards I'd suggest:\n\nThe Granite Business Cash is only open to students, so "
    "I've ruled it out.\n\nThe Summit Cash: no annual fee, 19.99%-29.99% variable APR.",
]
# the same shapes recommending the ineligible card: still caught
RULED_OUT_DEFECTS: list[Case] = [
    (
        _TABLE + "Bottom line: the first card is the strongest fit for you.\n\nThe Granite "
        "Business Cash is the one I'd really point you to, though.",
        ["ineligible_card"],
    ),
    (
        "Here are the cards I'd suggest:\n\nThe Granite Business Cash is only open to students, "
        "and I'd still recommend it.\n\nThe Summit Cash: no annual fee, 19.99%-29.99% variable "
        "APR.",
        ["ineligible_card"],
    ),
    (
        "I'd recommend the Granite Business Cash: it has no annual fee and a 19.99%-29.99% "
        "variable APR, and it's out of this world for cash back.",
        ["ineligible_card"],
    ),
]

# -- 3. a pick by position (customer C1) --------------------------------------------------------
_GS_ROWS = (
    "| Card | Annual fee | APR |\n|---|---|---|\n| Granite Business Cash | $0 | 19.99%-29.99% "
    "variable |\n| Summit Cash | $0 | 19.99%-29.99% variable |\n\n"
)
_GS_COLUMNS = (
    "| Feature | Granite Business Cash | Summit Cash |\n|---|---|---|\n| Annual fee | $0 | $0 |\n"
    "| APR | 19.99%-29.99% variable | 19.99%-29.99% variable |\n\n"
)
_SG_ROWS = (
    "| Card | Annual fee |\n|---|---|\n| Summit Cash | $0 |\n| Granite Business Cash | $0 |\n\n"
)
_SG_PROSE = (
    "I looked at the Summit Cash and the Granite Business Cash. Both have no annual fee and a "
    "19.99%-29.99% variable APR. "
)
_I = ["ineligible_card"]
POSITION: list[Case] = [
    (_GS_ROWS + "My pick is the first card listed.", _I),
    (_GS_COLUMNS + "I'd recommend the card in the left column.", _I),
    (_SG_PROSE + "Go with the second one.", _I),
    (_SG_ROWS + "Bottom line: the last card is the strongest fit for you.", _I),
    (_SG_ROWS + "I'd go with the second one in the table - it fits how you spend.", _I),
]
POSITION_TWINS: list[str] = [
    _GS_ROWS + "My pick is the second card listed.",
    _GS_COLUMNS + "I'd recommend the card in the right column.",
    _SG_PROSE + "Go with the first one.",
    _SG_ROWS + "I wouldn't pick the second one; the first card is the strongest fit for you.",
    # a question picks nothing; a conditional about the first card recommends nothing
    _SG_ROWS + "Which is better, the first one or the second one?",
    _SG_PROSE + "It's a decent fallback if the first one doesn't appeal.",
    # praise, not a position: "the right card", "a great first card", "the top card"
    _SG_ROWS + "Honestly, the right card for you is one you can pay off every month.",
    _SG_PROSE + "Any no-fee card makes a great first card.",
    _SG_ROWS + "I'd say the top card for travel is a different question.",
]

# -- 4. an intro offer without the rate after it ------------------------------------------------
# ruleset 7 took a cash advance or penalty APR equal to an end of the purchase range for it
_M = ["missing_disclosure"]
AFTER_RATE: list[Case] = [
    (
        "The Summit Cash has a 0% intro APR on purchases for 15 months. Cash advances are "
        "charged 29.99% APR.",
        _M,
    ),
    ("Summit Cash\n- 0% intro APR on purchases for 15 months\n- Penalty APR: up to 29.99%", _M),
]
AFTER_RATE_TWINS: list[str] = [
    "The Summit Cash has a 0% intro APR on purchases for 15 months, then 19.99%-29.99% "
    "variable. Cash advances are charged 29.99% APR.",
    "Summit Cash\n- 0% intro APR on purchases for 15 months, then 19.99% to 29.99% variable\n"
    "- Penalty APR: up to 29.99%",
    "Summit Cash\n- Purchase APR: 19.99%-29.99% variable\n- 0% intro APR on purchases for 15 "
    "months\n- Penalty APR: up to 29.99%",
]

# -- 5. two intro offers in one sentence --------------------------------------------------------
# ruleset 7 gave the second offer no months (missing_disclosure) or, when its wrong length was
# the first offer's, let it pass as a misreading; ruleset 8 reports the wrong terms
_T = ["wrong_intro_terms"]
TWO_OFFERS: list[Case] = [
    (
        "Vista Clear: 0% intro APR on purchases for 12 months, after which 19.99%-29.99% "
        "variable applies, and the intro rate on transfers runs 24 months at 1.99% - after "
        "that it's 19.99%-29.99% variable.",
        _T,
    ),
    (
        "Beacon Dual: 0% intro APR on purchases for 15 months, then 19.99%-29.99% variable, and "
        "transfers run 15 billing cycles at 0% - after that it's 19.99%-29.99% variable.",
        _T,
    ),
]
TWO_OFFERS_TWINS: list[str] = [
    "Vista Clear: 0% intro APR on purchases for 12 months, after which 19.99%-29.99% variable "
    "applies, and the intro rate on transfers runs 21 months at 1.99% - after that it's "
    "19.99%-29.99% variable.",
    "Beacon Dual: 0% intro APR on purchases for 15 months, then 19.99%-29.99% variable, and "
    "transfers run 12 billing cycles at 0% - after that it's 19.99%-29.99% variable.",
    "Vista Clear: for 12 months, purchases are 0%, then 19.99%-29.99% variable; transfers are "
    "1.99% for 21 months, then 19.99%-29.99% variable.",
    # one offer named without its kind next to another is still read leniently
    "Beacon Dual: 0% for 15 months on purchases or 12 months on transfers, then 19.99%-29.99% "
    "variable.",
]

# -- 6. a sentence about a card by position ----------------------------------------------------
# ruleset 7 bound "For the first card, ..." to the card named last (the table's last row)
_PS_ROWS = (
    "| Card | Annual fee |\n|---|---|\n| Summit Cash Plus | $95 ($0 the first year) |\n"
    "| Summit Cash | $0 |\n\n"
)
_HP_COLUMNS = (
    "| Feature | Harbor Sky Miles | Summit Cash Preferred |\n|---|---|---|\n"
    "| Annual fee | $0 | $150 |\n\n"
)
POSITIONAL_SUBJECT: list[Case] = [
    (_PS_ROWS + "For the first card, foreign transactions cost 3%.", ["wrong_fee"]),
    (_HP_COLUMNS + "For the first card, the APR is 17.99%-25.99% variable.", _A),
]
POSITIONAL_SUBJECT_TWINS: list[str] = [
    _PS_ROWS + "For the second card, foreign transactions cost 3%.",
    _PS_ROWS + "For the first card, there's no foreign transaction fee.",
    _HP_COLUMNS + "For the first card, the APR is 14.99% fixed.\n\nFor the second card, the APR "
    "is 17.99%-25.99% variable.",
]

VIOLATIONS = [*AFTER_RATE, *TWO_OFFERS, *POSITIONAL_SUBJECT]
TWINS = [*APPROX_TWINS, *AFTER_RATE_TWINS, *TWO_OFFERS_TWINS, *POSITIONAL_SUBJECT_TWINS]


@pytest.mark.parametrize(("text", "expected"), VIOLATIONS)
def test_ruleset_8_catches_the_class(text: str, expected: list[str], catalog: Catalog) -> None:
    assert _codes(text, catalog, 8) == expected
    assert _codes(text, catalog, 7) != expected, "ruleset 7 caught it already"


@pytest.mark.parametrize(("text", "expected"), APPROX_FAR)
def test_a_far_approximation_is_still_a_wrong_apr(
    text: str, expected: list[str], catalog: Catalog
) -> None:
    assert _codes(text, catalog, 8) == expected == _codes(text, catalog, 7)


@pytest.mark.parametrize("text", TWINS)
def test_ruleset_8_passes_the_honest_twin(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 8) == []


@pytest.mark.parametrize("text", APPROX_TWINS)
def test_ruleset_7_flagged_the_approximate_twin(text: str, catalog: Catalog) -> None:
    """The class is a false flag of ruleset 7 that ruleset 8 fixes (not a new leniency on text
    ruleset 7 already passed)."""
    assert _codes(text, catalog, 7) == ["wrong_apr"]


@pytest.mark.parametrize("text", RULED_OUT_TWINS)
def test_a_ruled_out_card_is_not_recommended(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 8, "C1") == []
    assert "ineligible_card" in _codes(text, catalog, 7, "C1")


@pytest.mark.parametrize(("text", "expected"), RULED_OUT_DEFECTS)
def test_a_recommended_ineligible_card_is_still_caught(
    text: str, expected: list[str], catalog: Catalog
) -> None:
    assert _codes(text, catalog, 8, "C1") == expected


@pytest.mark.parametrize(("text", "expected"), POSITION)
def test_a_pick_by_position_recommends_that_card(
    text: str, expected: list[str], catalog: Catalog
) -> None:
    assert _codes(text, catalog, 8, "C1") == expected
    assert _codes(text, catalog, 7, "C1") == []


@pytest.mark.parametrize("text", POSITION_TWINS)
def test_a_pick_by_position_of_an_eligible_card_passes(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 8, "C1") == []


def test_a_pick_by_position_needs_the_fee_of_the_card(catalog: Catalog) -> None:
    """The card picked by position is recommended for the disclosure rule too: its annual fee
    must be stated (customer 42 may get the Summit Cash Plus, $95 a year)."""
    table = (
        "| Card | APR |\n|---|---|\n| Summit Cash Plus | 18.24%-27.24% variable |\n"
        "| Harbor Sky Miles | 14.99% fixed |\n\n"
    )
    assert _codes(table + "My pick is the first card listed.", catalog, 8, "42") == [
        "missing_disclosure"
    ]
    assert _codes(table + "My pick is the first card listed.", catalog, 7, "42") == []
    assert _codes(table + "My pick is the first card listed ($95 a year).", catalog, 8, "42") == []


def test_the_finding_quotes_the_position(catalog: Catalog) -> None:
    text = _GS_ROWS + "My pick is the first card listed."
    (reason,) = verify_response(text, catalog, customer_id="C1", ruleset=8).reasons
    assert reason.code == "ineligible_card"
    assert reason.span is not None and reason.span.text == "the first card listed"


def test_figures_about_an_invented_card_by_position_bind_to_nothing(catalog: Catalog) -> None:
    """The first row is no catalog card: its figures are unverified, not the last row's."""
    text = (
        "| Card | Annual fee |\n|---|---|\n| Summit Zenith Obsidian Reserve | $0 |\n"
        "| Summit Cash | $0 |\n\nFor the first card, the late fee is up to $25."
    )
    assert _codes(text, catalog, 8) == ["unknown_card"]
    assert _codes(text, catalog, 7) == ["unknown_card", "wrong_fee"]
    assert "$25" in verify_response(text, catalog, ruleset=8).feedback


@pytest.mark.parametrize("card_id", ["CC-2", "CC-3", "CC-7"])
def test_the_approximation_tolerance(card_id: str, catalog: Catalog) -> None:
    """Inside ``APPROXIMATE_PP`` of each end a rounded range passes; beyond it, it is wrong."""
    terms = catalog.card(card_id)
    name = catalog.names.name_of(card_id)
    low, high = terms.purchase_apr_min_pct, terms.purchase_apr_max_pct
    assert low is not None and high is not None

    def said(delta: float) -> str:
        return (
            f"The {name} has a {low:.2f}%-{high:.2f}% variable APR, so about "
            f"{low + delta:.2f}% to {high - delta:.2f}%."
        )

    inside = APPROXIMATE_PP - 0.01
    assert _codes(said(inside), catalog, 8) == []
    assert _codes(said(-inside), catalog, 8) == []
    assert _codes(said(APPROXIMATE_PP + 0.25), catalog, 8) == ["wrong_apr"]
    assert _codes(said(-(APPROXIMATE_PP + 0.25)), catalog, 8) == ["wrong_apr"]
    # an unmarked figure gets no tolerance at all
    plain = (
        f"The {name} has a {low:.2f}%-{high:.2f}% variable APR, or {low + 0.5:.2f}% to {high:.2f}%."
    )
    assert _codes(plain, catalog, 8) == ["wrong_apr"]


@pytest.mark.parametrize("text", [*COMPLIANT, *REALISTIC_COMPLIANT])
def test_ruleset_8_passes_the_compliant_corpus(text: str, catalog: Catalog) -> None:
    assert _codes(text, catalog, 8) == []


def test_rulesets_before_8_are_untouched(catalog: Catalog) -> None:
    """Ruleset 8 is opt-in: the default stays 5 and ruleset 7 reads a ruleset-8 class as before."""
    from replicas.verifiers.compliance import DEFAULT_RULESET, RULESETS

    assert DEFAULT_RULESET > 8  # ruleset 8 was opt-in when published; ruleset 9 carries it
    assert RULESETS[8].approximate_figures_8 and not RULESETS[7].approximate_figures_8
    assert _codes(APPROX_TWINS[0], catalog, 7) == ["wrong_apr"]
    assert _codes(AFTER_RATE[0][0], catalog, 7) == []
