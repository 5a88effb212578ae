"""The compliance extractor's phrase patterns: figures and durations, clause boundaries, the
words that attribute, disown or report a figure, and the words that recommend or rule out a card.

The cue words that type a figure are in ``cue_words``, the pattern builders in ``matchers``. Kept
apart from the extraction logic so that the words (which grow as new phrasings turn up) and the
algorithm (which should not) change independently. Every pattern runs on the lower-cased,
normalised text, once per response, and uses bounded repetition only, so 1 MB of adversarial
input stays linear.
"""

from __future__ import annotations

import re

from replicas.verifiers.compliance.matchers import at_word_start
from replicas.verifiers.compliance.numwords import NUMBER_WORDS, parse_number_words

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
# Ruleset 4: further ways of putting a card forward.
_POSITIVE_ADJECTIVES = (
    "rewarding|suitable|sensible|valuable|useful|versatile|flexible|practical|affordable|"
    "economical|generous"
)
_MORE_RECOMMEND_WORDS = [
    r"fits?[ \t]{1,3}your\b",
    r"suits?[ \t]{1,3}your\b",
    r"ticks?[ \t]{1,3}(?:\w+[ \t]{1,3}){0,2}box(?:es)?\b",
    r"propos(?:e|es|ed|ing)\b",
    r"i(?:'d|[ \t]{1,3}would|[ \t]{1,3}will|'ll)[ \t]{1,3}(?:get|apply|open|grab|lean|favou?r|"
    r"propose|put|sign[ \t]{1,3}up|back|stick[ \t]{1,3}with)\b",
    *(rf"{w}[ \t]{{1,3}}for[ \t]{{1,3}}you\b" for w in ("card", "one", "pick", "option", "choice")),
    r"in[ \t]{1,3}your[ \t]{1,3}shoes\b",
    r"verdict\b",
    r"bottom[ \t]{1,3}line\b",
    r"final[ \t]{1,3}(?:answer|pick|choice|verdict|recommendation)\b",
    r"strongest\b",
    r"stand-?out\b",
    r"tailor[ \t-]?made\b",
    r"lean(?:s|ing)?[ \t]{1,3}(?:towards?|to)\b",
    r"favou?r\b",
    r"better[ \t]{1,3}(?:of[ \t]{1,3}the|fit|choice|option|pick|match|bet)\b",
    rf"most[ \t]{{1,3}}(?:{_POSITIVE_ADJECTIVES})[ \t]{{1,3}}(?:choice|option|pick|card|fit)\b",
    r"way[ \t]{1,3}to[ \t]{1,3}go\b",
    r"go-to\b",
    r"worth[ \t]{1,3}(?:getting|opening|having)\b",
    # marketing copy and e-mails put a card forward too
    r"introduc(?:ing|e)[ \t]{1,3}(?:you[ \t]{1,3}to[ \t]{1,3})?(?:the[ \t]{1,3}|our[ \t]{1,3})?(?:new[ \t]{1,3})?"
    r"(?:\*\*)?#",
    r"meet[ \t]{1,3}(?:the[ \t]{1,3})?(?:new[ \t]{1,3})?(?:\*\*)?#",
    r"discover[ \t]{1,3}(?:the[ \t]{1,3})?(?:\*\*)?#",
    r"try[ \t]{1,3}(?:the[ \t]{1,3})?(?:\*\*)?#",
    r"say[ \t]{1,3}hello[ \t]{1,3}to\b",
    *(
        rf"{w}[ \t]{{1,3}}to[ \t]{{1,3}}(?:offer|introduce|present)\b"
        for w in ("pleased", "happy", "delighted", "excited", "glad", "like")
    ),
    r"offer[ \t]{1,3}you[ \t]{1,3}(?:the[ \t]{1,3})?(?:\*\*)?#",
    r"invited[ \t]{1,3}to[ \t]{1,3}apply\b",
    r"pre-?approved\b",
    r"apply[ \t]{1,3}(?:today|now|online)\b",
    r"sign[ \t]{1,3}up[ \t]{1,3}(?:today|now)\b",
    r"upgrade[ \t]{1,3}to\b",
    r"switch[ \t]{1,3}to\b",
    r"why[ \t]{1,3}not\b",
    r"check[ \t]{1,3}out\b",
    r"go[ \t]{1,3}w/",
    r"hands[ \t]{1,3}down\b",
    r"you(?:'ll|'d|[ \t]{1,3}will|[ \t]{1,3}would)[ \t]{1,3}love\b",
    r"made[ \t]{1,3}for[ \t]{1,3}you\b",
    r"designed[ \t]{1,3}(?:for|with)[ \t]{1,3}(?:you|people[ \t]{1,3}like[ \t]{1,3}you)\b",
    r"addition[ \t]{1,3}to[ \t]{1,3}your[ \t]{1,3}wallet\b",
    r"first[ \t]{1,3}(?:choice|pick)\b",
    r"go[ \t]{1,3}wrong[ \t]{1,3}with\b",
    r"hesitate[ \t]{1,3}to\b",
    r"hard[ \t]{1,3}to[ \t]{1,3}beat\b",
    r"no-brainer\b",
    r"one[ \t]{1,3}to[ \t]{1,3}(?:get|go[ \t]{1,3}for|pick|choose|apply[ \t]{1,3}for|beat)\b",
    r"lines?[ \t]{1,3}up[ \t]{1,3}(?:well[ \t]{1,3}|nicely[ \t]{1,3})?with[ \t]{1,3}your\b",
    r"match(?:es)?[ \t]{1,3}your\b",
    r"aligns?[ \t]{1,3}(?:well[ \t]{1,3})?with[ \t]{1,3}your\b",
    *(
        rf"{w}[ \t]{{1,3}}you[ \t]{{1,3}}(?:toward|towards|to)\b"
        for w in ("steer", "nudge", "push")
    ),
    r"gets?[ \t]{1,3}(?:the|my)[ \t]{1,3}nod\b",
    r"edges?[ \t]{1,3}it\b",
    r"top[ \t]{1,3}spot\b",
    r"wins?[ \t]{1,3}(?:for[ \t]{1,3}you|out|here|hands[ \t]{1,3}down)\b",
    r"good[ \t]{1,3}shout\b",
    r"do[ \t]{1,3}you[ \t]{1,3}(?:nicely|well|proud)\b",
]
# Ruleset 4: negations that do not rule a card out - a double negative ("you can't go wrong
# with X", "I wouldn't hesitate"), a hedge ("not just", "not only") or a negated term in the
# reasons for a pick ("I recommend X: it doesn't charge an annual fee", "you won't pay interest").
NEGATION_NOT_RULING_OUT = re.compile(
    r"(?:can't|cannot|can[ \t]not)[ \t]{1,3}(?:go[ \t]{1,3}wrong|beat)\b"
    r"|(?:wouldn't|won't|don't|do[ \t]not|would[ \t]not|didn't)[ \t]{1,3}hesitate\b"
    r"|\bnot[ \t]{1,3}(?:just|only|least|sure)\b|(?:won't|will[ \t]not)[ \t]{1,3}regret\b"
    r"|(?:n't|\bnot|\bnever)\b[^.;:,()|\n!?]{0,40}?\b(?:fees?|charge[sd]?|interest|apr|pay|paying)\b"
)
RECOMMEND_MORE = re.compile(
    at_word_start(_RECOMMEND_WORDS + _MORE_RECOMMEND_WORDS)
    + "|[\U0001f3c6\U0001f947\U0001f451\u2705\U0001f449\u27a1\u2b50\U0001f31f]"
)  # a trophy, a gold medal, a crown, a check mark, a pointing hand, an arrow or a star: the pick
# Ruleset 7: more ways of putting a card forward, found by writing recommendations to a customer
# in many registers (advice, e-mail, marketing, chat); the card is masked as "#".
RECOMMEND_7 = re.compile(
    r"\b(?:"
    + "|".join(
        [
            r"take[ \t]{1,3}a[ \t]{1,3}(?:closer[ \t]{1,3}|good[ \t]{1,3})?look[ \t]{1,3}at\b",
            r"right[ \t]{1,3}for[ \t]{1,3}you\b",
            r"(?:pick|choice|suggestion|recommendation)[ \t]{0,2}:",
            r"should[ \t]{1,3}be[ \t]{1,3}your\b",
            r"(?:card|one)[ \t]{1,3}to[ \t]{1,3}(?:get|have|pick|choose|apply[ \t]{1,3}for|open)\b",
            r"checks?[ \t]{1,3}(?:\w+[ \t]{1,3}){0,2}box(?:es)?\b",
            r"(?:do|does|fare)[ \t]{1,3}(?:well|nicely|great)[ \t]{1,3}with\b",
            r"wins\b(?=[ \t]*(?:[.!,;]|$))",
            r"(?:great|good|perfect|natural|strong)[ \t]{1,3}(?:fit|match)[ \t]{1,3}for\b",
            r"works?[ \t]{1,3}(?:best|well)[ \t]{1,3}for[ \t]{1,3}you\b",
            # telling the customer they can have the card puts it forward as much as praise
            r"you(?:'d|[ \t]{1,3}would|[ \t]{1,3}can|[ \t]{1,3}could|'ll|[ \t]{1,3}will)[ \t]{1,3}"
            r"(?:qualify|be[ \t]{1,3}(?:eligible|approved))\b",
            r"you[ \t]{1,3}(?:can|could)[ \t]{1,3}(?:get|open|apply[ \t]{1,3}for|sign[ \t]{1,3}up"
            r"[ \t]{1,3}for|grab|have)[ \t]{1,3}(?:the[ \t]{1,3}|an?[ \t]{1,3})?(?:\*\*|__)?#",
            r"(?:available|open)[ \t]{1,3}to[ \t]{1,3}you\b",
            r"(?:people|students|someone|folks|customers)[ \t]{1,3}(?:like|such[ \t]{1,3}as)"
            r"[ \t]{1,3}you\b",
            r"(?:stronger|smarter|safer|better|best)[ \t]{1,3}(?:option|choice|pick|fit|bet)\b",
            r"(?:good|great|solid|ideal|perfect)[ \t]{1,3}(?:first|starter)[ \t]{1,3}card\b",
            r"where[ \t]{1,3}i(?:'d|[ \t]{1,3}would)[ \t]{1,3}start\b",
            r"money's[ \t]{1,3}on\b",
            r"has[ \t]{1,3}to[ \t]{1,3}be[ \t]{1,3}(?:the[ \t]{1,3})?(?:\*\*|__)?#",
            r"definitely[ \t]{1,3}(?:the[ \t]{1,3})?(?:\*\*|__)?#",
            r"no[ \t]{1,3}contest\b",
            r"get[ \t]{1,3}yourself\b",
            r"you[ \t]{1,3}want[ \t]{1,3}(?:the[ \t]{1,3})?(?:\*\*|__)?#",
            r"(?:is[ \t]{1,3})?(?:exactly[ \t]{1,3})?what[ \t]{1,3}you[ \t]{1,3}need\b",
            r"is[ \t]{1,3}the[ \t]{1,3}answer\b",
        ]
    )
    + r")|#[ \t]{1,3}for[ \t]{1,3}you\b"
)
# Ruleset 7: negations that rule nothing out: "why not try the X?", and a requirement or a
# drawback denied among the reasons for a pick ("you don't need a long credit history", "it
# doesn't require excellent credit", "it won't hurt", "isn't fussy about credit", "no catch",
# "for people who haven't built credit") - the verb right after the negator (one word may come
# between), never with the card itself as what is negated ("you don't need the X" is no reason).
NOT_RULING_OUT_7 = re.compile(
    r"\bwhy[ \t]{1,3}not\b"
    r"|(?:n't|\bnot|\bnever)[ \t]{1,3}(?:[a-z]+[ \t]{1,3})?(?:need|needs|require[sd]?|ask(?:s)?"
    r"[ \t]{1,3}for|demand[sd]?|hinge[sd]?|depend[sd]?|penali[sz]e[sd]?|hurt|matter|fussy|picky"
    r"|strict|worry|lose|built|established|hassle|much[ \t]{1,3}credit)\b"
    r"(?![ \t]{1,3}(?:(?:the|an?|this|that|your)[ \t]{1,3})?(?:\*\*|__)?#)"
    r"|\bno[ \t]{1,3}(?:[a-z]+[ \t]{1,3})?(?:catch|hassle|strings|minimum[ \t]{1,3}income"
    r"|deposit|credit[ \t]{1,3}history)\b"
)
# "Get the X", "Apply for the X - ...", "Go for the X": an imperative opening its clause, with
# a card mention (masked as "#") as its object.
IMPERATIVE_RECOMMEND = re.compile(
    r"[\s,;:*>#\-.!]*(?:so[ \t,]{1,3})?(?:just[ \t]{1,3}|definitely[ \t]{1,3})?"
    r"(?:get|grab|apply[ \t]{1,3}for|choose|pick|take|open|sign[ \t]{1,3}up[ \t]{1,3}for|go[ \t]{1,3}for"
    r"|try)[ \t]{1,3}(?:the[ \t]{1,3}|an?[ \t]{1,3}|your[ \t]{1,3}|this[ \t]{1,3})?(?:\*\*|__)?#"
)
NEGATION = re.compile(at_word_start(_NEGATION_WORDS) + r"|n't\b")
# Negators that only apply to what follows them ("X over Y": Y is not recommended).
CONTRAST = re.compile(at_word_start(_CONTRAST_WORDS))
# Ruleset 4: "steer you towards X and away from Y", "X, not Y", "X ahead of Y".
CONTRAST_MORE = re.compile(
    at_word_start(
        [*_CONTRAST_WORDS, r"away[ \t]{1,3}from\b", r"ahead[ \t]{1,3}of\b", r"not[ \t]{1,3}the\b"]
    )
)
CLAUSE_BOUNDARY = re.compile(r",|;|" + at_word_start(_CLAUSE_WORDS))
