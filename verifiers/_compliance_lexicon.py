"""The compliance extractor's vocabulary: value patterns and the cue words that type them.

Kept apart from the extraction logic so that the words (which grow as new phrasings turn up) and
the algorithm (which should not) change independently. Every pattern runs on the lower-cased,
normalised text, once per response, and uses bounded repetition only, so 1 MB of adversarial
input stays linear.
"""

from __future__ import annotations

import re

_NUM = r"\d{1,3}(?:\.\d{1,3})?"
_PCT = r"[ \t]{0,2}(?:%|percent\b|per[ \t]?cent\b|pct\b)"

# -- values ----------------------------------------------------------------------------------
# Group names say what was found; the extractor dispatches on ``match.lastgroup``-style checks.
VALUES = re.compile(
    "|".join(
        (
            # A percentage range: "19.99%-29.99%", "19.99 to 29.99 percent", "between 19.99% and 29.99%".
            rf"(?<![\d.])(?P<ra>{_NUM})(?:{_PCT})?[ \t]{{0,3}}(?:-{{1,2}}|to|through|thru)[ \t]{{0,3}}"
            rf"(?P<rb>{_NUM}){_PCT}",
            rf"\bbetween[ \t]{{1,3}}(?P<ba>{_NUM})(?:{_PCT})?[ \t]{{1,3}}and[ \t]{{1,3}}(?P<bb>{_NUM}){_PCT}",
            # A single percentage.
            rf"(?<![\d.])(?P<pct>{_NUM}){_PCT}",
            r"\b(?P<zero>zero)[ \t-]{1,3}(?:%|percent\b)",
            # Dollar amounts: "$95", "$1,000", "$0.50", "95 dollars", "USD 95".
            r"\$[ \t]{0,2}(?P<usd>\d{1,3}(?:,\d{3})+|\d{1,7})(?P<cents>\.\d{1,2})?(?![\d])",
            r"(?<![\d.$])(?P<usdw>\d{1,7}(?:\.\d{1,2})?)[ \t]{0,2}(?:dollars?|usd|bucks)\b",
            r"\busd[ \t]{0,2}(?P<usdp>\d{1,7}(?:\.\d{1,2})?)\b",
            # Statements that a card has no such fee (or no penalty APR).
            r"(?P<none_annual>\bno[ \t-]{1,3}(?:annual|yearly|membership)[ \t-]{1,3}fees?\b"
            r"|\bzero[ \t]{1,3}annual[ \t]{1,3}fees?\b"
            r"|\b(?:does[ \t]{1,3}not|doesn't|won't|will[ \t]{1,3}not|never)[ \t]{1,3}(?:charge|have|carry|impose)s?"
            r"[ \t]{1,3}(?:an?[ \t]{1,3}|any[ \t]{1,3})?annual[ \t]{1,3}fees?\b"
            r"|\bwithout[ \t]{1,3}(?:an?[ \t]{1,3}|any[ \t]{1,3})?annual[ \t]{1,3}fees?\b"
            r"|\bannual[ \t]{1,3}fee[ \t]{0,3}(?::|-|is|of)?[ \t]{0,3}(?:\*\*)?[ \t]{0,2}none\b"
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

_WORD_MONTHS = {
    "three": 3, "six": 6, "nine": 9, "twelve": 12, "fifteen": 15, "eighteen": 18,
    "twenty-one": 21, "twenty one": 21, "twenty-four": 24, "twenty four": 24, "seven": 7,
    "eight": 8, "ten": 10, "eleven": 11, "thirteen": 13, "fourteen": 14, "sixteen": 16,
    "seventeen": 17, "nineteen": 19, "twenty": 20, "four": 4, "five": 5, "one": 1, "two": 2,
}
MONTHS = re.compile(
    r"(?<![\d.])(?P<m>\d{1,2})[ \t]{0,2}(?:-[ \t]{0,2})?(?:full[ \t]{1,3}|consecutive[ \t]{1,3}|calendar[ \t]{1,3})?"
    r"(?:months?|mos?\b\.?|billing[ \t]{1,3}cycles?|statement[ \t]{1,3}(?:cycles?|periods?))"
    r"|\b(?P<w>" + "|".join(sorted(_WORD_MONTHS, key=len, reverse=True)) + r")[ \t-]{1,3}"
    r"(?:full[ \t]{1,3})?(?:months?|billing[ \t]{1,3}cycles?)\b"
    r"|\b(?P<y>first|one|1)[ \t]{1,3}(?:full[ \t]{1,3})?year\b"
)


def months_value(match: re.Match[str]) -> int:
    if match.group("m"):
        return int(match.group("m"))
    if match.group("w"):
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

# Ordered: at one position the first alternative wins, so longer phrases come before their parts.
_CUE_PATTERNS: tuple[tuple[str, str], ...] = (
    (MIN_INTEREST, r"minimum[ \t]{1,3}interest(?:[ \t]{1,3}charges?)?|min\.?[ \t]{1,3}interest"),
    # Interest amounts in worked examples ("$150 in interest") are not rates or fees.
    ("reward_interest", r"in[ \t]{1,3}interest\b|interest[ \t]{1,3}(?:cost|paid|charges?[ \t]{1,3}of|of[ \t]{1,3}about)"),
    (APR, r"annual[ \t]{1,3}percentage[ \t]{1,3}rates?|aprs?\b|interest[ \t]{1,3}rates?|interest\b|rates?\b"),
    (FIRST_YEAR, r"first[ \t]{1,3}year|1st[ \t]{1,3}year|intro(?:ductory)?[ \t]{1,3}annual[ \t]{1,3}fee"),
    (ANNUAL, r"annual(?:ly)?\b|yearly\b|per[ \t]{1,3}year\b|a[ \t]{1,3}year\b|each[ \t]{1,3}year\b|"
             r"every[ \t]{1,3}year\b|membership\b"),
    (FOREIGN, r"foreign\b|international\b|overseas\b|abroad\b|fx\b|currency[ \t]{1,3}conversion"),
    (LATE, r"late\b|past[ \t]{1,3}due\b"),
    (BT, r"balance[ \t-]{1,3}transfers?\b|transfers?\b|bt\b"),
    (CASH, r"cash[ \t-]{1,3}advances?\b|advances?\b|atm\b|cash[ \t-]{1,3}equivalent"),
    (PURCHASE, r"purchases?\b"),
    (PENALTY, r"penalty\b|default[ \t]{1,3}(?:apr|rate)"),
    (INTRO, r"intro(?:ductory)?\b|promo(?:tional)?\b|teaser\b|limited[ \t]{1,3}time\b"),
    (AFTER, r"after[ \t]{1,3}that\b|then\b|thereafter\b|afterwards?\b|"
            r"after[ \t]{1,3}(?:the|this|that|its)[ \t]{1,3}(?:intro(?:ductory)?|promo(?:tional)?|offer|initial)|"
            r"once[ \t]{1,3}(?:the|that|it)\b|when[ \t]{1,3}(?:the|it)[ \t]{1,3}(?:intro|promo|offer)|"
            r"after[ \t]{1,3}(?:\d{1,2}|the[ \t]{1,3}first[ \t]{1,3}\d{1,2})[ \t-]{0,2}months?\b|"
            r"goes[ \t]{1,3}to\b|reverts?[ \t]{1,3}to\b|rises[ \t]{1,3}to\b|jumps[ \t]{1,3}to\b|"
            r"(?:the[ \t]{1,3})?offer[ \t]{1,3}ends|expires\b|ends\b"),
    (REGULAR, r"standard\b|ongoing\b|regular\b|go-to\b|non-intro(?:ductory)?\b"),
    (MINIMUM, r"minimum\b|min\b\.?|at[ \t]{1,3}least\b|whichever[ \t]{1,3}is[ \t]{1,3}(?:greater|higher|more|larger)|"
              r"no[ \t]{1,3}less[ \t]{1,3}than\b"),
    (FEE, r"fees?\b"),
    (VARIABLE, r"variable\b"),
    (FIXED, r"fixed\b"),
    (REWARD, r"cash[ \t-]?back\b|back\b|rewards?\b|points?\b|miles?\b|earn(?:s|ing|ed)?\b|bonus\b|"
             r"statement[ \t]{1,3}credits?\b|travel[ \t]{1,3}credits?\b|spend(?:s|ing)?\b|save[sd]?\b|savings\b|"
             r"utili[sz]ation\b|score\b|discount\b|off\b|caps?\b|capped\b|income\b|salary\b|"
             r"limit\b|deposit\b|cashback\b|balances?\b|carry\b|carrying\b"),
)
CUES = re.compile(
    r"\b(?:" + "|".join(f"(?P<{name}>{pattern})" for name, pattern in _CUE_PATTERNS) + ")"
)
# Cue group name -> cue type (a type may have several groups, e.g. two kinds of reward cue).
CUE_TYPE = {name: ("reward" if name == "reward_interest" else name) for name, _ in _CUE_PATTERNS}

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
    r"\b(?:all|both|each|every|either|neither)[ \t]{1,3}(?:of[ \t]{1,3})?(?:the[ \t]{1,3}|these[ \t]{1,3}|"
    r"those[ \t]{1,3}|our[ \t]{1,3}|my[ \t]{1,3}|three[ \t]{1,3}|two[ \t]{1,3}|four[ \t]{1,3})?"
    r"(?:cards?|options|products|of[ \t]{1,3}them|three|two)\b"
)
RESPECTIVELY = re.compile(r"\brespectively\b")
# Text between two card names that joins them into one subject ("X and Y both ...").
NAME_JOINER = re.compile(
    r"^[ \t,]{0,3}(?:\*\*)?[ \t,]{0,3}(?:and|or|&|as[ \t]well[ \t]as)?[ \t]{0,3}(?:the[ \t]{1,3})?(?:\*\*)?[ \t]{0,3}$"
)

# -- recommendations ---------------------------------------------------------------------------
RECOMMEND = re.compile(
    r"\brecommend\w*|\bsuggest\w*|\bbest\b|\bideal\b|\bsuit(?:s|ed|able)?\b|\bperfect\b|"
    r"\b(?:good|great|excellent|strong|solid|smart|top|safe|natural|clear)[ \t]{1,3}(?:fit|choice|option|match|pick|bet|candidate)\b|"
    r"\bshould[ \t]{1,3}(?:apply|get|consider|go|choose|pick|open)\b|\bgo[ \t]{1,3}(?:with|for)\b|"
    r"\bmy[ \t]{1,3}(?:pick|choice|recommendation|top)\b|\b(?:you[ \t]{1,3}(?:qualify|are[ \t]{1,3}eligible)|you're[ \t]{1,3}eligible)\b|"
    r"\beligible\b|\bconsider\b|\bworth[ \t]{1,3}(?:it|considering|applying|a[ \t]{1,3}look)\b|"
    r"\bright[ \t]{1,3}(?:card|choice|fit|pick)\b|\bwould[ \t]{1,3}(?:work|serve|be[ \t]{1,3}a[ \t]{1,3}(?:good|great|strong))\b|"
    r"\bstands?[ \t]{1,3}out\b|\bmakes[ \t]{1,3}(?:the[ \t]{1,3}most[ \t]{1,3})?sense\b|\bwinner\b|\bfits[ \t]{1,3}you\b"
)
NEGATION = re.compile(
    r"\bnot\b|n't\b|\bnever\b|\bineligible\b|\bavoid\b|\bunfortunately\b|\bno[ \t]{1,3}longer\b|"
    r"\bcannot\b|\bunable\b|\bdisqualif\w*|\bdecline[sd]?\b|\bnor\b|\bwouldn't\b|\bskip\b|\bpass[ \t]{1,3}on\b"
)
# Negators that only apply to what follows them ("X over Y": Y is not recommended).
CONTRAST = re.compile(r"\bover\b|\binstead[ \t]{1,3}of\b|\brather[ \t]{1,3}than\b|\bunlike\b|\bthan\b|\bvs\b\.?|\bversus\b")
CLAUSE_BOUNDARY = re.compile(
    r"[,;]|\bbecause\b|\bsince\b|\bbut\b|\bwhile\b|\balthough\b|\bhowever\b|\bwhereas\b|\bso\b|"
    r"\bif\b|\bwhen\b|\bunless\b|\bas[ \t]long[ \t]as\b|\bthough\b"
)
