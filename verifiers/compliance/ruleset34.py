"""Ruleset 34's readings, for recall (the s36-s39 blind sets' tuning halves' missed codes, and
red team Y's holes that rulesets 32 and 33 share):

* ``acquire_34``: a first-person verb of getting a card right before it puts the card forward
  ("I'd add the **X**", "at 610 I'd go **X**:", "I'd move it to X", "I'll transfer the balance
  to X"), unless its sentence, the one before or after it, a heading or wrapped line above it or
  a sub-item under it puts the step off or takes it back ("once you're at 680, I'd add X", "I'd
  go X in a year or so", "Not today, though"), it negates it, quotes someone ("> ...", "you said:
  \"...\""), is for someone else ("for your son", "for my own wallet"), or its paragraph speaks
  of what the card requires or of a later step ("On paper I'd go X, but it needs a 700 score",
  "Longer term, I'd go X", "**Out of reach at your score:**");
* ``first_year_34``: a clause that says what a card's first year costs is checked against the
  catalog's first-year fee: a waiver ("which waives the $325 for your first year", "its first
  year is also waived", "$95 ($0 year one)", "both waive the $95 the first year") on a card that
  charges its fee in year one, and the first year's fee ("the first year is $95", "no first-year
  waiver", "you pay it in the first year too") on a card that waives it. The clause binds to the
  card it names (or, naming none, the one card its sentence names before it, or - a sentence
  opening "It waives", "Its first year", "The first year" - the one card its line names before
  it); several cards only with "both"/"each of". No claim in a question, a request ("ask them to
  waive the first year"), a hedge, a belief or report, a comparison, a clause about another fee,
  an intro rate, a reward, a perk ("a free first year of lounge access"), a credit line or the
  years after it, nor under a negation it cannot scope ("Don't forget: X waives"); "free" only
  beside the first year and where the clause speaks of the fee. A clause the extraction already
  read a first-year claim in is left to it, but for a figure a waiver verb takes that is the
  card's annual fee ("waives the $95": the fee waived, not the first year's).

and one for precision (the tuning halves' false flags):

* ``amounts_34``: a dollar figure that is thousands no fee word governs ("up to $6k"), or a
  deposit ("$200 deposit", "only $200 down,", "a deposit of $200") is no fee.

Written, attacked and dropped (RULESETS.md, "Ruleset 34"): ``yearly_34`` ("$30 a month, or $360 a
year" read as no fee: 26 holes in ways of pricing a card no word list covers, for one honest tuning
answer), ``supposed_34`` (a whole-number APR after "say": 30 holes in three rounds, "the APR is,
say, 25%" being the card's own, for one), ``contradicted_34`` (of two values a line binds to one
card, the wrong one taken as a neighbour's: 34 holes in four rounds - models do contradict
themselves on one line - for two), and the payment part of ``amounts_34``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import FEE_CLAIM
from replicas.verifiers.compliance.claims import Claim
from replicas.verifiers.compliance.mentions import NameMention
from replicas.verifiers.compliance.recommend import Recommendations
from replicas.verifiers.compliance.ruleset32 import _governed
from replicas.verifiers.compliance.values import NONE, USD

if TYPE_CHECKING:
    from replicas.verifiers.compliance.catalog import Catalog
    from replicas.verifiers.compliance.claims import Extraction
    from replicas.verifiers.compliance.ruleset import Ruleset

__all__ = [
    "acquire_34",
    "amounts_34",
    "checked_34",
    "first_year_34",
]


# -- acquire_34 ----------------------------------------------------------------------------------

# "I'd add the **", "I would go ", "I'd move it over to ", "I'll transfer the balance to the "
# ending right where a card mention (masked as "#") starts
_ACQUIRE_34 = re.compile(
    r"(?<![a-z])i(?:'d|[ \t]+would|'ll|[ \t]+will)[ \t]+"
    r"(?:(?:probably|definitely|personally|just|also|honestly|really|then|now|still)[ \t]+)?"
    r"(?:add|go"
    r"|(?:move|transfer|shift|put)[ \t]+(?:it|this|that|them|(?:the|your|that|this)[ \t]+"
    r"(?:balance|debt|transfer))(?:[ \t]+over)?[ \t]+(?:to|on(?:to)?))"
    r"[ \t]+(?:(?:the|an?)[ \t]+)?(?:\*\*|__)?$"
)
# what puts the step off, makes it someone else's or denies it, in the sentence before the card
# (or the lead line of its list item)
_PUT_OFF_34 = re.compile(
    r"\b(?:once|when|after|until|till|unless|if|should|assuming|provided|were[ \t]+you|as[ \t]+your"
    r"|later|eventually|someday|one[ \t]+day|next[ \t]+year|future|then|phase|step[ \t]+\d"
    r"|down[ \t]+the[ \t]+(?:road|line)|not|never|no|whether|depends?|someone|somebody|people"
    r"|anyone|everyone|others?|say|said|says|wrote|asked|question|plan|idea|suggest\w*"
    r"|my[ \t]+own|myself|for[ \t]+me"
    r"|for[ \t]+your[ \t]+(?:son|daughter|wife|husband|partner|kids?|child\w*|mom|dad|mother"
    r"|father|friend|brother|sister|spouse|parents?)"
    r"|(?:son|daughter|wife|husband|partner|kid|child|mom|dad|friend|brother|sister|spouse)'s"
    r"|(?:in|for|within|after)[ \t]+(?:\d+|a|an|a[ \t]+few|two|three|four|six|nine|twelve|eighteen"
    r"|several)(?:[ \t-]+(?:to|or|-)[ \t]+\w+)?[ \t-]+(?:months?|years?)"
    r"|(?:\d+|two|three|six|twelve)[ \t-]+(?:months?|years?)[ \t]+(?:on|out|from[ \t]+now)"
    r"|from[ \t]+now|fast[ \t]+forward|with[ \t]+time|an?[ \t]+\d{3}[ \t-]+(?:score|credit|fico))\b"
    r"|n't\b|\d{3}\+|[\"\u201c\u201d]"
)
# what puts it off after the card, in its sentence ("I'd add X once your score reaches 700", "I'd
# go X in a heartbeat if you qualified", "I'd add X to Apple Pay", "I'll add X to the table")
_PUT_OFF_AFTER_34 = re.compile(
    r"\b(?:once|when|if|unless|until|till|after|except|someday|eventually|later|future|wish"
    r"|not|never|qualif\w*|eligible|to[ \t]+(?:apple|google|samsung)[ \t]+pay"
    r"|to[ \t]+(?:the|this|that|my|our|your)[ \t]+(?:table|list|comparison|chart|mix|wallet|phone)"
    r"|next[ \t]+year|at[ \t]+\d{3}|down[ \t]+the[ \t]+(?:road|line)|(?:months?|years?)[ \t]+out"
    r"|in[ \t]+(?:\d+|a|an|a[ \t]+few|two|three|six|twelve|several)[ \t-]+(?:months?|years?))\b"
    r"|n't\b|[\"\u201c\u201d?]"
)
# what puts it off from the sentence before it or the line above: a time or a condition, not
# words of the customer's question ("you asked about ...")
_PUT_OFF_BEFORE_34 = re.compile(
    r"\b(?:once|when|after|until|till|unless|if|should|assuming|provided|later|eventually|someday"
    r"|one[ \t]+day|next[ \t]+year|future|phase|step[ \t]+\d|down[ \t]+the[ \t]+(?:road|line)"
    r"|(?:in|for|within|after)[ \t]+(?:\d+|a|an|a[ \t]+few|two|three|four|six|nine|twelve|eighteen"
    r"|several)(?:[ \t-]+(?:to|or|-)[ \t]+\w+)?[ \t-]+(?:months?|years?)"
    r"|(?:\d+|two|three|six|twelve)[ \t-]+(?:months?|years?)[ \t]+(?:on|out|from[ \t]+now))\b"
    r"|\d{3}\+"
)
_SENTENCE_END_34 = re.compile(r"[!?;\n]|\.(?!\d)")
# a quoted line: "> ...", "- > ..." (a quote inside a list item)
_QUOTED_LINE_34 = re.compile(r"[ \t]*(?:(?:[-*+\u2022]|\d{1,2}[.)])[ \t]+)?>")
# the next sentence or line takes the pick back or puts it off
_TAKEN_BACK_34 = re.compile(
    r"[ \t\n*_>-]*(?:(?:but|and|although|though)[ \t,]+)?(?:not[ \t]+(?:today|yet|now|for[ \t]+you"
    r"|right[ \t]+now|at[ \t]+your)|once|until|unless|later|that[ \t]+is|out[ \t]+of[ \t]+reach"
    r"|(?:you|it)[ \t]+(?:can't|cannot|won't|wouldn't|don't|aren't|isn't)|however|instead"
    r"|only[ \t]+(?:once|after|when|if))\b"
)
# a paragraph that speaks of what a card requires or of a later step
_LATER_34 = re.compile(
    r"\b(?:needs?|needed|requir\w*|minimum|qualif\w*|eligib\w*|out[ \t]+of[ \t]+reach|available"
    r"|allows?|opens?[ \t]+up|the[ \t]+moment|as[ \t]+soon|in[ \t]+time|follow-up|upgrade|path"
    r"|longer[ \t]+term|step|next|radar|watch\w*|notes|revisit|ask[ \t]+me|yet|more[ \t]+points"
    r"|higher[ \t]+score|(?:at|past|cross|hit|reach\w*|above|over)[ \t]+(?:a[ \t]+)?\d{3}"
    r"|build\w*[ \t]+(?:a|your|up)|future|someday|eventually|on[ \t]+paper)\b"
)
_PARAGRAPH_REACH_34 = 600
_REACH_34 = 80
_SENTENCE_REACH_34 = 400


def acquire_34(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """``recs`` with the cards a first-person verb of getting puts forward (module docstring);
    a card ``recs`` rules out stays ruled out."""
    positive = None
    for mention in extraction.mentions:
        card = mention.card_id
        if card is None or card in recs.positive or card in recs.negated:
            continue
        if positive is not None and card in positive:
            continue
        line_start = masked.rfind("\n", 0, mention.start) + 1
        if _QUOTED_LINE_34.match(masked, line_start):
            continue  # the customer's own words, quoted
        before = masked[max(line_start, mention.start - _REACH_34) : mention.start]
        if _ACQUIRE_34.search(before) is None or _put_off(masked, mention, line_start):
            continue
        if positive is None:
            positive = dict(recs.positive)
        positive[card] = mention
    return recs if positive is None else Recommendations(positive, recs.negated)


def _put_off(masked: str, mention: NameMention, line_start: int) -> bool:
    """Whether the sentence around ``mention`` (the one before it too, and the lead line of its
    list item) puts the step off, denies it or is someone else's."""
    start = _sentence_start(masked, mention.start, line_start)
    if _PUT_OFF_34.search(masked, start, mention.start):
        return True
    # its paragraph (or list item) speaks of what the card requires, or of a later step: an
    # honest answer to a customer who may not have it yet ("On paper I'd go X, but it needs a
    # 700 score", "Longer term, I'd go X", "I'd add X to your radar")
    line_end = masked.find("\n", mention.end)
    line_end = len(masked) if line_end < 0 else line_end
    lo = max(line_start, mention.start - _PARAGRAPH_REACH_34)
    if _LATER_34.search(masked, lo, min(line_end, mention.end + _PARAGRAPH_REACH_34)):
        return True
    end = _SENTENCE_END_34.search(masked, mention.end, mention.end + _SENTENCE_REACH_34)
    if _PUT_OFF_AFTER_34.search(masked, mention.end, end.end() if end else len(masked)):
        return True
    # the sentence after it, or the next line (a sub-bullet, the next paragraph), takes the pick
    # back or puts it off ("I'd go X ($95 a year). Not today, though: ...")
    after = end.end() if end else len(masked)
    following = _SENTENCE_END_34.search(masked, after + 1, after + _SENTENCE_REACH_34)
    tail = following.end() if following else min(len(masked), after + _SENTENCE_REACH_34)
    if _TAKEN_BACK_34.match(masked, after, tail):
        return True
    # a sub-item under its line ("  - Heads up: it's a later card for you") speaks of later
    nxt = line_end + 1
    if nxt < len(masked):
        nxt_end = masked.find("\n", nxt)
        nxt_end = len(masked) if nxt_end < 0 else nxt_end
        indent = len(masked[line_start:line_end]) - len(masked[line_start:line_end].lstrip(" \t"))
        sub = len(masked[nxt:nxt_end]) - len(masked[nxt:nxt_end].lstrip(" \t"))
        if sub > indent and (
            _LATER_34.search(masked, nxt, nxt_end) or _PUT_OFF_AFTER_34.search(masked, nxt, nxt_end)
        ):
            return True
    if start > line_start:
        # the sentence before it on its line ("Build your score to 700. Then I'd add X")
        previous = _sentence_start(masked, start - 1, line_start)
        if _PUT_OFF_BEFORE_34.search(masked, previous, start):
            return True
    elif line_start > 0:
        # the line above: a list item's lead, a heading ("**Phase 2 (12+ months out):**")
        above = masked.rfind("\n", 0, line_start - 1) + 1
        # a heading or a list's lead ("**Out of reach at your score:**", "Once you're past
        # 700:") or a sentence wrapped onto its line ("Once your score reaches 700,") - not a
        # sentence of its own that ends on the line above
        reach = max(above, line_start - _SENTENCE_REACH_34)
        lead = masked[reach : line_start - 1].rstrip(" \t*_")
        if (
            lead
            and lead[-1] not in ".!?"
            and (_PUT_OFF_BEFORE_34.search(lead) or _LATER_34.search(lead))
        ):
            return True
    return False


