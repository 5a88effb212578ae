"""Ruleset 26: ruled-out cards, whom a note is about, and text that is no claim (the s29 and s30
tuning halves).

What ruleset 25 still flagged on the tuning halves of s29 and then s30 was mostly text that is
no claim about a card's terms - a card the answer explains it left out, a goal in a menu, a
header, a value the answer rejects, a late fee the reader avoids - and figures of a ranked
list's notes, or of prose after a code block, given to the wrong card. Each reading is a class
and holds only where the text shows what it claims; three red teams with the source code
attacked it before the blind readings, and their attacks are test cases. This module reads the
cards and mentions and holds ``revise_26``; ``ruleset26b`` reads the figures.

* ``why_not_26`` - **a card ruled out** where the answer says the customer fails one of its
  requirements: "Why not X?" answered on its line or the next (no "Because" needed), or an entry
  led by the card's name in a list or record under a ruling-out lead ("Cards I left off:",
  ``ruled_out:``) - "min score 640 vs your 612", ``reason: "you have it already"``. Failing: the
  card held already, closed to the customer ("isn't available to you", "you don't qualify"),
  student-only, or a score below the one minimum the answer states. Never when the answer names
  another card, puts the card forward after all ("best", "apply", "still", "but", ...) or says
  the requirement is met; never under a negated lead ("nothing is ruled out") or when a
  recommending lead is nearer. Only the mention the recommendation was read from counts.
* ``ranks_26`` - **whom a note is about**: a note a rank leads ("notes: #1 late fee up to $41;
  #1 CA 27.99% APR") is about the card "#1 <name>" names ("CA"/"PA": cash-advance and penalty
  APR); a "#1" inside prose is no note. Prose after a fenced code block whose last card sits
  under a ruled-out key of the block is about the card named last before the block.
* ``results_26`` - **figures the answer says are the reader's** (``ruleset26b``): "so that
  $976.68 is all yours", a note's "est rew $1,259/yr | net $771/yr", a record key naming an
  estimate (``"est_net_after_fee": "$1,167"``), "That comes to about $717 a year" after an
  earning rate, "balance incl. fee: $3,090", "- on $100 that's $10", "reach zero before the intro
  rate ends".
* ``labels_26`` - **no claims**: "no-fee" as an item of a list of goals; "Annual Percentage
  Rate" (never an unknown card); a lower-case "one" used as a word after a capitalised name ("the
  Solstice Reset one by one"); a lower-case phrase of generic words before a generic noun ("for
  everyday cash back"); a value rejected after ", not"; a quotation of what the customer said or
  asked that the reply opens by correcting.
* ``offers_26`` - "no 0% transfer offer" denies an intro transfer APR (checked as such), and its
  "no" does not reach the fee after it.
* ``fees_26`` - **terms the reader acts on**: a late fee or penalty rate avoided by the reader's
  payment habit right before a purpose ("Set up autopay so you never trip a late fee"; no
  concession, no card or card design between, no "it has none" after); a negated verb whose
  object is the term ("doesn't fully cover the $95 annual fee"); "3% (min $10) minimum fee" is a
  fee, not an APR; "22.49-28.49% var" is variable.

See "Ruleset 26" in ``verifiers/compliance/RULESETS.md``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claims import Claim, Extraction
from replicas.verifiers.compliance.mentions import UNKNOWN, NameMention, tokens_of
from replicas.verifiers.compliance.ruleset26b import (
    _VAR_26,
    _as_fee,
    _is_avoided,
    _is_label,
    _is_not_denial,
    _is_rejected,
    _is_result,
    _no_intro,
    _no_offer,
    _quotes,
)

if TYPE_CHECKING:
    from replicas.verifiers.compliance.names import NameIndex
    from replicas.verifiers.compliance.recommend import Recommendations

__all__ = ["labels_26", "revise_26", "tiers_26", "why_not_26"]

# -- "Why not X?" answered by a failed requirement -------------------------------------------------

# the card's name is blanked "#" in the masked text
_WHY_NOT_26 = re.compile(
    r"\bwhy[ \t]+not[ \t]+(?:the[ \t]+)?(?:\*\*|__)?#[^?:\n]{0,40}(?:\?|:(?![ \t]*\d))"
)
_ANSWER_26 = re.compile(r"(?:\*\*|__)?[ \t]*(?P<line>[^\n]{0,240})")
_NEXT_LINE_26 = re.compile(r"[ \t]*\n[ \t]*(?P<line>[^\n]{1,240})")
#: the card is held already: "You already have this one.", "It's already in your wallet."
_HELD_26 = re.compile(
    r"\balready[ \t]+(?:hold|have|own|carry|got)[ \t]+(?:it|this|that|this[ \t]+one|that[ \t]+one"
    r"|this[ \t]+card|that[ \t]+card|one)[ \t]*(?:[.!;]|$)"
    r"|\b(?:(?:it's|it[ \t]+is)[ \t]+)?already[ \t]+in[ \t]+your[ \t]+wallet\b"
    r"|\byou[ \t]+(?:have|hold|own)[ \t]+(?:it|this[ \t]+one|that[ \t]+one)[ \t]+already"
    r"[ \t]*(?:[.!;)\"]|\(|$)"
)
#: the card is closed to the customer, said of the card (or of "you" for it), ending its clause
_NOT_OPEN_26 = re.compile(
    r"\b(?:it|it's|this[ \t]+one|that[ \t]+one|this[ \t]+card|that[ \t]+card)[ \t]+"
    r"(?:is[ \t]+)?(?:isn't|is[ \t]+not|not)[ \t]+(?:available|open)[ \t]+to[ \t]+you"
    r"[ \t]*(?:[.!;]|$)"
    r"|\byou(?:'re|[ \t]+are)[ \t]+not[ \t]+eligible(?:[ \t]+for[ \t]+(?:it|this[ \t]+one|this"
    r"[ \t]+card))?[ \t]*(?:[.!;]|$)"
    r"|\byou[ \t]+(?:don't|do[ \t]+not|wouldn't|would[ \t]+not|won't|will[ \t]+not|can't|cannot)"
    r"[ \t]+(?:yet[ \t]+)?qualify(?:[ \t]+for[ \t]+(?:it|this[ \t]+one|this[ \t]+card))?"
    r"[ \t]*(?:[.!;]|$)"
)
_STUDENT_26 = re.compile(
    r"\bstudent-only\b|\bstudents?[ \t]+only\b|\bonly[ \t]+(?:open|available|for)[ \t]+"
    r"(?:to[ \t]+)?students\b"
)
#: the answer says the customer is a student or qualifies: the requirement is met, not failed
_MEETS_26 = re.compile(
    r"\byou(?:'re|[ \t]+are)[ \t]+(?:a[ \t]+|still[ \t]+(?:a[ \t]+)?)?(?:student|enrolled|eligible)"
    r"|\bas[ \t]+a[ \t]+student\b|\byou(?:'d|'ll|[ \t]+do|[ \t]+would|[ \t]+will)?[ \t]+qualify\b"
    r"|\byou[ \t]+(?:meet|clear|pass)\b|\b(?:above|over|exceeds?|clears?|meets?|comfortably)\b"
)
_SCORE_WORD_26 = re.compile(r"\bscore\b|\bfico\b|\bminimum\b|\bmin\b|\d{3}\+")
#: the minimum the answer states: "700+", "needs 640", "its 670 minimum", "a score of 700"
_MINIMUM_26 = re.compile(
    r"(?<![\d.$])(?P<a>\d{3})\+"
    r"|\b(?:needs?|requires?|wants?|minimum(?:[ \t]+score)?(?:[ \t]+(?:is|of))?|min|at[ \t]+least)"
    r"[ \t]+(?:a[ \t]+|an[ \t]+)?(?:(?:credit[ \t]+)?score[ \t]+of[ \t]+)?(?P<b>\d{3})\b"
    r"|(?<![\d.$])(?P<c>\d{3})[ \t]+(?:minimum|min)\b"
    r"|\bmin(?:imum)?[ \t]+(?:credit[ \t]+)?score[ \t]+(?:of[ \t]+|is[ \t]+)?(?P<d>\d{3})\b"
)
#: the customer's own score: "yours is 531", "you are at 676", "your 467 score", "your score is"
_OWN_SCORE_26 = re.compile(
    r"\b(?:yours[ \t]+is|you(?:'re|[ \t]+are)[ \t]+at|your[ \t]+(?:credit[ \t]+)?score[ \t]+is"
    r"|you[ \t]+have|vs\.?[ \t]+(?:your[ \t]+)?)[ \t]*(?:a[ \t]+|an[ \t]+|only[ \t]+|just[ \t]+)?"
    r"(?P<own>\d{3})\b(?!\+)(?=[ \t]*(?:[.;,)\"(]|$|and\b))"
    r"|\byour[ \t]+(?P<own2>\d{3})[ \t]+(?:credit[ \t]+)?score\b"
)
_SCORE_26 = re.compile(r"(?<![\d.$])(?P<n>\d{3})(?![\d.%])")


#: words that put the card forward after all: the answer is no ruling-out
_STILL_26 = re.compile(
    r"\b(?:recommend\w*|best|great|perfect|ideal|worth|go[ \t]+for|apply|pick|choose|good"
    r"[ \t]+fit|fits|works|still|but|however|though|although|anyway|instead|take[ \t]+it|get[ \t]+it"
    r"|grab[ \t]+it|sign[ \t]+up|go[ \t]+with|easy|approv\w*|reason)\b"
)


def _fails_requirement(answer: str) -> bool:
    """The answer to "Why not X?" says the customer fails one of X's requirements (an answer
    that names another card may be about that one: no ruling-out)."""
    if "#" in answer or _STILL_26.search(answer) or _MEETS_26.search(answer):
        return False
    if _HELD_26.search(answer) or _NOT_OPEN_26.search(answer) or _STUDENT_26.search(answer):
        return True
    if _SCORE_WORD_26.search(answer) is None:
        return False
    own = _OWN_SCORE_26.search(answer)
    if own is None:
        return False
    mine = int(own.group("own") or own.group("own2"))
    # the one minimum the answer states; any other score on the line makes it ambiguous
    minima = {
        int(m.group("a") or m.group("b") or m.group("c") or m.group("d"))
        for m in _MINIMUM_26.finditer(answer)
    }
    scores = {int(m.group("n")) for m in _SCORE_26.finditer(answer)} - {mine}
    if len(minima) != 1 or scores != minima:
        return False
    return 300 <= mine < next(iter(minima)) <= 850


def _answer_of(masked: str, end: int) -> str:
    answer = _ANSWER_26.match(masked, end)
    text = answer.group("line").strip(" \t*_") if answer else ""
    if text:
        return text
    after = _NEXT_LINE_26.match(masked, end + (answer.end() - answer.start() if answer else 0))
    return after.group("line") if after else ""


#: what may stand before a card's name on its line for the line to be an entry of a list or a
#: record: a list marker, a record's field ("card:", ``"name": "``), emphasis, "the"
_ENTRY_HEAD_26 = re.compile(
    r"[ \t]*(?:[-*\u2022+]|\d{1,2}[.)])?[ \t]*(?:\*\*|__)?[ \t]*"
    r"(?:\"?(?:card|name|card_name|product)\"?[ \t]*[:=][ \t]*\"?)?(?:the[ \t]+)?"
)
_ENTRY_REST_26 = re.compile(
    r"(?:\*\*|__)?[\"',]*[ \t]*(?:[:\u2014\u2013-]+[ \t]*)?(?P<rest>[^\n]{0,240})"
)
_REASON_LINE_26 = re.compile(
    r"[ \t]*\n[ \t]*\"?(?:reason|why|note|status)\"?[ \t]*[:=][ \t]*\"?(?P<rest>[^\n]{0,240})"
)


#: a list's lead-in or a record's key that rules its entries out, and one that puts them forward
_RULED_LEAD_26 = re.compile(
    r"\bruled[ \t_-]*out\b|\bleft[ \t]+(?:off|out)\b|\bexclu(?:ded|sions?)\b|\bnot[ \t]+eligible\b"
    r"|\bnot[ \t]+recommended\b|\bconsidered[ \t]+and[ \t]+dropped\b|\bdidn't[ \t]+make\b"
    r"|\bcan't[ \t]+(?:get|have|apply)\b|\bnot[ \t]+(?:open|available)[ \t]+to[ \t]+you\b"
    r"|\bineligible\b|\bskipped\b"
)
_PUT_FORWARD_26 = re.compile(
    r"\brecommend\w*|\bpicks?\b|\bshortlist\b|\branked\b|\bopen[ \t]+this\b|\bapply\b|\btop\b"
    r"|\bbest\b|\bsuggest\w*|\bcandidates?\b|\boptions?\b|\balso[ \t]+good\b"
)
_LEAD_SPAN_26 = 1500
#: "nothing is ruled out", "no exclusions", "ruled out: none"
_NEGATED_LEAD_26 = re.compile(r"\b(?:nothing|no|none|not|never|zero)\b[^.\n]{0,16}$")
_NONE_AFTER_26 = re.compile(r"[\"']?[ \t]*[:=]?[ \t]*[\[\"']?[ \t]*(?:none\b|nothing\b|n/a|\]|-)")


def _ruled_out_list(masked: str, line: int) -> bool:
    """The entry starting at ``line`` sits under a lead that rules its list out: the nearest
    lead-in or key before it that names a ruling-out or a putting-forward is a ruling-out."""
    low = max(0, line - _LEAD_SPAN_26)
    ruled = [
        m.end()
        for m in _RULED_LEAD_26.finditer(masked, low, line)
        if not _NEGATED_LEAD_26.search(masked, max(0, m.start() - 24), m.start())
        and not _NONE_AFTER_26.match(masked, m.end())
    ]
    if not ruled:
        return False
    forward = [m.end() for m in _PUT_FORWARD_26.finditer(masked, ruled[-1], line)]
    return not forward


def _entry_answer(masked: str, start: int, end: int) -> str | None:
    """What the entry a card's name leads says of it (``None``: the name leads no entry of a
    ruled-out list)."""
    line = masked.rfind("\n", 0, start) + 1
    if _ENTRY_HEAD_26.fullmatch(masked, line, start) is None:
        return None
    if not _ruled_out_list(masked, line):
        return None
    rest = _ENTRY_REST_26.match(masked, end)
    text = rest.group("rest").strip(" \t\"',*_") if rest else ""
    if text:
        return text
    line_end = masked.find("\n", end)
    reason = _REASON_LINE_26.match(masked, line_end) if line_end >= 0 else None
    return reason.group("rest") if reason else None


def why_not_26(masked: str, recs: Recommendations) -> Recommendations:
    """``recs`` with the cards of "Why not X?" answered by a failed requirement ruled out
    (module docstring). ``masked``: the lower-case text with card names as "#" runs."""
    from replicas.verifiers.compliance.recommend import Recommendations

    if not recs.positive:
        return recs
    positive = dict(recs.positive)
    negated = set(recs.negated)
    changed = False
    # an entry led by the card's name (a list item, a record's card field) that says the
    # customer fails a requirement: "- Prism Rewards - min score 640 vs your 612",
    # "card: X / reason: you have it already"
    for card_id, mention in list(positive.items()):
        answer = _entry_answer(masked, mention.start, mention.end)
        if answer is not None and _fails_requirement(answer):
            del positive[card_id]
            negated.add(card_id)
            changed = True
    if "why not" not in masked:
        return Recommendations(positive, frozenset(negated)) if changed else recs
    for m in _WHY_NOT_26.finditer(masked):
        inside = [c for c, n in positive.items() if m.start() <= n.start < m.end()]
        if not inside or not _fails_requirement(_answer_of(masked, m.end())):
            continue
        for card_id in inside:
            del positive[card_id]
            negated.add(card_id)
            changed = True
    return Recommendations(positive, frozenset(negated)) if changed else recs


# -- labels: "Annual Percentage Rate" is a term ---------------------------------------------------

_TERM_WORDS_26 = frozenset({"annual", "percentage", "rate", "rates", "yield"})


#: a noun after a lower-case phrase that makes it generic: "everyday cash back", "everyday
#: business costs"
_GENERIC_AFTER_26 = re.compile(
    r"[ \t]+(?:back|costs?|spend(?:ing)?|purchases?|expenses?|bills?|needs|use|shopping|buys)"
    r"(?![\w-])(?![ \t]+cards?\b)"
)


#: the words a generic phrase is made of (no brand, issuer or tier word)
_GENERIC_WORDS_26 = frozenset(
    {
        "everyday",
        "cash",
        "business",
        "rewards",
        "travel",
        "flat",
        "simple",
        "daily",
        "general",
        "regular",
        "online",
        "grocery",
        "dining",
        "gas",
        "basic",
        "plain",
    }
)


def labels_26(text: str, mentions: list[NameMention]) -> list[NameMention]:
    """``mentions`` without unknown cards that are the term "Annual Percentage Rate", or a
    lower-case generic phrase ("for everyday cash back")."""
    out = []
    for m in mentions:
        if (
            m.kind == UNKNOWN
            and m.surface.islower()
            and set(m.surface.split()) <= _GENERIC_WORDS_26
            and _GENERIC_AFTER_26.match(text, m.end)
        ):
            continue
        words = m.surface.lower().split()
        if (
            m.kind == UNKNOWN
            and "percentage" in words
            and set(words) <= _TERM_WORDS_26
            and (words[0] == "annual" or text[max(0, m.start - 7) : m.start].lower() == "annual ")
        ):
            continue
        out.append(m)
    return out if len(out) != len(mentions) else mentions


# -- a lower-case "one" used as a word after a capitalised name is no tier -------------------------

_LOWER_TIERS_26 = ("one",)
#: "one" as a word after the name: "one by one", "one of", "one that", "one I mentioned"
_ONE_AS_WORD_26 = re.compile(r"[ \t]+(?:by|of|that|which|i|you|we|is|was|more|or|and)\b")


def tiers_26(index: NameIndex, text: str, mentions: list[NameMention]) -> list[NameMention]:
    """``mentions`` with "Solstice Reset one by one" read as "Solstice Reset" (module
    docstring): the name's last word "one" written lower-case after capitalised words and
    followed by a word that makes it a pronoun or numeral, where the catalog has the name
    without it; and later short references read off that mention moved with it. One pass."""
    out = None
    moved: dict[str, tuple[str, frozenset[str]]] = {}
    for i, m in enumerate(mentions):
        if m.card_id is None or m.kind == UNKNOWN:
            continue
        if m.card_id in moved:
            shorter, short = moved[m.card_id]
            if frozenset(tokens_of(m.surface)) < short:
                if out is None:
                    out = list(mentions)
                out[i] = NameMention(m.start, m.end, m.kind, shorter, m.surface, m.expected)
            continue
        words = m.surface.split()
        if len(words) < 3 or words[-1] not in _LOWER_TIERS_26:
            continue
        if not _ONE_AS_WORD_26.match(text, m.end):
            continue
        head = words[:-1]
        if not all(w[:1].isupper() for w in head if w[:1].isalpha()):
            continue
        shorter_id = index.card_by_words.get(tokens_of(" ".join(head)))
        if shorter_id is None or shorter_id == m.card_id:
            continue
        surface = m.surface[: m.surface.rfind(words[-1])].rstrip()
        if out is None:
            out = list(mentions)
        out[i] = NameMention(
            m.start, m.start + len(surface), m.kind, shorter_id, surface, m.expected
        )
        moved[m.card_id] = (shorter_id, frozenset(tokens_of(surface)))
    return out if out is not None else mentions


# -- ranked notes ----------------------------------------------------------------------------------

#: "#1 " (or "#1 | ", "#1. ", "#1: ", "#1 - ") right before a card's name
_RANK_BEFORE_26 = re.compile(
    r"#(?P<n>[1-9])[ \t]*(?:[|:.)\u2014\u2013-][ \t]*)?(?:\*\*|__)?[ \t]*$"
)
#: a rank leading a note: "#1 " not followed by a card's name
_RANK_NOTE_26 = re.compile(r"(?<![#\w])#(?P<n>[1-9])(?![\d#])[ \t]+(?!#)")
_NOTE_STOP_26 = re.compile(r"[;|\n]")
_NOTE_LEAD_26 = re.compile(r"[ \t]*(?:[a-z]+:[ \t]*)?")
_RANK_NOTE_SPAN_26 = 80
_CA_26 = re.compile(r"\bca[ \t]+$")
_PA_26 = re.compile(r"\bpa[ \t]+$")


def _ranks(masked: str, mentions: tuple[NameMention, ...]) -> dict[str, str]:
    """Rank "N" -> the card named right after "#N" (ranks naming two cards are dropped)."""
    found: dict[str, set[str]] = {}
    for m in mentions:
        if m.card_id is None or m.kind == UNKNOWN:
            continue
        before = _RANK_BEFORE_26.search(masked, max(0, m.start - 12), m.start)
        if before is not None:
            found.setdefault(before.group("n"), set()).add(m.card_id)
    return {n: next(iter(cards)) for n, cards in found.items() if len(cards) == 1}


def _rank_note(claim: Claim, masked: str, ranks: dict[str, str]) -> tuple[str, str] | None:
    """(card, kind) of the ranked note ``claim`` sits in; kind "" keeps the claim's own."""
    low = max(0, claim.start - _RANK_NOTE_SPAN_26)
    stops = [s.end() for s in _NOTE_STOP_26.finditer(masked, low, claim.start)]
    head = stops[-1] if stops else low
    notes = list(_RANK_NOTE_26.finditer(masked, head, claim.start))
    note = notes[-1] if notes else None
    if note is None or "#" in masked[note.end() : claim.start]:
        return None
    # the rank leads its note: nothing before it but a one-word label ("notes:")
    if _NOTE_LEAD_26.fullmatch(masked, head, note.start()) is None:
        return None
    card_id = ranks.get(note.group("n"))
    if card_id is None:
        return None
    lead = masked[note.end() : claim.start]
    if claim.family == "apr" and _CA_26.search(lead):
        return card_id, "cash_advance"
    if claim.family == "apr" and _PA_26.search(lead):
        return card_id, "penalty"
    return card_id, ""


