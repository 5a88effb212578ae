"""Ruleset 32's readings of card names and of yearly values, for precision: ``names_32`` and
(``revise_32``) ``monthly_32``.

``monthly_32``: "about $7.29 a month, $87 a year" - a yearly amount twelve times a monthly one
before it in its sentence, in words of value and with no price word, is a value worked out, no
annual fee (``_monthly``).

``names_32``:

A product-like phrase that is no catalog name is an invented card (``unknown_card``) - unless it
is a way of calling a real card:

* the tail of one catalog name, its brand left off: "the Every Day Cash 360" for "Crest Every Day
  Cash 360" (a tail several names share, "Preferred", calls one of them: no invention either);
* the head of a card the answer names in full, possessive or not: "Gray Rock's 1.5%" after "Gray
  Rock Rewards";
* a word of the sentence before a name's words: "Keeping Preferred for groceries", "Only Secured";
* in lower case, words of cards in general: "the best everyday cash back card", "for every
  rewards card we have", "the only secured card".

A phrase is read so only when what is left, once a leading word of the sentence (``_LEAD_32``)
and a possessive are taken off, is such a tail or head; a brand and premium words that no name
ends with ("Crest Obsidian Reserve") stay invented.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import FEE_CLAIM
from replicas.verifiers.compliance.claims import unbind_claims
from replicas.verifiers.compliance.mentions import (
    EXACT,
    MISSPELLED,
    UNKNOWN,
    NameMention,
    tokens_of,
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


def names_32(index: NameIndex, text: str, mentions: Sequence[NameMention]) -> list[NameMention]:
    """The mentions, each unknown product that calls a real card (module docstring) read as
    that card, or dropped when it calls several or cards in general."""
    out = list(mentions)
    if not any(m.kind == UNKNOWN for m in out):
        return out
    named_in_full = {m.card_id for m in out if m.kind in (EXACT, MISSPELLED) and m.card_id}
    keep: list[NameMention] = []
    for m in out:
        if m.kind != UNKNOWN:
            keep.append(m)
            continue
        words = list(tokens_of(m.surface))
        while words and words[0] in _LEAD_32:
            words.pop(0)
        if words and words[-1].endswith("'s"):
            words[-1] = words[-1][:-2]
        if not words:
            continue  # nothing but words of the sentence
        phrase = tuple(words)
        if m.surface == m.surface.lower() and all(w in _GENERIC_32 for w in phrase):
            continue  # "the best everyday cash back card": cards in general
        heads = sorted(
            c
            for c in named_in_full
            if len(index.words_by_card[c]) > len(phrase)
            and index.words_by_card[c][: len(phrase)] == phrase
        )
        if len(heads) == 1:
            keep.append(NameMention(m.start, m.end, EXACT, heads[0], m.surface))
            continue
        tails = sorted(
            c
            for c, name in index.words_by_card.items()
            if len(name) > len(phrase) and name[-len(phrase) :] == phrase
        )
        if len(tails) == 1:
            keep.append(NameMention(m.start, m.end, EXACT, tails[0], m.surface))
        elif not tails and not heads:
            keep.append(m)
        # several cards' tail or head: a short name of one of them, no invented card
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
    r"priced|pay|pays|paying|runs?|running)\b"
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


def revise_32(extraction: Extraction, monthly: bool) -> Extraction:
    """The extraction with ``monthly_32`` (module docstring)."""
    if not monthly or "$" not in extraction.masked:
        return extraction
    return unbind_claims(extraction, [_monthly])
