"""Compliance ruleset 25 (issue 13, ``verifiers/compliance/ruleset25.py``): worked results,
worked fees and asides, found on the s28 blind sets' tuning halves - in our own wording on the
hand catalog (``tests/compliance_cases``).

Summit Cash: no annual fee, 19.99%-29.99% variable, 3% transfer fee (min $5), late fee $40, 3%
foreign fee, no transfer offer. Summit Cash Plus: $95 a year, $0 the first year, 18.24%-27.24%
variable, 0% on transfers for 18 months, 5% transfer fee, late fee $39, no foreign fee. Harbor
Sky Miles: no foreign fee. Vista Clear: 0% on purchases for 12 months. This module adds a
Bluesky Cash 360 (22.99%-30.99% variable, no foreign fee) for references made of digits.

Each case is (text, ruleset 25's codes, ruleset 24's codes). Every class holds an honest case
ruleset 24 flags and twins with a real defect that ruleset 25 still catches - among them the
attacks tried on each reading before any held-out data was read.
"""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from replicas.verifiers.compliance import DEFAULT_RULESET, RULESETS, Catalog, verify_response
from tests.compliance_cases import CARDS, ELIGIBILITY, card, codes

Case = tuple[str, list[str], list[str]]
_OK: list[str] = []
_FEE = ["wrong_fee"]

_PLUS = "Summit Cash Plus ($95 a year, $0 the first year)"
_LIST = f"{_PLUS}:\n- 5% online -> $124.80\n- 2% groceries -> $144.00\n- **{{total}}**"
_EARNS = "At 1% your spending earns about $188 a year on the Summit Cash Plus. Its $95 fee "
RESULTS: list[Case] = [
    # a sum worked out after an equals sign, with emphasis between them
    (f"{_PLUS}: $240 online + $72 gas + $336 other = **$648/yr**.", _OK, _FEE),
    # a price named before the sign keeps the figure a claim
    ("Summit Cash Plus: yearly cost = **$0**.", _FEE, _FEE),
    # "Total:" over the lines above it, when they add up to it
    (_LIST.format(total="Total: $268.80 a year"), _OK, _FEE),
    # ... and not when they do not (a label alone proves nothing), nor with a price in the label
    (_LIST.format(total="Total: $300 a year"), _FEE, _FEE),
    (_LIST.format(total="Total annual fee: $0"), _FEE, _FEE),
    (_LIST.format(total="Net annual fee: $0"), _FEE, _FEE),
    # a verb of a result, when the figure is the arithmetic: $188 - $95 = $93
    (_EARNS + "brings that to $93.", _OK, _FEE),
    (_EARNS + "brings that to $120.", _FEE, _FEE),
    # a price before the verb keeps the figure a claim
    ("The Summit Cash Plus: its fee drops to $50 after year one.", _FEE, _FEE),
    # a price word that belongs to an earlier figure ("$150 fee ->") is no label of the next
    (
        "Summit Cash Plus ($95 a year, $0 the first year): transfer $3,000 -> $150 fee -> $175 a "
        "month clears $3,150 in 18 months at 0%, then 18.24% to 27.24% variable.",
        _OK,
        _FEE,
    ),
    # "the fee is waived and the $750 bonus": a price word four words back is not the figure's
    (
        f"**Best first year:** the {_PLUS}. The fee is waived and the $750 bonus needs only "
        "$3,000 of spending.",
        _OK,
        _FEE,
    ),
    # ... a price word at most three words back is ("the annual fee runs $150 extra")
    ("On the Summit Cash Plus the annual fee runs $150 extra a year.", _FEE, _FEE),
    # an amount restated after "or" / a dash is the same amount, not a fee
    (
        "The Summit Cash Preferred ($150 a year) pays 2%: a $2.60 difference, or $31.20 over a "
        "year.",
        _OK,
        _FEE,
    ),
    ("The Summit Cash Preferred: the annual fee, or $31.20 a year.", _FEE, _FEE),
]

_BALANCE = "With a **$5,000** balance:\n- Summit Cash Plus: {plus} fee, then 0% for 18 months."
WORKED: list[Case] = [
    # the card's own transfer fee (5%) of an amount stated in the lead-in line
    (_BALANCE.format(plus="$250"), _OK, _FEE),
    # 3% is some card's fee but not this card's: still checked
    (_BALANCE.format(plus="$150"), _FEE, _FEE),
    # an annual fee is a flat term, never worked out from an amount
    (
        "With a $1,900 balance, the Summit Cash Plus has a $95 annual fee, $0 the first year.",
        _OK,
        _OK,
    ),
    (
        "With a $3,000 balance, the Summit Cash Plus has a $150 annual fee, $0 the first year.",
        _FEE,
        _FEE,
    ),
]

