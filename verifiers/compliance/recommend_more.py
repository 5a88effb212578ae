"""Ruleset 4's list and heading reading for recommendations (flag ``more_recommendations``).

Ruleset 3 counts a card as put forward by position only when it opens a bullet or numbered item
right under a lead-in that ends with a colon or is a heading ("Top picks for you:", "## My
picks"). Ruleset 4 also reads:

* items that open with the card's name, with or without a bullet ("**1. X**", "X - no annual
  fee", "### X", "#2 X") - on the masked text, where a card name is a run of "#";
* lead-ins without a colon that name no card: a short line ("Top picks for you", "**Recommended**"), or a sentence
  about the cards that follow ("these are the cards I'd suggest.");
* the answer to a question about which card to get ("Which card should you get? The X.").

A lead-in that rules something out ("Cards to avoid:", "You don't qualify for these") leads
nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from replicas.verifiers.compliance import lexicon as lex

# what may come before the card name that opens an item: markup, a bullet, a heading, a rank
_BEFORE_NAME = re.compile(
    r"[ \t\n>]*(?:#{1,6}[ \t]+)?(?:\*\*|__)?[ \t]*(?:[-*•+–]|\d{1,2}[.)]|#\d{1,2}\b|\(\d{1,2}\))?"
    r"[ \t]*(?:\*\*|__)?[ \t]*(?:the[ \t]{1,3})?"
)
_LIST_ITEM = re.compile(r"(?:[-*•+]|\d{1,2}[.)])\s")
# "**1." cut off from its item by the sentence splitter: a rank alone, part of the item
_RANK_ONLY = re.compile(r"[*_#\s]*\d{1,2}[.)]?[*_\s]*")
_ABOUT_CARDS = re.compile(r"\b(?:cards?|picks?|options?|following|below|these|shortlist)\b")
_WHICH = re.compile(r"\b(?:which|what)\b")
_CHOICE_WORDS = re.compile(r"\b(?:card|one|get|pick|choose|apply|go[ \t]{1,3}for)\b")
_SHORT_LEAD = 60


def name_led(lower: str, start: int, first_mention: int) -> bool:
    """The unit starting at ``start`` opens with the card name at ``first_mention`` (maybe after
    markup, a bullet or a rank)."""
    return _BEFORE_NAME.fullmatch(lower, start, first_mention) is not None


def _rules_out(text: str) -> bool:
    negations = list(lex.NEGATION.finditer(text))
    if not negations:
        return False
    spared = [m.span() for m in lex.NEGATION_NOT_RULING_OUT.finditer(text)]
    return any(not any(a <= m.start() < b for a, b in spared) for m in negations)


def _is_lead(unit_text: str) -> bool:
    """A lead-in that puts forward what follows it."""
    text = unit_text.strip()
    if text.endswith("?"):
        return bool(_WHICH.search(text)) and bool(
            _CHOICE_WORDS.search(text) or lex.RECOMMEND_MORE.search(text)
        )
    if not lex.RECOMMEND_MORE.search(text) or _rules_out(text):
        return False
    return (
        text.endswith(":")
        or text.startswith(("#", "**", "__"))
        or len(text) <= _SHORT_LEAD
        or bool(_ABOUT_CARDS.search(text))
    )


def lead_more(
    masked: str,
    units: Sequence[tuple[int, int]],
    k: int,
    memo: dict[int, bool],
    led: set[int],
    named: set[int],
) -> bool:
    """Whether the item ``units[k]`` sits under a recommending lead-in (memoised per walk, as
    ``recommend._list_lead``); ``led``: the units that open with a card name, ``named``: the
    units that name one (a sentence about a card is no lead-in: "I recommend X. Y is ...")."""
    return _walk(masked, units, k, memo, led, named) and not _rules_out(
        masked[units[k][0] : units[k][1]]
    )


def _walk(
    masked: str,
    units: Sequence[tuple[int, int]],
    k: int,
    memo: dict[int, bool],
    led: set[int],
    named: set[int],
) -> bool:
    passed: list[int] = []
    lead = False
    j = k - 1
    while j >= 0:
        if j in memo:
            lead = memo[j]
            break
        passed.append(j)
        start, end = units[j]
        unit_text = masked[start:end].strip()
        if (
            unit_text
            and not _LIST_ITEM.match(unit_text)
            and not _RANK_ONLY.fullmatch(unit_text)
            and j not in led
        ):
            lead = j not in named and _is_lead(unit_text)
            break
        j -= 1
    for j in passed:
        memo[j] = lead
    return lead


__all__ = ["lead_more", "name_led"]
