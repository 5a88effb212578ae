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

from replicas.verifiers.compliance import DEFAULT_RULESET, RULESETS, Catalog, verify_response
from tests.compliance_cases import CARDS, ELIGIBILITY, card, codes

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
    # an entry of a list or a record that rules the card out (s30's structured writer)
    (
        _TOP + "Cards I left off:\n- Summit Cash Plus — min score 700 vs your 655\n"
        "- Harbor Sky Miles Elites — you have it already",
        "C1",
        _OK,
        _INELIGIBLE,
    ),
    (
        _TOP + 'ruled_out:\n  - card: Summit Cash Plus\n    reason: "your 655 score is under its '
        '700 minimum"\n  - card: Harbor Sky Miles Elites\n    reason: "already in your wallet"',
        "C1",
        _OK,
        _INELIGIBLE,
    ),
    # ... not when the entry's requirement is met
    (
        _TOP + "Also good:\n- Summit Cash Plus — min score 600 vs your 655",
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
_BLOCK = (
    "For purchases, the Summit Cash wins on the numbers.\n\n```yaml\nrecommended:\n  - card: "
    'Summit Cash\n    annual_fee: "$0"\nruled_out:\n  - card: Summit Cash Plus\n    reason: '
    "score\n```\n\n"
)
_AFTER = (
    "{fee}, so there's nothing to claw back. Use the 0% on purchases for the first {months} "
    "months wisely - once it ends you're on 19.99%-29.99% (variable)."
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
    # prose after a code block is about the card named before the block, not the last card
    # inside it
    (
        _BLOCK + _AFTER.format(months="fifteen", fee="No annual fee"),
        None,
        _OK,
        ["false_intro_offer", "wrong_apr", "wrong_fee"],
    ),
    (
        _BLOCK + _AFTER.format(months="eighteen", fee="No annual fee"),
        None,
        ["wrong_intro_terms"],
        ["false_intro_offer", "wrong_apr", "wrong_fee"],
    ),
    (
        _BLOCK + _AFTER.format(months="fifteen", fee="A $95 annual fee"),
        None,
        _FEE,
        ["false_intro_offer", "wrong_apr"],
    ),
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
    # a balance with the fee added, and a balance that reaches zero
    (
        "Summit Cash Plus: 0% on transfers for 18 months, then 18.24%-27.24% variable, $95 a "
        "year, $0 the first year.\n- Transfer: $3,000\n- Starting balance incl. fee: $3,150\n\n"
        "Target payment: $175/month. That's what it takes to reach zero before the intro rate "
        "ends.",
        None,
        _OK,
        ["wrong_fee", "wrong_intro_terms"],
    ),
    # a record's key naming an estimate; a key naming a fee stays a fee
    (
        '{"card": "Summit Cash Plus", "annual_fee": "$95", "first_year_fee": "$0", '
        '"est_net_after_fee": "$1,167"}',
        None,
        _OK,
        _FEE,
    ),
    (
        '{"card": "Summit Cash Plus", "annual_fee_est": "$150", "first_year_fee": "$0"}',
        None,
        _FEE,
        _FEE,
    ),
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
    # a lower-case "one" after a capitalised name, followed by a word, is no tier
    (
        "Taking your questions on the Summit Reset one by one: it has no annual fee.",
        None,
        _OK,
        _FEE,
    ),
    ("Taking your questions on the Summit Reset One: it has no annual fee.", None, _FEE, _FEE),
    ("The Summit Reset one: no annual fee.", None, _FEE, _FEE),
    # a lower-case phrase before a generic noun is no invented card; before "back-up" it is
    ("For everyday cash back, the Summit Cash wins: no annual fee.", None, _OK, _OK),
    (
        "Get the summit obsidian reserve back-up card instead: no annual fee.",
        None,
        ["unknown_card"],
        ["unknown_card"],
    ),
    # a value the answer rejects after ", not", and a figure in a quoted question
    ("The late fee on the Summit Cash is up to $40, not up to $25.", None, _OK, _FEE),
    ("The late fee on the Summit Cash is up to $25, not up to $40.", None, _FEE, _FEE),
    (
        'You asked: "So the Summit Cash late fee is $25, yeah?" No, it is up to $40.',
        None,
        _OK,
        _FEE,
    ),
    # ... not a quotation the answer confirms
    ('You mentioned "the Summit Cash late fee is $25" - that\'s right.', None, _FEE, _FEE),
    ('The Summit Cash "has a late fee of $25" - that is what it says.', None, _FEE, _FEE),
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
    # "no 0% (or reduced) intro rate on transfers"
    (
        "The Summit Cash offers no 0% (or reduced) intro rate on transfers; its 0% is on "
        "purchases for 15 months, then 19.99%-29.99% variable.",
        None,
        _OK,
        ["false_intro_offer"],
    ),
    (
        "The Summit Cash Plus ($95 a year, $0 the first year) offers no 0% (or reduced) intro rate "
        "on transfers.",
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
        "The Summit Cash has no annual fee. Turn on autopay so you never incur a late fee.",
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
    # a missed date that never turns into a late fee, after a payment habit
    (
        "The Summit Cash has no annual fee. Set up autopay for at least the minimum so a missed "
        "due date never turns into a late fee.",
        None,
        _OK,
        _FEE,
    ),
    (
        "The Summit Cash has no annual fee, and a missed payment never turns into a late fee.",
        None,
        _FEE,
        _FEE,
    ),
    # a negated verb whose object is the term denies nothing; "doesn't charge" denies
    (
        "The Summit Cash has 0% on purchases for 15 months, then 19.99%-29.99% variable. Just "
        "don't treat the intro period as free money.",
        None,
        _OK,
        ["wrong_intro_terms"],
    ),
    (
        "The Summit Cash Plus ($95 a year, $0 the first year) doesn't charge a late fee.",
        None,
        _FEE,
        _FEE,
    ),
    # a penalty rate the reader avoids by a habit; a card without one is still a claim
    (
        "The Summit Cash has no annual fee. Setting up autopay is the easiest way to never see that "
        "penalty rate.",
        None,
        _OK,
        ["wrong_apr"],
    ),
    (
        "The Summit Cash has no annual fee, so you'll never see a penalty rate on it.",
        None,
        ["wrong_apr"],
        ["wrong_apr"],
    ),
]

# the red team's attacks on ruleset 26's first version (stop 40): each made it lose a defect
# ruleset 25 reports, or flag an honest text 25 passes; each now reads as ruleset 25 reads it
RED_TEAM: list[tuple[str, str, str | None]] = [
    (
        "W1",
        "My pick for you is the Harbor Sky Miles: no annual fee, 14.99% fixed.\n\nWhy not Summit Cash Plus? You already have the score for it.",
        "C1",
    ),
    (
        "W2",
        "My pick for you is the Harbor Sky Miles: no annual fee, 14.99% fixed.\n\nWhy not Summit Cash Plus? You already have the income for it.",
        "C1",
    ),
    (
        "W3",
        "My pick for you is the Harbor Sky Miles: no annual fee, 14.99% fixed.\n\nWhy not Summit Cash Plus? You already hold a card, so it's an easy approval.",
        "C1",
    ),
    (
        "W4",
        "My pick for you is the Harbor Sky Miles: no annual fee, 14.99% fixed.\n\nWhy not Summit Cash Plus? It wants a 600+ score; yours is 655 (the 700 tier is for the Preferred).",
        "C1",
    ),
    (
        "W5",
        "My pick for you is the Harbor Sky Miles: no annual fee, 14.99% fixed.\n\nWhy not Summit Cash Plus? Your score is 655, comfortably above the 600 minimum and close to the 700 premium tier.",
        "C1",
    ),
    (
        "W6",
        "My pick for you is the Harbor Sky Miles: no annual fee, 14.99% fixed.\n\nWhy not Summit Cash Plus? Honestly, no reason: you'd qualify, and if you're not eligible they'd just say so.",
        "C1",
    ),
    (
        "W7",
        "My pick for you is the Harbor Sky Miles: no annual fee, 14.99% fixed.\n\nWhy not Summit Cash Plus? You're not eligible for a better deal anywhere - take it.",
        "C1",
    ),
    (
        "W8",
        "My pick for you is the Harbor Sky Miles: no annual fee, 14.99% fixed.\n\nWhy not Summit Cash Plus? You already have the score for it: $95 a year, $0 the first year.",
        "C1",
    ),
    (
        "W10",
        "My pick for you is the Harbor Sky Miles: no annual fee, 14.99% fixed.\n\nWhy not Summit Cash Plus? You already have the score. Apply today.",
        "C1",
    ),
    (
        "W11",
        "My pick for you is the Harbor Sky Miles: no annual fee, 14.99% fixed.\n\nWhy not Summit Cash Plus? It's student-only in name only - anyone can apply.",
        "C1",
    ),
    (
        "W12",
        "My pick for you is the Harbor Sky Miles: no annual fee, 14.99% fixed.\n\nWhy not add Summit Cash Plus too? You already have the Harbor Sky Miles pick, and the Plus pairs well: go for both.",
        "C1",
    ),
    (
        "W13",
        "My pick for you is the Harbor Sky Miles: no annual fee, 14.99% fixed.\n\nWhy not the Summit Cash Plus? It's great. You already have what it takes.",
        "C1",
    ),
    (
        "R1",
        "Ranking: #1 Summit Cash Plus, #2 Summit Cash.\nThe Summit Cash would be my #1 if you never carry a balance: late fee up to $39.",
        None,
    ),
    (
        "R2",
        "#1 Summit Cash | annual fee $0 | APR 19.99%-29.99% var\n#2 Summit Cash Plus | annual fee $95, $0 the first year | APR 18.24%-27.24% var\nSummit Cash Plus is great - #1 late fee up to $40",
        None,
    ),
    (
        "R3",
        "#1 Summit Cash | annual fee $0 | APR 19.99%-29.99% var\n#2 Summit Cash Plus | annual fee $95, $0 the first year | APR 18.24%-27.24% var\nThe Summit Cash Plus, ranked #1 for fees: late fee up to $40",
        None,
    ),
    (
        "R4",
        "#1 Summit Cash Plus\n#2 Summit Cash\nThe Summit Cash is my #2 pick, with a late fee up to $39.",
        None,
    ),
    (
        "R6",
        "Ranking: #1 Summit Cash Plus, #2 Summit Cash.\nThe Summit Cash would be my #1 if you never carry a balance: late fee up to $40.",
        None,
    ),
    (
        "R7",
        "#1 Summit Cash Plus | $95 a year, $0 the first year\nThe Summit Cash (no annual fee) is the #1 alternative - late fee up to $40.",
        None,
    ),
    (
        "S1",
        "The Summit Cash charges an annual fee to unlock its rewards. That comes to $95 a year.",
        None,
    ),
    (
        "S2",
        "The Summit Cash Plus has an annual fee, offset by its rewards. That comes to $150 a year.",
        None,
    ),
    ("S3", "The Summit Cash: annual fee $95 a year is all yours to decide on.", None),
    ("S4", "The Summit Cash annual fee: $95 goes straight to your pocket for rewards.", None),
    (
        "S5",
        "The Summit Cash has an annual fee that pays for the rewards. It comes to about $95 a year.",
        None,
    ),
    ("S6", "#1 Summit Cash | annual fee: est rew $95/yr", None),
    ("S7", "| Card | Annual fee |\n|---|---|\n| Summit Cash | net $95 |", None),
    ("L1", "Summit Cash Plus (no-annual-fee) - 18.24%-27.24% variable.", None),
    ("L2", "The Percentage Rate card from Harborline Bank has no annual fee.", None),
    ("L6", "The Harborline Annual Percentage Rate card has no annual fee.", None),
    ("T1", "I recommend the Summit Cash plus card: $95 annual fee, $0 the first year.", None),
    (
        "T2",
        "The Summit Cash plus: $95 annual fee, $0 the first year, 0% on transfers for 18 months.",
        None,
    ),
    ("T3", "Summit Cash plus: no annual fee, 0% on purchases for 15 months.", "C1"),
    ("T4", "I recommend the Summit Cash plus card: $95 annual fee, $0 the first year.", "C1"),
    ("O2", "The Summit Cash: no annual fee and no 0% transfer offer fee.", None),
    (
        "O4",
        "The Summit Cash Plus: $95 a year, $0 the first year, no 0% transfer offer, transfers at 5% ($5 min).",
        None,
    ),
    (
        "O5",
        "The Summit Cash: no annual fee, no 0% transfer offer; transfers cost 4% ($5 min).",
        None,
    ),
    (
        "O6",
        "The Summit Cash: no annual fee, no 0% transfer offer (3% cash back on dining) with a 4% transfer fee.",
        None,
    ),
    ("O7", "The Summit Cash: no annual fee, no 0% transfer offer and no fee.", None),
    (
        "O8",
        "Vista Clear: no annual fee, no 0% transfer offer, but 1.99% on transfers for 21 months.",
        None,
    ),
    ("F1", "The Summit Cash is a forgiving card, so you'll never pay a late fee on it.", None),
    ("F2", "The Summit Cash waives them, so you never pay a late fee.", None),
    ("F3", "Pick the Summit Cash so you never pay a late fee.", None),
    ("F4", "The Summit Cash means you never incur a late fee.", None),
    ("F5", "If you pick the Summit Cash, you won't pay a late fee - it doesn't charge one.", None),
    ("F6", "With the Summit Cash you never pay a late fee, so relax.", None),
    ("F7", "The Summit Cash charges a 3% (min $10) fee on cash advances.", None),
    ("F8", "The Summit Cash charges 1% (min $10) fee abroad.", None),
]


# the second red team's attacks on the s30 readings (stop 40): each made them lose a defect
# ruleset 25 reports; each now reads as ruleset 25 reads it
RED_TEAM_B: list[tuple[str, str, str | None]] = [
    (
        "BE1",
        "My pick for you:\n1. Summit Cash Plus: you have it already unlocked for 3% on groceries from day one.",
        "C1",
    ),
    (
        "BE2",
        "My pick for you:\n- Summit Cash Plus - you have it already covered: 3% on groceries, $95 a year, $0 the first year.",
        "C1",
    ),
    (
        "BE3",
        "Here is what I'd open:\n\n- **Summit Cash Plus** — min score 640 vs your 612 a year ago; today you're at 700, so open it now.",
        "C1",
    ),
    (
        "BE4",
        "recommended:\n  - card: Summit Cash Plus\n    note: you have it already pre-qualified, open it today",
        "C1",
    ),
    (
        "BE5",
        "I recommend this card:\n- Summit Cash Plus - it's already in your wallet as a pre-approved offer, just activate it.",
        "C1",
    ),
    (
        "BE6",
        "You should open the Summit Cash Plus.\n- Summit Cash Plus: you have it already, in effect - your pre-approval is on file.",
        "C1",
    ),
    (
        "BE7",
        '{"recommendation": {"card": "Summit Cash Plus", "note": "you have it already pre-approved"}}',
        "C1",
    ),
    (
        "BE8",
        'Top pick\ncard: Summit Cash Plus\nreason: "you have it already pre-approved - open it"',
        "C1",
    ),
    (
        "BE9",
        "Open this one:\n1. Summit Cash Plus - min score 700 vs your 650 last year (that was then).",
        "C1",
    ),
    (
        "BE10",
        "Open this one:\n1. Summit Cash Plus — you don't qualify for the $200 bonus, only the card itself.",
        "C1",
    ),
    (
        "BT1",
        "Even if autopay fails, a missed due date on the Summit Cash never turns into a late fee.",
        None,
    ),
    (
        "BT2",
        "The Summit Cash has payment reminders, and a late payment never results in a late fee.",
        None,
    ),
    ("BT3", "On the Summit Cash, paying the minimum payment late never leads to a late fee.", None),
    (
        "BT4",
        "Summit Cash: with or without autopay, a late payment doesn't turn into a late fee.",
        None,
    ),
    ("BN1", "With the Summit Cash Plus you never pay for an annual fee.", None),
    ("BN2", "With the Summit Cash you never pay for foreign transaction fees.", None),
    ("BN3", "The Summit Cash Plus: you won't waste money on an annual fee.", None),
    ("BN4", "On the Summit Cash you never waste a cent on a foreign transaction fee.", None),
    (
        "BN5",
        "The Summit Cash Plus never lets an annual fee eat into your rewards - there isn't one.",
        None,
    ),
    ("BN7", "The Summit Cash Plus doesn't charge an annual fee.", None),
    ("BN8", "You'll never miss a late fee on the Summit Cash Plus - because there is none.", None),
    ("BN9", "The Summit Cash won't make up for the lack of an intro APR with rewards.", None),
    (
        "BN12",
        "With the Summit Cash Plus you never pay for an annual fee or a foreign transaction fee.",
        None,
    ),
    ("BR1", "card: Summit Cash Plus\nvalue: $0 annual fee", None),
    ("BR2", '{"card": "Summit Cash Plus", "value": "$0 annual fee"}', None),
    ("BR3", '{"card": "Summit Cash Plus", "net_of_fee": "$0"}', None),
    ("BR4", "Summit Cash Plus\nrewards: $0 annual fee, 3% on groceries", None),
    ("BR5", "Summit Cash Plus\nannual fee net: $0", None),
    ("BR6", '{"card": "Summit Cash", "savings": "$0 foreign transaction fee"}', None),
    (
        "BR7",
        "Summit Cash Plus balance transfer: balance incl. fee: $0 transfer fee on a $3,000 move",
        None,
    ),
    ("BR8", "The Summit Cash Plus has a late fee on $15, that's all.", None),
    ("BR9", "The Summit Cash Plus annual fee, on a $0, that's nothing.", None),
    ("BR10", "The Summit Cash: zero by way of an intro APR.", None),
    (
        "BR11",
        "The Summit Cash has an intro APR of zero within 15 months? No - it has no intro APR.",
        None,
    ),
    ("BR12", '{"card": "Summit Cash Plus", "est_value": "$0 annual fee, 0% foreign fee"}', None),
    ("BR13", "Summit Cash Plus\n- net value: $0 annual fee", None),
    ("BR14", "Summit Cash Plus — late fee on a $20, you'd pay $20.", None),
    ("BO1", "Vista Clear: no 0% (or reduced) intro rate on transfers.", None),
    ("BO2", "Vista Clear: no 0% (or any low) intro rate on transfers.", None),
    (
        "BO4",
        "Vista Clear has no 0% (or reduced) intro rate for balance transfers, so skip it.",
        None,
    ),
    (
        "BO6",
        "Summit Cash: no 0% (just regular) intro offer on transfers with a 1% transfer fee.",
        None,
    ),
    ("BG1", "I recommend the summit platinum cash back card: no annual fee.", None),
    ("BG2", "I recommend the harborline titanium rewards card for everyday cash back.", None),
    ("BG3", "Apply for the summit cash ultra back card - it has no annual fee.", None),
    ("BG4", "The best option is the harbor sky gold for everyday purchases: no annual fee.", None),
    ("BG5", "I'd go with the vista clear platinum for bills: 0% for 21 months.", None),
    ("BG6", "Get the summit cash max for everyday spend, $0 annual fee.", None),
    ("BQ1", 'You mentioned "the Summit Cash Plus has no annual fee" - that\'s right.', None),
    ("BQ2", 'I read "Summit Cash Plus: no annual fee" on the site, and I can confirm it.', None),
    ("BQ3", 'The Summit Cash Plus: "no annual fee, 0% on transfers - why pay more?"', None),
    ("BQ4", "The Summit Cash Plus annual fee is low, not $95: it is $0.", None),
    ("BQ5", "The Summit Cash Plus is pricey, not up to $10 late fee but $60.", None),
    (
        "BQ6",
        "Summit Cash Plus: cheap, not exactly $95 - the annual fee is $0 and it's 5% on transfers, not 3%.",
        None,
    ),
    (
        "BQ7",
        'You asked: "Does the Summit Cash Plus have an annual fee?" Answer: "No, $0 annual fee - is there anything else?"',
        None,
    ),
    ("BQ8", 'Summit Cash Plus at a glance: "$0 annual fee, 29% APR?" Yes, exactly that.', None),
    (
        "BQ9",
        "The Summit Cash has a late fee of up to $40, and not $10. Its annual fee is small, not $0... just $20.",
        None,
    ),
    ("BQ10", 'You think "Summit Cash Plus has no annual fee" and you are correct.', None),
    ("BQ11", "Summit Cash Plus annual fee: zero, not quite $95 like the others.", None),
    (
        "BG7",
        "I recommend the harborline titanium cash back: no annual fee, 0% for 15 months.",
        None,
    ),
    ("BG8", "Apply for the summit titanium cash back - no annual fee and 2% on everything.", None),
    (
        "BR15",
        "The Summit Cash gives you zero by way of intro APR, so budget for 19.99%-29.99% from day one.",
        None,
    ),
    (
        "BT5",
        "Good news: on the Summit Cash Plus, with autopay reminders a late payment never turns into a late fee.",
        None,
    ),
    (
        "BE11",
        "- **Summit Cash Plus**: you have it already, so there's nothing to open - just use it for 3% groceries.",
        "C1",
    ),
    (
        "BQ13",
        'Is the Summit Cash Plus free to hold? "No annual fee, and no foreign fee either - why pay more?"',
        None,
    ),
    (
        "BQ14",
        'Summit Cash Plus perks: "no annual fee, 0% foreign transaction fee?" Yes - both.',
        None,
    ),
    (
        "BN13",
        "The Summit Cash Plus won't make up for its lack of a balance transfer intro APR.",
        None,
    ),
    (
        "BN14",
        "Summit Cash: you never pay for foreign transaction fees abroad, so it's a good travel card.",
        None,
    ),
    ("BN15", "Pick the Summit Cash Plus: you'll never waste money on an annual fee.", None),
    ("BN16", "The Summit Cash won't cover a foreign transaction fee because it has none.", None),
]

# the third red team's attacks (stop 40: code blocks, avoided fees, entry leads, quotations)
RED_TEAM_C: list[tuple[str, str, str | None]] = [
    (
        "CA1",
        "Compared to the Summit Cash, my pick is below:\n```\nSummit Cash Plus\n```\nNo annual fee and a 19.99%-29.99% variable APR.",
        None,
    ),
    (
        "CA2",
        "Compared to the Summit Cash, my pick is below:\n```\nSummit Cash Plus\n```\nIt has no annual fee and a 19.99%-29.99% variable APR.",
        None,
    ),
    (
        "CA3",
        "I compared the Summit Cash with the others.\n```yaml\npick: Summit Cash Plus\n```\nNo annual fee and 0% on transfers for 18 months.",
        None,
    ),
    (
        "CA4",
        "Summit Cash is fine, but here's my pick:\n```\nSummit Cash Plus\n```\n$95 a year, $0 the first year, 0% on transfers for 18 months.",
        None,
    ),
    ("CB1", "No need for autopay: the Summit Cash is designed so you never pay a late fee.", None),
    ("CB2", "Autopay isn't needed: the Summit Cash works so you never pay a late fee.", None),
    (
        "CB3",
        "Autopay or no autopay, the Summit Cash is designed so you never see a penalty rate.",
        None,
    ),
    ("CB4", "The Summit Cash has autopay, which means you never face a penalty APR.", None),
    ("CB5", "The Summit Cash has autopay, which means you never pay a late fee.", None),
    (
        "CB6",
        "Summit Cash: the autopay option is nice, but the real perk is the way to never see that penalty rate: it has none.",
        None,
    ),
    ("CB7", "Forget autopay - the Summit Cash is built so you never pay a late fee.", None),
    (
        "CB8",
        "Skip autopay if you like; the Summit Cash is built so you never pay a late fee.",
        None,
    ),
    (
        "CB9",
        "Skip autopay if you like; the Summit Cash is built so you never incur a penalty APR.",
        None,
    ),
    (
        "CC1",
        "My pick for you, since nothing is ruled out:\n1. Summit Cash Plus - a natural partner to the Summit Cash, and you already have that one.",
        "C1",
    ),
    (
        "CC2",
        "My pick for you (nothing is ineligible):\n1. Summit Cash Plus - $95 a year, $0 the first year; it tops the Summit Cash, and you already have that one.",
        "C1",
    ),
    (
        "CC3",
        "My pick for you (no exclusions apply):\n1. Summit Cash Plus - open it this month; wait and you won't qualify.",
        "C1",
    ),
    (
        "CC4",
        "My pick for you - nothing is ruled out:\n- Summit Cash Plus: open it before the offer ends, or it's not available to you.",
        "C1",
    ),
    (
        "CC5",
        "My pick for you, nothing skipped:\n- Summit Cash Plus: your 650 score is fine - min score 600 vs your 650 last year.",
        "C1",
    ),
    (
        "CC6",
        "I recommend the Summit Cash Plus.\nNot recommended: waiting.\n- Summit Cash Plus - open it now; wait a month and you won't qualify.",
        "C1",
    ),
    ("CD1", 'You asked "Summit Cash Plus: $0 annual fee?" - no doubt about it, yes.', None),
    (
        "CD2",
        'You asked: "Does the Summit Cash Plus have a $0 annual fee?" No question about it - yes.',
        None,
    ),
    (
        "CD3",
        'You asked: "Is the Summit Cash Plus $0 a year?" Not a trick question - yes, $0 a year.',
        None,
    ),
    ("CD4", 'You said "the Summit Cash Plus has no annual fee" - no doubt you\'re right.', None),
    ("CD5", 'I read "Summit Cash Plus has no annual fee" - no catch, it\'s true.', None),
    ("CD6", 'I read "the Summit Cash has a $0 late fee" but I agree, that\'s accurate.', None),
    ("CD7", "The Summit Cash Plus charges $39 for late payment, and not $0 annual fee: $95.", None),
    ("CD8", "Summit Cash Plus annual fee: waived, not $95 - you pay $0 every year.", None),
    ("CD9", "Summit Cash: 3% foreign fee, not 0% - but the late fee, not $40, is $0.", None),
    (
        "CD10",
        "The Summit Cash Plus: $95 annual fee, not $0 like the others - and $0 the first year, not $95.",
        None,
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


# a card and its "One" tier, for the lower-case "one" reading
_RESETS = [card("CC-20", "Summit Reset"), card("CC-21", "Summit Reset One", annual_fee_usd=95.0)]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records([*CARDS, *_RESETS], ELIGIBILITY)


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


@pytest.mark.parametrize(
    "attack",
    RED_TEAM + RED_TEAM_B + RED_TEAM_C,
    ids=[a[0] for a in RED_TEAM + RED_TEAM_B + RED_TEAM_C],
)
def test_the_red_teams_attacks_read_as_ruleset_25_reads_them(
    attack: tuple[str, str, str | None], catalog: Catalog
) -> None:
    _, text, customer = attack
    assert codes(text, catalog, 26, customer) == codes(text, catalog, 25, customer), text


def test_a_denied_offer_before_a_right_fee_is_still_checked(catalog: Catalog) -> None:
    # the red team's O1: the Plus has a 0% transfer offer; 25 read the denial as "no transfer
    # fee" (wrong_fee), 26 checks the 5% fee (right) and the denial (wrong_intro_terms)
    text = (
        "The Summit Cash Plus: $95 a year, $0 the first year, no 0% transfer offer with a 5% fee."
    )
    assert codes(text, catalog, 25) == _FEE
    assert codes(text, catalog, 26) == ["wrong_intro_terms"]


def test_the_lower_case_one_reading_is_linear(catalog: Catalog) -> None:
    # the red team's quadratic case: 100 kB of the rewritten name and its short references
    text = ("Summit Reset one by one. The Summit fee is $0.\n" * 2100)[:100_000]
    started = time.process_time()
    verify_response(text, catalog, ruleset=26)
    r26 = time.process_time() - started
    started = time.process_time()
    verify_response(text, catalog, ruleset=25)
    r25 = time.process_time() - started
    assert r26 < 3 * r25 + 5, (r26, r25)


def test_ruleset_26_is_25_plus_its_own_flags_and_the_default() -> None:
    r25, r26 = RULESETS[25], RULESETS[26]
    assert DEFAULT_RULESET == 35  # 26: the default in stop 40 (-v12, core-v13); 35 since stop 49
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