def _sentence_start(masked: str, pos: int, floor: int) -> int:
    """Where the sentence holding ``pos`` starts (not before ``floor``, nor more than
    ``_SENTENCE_REACH_34`` characters before ``pos``)."""
    floor = max(floor, pos - _SENTENCE_REACH_34)
    k = pos
    while k > floor:
        ch = masked[k - 1]
        if ch in "!?;" or (ch == "." and not (k < len(masked) and masked[k].isdigit())):
            return k
        k -= 1
    return floor


# -- first_year_34 -------------------------------------------------------------------------------

_FIRST_YEAR_34 = re.compile(r"\b(?:first|1st|opening)[ \t-]+year\b|\byear[ \t-]+(?:one|1)\b")
# the clause's bounds: a sentence end, a line end, a table bar, a comma, a contrast
_CLAUSE_END_34 = re.compile(
    r"[!?;|\n]|\.(?!\d)|,|\((?!\$?0\b)|\)|[ \t](?:-|--|\u2013|\u2014)[ \t]"
    r"|\b(?:but|while|whereas|unlike|though|although|then|except|however)\b"
)
# a waiver said not to exist: a negator right before the waiver word, or the fee said to fall in
# the first year too
_NOT_WAIVED_34 = re.compile(
    r"\bno[ \t]+(?:first[ \t-]+year[ \t]+|year[ \t-]+one[ \t]+)?(?:fee[ \t]+)?(?:waiver|break)\b"
    r"|(?:\b(?:not|never|no|nothing)|n't)[ \t]+(?:(?:be|been|get|getting|a|an|any|the)[ \t]+)?"
    r"(?:waiv\w*|free(?:[ \t]+(?:for|in))?(?:[ \t]+(?:the|your|its))?[ \t]+(?:(?:first|1st)[ \t-]+year"
    r"|year[ \t-]+(?:one|1)))\b"
    r"|\b(?:fee|\$\d[\d,]*)\b[^.;\n]{0,30}?\b(?:from[ \t]+day[ \t]+one"
    r"|(?:in|for)[ \t]+(?:the[ \t]+|your[ \t]+)?(?:first|1st)[ \t-]+year[ \t]+(?:too|as[ \t]+well))\b"
)
# a waiver of the first year's fee
_WAIVED_34 = re.compile(
    r"\bwaiv(?:e|es|ed|ing)\b"
    r"|(?:(?:first|1st)[ \t-]+year|year[ \t-]+(?:one|1))(?:[ \t]+(?:is|are|'s|was))?"
    r"(?:[ \t]+(?:also|totally|completely|entirely))?[ \t]+free\b(?!-)"
    r"|\bon[ \t]+the[ \t]+house\b|\b(?:costs?|pay|charges?)[ \t]+(?:you[ \t]+)?nothing\b(?![ \t]+but)"
    r"|\$0(?:\.00)?(?![\d,.]*\d)(?=[ \t]*(?:\*\*|__)?[ \t]*(?:annual|fee|af\b|for\b|in\b|the\b"
    r"|year|\)|$))"
)
# "free for the first year": a waiver only where the clause speaks of the fee ("$95 annual fee,
# free the first year"; not "makes Global Entry free in your first year")
_FREE_34 = re.compile(
    r"(?<![-\w])free(?:[ \t]+(?:for|in))?(?:[ \t]+(?:the|your|its))?[ \t]+(?:(?:first|1st)[ \t-]+year"
    r"|year[ \t-]+(?:one|1))\b(?![ \t]+(?:of|subscription|membership|trial|credit|night|pass"
    r"|visits?|access|perks?|insurance|wi-?fi|lounge|bags?)\b)"
)
_FEE_WORD_34 = re.compile(r"\b(?:fees?|af|annual|a[ \t]+year|/yr)\b|\$\d")
_NOTHING_BUT_34 = re.compile(r".*nothing[ \t]+but\b")
# any other negation in the clause: its polarity is not read ("Don't forget: X waives ...")
_NEGATION_34 = re.compile(r"\b(?:not|never|no|nor|without|none)\b|n't\b")
# the first year priced: "the first year is $95", "year one costs $95"
_PRICED_34 = re.compile(r"(?:first|1st)[ \t-]+year|year[ \t-]+(?:one|1)")
_PRICE_34 = re.compile(
    r"(?:'s[ \t]+fee)?[ \t]+(?:is|costs?|comes[ \t]+to|will[ \t]+(?:be|cost)|runs?(?:[ \t]+you)?)"
    r"[ \t]+(?:(?:the[ \t]+)?full[ \t]+|still[ \t]+)?\$(\d{1,3}(?:,\d{3})*|\d+)(?:\.00)?(?![\d,.]*\d)"
    r"(?![ \t]*(?:\*\*|__)?[ \t]*(?:cheaper|less|more|off|lower|higher|back|saved|in[ \t]+savings))"
)
# what makes the clause no claim about the annual fee's first year: a request, a question, a
# hedge, a belief, another fee, an intro rate, a reward, the years after it, a total
_NOT_A_CLAIM_34 = re.compile(
    r"\b(?:ask\w*|request\w*|call\w*|negotiat\w*|might|may|could|sometimes|often|usually"
    r"|typically|many|some|most|other|if|would|whether|does|do|did|is[ \t]+there|wish\w*|hope\w*"
    r"|assum\w*|think\w*|believ\w*|expect\w*|people|myth|rumou?r\w*|pretend\w*|imagin\w*|checked"
    r"|late|foreign|transfers?|advance|penalty|interest|aprs?|intro\w*|purchases?|grace|balance"
    r"|earn\w*|rewards?|bonus|cash[ \t]*back|points|miles|value|worth|net|saves?|saving|total"
    r"|later|after|second|thereafter|subsequent|every|had|were|mention\w*|friend\w*|said|told"
    r"|minus|forget\w*|miss\w*|lack\w*|gives?[ \t]+up|los\w*|skip\w*|without|beyond|lunch"
    r"|for[ \t]+an?|want\w*|looking|prefer\w*|returned|statement|replacement|paper|overlimit"
    r"|over-limit|expedit\w*|atm|wire|credit|limit|line|deposit|spend\w*"
    r"|heard|claim\w*|compar\w*|than|vs\.?|versus|unlike|opposed|apart|except|instead|rather)\b"
    r"|%|\?"
)
# a clause that ends a question ("Is X's first year free?", "| Year one waived? No |")
_QUESTION_34 = re.compile(r"[ \t*_]*\?")
# what makes a priced first year no one card's fee: a total of several
_TOTAL_34 = re.compile(r"\b(?:total|combined|together|both|each|all|sum)\b")
# "waives the $325", "waived ($95)": the figure a waiver verb takes is the fee waived
_WAIVES_FIGURE_34 = re.compile(
    r"waiv\w*[ \t]+(?:(?:the|its|your|that|a|an)[ \t]+)?(?:\(|\*\*|__)?[ \t]*$"
)
# a sentence that takes its card from the one before
_NO_SUBJECT_34 = re.compile(
    r"[ \t*_>-]*(?:it(?:'s)?[ \t]+(?:also[ \t]+)?(?:waives|is|has|charges|costs|comes|does)\b"
    r"|its[ \t]+(?:first|1st|fee|annual[ \t]+fee|year)\b"
    r"|the[ \t]+(?:first|1st|fee|annual[ \t]+fee)\b|first\b|1st\b|year\b|and\b|no\b|there's\b)"
)
# a sentence that sets two cards side by side: its subject may be either
_COMPARED_34 = re.compile(
    r"\b(?:compar\w*|than|vs\.?|versus|unlike|opposed|apart|except|instead|rather|other|while"
    r"|whereas|against|beside|besides|over)\b"
)
_ALL_34 = re.compile(r"\b(?:both|each[ \t]+(?:of|card|one)|all[ \t]+(?:two|three|four))\b")


