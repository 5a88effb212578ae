"""Ruleset 13's readings: the classes session 13's blind evalset showed on its tuning split
(issue 13), each fixed as a class, precision first.

Names (``names_13``, after ruleset 12's):

* **an invented Title Case name with a possessive "Card's"** - "The Copperfield Platinum
  Card's perks": the name index reads a capitalised phrase as product-like only when its last
  word is a product word, and "card's" is not one (the possessive stays on). The phrase is read
  again with the possessive off; only an unknown card it names is added.
* **an issuer's full name before an invented product in lower case** - "the ironwood bank
  tempo card", "the clearwater bancorp vantage rewards": ruleset 12 reads an issuer followed by
  product words in lower case, but stops at an institution word ("bank", "bancorp"). An issuer's
  stem, its institution words, then at most one unfamiliar word and product words (ending in a
  product word, not only "card") name an invented card - as the capitalised form already does;
  department and service words ("ironwood bank card services", "ironwood bank rewards") and
  function words keep it the issuer.
* **an unfamiliar word before product words, used once, in lower case** - "the copperfield
  miles card's lounge", "the copperfield rewards preferred, which is aimed at ...": after "the",
  an unfamiliar word (no catalog word, no generic, heading or common category word: "the
  airline miles card's perks" is prose) followed by two or three product or tier words, one of
  them a strong one, and then a card's use (a possessive, a term verb, ", which", "is worth",
  or the end of the phrase) is an invented card even when used once.

Recommendations (``asked_13``):

* **a card asked about, then ruled out** - "**Q: Is the X a good fit?** A: I would not put the
  X forward for you": the question reads as recommending the card (its words are a
  recommendation's), though it only asks. A card that the response also rules out, and that is
  read as recommended only inside questions, is not recommended.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from replicas.verifiers.compliance.matchers import find_starting_with, word_set
from replicas.verifiers.compliance.mentions import UNKNOWN, NameMention
from replicas.verifiers.compliance.names10 import STRONG_PRODUCT_WORDS
from replicas.verifiers.compliance.phrases import FUNCTION_WORDS
from replicas.verifiers.compliance.ruleset12 import _NAMES12, Names12
from replicas.verifiers.compliance.spans import SpanIndex
from replicas.verifiers.compliance.vocab import (
    GENERIC_WORDS,
    INSTITUTION_WORDS,
    PRODUCT_WORDS,
    SERVICE_WORDS,
    TRAILING_NOISE,
)

if TYPE_CHECKING:
    from replicas.verifiers.compliance.claims import Extraction
    from replicas.verifiers.compliance.names import NameIndex
    from replicas.verifiers.compliance.recommend import Recommendations

# common words that open a generic card phrase in prose ("the airline miles card", "the store
# rewards card's terms"): spending categories, card kinds, qualities, partners
_COMMON = word_set(
    """
    grocery groceries supermarket hotel hotels airline airlines flight flights store stores retail
    retailer department gas gasoline fuel dining restaurant restaurants travel student students
    starter business small premium basic flat bonus cashback everyday family household online
    shopping welcome loyalty frequent flyer flier credit debit secured standard regular simple
    annual first second third other same main primary backup local national global international
    domestic foreign brand cobranded co-branded branded partner transferable flexible fixed bank
    issuer company chain cruise rail train rental pharmacy drugstore streaming entertainment
    vacation holiday lifestyle luxury entry-level mid-tier high-end low-fee no-fee annual-fee
    typical average good great decent solid strong weak best better top higher lower high low
    cheap cheaper expensive pricier fancy basic current existing older newer new old usual
    classic generic ordinary plain starter beginner builder rebuilder rebuilding building
    welcome intro promo promotional sign-up signup referral cash-back mileage points travel
    everyday-spend spending purchase purchases balance transfer transfers fee fees rate rates
    apr annual-fee airport lounge lounges perks perk benefits benefit insurance protection
    capital mobile digital contactless virtual physical metal plastic card cards visa mastercard
    amex discover these those this that which what another each every either neither both
    """
)
# what follows a card's name where it is used as a card
_USE_AFTER = re.compile(
    r"(?:'s?\b|[ \t]*,[ \t]*which\b|[ \t]+(?:has|have|charges|offers|comes|gives|earns|needs"
    r"|requires|carries|costs|is|was|would|could|might|may|also|lets|pays)\b|[ \t]*(?:[.;:!?)]"
    r"|,|\n|$))"
)
# "the" not inside a word: the look-behind after the "t" (the same test), so the engine can skip
# ahead to each "t" at C speed
_THE_RUN = re.compile(
    r"t(?<![\w'-]t)he[ \t]+(?P<w>[a-z][a-z-]{3,19})(?P<t>(?:[ \t][a-z0-9']+){1,3})"
)
_CAP_POSSESSIVE = re.compile(
    r"(?<![\w'-])(?P<run>(?:[A-Z][A-Za-z-]*[ \t]){1,5})(?P<last>Card|CARD)'s(?![\w])"
)
_MAX_TAIL = 3


def _bare(word: str) -> str:
    if word.endswith("'s"):
        return word[:-2]
    return word.rstrip("'")


class Names13:
    """What ruleset 13 reads names with, built once per name index (over ruleset 12's)."""

    def __init__(self, index: NameIndex, base: Names12) -> None:
        self.index = index
        self.base = base
        self.phrases = base.phrases
        self.tiers = index.tiers
        self.stems = base.stems
        self.product = frozenset(PRODUCT_WORDS | self.tiers | base.line_words)
        # the issuer stems with the institution words the catalog gives each
        self.issuer_regex = re.compile(
            r"(?<![\w'-])(?P<stem>"
            + "|".join(re.escape(" ".join(s)) for s in self.stems)
            + r")(?P<inst>(?:[ \t](?:"
            + "|".join(sorted(INSTITUTION_WORDS))
            + r"))+)(?P<t>(?:[ \t][a-z0-9']+){1,3})"
            if self.stems
            else r"(?!x)x"
        )
        # what every match of it opens with (the stems as written)
        self.issuer_starts = tuple(dict.fromkeys(" ".join(s) for s in self.stems))

    # -- capitalised, "Card's" ---------------------------------------------------------------

    def possessive_card(self, text: str, taken: SpanIndex) -> list[NameMention]:
        out: list[NameMention] = []
        if "Card's" not in text and "CARD's" not in text:
            return out
        for m in _CAP_POSSESSIVE.finditer(text):
            start, end = m.start("run"), m.end("last")
            if taken.overlaps(start, end):
                continue
            raw = m.group("run").split()
            words = (*(w.lower() for w in raw), "card")
            offsets = [*word_offsets(text, start, raw), (m.start("last"), end)]
            out.extend(self.unknowns(text, words, offsets))
        return out

    def unknowns(
        self, text: str, words: tuple[str, ...], offsets: Sequence[tuple[int, int]]
    ) -> list[NameMention]:
        """The invented names among ``words`` (at ``offsets`` in ``text``), as mentions."""
        out = []
        for v in self.phrases.verdicts(words):
            if v.kind != UNKNOWN:
                continue
            a, b = offsets[v.first][0], offsets[v.last][1]
            out.append(NameMention(a, b, UNKNOWN, None, text[a:b], v.expected))
        return out

    # -- lower case: issuer + institution + invented product -----------------------------------

    def issuer_products(self, text: str, lower: str, taken: SpanIndex) -> list[NameMention]:
        out = []
        for m in find_starting_with(self.issuer_regex, lower, self.issuer_starts):
            start = m.start("stem")
            if taken.overlaps(start, m.end()):
                continue
            tail_raw = m.group("t").split()
            tail = []
            for w in tail_raw:
                tail.append(_bare(w))
                if w.endswith("'") or w.endswith("'s"):
                    break
            if not tail or tail[0] in SERVICE_WORDS or tail[0] in INSTITUTION_WORDS:
                continue
            last = None
            coined = 0
            for x, w in enumerate(tail):
                if w in FUNCTION_WORDS or w in SERVICE_WORDS:
                    break
                if w in PRODUCT_WORDS or w in self.tiers:
                    last = x
                    continue
                if coined or not w.isalpha() or not self._unfamiliar(w):
                    break
                coined += 1
            if last is None:
                continue
            product = tail[: last + 1]
            if all(w in TRAILING_NOISE for w in product) or (
                not coined and all(w in TRAILING_NOISE or w in GENERIC_WORDS for w in product)
            ):
                continue  # "ironwood bank card", "ironwood bank rewards"
            if not coined and len(product) < 2 and product[0] not in self.tiers:
                continue  # a bank's programme ("ironwood bank rewards")
            # the span: the stem, its institution words and the product words
            stop = m.start("t")
            for w in tail_raw[: last + 1]:
                at = lower.index(w, stop)
                stop = at + len(w)
            stop -= 2 if tail_raw[last].endswith("'s") else 0
            if not text[start:stop].islower():
                continue
            words = tuple([*m.group("stem").split(), *m.group("inst").split(), *product])
            out.extend(self._invented(text, start, stop, words))
        return out

    def _invented(
        self, text: str, start: int, stop: int, words: tuple[str, ...]
    ) -> list[NameMention]:
        """The unknown-card mention of ``text[start:stop]`` (read as ``words``), or none when
        those words are a catalog name."""
        if " ".join(words) in self.base._exact_names():
            return []
        near = self.phrases.near_names(words)
        return [NameMention(start, stop, UNKNOWN, None, text[start:stop], near)]

    def _unfamiliar(self, word: str) -> bool:
        return (
            len(word) >= 4
            and word not in self.base._familiar
            and word not in _COMMON
            and word not in self.base.brands
            and not self.base._anchor(word)
        )

    # -- lower case: "the <unfamiliar> <product words>" used once ----------------------------

    def coined_names(self, text: str, lower: str, taken: SpanIndex) -> list[NameMention]:
        out: list[NameMention] = []
        if "the " not in lower:
            return out
        for m in _THE_RUN.finditer(lower):
            word = m.group("w")
            if not word.replace("-", "").isalpha() or not self._unfamiliar(word):
                continue
            if word in self.base.stem_first:
                continue  # an issuer's name (ruleset 12 and ``issuer_products`` read it)
            raw = m.group("t").split()
            tail: list[str] = []
            for w in raw[:_MAX_TAIL]:
                bare = _bare(w)
                if bare not in self.product or bare in FUNCTION_WORDS:
                    break
                tail.append(w)
                if w != bare:
                    break  # a possessive ends the name
            if len(tail) < 2:
                continue
            clean = [_bare(w) for w in tail]
            if not any(w in STRONG_PRODUCT_WORDS for w in clean):
                continue
            start = m.start("w")
            stop = m.start("t")
            for w in tail:
                stop = lower.index(w, stop) + len(w)
            cut = 2 if tail[-1].endswith("'s") else (1 if tail[-1].endswith("'") else 0)
            if _USE_AFTER.match(lower, stop - cut) is None:
                continue
            stop -= cut
            if taken.overlaps(start, stop):
                continue
            if not text[start:stop].islower():
                continue
            out.extend(self._invented(text, start, stop, (word, *clean)))
        return out


def word_offsets(text: str, start: int, words: Sequence[str]) -> list[tuple[int, int]]:
    """Where each of ``words`` stands in ``text``, in order, from ``start`` on."""
    offsets = []
    pos = start
    for w in words:
        at = text.index(w, pos)
        offsets.append((at, at + len(w)))
        pos = at + len(w)
    return offsets


_NAMES13: WeakKeyDictionary[NameIndex, Names13] = WeakKeyDictionary()


def names13_for(index: NameIndex) -> Names13:
    """Ruleset 13's name readers for ``index``, built once (over ruleset 12's)."""
    extra = _NAMES13.get(index)
    if extra is None:
        base = _NAMES12.get(index)
        if base is None:
            base = _NAMES12[index] = Names12(index)
        extra = _NAMES13[index] = Names13(index, base)
    return extra


def add_mentions(
    text: str,
    lower: str,
    mentions: Sequence[NameMention],
    passes: Sequence[Callable[[SpanIndex], list[NameMention]]],
) -> list[NameMention]:
    """``mentions`` plus what each pass finds, in order, each pass given the spans already taken
    (by the mentions and the passes before it); none when ``lower`` is not ``text``'s length."""
    out = list(mentions)
    if len(lower) != len(text):
        return out
    taken = SpanIndex((m.start, m.end) for m in out)
    found: list[NameMention] = []
    for find in passes:
        more = find(taken)
        found += more
        for m in more:
            taken.add(m.start, m.end)
    if not found:
        return out
    return sorted([*out, *found], key=lambda m: m.start)


def names_13(
    index: NameIndex, text: str, lower: str, mentions: Sequence[NameMention]
) -> list[NameMention]:
    """The mentions with ruleset 13's invented names added (see the module docstring)."""
    extra = names13_for(index)
    return add_mentions(
        text,
        lower,
        mentions,
        (
            lambda taken: extra.possessive_card(text, taken),
            lambda taken: extra.issuer_products(text, lower, taken),
            lambda taken: extra.coined_names(text, lower, taken),
        ),
    )


# -- a card asked about, then ruled out -----------------------------------------------------------


def _in_question(masked: str, units: Sequence[tuple[int, int]], pos: int) -> bool:
    for lo, hi in units:
        if lo <= pos < hi:
            rest = masked[pos:hi]
            return "?" in rest
    return False


def asked_13(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """``recs`` without the ruled-out cards read as recommended only inside questions."""
    from replicas.verifiers.compliance.recommend import (
        RECOMMENDED,
        Recommendations,
        unit_verdicts,
    )

    both = [c for c in recs.positive if c in recs.negated]
    if not both or "?" not in masked:
        return recs
    units = extraction.units
    positive = dict(recs.positive)
    changed = False
    for card_id in both:
        if not _in_question(masked, units, positive[card_id].start):
            continue
        recommended_elsewhere = False
        for m in extraction.mentions:
            if m.card_id != card_id or _in_question(masked, units, m.start):
                continue
            unit = next(((lo, hi) for lo, hi in units if lo <= m.start < hi), None)
            if unit is None:
                continue
            lo, hi = unit
            (verdict,) = unit_verdicts(masked[lo:hi], (m.start - lo,), 3)
            if verdict == RECOMMENDED:
                recommended_elsewhere = True
                break
        if recommended_elsewhere:
            continue
        del positive[card_id]
        changed = True
    if not changed:
        return recs
    return Recommendations(positive, recs.negated)


__all__ = ["Names13", "asked_13", "names_13"]