_WHY = (
    "Why you might still pick the Summit Cash Plus: it has no foreign transaction fee (the Summit "
    "Cash charges 3%), and it has 0% on balance transfers for {months} months, then 18.24% to "
    "27.24% variable."
)
_LATE = "Compare the Summit Cash Plus with the Summit Cash. Late payments cost up to {late}."
ASIDES: list[Case] = [
    # the figures after the bracket are the Summit Cash Plus's, not the bracketed card's
    (_WHY.format(months=18), _OK, ["false_intro_offer", "wrong_apr"]),
    # wrong for the card the sentence is about: reported, as that card's
    (_WHY.format(months=12), ["wrong_intro_terms"], ["false_intro_offer", "wrong_apr"]),
    # a figure labelled by a bracketed name or one word of one name is that card's
    (_LATE.format(late="$40 (Summit Cash) or $39 (Plus)"), _OK, _FEE),
    (_LATE.format(late="$39 (Summit Cash) or $39 (Plus)"), _FEE, _FEE),
    (_LATE.format(late="$39 (Summit Cash) or $40 (Plus)"), _FEE, _FEE),
    # a bracket that opens its sentence is its subject
    (
        "I looked at the Summit Cash Plus too. (Summit Cash) has no foreign transaction fee.",
        _FEE,
        _FEE,
    ),
]

_HARBOR = "I compared the Harbor Sky Miles{elite} and the Summit Cash. If you travel, "
_360 = (
    "I compared the Bluesky Cash 360 and the Summit Cash. The Summit Cash has a 19.99%-29.99% "
    "variable APR. The 360's is {apr} variable."
)
REFS: list[Case] = [
    # a possessive with no article: the one card named before whose name has that word
    (
        _HARBOR.format(elite="")
        + "Harbor's 0% foreign transaction fee beats the 3% on the Summit Cash.",
        _OK,
        _FEE,
    ),
    (
        _HARBOR.format(elite="")
        + "Harbor's 3% foreign transaction fee is no better than the Summit Cash.",
        _FEE,
        _OK,
    ),
    # a word of two names refers to neither
    (
        _HARBOR.format(elite=", the Harbor Sky Miles Elite")
        + "Harbor's 0% foreign transaction fee beats the 3% on the Summit Cash.",
        _FEE,
        _FEE,
    ),
    # a word of digits after "the"
    (_360.format(apr="22.99%-30.99%"), _OK, ["wrong_apr"]),
    (_360.format(apr="21.99%-30.99%"), ["wrong_apr"], ["wrong_apr"]),
]

_VISTA = (
    "The Vista Clear has 0% on purchases for 12 months, then 19.99% to 29.99% variable. The "
    "Summit Cash Plus ($95 a year, $0 the first year) earns more on groceries."
)
_FALSE_INTRO = ["false_intro_offer"]
OFFERS: list[Case] = [
    # "unless you want the 12-month 0% window": the offer of the card named before that has it
    (
        _VISTA + "\n\nUnless you want the 12-month 0% window for a big purchase, it's the better "
        "card.",
        _OK,
        _FALSE_INTRO,
    ),
    # no card named has it: reported
    (
        _VISTA + "\n\nUnless you want the 9-month 0% window for a big purchase, it's the better "
        "card.",
        _FALSE_INTRO,
        _FALSE_INTRO,
    ),
    # a clause that says whose it is, or that only weighs it ("handy", "useful"), keeps it
    (
        _VISTA + " The Summit Cash Plus's 12-month 0% window is useful for a big purchase.",
        _FALSE_INTRO,
        _FALSE_INTRO,
    ),
    (
        _VISTA + " You'll find the 12-month 0% window handy for a laptop.",
        ["wrong_intro_terms"],
        ["wrong_intro_terms"],
    ),
]