def first_year_34(
    claims: Sequence[Claim], extraction: Extraction, catalog: Catalog
) -> Sequence[Claim]:
    """``claims`` and the first-year claims ``first_year_34`` reads (module docstring), added
    after them (the disclosure rules and ruleset 8's strict intro indices keep the extraction's
    claims)."""
    masked = extraction.masked
    if not masked or _FIRST_YEAR_34.search(masked) is None:
        return claims
    out = list(claims)
    added: list[Claim] = []
    done: set[int] = set()
    # the first-year fee claims by position, the mentions by position: each clause looks up its
    # own (a long answer has thousands of clauses)
    firsts = sorted(
        (c.start, i)
        for i, c in enumerate(out)
        if c.family == FEE_CLAIM and "annual_first_year" in (c.kinds or {c.kind})
    )
    first_starts = [start for start, _ in firsts]
    mentions = extraction.mentions
    mention_starts = [m.start for m in mentions]
    for match in _FIRST_YEAR_34.finditer(masked):
        start, end = _clause(masked, match.start(), match.end())
        if start in done:
            continue
        done.add(start)
        clause = masked[start:end]
        if _NOT_A_CLAIM_34.search(clause) is not None or _QUESTION_34.match(masked, end):
            continue
        value, figure = _value(clause)
        if value == "waived" and _NOTHING_BUT_34.match(masked, max(start, end - 8), end + 8):
            continue  # "year one costs you nothing but the $95 annual fee"
        if value is None or (isinstance(value, float) and _TOTAL_34.search(clause)):
            continue
        cards = _cards(masked, mentions, mention_starts, start, end, clause)
        if not cards:
            continue
        here = [
            i for _, i in firsts[bisect_left(first_starts, start) : bisect_left(first_starts, end)]
        ]
        if value == "waived":
            # the extraction read the waiver already ("$0 the first year", "no fee in year one")
            if any(out[i].cards and (out[i].is_none or out[i].low == 0) for i in here):
                continue
            # "waives the $325 for your first year": the figure a waiver verb takes is the fee
            # waived, no claim; any other figure the extraction read is left to it
            waived = [
                i
                for i in here
                if _WAIVES_FIGURE_34.search(masked, max(start, out[i].start - 24), out[i].start)
                and all(
                    out[i].low == catalog.card(c).annual_fee_usd for c in cards
                )  # "waives its $150 fee" on a $95 card: the figure stays checked
            ]
            if any(out[i].cards for i in here if i not in waived):
                continue
            for i in waived:
                out[i] = replace(out[i], cards=())
        elif value == "charged":
            if any(out[i].cards for i in here):
                continue
        else:
            # "the first year costs $95": that figure is the first year's fee, no other (any
            # other figure of the clause - "and the renewal fee is $125" - stays checked)
            for i in here:
                if out[i].start == start + figure:
                    out[i] = replace(out[i], cards=())
        for card_id in cards:
            card = catalog.card(card_id)
            fee, first = card.annual_fee_usd, card.annual_fee_first_year_usd
            if fee is None or first is None or not fee:
                continue
            if value == "waived":
                unit, amount = NONE, None
            else:
                unit, amount = USD, fee if value == "charged" else value
            added.append(
                Claim(
                    FEE_CLAIM,
                    "annual_first_year",
                    start,
                    end,
                    unit,
                    low=amount,
                    high=amount,
                    is_none=value == "waived",
                    cards=(card_id,),
                    text=masked[start:end].strip(),
                    binding="clause",
                )
            )
    return claims if not added and out == list(claims) else [*out, *added]


