"""Ruleset 5's table reading for recommendations (flag ``recommended_column``).

A comparison table may say which card it puts forward in a column of its own: "Recommended?",
"Pick", "Our pick", "Best for you", "Suggested" - answered "Yes", "Y", a tick or "Top pick" in
the row of the card it recommends ("No", "-", "Not for you" recommend nothing). The row's card
is then recommended, like a card named in "I recommend X", unless the text rules it out
elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from replicas.verifiers.compliance.mentions import NameMention

_PICK_HEADER = re.compile(
    r"^[\s*_]*(?:(?:our|my|top|best)[ \t]{1,3})?(?:recommend(?:ed|ation)?|picks?|suggested|"
    r"best[ \t]{1,3}(?:fit|for[ \t]{1,3}you)|choice)[\s*_?]*$"
)
_YES = re.compile(
    r"^[\s*_]*(?:yes|y|yep|\u2713|\u2714|\u2705|x|top[ \t]{1,3}pick|(?:our|my)?[ \t]*pick|"
    r"recommended|best)[\s*_!.]*$"
)
_PICK_WORDS = ("recommend", "pick", "suggest", "best", "choice")


def column_picks(lower: str, mentions: Sequence[NameMention]) -> dict[str, NameMention]:
    """The cards a "Recommended?" column of a markdown table answers "Yes" for.

    Only lines holding two "|" are read (found with ``str.find``): a run of them is a table, its
    first line the header.
    """
    if "|" not in lower or not any(word in lower for word in _PICK_WORDS):
        return {}
    found: dict[str, NameMention] = {}
    size = len(lower)
    column: int | None = None
    previous_end = -2
    pipe = lower.find("|")
    while pipe >= 0:
        line_start = lower.rfind("\n", 0, pipe) + 1
        line_end = lower.find("\n", pipe)
        if line_end < 0:
            line_end = size
        line = lower[line_start:line_end]
        if line.count("|") >= 2:
            if line_start != previous_end + 1:
                column = None  # a new table: its header comes first
            previous_end = line_end
            cells = line.strip().strip("|").split("|")
            if column is None:
                picks = [i for i, c in enumerate(cells) if _PICK_HEADER.match(c)]
                column = picks[0] if picks else -1
            elif 0 <= column < len(cells) and _YES.match(cells[column]):
                for mention in mentions:
                    if line_start <= mention.start < line_end and mention.card_id is not None:
                        found.setdefault(mention.card_id, mention)
                        break
        pipe = lower.find("|", line_end)
    return found


__all__ = ["column_picks"]
