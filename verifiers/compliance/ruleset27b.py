"""Ruleset 27, part b: names - lower-case kinds of card and tails of named cards (``generic_27``,
``tails_27``; ``ruleset27`` describes each reading and holds the figure readings and
``revise_27``).

See "Ruleset 27" in ``verifiers/compliance/RULESETS.md``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.mentions import (
    AMBIGUOUS,
    EXACT,
    MISSPELLED,
    UNKNOWN,
    NameMention,
    tokens_of,
)
from replicas.verifiers.compliance.spans import SpanIndex

if TYPE_CHECKING:
    from collections.abc import Sequence

    from replicas.verifiers.compliance.names import NameIndex

# -- generic: "an everyday rewards card" -----------------------------------------------------

_CATEGORY_27 = frozenset(
    {"rewards", "reward", "cash", "back", "cashback", "travel", "miles", "points"}
)
#: ordinary words a brand may also be, that describe a kind of card in lower case
_ORDINARY_27 = frozenset({"everyday", "basic", "simple", "standard", "regular", "plain"})
#: before one: "a" / "an" (with "card" after it), or "For" opening its sentence
_ARTICLE_BEFORE_27 = re.compile(r"(?:^|[^\w'])an?[ \t]+$", re.I)
_FOR_OPENS_27 = re.compile(r"(?:^|[.!?\n])[ \t]*(?:\*\*|__)?for[ \t]+$", re.I)
_PREDICATE_27 = re.compile(
    r"\b(?:is|'s|are|was|were|be|being|remains?|stays?|as|it's)[ \t]+(?:also[ \t]+|still[ \t]+"
    r"|really[ \t]+|just[ \t]+)?an?[ \t]+$",
    re.I,
)
#: a comparison with other cards later in the sentence: their figures are no card's
_COMPARED_AFTER_27 = re.compile(
    r"[^.!?\n]{0,80}?\b(?:unlike|than|versus|vs\.?|compared|beats?|other|premium|most|many"
    r"|typical(?:ly)?|usual(?:ly)?|cards[ \t]+(?:that|which|with|charging))\b",
    re.I,
)
_CARD_AFTER_27 = re.compile(r"(?:[ \t]+(?:back|cash|rewards?|travel|miles|points))*[ \t]+cards?\b")


def _generic(text: str, m: NameMention) -> bool:
    """An all lower-case unknown product that is a kind of card (module docstring)."""
    if m.kind != UNKNOWN or m.surface != m.surface.lower():
        return False
    words = tokens_of(m.surface)
    if not 2 <= len(words) <= 3 or words[0] not in _ORDINARY_27:
        return False
    if not all(w in _CATEGORY_27 for w in words[1:]):
        return False
    before = text[max(0, m.start - 24) : m.start]
    if _ARTICLE_BEFORE_27.search(before):
        return _CARD_AFTER_27.match(text, m.end) is not None  # "an everyday cash back card"
    # "For everyday rewards, ...": "For" opens the sentence
    return _FOR_OPENS_27.search(text, max(0, m.start - 24), m.start) is not None


def generic_27(text: str, mentions: Sequence[NameMention]) -> list[NameMention]:
    """The mentions with lower-case kinds of card ("an everyday rewards card") read as an
    ambiguous reference: no product, and the figures of its clause are no card's."""
    if not any(m.kind == UNKNOWN for m in mentions):
        return list(mentions)
    out: list[NameMention] = []
    for m in mentions:
        if not _generic(text, m):
            out.append(m)
        elif _PREDICATE_27.search(text, max(0, m.start - 24), m.start) is None or (
            _COMPARED_AFTER_27.match(text, m.end)
        ):
            # "unlike premium cards with a $550 annual fee" after it: other cards' figures
            out.append(NameMention(m.start, m.end, AMBIGUOUS, None, m.surface))
        # "The Atlas Cash is an everyday cash back card with a 3% fee": it describes the card
        # named before it, whose figures they stay
    return out


# -- tails: "the Clear Plus" after "Cascade Clear Plus" ------------------------------------------

#: what makes a bare tail another product: its sentence names a bank or issuer, or calls it
#: another, a rival, their or a new card
_ANOTHER_27 = re.compile(
    r"\b(?:banks?|bancorp|financial|credit[ \t]+unions?|issuer\w*|issu(?:e|es|ed|ing)|sells?|sold"
    r"|offers?|offered|launch\w*|copied|copy|version|competing|competitor\w*|rival"
    r"|their|theirs|another|other|new|newer|different|separate|unrelated|own|similar|called"
    r"|named|branded|through|via)\b",
    re.I,
)
_THE_BEFORE_27 = re.compile(r"\bthe[ \t]+(?:\*\*|__)?$", re.I)
#: an issuer right after the tail: "the Clear Plus from Apex", "(by Apex)", ", at Apex"
_ISSUER_AFTER_27 = re.compile(
    r"[ \t]*(?:\*\*|__)?[ \t]*(?:card[ \t]+)?(?:\(|,|-|\u2013|\u2014)?[ \t]*"
    r"(?:from|by|at|with|of)[ \t]+[A-Z]"
)
_SENTENCE_STOP_27 = re.compile(r"[.!?](?:[ \t]|$)|\n")


