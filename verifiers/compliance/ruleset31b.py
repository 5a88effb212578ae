"""Ruleset 31's readings of recommendations, ``held_31`` and ``retracted_31`` (``ruleset31``
holds its docstring's full account and the claim readings, ``revise_31``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.ruleset31c import (
    _REACH_31,
    _ROW_31,
    _SENTENCE_END_31,
    sentence_of,
)

if TYPE_CHECKING:
    from replicas.verifiers.compliance.claims import Extraction
    from replicas.verifiers.compliance.mentions import NameMention
    from replicas.verifiers.compliance.recommend import Recommendations

__all__ = ["held_31", "held_by", "retracted_31"]

# -- held_31 ---------------------------------------------------------------------------------------

# words that put a card forward for the customer to get: "I'd suggest", "I'd go with", "I'd add",
# "apply for", "my pick", "is the one", "switch to" (not "keep", "use", "close", "your X")
_FORWARD_31 = re.compile(
    r"\b(?:suggest\w*|recommend\w*|go(?:ing)?[ \t]+(?:with|for|ahead)|add|adding|gets?|getting|"
    r"apply\w*|applications?|picks?|choice|sign(?:ing)?[ \t]+up|open(?:ing)?\b(?![ \t]+to\b)|"
    r"switch(?:ing)?[ \t]+to|try|consider\w*|grab|put[ \t]+you[ \t]+in|upgrade[ \t]+to|"
    r"is[ \t]+the[ \t]+one|would[ \t]+be[ \t]+my|winner|new[ \t]+card|fits?|for[ \t]+you|ideal|"
    r"perfect|right[ \t]+(?:card|choice|pick|one)|for[ \t]+your|match|checks?[ \t]+(?:every|all)|what[ \t]+you[ \t]+want|makes?[ \t]+(?:the[ \t]+"
    r"most[ \t]+)?sense|options?|strong|vote|top|ranked|ranking|start[ \t]+with|solid|"
    r"should[ \t]+(?:get|add|open|apply)|which[ \t]+card|point(?:ing)?[ \t]+you|steer(?:ing)?[ \t]+you|"
    r"lean(?:ing)?[ \t]+(?:toward|towards|to)|"
    r"best(?![ \t]+(?:asset|thing|move|part|way|to|of|if|when))"
    r")\b"
)
# the customer's own card: "your X", "you've got", "you're paying $95 for X", "already", "keep it",
# "close", "current", "letting X age", "pay X in full", "I have", "on file"
_OWN_BEFORE_31 = re.compile(
    r"\b(?:your|yours|you[ \t]+(?:have|hold|carry|own|already[ \t]+(?:have|hold|carry|own))|"
    r"you've[ \t]+got|you're[ \t]+(?:carrying|holding|using)|keep(?:ing)?|close|closing|cancel\w*|"
    r"downgrad\w*|letting|pay(?:ing)?(?:[ \t]+off)?|current(?:ly)?|existing|old)"
    r"[ \t]+(?:[\w\"'*]+[ \t]+){0,3}(?:the[ \t]+)?(?:\*\*|__)?$"
)
_OWN_AFTER_31 = re.compile(
    r"[^.!?\n]{0,40}?\b(?:is[ \t]+already|already|is[ \t]+your|you[ \t]+(?:have|hold|carry|own)|"
    r"age|keep[ \t]+it|open[ \t]+for)\b"
)
# in its sentence, or its list item's lead: "you already have", "you've got", "you're paying $95
# for", "on file", "your current cards", "any of your cards", "I have"
_OWN_31 = re.compile(
    r"\b(?:you[ \t]+already[ \t]+(?:have|hold|carry|own)|you've[ \t]+got|you're[ \t]+(?:paying|"
    r"carrying)|on[ \t]+file|your[ \t]+(?:current[ \t]+|existing[ \t]+|other[ \t]+|own[ \t]+)?"
    r"(?:cards|setup|lineup|line-up|wallet|portfolio)|(?:any|all|one|none|each|both)[ \t]+of[ \t]+"
    r"your[ \t]+cards|cards?[ \t]+you[ \t]+(?:have|hold|carry|own)|i[ \t]+have|i've[ \t]+got|"
    r"already[ \t]+(?:have|hold|carry|own|open)|holds)\b"
)
# ... and in a list item's own line or lead: "keep", "review", "already", "current"
_OWN_LINE_31 = re.compile(r"\b(?:keep|keeping|review|already|current)\b")
# "you don't need to add the X", "no need to get another": a negated forward word puts nothing
_NEGATED_31 = re.compile(
    r"\b(?:don't|do[ \t]+not|no[ \t]+need[ \t]+to|not|never|wouldn't|won't|needn't|shouldn't|"
    r"isn't|aren't)[ \t]+(?:[\w']+[ \t]+){0,2}$"
)
# list items, table rows and quotes: read under the nearest line above that is none (a lead, or
# a heading); a table row also under its table's header row
_LIST_LINE_31 = re.compile(r"[ \t]*(?:[-*+>\u2022]|\d{1,2}[.)])")
_HEADING_31 = re.compile(r"[ \t]*#{1,6}[ \t]")
_APPLY_NEXT_31 = re.compile(
    r"[ \t]*(?:apply|sign[ \t]+up|get[ \t]+it|grab[ \t]+it|open[ \t]+(?:it|one))\b"
)
_HELD_MENTIONS_31 = 40
_LINES_UP_31 = 30


def _forward(text: str) -> bool:
    """Whether ``text`` holds a word that puts a card forward, not negated."""
    for match in _FORWARD_31.finditer(text):
        if not _NEGATED_31.search(text, max(0, match.start() - 30), match.start()):
            return True
    return False


def _put_forward(
    masked: str, start: int, end: int, forward: Callable[[str], bool] = _forward
) -> bool:
    """Whether words putting a card forward (``forward``) stand around the mention
    (``_said_around``)."""
    return _said_around(masked, start, end, forward)


def _possessed(masked: str, start: int, end: int) -> bool:
    """Whether words of the customer's own card ("your", "you have", "already", "keep", "close",
    "current") stand around the mention (``_said_around``)."""
    if _OWN_BEFORE_31.search(masked, max(0, start - 40), start) or _OWN_AFTER_31.match(masked, end):
        return True
    return _said_around(
        masked,
        start,
        end,
        lambda text: _OWN_31.search(text) is not None,
        lambda text: _OWN_31.search(text) is not None or _OWN_LINE_31.search(text) is not None,
    )


def _said_around(
    masked: str,
    start: int,
    end: int,
    said: Callable[[str], bool],
    said_in_line: Callable[[str], bool] | None = None,
) -> bool:
    """Whether ``said`` holds of the mention's sentence (or a question just before it), or - in a
    list item, table row or heading - of its whole line, the nearest line above that is none, or
    its table's header row."""
    in_line = said_in_line or said
    head = masked[max(0, start - _REACH_31) : start]
    cuts = [m for m in _SENTENCE_END_31.finditer(head)]
    if cuts:
        last = cuts[-1]
        # "Which card should you get? The X.": the question is part of the answer's sentence
        begin = cuts[-2].end() if last.group()[0] == "?" and len(cuts) > 1 else 0
        head = head[begin:] if last.group()[0] == "?" else head[last.end() :]
    tail = masked[end : end + _REACH_31]
    stop = _SENTENCE_END_31.search(tail)
    # "X checks every box. Apply online in minutes.": an imperative to get it comes next
    if stop is not None and not _APPLY_NEXT_31.match(tail, stop.end()):
        tail = tail[: stop.start()]
    if said(head) or said(tail):
        return True
    line_start = masked.rfind("\n", 0, start) + 1
    line_end = masked.find("\n", end)
    line_end = len(masked) if line_end < 0 else line_end
    # (a long line is read near the mention: each mention reads at most this much of it)
    near_start, near_end = max(line_start, start - _REACH_31), min(line_end, end + _REACH_31)
    in_row = _ROW_31.match(masked, line_start) is not None
    in_heading = _HEADING_31.match(masked, line_start) is not None
    if not in_row and not in_heading and not _LIST_LINE_31.match(masked, line_start):
        return False
    if in_line(masked[near_start:near_end]):
        return True  # a later sentence of its list item, row or heading
    indent = len(masked[line_start:near_end]) - len(masked[line_start:near_end].lstrip(" \t"))
    pos = line_start - 1
    for _ in range(_LINES_UP_31):
        if pos <= 0:
            return False
        above = masked.rfind("\n", 0, pos) + 1
        line = masked[above:pos]
        pos = above - 1
        if not line.strip():
            continue
        if _ROW_31.match(line):
            if in_row and in_line(line):
                return True  # the header (or another row) of the card's table
            continue
        if _LIST_LINE_31.match(line) and len(line) - len(line.lstrip(" \t")) < indent:
            return in_line(line[-2 * _REACH_31 :])  # a nested item's parent item
        if _LIST_LINE_31.match(line) or (in_heading and not _HEADING_31.match(line)):
            continue  # under a heading, the lead is the heading above it
        return in_line(line[-2 * _REACH_31 :])
    return False


