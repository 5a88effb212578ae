"""Finding card names in a response: exact mentions, misspellings and invented products.

Card catalogs are full of near-collisions ("Summit Cash" / "Summit Cash Plus" / "Summit Cash
Preferred", "... Elite" / "... Elites"), so name matching decides which card every later claim is
checked against:

* exact - a catalog name, case-insensitive, longest name first ("Summit Cash Plus" never reads as
  "Summit Cash" followed by "Plus");
* misspelled - a capitalised phrase whose words each equal or nearly equal (a typo, by bounded
  Damerau-Levenshtein distance) the words of one catalog name - the nearest, when several are near
  - or the name with its words run together or split ("SummitCash Plus"); claims then attach to
  the card that was meant;
* unknown - a capitalised phrase that reads as a catalog product but is none: a dropped or added
  tier word ("Summit Cash" when only "Summit Cash Plus" exists, "Summit Cash Premier"), a catalog
  brand with another product line's words ("Summit Sky Miles"), or a catalog product line under an
  invented brand ("Horizon Sky Miles"). Claims after it attach to no card - they cannot be
  verified - rather than to the card mentioned before it.

Only capitalised phrases are considered for the fuzzy rules: product names are written in Title
Case, while "cash", "plus" and "rewards" in running prose are ordinary words. A catalog brand
alone ("the Summit card") is a short reference, not a product name, and is ignored. Issuer names
("Granite Peak National Bank") are recognised and never read as cards.

Here: ``NameIndex`` finds exact names and capitalised phrases in a response; what a phrase is
(card, misspelling, invented product) is decided in ``phrases``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from ahocorasick_rs import AhoCorasick, MatchKind

from replicas.verifiers.compliance import references as refs
from replicas.verifiers.compliance.matchers import trie_pattern as _trie_pattern
from replicas.verifiers.compliance.mentions import (
    EXACT,
    MISSPELLED,
    UNKNOWN,
    NameMention,
    tokens_of,
)
from replicas.verifiers.compliance.names10 import Names10
from replicas.verifiers.compliance.phrases import PHRASE_CACHE_LIMIT, NameWords, PhraseVerdict
from replicas.verifiers.compliance.vocab import (
    PRODUCT_WORDS,
    TRAILING_NOISE,
)

# A capitalised phrase: up to eight words, each starting with an upper-case letter or a digit.
# Name characters are letters, digits, apostrophes and hyphens - not "_", which in markdown
# ("__Summit Cash__") marks emphasis around a name.
_CAP_PHRASE = re.compile(
    r"[A-Z](?:[^\W_]|['-]){0,40}(?:[ \t]{1,3}[A-Z0-9](?:[^\W_]|['-]){0,40}){0,7}"
)
_WORD = re.compile(r"[A-Za-z0-9](?:[^\W_]|['-])*")
_NEXT_WORD = re.compile(r"[ \t]{1,3}([A-Z][A-Za-z'-]{1,20}|\d{1,4})(?![\w%])")
# Ruleset 6: premium tier words that, in lower case after a lower-case name, make a product name
_NEXT_LOWER_TIER = re.compile(
    r"[ \t]{1,3}(platinum|gold|silver|elite|reserve|premier|premium|signature|infinite|diamond"
    r"|titanium|sapphire|black|ultra)(?![\w%'-])"
)


class NameIndex:
    """Catalog names prepared for matching: one alternation regex plus word-position indexes."""

    def __init__(
        self,
        names: Sequence[tuple[str, str]],
        issuers: Iterable[str] = (),
        brand_first: bool = False,
        institution_products: bool = False,
        service_names: bool = False,
        lowercase_tiers: bool = False,
        names_10: bool = False,
    ) -> None:
        self.names: dict[str, str] = {}
        self._words: dict[str, tuple[str, ...]] = {}
        by_words: dict[tuple[str, ...], str] = {}
        for card_id, name in names:
            words = tokens_of(name)
            if not words:
                raise ValueError(f"card {card_id}: name {name!r} has no words")
            if words in by_words:
                raise ValueError(
                    f"card names must be unique: {name!r} collides with card {by_words[words]}"
                )
            by_words[words] = card_id
            self.names[card_id] = name
            self._words[card_id] = words
        self._by_words = by_words
        self._phrases = NameWords(
            self.names,
            self._words,
            by_words,
            issuers,
            brand_first,
            institution_products,
            service_names,
        )
        # ruleset 6: "the summit cash platinum" - a lower-case name and a premium tier word
        self._lowercase_tiers = lowercase_tiers
        self.brands = self._phrases.brands
        # an issuer whose name starts with a card brand ("Lakeshore Trust", "Lakeshore Voyager")
        self.issuer_brand_overlap = self._phrases.issuer_brand_overlap
        # read by ``references`` (short names, labels, "the Plus version")
        self.words_by_card: dict[str, tuple[str, ...]] = self._words
        self.card_by_words: dict[tuple[str, ...], str] = by_words
        self.tiers: frozenset[str] = self._phrases.tiers
        self.name_words: frozenset[str] = self._phrases.name_words
        # read by ruleset 19's recommendation slots (an issuer's name is no invented card)
        self.issuer_stems: tuple[tuple[str, ...], ...] = self._phrases.issuer_stems
        # Every name (words joined by single spaces) in one Aho-Corasick automaton, longest match
        # first: one pass over the text finds them all (~14x faster than a prefix-factored regex
        # alternation on an 800-word answer, and ~30x cheaper to build). Word boundaries are
        # checked in Python; where the right one fails, the regex below tries the shorter names.
        self._patterns = [" ".join(w) for w in by_words]
        self._automaton = AhoCorasick(self._patterns, matchkind=MatchKind.LeftmostLongest)
        self._exact: re.Pattern[str] | None = None
        # The first look-up of a phrase by its text as written skips even the word split (the
        # classification by words is memoised in ``NameWords``).
        self._surface_cache: dict[str, tuple[PhraseVerdict, ...]] = {}
        self._line_cache: dict[str, tuple[NameMention, ...]] = {}
        # ruleset 10: split name words ("Meri dian") and names in lower case (``names10``)
        self._names_10 = Names10(self) if names_10 else None

    # -- public ----------------------------------------------------------------------------

    def exact_regex(self) -> re.Pattern[str]:
        """The names as one regex: every name, longest first, ending at a word boundary."""
        if self._exact is None:
            self._exact = re.compile("(?:" + _trie_pattern(self._patterns) + r")(?![^\W_]|-)")
        return self._exact

    def exact_matches(self, lower: str) -> Iterator[tuple[int, int, str]]:
        """``(start, end, name)`` of the matches of ``exact_regex()`` in ``lower`` (left word
        boundaries unchecked), found with the automaton."""
        size = len(lower)
        for index, start, end in self._automaton.find_matches_as_indexes(lower):
            if end < size and (lower[end].isalnum() or lower[end] == "-"):
                # "summit cash plusx": a shorter name may still end at a boundary here
                match = self.exact_regex().match(lower, start)
                if match is not None:
                    yield start, match.end(), match.group(0)
                continue
            yield start, end, self._patterns[index]

    def name_of(self, card_id: str) -> str:
        return self.names[card_id]

    def find(self, text: str, lower: str) -> list[NameMention]:
        """Every card reference in document order; ``text`` and ``lower`` are aligned strings.

        Names never span a line, so the names of each line are found on their own (and kept per
        line of text: answers repeat their lines); references ("the Plus version", "Plus:",
        "the former") are then resolved over the whole response.
        """
        mentions: list[NameMention] = []
        size = len(text)
        pos = 0
        cache = self._line_cache
        while pos < size:
            stop = text.find("\n", pos)
            stop = size if stop < 0 else stop + 1
            line = text[pos:stop]
            found = cache.get(line)
            if found is None:
                found = tuple(self._line_names(line, lower[pos:stop]))
                if len(line) <= 2_000:
                    if len(cache) >= PHRASE_CACHE_LIMIT:
                        cache.clear()
                    cache[line] = found
            for m in found:
                mentions.append(
                    NameMention(
                        m.start + pos, m.end + pos, m.kind, m.card_id, m.surface, m.expected
                    )
                )
            pos = stop
        # Every reference contains one of these words; without them there is nothing to look for
        # (with them, ``_with_references`` finds exactly the references there are).
        if mentions and ("the " in text or "The " in text):
            mentions = refs.with_references(self, text, mentions)
        if mentions and (
            ":" in text or " - " in text or " = " in text or ") " in text or ".. " in text
        ):
            mentions = refs.with_labels(self, text, mentions)
        if ("former" in text or "latter" in text) and len(mentions) > 1:
            mentions = refs.with_former_latter(text, mentions)
        return mentions

    def _line_names(self, text: str, lower: str) -> list[NameMention]:
        """The exact, misspelt and invented names of one line (positions in the line)."""
        joins: list[tuple[int, int, str]] = []
        if self._names_10 is not None:
            original = text
            text, lower, joins = self._names_10.join_split_words(text, lower)
        mentions: list[NameMention] = []
        for start, end, name in self.exact_matches(lower):
            if start and (lower[start - 1].isalnum() or lower[start - 1] in "'-"):
                continue
            card_id = self._by_words[tuple(name.split())]
            mentions.append(self._extend(text, start, end, card_id))
        starts = [m.start for m in mentions]
        ends = [m.end for m in mentions]
        cursor = 0
        known = self._surface_cache
        for phrase in _CAP_PHRASE.finditer(text):
            if known.get(phrase.group()) == ():
                continue  # a phrase already known to name no card ("The", "Bottom line")
            start, end = phrase.span()
            if start and (text[start - 1].isalnum() or text[start - 1] in "'-"):
                continue  # "McDonald": a capital inside a word
            while cursor < len(starts) and ends[cursor] <= start:
                cursor += 1
            if cursor < len(starts) and starts[cursor] < end:
                continue  # overlaps an exact mention, already classified
            mentions.extend(self._phrase_mentions(text, start, end))
        if self._names_10 is not None:
            extra = self._names_10
            mentions = [extra.extend_lowercase(text, lower, m) for m in mentions]
            mentions.extend(extra.lowercase_names(text, lower, mentions, joins))
            if joins:  # the surface as written, with its space
                mentions = [
                    NameMention(
                        m.start, m.end, m.kind, m.card_id, original[m.start : m.end], m.expected
                    )
                    for m in mentions
                ]
        mentions.sort(key=lambda m: m.start)
        return mentions

    # -- exact mentions ----------------------------------------------------------------------

    def _extend(self, text: str, start: int, end: int, card_id: str) -> NameMention:
        """An exact name followed by one more capitalised word may really name another product.

        ``Solstice Cash Back Prefered`` is a misspelled "... Preferred"; ``Summit Cash Premier``
        (premier not a catalog tier of that line) is an unknown product.
        """
        surface = text[start:end]
        follow = _NEXT_WORD.match(text, end, min(len(text), end + 30))
        if follow is None:
            if self._lowercase_tiers and surface.islower():
                return self._lowercase_tier(text, start, end, card_id)
            return NameMention(start, end, EXACT, card_id, surface)
        word = self._phrases.strip_possessive(follow.group(1).lower())
        longer = (*self._words[card_id], word)
        new_end = follow.end(1) - (
            2 if follow.group(1).lower().endswith("'s") and not word.endswith("'s") else 0
        )
        near = self._phrases.nearest(longer, exact_ok=False)
        if near is not None:
            return NameMention(
                start, new_end, MISSPELLED, near, text[start:new_end], (self.names[near],)
            )
        if (
            word in self.tiers
            or word in self._phrases.vocabulary
            or (word in PRODUCT_WORDS and word not in TRAILING_NOISE)
        ) and longer not in self._by_words:
            # "Summit Cash Premier", "Crest Cash Back", "Juniper Miles Signature Reserve": a real
            # name grown into another product (its further product words join it).
            while True:
                more = _NEXT_WORD.match(text, new_end, min(len(text), new_end + 30))
                if more is None or more.group(1).lower() not in PRODUCT_WORDS | self.tiers:
                    break
                new_end = more.end(1)
            return NameMention(
                start, new_end, UNKNOWN, None, text[start:new_end], self._phrases.near_names(longer)
            )
        return NameMention(start, end, EXACT, card_id, surface)

    def _lowercase_tier(self, text: str, start: int, end: int, card_id: str) -> NameMention:
        """Ruleset 6: "the summit cash platinum" - a name written in lower case and a premium
        tier word after it that makes no catalog name - is an invented card. Only premium tier
        words count: lower-case prose follows a name with ordinary words ("the summit cash one",
        "summit cash plus fees", "summit cash preferred by students"), never with these."""
        follow = _NEXT_LOWER_TIER.match(text, end, min(len(text), end + 20))
        if follow is None:
            return NameMention(start, end, EXACT, card_id, text[start:end])
        longer = (*self._words[card_id], follow.group(1))
        if longer in self._by_words:
            return NameMention(start, end, EXACT, card_id, text[start:end])
        new_end = follow.end(1)
        return NameMention(
            start, new_end, UNKNOWN, None, text[start:new_end], self._phrases.near_names(longer)
        )

    # -- capitalised phrases -----------------------------------------------------------------

    def _phrase_mentions(self, text: str, start: int, end: int) -> list[NameMention]:
        surface = text[start:end]
        verdicts = self._surface_cache.get(surface)
        if verdicts is None:
            words = tuple(lowered.lower() for lowered in _WORD.findall(surface))
            verdicts = self._phrases.verdicts(words)
            if len(self._surface_cache) < PHRASE_CACHE_LIMIT:
                self._surface_cache[surface] = verdicts
        if not verdicts:
            return []
        spans = [m.span() for m in _WORD.finditer(text, start, end)]
        return [
            NameMention(
                spans[v.first][0],
                spans[v.last][1],
                v.kind,
                v.card_id,
                text[spans[v.first][0] : spans[v.last][1]],
                v.expected,
            )
            for v in verdicts
        ]
