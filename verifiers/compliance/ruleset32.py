"""Ruleset 32's readings of figures and recommendations, for precision (``ruleset32b`` holds
``names_32``):

* ``kinds_32``: a fee figure the words around it leave several fees open for, and that no fee
  word governs ("$960, no fee", "Fee 3% (minimum $5): $240", "($0 vs $150)"), is unverified;
* ``after_first_32``: "($95 after the first year)" is the annual fee, not the first year's;
* ``held_32``: a held card whose first mention the answer makes the customer's ("you already
  have the X", "you've already got four cards - A, B and X", a list led by "Keep") is put forward
  only by words of getting a card ("apply", "add", "open"), not by a review's ("best", "strong").

``kinds_32`` and ``after_first_32`` apply to the claims as checked against the catalog
(``checked_32``); the disclosure rules keep the claims as extracted.

Six more readings were written, attacked and dropped (RULESETS.md, "Ruleset 32", has the table):
``passing_32`` (a figure after a card named in passing may be the card named before it's: the
"passing" card was often the one the text was about - "I'd add a second card (the B earns 2x).
It has no annual fee."), ``supposed_32`` (an example rate, "say cust's rate is 24.74%": the
sentence tied the rate to the card in words no list covers), ``card_with_32``, ``monthly_32``,
``leads_32`` and ``quoted_32``. Each was worth at most two honest tuning answers against a dozen
or more holes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import FEE_CLAIM
from replicas.verifiers.compliance.ruleset31b import (
    _LINES_UP_31,
    _LIST_LINE_31,
    _NEGATED_31,
    _forward,
    held_by,
)
from replicas.verifiers.compliance.ruleset31c import _REACH_31
from replicas.verifiers.compliance.term_checks import open_kinds

if TYPE_CHECKING:
    from replicas.verifiers.compliance.claims import Claim, Extraction
    from replicas.verifiers.compliance.recommend import Recommendations

__all__ = ["after_first_32", "checked_32", "held_32", "kinds_32"]


def checked_32(kinds: bool, after_first: bool) -> Callable[[Extraction], Sequence[Claim]]:
    """The claims as ruleset 32 checks them (``kinds_32``, ``after_first_32``); the list keeps
    the extraction's length and order, a claim left unverified losing its cards."""

    def checked(extraction: Extraction) -> Sequence[Claim]:
        claims: Sequence[Claim] = extraction.claims
        if after_first:
            claims = after_first_32(claims, extraction.masked)
        if kinds:
            claims = kinds_32(claims, extraction.masked)
        return claims

    return checked


# "$95 after the first year", "$150 from year two": the fee after the first year is the annual fee
_AFTER_FIRST_32 = re.compile(
    r"(?:\*\*|__)?[ \t]*(?:(?:a|per)[ \t]+year[ \t]+|/(?:yr|year)[ \t]+|(?:annual[ \t]+)?fee[ \t]+)?"
    r"(?:after[ \t]+(?:the[ \t]+)?(?:first|1st)[ \t]+year|from[ \t]+(?:year[ \t]+(?:two|2)|"
    r"the[ \t]+second[ \t]+year)|after[ \t]+year[ \t]+(?:one|1))\b"
)


def after_first_32(claims: Sequence[Claim], masked: str) -> Sequence[Claim]:
    """``after_first_32``: a first-year fee figure followed by "after the first year" ("($95
    after the first year)") is the annual fee (ruleset 31 checked it as the first year's)."""
    out: list[Claim] | None = None
    for i, claim in enumerate(claims):
        if (
            claim.family == FEE_CLAIM
            and claim.kind == "annual_first_year"
            and not claim.is_none
            and claim.cards
            and _AFTER_FIRST_32.match(masked, claim.end)
        ):
            if out is None:
                out = list(claims)
            out[i] = replace(claim, kind="annual", kinds=frozenset())
    return claims if out is None else out


