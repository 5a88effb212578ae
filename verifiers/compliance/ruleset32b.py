"""Ruleset 32's reading of card names, for precision: ``names_32``.

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

from collections.abc import Sequence
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.mentions import (
    EXACT,
    MISSPELLED,
    UNKNOWN,
    NameMention,
    tokens_of,
)

if TYPE_CHECKING:
    from replicas.verifiers.compliance.names import NameIndex

__all__ = ["names_32"]

# words of the sentence that may open a phrase read as a product: a determiner, a gerund, an adverb
_LEAD_32 = frozenset(
    ["every", "only", "each", "any", "all", "keeping", "using", "keep", "use", "with", "for", "our", "my", "his", "her", "their", "its", "the", "a", "an", "your", "this", "that", "these", "those"]
)
# words of cards in general: a phrase of only these, in lower case, names no product
_GENERIC_32 = frozenset(
    ["cash", "back", "cashback", "rewards", "reward", "secured", "card", "cards", "everyday", "every", "day", "travel", "miles", "points", "student", "business", "low", "rate", "balance", "transfer", "no", "fee", "annual", "flat", "premium", "starter", "basic"]
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
