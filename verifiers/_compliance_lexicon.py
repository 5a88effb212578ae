"""The compliance extractor's vocabulary: value patterns and the cue words that type them.

Kept apart from the extraction logic so that the words (which grow as new phrasings turn up) and
the algorithm (which should not) change independently. Every pattern runs on the lower-cased,
normalised text, once per response, and uses bounded repetition only, so 1 MB of adversarial
input stays linear.
"""

from __future__ import annotations

import re
from typing import Any

_NUM = r"\d{1,3}(?:\.\d{1,3})?"
_PCT = r"[ \t]{0,2}(?:%|percent\b|per[ \t]?cent\b|pct\b)"

# -- values ----------------------------------------------------------------------------------
# Python's regex engine skips ahead fast only when a pattern starts with a literal or a character
# class, so every scanning pattern below starts with "$", a digit or a literal word; the
# left-boundary checks a lookbehind would do happen in the extractor instead.
NUMBERS = re.compile(
    r"\$[ \t]{0,2}(?P<usd>\d{1,3}(?:,\d{3})+|\d{1,7})(?P<cents>\.\d{1,2})?(?![\d])"
    # A percentage range: "19.99%-29.99%", "19.99 to 29.99 percent".
    rf"|(?P<ra>{_NUM})(?:{_PCT})?[ \t]{{0,3}}(?:-{{1,2}}|to|through|thru)[ \t]{{0,3}}(?P<rb>{_NUM}){_PCT}"
    rf"|(?P<pct>{_NUM}){_PCT}"
    r"|(?P<usdw>\d{1,7}(?:\.\d{1,2})?)[ \t]{0,2}(?:dollars?|usd|bucks)\b"
)
# What every number claim contains; the number pattern runs only near these.
NUMBER_ANCHOR = re.compile(r"[%$]|percent|per[ \t]cent|pct\b|dollar|bucks")
WORD_VALUES = re.compile(
    rf"between[ \t]{{1,3}}(?P<ba>{_NUM})(?:{_PCT})?[ \t]{{1,3}}and[ \t]{{1,3}}(?P<bb>{_NUM}){_PCT}"
    r"|(?P<zero>zero)[ \t-]{1,3}(?:%|percent\b)"
    r"|usd[ \t]{0,2}(?P<usdp>\d{1,7}(?:\.\d{1,2})?)\b"
)
# Statements that a card has no such fee (or no penalty APR). They all end in a fee or rate
# word, so the extractor only runs this on the stretch of text before each such word.
NONE_PHRASES = re.compile(
    "|".join(
        (
            r"(?P<none_annual>\bno[ \t-]{1,3}(?:annual|yearly|membership)[ \t-]{1,3}fees?\b"
            r"|\bzero[ \t]{1,3}annual[ \t]{1,3}fees?\b"
            r"|\b(?:does[ \t]{1,3}not|doesn't|won't|will[ \t]{1,3}not|never)[ \t]{1,3}(?:charge|have|carry|impose)s?"
            r"[ \t]{1,3}(?:an?[ \t]{1,3}|any[ \t]{1,3})?annual[ \t]{1,3}fees?\b"
            r"|\bwithout[ \t]{1,3}(?:an?[ \t]{1,3}|any[ \t]{1,3})?annual[ \t]{1,3}fees?\b"
            r"|\bannual[ \t]{1,3}fees?[ \t]{0,3}(?::|-|is|of)?[ \t]{0,3}(?:\*\*)?[ \t]{0,2}none\b"
            r"|\bannual[ \t-]{1,3}fee[ \t-]{1,3}free\b|\bfree[ \t]{1,3}of[ \t]{1,3}annual[ \t]{1,3}fees?\b)",
            r"(?P<none_foreign>\bno[ \t-]{1,3}(?:foreign|international|fx|foreign[ \t]{1,3}exchange|"
            r"foreign[ \t]{1,3}transaction|international[ \t]{1,3}transaction)[ \t-]{1,3}fees?\b"
            r"|\bzero[ \t]{1,3}foreign[ \t]{1,3}transaction[ \t]{1,3}fees?\b"
            r"|\b(?:does[ \t]{1,3}not|doesn't|won't|will[ \t]{1,3}not|never)[ \t]{1,3}(?:charge|have|carry|impose)s?"
            r"[ \t]{1,3}(?:an?[ \t]{1,3}|any[ \t]{1,3})?(?:foreign|international)[ \t]{1,3}(?:transaction[ \t]{1,3})?fees?\b"
            r"|\bwithout[ \t]{1,3}(?:an?[ \t]{1,3}|any[ \t]{1,3})?(?:foreign|international)[ \t]{1,3}(?:transaction[ \t]{1,3})?fees?\b"
            r"|\bforeign[ \t]{1,3}transaction[ \t]{1,3}fees?[ \t]{0,3}(?::|-|is|of)?[ \t]{0,3}(?:\*\*)?[ \t]{0,2}none\b)",
            r"(?P<none_bt>\bno[ \t-]{1,3}balance[ \t-]{1,3}transfer[ \t-]{1,3}fees?\b)",
            r"(?P<none_penalty>\bno[ \t-]{1,3}penalty[ \t-]{1,3}(?:apr|rate)s?\b)",
        )
    )
)
NONE_ANCHOR = re.compile(r"fee|penalty")