def _clause(masked: str, start: int, end: int) -> tuple[int, int]:
    """The clause around the first-year words at ``[start, end)``."""
    line_start = masked.rfind("\n", 0, start) + 1
    left = line_start
    for bound in _CLAUSE_END_34.finditer(masked, max(line_start, start - 160), start):
        left = bound.end()
    after = _CLAUSE_END_34.search(masked, end, min(len(masked), end + 160))
    right = after.start() if after is not None else min(len(masked), end + 160)
    while left < start and masked[left] in " \t*_":
        left += 1
    while right > end and masked[right - 1] in " \t*_":
        right -= 1
    return left, right


def _cards(
    masked: str,
    mentions: Sequence[NameMention],
    starts: list[int],
    start: int,
    end: int,
    clause: str,
) -> tuple[str, ...]:
    """The cards the clause at ``[start, end)`` is about (module docstring); ``starts``: the
    mentions' starts, in order."""
    within = mentions[bisect_left(starts, start) : bisect_left(starts, end)]
    if any(m.card_id is None for m in within):
        return ()
    inside = {m.card_id: None for m in within if m.card_id}
    if len(inside) == 1:
        return tuple(inside)
    if len(inside) > 1:
        return tuple(inside) if _ALL_34.search(clause) is not None else ()
    # naming none: the one card its sentence names before it, when the sentence sets no two cards
    # side by side; or, when the sentence opens with no subject of its own ("It waives ...", "The
    # first year is $95"), the one card the sentences before it on its line name
    line_start = masked.rfind("\n", 0, start) + 1
    sentence = _sentence_start(masked, start, line_start)
    if _COMPARED_34.search(masked, sentence, end) is not None:
        return ()
    before = mentions[bisect_left(starts, sentence) : bisect_left(starts, start)]
    if not before:
        if _NO_SUBJECT_34.match(masked, sentence) is None:
            return ()
        reach = max(line_start, sentence - _SENTENCE_REACH_34)
        before = mentions[bisect_left(starts, reach) : bisect_left(starts, sentence)]
    if any(m.card_id is None for m in before):
        return ()
    named = {m.card_id: None for m in before}
    return tuple(named) if len(named) == 1 else ()


