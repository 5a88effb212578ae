"""Ruleset 32's reading, for precision: ``passing_32``.

A figure in a sentence or list item that names no card is bound to the card the text was last
talking about ("context": the cards of the last unit that names one). When that card was only
named in passing - its mention does not open its unit, as a subject, heading or label does - the
text may well still be about a card named before it:

* "I'd pick **Keystone Foundation**: - **$0 annual fee** (Centerline Secured charges $29) - no
  foreign transaction fee" lists the pick's terms, the bracketed card notwithstanding;
* "I'd add the Crest Cash Back. ... use it once the Aspen cap is used up. It also has 0% on
  purchases for 15 months" goes on about Crest, not about Aspen;
* "Around $140 a year, against maybe $75 from North Star Cashback. Terms: purchase APR ..." gives
  the terms of the card the section is about.

Such a figure is then right when it is right for the passing card or for a card named before it
("union"): which card it means is no certainty the grammar has. A card named where its unit opens
("**Granite Sky Miles.** It comes with no annual fee", "Rec: Frontier Sky Miles / - no annual
fee", "The X is ...") keeps the figures after it alone, so a false figure under a heading is still
flagged though another card named earlier has that term.

The reading applies to the claims as checked against the catalog. The disclosure rules keep the
claims as extracted (a figure made ambiguous here discloses nothing it did not disclose before).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.attribution import UNION
from replicas.verifiers.compliance.ruleset31b import _NEGATED_31, held_by

if TYPE_CHECKING:
    from replicas.verifiers.compliance.claims import Claim, Extraction
    from replicas.verifiers.compliance.recommend import Recommendations

__all__ = ["held_32", "passing_32"]

# What may stand in a unit before a card named where the unit opens: markup, list markers and
# numbers, a label of one or two words ("Rec:", "My pick:"), "the".
_OPENING_32 = re.compile(
    r"[\s#>*_\-\u2022\d.)(|]{0,12}"
    r"(?:[a-z]{1,12}(?:[ \t][a-z]{1,12})?[ \t]{0,3}:[\s*_]{0,6})?"
    r"(?:the[ \t]{1,3})?[\s*_]{0,6}"
)
# the longest text _OPENING_32 matches (12 + 25 + 3 + 6 + 6 + 6), and some slack
_OPENING_REACH_32 = 64


def passing_32(extraction: Extraction, recs: Recommendations) -> Sequence[Claim]:
    """The claims as checked: each one bound by context to a card named in passing, widened to
    the cards named before that card's mention (the list keeps its length and order)."""
    del recs  # the reading needs no recommendation
    claims = extraction.claims
    if not any(c.binding == "context" and len(c.cards) == 1 for c in claims):
        return claims
    named = [m for m in extraction.mentions if m.card_id is not None]
    starts_of: dict[str, list[int]] = {}
    first_seen: list[tuple[int, str]] = []
    for m in named:
        card = m.card_id
        assert card is not None
        if card not in starts_of:
            starts_of[card] = []
            first_seen.append((m.start, card))
        starts_of[card].append(m.start)
    firsts = [start for start, _ in first_seen]
    units = extraction.units
    masked = extraction.masked
    out: list[Claim] | None = None
    for i, claim in enumerate(claims):
        if claim.binding != "context" or len(claim.cards) != 1:
            continue
        card = claim.cards[0]
        starts = starts_of.get(card)
        if not starts:
            continue
        k = bisect_left(starts, claim.start) - 1
        if k < 0:
            continue
        at = starts[k]
        u = bisect_right(units, (at, 1 << 62)) - 1
        opens = units[u][0] if u >= 0 else 0
        if at - opens <= _OPENING_REACH_32:
            lead = _OPENING_32.match(masked, opens, at)
            if lead is not None and lead.end() == at:
                continue  # named where its unit opens: the unit, and what follows, is about it
        others = tuple(c for _, c in first_seen[: bisect_left(firsts, at)] if c != card)
        if not others:
            continue
        if out is None:
            out = list(claims)
        out[i] = replace(claim, cards=(card, *others), binding=UNION)
    return claims if out is None else out


# -- held_32 ---------------------------------------------------------------------------------------

# words that put a card forward as one to get: "apply", "sign up", "open", "add", "a new card",
# "switch to", "upgrade to" - not the words of a review ("best", "strong", "my pick for groceries",
# "for you", "I'd go with your X"), which ``held_31`` also took as putting a held card forward
_ACQUIRE_32 = re.compile(
    r"\b(?:apply\w*|applications?|sign(?:ing)?[ \t]+up|open(?:ing)?\b(?![ \t]+(?:to|for)\b)|"
    r"add|adding|new[ \t]+(?:card|account)|switch(?:ing)?[ \t]+to|upgrad\w*[ \t]+to|grab)\b"
)


def _acquire(text: str) -> bool:
    """Whether ``text`` holds a word that puts a card forward as one to get, not negated."""
    for match in _ACQUIRE_32.finditer(text):
        if not _NEGATED_31.search(text, max(0, match.start() - 30), match.start()):
            return True
    return False


def held_32(
    masked: str, extraction: Extraction, recs: Recommendations, *, held: frozenset[str]
) -> Recommendations:
    """``held_31`` with only words of getting a card putting a held card forward."""
    return held_by(masked, extraction, recs, held, _acquire)