# a fee word attached to the figure: "a 3% fee", "$150 membership fee", "fee of $95", "fee: $0"
_FEE_AFTER_32 = re.compile(
    r"(?:\*\*|__)?[ \t]*(?:\)[ \t]*)?(?:[a-z'-]+[ \t]+){0,4}(?:fees?|charges?|surcharges?|membership|"
    r"dues)\b"
)
# a fee word, and a figure (what a fee word before a figure governs, unless one stands between)
_FEE_WORD_32 = re.compile(r"\b(?:fees?|charges?|surcharges?|af|costs?|costing|membership|dues)\b")
# a fee word as a label: "Fees: the A is $0; the X is $59" governs every figure after it
_LABEL_32 = re.compile(r"[ \t*_]*:")
# an aside between the fee word and the figure: "(...)", " - ... - "
_ASIDE_32 = re.compile(
    r"\([^()]*\)|[ \t][-\u2013\u2014:][ \t][^-\u2013\u2014:]*[ \t][-\u2013\u2014][ \t]"
)
# "no fee waiver", "no fee holiday", "without a fee break": the denial is of something else
_NOT_DENIAL_32 = re.compile(
    r"[ \t-]+(?:waiver|waived|holiday|break|free[ \t]+period|credit|rebate)"
)
# a contrast after a denial: "No fee on the A, but the X is $59", "Unlike the A, which has no fee"
_CONTRAST_32 = re.compile(r"\b(?:but|while|whereas|unlike|however|though|although)\b")
_FIGURE_32 = re.compile(r"\$[ \t]?\d|\d(?:\.\d+)?[ \t]?%")
# "no fee", "no annual fee", "fee-free": a denial governs no figure
_DENIED_32 = re.compile(r"\b(?:no|zero|without)[ \t]+(?:[a-z-]+[ \t]+){0,2}$")
# a figure right before the fee word owns it: "the $35 fee", "a 5% fee"
_OWNED_BY_FIGURE_32 = re.compile(
    r"(?:\$[ \t]?\d[\d,]*(?:\.\d+)?(?<!,)|\d(?:\.\d+)?[ \t]?%)[ \t]*(?:\*\*|__)?[ \t]*"
    r"(?:(?!(?:and|but|or|while|the)\b)[a-z-]+[ \t]+){0,2}$"
)
_GOVERN_REACH_32 = 120
# a fee's minimum: "(minimum $5)", "min. $10", "$15 as the minimum", "$10 min"
_MINIMUM_BEFORE_32 = re.compile(r"\b(?:minimum|min\.?)(?:[ \t]+(?:of|is|fee))?[ \t]*:?[ \t]*$")
_MINIMUM_AFTER_32 = re.compile(
    r"(?:\*\*|__)?[ \t]*(?:(?:as|is)[ \t]+)?(?:the[ \t]+|a[ \t]+)?(?:minimum|min)\b"
)


def _governed(masked: str, claim: Claim) -> bool:
    """Whether a fee word makes the figure of ``claim`` a fee: in the figure's own words ("a 5%
    fee, with a $10 minimum"), right after it ("$150 membership fee"), or before it in its
    sentence (a question just before counts: "Fees on X? $0.") with no other figure between
    ("the fee on X is only $195", "**Fee:** $195") - not a fee word denied ("no fee") or owned by
    a figure right before it ("minus the $35 fee, you'd be $11 in the hole"); a fee's minimum
    ("with $15 as the minimum", "(min $10)") is a fee term."""
    if claim.binding == "cell" or _FEE_WORD_32.search(masked, claim.start, claim.end):
        return True
    if _MINIMUM_BEFORE_32.search(masked, max(0, claim.start - 24), claim.start) or (
        _MINIMUM_AFTER_32.match(masked, claim.end)
    ):
        return True  # a fee's minimum: "with $15 as the minimum", "(min $10)"
    if _FEE_AFTER_32.match(masked, claim.end):
        return True
    lo = max(0, claim.start - _GOVERN_REACH_32)
    head = masked[lo : claim.start]
    cut = max(head.rfind(". "), head.rfind("\n"), head.rfind("! "))
    lo += cut + 1 if cut >= 0 else 0
    for word in _FEE_WORD_32.finditer(masked, lo, claim.start):
        if _DENIED_32.search(
            masked, max(lo, word.start() - 30), word.start()
        ) and not _NOT_DENIAL_32.match(masked, word.end()):
            if _CONTRAST_32.search(masked, lo, claim.start):
                return True  # "No fee on the A, but the X is $59"
            continue
        if _OWNED_BY_FIGURE_32.search(masked, max(lo, word.start() - 40), word.start()):
            continue
        if _LABEL_32.match(masked, word.end()):
            return True  # "Fees: the A is $0; the X is $59"
        between = _ASIDE_32.sub(" ", masked[word.end() : claim.start])
        if _FIGURE_32.search(between) is None:
            return True
    return False