_WORD_MONTHS = {
    "three": 3,
    "six": 6,
    "nine": 9,
    "twelve": 12,
    "fifteen": 15,
    "eighteen": 18,
    "twenty-one": 21,
    "twenty one": 21,
    "twenty-four": 24,
    "twenty four": 24,
    "seven": 7,
    "eight": 8,
    "ten": 10,
    "eleven": 11,
    "thirteen": 13,
    "fourteen": 14,
    "sixteen": 16,
    "seventeen": 17,
    "nineteen": 19,
    "twenty": 20,
    "four": 4,
    "five": 5,
    "one": 1,
    "two": 2,
}
MONTHS = re.compile(
    r"(?P<m>\d{1,2})[ \t]{0,2}(?:-[ \t]{0,2})?(?:full[ \t]{1,3}|consecutive[ \t]{1,3}|calendar[ \t]{1,3})?"
    r"(?:months?|mos?\b\.?|billing[ \t]{1,3}cycles?|statement[ \t]{1,3}(?:cycles?|periods?))"
)
MONTH_ANCHOR = re.compile(r"month|mos?\b|cycle|period|year")
WORD_MONTHS = re.compile(
    r"(?P<w>" + "|".join(sorted(_WORD_MONTHS, key=len, reverse=True)) + r")[ \t-]{1,3}"
    r"(?:full[ \t]{1,3})?(?:months?|billing[ \t]{1,3}cycles?)\b"
    r"|(?P<y>first|one|1)[ \t]{1,3}(?:full[ \t]{1,3})?year\b"
)


def months_value(match: re.Match[str]) -> int:
    groups = match.groupdict()
    if groups.get("m"):
        return int(groups["m"])
    if groups.get("w"):
        return _WORD_MONTHS[match.group("w").replace("  ", " ")]
    return 12


# -- cues ------------------------------------------------------------------------------------
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