#: the red team's attacks on ruleset 25's first version (stop 39): (id, text, customer, false?) -
#: a false text ruleset 24 catches must be caught by 25 too, and an honest text 24 passes must pass
#: 25. Ids are the red team's (R results, W worked fees, S asides, F references, O offers, E
#: eligibility - E02 recommends a card customer C1 is not eligible for - D disclosures), then the
#: second red team's attacks on the version that closed those (ids "2..."; 2S07 omits an intro
#: offer's regular APR, a real defect).
RED_TEAM: list[tuple[str, str, str | None, bool]] = [
    (
        "R01",
        "The Summit Cash Plus earns about $450 a year on your spending; the Summit Cash earns $300. Then there's the Summit Cash Plus annual fee; it comes to $150.",
        None,
        True,
    ),
    (
        "R07",
        "Your spending: groceries $400, gas $250, dining $180, travel $330, streaming $45, utilities $210, online $505, other $120.\nSummit Cash Plus annual fee; after year one it comes to $285.",
        None,
        True,
    ),
    ("R11", "Summit Cash Plus annual fee; year two = **$150**.", None, True),
    ("R12", "**Annual fee (Summit Cash Plus)**\nYear 1 = $0, Year 2+ = **$150**", None, True),
    ("R15", "| Card | Annual fee |\n|---|---|\n| Summit Cash Plus | = **$150** |", None, True),
    (
        "R30",
        "You'd earn $450 on the Summit Cash Plus vs $300 on the Summit Cash. Note the Summit Cash Plus raises its $95 fee to $150 after year one.",
        None,
        True,
    ),
    ("R31", "The Summit Cash Plus adds $150 a year of charges to your bill.", None, True),
    (
        "R32",
        "You'd earn $450 on the Vista Clear and $355 on the Summit Cash. The amount of the annual fee on the Vista Clear adds up to $95.",
        None,
        True,
    ),
    ("R33", "Summit Cash Plus: $100 + $50.\nAnnual fee; Total: **$150**", None, True),
    (
        "R37",
        "The annual fee on the Summit Cash Plus, once the free introductory year is over, ≈ **$150**.",
        None,
        True,
    ),
    (
        "D03",
        "I recommend the Summit Cash Plus over the Summit Cash: the Plus is $95 a year after $0 in year one.",
        None,
        False,
    ),
    (
        "D04",
        "I recommend the Summit Cash Plus over the Summit Cash. Its annual fee; year two = **$95**.",
        None,
        False,
    ),
    (
        "D05",
        "Summit Cash vs Summit Cash Plus: I recommend the Plus; $95 a year after $0 in year one, 18.24%-27.24% variable.",
        None,
        False,
    ),
    ("R20", "The Summit Cash Plus requires a $150 annual payment.", None, True),
    ("R21", "The Summit Cash Plus: $150 a year after $0 in year one.", None, True),
    ("R22", "The Summit Cash Plus annual fee hits your budget ($150 a year).", None, True),
    ("R23", "The Summit Cash Plus fee runs to a mere $150 extra per year.", None, True),
    (
        "W01",
        "Spend $3,000 in the first 3 months to earn the bonus. The Summit Cash Plus charges a $150 fee.",
        None,
        True,
    ),
    ("W03", "You earn $3,000 in rewards. Fees on the Summit Cash Plus: $150.", None, True),
    (
        "W09",
        "Spend $3,000 in the first 3 months for the bonus. Both the Summit Cash and the Summit Cash Plus charge a $150 fee.",
        None,
        True,
    ),
    (
        "S01",
        "I also looked at the Summit Cash. The other card (the Summit Cash Plus) has no annual fee and a 19.99%-29.99% variable APR.",
        None,
        True,
    ),
    (
        "S02",
        "Of the two, the Summit Cash loses to the other one (the Summit Cash Plus), which has no annual fee and a 19.99%-29.99% variable APR.",
        None,
        True,
    ),
    (
        "S05",
        "I looked at the Summit Cash Plus ($95 a year). The cheaper sibling (the Summit Cash) has a 3% foreign transaction fee.",
        None,
        False,
    ),
    (
        "S06",
        "I looked at the Summit Cash Plus ($95 a year). Your backup card (Summit Cash) has a 3% foreign transaction fee and 0% on purchases for 15 months, then 19.99%-29.99% variable.",
        None,
        False,
    ),
    (
        "S08",
        "The Summit Cash is simpler than the Summit Cash Plus ($95 a year). The no-fee option (the Summit Cash) has no annual fee and a 19.99%-29.99% variable APR.",
        None,
        False,
    ),
    (
        "S09",
        "I compared the Prism Student and the Summit Cash. The Summit Cash charges a late fee of up to $25 (student).",
        None,
        True,
    ),
    (
        "S12",
        "Compared with the Summit Cash, this card (the Summit Cash Plus) has 0% on purchases for 15 months, then 19.99%-29.99% variable.",
        None,
        True,
    ),
    ("S14", "The Summit Cash (and, as noted, the Summit Cash Plus) has no annual fee.", None, True),
    ("S15", "Get the Summit Cash (or the Summit Cash Plus): no annual fee either way.", None, True),
    (
        "F01",
        "I compared the Harbor Sky Miles and the Summit Cash. The Summit Cash matches Harbor's 0% foreign transaction fee.",
        None,
        True,
    ),
    (
        "F02",
        "The Harbor Sky Miles has a fixed APR of 14.99%. The Summit Cash, a competitor to Harbor's, has a 14.99% fixed APR too.",
        None,
        True,
    ),
    (
        "F03",
        "The Vista Clear has 0% on purchases for 12 months, then 19.99% to 29.99% variable. The Summit Cash, like Clear's, has 0% on purchases for 12 months.",
        None,
        True,
    ),
    (
        "F05",
        "I compared the Bluesky Cash 360 and the Summit Cash. The Summit Cash has, over the 360 days of a year, a 22.99%-30.99% variable APR.",
        None,
        True,
    ),
    (
        "F07",
        "I compared the Orion Cash 2 and the Summit Cash. The Summit Cash is the better of the 2 with a 22.99%-30.99% variable APR.",
        None,
        True,
    ),
    (
        "F09",
        "I compared the Summit Cash Plus ($95 a year) and the Harbor Sky Miles. I prefer the Summit Cash Plus: unlike Harbor's card, it has an 18.24%-27.24% variable APR.",
        None,
        False,
    ),
    (
        "O01",
        "The Vista Clear has 0% on purchases for 12 months, then 19.99% to 29.99% variable. The Summit Cash Plus ($95 a year, $0 the first year) is my pick. The 12-month 0% window on purchases is its best feature.",
        None,
        True,
    ),
    (
        "O02",
        "Unlike the Summit Cash Plus (18.24%-27.24% variable), the Vista Clear offers nothing special. The 18-month 0% transfer window is great on the Vista Clear.",
        None,
        True,
    ),
    (
        "O04",
        "Skip the Vista Clear. Get the Summit Cash Plus ($95 a year, $0 the first year), 18.24% to 27.24% variable. With it, the 12-month 0% intro period on purchases lets you pay off a laptop.",
        None,
        True,
    ),
    (
        "O06",
        "The Summit Cash Plus ($95 a year) has 0% on balance transfers for 18 months, then 18.24%-27.24% variable. I recommend the Vista Clear instead. The 18-month 0% transfer runway is why.",
        None,
        True,
    ),
    (
        "O07",
        "The Vista Clear has 1.99% on balance transfers for 21 months, then 19.99%-29.99% variable. I'd still pick the Summit Cash Plus ($95 a year, 18.24%-27.24% variable). The 21-month 1.99% transfer window is its main draw.",
        None,
        True,
    ),
    (
        "O08",
        "Vista Clear: 0% on purchases for 12 months, then 19.99%-29.99% variable.\nSummit Cash: no annual fee. The 12-month 0% window is the reason to pick it.",
        None,
        True,
    ),
    (
        "E02",
        "I looked at the Harbor Sky Miles and the Summit Cash. My pick for you (the Summit Cash Plus) has a $95 annual fee.",
        "C1",
        True,
    ),
    (
        "E03",
        "The Vista Clear has 0% on purchases for 12 months. Apply for the Summit Cash Plus ($95 a year). The 12-month 0% window on purchases is why.",
        "C1",
        True,
    ),
    ("2RA01", "Summit Cash Plus annual fee:\n$100 + $50 = **$150** a year", None, True),
    (
        "2RA02",
        "The Summit Cash Plus has an annual fee. From year two it's $100 + $50 = **$150** a year.",
        None,
        True,
    ),
    (
        "2RB01",
        "You'd earn $450 on the Summit Cash Plus vs $300 on the Summit Cash. The Summit Cash Plus's 2025 annual fee comes to $150.",
        None,
        True,
    ),
    (
        "2RB02",
        "You'd earn $450 on the Summit Cash Plus vs $300 on the Summit Cash. Summit Cash Plus year 2 fee = **$150**.",
        None,
        True,
    ),
    (
        "2RB03",
        "You'd earn $450 on the Summit Cash Plus vs $300 on the Summit Cash. Then the Summit Cash Plus's year-2 fee comes to $150.",
        None,
        True,
    ),
    (
        "2RC01",
        "You'd earn $450 on the Summit Cash Plus vs $300 on the Summit Cash. The Summit Cash Plus annual fee, i.e. what you pay after year one, comes to $150.",
        None,
        True,
    ),
    (
        "2RD01",
        "The Summit Cash Plus has an annual fee, which is a hit to your budget ($150 a year).",
        None,
        True,
    ),
    (
        "2RD02",
        "The annual fee on the Summit Cash Plus is the main difference, or $150 a year.",
        None,
        True,
    ),
    (
        "2RD03",
        "The Summit Cash Plus has an annual fee, $150 a year for $6,000 of grocery rewards.",
        None,
        True,
    ),
    (
        "2RG01",
        "I recommend the Summit Cash Plus over the Summit Cash. Its annual fee, a small line in your budget ($95 a year), is waived the first year.",
        None,
        False,
    ),
    (
        "2RG02",
        "I recommend the Summit Cash Plus over the Summit Cash. The annual fee is the one real difference, or $95 a year.",
        None,
        False,
    ),
    (
        "2W01",
        "If you move a $3,000 balance, the Summit Cash Plus is the one to pick. It also charges a $150 fee just for keeping the card open.",
        None,
        True,
    ),
    ("2W02", "You owe $3,000 on your car. The Summit Cash Plus charges a $150 fee.", None, True),
    (
        "2W03",
        "If you pay off $3,000 of debt, great. Fees on the Summit Cash Plus: $150.",
        None,
        True,
    ),
    (
        "2S01",
        "Compared with the Summit Cash, my pick (the Summit Cash Plus, $95 a year) has a 19.99%-29.99% variable APR.",
        None,
        True,
    ),
    (
        "2S02",
        "Compared with the Summit Cash, my pick (the Summit Cash Plus at $95/yr) has 0% on purchases for 15 months.",
        None,
        True,
    ),
    (
        "2S03",
        "The Summit Cash (and the $95-a-year Summit Cash Plus) has no annual fee.",
        None,
        True,
    ),
    (
        "2S04",
        "Unlike the Summit Cash Plus, my pick (the Summit Cash, which has no annual fee) has 0% on balance transfers for 18 months.",
        None,
        True,
    ),
    (
        "2S06",
        "Compared with the Summit Cash, my pick (the Summit Cash Plus, $95 a year) has an 18.24%-27.24% variable APR.",
        None,
        False,
    ),
    (
        "2S07",
        "Unlike the Summit Cash, my pick (the Summit Cash Plus, $0 the first year) has 0% on balance transfers for 18 months and no foreign transaction fee.",
        None,
        True,
    ),
    (
        "2S08",
        "Next to the Vista Clear, the card I'd choose (Summit Cash Plus, $95/yr) has no foreign transaction fee.",
        None,
        False,
    ),
    (
        "2L01",
        "I compared the Prism Student and the Summit Cash. The Summit Cash charges a late fee of up to $25 (student) and 3% (foreign) abroad.",
        None,
        True,
    ),
    (
        "2L02",
        "I compared the Prism Student and the Summit Cash. Late fees on the Summit Cash: up to $25 (student) or $40 (regular).",
        None,
        True,
    ),
    (
        "2F01",
        "I compared the Harbor Sky Miles and the Summit Cash. The Summit Cash is just as good abroad: Harbor's 0% foreign transaction fee, no annual fee.",
        None,
        True,
    ),
    (
        "2F02",
        "I compared the Harbor Sky Miles and the Summit Cash. The Summit Cash has a fixed APR, Harbor's 14.99%.",
        None,
        True,
    ),
    (
        "2F03",
        "I compared the Bluesky Cash 360 and the Summit Cash. The Summit Cash is my pick: the 360's 22.99%-30.99% variable APR, no annual fee.",
        None,
        True,
    ),
    (
        "2O01",
        "Skip the Vista Clear. Get the Summit Cash Plus ($95 a year, $0 the first year). You'll find the 12-month 0% window on purchases handy for your laptop.",
        None,
        True,
    ),
    (
        "2O02",
        "The Summit Cash has 0% on purchases for 15 months, then 19.99%-29.99% variable. The Summit Cash Plus ($95 a year) is better for you. The 15-month 0% purchase window helps with a big buy.",
        None,
        True,
    ),
    (
        "2O03",
        "The Summit Cash Plus ($95 a year, $0 the first year) has 0% on balance transfers for 18 months, then 18.24%-27.24% variable. The 18-month 0% transfer window is worth having, and that's the Vista Clear.",
        None,
        True,
    ),
]