# the words leave open only the annual fee and the first year's, and the figure is priced by the
# year ("$59 a year, including year one"): a reader sees the annual fee, and the checker checks
# both (not "wins for year one ($0 vs $150)")
_YEARLY_KINDS_32 = frozenset({"annual", "annual_first_year"})
_A_YEAR_32 = re.compile(
    r"(?:\*\*|__)?[ \t]*(?:(?:a|per|each|every)[ \t]+year|/[ \t]*(?:yr|year)|annually|yearly)\b"
)


def kinds_32(claims: Sequence[Claim], masked: str) -> Sequence[Claim]:
    """``kinds_32``: a fee figure the words around it leave several fees open for ("$960, no fee",
    "Fee 3% (minimum $5): $240", "($0 vs $150)") is unverified: the grammar cannot tell which fee
    it states, and a worked amount is no fee at all - unless a fee word governs it (``_governed``:
    "a 3% fee on every purchase", "the fee is only $195", "**Fee:** $195"), which makes it a fee."""
    out: list[Claim] | None = None
    for i, claim in enumerate(claims):
        if (
            claim.family == FEE_CLAIM
            and claim.cards
            and not claim.is_none
            and open_kinds(claim)
            and not (
                claim.kinds
                and claim.kinds <= _YEARLY_KINDS_32
                and _A_YEAR_32.match(masked, claim.end)
            )
            and not _governed(masked, claim)
        ):
            if out is None:
                out = list(claims)
            out[i] = replace(claim, cards=(), binding="")
    return claims if out is None else out


# -- held_32 ---------------------------------------------------------------------------------------

# words that put a card forward as one to get: "apply", "sign up", "open", "add", "a new (travel)
# card", "switch to", "I'd get", "the one to get" - not the words of a review ("best", "strong",
# "my pick for groceries", "for you", "I'd go with your X"), which ``held_31`` also took as
# putting a held card forward
_ACQUIRE_32 = re.compile(
    r"\b(?:apply\w*|applications?|sign(?:ing)?[ \t-]+up|open(?:ing)?\b(?![ \t]+(?:to|for)\b)|"
    r"add|adding|addition|new[ \t]+(?:[a-z-]+[ \t]+)?card|switch(?:ing)?[ \t]+to|grab|"
    r"(?:i'd|i[ \t]+would|you[ \t]+should|to|worth)[ \t]+get(?:ting)?\b(?=[ \t]+(?:the|a|an|one|it|"
    r"this|that|#|\*)))\b"
)
# "rather than", "instead of", "no" and the negations of ``held_31``: "no need to add", "so no new
# card"
_NOT_32 = re.compile(r"\b(?:rather[ \t]+than|instead[ \t]+of|no)[ \t]+(?:[\w']+[ \t]+){0,2}$")

