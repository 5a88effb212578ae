"""Ruleset 14's readings: the classes session 14 found on session 13's retired blind set (issue 13;
seeds 51-54, all of it tuning data now), each fixed as a class, precision first. Grouped by
where they act, one section per class.

Text rewrites (``rewrites_14``, before ruleset 11's):

* **a zero fee joined to a percent offer** - "zero annual fee and 0% intro APR on purchases":
  the negation "zero" reaches across "and" to the offer, which then reads as "no intro APR".
  Ruleset 11 cuts "no <fee> and 12% ..." with an article; "zero <fee>" and "$0 <fee>" are cut
  the same way.
* **"fee-free" (or "no-fee") before a kind of transaction** - "a $0 annual fee, fee-free cash
  advances": the negation takes the annual fee of the list item before it. Written as "no cash
  advance fee", the kind named right after it wins.
* **a promotional rate that "reverts" to the ongoing one** - "0% on purchases, reverting to
  23.49% - 30.49% variable afterwards": read as "then", as "0% ..., then 23.49% ..." already is.

Claims (``claims_14``, after ruleset 12's revision):

* **a reward rate typed as a fee or an APR** - "an FX fee of 3%, 1% cash back on everything",
  "a penalty APR of up to 27.99%, 1% back on all other spending": a percentage followed by
  "back", "cash back", "in rewards", "points" or "miles" is a reward rate, never a fee or an APR:
  unverified.
* **"no <kind> promotion" read as no fee** - "but no balance transfer promotion, late fees of up
  to $40": the negation denies a promotional offer, not the fee the clause names later:
  unverified.
* **a fee's minimum read as the next fee** - "a 5% cash advance fee, $5 minimum and an annual
  fee of $95": a dollar figure followed by "minimum" (or after "min", "minimum of", "at least")
  is the floor of a percentage fee, never an annual or late fee: unverified.

Myths (``myths_14``, as ruleset 11's ``drop_myths``):

* **a myth introduced as an assumption** - "It is often assumed that the first year is free on
  cards like this; on the X it is not", "People assume travel cards never charge abroad, but the
  X does: a 3% fee": impersonal and assuming lead-ins ruleset 11 does not read. The myth's
  clause ends at "but" / "however" / a semicolon, so the correction's own figure is kept.

Names (``names_14``, after ruleset 13's):

* **an invented Title Case name with a possessive on its last product or tier word** - "The
  Lodestar Rewards Preferred's perks", "the Fairhaven Bank Infinite Travel Rewards's lounge":
  ruleset 13 reads only "Card's"; any product or tier word with "'s" is read again without it.
* **a catalog brand before two invented words and a product word, in lower case** - "the harbor
  quartz select rewards", "the centerline jetset paragon rewards": ruleset 12 reads one
  unfamiliar word after a brand; two (one of them may be a tier) name an invented card too.
* **an unfamiliar word before product words, as the object of a recommendation** - "i would put
  the sunward rewards preferred at the top of your list", "consider the wexley cash plus for
  ...": ruleset 13 reads such a name used once only where a card's use follows it; a
  recommending verb before it ("put", "consider", "try", "look at", "go with") is such a use.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from itertools import islice
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from replicas.verifiers.compliance.claims import unbind_claims
from replicas.verifiers.compliance.expansions import apply_replacements
from replicas.verifiers.compliance.matchers import at_word_start, find_after, find_starting_with
from replicas.verifiers.compliance.mentions import NameMention
from replicas.verifiers.compliance.names10 import STRONG_PRODUCT_WORDS
from replicas.verifiers.compliance.phrases import FUNCTION_WORDS
from replicas.verifiers.compliance.ruleset11 import _FEE_TERMS, corrected_after
from replicas.verifiers.compliance.ruleset12 import Names12
from replicas.verifiers.compliance.ruleset13 import (
    _USE_AFTER,
    Names13,
    _bare,
    add_mentions,
    names13_for,
    word_offsets,
)
from replicas.verifiers.compliance.spans import SpanIndex
from replicas.verifiers.compliance.vocab import PRODUCT_WORDS

if TYPE_CHECKING:
    from replicas.verifiers.compliance.claims import Claim, Extraction
    from replicas.verifiers.compliance.names import NameIndex
    from replicas.verifiers.compliance.text import NormalizedText

# == text rewrites ================================================================================

# -- a zero fee joined to a percent offer ----------------------------------------------------------
_ZERO_FEE_AND_PCT = re.compile(
    rf"\b(?:zero|\$[ \t]?0(?!\.?\d))[ \t]+{_FEE_TERMS}[ \t]+(?P<and>and|plus|with)[ \t]+"
    r"(?=\d{1,2}(?:\.\d{1,2})?[ \t]?%)"
)
_ZERO_FEE_AND_PCT_STARTS = ("zero", "$0", "$ 0", "$\t0")  # what every match opens with

# -- "fee-free" before a kind of transaction -------------------------------------------------------
_FEE_FREE_KIND = re.compile(
    r"\b(?:fee[- ]free|no[- ]fee)[ \t]+(?:(?P<ca>cash[ \t-]advances?)|(?P<bt>balance[ \t-]transfers?)"
    r"|(?P<fx>foreign[ \t](?:transactions|purchases|spending)))\b"
)
_KIND_FEE = {"ca": "no cash advance fee", "bt": "no balance transfer fee", "fx": "no foreign fee"}
_FEE_FREE_KIND_STARTS = ("fee-free", "fee free", "no-fee", "no fee")

# -- a promotional rate that "reverts" to the ongoing one ------------------------------------------
_REVERTING = re.compile(
    r"(?<=%)(?P<gap>[^%\n.;]{0,60}?),[ \t]*(?P<verb>reverting|rising|jumping|going[ \t]+up|moving)"
    r"[ \t]+to[ \t]+(?=\d{1,2}(?:\.\d{1,2})?[ \t]?%)"
)


def rewrite_14(norm: NormalizedText) -> NormalizedText:
    """``norm`` with ruleset 14's rewrites (module docstring)."""
    lower = norm.lower
    found: list[tuple[int, int, str]] = []
    if "%" in lower and ("zero" in lower or "$0" in lower or "$ 0" in lower):
        for m in find_starting_with(_ZERO_FEE_AND_PCT, lower, _ZERO_FEE_AND_PCT_STARTS):
            found.append((m.end("and"), m.end("and"), " a"))
    if "free" in lower or "no-fee" in lower or "no fee" in lower:
        for m in find_starting_with(_FEE_FREE_KIND, lower, _FEE_FREE_KIND_STARTS):
            kind = next(k for k in ("ca", "bt", "fx") if m.group(k))
            found.append((m.start(), m.end(), _KIND_FEE[kind]))
    if "%" in lower and (" to " in lower):
        for m in find_after(_REVERTING, lower, "%"):
            # a low rate (below 10%) before it: a promotional one
            before = lower[max(0, m.start() - 7) : m.start()]
            rate = re.search(r"(\d{1,2}(?:\.\d{1,2})?)[ \t]?%$", before)
            if rate is None or float(rate.group(1)) >= 10:
                continue
            found.append((m.start("verb"), m.end(), "then "))
    if not found:
        return norm
    found.sort()
    merged: list[tuple[int, int, str]] = []
    for a, b, rep in found:
        if merged and a < merged[-1][1]:
            continue
        merged.append((a, b, rep))
    return apply_replacements(norm, merged)


