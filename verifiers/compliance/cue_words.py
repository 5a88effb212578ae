"""The cue words that type a figure (APR, fee, intro offer, and of what), and their scanner.

Cue words are looked up word by word and phrase by phrase; ``CUE_SCAN`` finds every cue word or
phrase of ``CUE_TYPES`` in one pass over the lower-cased, normalised text.
"""

from __future__ import annotations

import re

from replicas.verifiers.compliance.matchers import trie_pattern

APR = "apr"
FEE = "fee"
ANNUAL = "annual"
FOREIGN = "foreign"
LATE = "late"
BT = "bt"
CASH = "cash_advance"
PURCHASE = "purchase"
PENALTY = "penalty"
INTRO = "intro"
AFTER = "after"
REGULAR = "regular"
MINIMUM = "minimum"
MIN_INTEREST = "min_interest"
REWARD = "reward"
VARIABLE = "variable"
FIXED = "fixed"
FIRST_YEAR = "first_year"
OTHER_FEE = "other_fee"  # fees the catalog does not state (returned payment, replacement card)
COST = "cost"  # "costs $95", "charges $95 a year": a price, so a fee
BALANCE = "balance"  # "carry a balance of $2,000": an amount owed, never a fee (rates are fine)
ESTIMATE = "estimate"  # "about $451 a year": an estimate is a value, never a disclosed fee
ANNUAL_FEE = "annual_fee"  # "annual cost", "yearly charge": an annual cue and a fee cue at once