# Cue words, looked up word by word (a dictionary look-up per word is far cheaper than one big
# alternation regex). Phrases are keyed by their first word and tried longest first; a phrase
# wins over the single-word meaning of its first word.
_CUE_WORDS: dict[str, str] = {
    **dict.fromkeys(("apr", "aprs", "interest", "rate", "rates"), APR),
    **dict.fromkeys(("annual", "annually", "yearly", "membership"), ANNUAL),
    **dict.fromkeys(("foreign", "international", "overseas", "abroad", "fx"), FOREIGN),
    "late": LATE,
    **dict.fromkeys(("transfer", "transfers", "bt"), BT),
    **dict.fromkeys(("advance", "advances", "atm"), CASH),
    **dict.fromkeys(("purchase", "purchases"), PURCHASE),
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
            "balance",
            "balances",
            "carry",
            "carrying",
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
    (("in", "interest"), REWARD),
    (("interest", "cost"), REWARD),
    (("interest", "paid"), REWARD),
    (("interest", "charges", "of"), REWARD),
    (("interest", "of", "about"), REWARD),
    (("annual", "percentage", "rate"), APR),
    (("annual", "percentage", "rates"), APR),
    (("first", "year"), FIRST_YEAR),
    (("1st", "year"), FIRST_YEAR),
    (("intro", "annual", "fee"), FIRST_YEAR),
    (("introductory", "annual", "fee"), FIRST_YEAR),
    (("per", "year"), ANNUAL),
    (("a", "year"), ANNUAL),
    (("each", "year"), ANNUAL),
    (("every", "year"), ANNUAL),
    (("currency", "conversion"), FOREIGN),
    (("past", "due"), LATE),
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
    (("no", "less", "than"), MINIMUM),
    (("returned", "payment"), OTHER_FEE),
    (("return", "payment"), OTHER_FEE),
    (("over", "the", "limit"), OTHER_FEE),
    (("replacement", "card"), OTHER_FEE),
    (("card", "replacement"), OTHER_FEE),
    (("paper", "statement"), OTHER_FEE),
    (("stop", "payment"), OTHER_FEE),
    (("statement", "credit"), REWARD),
    (("statement", "credits"), REWARD),
    (("travel", "credit"), REWARD),
    (("travel", "credits"), REWARD),
)


def trie_pattern(words: list[str]) -> str:
    """A prefix-factored alternation ("a(?:pr|nnual)..."): the regex engine then rejects most
    positions after one character instead of trying every word in turn."""
    trie: dict[str, Any] = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict[str, Any]) -> str:
        branches = [re.escape(ch) + build(sub) for ch, sub in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return build(trie)


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


# Soft clause boundaries between two values: the window of the earlier value ends at the last
# one in the gap (so "0% intro APR on purchases and balance transfers for 15 months, then 19.99%"
# keeps both scopes and the months with the intro rate).
SOFT_BOUNDARY = re.compile(
    r"[,;(\[]|\band\b|\bwhile\b|\bbut\b|\bwhereas\b|\bwith\b|\bplus\b|\bthen\b|\bafter\b|"
    r"\balthough\b|\bthough\b|\bvs\b\.?|\bversus\b|\bcompared\b|\bor\b|\bwhich\b|[|]| - "
)
# A fee's dollar minimum is announced near the pair ("minimum", "whichever is greater").
FEE_MINIMUM_WORD = re.compile(
    r"\b(?:minimum|min\b\.?|at[ \t]{1,3}least|whichever|no[ \t]{1,3}less[ \t]{1,3}than)(?![ \t]{1,3}interest)"
)

# Sentences about cards in general rather than the card under discussion.
GENERIC_SUBJECT = re.compile(
    r"\b(?:most|many|some|other|typical|typically|average|industry|generally|in[ \t]general|"
    r"usually|often|standard[ \t]for)\b[^.]{0,30}\bcards?\b|\bcards?[ \t]{1,3}(?:typically|usually|often|generally)\b"
)
COLLECTIVE_SUBJECT = re.compile(
    r"\b(?P<q>all|both|each|every|either|neither)[ \t]{1,3}(?:of[ \t]{1,3})?(?:the[ \t]{1,3}|these[ \t]{1,3}|"
    r"those[ \t]{1,3}|our[ \t]{1,3}|my[ \t]{1,3})?(?P<n>two|three|four|five|2|3|4|5)?[ \t]{0,3}"
    r"(?:cards?|options|products|of[ \t]{1,3}them)?\b"
)
COLLECTIVE_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "2": 2, "3": 3, "4": 4, "5": 5}


