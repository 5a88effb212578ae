"""Ruleset 32's readings of card names and of yearly values, for precision: ``names_32`` and
(``revise_32``) ``monthly_32``.

``monthly_32``: "about $7.29 a month, $87 a year" - a yearly amount twelve times a monthly one
before it in its sentence, in words of value and with no price word, is a value worked out, no
annual fee (``_monthly``). ``leads_32``: under a list lead that announces sums ("On your $2,000 a
month:", "Quick maths on $6,000:"), "- X: $480 a year" is a sum worked out (``_worked_lead``).

``names_32``:

A product-like phrase that is no catalog name is an invented card (``unknown_card``) - unless it
is a way of calling a real card:

* a tier word several names end with, after a word of the sentence: "Keeping Preferred for
  groceries" (a longer tail of a name stays as ruleset 31 reads it: an invented tier written
  beside it - "the *Platinum* Campus Cash", "Campus Cash (Platinum edition)" - leaves only the
  tail, so a tail is no proof of the real card; red team I);
* the head of a card the answer names in full, possessive or not: "Gray Rock's 1.5%" after "Gray
  Rock Rewards";
* in lower case, words of cards in general: "the best everyday cash back card", "for every
  rewards card we have", "the only secured card".

A phrase is read so only when the whole phrase as written - the mention with the capitalised words
next to it ("the Platinum Campus Cash" is no tail of "Gray Rock Campus Cash"), less a leading word
that opens the sentence or is in lower case (``_LEAD_32``) and a possessive - is such a tail or
head; a brand and premium words that no name ends with ("Crest Obsidian Reserve") stay invented.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import FEE_CLAIM
from replicas.verifiers.compliance.claims import unbind_claims
from replicas.verifiers.compliance.mentions import (
    EXACT,
    MISSPELLED,
    UNKNOWN,
    NameMention,
)
from replicas.verifiers.compliance.ruleset31c import sentence_of
from replicas.verifiers.compliance.values import USD

if TYPE_CHECKING:
    from replicas.verifiers.compliance.claims import Claim, Extraction
    from replicas.verifiers.compliance.names import NameIndex

__all__ = ["names_32", "revise_32"]

# words of the sentence that may open a phrase read as a product: a determiner, a gerund, an adverb
_LEAD_32 = frozenset(
    [
        "every",
        "only",
        "each",
        "any",
        "all",
        "keeping",
        "using",
        "keep",
        "use",
        "with",
        "for",
        "our",
        "my",
        "his",
        "her",
        "their",
        "its",
        "the",
        "a",
        "an",
        "your",
        "this",
        "that",
        "these",
        "those",
    ]
)
# words of cards in general: a phrase of only these, in lower case, names no product
_GENERIC_32 = frozenset(
    [
        "cash",
        "back",
        "cashback",
        "rewards",
        "reward",
        "secured",
        "card",
        "cards",
        "everyday",
        "every",
        "day",
        "travel",
        "miles",
        "points",
        "student",
        "business",
        "low",
        "rate",
        "balance",
        "transfer",
        "no",
        "fee",
        "annual",
        "flat",
        "premium",
        "starter",
        "basic",
    ]
)


# a capitalised word right before or after a phrase, on its line: the phrase as written is longer
# ("the Platinum Campus Cash", "Keep Everyday Cash Plus")
_CAP_BEFORE_32 = re.compile(r"(?<![\w'.,$%-])([A-Z][\w'-]*|\d+)[ \t]$")
_CAP_AFTER_32 = re.compile(r"[ \t]([A-Z][\w'-]*|\d+)(?![\w'.,%-])")
# what stands before a sentence's first word: the text's start, an end of sentence, a line start
# (with list or heading markup), an opening bracket or emphasis
_SENTENCE_OPEN_32 = re.compile(r"(?:^|[.!?:;][ \t]+|\n[ \t>#*+\-\u2022\d.)]*|[(\[*_\"]+)$")
_WORD_32 = re.compile(r"[A-Za-z0-9](?:[^\W_]|['-])*")
_EXTEND_32 = 3


def _phrase_of(text: str, start: int, end: int) -> tuple[str, ...]:
    """The product-like phrase a mention stands in, as its words in lower case: the mention
    extended over capitalised words next to it, less a leading word of the sentence
    (``_LEAD_32``) that opens the sentence or is written in lower case, less a possessive."""
    for _ in range(_EXTEND_32):
        before = _CAP_BEFORE_32.search(text, max(0, start - 40), start)
        if before is None:
            break
        start = before.start(1)
    for _ in range(_EXTEND_32):
        after = _CAP_AFTER_32.match(text, end)
        if after is None:
            break
        end = after.end(1)
    words = [(m.group(), m.start()) for m in _WORD_32.finditer(text, start, end)]
    while (
        words
        and words[0][0].lower() in _LEAD_32
        and (
            words[0][0].islower()
            or _SENTENCE_OPEN_32.search(text, max(0, words[0][1] - 12), words[0][1])
        )
    ):
        words.pop(0)
    out = [w.lower() for w, _ in words]
    if out and out[-1].endswith("'s"):
        out[-1] = out[-1][:-2]
    return tuple(w for w in out if w)


def names_32(index: NameIndex, text: str, mentions: Sequence[NameMention]) -> list[NameMention]:
    """The mentions, each unknown product that calls a real card (module docstring) read as
    that card, or dropped when it calls several or cards in general."""
    out = list(mentions)
    if not any(m.kind == UNKNOWN for m in out):
        return out
    named_in_full = sorted({m.card_id for m in out if m.kind in (EXACT, MISSPELLED) and m.card_id})
    tails_of: dict[tuple[str, ...], list[str]] = {}
    keep: list[NameMention] = []
    for m in out:
        if m.kind != UNKNOWN:
            keep.append(m)
            continue
        phrase = _phrase_of(text, m.start, m.end)
        if not phrase:
            continue  # nothing but words of the sentence
        if m.surface == m.surface.lower() and all(w in _GENERIC_32 for w in phrase):
            continue  # "the best everyday cash back card": cards in general
        heads = [
            c
            for c in named_in_full
            if len(index.words_by_card[c]) > len(phrase)
            and index.words_by_card[c][: len(phrase)] == phrase
        ]
        if len(heads) == 1:
            keep.append(NameMention(m.start, m.end, EXACT, heads[0], m.surface))
            continue
        tails = tails_of.get(phrase)
        if tails is None:
            tails = tails_of[phrase] = sorted(
                c
                for c, name in index.words_by_card.items()
                if len(name) > len(phrase) and name[-len(phrase) :] == phrase
            )
        if len(phrase) == 1 and len(tails) > 1 and not heads:
            continue  # "Keeping Preferred": a tier word several names end with, no invented card
        keep.append(m)
        # any other tail of a name stays as ruleset 31 reads it: an invented tier written beside
        # it ("the *Platinum* Campus Cash", "Campus Cash (Platinum edition)", "Campus Cash+")
        # leaves only the tail to read, so a tail of one name is no proof of the real card
    return keep


# -- revise_32: monthly_32 -------------------------------------------------------------------------

_MONTHLY_32 = re.compile(
    r"\$[ \t]?(\d[\d,]*(?:\.\d+)?)(?:\*\*|__)?[ \t]*(?:a|per|/|each)[ \t]*(?:month|mo)\b"
)
_YEARLY_AFTER_32 = re.compile(
    r"(?:\*\*|__)?[ \t]*(?:a|per|/|each)[ \t]*(?:year|yr)\b|(?:\*\*|__)?[ \t]*(?:annually|yearly)\b"
)
# words of a value worked out (not "gets", "more": "gets you lounge access and runs about ...")
_VALUE_32 = re.compile(
    r"\b(?:earn\w*|back|rewards?|points?|miles|worth|value|extra|interest|sav\w+|returns?|net|"
    r"bonus)\b|\bon[ \t]+your\b"
)
_PRICE_32 = re.compile(
    r"\b(?:fees?|costs?|costing|charges?|charged|charging|af|annual|annually|membership|price|"
    r"priced|pay|pays|paying|runs?|running)\b|\bcomes?[ \t]+at\b|\bat[ \t]+(?:about|roughly|"
    r"around|just)\b"
)
# the rest of the yearly figure's clause
_CLAUSE_END_32 = re.compile(r"[.;:!?\n]|,[ \t]|\)")
_MONTHLY_REACH_32 = 60


def _monthly(claim: Claim, masked: str) -> bool:
    """``monthly_32``: a yearly dollar figure twelve times a monthly one before it in its
    sentence is a value worked out when the sentence, or the lead line of its list, speaks of
    value ("about $7.29 a month, $87 a year" under "On your roughly $468 a month:", "an extra $15
    a month, $180 a year") and no price word stands before it in its sentence or after it in its
    clause ("costs $90 a year", "$395 a year in fees", "its fee works out to $4.92 a month")."""
    if claim.family != FEE_CLAIM or claim.unit != USD or claim.is_none or claim.low is None:
        return False
    after = _YEARLY_AFTER_32.match(masked, claim.end)
    if not after:
        return False
    stop = _CLAUSE_END_32.search(masked, after.end(), after.end() + _MONTHLY_REACH_32)
    if _PRICE_32.search(masked, after.end(), stop.start() if stop else after.end() + 40):
        return False  # "$90 a year fee", "$395 a year in fees", "$450 annually, charged ..."
    begin, _ = sentence_of(masked, claim.start, claim.end)
    if _PRICE_32.search(masked, begin, claim.start):
        return False  # "earns $7.50 a month, and costs $90 a year"
    yearly = claim.low
    if not any(
        abs(12 * float(m.group(1).replace(",", "")) - yearly) <= max(1.0, 0.02 * yearly)
        for m in _MONTHLY_32.finditer(masked, begin, claim.start)
    ):
        return False
    if _VALUE_32.search(masked, begin, claim.start):
        return True
    line_start = masked.rfind("\n", 0, claim.start) + 1
    if not _LIST_ITEM_32.match(masked, line_start):
        return False
    lead_end = masked.rfind("\n", 0, max(0, line_start - 1))
    lead = masked[lead_end + 1 : line_start]
    while _LIST_ITEM_32.match(lead) and lead_end > 0:  # items above: the lead is the first line
        line_start = lead_end + 1
        lead_end = masked.rfind("\n", 0, max(0, line_start - 1))
        lead = masked[lead_end + 1 : line_start]
    return _VALUE_32.search(lead) is not None and _PRICE_32.search(lead) is None


_LIST_ITEM_32 = re.compile(r"[ \t]*(?:[-*+\u2022]|\d{1,2}[.)])[ \t]")


# a list's lead that announces sums: "On your $2,000 a month:", "Quick maths on $6,000:", "Rough
# numbers:", "With your spending:", "Est. earnings:"
_WORKED_LEAD_32 = re.compile(
    r"\b(?:on[ \t]+(?:your|a|the)\b[^:\n]{0,40}\$|quick[ \t]+maths?|rough(?:ly)?[ \t]+(?:numbers|maths?)|"
    r"back[ \t]+of[ \t]+(?:the[ \t]+)?envelope|with[ \t]+your[ \t]+(?:numbers|spend\w*)|"
    r"worked[ \t]+example|est(?:imate[sd]?)?\.?[ \t]*(?:earnings|value|rewards)?|"
    r"(?:on|for)[ \t]+\$[\d,]+)[^\n]{0,60}:[ \t*_]*$"
)


def _worked_lead(claim: Claim, masked: str) -> bool:
    """``leads_32``: in a list item under a lead that announces sums ("On your $2,000 a month:",
    "Quick maths on $6,000:"), a yearly dollar figure with no price word in its item ("- X: $480
    a year", "plus $250 in year one") is a sum worked out, unverified."""
    if claim.family != FEE_CLAIM or claim.unit != USD or claim.is_none or claim.low is None:
        return False
    line_start = masked.rfind("\n", 0, claim.start) + 1
    if not _LIST_ITEM_32.match(masked, line_start):
        return False
    line_end = masked.find("\n", claim.end)
    line_end = len(masked) if line_end < 0 else line_end
    if line_end - line_start > _ITEM_REACH_32:
        return False  # a list item is a line of a list, not a page
    if (
        _YEARLY_AFTER_32.match(masked, claim.end) is None
        and _YEAR_ONE_32.match(masked, claim.end) is None
    ):
        return False
    if _PRICE_32.search(masked, line_start, line_end):
        return False  # "- X: $59 fee", "- X: $95 a year membership"
    pos = line_start - 1
    for _ in range(_LEAD_LINES_32):
        if pos <= 0:
            return False
        above = masked.rfind("\n", 0, pos) + 1
        line = masked[above:pos]
        pos = above - 1
        if not line.strip() or _LIST_ITEM_32.match(line):
            continue
        return _WORKED_LEAD_32.search(line) is not None
    return False


_LEAD_LINES_32 = 12
_ITEM_REACH_32 = 400
# "- X: $360 a year, plus $250 in year one"
_YEAR_ONE_32 = re.compile(
    r"(?:\*\*|__)?[ \t]*(?:in|for)[ \t]+(?:year[ \t]+(?:one|1)|the[ \t]+first[ \t]+year)\b"
)


def revise_32(extraction: Extraction, monthly: bool, leads: bool = False) -> Extraction:
    """The extraction with ``monthly_32`` and ``leads_32`` (module docstring)."""
    if "$" not in extraction.masked:
        return extraction
    readings: list[Callable[[Claim, str], bool]] = []
    if monthly:
        readings.append(_monthly)
    if leads:
        readings.append(_worked_lead)
    return unbind_claims(extraction, readings)