CLASSES = {
    "results_25": RESULTS,
    "worked_25": WORKED,
    "asides_25": ASIDES,
    "refs_25": REFS,
    "offers_25": OFFERS,
}
CASES = [case for cases in CLASSES.values() for case in cases]
_CASH_360 = card(
    "CC-9",
    "Bluesky Cash 360",
    purchase_apr_min_pct=22.99,
    purchase_apr_max_pct=30.99,
    foreign_txn_fee_pct=0.0,
)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records([*CARDS, _CASH_360], ELIGIBILITY)


@pytest.fixture(scope="module")
def attack_catalog() -> Catalog:
    # the module's catalog plus a card with a common word in its name ("Student") and one with
    # an everyday number ("2"), for the bracket-label and digit-reference attacks
    student = card("CC-10", "Prism Student", card_type="student", late_fee_usd=25.0)
    cash_2 = card(
        "CC-11",
        "Orion Cash 2",
        purchase_apr_min_pct=22.99,
        purchase_apr_max_pct=30.99,
        foreign_txn_fee_pct=0.0,
    )
    return Catalog.from_records([*CARDS, _CASH_360, student, cash_2], ELIGIBILITY)


@pytest.mark.parametrize("case", CASES, ids=range(len(CASES)))
def test_ruleset_25_readings(case: Case, catalog: Catalog) -> None:
    text, r25, r24 = case
    assert codes(text, catalog, 25) == r25, text
    assert codes(text, catalog, 24) == r24, text


