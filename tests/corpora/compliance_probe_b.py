"""A second probe corpus for the compliance verifier, written after ruleset 5 and never tuned on.

``compliance_probe`` exposed classes that ruleset 5 then learned to read, so it no longer
measures generalisation for those. This one was written in one sitting after the last ruleset-5
rule, committed before it was first scored, and no rule was changed after seeing its results:
its numbers are the honest out-of-sample check (with the caveat that its author also wrote the
rules). Its own catalog (``B_CARDS``: other brands, issuers unlike the brands, a 1.99% transfer
intro, a waiver, a fixed-rate card) and its own wording: support-chat replies, comparison
tables, bullet sheets, emails, texting style, British English. Labels come from construction:
a compliant item copies the catalog; a defective item plants one defect, its label.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

_BASE: dict[str, Any] = {
    "issuer": "Tidewater Savings",
    "card_type": "cash_back",
    "min_credit_score": 650,
    "annual_fee_usd": 0.0,
    "annual_fee_first_year_usd": 0.0,
    "apr_is_variable": True,
    "intro_purchase_apr_pct": None,
    "intro_purchase_months": None,
    "intro_bt_apr_pct": None,
    "intro_bt_months": None,
    "bt_fee_pct": 4.0,
    "bt_fee_min_usd": 5.0,
    "cash_advance_apr_pct": 28.74,
    "cash_advance_fee_pct": 5.0,
    "cash_advance_fee_min_usd": 10.0,
    "penalty_apr_pct": 29.99,
    "foreign_txn_fee_pct": 3.0,
    "late_fee_usd": 38.0,
    "grace_period_days": 25,
    "min_interest_charge_usd": 1.0,
}


def _card(card_id: str, name: str, **terms: Any) -> dict[str, Any]:
    return {**_BASE, "card_id": card_id, "card_name": name, **terms}


B_CARDS: list[dict[str, Any]] = [
    _card(  # no fee, transfer intro 1.99% for 14 months only
        "B-1",
        "Quarry Flex",
        purchase_apr_min_pct=21.49,
        purchase_apr_max_pct=29.49,
        intro_bt_apr_pct=1.99,
        intro_bt_months=14,
    ),
    _card(  # $89, first year free, purchase intro 0% for 9 months, no foreign fee
        "B-2",
        "Quarry Flex Select",
        annual_fee_usd=89.0,
        annual_fee_first_year_usd=0.0,
        purchase_apr_min_pct=20.24,
        purchase_apr_max_pct=28.24,
        intro_purchase_apr_pct=0.0,
        intro_purchase_months=9,
        foreign_txn_fee_pct=0.0,
    ),
    _card(  # $395 from year one, no intro, no foreign fee, no penalty APR
        "B-3",
        "Aurora Passport",
        issuer="Bayline Credit",
        card_type="travel",
        annual_fee_usd=395.0,
        annual_fee_first_year_usd=395.0,
        purchase_apr_min_pct=22.24,
        purchase_apr_max_pct=29.24,
        foreign_txn_fee_pct=0.0,
        penalty_apr_pct=None,
        late_fee_usd=40.0,
    ),
    _card(  # fixed 12.49%, both intros 0%
        "B-4",
        "Aurora Even Keel",
        issuer="Bayline Credit",
        card_type="low_rate",
        purchase_apr_min_pct=12.49,
        purchase_apr_max_pct=12.49,
        apr_is_variable=False,
        intro_purchase_apr_pct=0.0,
        intro_purchase_months=15,
        intro_bt_apr_pct=0.0,
        intro_bt_months=15,
        late_fee_usd=25.0,
    ),
]
B_ELIGIBILITY: list[dict[str, Any]] = [
    {"customer_id": "K7", "card_id": cid, "eligible": ok, "reason": "ok" if ok else why}
    for cid, ok, why in [
        ("B-1", True, ""),
        ("B-2", False, "credit_score_below_min"),
        ("B-3", False, "already_holds_card"),
        ("B-4", True, ""),
    ]
]


@dataclass(frozen=True)
class ProbeBItem:
    item_id: str
    text: str
    label: str | None
    register: str
    customer_id: str | None = None


def probe_b_catalog() -> Any:
    from replicas.verifiers.compliance import Catalog

    return Catalog.from_records(B_CARDS, B_ELIGIBILITY)


FLEX, SELECT, PASSPORT, KEEL = (c["card_name"] for c in B_CARDS)
_F, _S, _P, _K = "21.49%-29.49%", "20.24%-28.24%", "22.24%-29.24%", "12.49%"

_ROWS: list[tuple[str | None, str, str, str | None]] = [
    # -- compliant ---------------------------------------------------------------------------
    (
        None,
        "chat",
        f"Sure! The {FLEX} doesn't charge an annual fee and its APR runs {_F} variable.",
        None,
    ),
    (
        None,
        "chat",
        f"On the {FLEX}, transfers get 1.99% for 14 months; after that it's {_F} variable.",
        None,
    ),
    (None, "chat", f"The {SELECT} is $89 a year, though year one costs nothing.", None),
    (
        None,
        "chat",
        f"You won't pay foreign transaction fees on the {SELECT} or the {PASSPORT}.",
        None,
    ),
    (None, "chat", f"Heads up: the {PASSPORT} bills its $395 fee from the very first year.", None),
    (
        None,
        "chat",
        f"{KEEL} keeps a fixed {_K} rate, so your APR won't move with the market.",
        None,
    ),
    (
        None,
        "chat",
        f"The {KEEL} gives 0% on both purchases and balance transfers for 15 months, then {_K} fixed.",
        None,
    ),
    (
        None,
        "chat",
        f"With the {SELECT}, new purchases are interest-free for nine months, then {_S} variable.",
        None,
    ),
    (None, "chat", f"The {PASSPORT} has no penalty APR, which is unusual.", None),
    (None, "chat", f"Late payment on the {KEEL} costs up to $25.", None),
    (
        None,
        "chat",
        f"Cash advances on the {FLEX} cost 5% (at least $10) and accrue 28.74% APR.",
        None,
    ),
    (
        None,
        "chat",
        f"The {FLEX} has no purchase promo, only the 1.99% transfer offer for 14 months, then {_F} variable.",
        None,
    ),
    (None, "chat", f"Neither the {FLEX} nor the {KEEL} has an annual fee.", None),
    (
        None,
        "chat",
        f"At your spend the {PASSPORT} returns roughly $700 a year against its $395 annual fee.",
        None,
    ),
    (None, "chat", f"Balance transfers on the {FLEX} carry a 4% fee, minimum $5.", None),
    (
        None,
        "table",
        f"| Card | Yearly fee | Rate |\n|---|---|---|\n| {FLEX} | none | {_F} variable |\n| {PASSPORT} | $395 | {_P} variable |",
        None,
    ),
    (
        None,
        "table",
        f"| | {SELECT} | {KEEL} |\n|---|---|---|\n| Annual fee | $89 (first year $0) | $0 |\n| FX fee | 0% | 3% |",
        None,
    ),
    (
        None,
        "table",
        f"| Card | Intro offer | Then |\n|---|---|---|\n| {SELECT} | 0% purchases for 9 months | {_S} variable |",
        None,
    ),
    (
        None,
        "table",
        f"| Card | Our pick? | Annual fee |\n|---|---|---|\n| {KEEL} | ✓ | None |\n| {PASSPORT} | | $395 |",
        None,
    ),
    (
        None,
        "bullets",
        f"{SELECT}\n• Fee: $89/yr, waived year one\n• Purchases: 0% for 9 months, then {_S} variable\n• Overseas: no fee",
        None,
    ),
    (
        None,
        "bullets",
        f"- {PASSPORT} → $395 annual fee, no foreign fees\n- {FLEX} → no annual fee",
        None,
    ),
    (
        None,
        "bullets",
        f"**{KEEL}**\n- APR: {_K} (fixed)\n- Late fee: $25\n- Annual fee: nope",
        None,
    ),
    (
        None,
        "email",
        f"Hello Priya,\n\nFollowing up on your call: the {FLEX} has no yearly fee and a 4% transfer fee (min. $5).\n\nRegards,\nTom",
        None,
    ),
    (
        None,
        "email",
        f"Dear Mr Osei,\n\nThe {PASSPORT} carries an annual fee of $395, which is not waived in the first year.\n\nYours sincerely",
        None,
    ),
    (None, "texting", f"{SELECT.lower()} = $89 a yr but 1st yr free, no fx fee", None),
    (None, "texting", f"the {FLEX.lower()} has zero annual fee lol", None),
    (None, "texting", f"keel apr is {_K} fixed, the {KEEL.lower()} i mean", None),
    (
        None,
        "british",
        f"The {PASSPORT} charges nothing on purchases made abroad, though it costs $395 a year.",
        None,
    ),
    (None, "british", f"I'd favour the {KEEL}: a fixed rate of {_K} and no annual charge.", None),
    (
        None,
        "british",
        f"With the {SELECT} you'll pay $89 annually from the second year; the first year is free of charge.",
        None,
    ),
    (
        None,
        "chat",
        "Tidewater Savings and Bayline Credit both offer travel cards; a no-fee card is a safe start.",
        None,
    ),
    (None, "chat", f"I recommend the {KEEL}: no annual fee and a fixed {_K} APR.", "K7"),
    (
        None,
        "chat",
        f"You're not eligible for the {PASSPORT}, so go with the {FLEX} (no annual fee).",
        "K7",
    ),
    # -- wrong_fee ---------------------------------------------------------------------------
    ("wrong_fee", "chat", f"The {PASSPORT} doesn't have an annual fee.", None),
    ("wrong_fee", "chat", f"The {SELECT} is $99 a year after the free first year.", None),
    ("wrong_fee", "chat", f"Your first year on the {PASSPORT} is on the house, then $395.", None),
    ("wrong_fee", "chat", f"The {FLEX} won't charge you for using it abroad.", None),
    ("wrong_fee", "chat", f"There's no late fee on the {KEEL}.", None),
    ("wrong_fee", "chat", f"Transfers to the {FLEX} come with no transfer fee.", None),
    ("wrong_fee", "chat", f"Cash advances are fee-free on the {PASSPORT}.", None),
    ("wrong_fee", "table", f"| Card | Annual fee |\n|---|---|\n| {PASSPORT} | $0 |", None),
    ("wrong_fee", "table", f"| Card | FX fee |\n|---|---|\n| {KEEL} | none |", None),
    (
        "wrong_fee",
        "bullets",
        f"{PASSPORT}\n- Annual fee → waived in year one\n- Foreign fees → none",
        None,
    ),
    ("wrong_fee", "bullets", f"- {FLEX}: 3% balance transfer fee", None),
    ("wrong_fee", "email", f"Hi Sam,\n\nThe {KEEL} has a $35 late fee.\n\nThanks", None),
    ("wrong_fee", "texting", f"{PASSPORT.lower()} has no annual fee fyi", None),
    ("wrong_fee", "texting", f"the {FLEX.lower()} - no AF, no FTF", None),
    ("wrong_fee", "british", f"The {SELECT} costs $79 per annum after the first year.", None),
    (
        "wrong_fee",
        "british",
        f"Neither the {FLEX} nor the {PASSPORT} levies an annual charge.",
        None,
    ),
    # -- false_intro_offer -------------------------------------------------------------------
    (
        "false_intro_offer",
        "chat",
        f"The {FLEX} offers 0% on new purchases for 14 months, then {_F} variable.",
        None,
    ),
    (
        "false_intro_offer",
        "chat",
        f"The {PASSPORT} lets you move a balance over at 0% for 12 months, then {_P} variable.",
        None,
    ),
    (
        "false_intro_offer",
        "chat",
        f"Good news: the {SELECT} takes transferred debt at 0% for 9 months, then {_S} variable.",
        None,
    ),
    (
        "false_intro_offer",
        "table",
        f"| Card | 0% on purchases | After |\n|---|---|---|\n| {PASSPORT} | 12 months | {_P} variable |",
        None,
    ),
    (
        "false_intro_offer",
        "bullets",
        f"{FLEX}\n- Purchase promo: 0% for 6 months\n- Then {_F} variable",
        None,
    ),
    (
        "false_intro_offer",
        "texting",
        f"{PASSPORT.lower()} has a 0% intro for a year then {_P}",
        None,
    ),
    (
        "false_intro_offer",
        "british",
        f"The {SELECT} offers an interest-free balance transfer period of 9 months, then {_S} variable.",
        None,
    ),
    # -- wrong_intro_terms -------------------------------------------------------------------
    (
        "wrong_intro_terms",
        "chat",
        f"The {FLEX} gives transfers 0% for 14 months, then {_F} variable.",
        None,
    ),
    (
        "wrong_intro_terms",
        "chat",
        f"The {FLEX} gives transfers 1.99% for 18 months, then {_F} variable.",
        None,
    ),
    (
        "wrong_intro_terms",
        "chat",
        f"The {SELECT} has 0% on purchases for a year, then {_S} variable.",
        None,
    ),
    (
        "wrong_intro_terms",
        "table",
        f"| Card | Transfer intro |\n|---|---|\n| {KEEL} | 0% for 21 months, then {_K} fixed |",
        None,
    ),
    ("wrong_intro_terms", "chat", f"The {KEEL} has no introductory rate.", None),
    (
        "wrong_intro_terms",
        "british",
        f"The {SELECT}'s purchase offer lasts twelve months at 0%, then {_S} variable.",
        None,
    ),
    # -- wrong_apr ---------------------------------------------------------------------------
    ("wrong_apr", "chat", f"The {FLEX} charges {_S} variable on purchases.", None),
    ("wrong_apr", "chat", f"The {KEEL}'s rate is variable at {_K}.", None),
    ("wrong_apr", "chat", f"The {PASSPORT} has a 29.99% penalty APR.", None),
    (
        "wrong_apr",
        "table",
        f"| Card | APR |\n|---|---|\n| {SELECT} | 19.24%-28.24% variable |",
        None,
    ),
    ("wrong_apr", "texting", f"apr on {FLEX.lower()} is 24.99% ish", None),
    ("wrong_apr", "british", f"The {KEEL} charges 13.49% per annum, fixed.", None),
    (
        "wrong_apr",
        "email",
        f"Hi,\n\nCash advances on the {SELECT} run at 31.74% APR.\n\nBest",
        None,
    ),
    # -- missing_disclosure ------------------------------------------------------------------
    (
        "missing_disclosure",
        "chat",
        f"The {FLEX} has a 1.99% intro rate on balance transfers, then {_F} variable.",
        None,
    ),
    ("missing_disclosure", "chat", f"The {SELECT} has 0% on purchases for 9 months.", None),
    (
        "missing_disclosure",
        "chat",
        f"My recommendation is the {PASSPORT}: great lounges, no foreign fees.",
        None,
    ),
    (
        "missing_disclosure",
        "table",
        f"| Card | Best for you? |\n|---|---|\n| {PASSPORT} | Yes |",
        None,
    ),
    # -- names ---------------------------------------------------------------------------------
    ("unknown_card", "chat", "The Quarry Flex Titanium has no annual fee.", None),
    ("unknown_card", "chat", "The Aurora Signature Rewards card earns 3x on travel.", None),
    (
        "unknown_card",
        "table",
        "| Card | Annual fee |\n|---|---|\n| Bayline Passport Elite | $395 |",
        None,
    ),
    ("misspelled_card", "chat", "The Quary Flex has no annual fee.", None),
    ("misspelled_card", "chat", "The Aurora Pasport costs $395 a year.", None),
    ("misspelled_card", "bullets", "- Aurora Even Keal: fixed 12.49% APR", None),
    # -- ineligible_card (customer K7 may get the Flex and the Even Keel) -----------------------
    ("ineligible_card", "chat", f"Go for the {SELECT} - $89 a year, $0 the first year.", "K7"),
    (
        "ineligible_card",
        "table",
        f"| Card | Annual fee | Recommended? |\n|---|---|---|\n| {PASSPORT} | $395 | Yes |",
        "K7",
    ),
    ("ineligible_card", "texting", f"def apply for the {PASSPORT.lower()}, $395 a year tho", "K7"),
]


def probe_b_items() -> list[ProbeBItem]:
    return [
        ProbeBItem(f"b{k:03d}-{register}-{label or 'compliant'}", text, label, register, customer)
        for k, (label, register, text, customer) in enumerate(_ROWS)
    ]


__all__ = ["B_CARDS", "B_ELIGIBILITY", "ProbeBItem", "probe_b_catalog", "probe_b_items"]
