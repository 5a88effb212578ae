"""Ruleset 32's readings of card names and of figures in general talk, for precision:
``names_32`` and (``revise_32``) ``monthly_32`` and ``card_with_32``.

``monthly_32``: "about $7.29 a month, $87 a year" - a yearly amount twelve times a monthly one
before it in its sentence is a value worked out, no annual fee. ``card_with_32``: "Prefer a card
with no foreign transaction fee", "I'd pick one without a foreign transaction fee" - a fee after
"a card with(out)" or "one with(out)", in a sentence that names no card, is about cards in
general (``generic_31`` reads "a no-fee card").

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
from collections.abc import Callable, Sequence
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
from replicas.verifiers.compliance.ruleset31 import _name_words
from replicas.verifiers.compliance.ruleset31c import said_of_no_card, sentence_of
from replicas.verifiers.compliance.values import USD

if TYPE_CHECKING:
    from replicas.verifiers.compliance.catalog import Catalog
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


# -- revise_32: monthly_32, card_with_32 ------------------------------------------------------------

_MONTHLY_32 = re.compile(
    r"\$[ \t]?(\d[\d,]*(?:\.\d+)?)(?:\*\*|__)?[ \t]*(?:a|per|/|each)[ \t]*(?:month|mo)\b"
)
_YEARLY_AFTER_32 = re.compile(
    r"(?:\*\*|__)?[ \t]*(?:a|per|/|each)[ \t]*(?:year|yr)\b|(?:\*\*|__)?[ \t]*(?:annually|yearly)\b"
)
_VALUE_32 = re.compile(
    r"\b(?:earn\w*|back|rewards?|points?|miles|worth|value|extra|interest|sav\w+|returns?|gets?|"
    r"getting|more|less|net|bonus)\b"
)
_FEE_NEXT_32 = re.compile(r"[ \t]*(?:\*\*|__)?[ \t]*(?:annual[ \t]+)?(?:fee|charge|af)\b")
_PRICE_32 = re.compile(
    r"\b(?:fees?|costs?|costing|charges?|charged|charging|af|annual|annually|membership|price|"
    r"priced|pay|pays|paying)\b"
)
# a sentence that points at the card the answer is about: "this is the one", "that's it", "this
# card", "bottom line: a card with a $59 fee"
_THIS_ONE_32 = re.compile(
    r"\b(?:this|that|it|here)(?:'s|[ \t]+is)[ \t]+(?:it|the[ \t]+one|the[ \t]+card|your[ \t]+card|"
    r"the[ \t]+pick|my[ \t]+pick)\b|\b(?:this|that)[ \t]+(?:one|card)\b|\bbottom[ \t]+line\b|"
    r"\bin[ \t]+short\b|\btl;?dr\b"
)
# ... or "a card" right before a claim that starts "without a foreign transaction fee"
_CARD_HEAD_32 = re.compile(
    r"(?<![\w'])(?:a|an|one|any|another)[ \t]+(?:[\w-]+[ \t]+)?(?:(?:card|one)s?[ \t]+)?$"
)
_CARD_WITH_32 = re.compile(
    r"(?<![\w'])(?:a|an|one|any|another)[ \t]+(?:[\w-]+[ \t]+)?(?:(?:card|one)s?[ \t]+)?"
    r"(?:with|without|that[ \t]+(?:has|charges))[ \t]+(?:an?[ \t]+|any[ \t]+)?(?:\*\*|__)?$"
)


def _priced_cards(extraction: Extraction) -> frozenset[str]:
    """The cards whose annual fee the text states with a fee word ("$0 annual fee", "AF $95")."""
    masked = extraction.masked
    return frozenset(
        card
        for claim in extraction.claims
        if claim.family == FEE_CLAIM
        and claim.kind in ("annual", "annual_first_year")
        and len(claim.cards) == 1
        and _PRICE_32.search(masked, max(0, claim.start - 20), min(len(masked), claim.end + 20))
        for card in claim.cards
    )


def _monthly_reading(priced: frozenset[str]) -> Callable[[Claim, str], bool]:
    def monthly(claim: Claim, masked: str) -> bool:
        """``monthly_32``, for a card whose annual fee the text states elsewhere, or in a
        sentence of value ("an extra $15 a month, $180 a year")."""
        if not _monthly(claim, masked):
            return False
        if any(card in priced for card in claim.cards):
            return True
        begin, _ = sentence_of(masked, claim.start, claim.end)
        return _VALUE_32.search(masked, begin, claim.start) is not None

    return monthly


def _monthly(claim: Claim, masked: str) -> bool:
    """``monthly_32``: a yearly dollar figure twelve times a monthly one before it in its
    sentence ("about $7.29 a month, $87 a year") is a value worked out - where the text states
    the card's annual fee with a fee word elsewhere, or the sentence speaks of value ("At
    roughly $4.92 a month, that's $59 a year" about a card whose fee is stated nowhere else is
    its fee)."""
    if claim.family != FEE_CLAIM or claim.unit != USD or claim.is_none or claim.low is None:
        return False
    after = _YEARLY_AFTER_32.match(masked, claim.end)
    if not after or _FEE_NEXT_32.match(masked, after.end()):
        return False  # "$90 a year fee"
    begin, _ = sentence_of(masked, claim.start, claim.end)
    if _PRICE_32.search(masked, begin, claim.start):
        # "earns $7.50 a month, and costs $90 a year", "its fee works out to $4.92 a month, or
        # $59 a year": a price word before it in its sentence makes the yearly figure a price
        return False
    yearly = claim.low
    for match in _MONTHLY_32.finditer(masked, begin, claim.start):
        monthly = float(match.group(1).replace(",", ""))
        if abs(12 * monthly - yearly) <= max(1.0, 0.02 * yearly):
            return True
    return False


def _card_with(text: str, name_words: frozenset[str]) -> Callable[[Claim, str], bool]:
    def card_with(claim: Claim, masked: str) -> bool:
        """``card_with_32``: a fee after "a card with(out)", "one without" in a sentence that
        names no card."""
        if claim.family != FEE_CLAIM:
            return False
        lo = max(0, claim.start - 40)
        if not _CARD_WITH_32.search(masked, lo, claim.start) and not (
            masked.startswith(("without ", "with "), claim.start)
            and _CARD_HEAD_32.search(masked, lo, claim.start)
        ):
            return False
        begin, stop = sentence_of(masked, claim.start, claim.end)
        if _THIS_ONE_32.search(masked, begin, stop):
            return False  # "If you want a card without an annual fee, this is the one"
        return said_of_no_card(claim, masked, text, name_words)

    return card_with


def revise_32(
    extraction: Extraction, text: str, catalog: Catalog | None, monthly: bool, card_with: bool
) -> Extraction:
    """The extraction with ``monthly_32`` and ``card_with_32`` (module docstring)."""
    readings: list[Callable[[Claim, str], bool]] = []
    if monthly and "$" in extraction.masked:
        readings.append(_monthly_reading(_priced_cards(extraction)))
    if card_with and catalog is not None:
        readings.append(_card_with(text, _name_words(catalog)))
    return unbind_claims(extraction, readings)
