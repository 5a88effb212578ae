"""Ruleset 14's third part: the classes session 15's blind tuning split showed (issue 13; seed
71), each fixed as a class, precision first. One section per class, grouped by where they act.

Recommendations (``rec_lists_14c``, after every other recommendation rule):

* **a list of cards after one recommending phrase** - "I would recommend the A, the B or the
  C.", "Here is what I would recommend for you, Dana: the A or the B.", "My pick for you is
  the A, the B or the C.": the clause cutter reads "the B" and "or the C" as clauses of their
  own, so only the first card (or none, after a colon) was recommended. A run of card names
  joined only by commas, "and", "or" (and "the") in one sentence is recommended as a whole
  when one of its names is, or when the sentence before the run recommends (and neither
  negates nor asks). A single name is recommended when it fills such a lead's slot to the
  sentence's end ("... for you, Dana: the A."). A card the response rules out anywhere stays
  ruled out.

Text rewrites (``rewrites_14c``, after ruleset 14's):

* **"zero interest ... as an introductory offer"** - "gives you zero interest on purchases as an
  introductory offer (after that, 22.24% ...)": "zero" read "no intro APR"; a zero rate its own
  clause calls introductory (or promotional) is read "0%", so its months are required and its
  terms checked.
* **"nothing in year one"** - "charges nothing in year one and $95 per year after that": read as
  "nothing the first year" already is (a first-year fee of nothing, checked against the card).

Names (``names_14c``, after every other name rule):

* **a misspelled catalog name in lower case** - "the sterling bulid", "the granite buld's late
  fee": all words of a catalog name of two or more words as written but one, that one a typo of
  its word and no ordinary word or inflection, with a distinctive word (a brand) as written, the
  phrase in lower case and named so at least twice, is a misspelling of that card (claims attach
  to it). A one-off slip is left alone (precision).

Claims (``claims_14c``, after ruleset 14's revisions):

* **a range over several cards** - "Across these, annual fees run from $0 to $95": a figure in a
  sentence that ranges ("run/range/vary from") across cards ("across these", "among the three",
  "between them") is no one card's: unverified.
* **"(that value) is not a fee"** - "That yearly value is not a fee - it is what the card
  returns": a copula's "not a fee" (not "there is not a fee", not "not an annual fee") says what
  some amount is not; it is no card's "no fee" claim.

``verify_response`` passes ``rec_lists_14c`` to ``rules.evaluate`` as its last reading of
recommendations (after every other one) when the flag is on.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ahocorasick_rs import AhoCorasick, MatchKind

from replicas.verifiers.compliance import lexicon as lex
from replicas.verifiers.compliance.claims import unbind_claims
from replicas.verifiers.compliance.expansions import apply_replacements
from replicas.verifiers.compliance.matchers import find_starting_with, trie_pattern, word_set
from replicas.verifiers.compliance.mentions import MISSPELLED, NameMention
from replicas.verifiers.compliance.phrases import FUNCTION_WORDS, typo_distance
from replicas.verifiers.compliance.recommend import Recommendations
from replicas.verifiers.compliance.ruleset13 import _COMMON
from replicas.verifiers.compliance.spans import SpanIndex
from replicas.verifiers.compliance.vocab import (
    GENERIC_WORDS,
    LEADING_NOISE,
    NOT_NAME_WORDS,
    PRODUCT_WORDS,
    TRAILING_NOISE,
)

if TYPE_CHECKING:
    from replicas.verifiers.compliance.claims import Claim, Extraction
    from replicas.verifiers.compliance.names import NameIndex
    from replicas.verifiers.compliance.text import NormalizedText

# -- a list of cards after one recommending phrase ---------------------------------------------

# what may stand between two names of one list: ", ", " or ", ", and the ", " as well as "
_JOIN_14C = re.compile(
    r"[ \t]*(?:,[ \t]*)?(?:(?:and|or|as[ \t]+well[ \t]+as)[ \t]+)?(?:the[ \t]+)?"
)
# the run's sentence before it ends in a recommending lead: "...: ", "... is ", "... are "
_LEAD_END_14C = re.compile(
    r"(?::|\b(?:is|are|be|would[ \t]+be))[ \t]*(?:either[ \t]+)?(?:the[ \t]+)?$"
)
_SENTENCE_END_14C = re.compile(r"[.!?\n]")
# a name that ends its sentence ("... for you, Dana: the A.")
_SLOT_END_14C = re.compile(r"[ \t]*(?:\*\*|__)?[ \t]*(?:[.!\n]|$)")


def _runs_14c(text: str, mentions: list[NameMention]) -> list[list[NameMention]]:
    """Runs of card names joined only by list words (a single name is a run of one)."""
    runs: list[list[NameMention]] = []
    run: list[NameMention] = []
    for m in mentions:
        if run and m.start >= run[-1].end:
            gap = text[run[-1].end : m.start]
            if len(gap) <= 12 and _JOIN_14C.fullmatch(gap) and gap.strip():
                run.append(m)
                continue
        if run:
            runs.append(run)
        run = [m]
    if run:
        runs.append(run)
    return runs


def rec_lists_14c(text: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """``recs`` with every card of a recommended list of names recommended (``text``: the
    masked lower-case text the recommendation rules read)."""
    mentions = sorted(
        (m for m in extraction.mentions if m.card_id is not None), key=lambda m: m.start
    )
    if not mentions:
        return recs
    runs = _runs_14c(text, mentions)
    units = extraction.units
    starts = [u[0] for u in units]
    positive = dict(recs.positive)
    first_pos = {m.start for m in recs.positive.values()}
    added = False
    for run in runs:
        if all(m.card_id in positive or m.card_id in recs.negated for m in run):
            continue  # nothing to add
        if len(run) == 1 and _SLOT_END_14C.match(text, run[0].end) is None:
            continue  # one name fills a lead's slot only up to the sentence's end
        k = bisect_right(starts, run[0].start) - 1
        lo = units[k][0] if k >= 0 and run[0].start < units[k][1] else 0
        # the sentence holding the run (a unit may hold several lines' sentences)
        cut = max((m.end() for m in _SENTENCE_END_14C.finditer(text, lo, run[0].start)), default=lo)
        before = text[cut : run[0].start]
        led = (
            _LEAD_END_14C.search(before[-40:]) is not None
            and lex.RECOMMEND_MORE.search(before) is not None
        )
        if not led and (len(run) == 1 or not any(m.start in first_pos for m in run)):
            continue
        end_m = _SENTENCE_END_14C.search(text, run[-1].end)
        end = end_m.start() if end_m else len(text)
        sentence = text[cut:end]
        if "?" in text[run[-1].end : end + 1] or lex.NEGATION.search(sentence):
            continue
        if lex.CONTRAST_MORE.search(sentence):
            continue
        for m in run:
            assert m.card_id is not None
            if m.card_id not in recs.negated and m.card_id not in positive:
                positive[m.card_id] = m
                added = True
    return Recommendations(positive, recs.negated) if added else recs


# == text rewrites ===============================================================================

# -- "zero interest ... as an introductory offer" ------------------------------------------------
# a zero rate the same clause calls introductory is a 0% intro rate, not "no intro APR"
_ZERO_INTEREST_INTRO_14C = re.compile(
    r"\bzero(?:[ \t]|-)(?=(?:interest|apr)\b[^.;?!\n%()]{0,60}?\b(?:as[ \t]+an?[ \t]+)?"
    r"(?:intro|introductory|promotional|promo)\b(?![ \t]+(?:apr|rate|offer)[ \t]+(?:is|are)"
    r"[ \t]+not\b))"
)


# -- "nothing in year one" -----------------------------------------------------------------------
# "charges nothing in year one and $95 per year after that": the first year's fee of nothing, as
# "charges nothing the first year" already reads
_NOTHING_IN_YEAR_ONE_14C = re.compile(
    r"\b(?:nothing|\$0(?:\.00)?(?![.\d]))[ \t]+(?P<span>(?:in|for|during)[ \t]+"
    r"(?:year[ \t]+(?:one|1)\b|the[ \t]+first[ \t]+year\b|its[ \t]+first[ \t]+year\b))"
)


def rewrite_14c(norm: NormalizedText) -> NormalizedText:
    """``norm`` with "zero interest ... as an introductory offer" read as "0% interest ..." and
    "nothing in year one" as "nothing the first year"."""
    lower = norm.lower
    found: list[tuple[int, int, str]] = []
    if "zero" in lower and ("intro" in lower or "promo" in lower):
        found += [
            (m.start(), m.end(), "0% ")
            for m in find_starting_with(_ZERO_INTEREST_INTRO_14C, lower, ("zero",))
        ]
    if "year" in lower and ("nothing" in lower or "$0" in lower):
        found += [
            (m.start("span"), m.end("span"), "the first year")
            for m in find_starting_with(_NOTHING_IN_YEAR_ONE_14C, lower, ("nothing", "$0"))
        ]
    if not found:
        return norm
    found.sort()
    return apply_replacements(norm, found)


# == names =======================================================================================

# -- a misspelled name in lower case ---------------------------------------------------------------
_WORD_14C = re.compile(r"[a-z0-9]+")
_FAMILIAR_14C = (
    GENERIC_WORDS
    | FUNCTION_WORDS
    | LEADING_NOISE
    | NOT_NAME_WORDS
    | PRODUCT_WORDS
    | TRAILING_NOISE
    | _COMMON
    | word_set(
        """
        built bold gold told sold held hold fold cold card cards care case cast cost costs
        rock rocks back bank band bare base best rest west test miles mile smile files tiles
        plus plum pus bus cash wash each rush push rate rates late date fee fees free feel
        reward rewards forward toward award awards travel gravel ravel
        """
    )
)


def _plain_word(word: str, target: str) -> bool:
    """``word`` is an ordinary word or an inflection of ``target``, not a typo of it."""
    return (
        word in _FAMILIAR_14C
        or word in (target + "s", target + "es", target + "d", target + "ed")
        or target in (word + "s", word + "es")
    )


def names_14c(
    index: NameIndex, text: str, lower: str, mentions: list[NameMention]
) -> list[NameMention]:
    """``mentions`` with misspelled catalog names written in lower case ("the sterling bulid",
    "the granite buld's late fee"): every word of a catalog name of two or more words as
    written but one, that one a typo of its word (``typo_distance``) and no ordinary word, one
    of the words as written a distinctive one (no ordinary or product word: the brand, mostly),
    the whole phrase in lower case, on one line, named so at least twice (precision: a one-off
    slip of an ordinary phrase is not read as a card)."""
    by_word, distinctive, anchors = _name_words_14c(index)
    if anchors is None:
        return mentions
    # a distinctive name word written in lower case: only its lines are read
    # (the lines ``anchors.finditer(text)`` finds a match on: every place one of the words stands
    # whole is a match start, found with one Aho-Corasick pass; no word holds a line break)
    lines: list[tuple[int, int]] = []
    size = len(text)
    for start in _anchor_starts_14c(index, distinctive, text):
        if lines and start < lines[-1][1]:
            continue
        a = text.rfind("\n", 0, start) + 1
        b = text.find("\n", start)
        lines.append((a, size if b < 0 else b))
    if not lines:
        return mentions
    taken = SpanIndex((m.start, m.end) for m in mentions)
    found: dict[tuple[str, ...], set[tuple[int, int, str]]] = {}
    for lo, hi in lines:
        words = [(m.start(), m.end(), m.group()) for m in _WORD_14C.finditer(lower, lo, hi)]
        for i, (_, _, w) in enumerate(words):
            if w not in distinctive:
                continue  # each phrase is looked for from its distinctive words as written
            for name, j in by_word.get(w, ()):
                first = i - j
                last = first + len(name)
                if first < 0 or last > len(words):
                    continue
                typo = -1
                for k, target in enumerate(name):
                    word = words[first + k][2]
                    if word == target:
                        continue
                    if (
                        typo >= 0
                        or len(target) < 4
                        or typo_distance(word, target) is None
                        or _plain_word(word, target)
                        or word in index.name_words
                    ):
                        typo = -2
                        break
                    typo = k
                if typo < 0:
                    continue
                a, b = words[first][0], words[last - 1][1]
                if text[a:b] != lower[a:b] or taken.overlaps(a, b):
                    continue
                # whole words: not inside a longer run ("x-granite buld", "granite buld2")
                if (a > 0 and lower[a - 1].isalnum()) or (b < len(lower) and lower[b].isalnum()):
                    continue
                spelled = tuple(w2 for _, _, w2 in words[first:last])
                found.setdefault(spelled, set()).add((a, b, index.card_by_words[name]))
    if not found:
        return mentions
    out = list(mentions)
    for spans in found.values():
        if len(spans) < 2:
            continue
        for a, b, card_id in sorted(spans):
            if taken.overlaps(a, b):
                continue
            out.append(NameMention(a, b, MISSPELLED, card_id, text[a:b], (index.name_of(card_id),)))
            taken.add(a, b)
    if len(out) == len(mentions):
        return mentions
    out.sort(key=lambda m: (m.start, m.end))
    return out


_NameWords14c = tuple[
    dict[str, list[tuple[tuple[str, ...], int]]], frozenset[str], "re.Pattern[str] | None"
]
_WORDS_CACHE_14C: dict[int, tuple[object, _NameWords14c]] = {}


def _name_words_14c(index: NameIndex) -> _NameWords14c:
    """Each word of a catalog name of two or more words -> (name, position), and a regex of the
    distinctive ones written in lower case (per index)."""
    hit = _WORDS_CACHE_14C.get(id(index))
    if hit is not None and hit[0] is index:
        return hit[1]
    by_word: dict[str, list[tuple[tuple[str, ...], int]]] = {}
    for name in index.card_by_words:
        if len(name) < 2:
            continue
        for j, w in enumerate(name):
            by_word.setdefault(w, []).append((name, j))
    distinctive = frozenset(
        w for w in by_word if len(w) >= 3 and w.isalpha() and w not in _FAMILIAR_14C
    )
    anchors = (
        re.compile(r"(?<![A-Za-z0-9])(?:" + trie_pattern(sorted(distinctive)) + r")(?![A-Za-z0-9])")
        if distinctive
        else None
    )
    if len(_WORDS_CACHE_14C) > 64:
        _WORDS_CACHE_14C.clear()
    _WORDS_CACHE_14C[id(index)] = (index, (by_word, distinctive, anchors))
    return by_word, distinctive, anchors


_ALNUM_14C = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_AUTOMATA_14C: dict[int, tuple[object, AhoCorasick]] = {}


def _anchor_starts_14c(index: NameIndex, distinctive: frozenset[str], text: str) -> list[int]:
    """Where ``_name_words_14c``'s ``anchors`` pattern matches in ``text``, in order: where one of
    the ``distinctive`` words occurs with no ASCII letter or digit on either side."""
    hit = _AUTOMATA_14C.get(id(index))
    if hit is not None and hit[0] is index:
        automaton = hit[1]
    else:
        automaton = AhoCorasick(sorted(distinctive), matchkind=MatchKind.Standard)
        if len(_AUTOMATA_14C) > 64:
            _AUTOMATA_14C.clear()
        _AUTOMATA_14C[id(index)] = (index, automaton)
    size = len(text)
    starts = {
        a
        for _, a, b in automaton.find_matches_as_indexes(text, overlapping=True)
        if (a == 0 or text[a - 1] not in _ALNUM_14C) and (b == size or text[b] not in _ALNUM_14C)
    }
    return sorted(starts)


# == claims =======================================================================================

# -- a range over several cards --------------------------------------------------------------------
# "across these", "among the three cards", "between them", "across all of them", "for these cards"
_ACROSS_14C = re.compile(
    r"\b(?:across|among|amongst|between)[ \t]+(?:all[ \t]+(?:of[ \t]+)?)?"
    r"(?:these|those|them|the[ \t]+(?:two|three|four|five|cards|options|picks)|my[ \t]+picks"
    r"|all[ \t]+(?:two|three|four|five))\b"
)
_RANGE_14C = re.compile(
    r"\b(?:run|runs|ran|range|ranges|ranging|vary|varies|varying|go|goes|span|spans|spanning)"
    r"[ \t]+(?:from|between)\b"
)
_SENTENCE_14C = re.compile(r"[.!?\n](?!\d)")

# -- "X is not a fee" ----------------------------------------------------------------------------
# a copula's negation of what some other amount is ("That yearly value is not a fee - ..."); not
# "there is not a fee" (no fee) nor "not a fee card"/"not an annual fee" (a kind named)
_NOT_A_FEE_14C = re.compile(
    r"(?<!\bthere)[ \t]+(?:is|are|was|were|'s|'re)[ \t]+not[ \t]+(?:a[ \t]+fee|fees)"
    r"(?=[ \t]*(?:[-,;:.)]|$|[ \t]but\b|[ \t]at[ \t]+all\b))"
    r"|(?<!\bthere)[ \t]+(?:isn't|aren't|wasn't|weren't)[ \t]+(?:a[ \t]+fee|fees)"
    r"(?=[ \t]*(?:[-,;:.)]|$|[ \t]but\b|[ \t]at[ \t]+all\b))"
)


def _sentence_14c(text: str, pos: int) -> tuple[int, int]:
    start = 0
    for m in _SENTENCE_14C.finditer(text, max(0, pos - 300), pos):
        start = m.end()
    end = _SENTENCE_14C.search(text, pos)
    return start, end.start() if end is not None else len(text)


def _range_across(claim: Claim, masked: str) -> bool:
    """A figure of a range the sentence spans over several cards ("Across these, annual fees
    run from $0 to $95"): no one card's."""
    lo, hi = _sentence_14c(masked, claim.start)
    return (
        _ACROSS_14C.search(masked, lo, hi) is not None
        and _RANGE_14C.search(masked, lo, hi) is not None
    )


def _not_a_fee(claim: Claim, masked: str) -> bool:
    """The claim is "(that value) is not a fee": says what some amount is not, not that a fee is nothing."""
    if not claim.is_none or claim.family != "fee":
        return False
    lo = max(0, claim.start - 12)
    return _NOT_A_FEE_14C.search(masked, lo, min(len(masked), claim.end + 3)) is not None


# ``_RANGE_14C.search(text) is not None``, found from the rarer end: each "from" or "between"
# after a space or tab, then the verb right before that run of spaces (a verb is at most 8 letters;
# the leading ``\b`` sees the character before the search's start, ``\Z`` is the run's start).
_RANGE_VERB_14C = re.compile(
    r"\b(?:run|runs|ran|range|ranges|ranging|vary|varies|varying|go|goes|span|spans|spanning)\Z"
)


def _spaced_words(text: str, word: str) -> Iterator[int]:
    """Where ``[ \t]<word>\b`` matches in ``text`` (the blank's position): found with
    ``str.find``, as a pattern opening with a blank is tried at every blank of the text."""
    pos = text.find(word, 1)
    while pos >= 0:
        end = pos + len(word)
        if text[pos - 1] in " \t" and not (
            end < len(text) and (text[end].isalnum() or text[end] == "_")
        ):
            yield pos - 1
        pos = text.find(word, pos + 1)


def _has_range_14c(masked: str) -> bool:
    for word in ("from", "between"):
        for run in _spaced_words(masked, word):
            while run > 0 and masked[run - 1] in " \t":
                run -= 1
            if _RANGE_VERB_14C.search(masked, max(0, run - 8), run) is not None:
                return True
    return False


def revise_14c(extraction: Extraction) -> Extraction:
    """The extraction with a range over several cards and "X is not a fee" unbound (module
    docstring)."""
    masked = extraction.masked
    ranges = _has_range_14c(masked)
    not_fee = "not a fee" in masked or "not fees" in masked or "n't a fee" in masked
    readings = [r for on, r in ((ranges, _range_across), (not_fee, _not_a_fee)) if on]
    return unbind_claims(extraction, readings)


__all__ = ["names_14c", "rec_lists_14c", "revise_14c", "rewrite_14c"]
