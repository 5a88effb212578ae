"""Ruleset 8's readings: approximate figures, cards ruled out by their requirement, picks by
position ("the first card listed").

Each fixes a class of phrasing a blind evalset (issue 13) showed rulesets 3-7 misread:

* An approximate APR ("about 18% to 24%", "roughly 19%", "~25%", "18% to 24% in round
  numbers") is a restatement, not a new figure: it is wrong only if it is not close to the card's
  rate. *Close* means within ``APPROXIMATE_PP`` = 1 percentage point of the catalog value (each
  end of a range): rounding a two-decimal rate to a whole percent, up or down, moves it by less
  than that, while "about 12%" for 18.49% is still a wrong APR.
* A card the response rules out by its requirement or in words rulesets 3-7 do not know ("the X
  is only open to students, so I've ruled it out", "the X is out: it needs a 700 score", "it's
  off the table") is not recommended, even when it opens its sentence under a recommending
  lead-in (which ruleset 4 reads as a list item under that lead-in).
* A pick by position ("My pick is the first card listed", "I'd go with the second one", "the
  card in the left column is the one") recommends the card in that position: the n-th card the
  response named before the sentence (the last table before it, if any: its rows or columns).

Functions of the masked text (card names blanked to "#") and the extraction; no state.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ahocorasick_rs import AhoCorasick, MatchKind

from replicas.verifiers.compliance import lexicon as lex
from replicas.verifiers.compliance.mentions import EXACT, NameMention

if TYPE_CHECKING:
    from replicas.verifiers.compliance.claims import Claim, Extraction
    from replicas.verifiers.compliance.recommend import Recommendations

#: How far (percentage points) an approximate APR may lie from the catalog's rate.
APPROXIMATE_PP = 1.0

_APPROX_BEFORE = re.compile(
    r"(?:\b(?:about|around|roughly|approximately|approx\.?|circa|nearly|almost|close[ \t]{1,3}to"
    r"|(?:just|a[ \t]{1,3}(?:bit|touch|little))[ \t]{1,3}(?:under|over|below|above)"
    r"|in[ \t]{1,3}the[ \t]{1,3}(?:region|neighbou?rhood|ballpark)[ \t]{1,3}of"
    r"|something[ \t]{1,3}like|ballpark(?:[ \t]{1,3}of)?"
    r"|in[ \t]{1,3}round[ \t]{1,3}(?:numbers|figures|terms)[ \t]*[,:]?)"
    r"|~|\u2248)[ \t]*$"
)
_APPROX_AFTER = re.compile(
    r"[ \t]*(?:-?ish\b|or[ \t]{1,3}so\b|give[ \t]{1,3}or[ \t]{1,3}take\b"
    r"|[(,]?[ \t]*(?:in[ \t]{1,3})?round(?:ed)?(?:[ \t]{1,3}(?:off|up|down))?"
    r"(?:[ \t]{1,3}(?:numbers|figures|terms))?\b|[(,]?[ \t]*approx(?:imately|\.)?)"
)
_LOOK_BACK = 48
# every match of _APPROX_BEFORE holds one of these (a cheap test before the pattern, which the
# regex engine tries at every character of its window)
_APPROX_HINTS = (
    "about", "round", "roughly", "approx", "circa", "nearly", "almost", "close", "under", "over",
    "below", "above", "region", "neighbo", "ballpark", "like", "~", "\u2248",
)  # fmt: skip


def is_approximate(masked: str, claim: Claim) -> bool:
    """The figure is marked as approximate by the words right before or after it."""
    before = masked[max(0, claim.start - _LOOK_BACK) : claim.start]
    return (
        any(w in before for w in _APPROX_HINTS) and _APPROX_BEFORE.search(before) is not None
    ) or _APPROX_AFTER.match(masked, claim.end) is not None


def close_enough(
    claim: Claim, rates: Sequence[float], low: float | None, high: float | None
) -> bool:
    """An approximate APR close to the card's: a range to its purchase range (each end), a
    single rate to any of its rates."""
    if claim.low is None or claim.high is None:
        return False
    if claim.low != claim.high:
        return (
            low is not None
            and high is not None
            and abs(claim.low - low) <= APPROXIMATE_PP
            and abs(claim.high - high) <= APPROXIMATE_PP
        )
    return any(abs(claim.low - rate) <= APPROXIMATE_PP for rate in rates)


# -- ruled out -------------------------------------------------------------------------------

_PRONOUN = r"(?:it|this|that|them|this[ \t]{1,3}one|that[ \t]{1,3}one|#)"
_GROUPS = r"(?:students?|business(?:es|[ \t]{1,3}owners)?|members|military|veterans)"
RULED_OUT_8 = re.compile(
    r"\b(?:"
    + "|".join(
        [
            rf"rul(?:e|es|ed|ing)[ \t]{{1,3}}(?:{_PRONOUN}[ \t]{{1,3}})?out\b",
            rf"(?:left|leave|leaving|set|setting|put|putting|drop(?:ped)?|cross(?:ed)?)[ \t]{{1,3}}"
            rf"{_PRONOUN}[ \t]{{1,3}}(?:aside|off|out)\b",
            rf"dropped[ \t]{{1,3}}{_PRONOUN}\b",
            r"off[ \t]{1,3}the[ \t]{1,3}(?:table|list|shortlist)\b",
            r"out[ \t]{1,3}of[ \t]{1,3}(?:the[ \t]{1,3}running|contention|the[ \t]{1,3}question)\b",
            r"(?:not|isn't|is[ \t]{1,3}not)[ \t]{1,3}(?:an[ \t]{1,3})?option\b",
            r"(?:is|it's|that's)[ \t]{1,3}out\b(?=[ \t]*(?:[.,;:!\u2014\u2013(-]|because|since|as\b"
            r"|for[ \t]{1,3}you|$))",
            r"(?:wouldn't|won't|don't|can't|cannot|do[ \t]{1,3}not|would[ \t]{1,3}not)[ \t]{1,3}"
            r"(?:qualify|be[ \t]{1,3}(?:eligible|approved)|get[ \t]{1,3}(?:it|approved))\b",
            rf"(?:only|just)[ \t]{{1,3}}(?:open|available|offered|for)[ \t]{{1,3}}(?:to[ \t]{{1,3}})?"
            rf"{_GROUPS}\b",
            rf"{_GROUPS}[ \t-]{{1,3}}only\b",
            rf"(?:reserved|restricted|limited)[ \t]{{1,3}}(?:to|for)[ \t]{{1,3}}{_GROUPS}\b",
            r"(?:needs?|requires?|required|needing|requiring)[ \t]{1,3}(?:an?[ \t]{1,3}|at[ \t]{1,3}"
            r"least[ \t]{1,3}(?:an?[ \t]{1,3})?)?(?:(?:credit|fico)[ \t]{1,3})?(?:score[ \t]{1,3}"
            r"(?:of[ \t]{1,3})?)?\d{3}\b",
            r"(?:needs?|requires?|required)[ \t]{1,3}(?:you[ \t]{1,3}to[ \t]{1,3}be[ \t]{1,3}an?"
            r"[ \t]{1,3}student|student[ \t]{1,3}status|enrol?lment)\b",
            r"(?:already|still)[ \t]{1,3}(?:hold|have|carry|own)[ \t]{1,3}(?:it|one|#)\b",
        ]
    )
    + r")"
)

# the words RULED_OUT_8's alternatives open with (their literal starts; ``ruleset19`` searches
# it only where one starts)
RULED_OUT_STARTS_8 = (
    "rul", "left", "leav", "set", "put", "drop", "cross", "off", "out", "not", "isn't", "is",
    "it's", "that's", "wouldn't", "won't", "don't", "can't", "cannot", "do", "would", "only",
    "just", "student", "business", "members", "military", "veterans", "reserved", "restricted",
    "limited", "need", "requir", "already", "still",
)  # fmt: skip

# every phrase of RULED_OUT_8 holds one of these (a cheap test before the expression)
_RULED_OUT_HINTS = (
    "rul",
    "aside",
    "off",
    "out",
    "option",
    "qualif",
    "eligib",
    "approv",
    "get it",
    "only",
    "just",
    "reserved",
    "restricted",
    "limited",
    "need",
    "requir",
    "already",
    "still",
    "dropped",
)


def _rules_out(unit_text: str) -> bool:
    return (
        any(hint in unit_text for hint in _RULED_OUT_HINTS)
        and RULED_OUT_8.search(unit_text) is not None
        and not _recommends(unit_text)
    )


def ruled_out_units(
    masked: str,
    extraction: Extraction,
    recs: Recommendations,
    positions: Sequence[tuple[int, int, str]] = (),
) -> Recommendations:
    """``recs`` with the cards ruled out by a sentence that names only them and says so in
    ruleset 8's words (``RULED_OUT_8``), unless the sentence also recommends. ``positions``:
    the text's picks by position (``position_phrases``)."""
    from replicas.verifiers.compliance.recommend import Recommendations

    by_unit = _mentions_by_unit(extraction)
    positive = dict(recs.positive)
    negated = set(recs.negated)
    # only where ruling out changes a verdict: the sentence of a card read as recommended, every
    # sentence when the response names one card (its only card is recommended unless ruled out)
    # or picks one by position (a ruled-out card is never picked)
    distinct = {m.card_id for m in extraction.mentions if m.card_id is not None}
    every = len(distinct) == 1 or bool(positions)
    starts = {m.start for m in positive.values()}
    changed = False
    for (start, end), mentions in by_unit.items():
        cards = {m.card_id for m in mentions}
        if len(cards) != 1 or None in cards:
            continue
        if not every and not any(start <= s < end for s in starts):
            continue
        if not _rules_out(masked[start:end]):
            continue
        (card_id,) = cards
        assert card_id is not None
        negated.add(card_id)
        kept = positive.get(card_id)
        if kept is not None and start <= kept.start < end:
            del positive[card_id]
        changed = True
    return Recommendations(positive, frozenset(negated)) if changed else recs


