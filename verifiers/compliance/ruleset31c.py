"""Ruleset 31's smaller claim readings - ``pairs_31``, ``needs_31``, ``generic_31`` - and the
helpers its modules share (``ruleset31`` holds the docstring's full account, ``shortrefs_31``,
``yearly_31`` and ``revise_31``; ``ruleset31b`` its readings of recommendations)."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import replace

from replicas.verifiers.compliance.attribution import UNION
from replicas.verifiers.compliance.claims import Claim, Extraction
from replicas.verifiers.compliance.matchers import word_set
from replicas.verifiers.compliance.mentions import EXACT, MISSPELLED
from replicas.verifiers.compliance.vocab import GENERIC_WORDS, NOT_NAME_WORDS, PRODUCT_WORDS

__all__ = [
    "ABBREVIATIONS",
    "CLAUSE_REACH",
    "FEE_WORDS",
    "NOT_SHORT",
    "generic_reading",
    "needed",
    "read_pairs",
    "sentence_of",
    "unit_of",
]

# -- the words of short names (``shortrefs_31``) ------------------------------------------------

# Words of card talk that never call a particular card (the product words are shared by many
# names: "Cash", "Rewards", "Miles"; tier words stay, since "the Preferred" calls one card).
NOT_SHORT = (
    GENERIC_WORDS
    | NOT_NAME_WORDS
    | (
        PRODUCT_WORDS
        - word_set(
            """
            plus preferred premier premium platinum gold silver elite select reserve pro max prime
            ultra edge flex advantage classic essential essentials black diamond titanium sapphire
            voyager explorer traveler sky signature infinite world unlimited
            """
        )
    )
)
# All-capitals words that may spell a name's initials but are something else: abbreviations of
# card talk ("BT" for "Beacon Traveler"), of everyday talk ("the CSR said"), currency codes
# ("billed in GBP") and the jargon of card forums ("CPP on the miles").
ABBREVIATIONS = word_set(
    """
    apr aprs apy atm ach fico ftf sub cb pts usd faq fyi tldr asap imo imho btw lol nfc pin mo yr
    min max avg est pst edt utc
    csr sec abc nbc cbs cto ceo cfo rbc pcr irs ssn ira llc diy eta pdf kyc aml dti ltv hsa fsa
    roi nyc usa
    eur gbp jpy cad aud nzd chf cny hkd sgd inr mxn brl zar sek nok dkk pln czk huf krw thb php
    idr myr aed sar ils rub cpp cpm msr mse bcc bsc bbc rrp pcp jcb llp ytd yoy mom eod eom tbd
    tba fwiw iirc afaik lmk smh tho ppl
    """
)


# -- shared by ruleset 31's modules ---------------------------------------------

_ROW_31 = re.compile(r"[ \t]*\|")
_SENTENCE_END_31 = re.compile(r"[.!?;](?:[ \t]|$)|\n")
_REACH_31 = 400


def sentence_of(masked: str, start: int, end: int) -> tuple[int, int]:
    head = masked[max(0, start - _REACH_31) : start]
    cuts = [m.end() for m in _SENTENCE_END_31.finditer(head)]
    begin = max(0, start - _REACH_31) + (cuts[-1] if cuts else 0)
    stop = _SENTENCE_END_31.search(masked, end, end + _REACH_31)
    return begin, stop.start() if stop is not None else min(len(masked), end + _REACH_31)


def unit_of(extraction: Extraction, pos: int) -> tuple[int, int]:
    units = extraction.units
    k = bisect_right(units, (pos, 1 << 62)) - 1
    return units[k] if k >= 0 else (0, pos)


# Between a short name and its figure: "Harbor's 14.99%", "the Preferred at $150/yr", "Plus: $95",
# "HSME is $495/yr", "Juniper's (23.99%-31.99%)" - the figure is the name's whatever stands before.


FEE_WORDS = re.compile(
    r"\b(?:fees?|af|charges?|charged|charging|costs?|costing|membership|annual(?:ly)?|waived?)\b"
)
# An amount worked out, by the words right at it: "+$133/yr", "wins by $19/yr", "gives you $360/yr",
# "worth about $400 a year", "= $606", "$360/yr back", "$44/yr ahead", "$250 in rewards".
CLAUSE_REACH = 60


# -- pairs_31 ---------------------------------------------------------------------------------------

_JOINER = re.compile(
    r"[ \t]*(?:\*\*|__)?[ \t]*(?:and|&)[ \t]*(?:the[ \t]+)?(?:\*\*|__)?[ \t]*", re.IGNORECASE
)
_PAIR_GAP = 160
_PAIR_ORDER = re.compile(
    r"'s\b|\u2019s\b|\b(?:lower|higher|lowest|highest|cheaper|pricier|first|second|respectively|order|"
    r"annual|late|foreign|transfer|cash|penalty)\b[^$%\n]{0,40}\band\b",
    re.IGNORECASE,
)
_BY_VALUE = re.compile(
    r"[^.;\n]{0,40}\b(?:the[ \t]+(?:higher|lower|bigger|smaller|larger|first|second)[ \t]+one|"
    r"(?:repeat|second|subsequent|later)[ \t]+(?:miss|late|offence|offense|payment)|"
    r"(?:lowest|highest|cheapest|smallest|biggest|largest)[ \t]+first|low[ \t]+to[ \t]+high|"
    r"high[ \t]+to[ \t]+low|by[ \t]+size|in[ \t]+(?:ascending|descending)[ \t]+order)\b",
    re.IGNORECASE,
)
# "$29 and $25 - Harbor charges more", "with Cardinal the pricier one": a name after the pair orders it
_NAMED_AFTER = re.compile(r"[^.!?\n]{0,60}?(?<![.!?] )\b[A-Z][a-z]+")
_BRACKET_NEXT = re.compile(r"[ \t]*\(")
_RANGE_WORDS = re.compile(r"\b(?:between|from|rang\w*|anywhere|either)\b", re.IGNORECASE)
_FIGURE_JOINER = re.compile(r"[ \t]*(?:and|&|,[ \t]*and)[ \t]*")
# before the pair in its clause: a contrast or a list ("Unlike X and Y, ...", "A, X and Y")
_PAIR_LEAD = re.compile(
    r"\b(?:like|unlike|compared|instead|after|not|skip|than|vs|versus|over|except|besides|rather|"
    r"before|beyond|only)\b|,[ \t]*(?:the[ \t]+)?$",
    re.IGNORECASE,
)


def read_pairs(extraction: Extraction, text: str) -> Extraction:
    """``pairs_31``: "X and Y both charge an annual fee, $39 and $29" - two figures of one kind
    joined by "and" after two cards joined by "and" are the cards' in order."""
    claims = list(extraction.claims)
    named = [
        m for m in extraction.mentions if m.card_id is not None and m.kind in (EXACT, MISSPELLED)
    ]
    if len(named) < 2 or len(claims) < 2:
        return extraction
    ends = [m.end for m in extraction.mentions]
    changed = False
    for k in range(len(claims) - 1):
        first, second = claims[k], claims[k + 1]
        if (
            not first.cards
            or not second.cards
            or first.family != second.family
            or first.kind != second.kind
            or first.family != "fee"
            or first.binding not in _PAIRABLE
            or second.binding not in _PAIRABLE
            or not _FIGURE_JOINER.fullmatch(text[first.end : second.start])
        ):
            continue
        # the two mentions nearest before the first figure, joined by "and", in its unit
        j = bisect_right(ends, first.start) - 1
        if j < 1:
            continue
        one, two = extraction.mentions[j - 1], extraction.mentions[j]
        if (
            one.card_id is None
            or two.card_id is None
            or one.card_id == two.card_id
            or not _JOINER.fullmatch(text[one.end : two.start])
            or not set(first.cards) | set(second.cards) <= {one.card_id, two.card_id}
        ):
            continue
        unit_start, unit_end = unit_of(extraction, first.start)
        if one.start < unit_start:
            continue
        if _PAIR_LEAD.search(text, max(unit_start, one.start - 60), one.start):
            continue
        if _BY_VALUE.match(text, second.end) or _NAMED_AFTER.match(text, second.end):
            continue  # "$25 and $29, lowest first"
        if _BRACKET_NEXT.match(text, second.end):
            continue  # "$40 and $29 (first miss, repeat)": one schedule, not a pair
        if first.start - two.end > _PAIR_GAP or _PAIR_ORDER.search(text, two.end, first.start):
            continue  # "Harbor's and Juniper's", "the lower and higher", "annual and late fees"
        if _RANGE_WORDS.search(text, two.end, first.start):
            continue  # "cost between $0 and $95 a year": a range, not a pair
        # a card named after the figures in their unit may say whose each is ("(Y/X)")
        if j + 1 < len(extraction.mentions) and extraction.mentions[j + 1].start < unit_end:
            continue
        claims[k] = replace(first, cards=(one.card_id,), binding="respectively")
        claims[k + 1] = replace(second, cards=(two.card_id,), binding="respectively")
        changed = True
    return replace(extraction, claims=tuple(claims)) if changed else extraction