#: one capitalised or all-capitals word ("Apex", "APEX", "USAA")
_CAPITALISED_27 = re.compile(r"(?<![\w'])[A-Z][A-Za-z]+(?![\w'])")
#: capitalised abbreviations of card terms, not names
_TERM_CAPS_27 = frozenset(
    [
        "APR",
        "APRS",
        "APY",
        "FX",
        "BT",
        "AF",
        "CA",
        "USD",
        "US",
        "UK",
        "EU",
        "ATM",
        "PIN",
        "FAQ",
        "FYI",
        "TL",
        "DR",
        "OK",
        "PS",
        "NB",
        "ID",
        "FICO",
        "TBH",
        "BTW",
        "AKA",
    ]
)
_OPENER_27 = re.compile(r"(?:^|[.!?:\n][ \t]*|[-*\u2022>#][ \t]+|\*\*|__|[\"'(])[ \t]*$")


#: ordinary words that open a sentence or an item capitalised (any other capitalised word near a
#: tail may be an issuer's or another product's name)
_OPENER_WORDS_27 = (
    "the a an my your our their his her its this that these those it i you we they he she say "
    "so if for on in at by to of from with and but or nor yet between both also then when "
    "while what which who whom whose how why where here there now still just only even note "
    "overall however plus compared after before once since because as over under per each "
    "every all any some no not yes ok okay hi hello dear thanks thank best regards answer "
    "summary pick verdict bottom short quick tl fees fee rates rate intro annual late foreign "
    "cash balance purchase purchases rewards reward travel apply go get choose skip consider "
    "pay use try keep look see sure great good fine well right both either neither one two "
    "three first second third next last finally also alternatively otherwise instead "
    "meanwhile don't it's that's you're i'd i'm you'll we'd let let's "
)
_OPENERS_27 = frozenset(_OPENER_WORDS_27.split())


def _stranger_named(text: str, m: NameMention, taken: SpanIndex) -> bool:
    """The tail's sentence or the one before it holds a capitalised name that is no card
    mention and does not open a sentence or line ("Apex makes the Clear Plus too")."""
    low = max(0, m.start - 400)
    stops = [x.end() for x in _SENTENCE_STOP_27.finditer(text, low, m.start)]
    head = stops[-2] if len(stops) > 1 else low
    stop = _SENTENCE_STOP_27.search(text, m.end, m.end + 200)
    end = stop.start() if stop else min(len(text), m.end + 200)
    for word in _CAPITALISED_27.finditer(text, head, end):
        if taken.overlaps(word.start(), word.end()) or word.group().upper() in _TERM_CAPS_27:
            continue
        if word.group().lower() in _OPENERS_27 and _OPENER_27.search(
            text, max(0, word.start() - 4), word.start()
        ):
            continue  # "The", "My", "Say" opening a sentence or an item
        return True  # "Apex", "APEX", "National" in "First National"
    return False


def _sentence_of(text: str, start: int, end: int) -> str:
    """The sentence (or line) holding ``[start, end)``, at most 200 characters each side."""
    low = max(0, start - 200)
    stops = list(_SENTENCE_STOP_27.finditer(text, low, start))
    head = stops[-1].end() if stops else low
    stop = _SENTENCE_STOP_27.search(text, end, end + 200)
    return text[head : stop.start() if stop else min(len(text), end + 200)]


def tails_27(
    index: NameIndex, mentions: Sequence[NameMention], text: str = ""
) -> list[NameMention]:
    """The mentions with each unknown product that is the tail of exactly one card named in full
    before it read as that card - module docstring."""
    out = list(mentions)
    if not any(m.kind == UNKNOWN for m in out):
        return out
    first_named: dict[str, int] = {}
    for m in out:
        if m.kind in (EXACT, MISSPELLED) and m.card_id and m.card_id not in first_named:
            first_named[m.card_id] = m.start
    if not first_named:
        return out
    tails: dict[tuple[str, ...], set[str]] = {}
    for c in sorted(first_named):
        words = tuple(index.words_by_card[c])
        for n in range(1, len(words)):
            tails.setdefault(words[-n:], set()).add(c)
    taken = SpanIndex((m.start, m.end) for m in out)
    for i, m in enumerate(out):
        if m.kind != UNKNOWN:
            continue
        fits = sorted(tails.get(tuple(tokens_of(m.surface)), ()))
        if len(fits) != 1 or first_named[fits[0]] > m.start:
            continue  # a tail of several cards, or before the card is named: still unknown
        if _THE_BEFORE_27.search(text, max(0, m.start - 8), m.start) is None:
            continue  # "a Clear Plus", "Apex's Clear Plus", "their Clear Plus": not a reference
        if (
            _ISSUER_AFTER_27.match(text, m.end)
            or _ANOTHER_27.search(_sentence_of(text, m.start, m.end))
            or _stranger_named(text, m, taken)
        ):
            continue  # "the Clear Plus from Apex Bank", "the competing Clear Plus"

        out[i] = NameMention(m.start, m.end, EXACT, fits[0], m.surface)
    return out


__all__ = ["generic_27", "tails_27"]