def collective_count(match: re.Match[str]) -> int | None:
    """How many of the most recently named cards a collective subject covers (None: all)."""
    if match.group("n"):
        return COLLECTIVE_COUNTS[match.group("n")]
    return 2 if match.group("q") in ("both", "either", "neither") else None


RESPECTIVELY = re.compile(r"\brespectively\b")
# Reported speech: a quoted figure in a sentence that says where it comes from or that it is
# wrong ("the draft says \"$50 annual fee\", which is incorrect") is not the response's claim.
QUOTED = re.compile(r'"[^"\n]{1,200}"')
REPORTING = re.compile(
    r"\b(?:says?|said|states?|stated|claims?|claimed|lists?|listed|advertises?|advertised|reads?|"
    r"mentions?|incorrect(?:ly)?|wrong(?:ly)?|inaccurate|should[ \t]be|error|mistaken?|draft|copy|"
    r"quotes?|quoted)\b"
)
# Text between two card names that joins them into one subject ("X and Y both ...").
NAME_JOINER = re.compile(
    r"^[ \t,]{0,3}(?:\*\*)?[ \t,]{0,3}(?:and|or|&|as[ \t]well[ \t]as)?[ \t]{0,3}(?:the[ \t]{1,3})?(?:\*\*)?[ \t]{0,3}$"
)

# -- recommendations ---------------------------------------------------------------------------
RECOMMEND = re.compile(
    r"\brecommend\w*|\bsuggest\w*|\bbest\b|\bideal\b|\bsuit(?:s|ed|able)?\b|\bperfect\b|"
    r"\b(?:good|great|excellent|strong|solid|smart|top|safe|natural|clear)[ \t]{1,3}(?:fits?|choices?|options?|match(?:es)?|picks?|bets?|candidates?)\b|"
    r"\bshould[ \t]{1,3}(?:apply|get|consider|go|choose|pick|open)\b|\bgo[ \t]{1,3}(?:with|for)\b|"
    r"\bmy[ \t]{1,3}(?:picks?|choices?|recommendations?|top)\b|\b(?:you[ \t]{1,3}(?:qualify|are[ \t]{1,3}eligible)|you're[ \t]{1,3}eligible)\b|"
    r"\beligible\b|\bconsider\b|\bworth[ \t]{1,3}(?:it|considering|applying|a[ \t]{1,3}look)\b|"
    r"\bright[ \t]{1,3}(?:card|choice|fit|pick)\b|\bwould[ \t]{1,3}(?:work|serve|be[ \t]{1,3}a[ \t]{1,3}(?:good|great|strong))\b|"
    r"\bstands?[ \t]{1,3}out\b|\bmakes[ \t]{1,3}(?:the[ \t]{1,3}most[ \t]{1,3})?sense\b|\bwinner\b|\bfits[ \t]{1,3}you\b"
)
NEGATION = re.compile(
    r"\bnot\b|n't\b|\bnever\b|\bineligible\b|\bavoid\b|\bunfortunately\b|\bno[ \t]{1,3}longer\b|"
    r"\bcannot\b|\bunable\b|\bdisqualif\w*|\bdecline[sd]?\b|\bnor\b|\bwouldn't\b|\bskip\b|\bpass[ \t]{1,3}on\b"
)
# Negators that only apply to what follows them ("X over Y": Y is not recommended).
CONTRAST = re.compile(
    r"\bover\b|\binstead[ \t]{1,3}of\b|\brather[ \t]{1,3}than\b|\bunlike\b|\bthan\b|\bvs\b\.?|\bversus\b"
)
CLAUSE_BOUNDARY = re.compile(
    r"[,;]|\bbecause\b|\bsince\b|\bbut\b|\bwhile\b|\balthough\b|\bhowever\b|\bwhereas\b|\bso\b|"
    r"\bif\b|\bwhen\b|\bunless\b|\bas[ \t]long[ \t]as\b|\bthough\b"
)
