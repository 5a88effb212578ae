"""The compliance extractor's vocabulary: value patterns and the cue words that type them.

Kept apart from the extraction logic so that the words (which grow as new phrasings turn up) and
the algorithm (which should not) change independently. Every pattern runs on the lower-cased,
normalised text, once per response, and uses bounded repetition only, so 1 MB of adversarial
input stays linear.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from replicas.verifiers.compliance.numwords import NUMBER_WORDS, parse_number_words

_QUANTIFIERS = frozenset("?*+{")


def word_set(text: str) -> frozenset[str]:
    """The blank-separated words of ``text`` (long vocabularies written as paragraphs)."""
    return frozenset(text.split())


def at_word_start(alternatives: list[str]) -> str:
    """A pattern matching exactly what ``\\b(?:a1|a2|...)`` matches, written to scan fast.

    Each alternative must open with a lower-case ASCII letter taken literally. Python's regex
    engine tries a pattern that opens with a word boundary at every position of the text, and
    every alternative at every word start; a pattern whose top-level alternatives all open with a
    literal lets it skip at C speed to the characters that can start a match. So the
    alternatives are grouped by first letter and the boundary becomes a look-behind after that
    letter - ``b(?<!\\wb)(?:ecause|ut)`` for ``\\b(?:because|but)`` - keeping their order (and so
    the same match wherever several could match). Typically two to three times faster.
    """
    groups: dict[str, list[str]] = {}
    for alternative in alternatives:
        first = alternative[:1]
        if not ("a" <= first <= "z") or alternative[1:2] in _QUANTIFIERS:
            raise ValueError(f"alternative must open with a literal letter: {alternative!r}")
        groups.setdefault(first, []).append(alternative[1:])
    parts = []
    for first, rests in groups.items():
        body = rests[0] if len(rests) == 1 else "(?:" + "|".join(rests) + ")"
        parts.append(rf"{first}(?<!\w{first}){body}")
    return "|".join(parts)


_NUM = r"\d{1,3}(?:\.\d{1,3})?"
_PCT = r"[ \t]{0,2}(?:%|percent\b|per[ \t]?cent\b|pct\b)"

# -- values ----------------------------------------------------------------------------------
# Python's regex engine skips ahead fast only when a pattern starts with a literal or a character
# class (every top-level alternative a literal), so every scanning pattern below starts with "$", a
# digit or a literal word; the left-boundary checks a lookbehind would do happen in the extractor
# instead. Where a word boundary must stay in the pattern, it is written once in front of the
# alternation ("\b(?:a|b)") rather than per alternative ("\ba|\bb"): the engine tries every
# alternative at every position, so the factored form is several times faster on the same language.
NUMBERS = re.compile(
    # Every alternative starts with "$" or a digit; the lookahead says so once, so the engine
    # leaves the other positions after one test instead of entering each alternative's groups.
    r"(?=[$\d])(?:"
    r"\$[ \t]{0,2}(?P<usd>\d{1,3}(?:,\d{3})+|\d{1,7})(?P<cents>\.\d{1,2})?(?![\d])"
    # A percentage range: "19.99%-29.99%", "19.99 to 29.99 percent".
    rf"|(?P<ra>{_NUM})(?:{_PCT})?[ \t]{{0,3}}(?:-{{1,2}}|-?to-?|through|thru|/|up[ \t]to)[ \t]{{0,3}}(?P<rb>{_NUM}){_PCT}"
    rf"|(?P<pct>{_NUM}){_PCT}"
    r"|(?P<usdw>\d{1,7}(?:\.\d{1,2})?)[ \t]{0,2}(?:dollars?|usd|bucks)\b"
    r")"
)
# What every number claim contains; the number pattern runs only near these.
NUMBER_ANCHOR = re.compile(r"%|\$|percent|per[ \t]cent|pct\b|dollar|bucks")
WORD_VALUES = re.compile(
    rf"between[ \t]{{1,3}}(?P<ba>{_NUM})(?:{_PCT})?[ \t]{{1,3}}and[ \t]{{1,3}}(?P<bb>{_NUM}){_PCT}"
    r"|(?P<zero>zero)[ \t-]{1,3}(?:%|percent\b)"
    r"|usd[ \t]{0,2}(?P<usdp>\d{1,7}(?:\.\d{1,2})?)\b"
)

MONTHS = re.compile(
    r"(?P<m>\d{1,2})[ \t]{0,2}(?:-[ \t]{0,2})?(?:full[ \t]{1,3}|consecutive[ \t]{1,3}|calendar[ \t]{1,3})?"
    r"(?:months?|mos?\b\.?|billing[ \t]{1,3}cycles?|statement[ \t]{1,3}(?:cycles?|periods?))"
)
MONTH_ANCHOR = re.compile(r"month|mos?\b|cycle|period|year")
# Durations in words. "a year" alone is no duration ("$95 a year"); it is one after "for",
# "lasts" or "over", or as "a full year".
WORD_MONTHS = re.compile(
    rf"(?P<w>{NUMBER_WORDS})[ \t-]{{1,3}}(?:full[ \t]{{1,3}})?(?:months?|billing[ \t]{{1,3}}cycles?)\b"
    r"|(?P<hy>half[ \t]{1,3}a[ \t]{1,3}year|half-year)\b"
    r"|(?P<h>(?:a|one|1)[ \t-]{1,3}year[ \t]{1,3}and[ \t]{1,3}a[ \t]{1,3}half"
    r"|(?:one|1)[ \t]{1,3}and[ \t]{1,3}a[ \t]{1,3}half[ \t]{1,3}years?|1\.5[ \t-]{1,3}years?)\b"
    r"|(?P<y>first|one|1|a[ \t]{1,3}full|one[ \t]{1,3}full|(?:for|lasts?|over)[ \t]{1,3}a"
    r"|(?:for|lasts?|over)[ \t]{1,3}the[ \t]{1,3}first|year)[ \t-]{1,3}(?:full[ \t]{1,3})?"
    r"(?:year|long)\b(?![ \t-]{1,3}(?:and[ \t]{1,3}a[ \t]{1,3}half|fees?\b|annual))"
    rf"|(?P<yw>two|three|2|3)[ \t-]{{1,3}}(?:full[ \t]{{1,3}})?years?\b"
)


def find_starting_with(
    pattern: re.Pattern[str], text: str, words: tuple[str, ...]
) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)`` for a pattern whose every match starts with one of ``words``.

    The pattern is tried only where ``str.find`` sees one of the words, resuming after each
    match as ``finditer`` does, so the matches are the same - without the regex engine visiting
    every character of a long response (it cannot skip ahead on its own when the pattern opens
    with a group or a word boundary).
    """
    starts: set[int] = set()
    for word in words:
        pos = text.find(word)
        while pos >= 0:
            starts.add(pos)
            pos = text.find(word, pos + 1)
    cursor = 0
    for pos in sorted(starts):
        if pos < cursor:
            continue
        match = pattern.match(text, pos)
        if match is not None:
            yield match
            cursor = max(match.end(), pos + 1)


