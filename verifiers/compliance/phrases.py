"""Reading a capitalised phrase against the catalog's name words: a card, a misspelt card, an
invented product, or no card at all.

A phrase is cut at function words ("Cards For Students") and issuer names ("Granite Peak National
Bank"); each piece is then the longest sub-phrase that is a catalog name exactly or within typos
(``typo_distance``) or with its words run together, else a product-like phrase that is no catalog
card (a dropped or added tier word, a catalog brand on another product line, a catalog line under
an invented brand), else nothing. ``names.NameIndex`` finds the phrases; this module says what
they are.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz.distance import OSA

from replicas.verifiers.compliance.matchers import word_set
from replicas.verifiers.compliance.mentions import EXACT, MISSPELLED, UNKNOWN, tokens_of
from replicas.verifiers.compliance.vocab import (
    GENERIC_WORDS,
    INSTITUTION_WORDS,
    LEADING_NOISE,
    NOT_NAME_WORDS,
    PRODUCT_WORDS,
    SERVICE_WORDS,
    TIER_WORDS,
    TRAILING_NOISE,
)

PHRASE_CACHE_LIMIT = 20_000
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
class PhraseVerdict:
    """How a capitalised phrase (as words) reads: which words, what kind, which card."""

    first: int
    last: int
    kind: str
    card_id: str | None
    expected: tuple[str, ...]


class NameWords:
    """The words of the catalog's names, indexed to classify capitalised phrases.

    Classifications are pure functions of the words, so they are memoised here and shared by
    every response checked against one catalog: headings, sentence-initial words and the names
    themselves recur.
    """

    def __init__(
        self,
        names: dict[str, str],
        words_by_card: dict[str, tuple[str, ...]],
        by_words: dict[tuple[str, ...], str],
        issuers: Iterable[str],
        brand_first: bool = False,
        institution_products: bool = False,
        service_names: bool = False,
    ) -> None:
        self.names = names
        self._words = words_by_card
        self._by_words = by_words
        self.vocabulary = frozenset(w for words in by_words for w in words)
        self.brands = frozenset(words[0] for words in by_words if len(words) > 1)
        self._brand_deletions = frozenset(
            variant
            for brand in self.brands
            for variant in (brand, *(brand[:i] + brand[i + 1 :] for i in range(len(brand))))
        )
        # a word more than one letter longer than every brand is no one-edit misspelling of one
        self._brand_typo_max = max((len(brand) for brand in self.brands), default=0) + 1
        self._by_length: dict[int, list[tuple[tuple[str, ...], str]]] = {}
        for words, card_id in by_words.items():
            self._by_length.setdefault(len(words), []).append((words, card_id))
        self.tiers = TIER_WORDS | frozenset(
            words[-1] for words in by_words if len(words) > 1 and words[:-1] in by_words
        )
        self.name_words = self.vocabulary | self.tiers
        self._positions: dict[str, list[tuple[str, int]]] = {}
        for words, card_id in by_words.items():
            for k, word in enumerate(words):
                self._positions.setdefault(word, []).append((card_id, k))
        self._joined: dict[str, list[tuple[str, ...]]] = {}
        for words in by_words:
            self._joined.setdefault("".join(words).replace("-", ""), []).append(words)
        self._issuer_stems = self._stems(issuers)
        self.issuer_stems = self._issuer_stems
        self.issuer_brand_overlap = any(
            len(stem) == 1 and stem[0] in self.brands for stem in self._issuer_stems
        )
        # ruleset 5: an issuer stem that is a card brand ("Lakeshore" of "Lakeshore Trust") is an
        # issuer's name only when an institution word follows it, not before product words; a
        # longer stem ("Granite Peak" of "Granite Peak National Bank") stays the issuer's
        self._brand_first = brand_first and self.issuer_brand_overlap
        # ruleset 5: "Ironwood Credit Union Signature Select" - an issuer's full name, institution
        # words and all, followed by product words - is an invented product of that issuer
        self._institution_products = institution_products
        # ruleset 6: "Harborline Card Services" - an issuer's department, not a product
        self._service_names = service_names
        self._phrase_cache: dict[tuple[str, ...], tuple[PhraseVerdict, ...]] = {}
        self._nearest_cache: dict[tuple[tuple[str, ...], bool], str | None] = {}

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

    def verdicts(self, words: tuple[str, ...]) -> tuple[PhraseVerdict, ...]:
        """How the capitalised phrase of ``words`` reads (memoised)."""
        verdicts = self._phrase_cache.get(words)
        if verdicts is None:
            verdicts = self._phrase_verdicts(words)
            if len(self._phrase_cache) < PHRASE_CACHE_LIMIT:
                self._phrase_cache[words] = verdicts
        return verdicts

    def _phrase_verdicts(self, words: tuple[str, ...]) -> tuple[PhraseVerdict, ...]:
        """Classify a capitalised phrase.

        A function word ("With", "A", "For", "Your") ends a product name: title-case headings
        ("Rebuilding With A Secured Card", "Cards For Students") are read piece by piece.
        """
        cuts = [i for i, w in enumerate(words) if w in FUNCTION_WORDS and w not in self.vocabulary]
        if not cuts:
            return self._segment_verdicts(words)
        out: list[PhraseVerdict] = []
        lo = 0
        for cut in [*cuts, len(words)]:
            if cut > lo:
                for v in self._segment_verdicts(words[lo:cut]):
                    out.append(
                        PhraseVerdict(lo + v.first, lo + v.last, v.kind, v.card_id, v.expected)
                    )
            lo = cut + 1
        return tuple(out)

    def _segment_verdicts(self, words: tuple[str, ...]) -> tuple[PhraseVerdict, ...]:
        if not any(
            w in self.name_words or w in PRODUCT_WORDS or self._joined_hit(w) or self._brand_typo(w)
            for w in words
        ):
            return ()
        issuer_product = self._issuer_product(words)
        if issuer_product is not None:
            lo, hi = issuer_product
            return (PhraseVerdict(lo, hi - 1, UNKNOWN, None, self.near_names(words[lo:hi])),)
        out = []
        for lo, hi in self._without_issuers(words):
            verdict = self._classify(words[lo:hi])
            if verdict is not None:
                out.append(
                    PhraseVerdict(
                        lo + verdict.first,
                        lo + verdict.last,
                        verdict.kind,
                        verdict.card_id,
                        verdict.expected,
                    )
                )
        return tuple(out)

    def _brand_led(self, words: tuple[str, ...], i: int, stem: tuple[str, ...]) -> bool:
        """Ruleset 5: the issuer stem at ``i`` is a card brand leading a product name ("Lakeshore
        Voyagr"), not an issuer's name ("Lakeshore Trust", "Lakeshore's cards")."""
        if not self._brand_first or len(stem) != 1 or stem[0] not in self.brands:
            return False
        after = i + len(stem)
        return after < len(words) and words[after] not in INSTITUTION_WORDS and words[after] != "'s"

    def _without_issuers(self, words: tuple[str, ...]) -> list[tuple[int, int]]:
        """Word ranges left after cutting out issuer names ("Granite Peak National Bank")."""
        ranges: list[tuple[int, int]] = []
        lo = i = 0
        while i < len(words):
            stem = next((s for s in self._issuer_stems if words[i : i + len(s)] == s), None)
            if stem is None or self._brand_led(words, i, stem):
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

    def _classify(self, raw: tuple[str, ...]) -> PhraseVerdict | None:
        first, last = 0, len(raw) - 1
        while first <= last and raw[first] in LEADING_NOISE and raw[first] not in self.brands:
            first += 1
        while last >= first and raw[last] in TRAILING_NOISE:
            last -= 1
        if first > last:
            return None
        words = tuple(self.strip_possessive(w) for w in raw[first : last + 1])
        best = self._best_alignment(words)
        if best is not None:
            lo, hi, card_id, kind = best
            if hi < len(words) and words[hi] in self.tiers:
                # "Harbour Sky Miles Select": a (mis)spelled line with a tier it does not have.
                return PhraseVerdict(
                    first + lo, first + hi, UNKNOWN, None, self.near_names(words[lo : hi + 1])
                )
            return PhraseVerdict(first + lo, first + hi - 1, kind, card_id, (self.names[card_id],))
        unknown = self._unknown_span(words) or self._invented(words, raw[first:])
        if unknown is not None:
            lo, hi = unknown
            return PhraseVerdict(
                first + lo, first + hi - 1, UNKNOWN, None, self.near_names(words[lo:hi])
            )
        return None

    def _issuer_product(self, words: tuple[str, ...]) -> tuple[int, int] | None:
        """An issuer's name followed by product words ("Granite Peak Diamond Cash Rewards"): a
        product that issuer does not have (its real cards carry their own brand)."""
        for i in range(len(words)):
            stem = next((s for s in self._issuer_stems if words[i : i + len(s)] == s), None)
            if stem is None or self._brand_led(words, i, stem):
                continue
            after = i + len(stem)
            if self._institution_products:
                while after < len(words) and words[after] in INSTITUTION_WORDS:
                    after += 1
                if after == i + len(stem) or after == len(words):
                    after = i + len(stem)  # no institution words, or nothing after them
            tail = words[after:]
            if self._service_names and tail and tail[-1] in SERVICE_WORDS:
                continue  # "Harborline Card Services", "Harborline Customer Support"
            if tail and tail[0] not in INSTITUTION_WORDS and tail[0] != "'s":
                end = len(tail)
                while end and tail[end - 1] in TRAILING_NOISE:
                    end -= 1
                product = tail[:end]
                if after > i + len(stem) and not self._institution_product(product):
                    continue  # "Harborline Bank Card Services", "Harborline Bank Rewards"
                if any(t in PRODUCT_WORDS for t in product):
                    if words[i : after + end] in self._by_words:
                        return None
                    return i, after + end
        return None

    def _institution_product(self, product: tuple[str, ...]) -> bool:
        """Ruleset 5: the words after "<Issuer> Credit Union" name a product only when all of
        them are product or tier words and there are two of them or one tier ("Signature
        Select", "Platinum Reserve"); "Card Services", "Rewards" or "Visa Signature" after a
        bank's name are the bank's departments and programmes."""
        if not product or not all(w in PRODUCT_WORDS or w in self.tiers for w in product):
            return False
        return len(product) >= 2 or product[0] in self.tiers

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
                    self._coined(t) or t in self.vocabulary or t in self.tiers for t in tail
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
            and word not in self.vocabulary
            and word not in GENERIC_WORDS
            and word not in NOT_NAME_WORDS
            and word not in LEADING_NOISE
            and word not in FUNCTION_WORDS
        )

    def strip_possessive(self, word: str) -> str:
        if word.endswith("'s") and word not in self.vocabulary:
            return word[:-2]
        return word

    def _joined_hit(self, word: str) -> bool:
        return len(word) >= 6 and word.replace("-", "") in self._joined

    def _brand_typo(self, word: str) -> bool:
        """A one-edit misspelling of a catalog brand (via single-deletion neighbourhoods)."""
        if len(word) < 4 or len(word) > self._brand_typo_max:
            return False
        if word in GENERIC_WORDS or word in self.brands:
            return False
        return any(
            d in self._brand_deletions
            for d in (word, *(word[:i] + word[i + 1 :] for i in range(len(word))))
        )

    def nearest(self, words: tuple[str, ...], *, exact_ok: bool) -> str | None:
        """The one catalog name ``words`` is a typo of (all words within typo distance)."""
        key = (words, exact_ok)
        if key in self._nearest_cache:
            return self._nearest_cache[key]
        near = self._nearest_uncached(words, exact_ok=exact_ok)
        if len(self._nearest_cache) < PHRASE_CACHE_LIMIT:
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
                    near = self.nearest(sub, exact_ok=False)
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
        return any(w in self.vocabulary for w in sub) or (
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
                while j < n and words[j] in self.name_words:
                    j += 1
                if j > i + 1:
                    return i, j
            if word in self.vocabulary or word in GENERIC_WORDS or i + 2 >= n:
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

    def near_names(self, words: Sequence[str]) -> tuple[str, ...]:
        """Up to three catalog names sharing the most words with ``words`` (for messages)."""
        wanted = set(words)
        scored = sorted(
            (-len(wanted & set(nw)), self.names[cid])
            for nw, cid in self._by_words.items()
            if wanted & set(nw)
        )
        return tuple(name for _, name in scored[:3])
