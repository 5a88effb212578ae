"""Ruleset 30's reading of recommendations, ``held_30``: the customer's own cards, reviewed, are
not put forward (s36's tuning halves; ``ruleset30`` holds its docstring's full account and the
claim readings, ``revise_30``).

"Keep your X", "| X | $0 | Keep - your everyday card |", "You're carrying: - X", "I have the X",
"close the X": each made a held card a recommendation, and ``ineligible_card`` (already held) fired
on honest portfolio reviews. A card is not put forward where the answer treats it as the customer's
own: "your (current / existing / old) X" (not after "apply for", "get", "grab", "submit", ..., nor
"your X application"), "Sam's old X", "existing X", "close / cancel / downgrade the X", "I have the
X." (ending its clause), "you already have the X", "X: keep", "X - keep it.", a table row whose last
cell is "Keep ...", or a list item under a short lead of its own: a "Keep" heading, "you're
carrying:", "your current cards:", "dead weight:", "the rest is fine:" (not one that puts cards
forward: "Upgrades over your current setup:", "Ditch the dead weight and apply for these:"). "Keep
reading for my picks:", "If you have fair credit, these are your options:", "X is your best bet", "X
- keep it for travel", "I have the X at the top of my list" put cards forward as before.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.ruleset30 import _SENTENCE_30

if TYPE_CHECKING:
    from replicas.verifiers.compliance.claims import Extraction
    from replicas.verifiers.compliance.recommend import Recommendations

# -- held_30 ---------------------------------------------------------------------------------------

# the customer's own card, before its name in its sentence: "your X", "Sam's old X", "keep the
# X", "you're carrying: X", "I have the X", "close the X", "letting X age"
_HELD_BEFORE_30 = re.compile(
    r"(?:\byour[ \t]+(?:(?:current|existing|old)[ \t]+)?"
    r"|\b[a-z]+'s[ \t]+(?:current|existing|old)[ \t]+|\bexisting[ \t]+(?:the[ \t]+)?"
    r"|\b(?:close|closing|cancel|cancelling|canceling|downgrade|downgrading)[ \t]+(?:the[ \t]+|your"
    r"[ \t]+)?"
    r"|\b(?:you|i)[ \t]+already[ \t]+(?:have|hold|own|carry)[ \t]+(?:the[ \t]+)?"
    r"|\b(?:you're|you[ \t]+are)[ \t]+(?:already[ \t]+)?carrying[ \t]*:?[ \t]*)"
    r"[*_]*$"
)
# a verb that puts the card forward right before "your X": "grab your X", "apply for your X"
_ACQUIRE_30 = re.compile(
    r"\b(?:for|get|getting|open|opening|apply|applying|grab|snag|pick|take|try|add|land|score"
    r"|choose|consider|recommend|suggest|want|need|start|go[ \t]+with|with|submit|send|complete"
    r"|finish)[ \t]+$"
)
# "your X application": the card is asked for, not held
_APPLICATION_30 = re.compile(r"[*_]*[ \t]+(?:application|app|approval|request|offer)\b")
_I_HAVE_30 = re.compile(
    r"\bi[ \t]+(?:have|hold|own|carry|'ve[ \t]+got|got)[ \t]+(?:the[ \t]+)?[*_]*$"
)
_CLAUSE_ENDS_30 = re.compile(
    r"[*_]*[ \t]*(?:card[ \t]*)?(?:[.,;:?!)]|\band\b|\bbut\b|\balready\b|\bnow\b|\bright[ \t]+now\b|$)"
)
# after its name on its line: "X: keep", "X - keep it", "(you have it)", a table row whose
# verdict cell is "Keep" (not "keep an eye on", "keep in mind", "keep it as your main card")
_KEEP_30 = r"keep\b(?![ \t]+(?:an[ \t]+eye|in[ \t]+mind|reading|track|earning|flying|it[ \t]+as))"
_HELD_AFTER_30 = re.compile(
    r"[*_]*[ \t]*(?:\([^()\n]{0,20}\)[ \t]*)?[:\-\u2013\u2014][ \t]*[*_]*"
    + _KEEP_30
    + r"(?:[ \t]+it)?[ \t*_]*(?:[.,;:!|()\n\-\u2013\u2014]|$)"
    r"|[*_]*[ \t]*\((?:you[ \t]+have[ \t]+it|yours|held)\)"
    r"|[*_]*[ \t]*\|[^\n]*\|[ \t]*[*_]*" + _KEEP_30 + r"[^|\n]{0,30}\|[ \t]*$"
)
# a lead-in over a list of the customer's own cards: "**Keep - clearly worth it**", "you're
# carrying:", "your current setup:", "the rest is fine:", "what's dead weight:"
_HELD_LEAD_30 = re.compile(
    r"^[ \t#*_]*keep\b(?![ \t]+(?:in[ \t]+mind|reading|it[ \t]+simple|an[ \t]+eye|track|these"
    r"|those|going))"
    r"|\b(?:you're[ \t]+carrying|you[ \t]+are[ \t]+carrying|you[ \t]+already[ \t]+(?:have|hold|own"
    r"|carry)|your[ \t]+current[ \t]+(?:cards|setup|lineup|wallet)|already[ \t]+in[ \t]+your"
    r"[ \t]+wallet|dead[ \t]+weight|the[ \t]+rest[ \t]+is[ \t]+fine|cards[ \t]+you[ \t]+(?:already"
    r"[ \t]+)?(?:have|hold|own)[ \t]*:)"
)
_LIST_ITEM_30 = re.compile(r"[ \t]*(?:[-*+\u2022]|\d{1,2}[.)])[ \t]+")
_LEAD_CHARS_30 = 40
_FORWARD_30 = re.compile(
    r"\b(?:apply|get|upgrade\w*|instead|add|over|ditch|eye|consider|try|pick\w*|recommend\w*"
    r"|suggest\w*|new|switch\w*|replace\w*|better|best)\b"
)
_LEAD_REACH_30 = 400


def _line_bounds(masked: str, pos: int) -> tuple[int, int]:
    start = masked.rfind("\n", 0, pos) + 1
    end = masked.find("\n", pos)
    return start, len(masked) if end < 0 else end


def _held(masked: str, start: int, end: int) -> bool:
    """Whether the card named at ``[start, end)`` is read as the customer's own (module
    docstring): "your X", "keep the X", "X: keep", or a list item under a lead-in about the
    customer's cards."""
    line_start, line_end = _line_bounds(masked, start)
    head = masked[max(line_start, start - 60) : start]
    for m in _SENTENCE_30.finditer(head):
        head = head[m.end() :]
    before = _HELD_BEFORE_30.search(head)
    if (
        before
        and not _ACQUIRE_30.search(head, 0, before.start())
        and not _APPLICATION_30.match(masked, end, line_end)
    ):
        return True
    if _I_HAVE_30.search(head) and _CLAUSE_ENDS_30.match(masked, end, line_end):
        return True  # "I have the X. should I ...", not "I have the X at the top of my list"
    if _HELD_AFTER_30.match(masked, end, line_end):
        return True
    if _LIST_ITEM_30.match(masked, line_start) is None:
        return False
    # the nearest line above that is no list item, within reach and with no blank line between
    pos = line_start - 1
    floor = max(0, line_start - _LEAD_REACH_30)
    while pos > floor:
        a, b = _line_bounds(masked, pos - 1)
        line = masked[a:b]
        if not line.strip():
            return False
        if _LIST_ITEM_30.match(line) is None:
            # a lead of its own: short, and not one that puts cards forward ("Upgrades over
            # your current setup:", "Ditch the dead weight and apply for these:")
            lead = line.strip(" \t#*_>")
            return (
                len(lead) <= _LEAD_CHARS_30
                and _HELD_LEAD_30.search(line) is not None
                and _FORWARD_30.search(line) is None
            )
        pos = a - 1
    return False


def held_30(
    masked: str,
    extraction: Extraction,
    recs: Recommendations,
    *,
    closed: frozenset[str] = frozenset(),
) -> Recommendations:
    """Ruleset 30's ``held_30``: a card the answer treats as the customer's own is not put
    forward (module docstring). ``closed``: the cards the customer may not get for a reason
    other than holding them already - "your X" does not make those the customer's own, so they
    stay put forward (an answer cannot excuse an ineligible card by calling it "yours")."""
    from replicas.verifiers.compliance.recommend import Recommendations

    if not recs.positive:
        return recs
    positive = {
        c: m for c, m in recs.positive.items() if c in closed or not _held(masked, m.start, m.end)
    }
    if len(positive) == len(recs.positive):
        return recs
    return Recommendations(positive, recs.negated)


__all__ = ["held_30"]