# == claims =======================================================================================

# -- a reward rate typed as a fee or an APR --------------------------------------------------------
_REWARD_AFTER = re.compile(
    r"[ \t]*(?:\)[ \t]*)?(?:cash[ \t-]?back\b|cashback\b|back\b|in[ \t]+(?:cash[ \t]+)?rewards?\b"
    r"|(?:in[ \t]+)?(?:bonus[ \t]+)?(?:points|miles)\b|rewards?[ \t]+on\b)"
)

# -- "no <kind> promotion" read as no fee ----------------------------------------------------------
_PROMO_NOT_FEE = re.compile(
    r"(?:no|zero|without|not[ \t]+any)[ \t]+(?:(?!fees?\b|charges?\b|costs?\b)[a-z-]+[ \t]+){0,3}?"
    r"(?:promo|promos|promotion|promotions|promotional|offer|offers|deal|deals|intro|introductory"
    r"|teaser|special)\b"
)

# -- a fee's minimum read as the next fee ----------------------------------------------------------
_MINIMUM_AFTER = re.compile(r"[ \t]*(?:minimum|min)\b(?![ \t]+(?:interest|payment|spend))")
_MINIMUM_BEFORE = re.compile(
    r"(?:\bminimum|\bmin\.?|\bat[ \t]+least|\bno[ \t]+less[ \t]+than)[ \t]*(?:of[ \t]+)?$"
)
_NO_MINIMUM_KINDS = frozenset({"annual", "annual_first_year", "late", "any"})


