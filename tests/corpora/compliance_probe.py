"""An independent probe corpus for the compliance verifier: short answers in many registers.

Written for ruleset 5's generalisation check, blind to the evalset's held-out templates and in
wording of its own (chat replies, markdown tables, bullet sheets, emails, casual lower-case
messages, British spelling). It has its own catalog (``PROBE_CARDS``: invented issuers, with a
card for every contrast the rules need - a first-year waiver, a fee charged from year one, a
fixed APR, a card with no late fee, a purchase-only and a transfer-only intro offer) and every
item's label comes from how it was made: a compliant item copies the catalog's terms, a
defective one plants exactly one defect whose reason code is the label.

``probe_items()`` returns the items; ``probe_catalog()`` the catalog they are about.
``python -m tests.corpora.compliance_probe [--rulesets 4 5] [--show-misses] [--corpus a|b]`` prints per-code
precision and recall and the false-positive rate for each ruleset; ``tests/test_compliance_probe``
holds ruleset 5 to no false positive and no code below ruleset 4; the frozen-verdict test runs the
items under the published rulesets as extra texts.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

_BASE: dict[str, Any] = {
    "issuer": "Probe Bank",
    "card_type": "cash_back",
    "min_credit_score": 660,
    "annual_fee_usd": 0.0,
    "annual_fee_first_year_usd": 0.0,  # as in the seeded catalogs: the first year of a no-fee card
    "apr_is_variable": True,
    "intro_purchase_apr_pct": None,
    "intro_purchase_months": None,
    "intro_bt_apr_pct": None,
    "intro_bt_months": None,
    "bt_fee_pct": 3.0,
    "bt_fee_min_usd": 5.0,
    "cash_advance_apr_pct": 29.49,
    "cash_advance_fee_pct": 5.0,
    "cash_advance_fee_min_usd": 10.0,
    "penalty_apr_pct": 29.99,
    "foreign_txn_fee_pct": 3.0,
    "late_fee_usd": 39.0,
    "grace_period_days": 23,
    "min_interest_charge_usd": 0.5,
}


def _card(card_id: str, name: str, **terms: Any) -> dict[str, Any]:
    return {**_BASE, "card_id": card_id, "card_name": name, **terms}


PROBE_CARDS: list[dict[str, Any]] = [
    # no annual fee; purchase intro only
    _card(
        "P-1",
        "Northwind Everyday",
        issuer="Northwind Bank",
        purchase_apr_min_pct=20.49,
        purchase_apr_max_pct=28.49,
        intro_purchase_apr_pct=0.0,
        intro_purchase_months=15,
    ),
    # $95 with the first year free; balance-transfer intro only; no foreign fee
    _card(
        "P-2",
        "Northwind Everyday Plus",
        issuer="Northwind Bank",
        annual_fee_usd=95.0,
        annual_fee_first_year_usd=0.0,
        purchase_apr_min_pct=19.24,
        purchase_apr_max_pct=27.24,
        intro_bt_apr_pct=0.0,
        intro_bt_months=18,
        bt_fee_pct=5.0,
        foreign_txn_fee_pct=0.0,
        late_fee_usd=40.0,
    ),
    # $250 from year one (no waiver); no intro; no foreign fee
    _card(
        "P-3",
        "Lakeshore Voyager",
        issuer="Lakeshore Trust",
        card_type="travel",
        annual_fee_usd=250.0,
        annual_fee_first_year_usd=250.0,
        purchase_apr_min_pct=21.24,
        purchase_apr_max_pct=28.24,
        foreign_txn_fee_pct=0.0,
        late_fee_usd=40.0,
    ),
    # fixed APR, no penalty APR, 2% foreign fee
    _card(
        "P-4",
        "Meridian Steady Rate",
        issuer="Meridian Credit Union",
        card_type="low_rate",
        purchase_apr_min_pct=13.99,
        purchase_apr_max_pct=13.99,
        apr_is_variable=False,
        penalty_apr_pct=None,
        foreign_txn_fee_pct=2.0,
        late_fee_usd=29.0,
    ),
    # both intro offers
    _card(
        "P-5",
        "Meridian Transfer Pro",
        issuer="Meridian Credit Union",
        card_type="balance_transfer",
        purchase_apr_min_pct=18.99,
        purchase_apr_max_pct=28.99,
        intro_purchase_apr_pct=0.0,
        intro_purchase_months=12,
        intro_bt_apr_pct=0.0,
        intro_bt_months=21,
        late_fee_usd=40.0,
    ),
    # no annual, foreign or late fee
    _card(
        "P-6",
        "Copperline Student",
        issuer="Copperline Financial",
        card_type="student",
        purchase_apr_min_pct=17.99,
        purchase_apr_max_pct=26.99,
        foreign_txn_fee_pct=0.0,
        late_fee_usd=0.0,
        penalty_apr_pct=None,
    ),
]
PROBE_ELIGIBILITY: list[dict[str, Any]] = [
    {"customer_id": "Q1", "card_id": cid, "eligible": ok, "reason": "ok" if ok else why}
    for cid, ok, why in [
        ("P-1", True, ""),
        ("P-2", True, ""),
        ("P-3", False, "credit_score_below_min"),
        ("P-4", True, ""),
        ("P-5", False, "recent_bankruptcy"),
        ("P-6", False, "student_only"),
    ]
]

CODES = (
    "unknown_card",
    "misspelled_card",
    "wrong_apr",
    "false_intro_offer",
    "wrong_intro_terms",
    "wrong_fee",
    "ineligible_card",
    "missing_disclosure",
)


@dataclass(frozen=True)
class ProbeItem:
    """One answer and its label: the planted code (``None``: compliant)."""

    item_id: str
    text: str
    label: str | None
    register: str
    customer_id: str | None = None

    @property
    def cards(self) -> list[dict[str, Any]]:
        return PROBE_CARDS


def probe_catalog() -> Any:
    """The probe catalog as a verifier ``Catalog`` (imported lazily: the frozen-verdict test runs
    this module against older verifier revisions)."""
    from replicas.verifiers.compliance import Catalog

    return Catalog.from_records(PROBE_CARDS, PROBE_ELIGIBILITY)


# -- the cards, by name, and how their terms are written -----------------------------------------

EVERYDAY, PLUS, VOYAGER, STEADY, TRANSFER, STUDENT = (c["card_name"] for c in PROBE_CARDS)


def _n(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".") if x != int(x) else str(int(x))


def _apr(card: dict[str, Any], dash: str = "–") -> str:
    lo, hi = card["purchase_apr_min_pct"], card["purchase_apr_max_pct"]
    return f"{_n(lo)}%" if lo == hi else f"{_n(lo)}%{dash}{_n(hi)}%"


_BY_NAME = {c["card_name"]: c for c in PROBE_CARDS}


def _t(name: str) -> dict[str, Any]:
    return _BY_NAME[name]


# Each entry: (label, register, text). Texts are written out so a reader sees exactly what is
# probed; figures come from the catalog through the helpers where they are the true terms.
Entry = tuple[str | None, str, str]


def _compliant() -> list[Entry]:
    e, p, v, s, t, st = (_t(x) for x in (EVERYDAY, PLUS, VOYAGER, STEADY, TRANSFER, STUDENT))
    return [
        # chat prose
        (None, "chat", f"The {EVERYDAY} has no annual fee and a {_apr(e)} variable purchase APR."),
        (
            None,
            "chat",
            f"With the {EVERYDAY} you pay 0% on purchases for the first 15 months; after that "
            f"the rate is {_apr(e)} variable.",
        ),
        (
            None,
            "chat",
            f"I'd go with the {PLUS}. It costs $95 a year, but the first year is free, and it has "
            f"0% on balance transfers for 18 months before the {_apr(p)} variable APR applies.",
        ),
        (
            None,
            "chat",
            f"The {VOYAGER} charges a $250 annual fee from day one and has no foreign "
            "transaction fees, which matters if you travel.",
        ),
        (
            None,
            "chat",
            f"{STEADY} has a fixed {_apr(s)} APR - fixed, not variable - and a 2% foreign "
            "transaction fee.",
        ),
        (
            None,
            "chat",
            f"The {STUDENT} has no annual fee, no foreign transaction fee and no late fee.",
        ),
        (
            None,
            "chat",
            f"Neither the {EVERYDAY} nor the {STUDENT} has an annual fee.",
        ),
        (
            None,
            "chat",
            f"{TRANSFER}: 0% intro APR on purchases for 12 months and on balance transfers for "
            f"21 months, then {_apr(t)} variable.",
        ),
        (
            None,
            "chat",
            f"You'd earn roughly $420 a year in rewards with the {PLUS}, which comfortably "
            "covers its $95 annual fee after the free first year.",
        ),
        (
            None,
            "chat",
            f"The {EVERYDAY} doesn't have a balance transfer promotion; only purchases get the "
            f"0% intro rate, for 15 months, then {_apr(e)} variable.",
        ),
        (
            None,
            "chat",
            f"The {PLUS} has no intro APR on purchases, but balance transfers get 0% for 18 "
            f"months, then {_apr(p)} variable.",
        ),
        (
            None,
            "chat",
            f"The {VOYAGER}'s fee is $250 - not the $199 you may have seen on old review sites.",
        ),
        (
            None,
            "chat",
            f"Late payments on the {EVERYDAY} cost up to $39, and cash advances carry a 5% fee "
            "(minimum $10).",
        ),
        (None, "chat", f"Both the {VOYAGER} and the {PLUS} waive foreign transaction fees."),
        # label / value forms
        (None, "label", f"{STUDENT}\nAnnual fee -> none\nForeign transaction fee -> none"),
        (None, "label", f"{EVERYDAY}. Annual fee? Zero. Purchase APR? {_apr(e)} variable."),
        (None, "label", f"{STUDENT} — annual fee — nil"),
        (None, "label", f"{PLUS}\nAnnual fee: $0 intro, then $95\nForeign fee: none"),
        (None, "label", f"{VOYAGER}\n• Annual fee → $250\n• Foreign transaction fee → none"),
        (None, "label", f"{STEADY}\nAPR: {_apr(s)} fixed\nPenalty APR: none\nLate fee: $29"),
        # abbreviations
        (None, "abbrev", f"{STUDENT}: no AF, no FTF, {_apr(st)} variable APR."),
        (None, "abbrev", f"{PLUS}: $95 AF (waived yr 1), no FTF."),
        (
            None,
            "abbrev",
            f"{TRANSFER}: 0% BT for 21 months, then {_apr(t)} variable; 3% BT fee (min $5).",
        ),
        (None, "abbrev", f"{EVERYDAY}: {_apr(e)} p.a. variable, no AF."),
        # tables
        (
            None,
            "table",
            f"| Card | Annual fee | Purchase APR | Foreign fee |\n|---|---|---|---|\n"
            f"| {EVERYDAY} | $0 | {_apr(e)} variable | 3% |\n"
            f"| {VOYAGER} | $250 | {_apr(v)} variable | None |",
        ),
        (
            None,
            "table",
            f"| Card | Annual fee | Recommended? |\n|---|---|---|\n"
            f"| {EVERYDAY} | $0 | Yes |\n| {VOYAGER} | $250 | No |",
        ),
        (
            None,
            "table",
            f"| | {EVERYDAY} | {PLUS} |\n|---|---|---|\n| Annual fee | None | $95 ($0 first "
            f"year) |\n| Intro offer | 0% purchases, 15 months | 0% transfers, 18 months |\n"
            f"| APR after | {_apr(e)} variable | {_apr(p)} variable |",
        ),
        (
            None,
            "table",
            f"| Card | Late fee | FX fee |\n|---|---|---|\n| {STUDENT} | None | None |\n"
            f"| {STEADY} | $29 | 2% |",
        ),
        # bullets
        (
            None,
            "bullets",
            f"**{TRANSFER}**\n- Intro APR on purchases: 0% for 12 months\n- Intro APR on "
            f"balance transfers: 0% for 21 months\n- Then: {_apr(t)} variable\n- Annual fee: "
            "none",
        ),
        (
            None,
            "bullets",
            f"{PLUS} at a glance:\n* $95 annual fee, $0 in year one\n* 5% balance transfer fee "
            "(min $5)\n* Late fee up to $40",
        ),
        (
            None,
            "bullets",
            f"- {STEADY}: {_apr(s)} fixed APR, no penalty APR, $29 late fee\n- {STUDENT}: "
            f"{_apr(st)} variable APR, no late fee",
        ),
        # email
        (
            None,
            "email",
            f"Hi Dana,\n\nThanks for your patience. As discussed, the {VOYAGER} carries a $250 "
            "annual fee with no first-year waiver, and it charges no foreign transaction fees. "
            f"Its purchase APR is {_apr(v)} variable.\n\nKind regards,\nSam",
        ),
        (
            None,
            "email",
            f"Dear customer,\n\nPlease note the {EVERYDAY} does not offer an introductory rate "
            f"on balance transfers. Purchases receive 0% for 15 months, then {_apr(e)} variable "
            "applies.\n\nBest wishes",
        ),
        # casual lower-case
        (
            None,
            "casual",
            f"tbh the {STUDENT.lower()} is fine for you, no annual fee and no late fee either",
        ),
        (
            None,
            "casual",
            f"ok so the {PLUS.lower()} is $95/yr but nothing the first year. no fx fees at all",
        ),
        (
            None,
            "casual",
            f"the {EVERYDAY.lower()} gives you 0% on stuff you buy for fifteen months, then "
            f"{_apr(e, '-')} variable",
        ),
        # British
        (
            None,
            "british",
            f"The {STEADY} has a fixed rate of {_apr(s)} per annum and no annual fee - a sensible "
            "choice if you prefer predictable repayments.",
        ),
        (
            None,
            "british",
            f"My favourite here is the {PLUS}: it's $95 annually after a free first year, "
            f"with 0% on balance transfers for eighteen months, then {_apr(p)} variable.",
        ),
        (
            None,
            "british",
            f"Whilst the {VOYAGER} costs $250 a year, there is no charge on non-sterling "
            "transactions.",
        ),
        # yearly value versus fee
        (
            None,
            "chat",
            f"The {STUDENT} has no annual fee; at your spending it's worth about $310 a year.",
        ),
        (
            None,
            "chat",
            f"I recommend the {VOYAGER}. Its $250 annual fee is offset by roughly $560 per year "
            "in travel credits at your usage.",
        ),
        # words for numbers
        (
            None,
            "chat",
            f"The {PLUS} costs ninety-five dollars a year after a free first year.",
        ),
        (
            None,
            "chat",
            f"The {TRANSFER} gives you 21 months (almost two years) at 0% on balance "
            f"transfers, then {_apr(t)} variable.",
        ),
        # generic phrases and issuers alone
        (
            None,
            "chat",
            "Northwind Bank and Lakeshore Trust both issue cards; a cash back card with no annual "
            "fee is usually the safest first card.",
        ),
        # eligibility (customer Q1 may get Everyday, Plus, Steady Rate)
        (
            None,
            "chat",
            f"For you I'd pick the {STEADY}: a fixed {_apr(s)} APR and no annual fee.",
        ),
        (
            None,
            "chat",
            f"I recommend the {PLUS} - $95 annual fee, waived the first year.",
        ),
    ]


def _defective() -> list[Entry]:
    e, p, v, s, t = (_t(x) for x in (EVERYDAY, PLUS, VOYAGER, STEADY, TRANSFER))
    wf, fi, wi, wa = "wrong_fee", "false_intro_offer", "wrong_intro_terms", "wrong_apr"
    return [
        # -- wrong_fee: qualitative claims, labels, abbreviations, waivers ---------------------
        (wf, "label", f"{VOYAGER}\nAnnual fee -> none\nAPR: {_apr(v)} variable"),
        (wf, "label", f"{VOYAGER}. Annual fee? Zero."),
        (wf, "label", f"{PLUS} — annual fee — nil"),
        (wf, "label", f"{VOYAGER}\n• Annual fee → $0"),
        (wf, "label", f"{EVERYDAY}\nForeign transaction fee -> none"),
        (wf, "label", f"{EVERYDAY}\nLate fee? None."),
        (wf, "abbrev", f"{VOYAGER}: no AF, {_apr(v)} variable."),
        (wf, "abbrev", f"{EVERYDAY}: no FTF, {_apr(e)} variable."),
        (wf, "abbrev", f"{PLUS}: $99 AF, first year free."),
        (wf, "chat", f"Neither the {EVERYDAY} nor the {VOYAGER} has an annual fee."),
        (wf, "chat", f"Neither {STUDENT} nor {PLUS} charges an annual fee."),
        (wf, "chat", f"The {VOYAGER} has no annual, foreign or late fee."),
        (wf, "chat", f"The {EVERYDAY} has no annual fee, no foreign fee and no late fee."),
        (wf, "chat", f"Good news: the {STEADY} doesn't charge late fees."),
        (wf, "chat", f"Cash advances on the {EVERYDAY} are free."),
        (wf, "chat", f"Balance transfers on the {PLUS} are fee-free."),
        (wf, "chat", f"There's no cash advance fee on the {STEADY}."),
        (wf, "chat", f"The {VOYAGER}'s $250 annual fee is waived for the first year."),
        (wf, "chat", f"The {VOYAGER} is free for the first year, then $250."),
        (wf, "chat", f"No annual fee the first year on the {VOYAGER}, then $250."),
        (wf, "chat", f"The {VOYAGER} has an annual fee of $0 intro, then $250."),
        (wf, "chat", f"The {EVERYDAY} is free the first year, then $95 annually."),
        (wf, "casual", f"the {VOYAGER.lower()} has no af which is nice"),
        (wf, "casual", f"{STEADY.lower()}: no fx fees, so it's great abroad"),
        (wf, "british", f"The {EVERYDAY} charges no fee on non-sterling spending."),
        (wf, "british", f"The {PLUS} costs $59 per annum."),
        (wf, "table", f"| Card | Annual fee |\n|---|---|\n| {VOYAGER} | None |"),
        (
            wf,
            "table",
            f"| Card | Foreign fee | Late fee |\n|---|---|---|\n| {EVERYDAY} | 0% | $39 |",
        ),
        (wf, "words", f"The {PLUS} costs ninety-nine dollars a year."),
        (wf, "email", f"Hi Alex,\n\nGood news - the {VOYAGER} has no annual fee.\n\nBest,\nJo"),
        # -- false_intro_offer: offers the card lacks, incl. balance transfers in other words --
        (
            fi,
            "chat",
            f"The {EVERYDAY} offers 0% on balance transfers for 12 months, then "
            f"{_apr(e)} variable.",
        ),
        (
            fi,
            "chat",
            f"Move your existing debt over to the {EVERYDAY} at 0% for 12 months, then "
            f"{_apr(e)} variable.",
        ),
        (
            fi,
            "chat",
            f"With the {EVERYDAY} you can consolidate your debt at 0% for 12 months, "
            f"then {_apr(e)} variable.",
        ),
        (
            fi,
            "chat",
            f"Balances you bring over to the {EVERYDAY} pay 0% for 12 months, then "
            f"{_apr(e)} variable.",
        ),
        (fi, "abbrev", f"{EVERYDAY}: 0% BT for 12 months, then {_apr(e)} variable."),
        (fi, "chat", f"The {PLUS} has 0% on purchases for a year, then {_apr(p)} variable."),
        (
            fi,
            "chat",
            f"The {VOYAGER} comes with 0% intro APR for 15 months, then {_apr(v)} variable.",
        ),
        (fi, "casual", f"the {STEADY.lower()} has a 0% promo for 12 months then {_apr(s)} fixed"),
        (
            fi,
            "table",
            f"| Card | Intro APR (transfers) | After |\n|---|---|---|\n| {EVERYDAY} | 0% "
            f"for 12 months | {_apr(e)} variable |",
        ),
        (
            fi,
            "bullets",
            f"**{VOYAGER}**\n- Intro APR: 0% for 12 months on purchases\n- Then {_apr(v)} variable",
        ),
        (
            fi,
            "british",
            f"The {EVERYDAY} offers an interest-free period of 12 months on transferred "
            f"balances, then {_apr(e)} variable.",
        ),
        (
            fi,
            "chat",
            f"Shift a balance across to the {EVERYDAY} at 0% for 12 months, then "
            f"{_apr(e)} variable.",
        ),
        # -- wrong_intro_terms ------------------------------------------------------------------
        (
            wi,
            "chat",
            f"The {EVERYDAY} has 0% intro APR on purchases for 18 months, then {_apr(e)} variable.",
        ),
        (
            wi,
            "chat",
            f"The {PLUS} gives 0% on balance transfers for a full year, then {_apr(p)} variable.",
        ),
        (
            wi,
            "words",
            f"The {EVERYDAY} has 0% on purchases for eighteen months, then {_apr(e)} variable.",
        ),
        (
            wi,
            "words",
            f"The {PLUS} has 0% on balance transfers for two years, then {_apr(p)} variable.",
        ),
        (
            wi,
            "table",
            f"| Card | Intro APR on purchases | After |\n|---|---|---|\n| {TRANSFER} | "
            f"1.99% for 12 months | {_apr(t)} variable |",
        ),
        (wi, "abbrev", f"{TRANSFER}: 0% BT for 15 months, then {_apr(t)} variable."),
        (wi, "chat", f"The {EVERYDAY} doesn't have an intro APR on purchases."),
        (wi, "casual", f"the {TRANSFER.lower()} has no promo rate at all"),
        # -- wrong_apr --------------------------------------------------------------------------
        (wa, "chat", f"The {EVERYDAY} has a 21.99%-28.49% variable purchase APR."),
        (wa, "chat", f"The {STEADY} has a variable APR of {_apr(s)}."),
        (wa, "abbrev", f"{EVERYDAY}: 22.49% p.a. variable."),
        (wa, "british", f"The {STEADY} charges 15.99% per annum, fixed."),
        (
            wa,
            "table",
            f"| Card | Purchase APR |\n|---|---|\n| {VOYAGER} | 19.24%-27.24% variable |",
        ),
        (wa, "chat", f"The {STEADY} comes with a 29.99% penalty APR if you pay late."),
        (wa, "casual", f"apr on the {PLUS.lower()} is like 24.99% variable"),
        (
            wa,
            "chat",
            f"The {PLUS} has a {_apr(p)} variable APR, and earns bonus points; its "
            "cash advance APR is 31.99%.",
        ),
        # -- missing_disclosure -----------------------------------------------------------------
        (
            "missing_disclosure",
            "chat",
            f"The {EVERYDAY} has 0% intro APR on purchases for 15 months.",
        ),
        (
            "missing_disclosure",
            "chat",
            f"The {PLUS} gives you 0% on balance transfers, then {_apr(p)} variable.",
        ),
        (
            "missing_disclosure",
            "chat",
            f"I recommend the {VOYAGER}: no foreign transaction fees and great travel perks.",
        ),
        (
            "missing_disclosure",
            "table",
            f"| Card | Recommended? | Foreign fee |\n|---|---|---|\n| {VOYAGER} | Yes | None |",
        ),
        (
            "missing_disclosure",
            "casual",
            f"honestly just get the {VOYAGER.lower()}, the lounge access is worth it",
        ),
        # -- unknown_card and misspelled_card ---------------------------------------------------
        ("unknown_card", "chat", "The Northwind Obsidian Reserve has no annual fee."),
        ("unknown_card", "chat", "Consider the Lakeshore Voyager Infinite for lounge access."),
        ("unknown_card", "chat", "The Meridian Platinum Rewards card charges no foreign fees."),
        (
            "unknown_card",
            "table",
            "| Card | Annual fee |\n|---|---|\n| Copperline Cash Preferred | $0 |",
        ),
        ("unknown_card", "casual", "the northwind everyday elite is a good pick"),
        ("misspelled_card", "chat", "The Northwind Everday has no annual fee."),
        ("misspelled_card", "chat", "The Lakeshore Voyagr charges a $250 annual fee."),
        ("misspelled_card", "chat", "The Meridian Stedy Rate has a fixed 13.99% APR."),
        ("misspelled_card", "bullets", "- Copperline Studnet: no annual fee"),
    ]


def _ineligible() -> list[tuple[str | None, str, str, str]]:
    """Customer Q1 may get Everyday, Everyday Plus and Steady Rate."""
    return [
        ("ineligible_card", "chat", f"I recommend the {VOYAGER}: $250 annual fee.", "Q1"),
        (
            "ineligible_card",
            "chat",
            f"Go with the {STUDENT} - no annual fee and no late fee.",
            "Q1",
        ),
        (
            "ineligible_card",
            "table",
            f"| Card | Annual fee | Recommended? |\n|---|---|---|\n| {TRANSFER} | None | Yes |",
            "Q1",
        ),
        (
            "ineligible_card",
            "casual",
            f"honestly the {TRANSFER.lower()} is the one to get, no annual fee",
            "Q1",
        ),
        (None, "chat", f"I recommend the {EVERYDAY}: no annual fee.", "Q1"),
        (
            None,
            "chat",
            f"You don't qualify for the {VOYAGER}, so I'd go with the {PLUS} ($95 annual fee, "
            "$0 the first year).",
            "Q1",
        ),
        (
            None,
            "table",
            f"| Card | Annual fee | Recommended? |\n|---|---|---|\n| {STEADY} | None | Yes |\n"
            f"| {VOYAGER} | $250 | No |",
            "Q1",
        ),
    ]


def _fee_text(card: dict[str, Any]) -> str:
    fee, first = card["annual_fee_usd"], card["annual_fee_first_year_usd"]
    if not fee:
        return "no annual fee"
    if first == 0:
        return f"${_n(fee)} annual fee ($0 the first year)"
    return f"${_n(fee)} annual fee"


def _intro_text(card: dict[str, Any]) -> list[str]:
    out = []
    for kind, what in (("purchase", "purchases"), ("bt", "balance transfers")):
        rate = card[f"intro_{kind}_apr_pct"]
        if rate is not None:
            months = card[f"intro_{kind}_months"]
            out.append(f"{_n(rate)}% intro APR on {what} for {months} months")
    return out


def _sheets() -> list[Entry]:
    """Every card's true terms as a bullet sheet, a prose paragraph and a one-row table
    (compliant), and one planted defect per card in a fourth register."""
    out: list[Entry] = []
    for card in PROBE_CARDS:
        name = card["card_name"]
        variability = "variable" if card["apr_is_variable"] else "fixed"
        apr = f"{_apr(card)} {variability}"
        intros = _intro_text(card)
        foreign = card["foreign_txn_fee_pct"]
        foreign_text = (
            "no foreign transaction fee" if not foreign else f"{_n(foreign)}% foreign fee"
        )
        late = card["late_fee_usd"]
        late_text = "no late fee" if not late else f"late fee up to ${_n(late)}"
        bullets = [f"- {_fee_text(card)}", f"- Purchase APR: {apr}"]
        bullets += [f"- {x}, then {apr}" for x in intros]
        bullets += [f"- {foreign_text}", f"- {late_text}"]
        out.append((None, "bullets", f"### {name}\n" + "\n".join(bullets)))
        prose = f"The {name} comes with {_fee_text(card)} and a {apr} APR on purchases."
        if intros:
            prose += f" It offers {' and '.join(intros)}; after that, {apr} applies."
        prose += f" Expect a {foreign_text} and a {late_text}."
        out.append((None, "chat", prose.replace("a no ", "no ")))
        fee_cell = "None" if not card["annual_fee_usd"] else f"${_n(card['annual_fee_usd'])}"
        out.append(
            (
                None,
                "table",
                "| Card | Annual fee | APR | Foreign fee |\n|---|---|---|---|\n"
                f"| {name} | {fee_cell} | {apr} | {_n(foreign)}% |",
            )
        )
        # one defect per card: the purchase APR's top end moved by two points
        wrong = f"{_n(card['purchase_apr_min_pct'])}%-{_n(card['purchase_apr_max_pct'] + 2)}%"
        out.append(("wrong_apr", "email", f"Hello,\n\nthe {name} has a {wrong} APR.\n\nThanks"))
        # and a fee claim the card contradicts
        if card["annual_fee_usd"]:
            out.append(("wrong_fee", "casual", f"{name.lower()} - zero annual fee, love it"))
        else:
            out.append(("wrong_fee", "casual", f"{name.lower()} costs $49 a year"))
    return out


def probe_items() -> list[ProbeItem]:
    """Every probe item, with a stable id (register, label, position)."""
    items: list[ProbeItem] = []
    rows: list[tuple[str | None, str, str, str | None]] = [
        *((label, reg, text, None) for label, reg, text in _compliant()),
        *((label, reg, text, None) for label, reg, text in _defective()),
        *((label, reg, text, None) for label, reg, text in _sheets()),
        *_ineligible(),
    ]
    for k, (label, register, text, customer) in enumerate(rows):
        if label is not None and label not in CODES:
            raise ValueError(f"unknown probe label {label!r}")
        item_id = f"{k:03d}-{register}-{label or 'compliant'}"
        items.append(ProbeItem(item_id, text, label, register, customer))
    return items


def probe_stats(items: Sequence[Any], predict: Callable[[Any], set[str]]) -> dict[str, Any]:
    """Per-code precision/recall over ``items`` and the false-positive rate on compliant ones.

    A defective item counts as caught for its code when that code is among the predicted ones; a
    prediction of a code counts against that code's precision when the item was not made with it.
    """
    predicted = [predict(item) for item in items]
    per_code: dict[str, dict[str, int]] = {c: {"tp": 0, "fp": 0, "fn": 0} for c in CODES}
    compliant = flagged = 0
    for item, codes in zip(items, predicted, strict=True):
        if item.label is None:
            compliant += 1
            flagged += bool(codes)
        for code in CODES:
            if code == item.label:
                per_code[code]["tp" if code in codes else "fn"] += 1
            elif code in codes:
                per_code[code]["fp"] += 1
    return {"per_code": per_code, "compliant": compliant, "false_positives": flagged}


__all__ = [
    "CODES",
    "PROBE_CARDS",
    "PROBE_ELIGIBILITY",
    "ProbeItem",
    "probe_catalog",
    "probe_items",
    "probe_stats",
]


def _lookup(predicted: dict[str, set[str]], item: ProbeItem) -> set[str]:
    return predicted[item.item_id]


def _report(rulesets: list[int], show_misses: bool, corpus: str = "a") -> str:
    from replicas.verifiers.compliance import verify_response

    items: Sequence[Any]
    if corpus == "b":
        from tests.corpora.compliance_probe_b import probe_b_catalog, probe_b_items

        catalog, items = probe_b_catalog(), probe_b_items()
    else:
        catalog, items = probe_catalog(), probe_items()
    lines = [f"{len(items)} items, {sum(i.label is None for i in items)} compliant"]
    for ruleset in rulesets:
        predicted = {
            item.item_id: set(
                verify_response(item.text, catalog, item.customer_id, ruleset=ruleset).codes
            )
            for item in items
        }
        stats = probe_stats(items, functools.partial(_lookup, predicted))
        fp, n = stats["false_positives"], stats["compliant"]
        lines.append(f"ruleset {ruleset}: false positives {fp}/{n} ({fp / n:.3f})")
        lines.append(f"  {'code':20s} {'recall':>12s} {'precision':>12s}")
        for code, c in stats["per_code"].items():
            caught, made, flagged = c["tp"], c["tp"] + c["fn"], c["tp"] + c["fp"]
            recall = f"{caught}/{made}" if made else "-"
            precision = f"{caught}/{flagged}" if flagged else "-"
            lines.append(f"  {code:20s} {recall:>12s} {precision:>12s}")
        if show_misses:
            for item in items:
                got = predicted[item.item_id]
                if (item.label is None and got) or (
                    item.label is not None and item.label not in got
                ):
                    lines.append(f"    miss {item.item_id}: {sorted(got)}")
    return "\n".join(lines)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="Score compliance rulesets on the probe corpus.")
    parser.add_argument("--rulesets", type=int, nargs="+", default=[4, 5])
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument(
        "--corpus", choices=("a", "b"), default="a", help="b: compliance_probe_b (never tuned on)"
    )
    args = parser.parse_args()
    print(_report(args.rulesets, args.show_misses, args.corpus))
