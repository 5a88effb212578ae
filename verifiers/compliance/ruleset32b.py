"""Ruleset 32's reading of card names, for precision: ``names_32``.

Two readings of yearly values were written here, attacked and dropped (RULESETS.md, "Ruleset
32"): ``monthly_32`` ("about $7.29 a month, $87 a year" is a value worked out) and ``leads_32``
(sums under a lead "On your $2,000 a month:"); red teams kept finding the card's own fee stated
in the same shapes, and each was worth one or two tuning answers.

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
from collections.abc import Sequence
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.mentions import (
    AMBIGUOUS,
    EXACT,
    MISSPELLED,
    UNKNOWN,
    NameMention,
)

if TYPE_CHECKING:
    from replicas.verifiers.compliance.names import NameIndex

__all__ = ["names_32"]

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
    that card, or as no card ("ambiguous") when it calls several or cards in general."""
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
        # no invented card, but still a product the text talks about: the figures after it are
        # no catalog card's, as ruleset 31 reads them ("ambiguous": no card, no finding)
        generic = NameMention(m.start, m.end, AMBIGUOUS, None, m.surface)
        if not phrase:
            keep.append(generic)  # nothing but words of the sentence
            continue
        if m.surface == m.surface.lower() and all(w in _GENERIC_32 for w in phrase):
            keep.append(generic)  # "the best everyday cash back card": cards in general
            continue
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
            keep.append(generic)  # "Keeping Preferred": a tier word several names end with
            continue
        keep.append(m)
        # any other tail of a name stays as ruleset 31 reads it: an invented tier written beside
        # it ("the *Platinum* Campus Cash", "Campus Cash (Platinum edition)", "Campus Cash+")
        # leaves only the tail to read, so a tail of one name is no proof of the real card
    return keep