def held_31(
    masked: str, extraction: Extraction, recs: Recommendations, *, held: frozenset[str]
) -> Recommendations:
    """``held_31``: a card the customer already holds, that the answer treats as theirs and no
    mention puts forward, is reviewed, not recommended (module docstring): no recommendation,
    and not the answer's sole pick either (ruleset 3 takes the only card an answer names as its
    pick)."""
    return held_by(masked, extraction, recs, held, _forward)


def held_by(
    masked: str,
    extraction: Extraction,
    recs: Recommendations,
    held: frozenset[str],
    forward: Callable[[str], bool],
    owned: Callable[[str, int, int], bool] | None = None,
) -> Recommendations:
    """The recommendations less the held cards the answer treats as theirs (``owned``, default
    ``_possessed``) and no mention puts forward by ``forward``'s words (``held_31``,
    ``held_32``)."""
    owns = _possessed if owned is None else owned
    from replicas.verifiers.compliance.recommend import Recommendations

    named = {m.card_id for m in extraction.mentions if m.card_id in held}
    if not named:
        return recs
    counts = {card: sum(1 for m in extraction.mentions if m.card_id == card) for card in named}
    # a card named more than this often is left as ruleset 30 reads it (bounds the work)
    named = {card for card in named if counts[card] <= _HELD_MENTIONS_31}
    put = {
        card
        for card in named
        if any(
            m.card_id == card and _put_forward(masked, m.start, m.end, forward)
            for m in extraction.mentions
        )
    }
    reviewed = {
        card
        for card in named - put
        if any(m.card_id == card and owns(masked, m.start, m.end) for m in extraction.mentions)
    }
    if not reviewed:
        return recs
    positive = {c: m for c, m in recs.positive.items() if c not in reviewed}
    return Recommendations(positive, recs.negated | reviewed)