def _reward_rate(claim: Claim, masked: str) -> bool:
    return (
        claim.unit == "pct"
        and claim.family in ("apr", "fee")
        and _REWARD_AFTER.match(masked, claim.end) is not None
    )


def _promotion_not_fee(claim: Claim, masked: str) -> bool:
    return (
        claim.family == "fee"
        and claim.is_none
        and _PROMO_NOT_FEE.match(masked, claim.start) is not None
    )


def _minimum_not_fee(claim: Claim, masked: str) -> bool:
    if claim.family != "fee" or claim.unit != "usd" or claim.kind not in _NO_MINIMUM_KINDS:
        return False
    if _MINIMUM_AFTER.match(masked, claim.end) is not None:
        return True
    return _MINIMUM_BEFORE.search(masked, max(0, claim.start - 20), claim.start) is not None


def revise_14(extraction: Extraction) -> Extraction:
    """The extraction with ruleset 14's misread figures unbound (module docstring): unverified,
    as a figure the grammar cannot tie to a card."""
    masked = extraction.masked
    readings = [
        reading
        for gate, reading in (
            (_REWARD_GATE, _reward_rate),
            (_PROMO_GATE, _promotion_not_fee),
            (_MINIMUM_GATE, _minimum_not_fee),
        )
        if any(w in masked for w in gate)
    ]
    return unbind_claims(extraction, readings)


_REWARD_GATE = ("back", "reward", "points", "miles")
_PROMO_GATE = ("promo", "offer", "deal", "intro", "teaser", "special")
_MINIMUM_GATE = ("min", "least", "less than")


# == myths ========================================================================================

_MYTH_14 = re.compile(
    r"\bit(?:'s|[ \t]+is|[ \t]+was)[ \t]+(?:often[ \t]+|commonly[ \t]+|widely[ \t]+|generally[ \t]+"
    r"|sometimes[ \t]+|usually[ \t]+|frequently[ \t]+)?(?:assumed|thought|believed|supposed"
    r"|claimed|said)[ \t]+that\b"
    r"|\b(?:people|folks|many|most[ \t]+people|shoppers|cardholders|applicants|travell?ers)[ \t]+"
    r"(?:often[ \t]+|usually[ \t]+|commonly[ \t]+|sometimes[ \t]+|tend[ \t]+to[ \t]+)?"
    r"(?:assume|expect|suppose|think|believe)\b"
    r"|\ba[ \t]+(?:common|popular|widespread|frequent)[ \t]+(?:assumption|belief|misconception"
    r"|myth)[ \t]+is\b"
)
_MYTH_GATE = (
    "assum",
    "suppos",
    "expect",
    "think",
    "thought",
    "believ",
    "said",
    "claimed",
    "myth",
    "misconception",
)
_MYTH_END_14 = re.compile(
    r"[.;?!](?=\s|$)|\n|[ \t]-[ \t]|—|,?[ \t]+(?:but|however|yet)\b|\bin[ \t]+(?:fact|reality)\b"
)


def _myth_spans_14(masked: str) -> list[tuple[int, int]]:
    spans = []
    for m in _MYTH_14.finditer(masked):
        end = _MYTH_END_14.search(masked, m.end())
        spans.append((m.start(), end.start() if end is not None else len(masked)))
    return spans