def months_value(match: re.Match[str]) -> int:
    groups = match.groupdict()
    if groups.get("m"):
        return int(groups["m"])
    if groups.get("w"):
        return parse_number_words(groups["w"])
    if groups.get("h"):
        return 18
    if groups.get("hy"):
        return 6
    if groups.get("yw"):
        years = groups["yw"]
        return 12 * (int(years) if years.isdigit() else {"two": 2, "three": 3}[years])
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
    r",|;|\(|\[|\||[ \t]/[ \t]|"
    + at_word_start(
        [
            *(rf"{word}\b" for word in ("and", "while", "but", "whereas", "with", "plus")),
            *(rf"{word}\b" for word in ("then", "after", "although", "though")),
            r"vs\b\.?",
            *(rf"{word}\b" for word in ("versus", "compared", "or", "which")),
        ]
    )
    + r"| - "
)
# Clause boundaries of contrast: a figure's typing words stay on its side of them.
CONTRAST_CUT = re.compile(
    r";|[ \t][-/][ \t]|"
    + at_word_start(
        [
            *(
                rf"{w}\b"
                for w in ("but", "while", "whereas", "however", "although", "though", "yet")
            ),
            # "the X has A, compared with B on the Y": B is the Y's, not the X's
            r"compared[ \t]{1,3}(?:with|to)\b",
            r"versus\b",
            r"vs\b\.?",
            r"as[ \t]{1,3}opposed[ \t]{1,3}to\b",
            r"against\b",
        ]
    )
)
# A fee's dollar minimum is announced near the pair ("minimum", "whichever is greater").
FEE_MINIMUM_WORD = re.compile(
    r"(?:"
    + at_word_start(
        [
            "minimum",
            r"min\b\.?",
            r"at[ \t]{1,3}least",
            r"never[ \t]{1,3}less[ \t]{1,3}than",
            r"not[ \t]{1,3}less[ \t]{1,3}than",
            "whichever",
            r"no[ \t]{1,3}less[ \t]{1,3}than",
        ]
    )
    + r")(?![ \t]{1,3}interest)"
)