def _recommends(text: str) -> bool:
    return bool(lex.RECOMMEND_MORE.search(text) or lex.RECOMMEND_7.search(text))


def _mentions_by_unit(extraction: Extraction) -> dict[tuple[int, int], list[NameMention]]:
    units = extraction.units
    out: dict[tuple[int, int], list[NameMention]] = {}
    k = 0
    for mention in sorted(extraction.mentions, key=lambda m: m.start):
        while k < len(units) and units[k][1] <= mention.start:
            k += 1
        if k < len(units) and units[k][0] <= mention.start:
            out.setdefault(units[k], []).append(mention)
    return out


# -- picks by position -----------------------------------------------------------------------

_ORDINALS = {
    "first": 0,
    "1st": 0,
    "top": 0,
    "left": 0,
    "leftmost": 0,
    "left-hand": 0,
    "second": 1,
    "2nd": 1,
    "third": 2,
    "3rd": 2,
    "fourth": 3,
    "4th": 3,
    "last": -1,
    "final": -1,
    "bottom": -1,
    "right": -1,
    "rightmost": -1,
    "right-hand": -1,
}
# a position in a sequence ("the second card") and an edge of a table ("the left column"); the
# edges only with a table word: "the right card for you" and "the top card for travel" praise a
# card, they do not point at one
_SEQUENCE = r"(?:first|1st|second|2nd|third|3rd|fourth|4th|last|final)"
_EDGE = r"(?:top|bottom|left(?:most|-hand)?|right(?:most|-hand)?)"
_ORDINAL_WORD = rf"({_SEQUENCE}|{_EDGE})"
ORDINAL_PICK = re.compile(
    rf"\bthe[ \t]{{1,3}}(?:{_SEQUENCE}[ \t]{{1,3}}(?:(?:one|card|row|column|entry|option)"
    rf"(?:[ \t]{{1,3}}listed)?|listed)\b|{_EDGE}[ \t]{{1,3}}(?:row|column|entry)\b)"
    rf"|\b(?:card|one)[ \t]{{1,3}}in[ \t]{{1,3}}the[ \t]{{1,3}}{_ORDINAL_WORD}[ \t]{{1,3}}"
    rf"(?:column|row)\b"
)
_WORD = re.compile(r"[a-z0-9]+(?:-hand)?")