# -- retracted_31 ---------------------------------------------------------------------------------

# "In my last reply I suggested X. You pointed out ...": a past suggestion the answer corrects
_PAST_PICK_31 = re.compile(
    r"\b(?:(?:i|we)[ \t]+(?:had[ \t]+|originally[ \t]+|previously[ \t]+)?(?:suggested|recommended|"
    r"pointed[ \t]+you[ \t]+(?:to|toward|towards)|put[ \t]+you[ \t]+(?:in|on)|told[ \t]+you"
    r"[ \t]+about)|my[ \t]+(?:last|earlier|previous|original)[ \t]+(?:answer|reply|message|"
    r"suggestion|recommendation))\b"
)
_CORRECTION_31 = re.compile(
    r"\b(?:correction|my[ \t]+mistake|i[ \t]+was[ \t]+wrong|got[ \t]+(?:something|it|that)(?:[ \t]+"
    r"\w+)?[ \t]+wrong|you[ \t]+(?:rightly[ \t]+)?pointed[ \t]+out|you[ \t]+(?:were|got)[ \t]+"
    r"(?:turned[ \t]+down|declined|rejected))\b"
)
_CORRECTION_REACH = 200
# "X would normally be the obvious pick, but ...": a counterfactual pick
_COUNTERFACTUAL_31 = re.compile(
    r"[ \t]*(?:\)|\*\*|__)?[ \t]*(?:would|might)[ \t]+(?:normally|otherwise|usually|typically|ordinarily)[ \t]+be"
    r"|[ \t]*(?:\)|\*\*|__)?[ \t]*would[ \t]+have[ \t]+been"
)
_COUNTER_PICK_31 = re.compile(
    r"(?![^.!?;\n]{0,40}\b(?:last|worst)\b)[^.!?;\n]{0,40}\b(?:pick|choice|option|recommendation|"
    r"go-to|fit|card[ \t]+for[ \t]+you)\b[^.!?;\n]*\b(?:but|except)\b"
)
# words that keep a past pick standing: "my earlier recommendation stands", "I'd keep my original
# pick", "still", "stick with"
_STANDS_31 = re.compile(
    r"\b(?:stands?|still|stick(?:ing)?[ \t]+with|keep[ \t]+my|same[ \t]+pick|again)\b"
)


def _withdrawn(masked: str, mention: NameMention) -> bool:
    """Whether ``mention`` is a past suggestion the answer corrects (the correction within a few
    sentences of it), or a counterfactual pick."""
    begin, stop = sentence_of(masked, mention.start, mention.end)
    if _PAST_PICK_31.search(masked, begin, mention.start):
        corrected = _CORRECTION_31.search(
            masked, max(0, begin - _CORRECTION_REACH), mention.end + _CORRECTION_REACH
        )
        # what stands around it, up to the end of the next sentence, must not put it forward
        after = _SENTENCE_END_31.search(masked, stop + 1, stop + _REACH_31)
        around = masked[begin : after.start() if after else stop + _REACH_31]
        return (
            corrected is not None
            and not _forward(around.replace(masked[begin : mention.start], "", 1))
            and not _STANDS_31.search(around)
        )
    # "X would normally be the obvious pick for you, but ...": the card is the counterfactual's
    # subject, and its pick is undone by "but" / "except"
    shape = _COUNTERFACTUAL_31.match(masked, mention.end)
    if shape is None:
        return False
    undone = _COUNTER_PICK_31.match(masked[shape.end() : shape.end() + _REACH_31])
    # ", but ... it's the one to get" puts it forward after all
    return undone is not None and not _forward(
        masked[shape.end() + undone.end() : max(stop, shape.end() + undone.end())]
    )


def retracted_31(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """``retracted_31``: a card named only as a past suggestion the answer corrects ("In my last
    reply I suggested X. You pointed out ...") or as a counterfactual pick ("X would normally be
    the obvious pick, but ...") is not put forward."""
    from replicas.verifiers.compliance.recommend import Recommendations

    if not recs.positive:
        return recs
    withdrawn = set()
    for card in recs.positive:
        named = [m for m in extraction.mentions if m.card_id == card]
        if named and all(_withdrawn(masked, m) for m in named):
            withdrawn.add(card)
    if not withdrawn:
        return recs
    positive = {c: m for c, m in recs.positive.items() if c not in withdrawn}
    return Recommendations(positive, recs.negated | withdrawn)