# Sentences about cards in general rather than the card under discussion.
# Both alternatives contain "card": callers test for that substring before searching.
GENERIC_SUBJECT = re.compile(
    at_word_start(
        [
            *(
                rf"{word}\b[^.]{{0,30}}\bcards?\b"
                for word in (
                    "most",
                    "many",
                    "some",
                    "other",
                    "typical",
                    "typically",
                    "average",
                    "industry",
                    "generally",
                    r"in[ \t]general",
                    "usually",
                    "often",
                    r"standard[ \t]for",
                )
            ),
            r"cards?[ \t]{1,3}(?:typically|usually|often|generally)\b",
        ]
    )
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
    at_word_start(
        [
            rf"{word}\b"
            for word in [
                "says?",
                "said",
                "states?",
                "stated",
                "claims?",
                "claimed",
                "lists?",
                "listed",
                "advertises?",
                "advertised",
                "reads?",
                "mentions?",
                "incorrect(?:ly)?",
                "wrong(?:ly)?",
                "inaccurate",
                "should[ \t]be",
                "error",
                "mistaken?",
                "draft",
                "copy",
                "quotes?",
                "quoted",
            ]
        ]
    )
)
# Words that disown a figure: it is quoted as outdated or someone else's, not claimed
# ("ignore the $50 figure on old forum posts", "some sites still show $295, which is outdated").
DISAVOWAL = re.compile(
    at_word_start(
        [
            rf"{word}\b"
            for word in [
                "ignore",
                "disregard",
                "outdated",
                "out-of-date",
                r"out[ \t]of[ \t]date",
                "old",
                "older",
                "wrong(?:ly)?",
                "incorrect(?:ly)?",
                "mistaken(?:ly)?",
                "mix-up",
                "misprint",
                "typo",
                "forums?",
                "listings?",
                "sites?",
                "websites?",
                "elsewhere",
                r"may[ \t]have[ \t]seen",
                r"might[ \t]have[ \t]seen",
                r"floats?[ \t]around",
                r"floating[ \t]around",
                r"used[ \t]to[ \t]be",
                "previously",
                "formerly",
                "rumou?red",
            ]
        ]
    )
)
# Where a disowning clause ends.
DISAVOWAL_CLAUSE = re.compile(
    r"[;,(]| [-/] |"
    + at_word_start([rf"{w}\b" for w in ("but", "while", "which", "though", "whereas", "and")])
)
# Text between two card names that joins them into one subject ("X and Y both ...").
NAME_JOINER = re.compile(
    r"^[ \t,]{0,3}(?:\*\*)?[ \t,]{0,3}(?:and|or|&|as[ \t]well[ \t]as)?[ \t]{0,3}(?:the[ \t]{1,3})?(?:\*\*)?[ \t]{0,3}$"
)