# Cue words, looked up word by word (a dictionary look-up per word is far cheaper than one big
# alternation regex). Phrases are keyed by their first word and tried longest first; a phrase
# wins over the single-word meaning of its first word.
_CUE_WORDS: dict[str, str] = {
    **dict.fromkeys(("apr", "aprs", "interest", "rate", "rates"), APR),
    **dict.fromkeys(("annual", "annually", "yearly", "annum"), ANNUAL),
    "membership": FEE,  # "an annual membership of $95": the price of holding the card
    **dict.fromkeys(("foreign", "international", "overseas", "abroad", "fx"), FOREIGN),
    "late": LATE,
    **dict.fromkeys(("transfer", "transfers", "bt"), BT),
    **dict.fromkeys(
        ("advance", "advances", "atm", "withdrawal", "withdrawals", "withdrawing"), CASH
    ),
    **dict.fromkeys(("purchase", "purchases", "buy", "buys", "buying", "bought"), PURCHASE),
    "penalty": PENALTY,
    **dict.fromkeys(("intro", "introductory", "promo", "promotional", "teaser"), INTRO),
    **dict.fromkeys(("then", "thereafter", "afterward", "afterwards", "expires", "ends"), AFTER),
    **dict.fromkeys(
        ("standard", "ongoing", "regular", "go-to", "non-intro", "non-introductory"), REGULAR
    ),
    **dict.fromkeys(("minimum", "min", "whichever"), MINIMUM),
    **dict.fromkeys(("fee", "fees"), FEE),
    **dict.fromkeys(("over-limit", "overlimit", "expedited", "returned"), OTHER_FEE),
    "variable": VARIABLE,
    "fixed": FIXED,
    **dict.fromkeys(
        (
            "balance",
            "balances",
            "carry",
            "carrying",
            "transferred",
            "moved",
            "owe",
            "owed",
            "borrow",
            "borrowed",
            "withdraw",
            "withdrew",
        ),
        "balance",
    ),
    **dict.fromkeys(("costs", "cost", "charges", "charge", "charged", "runs", "pay", "pays"), COST),
    **dict.fromkeys(
        (
            "about",
            "around",
            "roughly",
            "approximately",
            "approx",
            "estimated",
            "nearly",
            "almost",
            "~",
            "worth",
            "value",
            "net",
            "nets",
            "netting",
            "return",
        ),
        ESTIMATE,
    ),
    **dict.fromkeys(
        (
            "rewards",
            "reward",
            "points",
            "point",
            "miles",
            "mile",
            "earn",
            "earns",
            "earning",
            "earned",
            "bonus",
            "spend",
            "spends",
            "spending",
            "save",
            "saves",
            "saved",
            "savings",
            "utilization",
            "utilisation",
            "score",
            "discount",
            "off",
            "cap",
            "caps",
            "capped",
            "income",
            "salary",
            "limit",
            "deposit",
            "cashback",
            "back",
        ),
        REWARD,
    ),
}
_INTRO_WORDS = ("intro", "introductory", "promo", "promotional", "offer", "initial")
_CUE_PHRASES_LIST: tuple[tuple[tuple[str, ...], str], ...] = (
    (("minimum", "interest", "charge"), MIN_INTEREST),
    (("minimum", "interest", "charges"), MIN_INTEREST),
    (("minimum", "interest"), MIN_INTEREST),
    (("min", "interest"), MIN_INTEREST),
    (("in", "interest"), ESTIMATE),
    (("interest", "cost"), REWARD),
    (("interest", "paid"), REWARD),
    (("interest", "charges", "of"), REWARD),
    (("interest", "of", "about"), REWARD),
    (("annual", "percentage", "rate"), APR),
    (("annual", "percentage", "rates"), APR),
    (("first", "year"), FIRST_YEAR),
    (("first-year",), FIRST_YEAR),
    (("year", "one"), FIRST_YEAR),
    (("year", "1"), FIRST_YEAR),
    (("yr", "1"), FIRST_YEAR),
    (("yr", "one"), FIRST_YEAR),
    (("first", "yr"), FIRST_YEAR),
    (("1st", "yr"), FIRST_YEAR),
    (("to", "you"), ESTIMATE),
    (("more", "than"), ESTIMATE),
    (("in", "value"), ESTIMATE),
    (("1st", "year"), FIRST_YEAR),
    (("intro", "annual", "fee"), FIRST_YEAR),
    (("introductory", "annual", "fee"), FIRST_YEAR),
    (("per", "year"), ANNUAL),
    (("a", "year"), ANNUAL),
    (("each", "year"), ANNUAL),
    (("every", "year"), ANNUAL),
    (("currency", "conversion"), FOREIGN),
    (("past", "due"), LATE),
    (("due", "date"), LATE),
    (("moved", "balance"), BT),
    (("moved", "balances"), BT),
    (("move", "a", "balance"), BT),
    (("move", "balances"), BT),
    (("transferred", "balance"), BT),
    (("transferred", "balances"), BT),
    (("balance", "transferred"), BT),
    (("balances", "transferred"), BT),
    (("on", "everything"), REWARD),
    (("annual", "cost"), ANNUAL_FEE),
    (("yearly", "cost"), ANNUAL_FEE),
    (("annual", "charge"), ANNUAL_FEE),
    (("yearly", "charge"), ANNUAL_FEE),
    (("annual", "price"), ANNUAL_FEE),
    (("cost", "per", "year"), ANNUAL_FEE),
    (("miss", "a", "payment"), LATE),
    (("missed", "payment"), LATE),
    (("missed", "payments"), LATE),
    (("late", "payment"), LATE),
    (("late", "payments"), LATE),
    (("pay", "late"), LATE),
    (("balance", "transfer"), BT),
    (("balance", "transfers"), BT),
    (("cash", "advance"), CASH),
    (("cash", "advances"), CASH),
    (("cash", "equivalent"), CASH),
    (("cash", "back"), REWARD),
    (("default", "apr"), PENALTY),
    (("default", "rate"), PENALTY),
    (("limited", "time"), INTRO),
    (("after", "that"), AFTER),
    *(
        ((("after", det, word)), AFTER)
        for det in ("the", "this", "that", "its")
        for word in _INTRO_WORDS
    ),
    (("once", "the"), AFTER),
    (("once", "that"), AFTER),
    (("once", "it"), AFTER),
    *(
        ((("when", det, word)), AFTER)
        for det in ("the", "it")
        for word in ("intro", "promo", "offer")
    ),
    (("goes", "to"), AFTER),
    (("revert", "to"), AFTER),
    (("reverts", "to"), AFTER),
    (("rises", "to"), AFTER),
    (("jumps", "to"), AFTER),
    (("offer", "ends"), AFTER),
    (("after", "#", "months"), AFTER),
    (("after", "#", "month"), AFTER),
    (("after", "the", "first", "#", "months"), AFTER),
    (("at", "least"), MINIMUM),
    (("never", "less", "than"), MINIMUM),
    (("not", "less", "than"), MINIMUM),
    (("no", "less", "than"), MINIMUM),
    (("returned", "payment"), OTHER_FEE),
    (("return", "payment"), OTHER_FEE),
    (("over", "the", "limit"), OTHER_FEE),
    (("replacement", "card"), OTHER_FEE),
    (("card", "replacement"), OTHER_FEE),
    (("paper", "statement"), OTHER_FEE),
    (("stop", "payment"), OTHER_FEE),
    (("everything", "else"), REWARD),
    (("all", "other", "purchases"), REWARD),
    (("other", "purchases"), REWARD),
    (("all", "purchases"), REWARD),
    (("every", "purchase"), REWARD),
    (("statement", "credit"), REWARD),
    (("statement", "credits"), REWARD),
    (("travel", "credit"), REWARD),
    (("travel", "credits"), REWARD),
)


# Every cue word and phrase (phrases with single spaces), mapped to its cue type; "year"/"yr"
# count only as in "$95/year".
CUE_TYPES: dict[str, str] = {
    **_CUE_WORDS,
    **{" ".join(words): cue for words, cue in _CUE_PHRASES_LIST if "#" not in words},
    "year": "slash_year",
    "yr": "slash_year",
}
CUE_SCAN = re.compile("(?:" + trie_pattern(sorted(CUE_TYPES)) + r")(?![a-z0-9'-])")
# "after 15 months" / "after the first 15 months": the rate after an offer.
AFTER_MONTHS = re.compile(
    r"after[ \t]{1,3}(?:the[ \t]{1,3}first[ \t]{1,3})?\d{1,2}[ \t-]{0,2}months?(?![a-z])"
)