def _ordinal_of(phrase: str) -> str:
    """The ordinal word of a phrase ``ORDINAL_PICK`` matched."""
    return next(w for w in _WORD.findall(phrase.lower()) if w in _ORDINALS)


_PICK_VERB = re.compile(
    r"\b(?:get|grab|pick|choose|take|apply[ \t]{1,3}for|go[ \t]{1,3}(?:with|for))[ \t]{1,3}"
    r"(?:the[ \t]{1,3})?(?:card[ \t]{1,3}in[ \t]{1,3}the[ \t]{1,3})?" + _ORDINAL_WORD
)
_TABLE_LINE = re.compile(r"^[ \t]*\|.*\|[ \t]*$", re.MULTILINE)


def ordinal_picks(
    masked: str,
    extraction: Extraction,
    recs: Recommendations,
    positions: Sequence[tuple[int, int, str]] = (),
) -> Recommendations:
    """``recs`` with the cards a sentence that names no card picks by position. The clause of
    the position must recommend (``lex.RECOMMEND_MORE``, ``lex.RECOMMEND_7`` or an imperative
    "go with the second one") and negate nothing; a question picks nothing. The picked card's
    "mention" is the phrase of the position, so a finding quotes it. ``positions``: the
    text's phrases of position (``position_phrases``)."""
    from replicas.verifiers.compliance.recommend import Recommendations

    if not positions:
        return recs
    named = [m for m in extraction.mentions if m.card_id is not None]
    if not named:
        return recs
    by_unit = _mentions_by_unit(extraction)
    units = extraction.units
    unit_starts = [u[0] for u in units]
    positive = dict(recs.positive)
    changed = False
    for at, to, word in positions:
        k = bisect_right(unit_starts, at) - 1
        if k < 0 or to > units[k][1] or units[k] in by_unit:
            continue  # a sentence that names a card is read by the other rules
        start, end = units[k]
        unit_text = masked[start:end]
        if "?" in unit_text:
            continue
        clause_start = _clause_start(unit_text, at - start)
        clause = _clause(unit_text, at - start, to - start)
        if not (_recommends(clause) or _PICK_VERB.search(clause)):
            continue
        if lex.NEGATION.search(clause) or lex.CONTRAST_MORE.search(
            clause, 0, max(0, at - start - clause_start)
        ):
            continue
        card_id = _card_at(masked, named, start, _ORDINALS[word])
        if card_id is None or card_id in recs.negated or card_id in positive:
            continue
        positive[card_id] = NameMention(at, to, EXACT, card_id, masked[at:to])
        changed = True
    return Recommendations(positive, recs.negated) if changed else recs