# the customer's own card, in words attached to its name: "your (current) X", "you already have
# the X", "you're already carrying the X", "you're paying $95 a year for X"
_OWNED_BEFORE_32 = re.compile(
    r"(?:(?<!imagine )(?<!picture )(?<!suppose )\byour(?:[ \t]+(?:current|existing|old|original|"
    r"trusty))?|\byou(?:'ve|[ \t]+have)?[ \t]+already[ \t]+(?:got|have|hold|carry|own)|"
    r"\byou're[ \t]+already[ \t]+(?:carrying|holding|using)|"
    r"\byou're[ \t]+paying[ \t]+\$[\d,.]+(?:[ \t]+a[ \t]+year)?[ \t]+for)"
    r"[ \t]+(?:the[ \t]+)?(?:\*\*|__)?$"
)
# ... after it: "X (what you have)", "X, which you already hold", "X is already in your wallet"
_OWNED_AFTER_32 = re.compile(
    r"(?:\*\*|__)?[ \t]*(?:\([ \t]*(?:what|which|the[ \t]+(?:one|card))[ \t]+you[ \t]+(?:already[ \t]+)?"
    r"(?:have|hold|carry|own)[ \t]*\)|,?[ \t]*(?:which|that)[ \t]+you[ \t]+already[ \t]+(?:have|hold|"
    r"carry|own)\b(?![ \t]+(?:the|a|an|enough|what|to|for|some|any|all|your)\b))|"
    r"(?:\*\*|__)?[ \t]*\((?:yours|your[ \t]+card)\)|"
    r"(?:\*\*|__)?[ \t]+is[ \t]+already[ \t]+in[ \t]+your[ \t]+wallet"
)
# a list's lead about the customer's cards, ending with a colon: "your (current) cards:", "the
# cards you (already) hold:", "you already have:"
_OWNED_LEAD_32 = re.compile(
    r"\b(?:your[ \t]+(?:current[ \t]+|existing[ \t]+)?cards|cards?[ \t]+you[ \t]+(?:already[ \t]+)?"
    r"(?:have|hold|carry)|you[ \t]+already[ \t]+(?:have|hold|carry|own))[ \t*_]*:[ \t*_]*$"
)


# an enumeration of the customer's cards: "you already have A, B and C", "you've already got four
# cards - A, B and C", "already holding three cards (A and B)", "Holds: A, B"; the names (masked
# as "#") and their joints run from the phrase to the mention
_POSSESS_32 = (
    r"(?:\byou(?:'ve|[ \t]+have)?[ \t]+already[ \t]+(?:got|have|hold|carry|own)|"
    r"\balready[ \t]+(?:holding|carrying))"
)
_NAMES_32 = r"(?:[#*_,&\s]|\band\b|\bthe\b|\bboth\b)*$"
# the phrase right before the names ("you already have the X"), or a phrase about cards with a
# colon, bracket or dash before them ("you've already got four cards - A, B"), or a label
# ("Holds: A, B")
_ENUMERATED_32 = re.compile(
    rf"(?:{_POSSESS_32}[ \t]+(?=[#*_]|the[ \t]|both[ \t])|{_POSSESS_32}"
    rf"(?:[ \t]+(?:\d+|two|three|four|five|six|several|a[ \t]+few|a[ \t]+couple[ \t]+of|some|these))?"
    rf"[ \t]+cards\b[ \t]*(?:already[ \t]*)?[:(\u2013\u2014-]|(?:^|\n)[ \t*_]*holds?[ \t*_]*:)"
    rf"{_NAMES_32}"
)
_ENUMERATION_REACH_32 = 240
# ... and the name is an item of it, not the subject of what follows ("you already have the A,
# the B is my pick"): a comma, "and"/"or", a bracket, a dash or the end of its sentence after it
_LIST_GOES_ON_32 = re.compile(
    r"(?:\*\*|__)?[ \t]*(?:[.,;:)\n!?]|[-\u2013\u2014][ \t]|$|(?:and|or|&)\b)"
)


# a list led by a review's verdict: "**Keep - clearly worth it**", "## Review", "Close:"
_REVIEW_LEAD_32 = re.compile(
    r"[ \t#*_>]*(?:keep|review|close|cancel|drop|downgrade)(?:[ \t]+(?:it|them|these|both|or[ \t]+"
    r"[a-z]+))?[ \t*_]*(?:(?::|[ \t]*[\u2013\u2014]|[ \t]+-[ \t])[^\n]{0,40}$|$)"
)


def _acquire(text: str) -> bool:
    """Whether ``text`` holds a word that puts a card forward as one to get, not negated."""
    for match in _ACQUIRE_32.finditer(text):
        at = match.start()
        if not _NEGATED_31.search(text, max(0, at - 30), at) and not _NOT_32.search(
            text, max(0, at - 40), at
        ):
            return True
    return False