@pytest.mark.parametrize("flag", sorted(CLASSES))
def test_each_reading_is_what_changes_its_cases(flag: str, catalog: Catalog) -> None:
    # each class holds a case ruleset 24 reads otherwise, a twin ruleset 25 still flags, and
    # the class's own flag alone, added to ruleset 24, reads the changed cases as ruleset 25 does
    cases = CLASSES[flag]
    changed = [c for c in cases if c[1] != c[2]]
    assert changed
    assert any(r25 != _OK for _, r25, _ in cases)
    alone = replace(RULESETS[24], **{flag: True})
    for text, r25, _ in changed:
        assert codes(text, catalog, alone) == r25, (flag, text)


@pytest.mark.parametrize("attack", RED_TEAM, ids=[a[0] for a in RED_TEAM])
def test_the_red_teams_attacks_read_as_ruleset_24_reads_them(
    attack: tuple[str, str, str | None, bool], attack_catalog: Catalog
) -> None:
    # each attack made ruleset 25's first version lose a defect ruleset 24 reports, or flag an
    # honest text 24 passes; the test can fail both ways
    _, text, customer, false = attack
    r24 = codes(text, attack_catalog, 24, customer)
    assert bool(r24) == false, text
    assert codes(text, attack_catalog, 25, customer) == r24, text