# -- prose after a code block -------------------------------------------------------------------

_FENCE_26 = re.compile(r"```[^\n]*\n.*?\n[ \t]*```", re.S)


def _blocks(masked: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _FENCE_26.finditer(masked)] if "```" in masked else []


class _Outside:
    """The named mentions in text order, each with the last card named outside any code block
    at or before it (computed once, so each claim is read in logarithmic time)."""

    def __init__(
        self, masked: str, mentions: tuple[NameMention, ...], blocks: list[tuple[int, int]]
    ) -> None:
        starts = [a for a, _ in blocks]
        self.masked = masked
        self.blocks = blocks
        self.starts = starts
        self.named = [m for m in mentions if m.card_id is not None]
        self.ends = [m.end for m in self.named]
        self.inside: list[bool] = []
        self.outside: list[str | None] = []
        last: str | None = None
        for m in self.named:
            k = bisect_right(starts, m.start) - 1
            inside = k >= 0 and m.start < blocks[k][1]
            self.inside.append(inside)
            if not inside and m.kind != UNKNOWN:
                last = m.card_id
            self.outside.append(last)

    def owner(self, claim: Claim) -> str | None:
        """The card prose after a code block is about: a context-bound claim whose card was
        named last inside a block goes to the card named last outside any block before it."""
        if claim.binding != "context" or len(claim.cards) != 1:
            return None
        i = bisect_right(self.ends, claim.start) - 1
        if i < 0 or self.named[i].card_id != claim.cards[0] or not self.inside[i]:
            return None
        # the block holding the last card ends before the claim
        k = bisect_right(self.starts, self.named[i].start) - 1
        if self.blocks[k][1] > claim.start:
            return None
        # ... under a ruling-out key of the block (a payload's "ruled_out" list), not a pick
        a = self.blocks[k][0]
        line = self.masked.rfind("\n", a, self.named[i].start) + 1
        if not _ruled_out_list(self.masked[a:], line - a):
            return None
        owner = self.outside[i]
        return owner if owner is not None and owner != claim.cards[0] else None


