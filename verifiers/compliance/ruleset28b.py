"""Ruleset 28, names: a catalog name with a word of its own after it is another product.

* ``extended_28`` - **"the Liberty Cash Preferred Prestige" is no catalog card.** Rulesets 3-27
  take a capitalised word after a full catalog name as part of a product name only when it is a
  word of the catalog or a tier word they list ("Select", "Infinite", "Titanium"), so an invented
  tier outside that list ("Prestige", "Obsidian", "Luxe") left the catalog card named and the
  invented product passed (the issue's class 7; blind writers w17 and w20 wrote it). Here a
  capitalised word right after a card named exactly, in the same line, makes the whole phrase an
  unknown product whose nearest catalog name is that card - whatever the word - unless:
  * it is a word of the catalog's names or tiers (read by the earlier rulesets), a brand, or
    another card named there (a list run together);
  * it is a word no product ends in: a verb, a function word, a heading word ("Review",
    "Overview", "Pros"), a network or "Card", a time word, an abbreviation ("APR", "FAQ");
  * its line is written in title case (a heading: "Why Summit Cash Plus Wins Here"), where only
    a word that sounds like a product tier ("Prestige", "Obsidian", "Luxe") counts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.matchers import word_set
from replicas.verifiers.compliance.mentions import EXACT, UNKNOWN, NameMention
from replicas.verifiers.compliance.vocab import INSTITUTION_WORDS, TRAILING_NOISE

if TYPE_CHECKING:
    from replicas.verifiers.compliance.names import NameIndex

_WORDS_AFTER = re.compile(r"(?:[ \t]+(?:[A-Z][a-z]{2,}|[A-Z]{3,}))+(?![\w-])")
_WORD = re.compile(r"[A-Za-z]+")

# Words no product name ends in: verbs and function words a sentence goes on with, heading
# words, time words, abbreviations of terms.
NO_PRODUCT_WORDS_28 = word_set(
    """
    is are was were be been being has have had does did do can could will would should may might
    must shall earns earn earned offers offer offered gives give gave charges charge charged costs
    cost comes come came pays pay paid wins win won beats beat makes make made takes take took gets
    get got works work stands stand looks look seems seem remains remain requires require needs
    need lets let helps help keeps keep starts start ends end adds add saves save carries carry
    review reviews overview summary details detail terms term fees fee rates rate benefits benefit
    perks perk pros cons features feature highlights highlight breakdown comparison compared
    versus and or nor but with without for from by at in on of to the a an as if when while
    because since so also too only just still even then than which that who whom whose where why
    how what this these those there here it its they their them you your we our he she his her
    apr aprs apy faq tldr usd atm pdf ftf bonus welcome intro introductory annual purchase
    purchases balance balances transfer transfers advance advances foreign late penalty grace
    account application applications approval holders holder cardholders cardholder customers
    customer members member users user today now yes no not please thanks thank note tip tips
    verdict winner bottom line option options pick choice alternative alternatives instead though
    however overall worth value january february march april may june july august september
    october november december monday tuesday wednesday thursday friday saturday sunday
    eligible ineligible approved recommended recommendation recommend
    """
)
# Words that sound like a product tier: counted even in a title-case line.
TIER_SOUNDING_28 = word_set(
    """
    prestige obsidian luxe luxury supreme ultimate privilege exclusive onyx opal pearl emerald ruby
    jade carbon metal steel iron crown royal regal majestic zenith vertex apex aspire elevate
    ascend propel summit pinnacle infinity infinite platinum gold silver bronze black diamond
    titanium sapphire signature select elite reserve premier premium prime max ultra pro plus
    preferred world classic one
    """
)
_SMALL = word_set("a an the of and or for to in on at by vs with from your my our")


def _title_case(line: str) -> bool:
    words = [w for w in _WORD.findall(line) if len(w) >= 3 and w.lower() not in _SMALL]
    if len(words) < 3:
        return False
    return sum(w[0].isupper() for w in words) >= 0.8 * len(words)


_LINE_REACH = 300  # a heading is short: its line is read at most this far either side


def _line_around(text: str, start: int, end: int) -> str:
    """The line of ``text[start:end]``, at most ``_LINE_REACH`` characters either side."""
    lo = max(0, start - _LINE_REACH)
    line_start = text.rfind("\n", lo, start) + 1 or lo
    hi = min(len(text), end + _LINE_REACH)
    line_end = text.find("\n", end, hi)
    return text[line_start : line_end if line_end >= 0 else hi]


def extended_28(index: NameIndex, text: str, mentions: Sequence[NameMention]) -> list[NameMention]:
    """The mentions with each card named exactly and followed by a word of its own read as an
    unknown product (module docstring)."""
    out = list(mentions)
    starts = {m.start for m in out}
    known = index.name_words | index.brands
    for i, m in enumerate(out):
        if m.kind != EXACT or m.card_id is None:
            continue
        run = _WORDS_AFTER.match(text, m.end)
        if run is None:
            continue
        end = m.end
        for word in _WORD.finditer(run.group(0)):
            w = word.group(0).lower()
            if (
                w in known
                or w in NO_PRODUCT_WORDS_28
                or w in TRAILING_NOISE
                or w in INSTITUTION_WORDS
                or m.end + word.start() in starts
            ):
                break
            end = m.end + word.end()
        if end == m.end:
            continue
        extra = _WORD.findall(text[m.end : end])
        if not all(w.lower() in TIER_SOUNDING_28 for w in extra) and _title_case(
            _line_around(text, m.start, end)
        ):
            continue
        expected = (index.names[m.card_id],)
        out[i] = NameMention(m.start, end, UNKNOWN, None, text[m.start : end], expected)
    return out


__all__ = ["extended_28"]
