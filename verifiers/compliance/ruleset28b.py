"""Ruleset 28, names: a catalog name with a tier word of its own after it is another product.

* ``extended_28`` - **"the Liberty Cash Preferred Prestige" is no catalog card.** Rulesets 3-27
  take a capitalised word after a full catalog name as part of a product name only when it is a
  word of the catalog or a tier word they list ("Select", "Infinite", "Titanium"), so an invented
  tier outside that list ("Prestige", "Obsidian", "Luxe") left the catalog card named and the
  invented product passed (the issue's class 7; blind writers w17 and w20 wrote it). Here a word
  that sounds like a product tier (``TIER_SOUNDING_28``: prestige and luxury words, gems and
  metals, royal and summit words, journey words, Greek letters) right after a card named exactly
  - after a network or "Card" too ("the Summit Cash Plus Visa Prestige") - makes the whole phrase
  an unknown product whose nearest catalog name is that card. Any capitalised word was tried
  first: a red team found honest text in fourteen classes it misread (a person's name after the
  card in a chat, a run-on sign-off, all-caps emphasis, "Cardmember Agreement", "Regular APR",
  "Apple Pay", "Spring promotion", "FICO", tab-separated cells, ...), so the reading is a
  vocabulary, wide but closed: an invented tier that is an ordinary word ("Choice", "Value",
  "Bonus") still passes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.matchers import word_set
from replicas.verifiers.compliance.mentions import EXACT, UNKNOWN, NameMention
from replicas.verifiers.compliance.vocab import TRAILING_NOISE

if TYPE_CHECKING:
    from replicas.verifiers.compliance.names import NameIndex

# at most four capitalised words after the name (a run of them is read once per mention)
_WORDS_AFTER = re.compile(r"(?:[ \t]+(?:[A-Z][a-z]{2,}|[A-Z]{3,})){1,4}(?![\w-])")
_WORD = re.compile(r"[A-Za-z]+")

# Words that sound like a product tier and are rarely anything else after a card's name.
TIER_SOUNDING_28 = word_set(
    """
    prestige prestigious obsidian luxe lux deluxe luxury supreme ultimate privilege privileged
    exclusive eminence elegance distinction distinguished onyx opal pearl emerald ruby jade topaz
    amethyst quartz crystal sapphires carbon metal steel iron cobalt chrome titan bronze copper
    crown royal regal majestic monarch sovereign imperial zenith vertex apex pinnacle paragon
    vanguard aspire elevate ascend ascent propel altitude odyssey quest voyage expedition legacy
    heritage infinity boundless limitless optimum optima maximum magnum superior premiere noir
    azure aurora nova stellar orbit eclipse alpha omega sigma zeta edition
    """
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
            if w not in TIER_SOUNDING_28 or w in index.name_words or w in index.brands:
                break
            end = m.end + word.end()
        if end == m.end:
            continue
        expected = (index.names[m.card_id],)
        out[i] = NameMention(m.start, end, UNKNOWN, None, text[m.start : end], expected)
    return out


__all__ = ["extended_28"]