def drop_myths_14(extraction: Extraction) -> Extraction:
    """The extraction without the claims of myths introduced as assumptions and corrected."""
    masked = extraction.masked
    claims = extraction.claims
    if not claims or not any(w in masked for w in _MYTH_GATE):
        return extraction
    return drop_corrected(extraction, _myth_spans_14(masked))


def drop_corrected(extraction: Extraction, spans: list[tuple[int, int]]) -> Extraction:
    """The extraction without the claims inside ``spans`` (myths, beliefs) that a figure of the
    same family after them corrects (ruleset 11's test)."""
    if not spans:
        return extraction
    claims = extraction.claims
    masked = extraction.masked
    index = SpanIndex(spans)
    kept = []
    for i, c in enumerate(claims):
        myth = index.holding(c.start)
        if myth is None or not (
            c.cards and corrected_after(c, islice(claims, i + 1, None), masked, myth[1])
        ):
            kept.append(c)
    if len(kept) == len(claims):
        return extraction
    return replace(extraction, claims=tuple(kept))


# == names ========================================================================================

# -- a possessive on a product or tier word, Title Case --------------------------------------------
_CAP_POSSESSIVE_ANY = re.compile(
    r"(?<![\w'-])(?P<run>(?:[A-Z][A-Za-z-]*[ \t]){1,5})(?P<last>[A-Z][A-Za-z-]*|\d{3})'s(?![\w])"
)

# -- an unfamiliar word before product words, after a recommending verb ----------------------------
_REC_THE_RUN = re.compile(
    "(?:"
    + at_word_start(
        [
            "put",
            "consider",
            "try",
            r"look[ \t]+at",
            r"go[ \t]+with",
            "pick",
            "choose",
            "get",
            r"apply[ \t]+for",
            r"check[ \t]+out",
            "add",
            "recommend",
            "suggest",
            r"start[ \t]+with",
        ]
    )
    + r")[ \t]+(?:also[ \t]+)?the[ \t]+(?P<w>[a-z][a-z-]{3,19})(?P<t>(?:[ \t][a-z0-9']+){1,3})"
)
# the first word of each of its verbs: every match opens with one of them
_REC_THE_RUN_STARTS = (
    "put", "consider", "try", "look", "go", "pick", "choose", "get", "apply", "check", "add",
    "recommend", "suggest", "start",
)  # fmt: skip
_WORD_CHAR = re.compile(r"\w")
_RUN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-")


def _possessive_words(text: str) -> Iterator[str]:
    r"""The words of ``([A-Za-z-]+)'s(?!\w)`` in ``text``, found from each "'s" backwards (a word
    that would start where an earlier match ended starts with that match's "s" here, with "-" in
    the pattern's reading: neither is capitalised, which is all the callers ask)."""
    at = text.find("'s")
    while at >= 0:
        if _WORD_CHAR.match(text, at + 2) is None:
            start = at
            while start > 0 and text[start - 1] in _RUN_CHARS:
                start -= 1
            if start < at:
                yield text[start:at]
        at = text.find("'s", at + 2)