_ORDINAL_BASES = (
    "first",
    "1st",
    "second",
    "2nd",
    "third",
    "3rd",
    "fourth",
    "4th",
    "last",
    "final",
    "top",
    "bottom",
    "left",
    "right",
)
_ORDINAL_AUTOMATON = AhoCorasick(list(_ORDINAL_BASES), matchkind=MatchKind.Standard)
_IN_THE_BEFORE = re.compile(r"(?:card|one)[ \t]{1,3}in[ \t]{1,3}the[ \t]{1,3}$")


def position_phrases(masked: str) -> list[tuple[int, int, str]]:
    """Every phrase of ``ORDINAL_PICK`` in ``masked`` as (start, end, ordinal word), found from
    the ordinal words with ``str.find`` (a regular expression without a literal prefix would try
    every position of the text)."""
    # (every occurrence of every base word, in one Aho-Corasick pass: the phrase found from an
    # occurrence depends on its position only, so the order they are visited in is immaterial)
    found: dict[int, tuple[int, int, str]] = {}
    seen: set[int] = set()
    for _, pos, _ in _ORDINAL_AUTOMATON.find_matches_as_indexes(masked, overlapping=True):
        if pos in seen:
            continue  # (what an occurrence finds depends on its position only)
        seen.add(pos)
        if pos == 0 or not masked[pos - 1].isalnum():
            before = _IN_THE_BEFORE.search(masked, max(0, pos - 24), pos)
            if before is not None:
                candidates = [before.start(), pos]
            elif masked.endswith("the ", 0, pos):
                candidates = [pos - 4, pos]
            else:
                candidates = [pos]
            for at in candidates:
                match = ORDINAL_PICK.match(masked, at)
                if match is not None:
                    word = _ordinal_of(match.group())
                    found.setdefault(match.start(), (match.start(), match.end(), word))
                    break
    return [found[k] for k in sorted(found)]


