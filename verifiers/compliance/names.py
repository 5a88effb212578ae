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
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from ahocorasick_rs import AhoCorasick, MatchKind
from rapidfuzz.distance import OSA

from replicas.verifiers.compliance import references as refs
from replicas.verifiers.compliance.matchers import trie_pattern as _trie_pattern
from replicas.verifiers.compliance.matchers import word_set
from replicas.verifiers.compliance.mentions import (
    EXACT,
    MISSPELLED,
    UNKNOWN,
    NameMention,
    tokens_of,
)
from replicas.verifiers.compliance.vocab import (
    GENERIC_WORDS,
    INSTITUTION_WORDS,
    LEADING_NOISE,
    NOT_NAME_WORDS,
    PRODUCT_WORDS,
    TIER_WORDS,
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
_PHRASE_CACHE_LIMIT = 20_000
# Words that end a product name (no catalog name contains them; one that does keeps them).
FUNCTION_WORDS = word_set(
    """
    a an the with for to of and or your my our in on at is are vs versus from by into about
    without when if how why what which
    """
)


def typo_distance(word: str, target: str) -> int | None:
    """Edits from ``word`` to ``target`` when they are a plausible typo of each other, else None.

    One edit is allowed for words of up to five letters, two for longer ones (a transposition
    counts once: optimal string alignment); 0 means equal. Words shorter than three letters only
    ever match exactly.
    """
    if word == target:
        return 0
    limit = 1 if len(target) <= 5 else 2
    if len(target) < 3 or abs(len(word) - len(target)) > limit:
        return None
    distance = OSA.distance(word, target, score_cutoff=limit)
    return distance if distance <= limit else None


@dataclass(frozen=True)
class _Verdict:
    """How a capitalised phrase (as words) reads: which words, what kind, which card."""

    first: int
    last: int
    kind: str
    card_id: str | None
    expected: tuple[str, ...]


class NameIndex:
    """Catalog names prepared for matching: one alternation regex plus word-position indexes."""

    def __init__(self, names: Sequence[tuple[str, str]], issuers: Iterable[str] = ()) -> None:
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
        self._vocabulary = frozenset(w for words in by_words for w in words)
        self.brands = frozenset(words[0] for words in by_words if len(words) > 1)
        self._brand_deletions = frozenset(
            variant
            for brand in self.brands
            for variant in (brand, *(brand[:i] + brand[i + 1 :] for i in range(len(brand))))
        )
        self._by_length: dict[int, list[tuple[tuple[str, ...], str]]] = {}
        for words, card_id in by_words.items():
            self._by_length.setdefault(len(words), []).append((words, card_id))
        self._tiers = TIER_WORDS | frozenset(
            words[-1] for words in by_words if len(words) > 1 and words[:-1] in by_words
        )
        self._name_words = self._vocabulary | self._tiers
        # read by ``references`` (short names, labels, "the Plus version")
        self.words_by_card: dict[str, tuple[str, ...]] = self._words
        self.card_by_words: dict[tuple[str, ...], str] = by_words
        self.tiers: frozenset[str] = self._tiers
        self.name_words: frozenset[str] = self._name_words
        self._positions: dict[str, list[tuple[str, int]]] = {}
        for words, card_id in by_words.items():
            for k, word in enumerate(words):
                self._positions.setdefault(word, []).append((card_id, k))
        self._joined: dict[str, list[tuple[str, ...]]] = {}
        for words in by_words:
            self._joined.setdefault("".join(words).replace("-", ""), []).append(words)
        self._issuer_stems = self._stems(issuers)
        # Every name (words joined by single spaces) in one Aho-Corasick automaton, longest match
        # first: one pass over the text finds them all (~14x faster than a prefix-factored regex
        # alternation on an 800-word answer, and ~30x cheaper to build). Word boundaries are
        # checked in Python; where the right one fails, the regex below tries the shorter names.
        self._patterns = [" ".join(w) for w in by_words]
        self._automaton = AhoCorasick(self._patterns, matchkind=MatchKind.LeftmostLongest)
        self._exact: re.Pattern[str] | None = None
        # Classifications are pure functions of the words, so they are memoised on the index and
        # shared by every response checked against this catalog: headings, sentence-initial words
        # and the names themselves recur, and the first look-up by the phrase as written skips
        # even the word split.
        self._phrase_cache: dict[tuple[str, ...], tuple[_Verdict, ...]] = {}
        self._surface_cache: dict[str, tuple[_Verdict, ...]] = {}
        self._nearest_cache: dict[tuple[tuple[str, ...], bool], str | None] = {}
        self._line_cache: dict[str, tuple[NameMention, ...]] = {}

    @staticmethod
    def _stems(issuers: Iterable[str]) -> tuple[tuple[str, ...], ...]:
        stems = set()
        for issuer in issuers:
            words = list(tokens_of(issuer))
            while words and words[-1] in INSTITUTION_WORDS:
                words.pop()
            if words:
                stems.add(tuple(words))
        return tuple(sorted(stems, key=len, reverse=True))

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
                    if len(cache) >= _PHRASE_CACHE_LIMIT:
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
            return NameMention(start, end, EXACT, card_id, surface)
        word = self._strip_possessive(follow.group(1).lower())
        longer = (*self._words[card_id], word)
        new_end = follow.end(1) - (
            2 if follow.group(1).lower().endswith("'s") and not word.endswith("'s") else 0
        )
        near = self._nearest(longer, exact_ok=False)
        if near is not None:
            return NameMention(
                start, new_end, MISSPELLED, near, text[start:new_end], (self.names[near],)
            )
        if (
            word in self._tiers
            or word in self._vocabulary
            or (word in PRODUCT_WORDS and word not in TRAILING_NOISE)
        ) and longer not in self._by_words:
            # "Summit Cash Premier", "Crest Cash Back", "Juniper Miles Signature Reserve": a real
            # name grown into another product (its further product words join it).
            while True:
                more = _NEXT_WORD.match(text, new_end, min(len(text), new_end + 30))
                if more is None or more.group(1).lower() not in PRODUCT_WORDS | self._tiers:
                    break
                new_end = more.end(1)
            return NameMention(
                start, new_end, UNKNOWN, None, text[start:new_end], self._near_names(longer)
            )
        return NameMention(start, end, EXACT, card_id, surface)

    # -- capitalised phrases -----------------------------------------------------------------

    def _phrase_mentions(self, text: str, start: int, end: int) -> list[NameMention]:
        surface = text[start:end]
        verdicts = self._surface_cache.get(surface)
        if verdicts is None:
            words = tuple(lowered.lower() for lowered in _WORD.findall(surface))
            verdicts = self._phrase_cache.get(words)
            if verdicts is None:
                verdicts = self._phrase_verdicts(words)
                if len(self._phrase_cache) < _PHRASE_CACHE_LIMIT:
                    self._phrase_cache[words] = verdicts
            if len(self._surface_cache) < _PHRASE_CACHE_LIMIT:
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

    def _phrase_verdicts(self, words: tuple[str, ...]) -> tuple[_Verdict, ...]:
        """Classify a capitalised phrase (cached by its words: headers and names recur).

        A function word ("With", "A", "For", "Your") ends a product name: title-case headings
        ("Rebuilding With A Secured Card", "Cards For Students") are read piece by piece.
        """
        cuts = [i for i, w in enumerate(words) if w in FUNCTION_WORDS and w not in self._vocabulary]
        if not cuts:
            return self._segment_verdicts(words)
        out: list[_Verdict] = []
        lo = 0
        for cut in [*cuts, len(words)]:
            if cut > lo:
                for v in self._segment_verdicts(words[lo:cut]):
                    out.append(_Verdict(lo + v.first, lo + v.last, v.kind, v.card_id, v.expected))
            lo = cut + 1
        return tuple(out)

    def _segment_verdicts(self, words: tuple[str, ...]) -> tuple[_Verdict, ...]:
        if not any(
            w in self._name_words
            or w in PRODUCT_WORDS
            or self._joined_hit(w)
            or self._brand_typo(w)
            for w in words
        ):
            return ()
        issuer_product = self._issuer_product(words)
        if issuer_product is not None:
            lo, hi = issuer_product
            return (_Verdict(lo, hi - 1, UNKNOWN, None, self._near_names(words[lo:hi])),)
        out = []
        for lo, hi in self._without_issuers(words):
            verdict = self._classify(words[lo:hi])
            if verdict is not None:
                out.append(
                    _Verdict(
                        lo + verdict.first,
                        lo + verdict.last,
                        verdict.kind,
                        verdict.card_id,
                        verdict.expected,
                    )
                )
        return tuple(out)

    def _without_issuers(self, words: tuple[str, ...]) -> list[tuple[int, int]]:
        """Word ranges left after cutting out issuer names ("Granite Peak National Bank")."""
        ranges: list[tuple[int, int]] = []
        lo = i = 0
        while i < len(words):
            stem = next((s for s in self._issuer_stems if words[i : i + len(s)] == s), None)
            if stem is None:
                i += 1
                continue
            if i > lo:
                ranges.append((lo, i))
            i += len(stem)
            while i < len(words) and (words[i] in INSTITUTION_WORDS or words[i] == "'s"):
                i += 1
            lo = i
        if lo < len(words):
            ranges.append((lo, len(words)))
        return ranges

    def _classify(self, raw: tuple[str, ...]) -> _Verdict | None:
        first, last = 0, len(raw) - 1
        while first <= last and raw[first] in LEADING_NOISE and raw[first] not in self.brands:
            first += 1
        while last >= first and raw[last] in TRAILING_NOISE:
            last -= 1
        if first > last:
            return None
        words = tuple(self._strip_possessive(w) for w in raw[first : last + 1])
        best = self._best_alignment(words)
        if best is not None:
            lo, hi, card_id, kind = best
            if hi < len(words) and words[hi] in self._tiers:
                # "Harbour Sky Miles Select": a (mis)spelled line with a tier it does not have.
                return _Verdict(
                    first + lo, first + hi, UNKNOWN, None, self._near_names(words[lo : hi + 1])
                )
            return _Verdict(first + lo, first + hi - 1, kind, card_id, (self.names[card_id],))
        unknown = self._unknown_span(words) or self._invented(words, raw[first:])
        if unknown is not None:
            lo, hi = unknown
            return _Verdict(
                first + lo, first + hi - 1, UNKNOWN, None, self._near_names(words[lo:hi])
            )
        return None

    def _issuer_product(self, words: tuple[str, ...]) -> tuple[int, int] | None:
        """An issuer's name followed by product words ("Granite Peak Diamond Cash Rewards"): a
        product that issuer does not have (its real cards carry their own brand)."""
        for i in range(len(words)):
            stem = next((s for s in self._issuer_stems if words[i : i + len(s)] == s), None)
            if stem is None:
                continue
            tail = words[i + len(stem) :]
            if tail and tail[0] not in INSTITUTION_WORDS and tail[0] != "'s":
                end = len(tail)
                while end and tail[end - 1] in TRAILING_NOISE:
                    end -= 1
                if any(t in PRODUCT_WORDS for t in tail[:end]):
                    if words[i : i + len(stem) + end] in self._by_words:
                        return None
                    return i, i + len(stem) + end
        return None

    def _invented(self, words: tuple[str, ...], raw: tuple[str, ...]) -> tuple[int, int] | None:
        """A product-like phrase that is no catalog card and no misspelling of one.

        Product-like: a catalog brand (or a typo of one) followed by product or tier words ("Summit
        Obsidian Infinite Reserve", "Harbor Platinum Elite"), or a phrase of two or more words that
        ends in a product word and holds a distinctive word - one that is neither generic nor a
        product word ("Crestline Travel Rewards Card"). Generic phrases ("Best Travel Card",
        "Visa Signature") have no distinctive word.
        """
        n = len(words)
        for i, word in enumerate(words):
            if (word in self.brands or self._brand_typo(word)) and i + 1 < n:
                tail = words[i + 1 :]
                if any(t in PRODUCT_WORDS for t in tail):
                    return i, n
                coined = sum(1 for t in tail if self._coined(t))
                if coined >= 2 and all(
                    self._coined(t) or t in self._vocabulary or t in self._tiers for t in tail
                ):
                    # "Atlas Crown Titan", "Aspen Apex Luxe": a catalog brand with invented
                    # premium words after it
                    return i, n
        if len(raw) < 2 or raw[-1] not in PRODUCT_WORDS | TRAILING_NOISE:
            return None
        for i, word in enumerate(words):
            if (
                len(word) >= 3
                and word.isalpha()
                and word not in GENERIC_WORDS
                and word not in PRODUCT_WORDS
                and word not in LEADING_NOISE
                and word not in NOT_NAME_WORDS
            ):
                return (i, n) if n - i >= 1 and (n - i >= 2 or len(raw) > n) else None
        return None

    def _coined(self, word: str) -> bool:
        """A distinctive word that is no catalog name word and no generic or heading word."""
        return (
            len(word) >= 3
            and word.isalpha()
            and word not in self._vocabulary
            and word not in GENERIC_WORDS
            and word not in NOT_NAME_WORDS
            and word not in LEADING_NOISE
            and word not in FUNCTION_WORDS
        )

    def _strip_possessive(self, word: str) -> str:
        if word.endswith("'s") and word not in self._vocabulary:
            return word[:-2]
        return word

    def _joined_hit(self, word: str) -> bool:
        return len(word) >= 6 and word.replace("-", "") in self._joined

    def _brand_typo(self, word: str) -> bool:
        """A one-edit misspelling of a catalog brand (via single-deletion neighbourhoods)."""
        if len(word) < 4 or word in GENERIC_WORDS or word in self.brands:
            return False
        return any(
            d in self._brand_deletions
            for d in (word, *(word[:i] + word[i + 1 :] for i in range(len(word))))
        )

    def _nearest(self, words: tuple[str, ...], *, exact_ok: bool) -> str | None:
        """The one catalog name ``words`` is a typo of (all words within typo distance)."""
        key = (words, exact_ok)
        if key in self._nearest_cache:
            return self._nearest_cache[key]
        near = self._nearest_uncached(words, exact_ok=exact_ok)
        if len(self._nearest_cache) < _PHRASE_CACHE_LIMIT:
            self._nearest_cache[key] = near
        return near

    def _nearest_uncached(self, words: tuple[str, ...], *, exact_ok: bool) -> str | None:
        scored: list[tuple[int, str]] = []
        for name_words, card_id in self._by_length.get(len(words), []):
            total = 0
            for w, n in zip(words, name_words, strict=True):
                d = typo_distance(w, n)
                if d is None:
                    break
                total += d
            else:
                if total > 0 or exact_ok:
                    scored.append((total, card_id))
        joined = "".join(words).replace("-", "")
        for name_words in self._joined.get(joined, []):
            if name_words != words:
                scored.append((1, self._by_words[name_words]))
        if not scored:
            return None
        scored.sort()
        if len(scored) > 1 and scored[0][0] == scored[1][0] and scored[0][1] != scored[1][1]:
            return None  # equally near two cards: which one was meant is unknowable
        return scored[0][1]

    def _best_alignment(self, words: tuple[str, ...]) -> tuple[int, int, str, str] | None:
        """The longest sub-phrase that is a catalog name, exactly or by typos / joined words."""
        best: tuple[int, int, int, str, str] | None = None  # (-length, typos, start, card, kind)
        n = len(words)
        for lo in range(n):
            for hi in range(n, lo, -1):
                sub = words[lo:hi]
                if sub in self._by_words:
                    card_id, typos, kind = self._by_words[sub], 0, EXACT
                else:
                    if not self._anchored(sub):
                        continue
                    near = self._nearest(sub, exact_ok=False)
                    if near is None:
                        continue
                    card_id, kind = near, MISSPELLED
                    typos = 1
                candidate = (-(hi - lo), typos, lo, card_id, kind)
                if best is None or candidate < best:
                    best = candidate
                break  # the longest match from this start is the one that counts
        if best is None:
            return None
        length, _, lo, card_id, kind = best
        return lo, lo - length, card_id, kind

    def _anchored(self, sub: tuple[str, ...]) -> bool:
        """Cheap pre-check before typo matching: one word exact, a brand typo, or joined words."""
        return any(w in self._vocabulary for w in sub) or (
            len(sub) <= 2 and any(self._joined_hit(w) or self._brand_typo(w) for w in sub)
        )

    def _unknown_span(self, words: tuple[str, ...]) -> tuple[int, int] | None:
        """Word range of a product-like phrase that names no catalog card, else None.

        Product-like: a catalog brand (or a typo of one) followed by catalog product or tier
        words, or an unfamiliar capitalised word in front of at least two words of one catalog
        product line that include a distinctive (non-generic) word.
        """
        n = len(words)
        for i, word in enumerate(words):
            is_brand = word in self.brands or self._brand_typo(word)
            if is_brand:
                j = i + 1
                while j < n and words[j] in self._name_words:
                    j += 1
                if j > i + 1:
                    return i, j
            if word in self._vocabulary or word in GENERIC_WORDS or i + 2 >= n:
                continue  # an invented brand needs two product-line words after it
            for name_words in self._lines_after_brand(words[i + 1 :]):
                tail = name_words[1:]
                if any(t not in GENERIC_WORDS for t in tail):
                    return i, i + 1 + len(tail)
        return None

    def _lines_after_brand(self, rest: tuple[str, ...]) -> list[tuple[str, ...]]:
        out = []
        for word_k in self._positions.get(rest[0], []) if rest else []:
            card_id, k = word_k
            name_words = self._words[card_id]
            tail = name_words[1:]
            if k == 1 and len(tail) >= 2 and rest[: len(tail)] == tail:
                out.append(name_words)
        return out

    def _near_names(self, words: Sequence[str]) -> tuple[str, ...]:
        """Up to three catalog names sharing the most words with ``words`` (for messages)."""
        wanted = set(words)
        scored = sorted(
            (-len(wanted & set(nw)), self.names[cid])
            for nw, cid in self._by_words.items()
            if wanted & set(nw)
        )
        return tuple(name for _, name in scored[:3])
