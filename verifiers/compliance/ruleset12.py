"""Ruleset 12's readings: the classes session 12's blind evalset showed on its tuning split
(issue 13), each fixed as a class, precision first.

Text (``rewrite_12``), before ruleset 11's rewrites, keeping the map back to the original:

* **a name wrapped inside a list item** - "- Gray\\n  Rock Cash": a line break followed by
  indentation, inside a list item whose line does not end a sentence, where the words on both
  sides of the break are capitalised (a Title Case phrase carried onto the next line) or are
  consecutive words of a catalog name in any case, is a soft wrap (markdown reads the indented
  line as the same paragraph): it reads as one space. Rulesets 3-11 find names within a line,
  so the two halves read as an invented card ("Gray") and an unknown fragment.

Names (``names_12``, after the name index and ruleset 11's look-alike letters):

* **a name two edits from one catalog name** - an invented-looking mention ("Crest Mols
  Elite": 2 edits in a five-letter word, over ruleset 10's per-word limit) whose whole text is
  within 2 edits (optimal string alignment, case-insensitive; 1 for names under ten letters) of
  exactly one catalog name, nearer than to any other, is a misspelling of that card.
* **misspelt names in lower case** - ruleset 10 reads a lower-case name only when it opens with
  an exact catalog brand. Ruleset 12 also reads a run of lower-case words that opens with a
  one-edit typo of a brand ("willaw buld"), a brand with more letters run on ("compassplatinum
  one") or a brand, when the run is within the same whole-name distance of exactly one catalog
  name - the nearest, so a typo of one of two near-twin names ("cenntreline cashback plus")
  binds to the name it is nearest to - and holds no function word. Two-word runs opened by an
  exact brand keep ruleset 10's caution (the second word six letters or more: "summit cast" is
  prose).
* **invented names in lower case** - an issuer's name (as the catalog has it, institution words
  dropped) followed in lower case by product or tier words ("stonebridge onyx world elite"),
  with at most one unfamiliar word among them, is an invented card, as the capitalised form
  already is; an issuer followed by an institution or department word ("stonebridge credit
  union", "stonebridge card services") stays the issuer. A catalog brand followed by a word of
  another of the catalog's product lines ("frontier journey" where no Frontier Journey exists)
  is an invented card; and an unfamiliar word before a catalog product line ("apex student")
  is one where the response uses it as a card: at least twice, each time as "the <name>" or
  with a possessive or a term verb after it ("has", "charges", "offers", ...).

Claims (``revise_12``):

* **a card in general** - "keep one card with no annual fee open", "it helps to have a card
  that charges no foreign fees": a figure or "no fee" that describes an indefinite card ("a",
  "one", "any", "another" ... "card with", "card that has") is about no catalog card, so it is
  unverified. It stays a claim where the indefinite card is predicated of a card ("the X is a
  card with no annual fee", "the X, a card with ...", "X: a card with ...").
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from itertools import pairwise
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from rapidfuzz.distance import OSA

from replicas.verifiers.compliance.claims import Extraction
from replicas.verifiers.compliance.expansions import apply_replacements
from replicas.verifiers.compliance.matchers import trie_pattern, word_set
from replicas.verifiers.compliance.mentions import MISSPELLED, UNKNOWN, NameMention
from replicas.verifiers.compliance.names10 import STRONG_PRODUCT_WORDS
from replicas.verifiers.compliance.phrases import FUNCTION_WORDS, PHRASE_CACHE_LIMIT
from replicas.verifiers.compliance.spans import SpanIndex
from replicas.verifiers.compliance.text import NormalizedText
from replicas.verifiers.compliance.vocab import (
    GENERIC_WORDS,
    INSTITUTION_WORDS,
    LEADING_NOISE,
    NOT_NAME_WORDS,
    PRODUCT_WORDS,
    SERVICE_WORDS,
    TRAILING_NOISE,
)

if TYPE_CHECKING:
    from replicas.verifiers.compliance.names import NameIndex

# -- soft wraps in list items --------------------------------------------------------------------

_ITEM_LINE = re.compile(r"[ \t]*(?:[-*•+]|\d{1,2}[.)])[ \t]+\S")
_BLOCK_START = re.compile(r"[ \t]*(?:[-*•+][ \t]|\d{1,2}[.)][ \t]|#|\||>|`)")
_LAST_WORD = re.compile(r"([A-Za-z][A-Za-z'-]*)[*_]{0,2}[ \t]*$")
_FIRST_WORD = re.compile(r"[ \t]+[*_]{0,2}([A-Za-z][A-Za-z'-]*)")
_SENTENCE_END = frozenset(".:;!?|")


def _bigrams(index: NameIndex) -> frozenset[tuple[str, str]]:
    return frozenset((a, b) for words in index.card_by_words for a, b in pairwise(words))


def rewrite_12(norm: NormalizedText, index: NameIndex) -> NormalizedText:
    """``norm`` with each soft wrap of a name inside a list item read as one space."""
    text = norm.text
    if "\n " not in text and "\n\t" not in text:
        return norm  # a soft wrap is a line break before indentation
    found: list[tuple[int, int, str]] = []
    bigrams: frozenset[tuple[str, str]] | None = None
    in_item = False
    line_start = 0
    while True:
        nl = text.find("\n", line_start)
        if nl < 0:
            break
        line = text[line_start:nl]
        if _ITEM_LINE.match(line):
            in_item = True
        elif not line.strip() or _BLOCK_START.match(line):
            in_item = False
        nxt_end = text.find("\n", nl + 1)
        nxt_end = len(text) if nxt_end < 0 else nxt_end
        nxt = text[nl + 1 : nxt_end]
        stripped = line.rstrip(" \t*_")
        if (
            in_item
            and stripped
            and stripped[-1] not in _SENTENCE_END
            and nxt[:1] in (" ", "\t")
            and nxt.strip()
            and not _BLOCK_START.match(nxt)
        ):
            last = _LAST_WORD.search(line)
            first = _FIRST_WORD.match(nxt)
            if last is not None and first is not None:
                a, b = last.group(1), first.group(1)
                wrap = a[:1].isupper() and b[:1].isupper()
                if not wrap:
                    if bigrams is None:
                        bigrams = _BIGRAMS.get(index)
                        if bigrams is None:
                            bigrams = _BIGRAMS[index] = _bigrams(index)
                    wrap = (a.lower(), b.lower()) in bigrams
                if wrap:
                    indent = len(nxt) - len(nxt.lstrip(" \t"))
                    cut = len(line) - len(line.rstrip(" \t"))
                    found.append((nl - cut, nl + 1 + indent, " "))
        else:
            in_item = in_item and bool(line.strip())
        line_start = nl + 1
    if not found:
        return norm
    return apply_replacements(norm, found)


_BIGRAMS: WeakKeyDictionary[NameIndex, frozenset[tuple[str, str]]] = WeakKeyDictionary()

# -- names ---------------------------------------------------------------------------------------

_NAME_LIMIT = 2  # edits between a misspelt name and its card (whole name)
_SHORT_NAME = 10  # names shorter than this allow one edit
_LOWER_RUN = re.compile(r"[a-z0-9][a-z0-9'-]*")
_NEXT_CAPITAL = re.compile(r"[ \t]([A-Z][A-Za-z'-]{1,20})(?![\w-])")
# the next word of ``_LOWER_RUN`` after a word's end, one or two blanks away
_NEXT_WORD = re.compile(r"[ \t]{1,2}([a-z0-9][a-z0-9'-]*)")
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789'-")
_MAX_WORDS = 5
# words a card-like use of an unfamiliar phrase is followed by ("the apex student has ...")
_TERM_VERBS = word_set(
    """
    has have charges charge offers offer comes gives earns needs requires carries runs pays
    lets is costs doesn't does
    """
)
# words that precede a product line in ordinary prose ("a college student", "small business")
_PROSE_MODIFIERS = word_set(
    """
    college university grad graduate undergraduate international domestic full-time part-time
    typical average young older new small large big local personal everyday frequent occasional
    budget savvy smart beginner first-time working busy former current future
    """
)


def _strip_possessive(word: str) -> str:
    if word.endswith("'s"):
        return word[:-2]
    return word.rstrip("'")


class Names12:
    """What ruleset 12 reads names with, built once per name index."""

    def __init__(self, index: NameIndex) -> None:
        self.index = index
        phrases = index._phrases
        self.phrases = phrases
        self.vocabulary = phrases.vocabulary
        self.brands = phrases.brands
        self.full: list[tuple[str, str, int]] = sorted(
            (" ".join(words), card_id, len(words)) for words, card_id in index.card_by_words.items()
        )
        self.prefix4: dict[str, list[str]] = {}
        for brand in self.brands:
            if len(brand) >= 4:
                self.prefix4.setdefault(brand[:4], []).append(brand)
        self.stems: tuple[tuple[str, ...], ...] = phrases._issuer_stems
        self.stem_first = frozenset(s[0] for s in self.stems)
        # product lines: the words after a brand, and every such word
        lines: dict[tuple[str, ...], set[str]] = {}
        line_words: set[str] = set()
        for words in index.card_by_words:
            if len(words) > 1:
                lines.setdefault(words[1:], set()).add(words[0])
                line_words.update(words[1:])
        self.lines = {k: frozenset(v) for k, v in lines.items()}
        self.line_first = frozenset(k[0] for k in lines)
        self.line_words = frozenset(
            w
            for w in line_words
            if w.isalpha()
            and len(w) >= 4
            and w not in GENERIC_WORDS
            and w not in FUNCTION_WORDS
            and w not in NOT_NAME_WORDS
        )
        self.words_of_brand: dict[str, frozenset[str]] = {}
        for words in index.card_by_words:
            if len(words) > 1:
                self.words_of_brand[words[0]] = self.words_of_brand.get(
                    words[0], frozenset()
                ) | frozenset(words[1:])
        self._near_cache: dict[str, tuple[str | None, tuple[str, ...]] | None] = {}
        self._anchor_cache: dict[str, bool] = {}
        self._gate_yes: set[str] = set()
        self._plain_cache: dict[
            str,
            tuple[
                str,
                tuple[
                    tuple[tuple[int, NameMention], ...],
                    tuple[NameMention, ...],
                    tuple[tuple[tuple[str, ...], int, int], ...],
                ],
            ],
        ] = {}
        self._line_cache: dict[
            tuple[str, str, tuple[tuple[int, int] | tuple[int, int, str], ...]],
            tuple[
                tuple[tuple[int, NameMention], ...],
                tuple[NameMention, ...],
                tuple[tuple[tuple[str, ...], int, int], ...],
            ],
        ] = {}
        self._gate_no: set[str] = set()
        self._line_candidate = re.compile(
            r"(?<![\w'-])(?P<w>[a-z]{3,20})[ \t](?P<n>(?:"
            + trie_pattern(sorted(self.line_first))
            + r")(?:'s?)?(?:[ \t][a-z0-9]+(?:'s?)?){0,2})(?![\w-])"
        )
        # where a product line's first word starts after a blank: every match of
        # ``_line_candidate`` has one right after its first word
        self._line_start = re.compile(r"[ \t](?:" + trie_pattern(sorted(self.line_first)) + ")")
        # words that never open an invented name before a product line
        self._familiar = (
            self.vocabulary
            | GENERIC_WORDS
            | FUNCTION_WORDS
            | LEADING_NOISE
            | NOT_NAME_WORDS
            | PRODUCT_WORDS
            | _PROSE_MODIFIERS
            | self.stem_first
        )

    # -- whole-name distance ---------------------------------------------------------------------

    def near(self, surface: str) -> tuple[str | None, tuple[str, ...]] | None:
        """``(card_id, expected)`` of the one catalog name ``surface`` is within a typo of as a
        whole (``card_id`` None when two names are equally near), else None (also when it is a
        catalog name exactly)."""
        if surface in self._near_cache:
            return self._near_cache[surface]
        best = _NAME_LIMIT + 1
        cards: list[str] = []
        size = len(surface)
        for name, card_id, _n in self.full:
            limit = _NAME_LIMIT if len(name) >= _SHORT_NAME else 1
            if abs(len(name) - size) > limit:
                continue
            d = OSA.distance(surface, name, score_cutoff=limit)
            if d > limit or d > best:
                continue
            if d < best:
                best, cards = d, [card_id]
            else:
                cards.append(card_id)
        out: tuple[str | None, tuple[str, ...]] | None
        if not cards or best == 0:
            out = None
        elif len(cards) == 1:
            out = (cards[0], (self.index.names[cards[0]],))
        else:
            out = (None, tuple(sorted(self.index.names[c] for c in cards)))
        if len(self._near_cache) < 20_000:
            self._near_cache[surface] = out
        return out

    def _mention(
        self, start: int, end: int, surface: str, hit: tuple[str | None, tuple[str, ...]]
    ) -> NameMention:
        card_id, expected = hit
        kind = MISSPELLED if card_id is not None else UNKNOWN
        return NameMention(start, end, kind, card_id, surface, expected)

    def respell(self, mention: NameMention, text: str) -> NameMention:
        """An unknown mention within a whole-name typo of one catalog name - alone or with the
        capitalised words after it on its line ("Harbor Sky" + "Mlse") - is a misspelling."""
        words = [_strip_possessive(w) for w in _LOWER_RUN.findall(mention.surface.lower())]
        while words and words[-1] in TRAILING_NOISE:
            words.pop()
        end = mention.end
        for _ in range(3):
            if len(words) >= 2:
                hit = self.near(" ".join(words))
                if hit is not None and hit[0] is not None:
                    return self._mention(mention.start, end, text[mention.start : end], hit)
            more = _NEXT_CAPITAL.match(text, end)
            if more is None:
                break
            words.append(_strip_possessive(more.group(1).lower()))
            end = more.end(1) - _cut(more.group(1))
        return mention

    # -- lower case --------------------------------------------------------------------------------

    def _anchor(self, word: str) -> bool:
        """A word that may open a misspelt name: a brand, a one-edit typo of one, or a brand
        with more letters run on."""
        cached = self._anchor_cache.get(word)
        if cached is not None:
            return cached
        out = word in self.brands
        bare = word.replace("-", "")
        if not out and len(bare) >= 4 and bare.isalpha() and word not in self.vocabulary:
            out = (bare == word and self.phrases._brand_typo(word)) or any(
                bare.startswith(b) and len(bare) > len(b) + 2
                for b in self.prefix4.get(bare[:4], ())
            )
        if len(self._anchor_cache) < 50_000:
            self._anchor_cache[word] = out
        return out

    def _gated(self, tokens: set[str]) -> set[str]:
        """The words of ``tokens`` that may open a loose name (see ``loose``)."""
        yes, no = self._gate_yes, self._gate_no
        hits = tokens & yes
        for word in (tokens - yes) - no:  # (difference(yes, no) walks all of ``no``)
            bare = _strip_possessive(word)
            gate = bare not in FUNCTION_WORDS and (self._anchor(bare) or bare in self.stem_first)
            if gate:
                hits.add(word)
            if len(yes) + len(no) < 50_000:
                (yes if gate else no).add(word)
        return hits

    def loose(self, text: str, lower: str, mentions: Sequence[NameMention]) -> list[NameMention]:
        """Misspelt names in any case, invented ones written in lower case, outside
        ``mentions``.

        A name opens with a word that passes the gate (a brand, a typo or run-on of one, an
        issuer's first word): the words of the text are gated as a set (the verdict of each
        distinct word cached), and only the gated words' places are visited - the words of
        ``_LOWER_RUN.finditer`` that pass, in order, as if every word were visited."""
        return self._loose(text, lower, sorted((m.start, m.end) for m in mentions))

    def _loose(self, text: str, lower: str, taken: list[tuple[int, int]]) -> list[NameMention]:
        """``loose`` outside the sorted spans ``taken``."""
        hits = self._gated(set(_LOWER_RUN.findall(lower)))
        if not hits:
            return []
        places = sorted(span for word in hits for span in _word_spans(lower, word))
        out: list[NameMention] = []
        reach = -1
        j = 0
        for start, end in places:
            if start < reach:
                continue
            while j < len(taken) and taken[j][1] <= start:
                j += 1
            if j < len(taken) and taken[j][0] < end:
                continue  # inside a mention already read
            # the run of words after it on the line, joined by one or two blanks
            spans = [(start, end)]
            stop = end
            while len(spans) < _MAX_WORDS:
                more = _NEXT_WORD.match(lower, stop)
                if more is None:
                    break
                stop = more.end(1)
                spans.append((more.start(1), stop))
            limit_end = taken[j][0] if j < len(taken) else len(lower)
            spans = [sp for sp in spans if sp[1] <= limit_end]
            found = self._lower_name(text, lower, spans)
            if found is not None:
                a, b, hit = found
                out.append(self._mention(a, b, text[a:b], hit))
                reach = b
        return out

    def _lower_name(
        self, text: str, lower: str, spans: list[tuple[int, int]]
    ) -> tuple[int, int, tuple[str | None, tuple[str, ...]]] | None:
        raw = [lower[a:b] for a, b in spans]
        # invented names are read here only in lower case (capitalised ones by the name index)
        lower_case = text[spans[0][0] : spans[-1][1]].islower()
        clean = [_strip_possessive(w) for w in raw]
        first = clean[0]
        cut = len(clean)
        for x in range(1, len(clean)):
            if (clean[x] in FUNCTION_WORDS and clean[x] not in self.vocabulary) or raw[
                x - 1
            ].endswith("'"):
                cut = x  # a function word, or a possessive, ends a name
                break
            if raw[x - 1].endswith("'s"):
                cut = x
                break
        clean = clean[:cut]
        if len(clean) < 1:
            return None
        # 1. a misspelt name
        if self._anchor(first):
            exact_brand = first in self.brands
            for m in range(len(clean), 0, -1):
                if m == 1 and exact_brand:
                    break
                surface = " ".join(clean[:m])
                if " ".join(clean[:m]) in self._exact_names():
                    return None  # a catalog name (the index found it or a longer one)
                hit = self.near(surface)
                if hit is None:
                    continue
                if exact_brand and m == 2 and hit[0] is not None:
                    second = self.index.words_by_card[hit[0]][1:2]
                    if second and len(second[0]) < 6:
                        continue  # "summit cast": a short word one edit away is often prose
                return spans[0][0], spans[m - 1][1] - _cut(raw[m - 1]), hit
        if not lower_case:
            return None
        # 2. an issuer's name with product words after it
        if first in self.stem_first:
            found = self._issuer_product(lower, spans, clean)
            if found is not None:
                return found
        # 3. a brand on another product line
        if first in self.brands and len(clean) >= 2:
            found = self._brand_on_line(spans, clean, raw)
            if found is not None:
                return found
        return None

    def _exact_names(self) -> frozenset[str]:
        names = getattr(self, "_exact", None)
        if names is None:
            names = self._exact = frozenset(n for n, _c, _k in self.full)
        return names

    def _issuer_product(
        self, lower: str, spans: list[tuple[int, int]], clean: list[str]
    ) -> tuple[int, int, tuple[str | None, tuple[str, ...]]] | None:
        stem = next(
            (s for s in self.stems if tuple(clean[: len(s)]) == s and len(clean) > len(s)),
            None,
        )
        if stem is None:
            return None
        tail = clean[len(stem) :]
        if tail[0] in INSTITUTION_WORDS or tail[0] in SERVICE_WORDS or tail[0] in TRAILING_NOISE:
            return None
        last = None
        coined = 0
        for x, w in enumerate(tail):
            if w in STRONG_PRODUCT_WORDS or (w in self.index.tiers and w in PRODUCT_WORDS):
                if w not in TRAILING_NOISE:
                    last = x
                continue
            if w in SERVICE_WORDS or w in INSTITUTION_WORDS:
                return None
            if coined or not w.isalpha() or w in GENERIC_WORDS or w in LEADING_NOISE:
                break
            coined += 1
        if last is None:
            return None
        n = len(stem) + last + 1
        name = clean[:n]
        if " ".join(name) in self._exact_names():
            return None
        expected = self.phrases.near_names(tuple(name))
        end = spans[n - 1][1] - _cut(lower[spans[n - 1][0] : spans[n - 1][1]])
        return spans[0][0], end, (None, expected)

    def _brand_on_line(
        self,
        spans: list[tuple[int, int]],
        clean: list[str],
        raw: list[str],
    ) -> tuple[int, int, tuple[str | None, tuple[str, ...]]] | None:
        """ "frontier journey": a brand and a word of another product line (none of its own)."""
        brand = clean[0]
        own = self.words_of_brand.get(brand, frozenset())
        second = clean[1]
        if second in own or second not in self.line_words or second in STRONG_PRODUCT_WORDS:
            return None  # its own line, or a strong word ruleset 10 already reads
        n = 2
        while n < len(clean) and (clean[n] in self.line_words or clean[n] in STRONG_PRODUCT_WORDS):
            n += 1
        if " ".join(clean[:n]) in self._exact_names():
            return None
        expected = self.phrases.near_names(tuple(clean[:n]))
        return spans[0][0], spans[n - 1][1] - _cut(raw[n - 1]), (None, expected)

    # -- line by line, kept per line ---------------------------------------------------------------

    def by_line(
        self, text: str, lower: str, mentions: Sequence[NameMention]
    ) -> list[NameMention] | None:
        """``names_12``'s mentions, read line by line and kept per line across responses (as
        the name index keeps its own; answers repeat their lines), or None where a mention
        spans a line break or the mentions are out of order (then the whole text is read).

        Every reading is the line's own: a respelling extends a name along its line only, a
        loose name's run of words is joined by blanks, an invented name's pattern matches no
        line break, and the mentions a reading skips overlap it. So a line's text, lower-case
        text and mentions (positions in the line) decide its respellings, loose names and
        invented-name uses; only the count of uses (two or more) is taken over the response.
        """
        size = len(text)
        cache = self._line_cache
        plain = self._plain_cache
        changes: list[tuple[int, NameMention]] = []
        found: list[NameMention] = []
        uses: list[tuple[tuple[str, ...], int, int]] = []
        count = len(mentions)
        k = 0
        pos = 0
        while pos < size:
            stop = text.find("\n", pos)
            stop = size if stop < 0 else stop + 1
            first = k
            while k < count and mentions[k].start < stop:
                m = mentions[k]
                if m.start < pos or m.end > stop:
                    return None
                k += 1
            if first == k:
                if stop - pos == 1:
                    pos = stop  # an empty line
                    continue
                # a line without mentions, kept by its text (and its lower-case text)
                line_text = text[pos:stop]
                line_lower = lower[pos:stop]
                kept = plain.get(line_text)
                if kept is not None and kept[0] == line_lower:
                    reading = kept[1]
                else:
                    reading = self._read_line(line_text, line_lower, ())
                    if stop - pos <= 2_000:
                        if len(plain) >= PHRASE_CACHE_LIMIT:
                            plain.clear()
                        plain[line_text] = (line_lower, reading)
            else:
                key = (
                    text[pos:stop],
                    lower[pos:stop],
                    tuple(
                        (m.start - pos, m.end - pos, m.surface)
                        if m.kind == UNKNOWN
                        else (m.start - pos, m.end - pos)
                        for m in mentions[first:k]
                    ),
                )
                hit = cache.get(key)
                if hit is None:
                    hit = self._read_line(*key)
                    if stop - pos <= 2_000:
                        if len(cache) >= PHRASE_CACHE_LIMIT:
                            cache.clear()
                        cache[key] = hit
                reading = hit
            changed, loose, used = reading
            if changed:
                changes.extend((first + i, _shifted(m, pos)) for i, m in changed)
            if loose:
                found.extend(_shifted(m, pos) for m in loose)
            if used:
                uses.extend((words, a + pos, b + pos) for words, a, b in used)
            pos = stop
        if k != count:
            return None
        out = list(mentions)
        for i, m in changes:
            out[i] = m
        if found:
            out = sorted([*out, *found], key=lambda m: m.start)
        if uses:
            invented = self._invented(text, lower, uses)
            if invented:
                out = sorted([*out, *invented], key=lambda m: m.start)
        return out

    def _read_line(
        self, text: str, lower: str, given: tuple[tuple[int, int] | tuple[int, int, str], ...]
    ) -> tuple[
        tuple[tuple[int, NameMention], ...],
        tuple[NameMention, ...],
        tuple[tuple[tuple[str, ...], int, int], ...],
    ]:
        """One line's respellings (index in the line's mentions, new mention), loose names and
        invented-name uses, positions in the line (see ``by_line``). ``given`` holds each
        mention's span, and an unknown one's surface: all that ``respell`` reads of a mention
        (it keeps the mention or makes a new one), and the loose and invented readings read
        only spans."""
        spans = [(g[0], g[1]) for g in given]
        changed = []
        for i, g in enumerate(given):
            if len(g) == 3:
                mention = NameMention(g[0], g[1], UNKNOWN, None, g[2])
                new = self.respell(mention, text)
                if new is not mention:
                    changed.append((i, new))
                    spans[i] = (new.start, new.end)
        loose = self._loose(text, lower, sorted(spans))
        taken = [*spans, *((m.start, m.end) for m in loose)]
        return tuple(changed), tuple(loose), tuple(self._invented_spans(text, lower, taken))

    # -- invented brand before a product line ------------------------------------------------------

    def _line_candidates(self, lower: str) -> Iterator[re.Match[str]]:
        """``self._line_candidate.finditer(lower)``, tried only where a match can start: at the
        word of three to twenty letters before a blank that a product line's first word follows
        (the pattern's first group is such a word, and the match starts nowhere else)."""
        after = 0  # finditer resumes where its last match ended
        pattern = self._line_candidate
        for blank in self._line_start.finditer(lower):
            stop = blank.start()
            letters = _LETTERS_BEFORE.search(lower, max(0, stop - 21), stop)
            if letters is None:
                continue
            start = letters.start()
            if start < after or stop - start > 20:
                continue
            m = pattern.match(lower, start)
            if m is not None:
                after = m.end()
                yield m

    def invented_lines(
        self, text: str, lower: str, mentions: Sequence[NameMention]
    ) -> list[NameMention]:
        """ "the apex student has ...": an unfamiliar lower-case word before a catalog product
        line, used as a card at least twice."""
        return self._invented(text, lower, self._invented_uses(text, lower, mentions))

    def _invented_uses(
        self, text: str, lower: str, mentions: Sequence[NameMention]
    ) -> list[tuple[tuple[str, ...], int, int]]:
        """Each card-like use of an unfamiliar word before a product line, in order: the words
        and the span (none spans a line)."""
        return self._invented_spans(text, lower, [(m.start, m.end) for m in mentions])

    def _invented_spans(
        self, text: str, lower: str, taken: list[tuple[int, int]]
    ) -> list[tuple[tuple[str, ...], int, int]]:
        """``_invented_uses`` outside the spans ``taken``."""
        uses: list[tuple[tuple[str, ...], int, int]] = []
        spans = SpanIndex(taken)
        for m in self._line_candidates(lower):
            word = m.group("w")
            if word in self._familiar or len(word) < 3 or not word.isalpha():
                continue
            start, end = m.start("w"), m.end("n")
            if not text[start:end].islower():
                continue
            line = tuple(_strip_possessive(w) for w in m.group("n").split())
            tail = next((line[:k] for k in range(len(line), 0, -1) if line[:k] in self.lines), None)
            if tail is None:
                continue
            stop = start + len(word) + 1 + len(" ".join(tail))
            stop = _word_end(lower, stop)
            if spans.overlaps(start, stop):
                continue
            if all(t in GENERIC_WORDS for t in tail):
                continue  # "the headline rewards": a line of generic words names nothing
            after = lower[stop : stop + 20]
            verb = _NEXT.match(after)
            if not (
                after.startswith(("'s", "'"))
                or (verb is not None and verb.group(1) in _TERM_VERBS)
                or (lower.endswith("the ", 0, start) and _PHRASE_END.match(after) is not None)
            ):
                continue  # a card is the subject of a term or "the <name>" ends its phrase
            uses.append(((word, *tail), start, stop))
        return uses

    def _invented(
        self, text: str, lower: str, found: Sequence[tuple[tuple[str, ...], int, int]]
    ) -> list[NameMention]:
        """The invented names of ``found`` (``_invented_uses``) used at least twice."""
        uses: dict[tuple[str, ...], list[tuple[int, int]]] = {}
        for key, start, stop in found:
            uses.setdefault(key, []).append((start, stop))
        out = []
        for key, spans in uses.items():
            if len(spans) < 2:
                continue
            expected = self.phrases.near_names(key)
            for a, b in spans:
                end = b - _cut(lower[a:b])
                out.append(NameMention(a, end, UNKNOWN, None, text[a:end], expected))
        return out


_NEXT = re.compile(r"[ \t]+([a-z']+)")
# the letters (three to 21, the window's start if more) that end where a search's window ends
_LETTERS_BEFORE = re.compile(r"[a-z]{3,21}\Z")
_PHRASE_END = re.compile(r"[ \t]*(?:[.,;:!?)]|\n|$)")


def _word_end(lower: str, pos: int) -> int:
    while pos < len(lower) and (lower[pos].isalnum() or lower[pos] == "'"):
        pos += 1
    return pos


def _word_spans(lower: str, word: str) -> list[tuple[int, int]]:
    """The spans where ``word`` (a match of ``_LOWER_RUN``) occurs in ``lower`` as one of
    ``_LOWER_RUN.finditer(lower)``'s words: not run on to more word characters, and where a
    word starts (only apostrophes and hyphens, if anything, back to a non-word character)."""
    out = []
    size = len(word)
    at = lower.find(word)
    while at >= 0:
        stop = at + size
        if stop == len(lower) or lower[stop] not in _WORD_CHARS:
            back = at - 1
            while back >= 0 and lower[back] in "'-":
                back -= 1
            if back < 0 or lower[back] not in _WORD_CHARS:
                out.append((at, stop))
        at = lower.find(word, at + 1)
    return out


def _shifted(m: NameMention, by: int) -> NameMention:
    return NameMention(m.start + by, m.end + by, m.kind, m.card_id, m.surface, m.expected)


def _cut(word: str) -> int:
    if word.endswith("'s"):
        return 2
    if word.endswith("'"):
        return 1
    return 0


_NAMES12: WeakKeyDictionary[NameIndex, Names12] = WeakKeyDictionary()


def names_12(
    index: NameIndex, text: str, lower: str, mentions: Sequence[NameMention]
) -> list[NameMention]:
    """The mentions with ruleset 12's readings: whole-name typos of unknown mentions are
    misspellings; misspelt and invented names in lower case are added."""
    extra = _NAMES12.get(index)
    if extra is None:
        extra = _NAMES12[index] = Names12(index)
    if len(lower) == len(text):
        by_line = extra.by_line(text, lower, mentions)
        if by_line is not None:
            return by_line
    out = [extra.respell(m, text) if m.kind == UNKNOWN else m for m in mentions]
    found = extra.loose(text, lower, out)
    if found:
        out = sorted([*out, *found], key=lambda m: m.start)
    invented = extra.invented_lines(text, lower, out)
    if invented:
        out = sorted([*out, *invented], key=lambda m: m.start)
    return out


# -- claims about a card in general --------------------------------------------------------------

_GENERIC_CARD = re.compile(
    r"(?<![\w'])(?P<det>a|an|one|any|another|some|other|extra|backup|second|at[ \t]+least[ \t]+one)"
    r"[ \t]+(?:[\w-]+[ \t]+){0,2}cards?[ \t]+(?:with|that[ \t]+(?:has|have|charges?|carries"
    r"|comes[ \t]+with|offers?)|which[ \t]+(?:has|have|charges?)|charging|carrying|offering"
    r"|without)[ \t]+(?:an?[ \t]+|zero[ \t]+)?$"
)
_CARD_TAIL = re.compile(r"cards?[ \t]+(?:with|that|which|charging|carrying|offering|without)")
# the words ``_GENERIC_CARD`` can end with (then blanks, and at most a line break)
_GENERIC_LAST = frozenset(
    (
        *("with", "has", "have", "charge", "charges", "carries", "offer", "offers"),
        *("charging", "carrying", "offering", "without", "a", "an", "zero"),
    )
)
_PREDICATED = re.compile(
    r"(?:\b(?:is|are|was|be|been|as|it'?s|that'?s|'s|'re)|[:,(—–]|[ \t]-)[ \t]*$"
)


def revise_12(extraction: Extraction) -> Extraction:
    """The extraction with claims about an indefinite card ("keep one card with no annual fee
    open") unbound: unverified, as a figure the grammar cannot tie to a catalog card."""
    masked = extraction.masked
    if " card" not in masked:
        return extraction
    # where "card(s) with/that/..." occurs: every match of _GENERIC_CARD holds one
    tails = [m.start() for m in _CARD_TAIL.finditer(masked)]
    if not tails:
        return extraction
    out = list(extraction.claims)
    # the claims whose window (the 80 characters before them) holds a tail: where the claims
    # are in order of start, found by bisection, else every claim, each window tested
    starts = [c.start for c in out]
    near: Iterable[int]
    if starts == sorted(starts):
        near = sorted(
            {i for t in tails for i in range(bisect_right(starts, t), bisect_right(starts, t + 80))}
        )
    else:
        near = range(len(out))
    changed = False
    for i in near:
        claim = out[i]
        if not claim.cards:
            continue
        lo = max(0, claim.start - 80)
        at = bisect_left(tails, lo)
        if at == len(tails) or tails[at] >= claim.start:
            continue  # no "card with ..." in the window
        window = masked[lo : claim.start]
        last = window.rsplit(None, 1)
        if not last or last[-1] not in _GENERIC_LAST:
            continue  # the pattern ends with one of these words before blanks
        m = _GENERIC_CARD.search(window)
        if m is None:
            continue
        if _PREDICATED.search(window, 0, m.start()) is not None:
            continue  # "the X is a card with no annual fee"
        out[i] = replace(claim, cards=(), binding="")
        changed = True
    if not changed:
        return extraction
    return replace(extraction, claims=tuple(out))


__all__ = ["Names12", "names_12", "revise_12", "rewrite_12"]