_PAIRABLE = frozenset({"clause", "unit", "context", "collective", UNION})


# -- needs_31 --------------------------------------------------------------------------------------

# "needs only $300", "requires a $500", "if you can stretch to $300": an amount required, no fee
_NEEDS_BEFORE = re.compile(
    r"\b(?:needs?|requires?|requiring|put[ \t]+down|stretch[ \t]+to|deposit[ \t]+of|minimum[ \t]+of|"
    r"ties?[ \t]+up|lock[ \t]+up)[ \t]+(?:only[ \t]+|just[ \t]+|at[ \t]+least[ \t]+|an?[ \t]+)?$"
)


_FEE_LABEL = re.compile(
    r"\b(?:fees?|af)\b[ \t]*(?:\*\*|__)?[ \t]*[:=\-\u2013\u2014][ \t]*(?:\*\*|__)?[ \t]*$"
)
_CLAUSE_STOP = re.compile(r"[.;!?\n]|,|\band\b|\bbut\b|\bwhile\b")
_FRAGMENT = re.compile(r"[ \t*_>\-\u2022]*(?:an?|one)[ \t]")
_SAID_OF = re.compile(
    r"\b(?:it's|it[ \t]+is|it[ \t]+has|it[ \t]+makes|this[ \t]+(?:card|one)|that[ \t]+(?:card|one)|"
    r"they're|they[ \t]+are)\b"
)
_CAPITAL_WORD = re.compile(r"\b[A-Z][A-Za-z0-9'-]*")
_PRICED_AFTER = re.compile(
    r"[ \t]*(?:\*\*|__)?[ \t]*(?:(?:annual|yearly|late|foreign|transfer|membership)\b|(?:a|an|the)?[ \t]*"
    r"(?:fee|fees|af)\b|a[ \t]+year|/yr|/year|per[ \t]+(?:year|annum)|p\.a\.|annually|each[ \t]+year|"
    r"every[ \t]+year)"
)


