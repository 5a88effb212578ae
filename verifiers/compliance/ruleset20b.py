"""Ruleset 20, its second part: a figure someone else stated, or that the answer denies, then
corrected (``beliefs_20``; issue 13, from the s23 blind set's tuning part).

"You said the late fee was $25; it's $41.", "You mentioned $195 for the annual fee, but it's
actually $0.", "the fee isn't USD 695, it's USD 39", "as you thought", "a friend told you": a
figure the answer attributes to someone else, or denies, is not the card's claim when a figure of
the same term, the same card and another value corrects it in its sentence or the next; the
correcting figure stays and is checked. The rest of ruleset 20 is in ``ruleset20``.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import FEE_CLAIM
from replicas.verifiers.compliance.ruleset20 import word_starts as _word_starts
from replicas.verifiers.compliance.values import NONE, USD

if TYPE_CHECKING:
    from replicas.verifiers.compliance.claims import Claim, Extraction

# == beliefs ======================================================================================

# someone else's figure: "you said", "you mentioned", "as you thought", "you were told", "a
# friend told you", "you may have seen online", "some sites list", "according to a forum"
_ATTRIBUTED_YOU_20 = re.compile(
    r"you(?:[ \t]+(?:may|might|probably|also|possibly|originally|first))?(?:[ \t]+(?:have|'ve"
    r"|had|\u2019ve))?[ \t]+(?:said|mentioned|thought|heard|read|saw|seen|quoted|wrote|noted"
    r"|cited|assumed|believed|expected|figured|guessed|remembered|recalled|were[ \t]+(?:told"
    r"|quoted|given|shown)|got[ \t]+quoted|been[ \t]+(?:told|quoted|given))\b"
)
_ATTRIBUTED_TOLD_20 = re.compile(r"told[ \t]+you\b")
# someone else by a kind of person or source ("a friend told you", "some sites list"), each
# pattern opening with its noun (a literal, searched fast, and only when the text holds it)
_PERSON_VERB_20 = (
    r"s?(?:[ \t]+[a-z]+)?[ \t]+(?:said|says|say|told|mentioned|thinks|think|thought|quoted"
    r"|claimed|claims|swears|swore)\b"
)
_SOURCE_VERB_20 = (
    r"s?[ \t]+(?:said|says|say|lists?|listed|claims?|claimed|quotes?|quoted|shows?|showed"
    r"|showing|had|has)\b"
)
_OTHERS_20: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (noun, re.compile(re.escape(noun) + verbs))
    for nouns, verbs in (
        (
            ("friend", "colleague", "coworker", "co-worker", "relative", "neighbor", "neighbour",
             "parent", "sibling", "brother", "sister", "mate", "partner", "family"),
            _PERSON_VERB_20,
        ),
        (("site", "blog", "forum", "review", "article", "ad", "advert", "post"), _SOURCE_VERB_20),
    )
    for noun in nouns
)  # fmt: skip
# "seen online", "read somewhere", "according to a forum"
_PLACES_20 = ("online", "somewhere", "elsewhere")
_SEEN_BEFORE_20 = re.compile(r"\b(?:seen|saw|read|found|listed|quoted|heard)[ \t]+$")
_ACCORDING_20 = re.compile(
    r"according[ \t]+to[ \t]+(?:a|some|your|the|one)[ \t]+(?:friend|site|website|blog|forum"
    r"|article|review|post)\b"
)


def _attributions(masked: str) -> list[int]:
    """Where the text attributes a figure to someone else ("you said", "told you", "a friend
    told you", "some sites list", "seen online"), sorted; each pattern opens with a literal
    (or runs behind a literal gate), and the word start is checked in code."""
    cues = [
        m.start()
        for pattern in (_ATTRIBUTED_YOU_20, _ATTRIBUTED_TOLD_20)
        for m in pattern.finditer(masked)
        if _word_starts(masked, m.start())
    ]
    for noun, pattern in _OTHERS_20:
        if noun in masked:
            cues += [
                m.start()
                for m in pattern.finditer(masked)
                if noun == "site" or _word_starts(masked, m.start())
            ]
    for place in _PLACES_20:
        pos = masked.find(place)
        while pos >= 0:
            if _SEEN_BEFORE_20.search(masked, max(0, pos - 12), pos) is not None:
                cues.append(pos)
            pos = masked.find(place, pos + len(place))
    if "according" in masked:
        cues += [m.start() for m in _ACCORDING_20.finditer(masked)]
    return sorted(cues)


# a figure denied right before it: "isn't $695", "not the 395 bucks", "rather than 18.49%" (read
# only where the 48 characters before the figure hold a denial's word)
_DENIAL_20 = re.compile(
    r"\b(?:isn['\u2019]t|is[ \t]+not|wasn['\u2019]t|was[ \t]+not|not|rather[ \t]+than"
    r"|instead[ \t]+of|no[ \t]+longer)[ \t]+(?:(?:the|a|an|about|around|quite|just|really"
    r"|actually|some)[ \t]+)?$"
)
_DENIAL_WORDS_20 = ("not", "n't", "n\u2019t", "rather", "instead", "longer")
# where a clause ends: "...; it's $41", "..., but it's actually $0", "... - the fee is $0"
_CLAUSE_BREAK_20 = re.compile(
    r"[;:!?\n]|\.(?!\d)|[ \t][-\u2013\u2014][ \t]|\u2014|,[ \t]*(?=(?:but|it|its|it's|the|that"
    r"|this|which|actually|in[ \t]+fact|however|though|whereas|yet|so|while)\b)"
    r"|\b(?:but|however|whereas|though|although)\b"
)
# the other person's figure confirmed: "You said $25 - that's right"
_CONFIRMED_20 = re.compile(
    r"\b(?:that(?:'s|\u2019s|[ \t]+is|[ \t]+was)[ \t]+(?:right|correct|accurate|spot[ \t]+on"
    r"|it|true)|(?:you(?:'re|\u2019re|[ \t]+are|[ \t]+were)|they(?:'re|[ \t]+are|[ \t]+were))"
    r"[ \t]+(?:right|correct|spot[ \t]+on)|correct|exactly|yes|yep|indeed|confirmed)\b"
)
# a dollar figure no fee word types, after a copula: "but it's actually $0", "it's 41 dollars"
_BARE_FEE_20 = re.compile(
    r"\b(?:it['\u2019]s|it[ \t]+is|is|it[ \t]+was|was|costs?|runs?|charges?)(?:[ \t]+(?:actually"
    r"|really|only|just|now|in[ \t]+fact|currently|simply|still|truly))?[ \t]+(?:\$[ \t]?(?P<d>\d"
    r"{1,4}(?:,\d{3})?(?:\.\d\d)?)(?![\d,%])|(?P<w>\d{1,4})[ \t]+(?:dollars|bucks)\b)"
)
_CLAUSE_REACH_20 = 200
# how far from a belief its correction may be (ruleset 17's reach), within the next unit
_BELIEF_REACH_20 = 300


def _clause_of(masked: str, start: int, end: int) -> tuple[int, int]:
    """The clause holding ``[start, end)``: from the last clause break before it to the first
    after it (200 characters either side at most)."""
    a = max(0, start - _CLAUSE_REACH_20)
    for m in _CLAUSE_BREAK_20.finditer(masked, a, start):
        a = m.end()
    after = _CLAUSE_BREAK_20.search(masked, end, min(len(masked), end + _CLAUSE_REACH_20))
    return a, after.start() if after else min(len(masked), end + _CLAUSE_REACH_20)


def _someone_elses(masked: str, claim: Claim, cues: list[int]) -> bool:
    """Whether the response denies the claim's figure right before it or attributes it to
    someone else in its clause (``cues``: where attributions start, sorted; the clause is read
    only when one is near)."""
    floor = max(0, claim.start - 48)
    before = masked[floor : claim.start]
    if any(w in before for w in _DENIAL_WORDS_20):
        denial = _DENIAL_20.search(before)
        # a match at the window's cut may be the tail of a word ("cannot"): not a denial
        if denial is not None and (denial.start() > 0 or floor == 0):
            return True
    k = bisect_left(cues, claim.start - _CLAUSE_REACH_20)
    if k == len(cues) or cues[k] >= claim.end + _CLAUSE_REACH_20:
        return False
    a, b = _clause_of(masked, claim.start, claim.end)
    k = bisect_left(cues, a)
    return k < len(cues) and cues[k] < b


def _differs(claim: Claim, other: Claim) -> bool:
    """Whether ``other`` states another value of the claim's term."""
    return (
        other.is_none != claim.is_none
        or other.low != claim.low
        or other.high != claim.high
        or (None not in (other.months, claim.months) and other.months != claim.months)
    )


def _same_term(claim: Claim, other: Claim) -> bool:
    """Whether ``other`` is about the claim's term: its family, a kind either admits, the same
    cards (or none yet)."""
    return (
        other.family == claim.family
        and (claim.kind == other.kind or not claim.admissible.isdisjoint(other.admissible))
        and other.cards in (claim.cards, ())
    )


def beliefs_20(extraction: Extraction) -> Extraction:
    """The extraction without the figures the response attributes to someone else or denies
    when a figure of their kind corrects them in their unit (sentence, list item) or the next;
    the correcting figure takes their card if it had none, and a bare dollar figure after a
    copula ("but it's actually $0") is read as that term (module docstring). A figure confirmed
    ("that's right") or left uncorrected stays the card's claim."""
    claims = list(extraction.claims)
    units = extraction.units
    if not claims or not units:
        return extraction
    masked = extraction.masked
    cues = _attributions(masked)
    believed = [bool(c.cards) and _someone_elses(masked, c, cues) for c in claims]
    if not any(believed):
        return extraction
    starts = [c.start for c in claims]
    dropped: set[int] = set()
    changed: dict[int, Claim] = {}
    added: list[Claim] = []
    for i, claim in enumerate(claims):
        if not believed[i]:
            continue
        k = bisect_right(units, (claim.start, 1 << 62)) - 1
        if k < 0:
            continue
        lo = max(units[k][0], claim.start - _BELIEF_REACH_20)
        hi = min(
            units[k + 1][1] if k + 1 < len(units) else units[k][1],
            claim.end + _BELIEF_REACH_20,
        )
        tail = masked[claim.end : min(hi, claim.end + 80)]
        if _CONFIRMED_20.search(tail) is not None:
            continue
        best: int | None = None
        for j in range(bisect_left(starts, lo), bisect_left(starts, hi)):
            other = claims[j]
            if j == i or believed[j] or j in dropped:
                continue
            if not (_same_term(claim, other) and _differs(claim, other)):
                continue
            gap = masked[min(claim.end, other.end) : max(claim.start, other.start)]
            if _CONFIRMED_20.search(gap) is not None:
                continue
            if best is None or (j > i and best < i):
                best = j
        if best is not None:
            dropped.add(i)
            other = changed.get(best, claims[best])
            if not other.cards:
                changed[best] = replace(other, cards=claim.cards, binding=claim.binding)
            continue
        if claim.family != FEE_CLAIM or claim.unit not in (USD, NONE):
            continue
        bare = _bare_fee(masked, claim.end, hi, starts, claims)
        if bare is not None:
            start, end, value = bare
            dropped.add(i)
            added.append(
                replace(
                    claim,
                    start=start,
                    end=end,
                    unit=USD,
                    low=value,
                    high=value,
                    min_usd=None,
                    months=None,
                    is_none=False,
                    text=extraction.masked[start:end],
                )
            )
    if not dropped:
        return extraction
    kept = [changed.get(i, c) for i, c in enumerate(claims) if i not in dropped]
    out = sorted([*kept, *added], key=lambda c: (c.start, c.end))
    return replace(extraction, claims=tuple(out))


def _bare_fee(
    masked: str, a: int, b: int, starts: list[int], claims: list[Claim]
) -> tuple[int, int, float] | None:
    """The first dollar figure in ``[a, b)`` that follows a copula and is no claim's figure:
    its span and value."""
    for m in _BARE_FEE_20.finditer(masked, a, b):
        group = "d" if m.group("d") is not None else "w"
        start, end = m.start(group) - (1 if group == "d" else 0), m.end()
        j = bisect_right(starts, end) - 1
        if j >= 0 and claims[j].end > start:
            continue  # a figure the reader typed already
        if j + 1 < len(claims) and claims[j + 1].start < end:
            continue
        return start, end, float(m.group(group).replace(",", ""))
    return None


__all__ = ["beliefs_20"]