# -- recommendations ---------------------------------------------------------------------------
_RECOMMEND_WORDS = [
    r"recommend\w*",
    r"suggest\w*",
    r"best\b",
    r"ideal\b",
    r"suit(?:s|ed|able)?\b",
    r"perfect\b",
    *(
        rf"{word}[ \t]{{1,3}}(?:fits?|choices?|options?|match(?:es)?|picks?|bets?|candidates?)\b"
        for word in [
            "good",
            "great",
            "excellent",
            "strong",
            "solid",
            "smart",
            "top",
            "safe",
            "natural",
            "clear",
        ]
    ),
    r"should[ \t]{1,3}(?:apply|get|consider|go|choose|pick|open)\b",
    r"go[ \t]{1,3}(?:with|for)\b",
    r"my[ \t]{1,3}(?:picks?|choices?|recommendations?|top)\b",
    r"you[ \t]{1,3}(?:qualify|are[ \t]{1,3}eligible)\b",
    r"you're[ \t]{1,3}eligible\b",
    r"eligible\b",
    r"consider\b",
    r"worth[ \t]{1,3}(?:it|considering|applying|a[ \t]{1,3}look)\b",
    r"right[ \t]{1,3}(?:card|choice|fit|pick)\b",
    r"would[ \t]{1,3}(?:work|serve|be[ \t]{1,3}a[ \t]{1,3}(?:good|great|strong))\b",
    r"stands?[ \t]{1,3}out\b",
    r"makes[ \t]{1,3}(?:the[ \t]{1,3}most[ \t]{1,3})?sense\b",
    r"winner\b",
    r"runner[ \t-]up\b",
    *(
        rf"{word}[ \t]{{1,3}}(?:choice|option|pick)s?\b"
        for word in ("second", "backup", "fallback", "alternative")
    ),
    r"also[ \t]{1,3}(?:recommend|suggest|consider|like)\b",
    r"fits[ \t]{1,3}you\b",
    r"point[ \t]{1,3}you[ \t]{1,3}(?:to|towards?)\b",
    r"comes?[ \t]{1,3}out[ \t]{1,3}(?:on[ \t]{1,3}top|ahead)\b",
    r"i(?:'d|[ \t]{1,3}would|'ll|[ \t]{1,3}will)[ \t]{1,3}(?:pick|choose|go[ \t]{1,3}(?:with|for)|take)\b",
    *(
        rf"{word}[ \t]{{1,3}}(?:vote|pick|choice|favou?rite|shortlist)s?\b"
        for word in ("my", "our", "top")
    ),
    r"shortlist\b",
    r"put[ \t]{1,3}forward\b",
    r"well[ \t]{1,3}served\b",
    r"serve[ \t]{1,3}you[ \t]{1,3}well\b",
    r"suit[ \t]{1,3}you\b",
]
_NEGATION_WORDS = [
    r"not\b",
    r"never\b",
    r"ineligible\b",
    r"avoid\b",
    r"unfortunately\b",
    r"no[ \t]{1,3}longer\b",
    r"cannot\b",
    r"unable\b",
    r"disqualif\w*",
    r"decline[sd]?\b",
    r"nor\b",
    r"wouldn't\b",
    r"skip\b",
    r"pass[ \t]{1,3}on\b",
    r"out[ \t]{1,3}of[ \t]{1,3}reach\b",
    r"left[ \t]{1,3}(?:it[ \t]{1,3})?out\b",
    r"leave[ \t]{1,3}(?:it[ \t]{1,3})?out\b",
    r"exclud\w*",
    r"rule[sd]?[ \t]{1,3}out\b",
    r"steer[ \t]{1,3}clear\b",
    r"no[ \t]{1,3}need\b",
    r"already[ \t]{1,3}(?:hold|have|own|in[ \t]{1,3}your)\b",
]
_CONTRAST_WORDS = [
    r"over\b",
    r"instead[ \t]{1,3}of\b",
    r"rather[ \t]{1,3}than\b",
    r"unlike\b",
    r"than\b",
    r"vs\b\.?",
    r"versus\b",
]
_CLAUSE_WORDS = [
    rf"{word}\b"
    for word in (
        "because",
        "since",
        "but",
        "while",
        "although",
        "however",
        "whereas",
        "so",
        "if",
        "when",
        "unless",
        r"as[ \t]long[ \t]as",
        "though",
    )
]
RECOMMEND = re.compile(at_word_start(_RECOMMEND_WORDS))
NEGATION = re.compile(at_word_start(_NEGATION_WORDS) + r"|n't\b")
# Negators that only apply to what follows them ("X over Y": Y is not recommended).
CONTRAST = re.compile(at_word_start(_CONTRAST_WORDS))
CLAUSE_BOUNDARY = re.compile(r",|;|" + at_word_start(_CLAUSE_WORDS))