# words of getting the card after its name: "your X approval odds", "your X credit limit should
# start", "your X welcome offer", "your X application"
_NOT_OWNED_AFTER_32 = re.compile(
    r"(?:\*\*|__)?(?:[ \t]+(?:approval|application|applying|credit[ \t]+limit|starting[ \t]+limit|"
    r"limit[ \t]+should|welcome|sign-?up|bonus|odds|offer|request|question|questions|query|dilemma|"
    r"decision|vs\.?|versus|in[ \t]+mind|on[ \t]+(?:your|my|the)[ \t]+(?:shortlist|radar|list|"
    r"wishlist))\b|'s\b)"
)
_PAIRED_32 = re.compile(
    r"\b(?:pair\w*|complement\w*|alongside|round[ \t]+out|add\w*|i'd|i[ \t]+would|suggest\w*|"
    r"recommend\w*|next)\b"
)
# a time to come: "once you have the X", "when you've opened the X", "if you own the X"
_ONCE_32 = re.compile(
    r"\b(?:once|when|whenever|after|if|until|before|as[ \t]+soon[ \t]+as|by[ \t]+the[ \t]+time)\b"
    r"[^.!?\n]{0,50}$"
)


def _owned(masked: str, start: int, end: int) -> bool:
    """Whether words attached to the mention make the card the customer's own, or it is an
    item of a list led by the customer's cards."""
    if _NOT_OWNED_AFTER_32.match(masked, end):
        return False  # "your X approval odds", "your X welcome offer": getting it
    owned = _OWNED_BEFORE_32.search(masked, max(0, start - 50), start)
    if owned is not None and not _ONCE_32.search(masked, max(0, owned.start() - 60), owned.start()):
        return True  # not "once you have the X", "after you've opened the X"
    if _OWNED_AFTER_32.match(masked, end):
        return True
    listed = _ENUMERATED_32.search(masked, max(0, start - _ENUMERATION_REACH_32), start)
    if (
        listed is not None
        and _LIST_GOES_ON_32.match(masked, end)
        and not _ONCE_32.search(masked, max(0, listed.start() - 60), listed.start())
    ):
        return True
    line_start = masked.rfind("\n", 0, start) + 1
    if not _LIST_LINE_31.match(masked, line_start):
        return False
    pos = line_start - 1
    for _ in range(_LINES_UP_31):
        if pos <= 0:
            return False
        above = masked.rfind("\n", 0, pos) + 1
        line = masked[above:pos]
        pos = above - 1
        if not line.strip() or _LIST_LINE_31.match(line):
            continue
        lead = line[-2 * _REACH_31 :]
        if _forward(lead) or _PAIRED_32.search(lead):
            return False  # "Based on your cards, here's my top pick:", "what I'd pair with ...:"
        return _OWNED_LEAD_32.search(lead) is not None or _REVIEW_LEAD_32.match(lead) is not None
    return False


def held_32(
    masked: str, extraction: Extraction, recs: Recommendations, *, held: frozenset[str]
) -> Recommendations:
    """``held_31``, and then: a held card that words attached to its first mention make the
    customer's (``_owned``: "your X", "you already have A, B and X", a list led by "Keep" or by
    "your cards:") is reviewed unless words of getting a card (``_acquire``) stand around a
    mention - words of a review ("best", "strong", "my pick for groceries") no longer put it
    forward. A card only the words of its sentence make theirs is read as ``held_31`` reads it."""
    recs = held_by(masked, extraction, recs, held, _forward)
    first: dict[str, int] = {}
    for m in extraction.mentions:
        if m.card_id in held:
            first.setdefault(m.card_id, m.start)
    opening = frozenset(first.values())

    def owned_first(text: str, start: int, end: int) -> bool:
        # the card's first mention: "I recommend the X. Once you're approved, use your X" makes
        # it the customer's only after the recommendation
        return start in opening and _owned(text, start, end)

    return held_by(masked, extraction, recs, held, _acquire, owned_first)
