"""Ruleset 28, names: a catalog name with a tier word of its own after it is another product.

* ``extended_28`` - **"the Liberty Cash Preferred Prestige" is no catalog card.** Rulesets 3-27
  take a capitalised word after a full catalog name as part of a product name only when it is a
  word of the catalog or a tier word they list ("Select", "Infinite", "Titanium"), so an invented
  tier outside that list ("Prestige", "Obsidian", "Luxe") left the catalog card named and the
  invented product passed (the issue's class 7; blind writers w17 and w20 wrote it). Here a word
  that sounds like a product tier (``TIER_SOUNDING_28``: prestige words, gems, summit and journey
  words, royal words, Greek letters; not ordinary adjectives or verbs, nor names people have:
  "Superior", "Ultimate", "Elevate", "Ruby", "Crystal") right after a card named exactly
  - after a network or "Card" too ("the Summit Cash Plus Visa Prestige") - makes the whole phrase
  an unknown product whose nearest catalog name is that card. Any capitalised word was tried
  first: a red team found honest text in fourteen classes it misread (a person's name after the
  card in a chat, a run-on sign-off, all-caps emphasis, "Cardmember Agreement", "Regular APR",
  "Apple Pay", "Spring promotion", "FICO", tab-separated cells, ...), so the reading is a
  vocabulary, wide but closed: an invented tier that is an ordinary word ("Choice", "Value",
  "Bonus") still passes. Not before a word that makes the phrase a program, a group of holders
  or a heading's ("Legacy cardholders", "Ultimate Guide", "Exclusive Offer").
* ``spaces_28`` - **nine spaces and ten thousand read alike.** Runs of more than eight spaces or
  tabs read as eight spaces, and of more than eight line breaks as eight (``_normalize_11``, first
  of the rewrites). No reading tells such runs apart, and patterns of the form "[ \\t]*(x)?[ \\t]*"
  try every split of a run: a red team's 20 kB of spaces after a rate cost ruleset 27 23 s.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.expansions import apply_first_replacements
from replicas.verifiers.compliance.matchers import word_set
from replicas.verifiers.compliance.mentions import EXACT, UNKNOWN, NameMention
from replicas.verifiers.compliance.vocab import TRAILING_NOISE

if TYPE_CHECKING:
    from replicas.verifiers.compliance.names import NameIndex
    from replicas.verifiers.compliance.text import NormalizedText

# at most four capitalised words after the name (a run of them is read once per mention)
_WORDS_AFTER = re.compile(r"(?:[ \t]+(?:[A-Z][a-z]{2,}|[A-Z]{3,})){1,4}(?![\w-])")
_WORD = re.compile(r"[A-Za-z]+")

# Words that sound like a product tier and are rarely anything else after a card's name.
TIER_SOUNDING_28 = word_set(
    """
    prestige prestigious obsidian luxe deluxe onyx emerald topaz amethyst quartz titan zenith
    vertex apex pinnacle paragon vanguard altitude odyssey voyage expedition infinity boundless
    limitless magnum noir azure eclipse stellar alpha omega sigma zeta sovereign imperial monarch
    majestic regal eminence
    """
)
# after the phrase: a noun that makes the words a program, a group of holders or a heading's
# ("Legacy cardholders", "Ultimate Guide", "Exclusive Offer"), not a product
_NOT_PRODUCT_AFTER = re.compile(
    r"[ \t]{1,3}(?:card)?(?:holders?|members?|members?hip|guide|offers?|reviews?|deals?|programs?"
    r"|programmes?|benefits?|status|tiers?|levels?|club|lounge|rewards[ \t]+program)\b",
    re.IGNORECASE,
)


def extended_28(index: NameIndex, text: str, mentions: Sequence[NameMention]) -> list[NameMention]:
    """The mentions with each card named exactly and followed by a tier word of its own read as
    an unknown product (module docstring)."""
    out = list(mentions)
    for i, m in enumerate(out):
        if m.kind != EXACT or m.card_id is None:
            continue
        run = _WORDS_AFTER.match(text, m.end)
        if run is None:
            continue
        end = m.end
        for word in _WORD.finditer(run.group(0)):
            w = word.group(0).lower()
            if w in TRAILING_NOISE:
                continue  # "the Summit Cash Plus Visa Prestige": read on past a network
            if w not in TIER_SOUNDING_28 or w in index.name_words:  # brands are name words
                break
            end = m.end + word.end()
        if end == m.end or _NOT_PRODUCT_AFTER.match(text, end):
            continue
        expected = (index.names[m.card_id],)
        out[i] = NameMention(m.start, end, UNKNOWN, None, text[m.start : end], expected)
    return out


# -- spaces_28 ---------------------------------------------------------------------------------

#: runs of horizontal white space longer than this are read as this many spaces, and of blank
#: lines as this many line breaks
_RUN_28 = 8
_SPACES_28 = re.compile(rf"[ \t\u00a0]{{{_RUN_28 + 1},}}")
_LINES_28 = re.compile(rf"(?:\n[ \t]*){{{_RUN_28 + 1},}}")


def spaces_28(norm: NormalizedText) -> NormalizedText:
    """``norm`` with each run of more than eight spaces or tabs read as eight spaces, and each run
    of more than eight line breaks as eight: a red team's 20 kB of spaces after a rate cost ruleset
    27 23 s (patterns of the form "[ \\t]*(x)?[ \\t]*" try every split of a run), and no reading
    tells nine spaces from a hundred."""
    text = norm.text
    if "         " not in text and "\t" not in text and "\n" * (_RUN_28 + 1) not in text:
        return norm
    found = [(m.start(), m.end(), " " * _RUN_28) for m in _SPACES_28.finditer(text)]
    found += [(m.start(), m.end(), "\n" * _RUN_28) for m in _LINES_28.finditer(text)]
    return apply_first_replacements(norm, found) if found else norm


__all__ = ["extended_28", "spaces_28"]