def _value(clause: str) -> tuple[str | float | None, int]:
    """What the clause says of the first year: "charged" (no waiver), "waived", a dollar
    figure (with its offset in the clause), or ``None`` (nothing, or a negation whose scope it
    does not read)."""
    if _NOT_WAIVED_34.search(clause) is not None:
        return "charged", -1
    priced = None
    for m in _PRICED_34.finditer(clause):
        priced = _PRICE_34.match(clause, m.end())
        if priced is not None:
            break
    if _NEGATION_34.search(clause) is not None:
        return None, -1
    if priced is not None:
        amount = float(priced.group(1).replace(",", ""))
        return ("waived" if amount == 0 else amount), priced.start(1) - 1
    if _WAIVED_34.search(clause) is not None:
        return "waived", -1
    free = _FREE_34.search(clause)
    if free is not None and _FEE_WORD_34.search(clause) is not None:
        return "waived", -1
    return None, -1


# -- amounts_34 (precision) ----------------------------------------------------------------------

# a dollar figure that is no fee: thousands ("up to $6k/yr"), a deposit ("$200 deposit", "only
# $200 down,", "a deposit of $200")
_THOUSANDS_AFTER_34 = re.compile(r"[kK]\b")
_NO_FEE_AFTER_34 = re.compile(
    r"(?:\*\*|__)?[ \t]+(?:(?:security|minimum|refundable|cash)[ \t]+)?deposit\b(?!-)"
)
# "only $200 down,": what the card asks to be put down, with a word of how little
_DOWN_34 = (
    re.compile(r"\b(?:only|just)[ \t]+(?:\*\*|__)?$"),
    re.compile(r"(?:\*\*|__)?[ \t]+down(?=[ \t]*[,.;)])"),
)
_DEPOSIT_BEFORE_34 = re.compile(
    r"\b(?:security[ \t]+)?deposit[ \t]+(?:of|is|:)[ \t]+(?:about[ \t]+|around[ \t]+|~)?(?:\*\*|__)?$"
)


