"""Ruleset 29, recall on the s33 blind sets' tuning halves: a pick after a bold label, a card
headed by an emoji, and an intro rate with its months after a slash.

Ruleset 28 was read on the tuning halves of s33 (w29-w32, seeds 251-258) after its first reading
there. Of its 15 misses, 8 were ``ineligible_card``; three classes of them are phrasings any
writer uses:

* ``picks_29`` - **a pick after a label whose bold closes after the colon, and the reasons
  given for it.** "> **The short answer:** the **X** (no annual fee), because ..." is the
  answer's own pick: ruleset 28 read "Short answer: the X" but not a label whose closing "**"
  stands after its colon. And "the X, because it pays well on your spending" is still a pick:
  ruleset 28 read the whole sentence for what unmakes a pick ("your", "not", "months", ...), so
  the reason given for the pick unmade it. Here the sentence is read for those words only up to
  "because" or "since" after the card (a question mark anywhere in it still asks).
* ``options_29`` - **a card's name alone on its line between emoji is offered** (the
  eligibility rule only, as ruleset 19's bare headings): "✨ Willow Cash Back 360" and
  "**Meridian Business Rewards Preferred** 💳" head a block of terms in a shortlist; ruleset 19
  read a line holding only a name (with "#" or bold) and no other mark. Up to three emoji or
  pictographs may stand on either side of the name; the rule-outs are ruleset 19's for a list
  item (its block up to the next blank line or item, and its list's lead), and a mark that rules
  out or warns ("❌", "🚫", "⚠️", "👎", "🔴", ...) on the line makes no offer.
* ``slash_29`` - **"0% / 15mo" is a rate for fifteen months.** A table cell or list item
  "intro purch | 0% / 15mo" gave the rate and no duration, so a wrong number of months passed.
  A percentage under 10 followed by a slash and a number of months ("mo", "mos", "mths",
  "months") reads as "0% for 15mo"; a fee's minimum after a slash ("5%/$10") is no duration.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.expansions import apply_first_replacements
from replicas.verifiers.compliance.ruleset19 import offered_19
from replicas.verifiers.compliance.ruleset28c import _MARK, picks_28

if TYPE_CHECKING:
    from replicas.verifiers.compliance.claims import Extraction
    from replicas.verifiers.compliance.mentions import NameMention
    from replicas.verifiers.compliance.recommend import Recommendations
    from replicas.verifiers.compliance.text import NormalizedText

# -- picks_29 --------------------------------------------------------------------------------------

# ruleset 28's lead to a card after a colon, comma or dash, with a bold that closes after the colon
_DEFERRED_29 = re.compile(
    rf"(?:[:,]{_MARK}|[ \t][-\u2013\u2014])[ \t]*(?:(?:the|our)[ \t]+)?{_MARK}$"
)
# the reasons given for a pick, after the card
_REASONS_29 = re.compile(r"\b(?:because|since)\b")


def picks_29(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """``recs`` with the cards a recommending clause leads to, as ruleset 28 reads them plus a
    label bold after its colon and with the reasons for a pick read apart (module docstring)."""
    return picks_28(masked, extraction, recs, _DEFERRED_29, _REASONS_29)


# -- options_29 ------------------------------------------------------------------------------------

# an emoji or pictograph (with its variation selector or joiner)
_DECOR = r"[\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff][\ufe0f\u200d]*"
# marks that rule a card out or warn about it ("❌ X", "🚫 X", "⚠️ X", "👎 X"): no offer
_AGAINST = re.compile(
    "[\u274c\u274e\u2716\u2717\u2718\u26a0\u26d4\U0001f6ab\U0001f6d1\U0001f44e"
    "\U0001f645\U0001f480\U0001f4a9\U0001f534\U0001f7e5\u2639\U0001f612\U0001f62c"
    "\U0001f615\U0001f641\U0001f61e\U0001f494]"
)
_BARE_HEAD_29 = re.compile(
    rf"[ \t]*(?:#{{1,6}}[ \t]+)?(?:{_DECOR}[ \t]*){{0,3}}(?:\*\*|__)?[ \t]*(?:{_DECOR}[ \t]*){{0,3}}"
)
_BARE_TAIL_29 = re.compile(
    rf"[ \t]*(?:\*\*|__)?[ \t]*(?:{_DECOR}[ \t]*){{0,3}}(?:\*\*|__)?[ \t]*:?[ \t]*"
)
_ANY_DECOR = re.compile(_DECOR)
_HEAD_REACH_29 = 40


def _decorated(text: str, mention: NameMention, a: int, b: int) -> str | None:
    """Reads "item" when the mention (on the line ``[a, b)``) is alone on its line between emoji that
    do not rule it out or warn ("❌", "🚫", "⚠️", "👎", ...): its block and its list's lead are
    read for rule-outs as a list item's are."""
    if mention.start - a > _HEAD_REACH_29 or b - mention.end > _HEAD_REACH_29:
        return None
    if not _BARE_HEAD_29.fullmatch(text, a, mention.start):
        return None
    if not _BARE_TAIL_29.fullmatch(text, mention.end, b):
        return None
    if not _ANY_DECOR.search(text, a, mention.start) and not _ANY_DECOR.search(
        text, mention.end, b
    ):
        return None  # ruleset 19's own bare heading
    if _AGAINST.search(text, a, b):
        return None
    return "item"  # its block and its list's lead are read for rule-outs


def options_29(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """``recs`` with the cards alone on their line between emoji offered (the eligibility rule
    only), unless ruled out as ruleset 19 rules out its options (module docstring)."""
    if not _ANY_DECOR.search(masked):
        return recs
    return offered_19(masked, extraction, recs, _decorated)


# -- slash_29 --------------------------------------------------------------------------------------

_SLASH_29 = re.compile(
    r"(?<![\d.,])(?P<pct>\d(?:\.\d{1,2})?)[ \t]*%(?P<slash>[ \t]*/[ \t]*)"
    r"(?=\d{1,2}[ \t]*(?:mo|mos|mths?|months?)\b)"
)


def slash_29(norm: NormalizedText) -> NormalizedText:
    """``norm`` with "0% / 15mo" read as "0% for 15mo" (module docstring)."""
    if "/" not in norm.lower:
        return norm
    found = [(m.start("slash"), m.end("slash"), " for ") for m in _SLASH_29.finditer(norm.lower)]
    return apply_first_replacements(norm, found) if found else norm


__all__ = ["options_29", "picks_29", "slash_29"]