def revise_26(
    extraction: Extraction,
    ranks: bool,
    results: bool,
    labels: bool,
    offers: bool,
    fees: bool,
) -> Extraction:
    """The extraction with ruleset 26's readings (module docstring)."""
    if not extraction.claims:
        return extraction
    masked = extraction.masked
    ranked = _ranks(masked, extraction.mentions) if ranks and "#" in masked else {}
    blocks = _blocks(masked) if ranks else []
    outside = _Outside(masked, extraction.mentions, blocks) if blocks else None
    quotes = _quotes(masked) if labels else []
    out = list(extraction.claims)
    denials: list[Claim] = []
    changed = False
    for i, claim in enumerate(out):
        new: Claim | None = None
        if claim.cards and (
            (results and _is_result(claim, masked))
            or (labels and _is_label(claim, masked))
            or (fees and (_is_avoided(claim, masked) or _is_not_denial(claim, masked)))
            or (labels and _is_rejected(claim, masked, quotes))
        ):
            new = replace(claim, cards=())
        elif offers and (
            ("no 0" in masked[claim.start : claim.start + 4])
            or masked[max(0, claim.start - 3) : claim.start] == "no "
        ):
            new = _no_offer(claim, masked)
            if new is not None and new.family == "fee" and not new.is_none:
                # the fee after the denial is checked, and so is the denial itself
                denial = _no_intro(claim, masked)
                if denial is not None:
                    denials.append(denial)
        if new is None and fees:
            new = _as_fee(claim, masked)
        if (
            new is None
            and fees
            and claim.variability == "fixed"
            and _VAR_26.match(masked, claim.end)
        ):
            new = replace(claim, variability="variable")
        if new is None and outside is not None:
            owner = outside.owner(claim)
            if owner is not None:
                # one card for all of it (per-figure "either card" would let a text mix the two)
                new = replace(claim, cards=(owner,))
        if new is None and ranked:
            note = _rank_note(claim, masked, ranked)
            if note is not None:
                card_id, kind = note
                new = replace(claim, cards=(card_id,), binding="clause")
                if kind:
                    new = replace(new, kind=kind, kinds=frozenset({kind}))
        if new is not None and new != claim:
            out[i] = new
            changed = True
    if denials:
        out = sorted([*out, *denials], key=lambda c: (c.start, c.end))
    return replace(extraction, claims=tuple(out)) if changed else extraction
