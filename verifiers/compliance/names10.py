"""Ruleset 10's name readings: a card name split by a stray space, and names in lower case.

Rulesets 3-9 consider only capitalised phrases for misspelt and invented names (product names
are written in Title Case; "cash", "plus" and "rewards" in running prose are ordinary words).
A blind evalset showed two ways real answers break that assumption:

* **a word split by a space** - "Meri dian Cash Rewards", "Compass Found ation", "Busi ness":
  the fragment after the space is lower case, so the capitalised phrase stops before it and
  neither half reads as a name word. Here a word followed by a lower-case fragment whose
  concatenation is a catalog name word (and neither half is one) is read as that word written
  with a typo: the space becomes a hyphen in the copy the name finder reads (same length, so
  positions and spans are unchanged), and "Meri-dian Cash Rewards" is one edit from the catalog
  name - a misspelling, as "MeridianCash Rewards" (words run together) already is.
* **names in lower case** - chat answers written all in lower case ("the cardinal juurney
  preferred", "the centerline sky", "atlas black cash"). Only phrases that open with a catalog
  brand, written in lower case, are read, and more strictly than capitalised ones: a misspelling
  keeps the brand exact and differs from one catalog name by typos of its other words (a
  two-word name only by a typo of a word of six letters or more); an invented product is the
  brand followed only by words of that brand's own names, strong product and tier words ("cash",
  "miles", "travel", "platinum", "black", "ultra") and at most one unfamiliar word before one of
  those ("aspen sovereign travel") - never the "two coined words" rule capitalised phrases use,
  since lower-case prose follows a brand-like word with ordinary words ("the horizon looks
  bright", "at the summit of", "the cardinal rule is").

Functions of the name index; no state of their own beyond the compiled patterns the index
keeps.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.matchers import trie_after, word_set
from replicas.verifiers.compliance.mentions import EXACT, MISSPELLED, UNKNOWN, NameMention
from replicas.verifiers.compliance.phrases import FUNCTION_WORDS
from replicas.verifiers.compliance.vocab import PRODUCT_WORDS, TRAILING_NOISE

if TYPE_CHECKING:
    from replicas.verifiers.compliance.names import NameIndex

# Product and tier words strong enough to make "<brand> <word>" a product name in lower case
# (common English words among the tier words - "one", "max", "select", "edge", ... - are not).
STRONG_PRODUCT_WORDS = word_set(
    """
    cash cashback rewards reward miles points travel secured business unlimited explorer traveler
    voyager sky platinum gold silver elite reserve premier premium signature infinite world ultra
    black diamond titanium sapphire preferred plus 360
    """
)
_LOWER_WORD = re.compile(r"[ \t]{1,2}([a-z0-9][a-z0-9'-]{0,30})(?![\w'-])")
_MAX_RUN = 5  # words after the brand a lower-case name may have
_MIN_SPLIT_WORD = 5  # a name word this long may be written split by a space


class Names10:
    """The patterns ruleset 10 reads names with, built once per name index."""

    def __init__(self, index: NameIndex) -> None:
        self.index = index
        phrases = index._phrases  # the index's own classifier
        self.phrases = phrases
        vocabulary = phrases.vocabulary
        self.not_halves = vocabulary | PRODUCT_WORDS | index.tiers
        splits: dict[str, str] = {}
        for word in sorted(vocabulary):
            if len(word) < _MIN_SPLIT_WORD or not word.isalpha():
                continue
            for i in range(2, len(word) - 1):
                head, tail = word[:i], word[i:]
                if head not in self.not_halves and tail not in self.not_halves:
                    splits.setdefault(f"{head} {tail}", word)
        self.splits = splits
        self.split_regex = (
            re.compile(trie_after(sorted(splits), r"[\w'-]") + r"(?![\w'-])") if splits else None
        )
        self.brands = phrases.brands
        self.brand_regex = (
            re.compile(trie_after(sorted(self.brands), r"[\w'-]") + r"(?![\w-])")
            if self.brands
            else None
        )
        words_of_brand: dict[str, set[str]] = {}
        for words in index.card_by_words:
            if len(words) > 1:
                words_of_brand.setdefault(words[0], set()).update(words[1:])
        self.words_of_brand = {b: frozenset(w) for b, w in words_of_brand.items()}

    # -- split words ---------------------------------------------------------------------------

    def join_split_words(
        self, text: str, lower: str
    ) -> tuple[str, str, list[tuple[int, int, str]]]:
        """``text`` and ``lower`` with the space of each split name word ("Meri dian") made a
        hyphen (same length), and the joined words ``(start, end, catalog word)``."""
        if self.split_regex is None:
            return text, lower, []
        joins: list[tuple[int, int, str]] = []
        for match in self.split_regex.finditer(lower):
            start, end = match.span()
            space = lower.index(" ", start)
            if not text[space + 1 : end].islower():
                continue  # "Meri Dian": two capitalised words are two words
            joins.append((start, end, self.splits[match.group(0)]))
        if not joins:
            return text, lower, []
        t, low = list(text), list(lower)
        for start, _end, _word in joins:
            space = lower.index(" ", start)
            t[space] = low[space] = "-"
        return "".join(t), "".join(low), joins

    # -- names in lower case -------------------------------------------------------------------

    def lowercase_names(
        self,
        text: str,
        lower: str,
        mentions: Sequence[NameMention],
        joins: Sequence[tuple[int, int, str]],
    ) -> list[NameMention]:
        """The misspelt and invented names of a line that open with a lower-case brand (or a
        split brand, "meri dian"), outside the mentions already found."""
        anchors: list[tuple[int, int, str]] = []
        if self.brand_regex is not None:
            anchors += [(m.start(), m.end(), m.group(0)) for m in self.brand_regex.finditer(lower)]
        anchors += [j for j in joins if j[2] in self.brands]
        if not anchors:
            return []
        # Overlap tests in O(log n) each (a line of 1 MB holds tens of thousands of mentions):
        # the mentions sorted by start with the running maximum of their ends, and the names
        # found here, which come in order of start, by the furthest end so far.
        spans = sorted((m.start, m.end) for m in mentions)
        starts = [a for a, _ in spans]
        reach: list[int] = []
        for _, b in spans:
            reach.append(max(b, reach[-1]) if reach else b)
        found_reach = -1
        out: list[NameMention] = []
        split_at = {j[0] for j in joins}
        for start, end, brand in sorted(anchors):
            before = bisect_left(starts, end)  # mentions starting before this anchor ends
            if (before and reach[before - 1] > start) or found_reach > start:
                continue
            found = self._lowercase_name(text, lower, start, end, brand, start in split_at)
            if found is not None:
                out.append(found)
                found_reach = max(found_reach, found.end)
        return out

    def extend_lowercase(self, text: str, lower: str, mention: NameMention) -> NameMention:
        """A catalog name written in lower case and a lower-case word after it that, with the
        name, is a typo of a longer catalog name ("the summit cash prefered"): a misspelling of
        that card (the capitalised form is read so by ``NameIndex._extend``)."""
        if mention.kind != EXACT or not mention.surface.islower():
            return mention
        match = _LOWER_WORD.match(lower, mention.end)
        if match is None or not text[match.start(1) : match.end(1)].islower():
            return mention
        word = self.phrases.strip_possessive(match.group(1))
        if len(word) < 4 or not word.isalpha() or word in FUNCTION_WORDS:
            return mention
        words = self.index.words_by_card[mention.card_id or ""]
        near = self.phrases.nearest((*words, word), exact_ok=False)
        if near is None:
            return mention
        stop = match.end(1) - _possessive_cut(lower, match.end(1))
        return NameMention(
            mention.start,
            stop,
            MISSPELLED,
            near,
            text[mention.start : stop],
            (self.index.names[near],),
        )

    def _lowercase_name(
        self, text: str, lower: str, start: int, end: int, brand: str, split: bool
    ) -> NameMention | None:
        words = [brand]
        ends = [end]
        pos = end
        while len(words) <= _MAX_RUN:
            match = _LOWER_WORD.match(lower, pos)
            if match is None:
                break
            word = match.group(1)
            if not text[match.start(1) : match.end(1)].islower() and not word.isdigit():
                if len(words) == 1:
                    return None  # "Atlas Cash ...": a capitalised phrase, read as one
                break
            if word in FUNCTION_WORDS and word not in self.phrases.vocabulary:
                break
            words.append(self.phrases.strip_possessive(word))
            ends.append(match.end(1))
            pos = match.end(1)
        if len(words) < 2:
            return None
        misspelt = self._misspelt(words, split)
        if misspelt is not None:
            n, card_id = misspelt
            stop = ends[n - 1] - _possessive_cut(lower, ends[n - 1])
            return NameMention(
                start, stop, MISSPELLED, card_id, text[start:stop], (self.index.names[card_id],)
            )
        invented = self._invented(words)
        if invented is None:
            return None
        stop = ends[invented - 1] - _possessive_cut(lower, ends[invented - 1])
        return NameMention(
            start, stop, UNKNOWN, None, text[start:stop], self.phrases.near_names(words[:invented])
        )

    def _misspelt(self, words: list[str], split: bool) -> tuple[int, str] | None:
        """How many words (brand included) misspell which card, or None. ``split``: the brand
        was written split by a space ("meri dian cash"), itself the typo."""
        by_words = self.index.card_by_words
        for n in range(len(words), 1, -1):
            sub = tuple(words[:n])
            if sub in by_words:
                # an exact name (the index found it, or a longer one, already) - unless its
                # brand was split
                return (n, by_words[sub]) if split else None
            near = self.phrases.nearest(sub, exact_ok=False)
            if near is None:
                continue
            name = self.index.words_by_card[near]
            if name[0] != words[0]:
                continue  # the brand itself must be exact in lower case
            if n == 2 and len(name[1]) < 6:
                continue  # "summit cast": a short word one edit away is often another word
            return n, near
        return None

    def _invented(self, words: list[str]) -> int | None:
        """How many words (brand included) make an invented product, or None."""
        own = self.words_of_brand.get(words[0], frozenset())
        strong = own | STRONG_PRODUCT_WORDS
        best = None
        coined = 0
        for k in range(1, len(words)):
            word = words[k]
            if word in strong and word not in TRAILING_NOISE:
                best = k + 1
            elif coined or word in FUNCTION_WORDS or word in TRAILING_NOISE or not word.isalpha():
                break
            else:
                coined += 1
        if best is None or tuple(words[:best]) in self.index.card_by_words:
            return None
        return best


def _possessive_cut(lower: str, end: int) -> int:
    return 2 if lower.endswith("'s", 0, end) else 0


__all__ = ["STRONG_PRODUCT_WORDS", "Names10"]