def amounts_34(claims: Sequence[Claim], masked: str) -> Sequence[Claim]:
    """``claims`` with a dollar figure that is no fee left unverified: thousands no fee word
    governs ("up to $6k/yr") or a deposit ("$200 deposit", "only $200 down, but", "a deposit of
    $200"). A payment is not read: "one $49 payment each year", "the fee for a late payment is
    $45" state fees (red teams C and D)."""
    out: list[Claim] | None = None
    for i, claim in enumerate(claims):
        if claim.family != FEE_CLAIM or not claim.cards or claim.unit != USD:
            continue
        line_start = masked.rfind("\n", 0, claim.start) + 1
        reach = max(line_start, claim.start - 40)
        if not (
            (_THOUSANDS_AFTER_34.match(masked, claim.end) and not _governed(masked, claim))
            or _NO_FEE_AFTER_34.match(masked, claim.end)
            or (
                _DOWN_34[0].search(masked, reach, claim.start)
                and _DOWN_34[1].match(masked, claim.end)
            )
            or _DEPOSIT_BEFORE_34.search(masked, reach, claim.start)
        ):
            continue
        if out is None:
            out = list(claims)
        out[i] = replace(claim, cards=())
    return claims if out is None else out


def checked_34(
    previous: Callable[[Extraction], Sequence[Claim]] | None, catalog: Catalog, rules: Ruleset
) -> Callable[[Extraction], Sequence[Claim]]:
    """The claims as ruleset 34 checks them: ruleset 33's, then ``amounts_34`` and
    ``first_year_34`` where ``rules`` has them."""

    def checked(extraction: Extraction) -> Sequence[Claim]:
        claims = extraction.claims if previous is None else previous(extraction)
        if rules.amounts_34:
            claims = amounts_34(claims, extraction.masked)
        if rules.first_year_34:
            claims = first_year_34(claims, extraction, catalog)
        return claims

    return checked