class Names14:
    """What ruleset 14 reads names with, built once per name index (over ruleset 13's)."""

    def __init__(self, index: NameIndex, base: Names12, r13: Names13) -> None:
        self.base = base
        self.r13 = r13
        self.phrases = base.phrases
        self.tiers = index.tiers
        self.product = r13.product
        self.brands = frozenset(base.brands)
        self.brand_run = re.compile(
            r"t(?<![\w'-]t)he[ \t]+(?:\*\*|__)?(?P<b>"
            + "|".join(sorted((re.escape(b) for b in self.brands if " " not in b), reverse=True))
            + r")(?P<t>(?:[ \t][a-z0-9']+){2,4})"
            if self.brands
            else r"(?!x)x"
        )

    def possessives(self, text: str, taken: SpanIndex) -> list[NameMention]:
        out: list[NameMention] = []
        if "'s" not in text or not any(
            w[:1].isupper() and w.lower() in self.product for w in _possessive_words(text)
        ):
            return out
        for m in _CAP_POSSESSIVE_ANY.finditer(text):
            last = m.group("last")
            if last in ("Card", "CARD") or last.lower() not in self.product:
                continue  # ruleset 13 reads "Card's"
            start, end = m.start("run"), m.end("last")
            if taken.overlaps(start, end):
                continue
            raw = [*m.group("run").split(), last]
            words = tuple(w.lower() for w in raw)
            out.extend(self.r13.unknowns(text, words, word_offsets(text, start, raw)))
        return out

    def brand_two_coined(self, text: str, lower: str, taken: SpanIndex) -> list[NameMention]:
        out: list[NameMention] = []
        starts = {a for a, _ in taken}
        for m in self.brand_run.finditer(lower):
            if m.start("b") in starts:
                continue  # a catalog card's name
            brand = m.group("b")
            if brand not in self.brands:
                continue
            raw = m.group("t").split()
            words: list[str] = []
            for w in raw:
                words.append(w)
                if _bare(w) != w:
                    break
            # two middle words (invented or tier, at least one invented), then product words
            middle = [_bare(w) for w in words[:2]]
            if len(middle) < 2 or any(not w.isalpha() for w in middle):
                continue
            coined = [w for w in middle if self.r13._unfamiliar(w)]
            if not coined or any(w not in coined and w not in self.tiers for w in middle):
                continue
            tail = []
            for w in words[2:]:
                bare = _bare(w)
                if bare not in PRODUCT_WORDS or bare in FUNCTION_WORDS:
                    break
                tail.append(w)
                if w != bare:
                    break
            if not tail or _bare(tail[-1]) not in STRONG_PRODUCT_WORDS | {
                "rewards",
                "cash",
                "miles",
            }:
                continue
            start = m.start("b")
            stop = m.start("t")
            for w in [*words[:2], *tail]:
                stop = lower.index(w, stop) + len(w)
            cut = 2 if tail[-1].endswith("'s") else (1 if tail[-1].endswith("'") else 0)
            stop -= cut
            after = stop + (
                2 if lower.startswith("**", stop) or lower.startswith("__", stop) else 0
            )
            if _USE_AFTER.match(lower, after) is None:
                continue
            if taken.overlaps(start, stop):
                continue
            if not text[start:stop].islower():
                continue
            names = (brand, *middle, *(_bare(w) for w in tail))
            out.extend(self.r13._invented(text, start, stop, names))
        return out

    def recommended_coined(self, text: str, lower: str, taken: SpanIndex) -> list[NameMention]:
        out: list[NameMention] = []
        for m in find_starting_with(_REC_THE_RUN, lower, _REC_THE_RUN_STARTS):
            word = m.group("w")
            if not word.replace("-", "").isalpha() or not self.r13._unfamiliar(word):
                continue
            if word in self.base.stem_first:
                continue
            tail: list[str] = []
            for w in m.group("t").split()[:3]:
                bare = _bare(w)
                if bare not in self.product or bare in FUNCTION_WORDS:
                    break
                tail.append(bare)
            if len(tail) < 2 or not any(w in STRONG_PRODUCT_WORDS for w in tail):
                continue
            start = m.start("w")
            stop = m.start("t")
            for w in tail:
                stop = lower.index(w, stop) + len(w)
            if taken.overlaps(start, stop):
                continue
            if not text[start:stop].islower():
                continue
            out.extend(self.r13._invented(text, start, stop, (word, *tail)))
        return out


_NAMES14: WeakKeyDictionary[NameIndex, Names14] = WeakKeyDictionary()


def names_14(
    index: NameIndex, text: str, lower: str, mentions: Sequence[NameMention]
) -> list[NameMention]:
    """The mentions with ruleset 14's invented names added (see the module docstring)."""
    extra = _NAMES14.get(index)
    if extra is None:
        r13 = names13_for(index)
        extra = _NAMES14[index] = Names14(index, r13.base, r13)
    return add_mentions(
        text,
        lower,
        mentions,
        (
            lambda taken: extra.possessives(text, taken),
            lambda taken: extra.brand_two_coined(text, lower, taken),
            lambda taken: extra.recommended_coined(text, lower, taken),
        ),
    )


__all__ = ["Names14", "drop_corrected", "drop_myths_14", "names_14", "revise_14", "rewrite_14"]