def needed(claim: Claim, masked: str) -> bool:
    """``needs_31``: a dollar amount a card requires (a deposit, a spend) is no fee of it."""
    if claim.family != "fee" or claim.is_none or claim.unit != "usd":
        return False
    needs = _NEEDS_BEFORE.search(masked, max(0, claim.start - 30), claim.start)
    if needs is None:
        return False
    # "requires a $300 annual fee", "requires $120 in annual fees", "annual fee: requires $120",
    # "needs $95 a year" still state a fee
    if _PRICED_AFTER.match(masked, claim.end):
        return False
    rest = _CLAUSE_STOP.search(masked, claim.end, claim.end + CLAUSE_REACH)
    after = masked[claim.end : rest.start() if rest else claim.end + CLAUSE_REACH]
    lead = masked[max(0, needs.start() - CLAUSE_REACH) : needs.start()]
    cut = [m.end() for m in _CLAUSE_STOP.finditer(lead)]
    lead = lead[cut[-1] :] if cut else lead
    return not FEE_WORDS.search(after) and not _FEE_LABEL.search(lead)


# -- generic_31 -----------------------------------------------------------------------------------

# "a no-fee card", "a $0 annual fee card", "carry a no-foreign-fee card", "a flat 2% no-fee card":
# the figure inside an indefinite noun phrase headed by "card" is about cards in general
_GENERIC_BEFORE = re.compile(
    r"(?<![\w'])(?:a|an|one|any|another|some|other|extra|second|backup)[ \t]+"
    r"(?:[\w$%.,-]+[ \t]+){0,2}(?:\*\*|__)?$"
)
_GENERIC_AFTER = re.compile(r"(?:\*\*|__)?[ \t]*(?:[\w-]+[ \t]+){0,2}?cards?\b")
_PER_CARD = re.compile(r"\b(?:per|each|every)[ \t]+cards?\b")


def generic_reading(text: str, name_words: frozenset[str]) -> Callable[[Claim, str], bool]:
    """``generic_31`` for ``text`` (the original case; ``name_words``: the distinctive words of
    the catalog's card names)."""

    def generic(claim: Claim, masked: str) -> bool:
        return _generic_card(claim, masked, text, name_words)

    return generic


def _generic_card(claim: Claim, masked: str, text: str, name_words: frozenset[str]) -> bool:
    """The claim sits in "a(n) ... <claim> ... card" in a sentence about no card: not "X is a
    no-fee card", "It's a no-fee card", "Willow is a no-fee card", "...; a no-fee card"."""
    if claim.family != "fee":
        return False
    before = _GENERIC_BEFORE.search(masked, max(0, claim.start - 40), claim.start)
    if before is None:
        return False
    after = _GENERIC_AFTER.match(masked, claim.end)
    if after is None or _PER_CARD.search(masked, before.start(), after.end()):
        return False
    # a sentence that names a card, or a table row, says it of that card ("X is basically a
    # no-fee card", "| X | a great no annual fee card |", "For a no-fee card, X is my pick")
    begin, stop = sentence_of(masked, claim.start, claim.end)
    line_start = masked.rfind("\n", 0, claim.start) + 1
    if "#" in masked[begin:stop] or _ROW_31.match(masked, line_start):
        return False
    sentence = masked[begin:stop]
    if _FRAGMENT.match(sentence) or _SAID_OF.search(sentence):
        return False  # "...; a no-fee card with ...", "It's a no-fee card"
    return not any(w.lower() in name_words for w in _CAPITAL_WORD.findall(text, begin, stop))