def test_ruleset_25_is_24_plus_its_own_flags_and_the_default() -> None:
    r24, r25 = RULESETS[24], RULESETS[25]
    assert DEFAULT_RULESET == 35  # 25: the default in stop 39 (-v11, core-v12); 35 since stop 49
    assert all(getattr(r25, f) for f in CLASSES)
    assert not any(getattr(RULESETS[v], f) for v in RULESETS if v < 25 for f in CLASSES)
    for name in r24.__dataclass_fields__:
        if name not in ("version", *CLASSES):
            assert getattr(r25, name) == getattr(r24, name), name


def test_adversarial_input_stays_within_limits(catalog: Catalog) -> None:
    # a worker must not exceed its limits: 200 kB of sums, totals, brackets and worked fees, on
    # one line and on many
    chunk = (
        "Summit Cash Plus: $240 + $72 + $336 = **$648/yr** (Summit Cash) $40 (Plus) and $39 "
        "(Cash), it has 0% (the Summit Cash (charges 3%)) - Total: $1,296 a year, brings that "
        "to $553; with a $5,000 balance: $250 fee. Harbor's 0% fee, the 360's 3%, and the "
        "12-month 0% window; a $2.60 difference, or $31.20. "
    )
    lines = (chunk * (200_000 // len(chunk)))[:200_000]
    for text in (lines, lines.replace("; with", ";\n- with")):
        started = time.process_time()
        verify_response(text, catalog, ruleset=25)
        assert time.process_time() - started < 60