def _clause_start(text: str, pos: int) -> int:
    cuts = [m.start() for m in lex.CLAUSE_BOUNDARY.finditer(text) if m.start() <= pos]
    return cuts[-1] if cuts else 0


def _clause(text: str, start: int, end: int) -> str:
    a = _clause_start(text, start)
    after = [m.start() for m in lex.CLAUSE_BOUNDARY.finditer(text) if m.start() >= end]
    return text[a : after[0] if after else len(text)]


def _card_at(masked: str, named: Sequence[NameMention], before: int, index: int) -> str | None:
    """The card in position ``index`` (-1: the last) of those named before ``before``: the
    rows or columns of the last table before it if there is one, else the whole text before."""
    mention = _mention_at(masked, named, before, index)
    return None if mention is None else mention.card_id


def _mention_at(
    masked: str, named: Sequence[NameMention], before: int, index: int
) -> NameMention | None:
    tables = list(_TABLE_LINE.finditer(masked, 0, before))
    if tables:
        # the last run of consecutive table lines before the sentence
        last = tables[-1]
        first = last
        for m in reversed(tables[:-1]):
            if masked[m.end() : first.start()].strip():
                break
            first = m
        order = _distinct([m for m in named if first.start() <= m.start < last.end()])
    else:
        order = _distinct([m for m in named if m.start < before])
    if not order or index >= len(order):
        return None
    return order[index]


def _distinct(mentions: Sequence[NameMention]) -> list[NameMention]:
    """The first mention of each product named (a card, or an unknown name by its words)."""
    out: list[NameMention] = []
    seen: set[str] = set()
    for mention in mentions:
        key = mention.card_id or "?" + mention.surface.lower()
        if key not in seen:
            seen.add(key)
            out.append(mention)
    return out


_SUBJECT = re.compile(
    rf"[\s*_>#:-]*(?:(?:for|on|with|as[ \t]{{1,3}}for|about)[ \t]{{1,3}})?the[ \t]{{1,3}}"
    rf"({_SEQUENCE})[ \t]{{1,3}}(?:card|one|option)\b(?:'s)?"
)


def positional_subject(
    masked: str, start: int, end: int, mentions: Sequence[NameMention]
) -> tuple[str, ...] | None:
    """The card a sentence that names none opens by position ("For the first card, the late
    fee is up to $41", "The second one charges 3% abroad"): ``(card_id,)``, ``()`` when that
    position holds a name that is no catalog card (its figures then bind to nothing), ``None``
    when the sentence does not open that way or the position holds no card."""
    match = _SUBJECT.match(masked, start, end)
    if match is None or len(ORDINAL_PICK.findall(masked, start, end)) > 1:
        return None  # no position, or several ("the first one ..., the second one ...")
    mention = _mention_at(masked, mentions, start, _ORDINALS[match.group(1).lower()])
    if mention is None:
        return None
    return (mention.card_id,) if mention.card_id is not None else ()


__all__ = [
    "APPROXIMATE_PP",
    "ORDINAL_PICK",
    "RULED_OUT_8",
    "RULED_OUT_STARTS_8",
    "close_enough",
    "is_approximate",
    "ordinal_picks",
    "position_phrases",
    "positional_subject",
    "ruled_out_units",
]
