"""Ruleset 30, the s34 blind sets' false flags: talk about promotions in general, a table cell
holding two intro offers, a sum of fees and a card excepted from "no annual fee" (precision).

Ruleset 29's first reading of s34 (w33-w36, seeds 261-268) flagged 53 of its 400 honest
answers. Their tuning halves' false flags fell into classes any writer produces; ruleset 30 reads
four (their figures are unverified, as figures the grammar cannot attribute, or are read with
their own words):

* ``promos_30`` - **talk about promotions in general denies no card's offer.** "If you carry a
  balance on a card with no promo, you pay interest from day one, so plan to be at zero before
  the promo ends", "new purchases may not share the promo rate", "you'd pay interest if there's
  no promo", "once the promo is over there's no intro rate left": ruleset 29 read each as "the
  card has no intro offer" and flagged a card that has one. A denial of an intro offer claims
  nothing where its negator is

  - "zero" that counts something else (a balance: "at zero before the promo"), i.e. not right
    before an offer, interest or rate word;
  - hedged ("may not", "might not", "could not", "won't necessarily");
  - in a hypothetical ("if / unless / when / once / whether there's no promo", "if the card has
    no intro", "on a card with no promo", "cards without a promo");
  - about the time after the offer ("no intro rate left", "no promo any more", "once the promo
    ends / is over / expires there's no ...").

  "The X has no intro APR", "no promo on this one", "X: no 0% offer" still claim.
* ``cells_30`` - **"0% purchases, 15 mo + 0% transfers, 21 mo" is two offers.** A table cell
  or line giving each offer's kind and months right after its rate was read as one offer: the
  first rate lost its months and the second took the first's ("0% on balance transfers for 15
  months"). An intro rate followed by its own kind word and a number of months ("0% purchases,
  15 mo", "0% on transfers for 21 months") is read with that kind and those months.
* ``totals_30`` - **"$590 in combined fees" is a sum.** A dollar figure followed by "in
  combined / total (annual) fees", "in fees combined / between them / together / all told", or
  after "a combined / total (annual fee) of", adds several cards' fees (or a fee over years):
  it is no card's annual fee. "$95 in fees a year" and "a $150 annual fee" are still a fee.
* ``except_30`` - **"Most of these have no annual fee, except the X at $95" says nothing of
  X's fee being none.** A denial ("no annual fee", "no foreign transaction fee", "no intro
  offer") said of a group ("most / all / the rest / these / both / every / none of ...") with a
  card named after "except (for)", "other than", "apart from", "aside from", "besides", "save
  for", "but not" or "with the exception of" in its sentence is not a claim about that card.
  "The X has no annual fee except ..." (a card as the subject, no group) keeps its claim.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import FEE_CLAIM, INTRO_CLAIM
from replicas.verifiers.compliance.claims import unbind_claims

if TYPE_CHECKING:
    from collections.abc import Callable

    from replicas.verifiers.compliance.claims import Claim, Extraction
    from replicas.verifiers.compliance.mentions import NameMention


# -- promos_30 -------------------------------------------------------------------------------------

# "zero" as an intro negator only right before what it denies ("zero promo", "zero interest")
_ZERO_DENIES_30 = re.compile(
    r"zero[ \t-]+(?:intro\w*|promo\w*|teaser|interest|apr|percent|%|rate|offers?|deals?"
    r"|special)\b"
)
# a hedge right before the negator ("may not", "might not", "won't necessarily")
_HEDGE_30 = re.compile(
    r"\b(?:may|might|could|can|wo)(?:[ \t]+(?:well|also|still|sometimes|often))?[ \t]*$"
)
_HEDGE_AFTER_30 = re.compile(r"[ \t]+(?:necessarily|always)\b")
# a hypothetical right before the negator: "if there's no promo", "on a card with no promo"
_HYPOTHETICAL_30 = re.compile(
    r"(?:\b(?:if|unless|when|whenever|once|whether|where)[ \t]+(?:there(?:'s|[ \t]+is|[ \t]+are"
    r"|'re|[ \t]+was|[ \t]+were)|(?:the|a|your|that)[ \t]+card[ \t]+(?:has|had|offers|comes"
    r"[ \t]+with)|it[ \t]+(?:has|had|offers)|you[ \t]+(?:have|had|get|got))"
    r"|\b(?:on|with|for|from|to|get|getting|pick|picking|choose|choosing|carry|carrying|use"
    r"|using|want|need|prefer)[ \t]+(?:an?|any|some)[ \t]+(?:\w+[ \t]+){0,2}?"
    r"(?:card|cards|one|option)[ \t]+(?:with|that[ \t]+(?:has|offers)|without)"
    r"|(?<!\bare[ \t])(?<!'re[ \t])(?<!\bwere[ \t])\bcards[ \t]+(?:with|that[ \t]+(?:have|offer)"
    r"|without)"
    r")[ \t]+(?:a[ \t]+|an[ \t]+|any[ \t]+)?$"
)
# the time after the offer: "no intro rate left", "no promo any more"
_AFTER_OFFER_30 = re.compile(
    r"[ \t]+(?:\w+[ \t]+){0,2}?(?:left|remaining|any[ \t]?more|any[ \t]+longer)\b"
)
_OFFER_ENDS_30 = re.compile(
    r"\b(?:once|after|when|whenever)[ \t]+(?:the|your|that|its|this)[ \t]+(?:\w+[ \t]+){0,2}?"
    r"(?:promo\w*|intro\w*|offer|teaser|period|deal)[ \t]+(?:\w+[ \t]+)?"
    r"(?:ends|ended|is[ \t]+over|was[ \t]+over|expires|expired|runs[ \t]+out|ran[ \t]+out"
    r"|lapses|lapsed|finishes|finished|wraps[ \t]+up|is[ \t]+done|is[ \t]+up)\b"
)
_CLAUSE_BACK_30 = re.compile(r"[.;:!?\n|(]|\b(?:but|however|whereas|while)\b")
_REACH_30 = 90


def _clause_start(masked: str, pos: int) -> int:
    """Where the clause holding ``pos`` starts (its last boundary within reach)."""
    lo = max(0, pos - _REACH_30)
    last = lo
    for m in _CLAUSE_BACK_30.finditer(masked, lo, pos):
        last = m.end()
    return last


def _generic_promo_30(claim: Claim, masked: str) -> bool:
    """A denial of an intro offer that claims nothing about the card (module docstring)."""
    if claim.family != INTRO_CLAIM or not claim.is_none:
        return False
    text = masked[claim.start : claim.end]
    if text.startswith("zero") and _ZERO_DENIES_30.match(masked, claim.start) is None:
        return True
    before = masked[max(0, claim.start - 40) : claim.start]
    negator_not = (
        text.startswith(("not", "n't")) or before.endswith("n't") or text.startswith("never")
    )
    if negator_not:
        head = before[:-3] if before.endswith("n't") else before
        if _HEDGE_30.search(head) or _HEDGE_AFTER_30.match(masked, claim.start + 3):
            return True
    if _HYPOTHETICAL_30.search(before + ("without " if text.startswith("without") else "")):
        return True
    if _AFTER_OFFER_30.match(masked, claim.end):
        return True
    clause = _clause_start(masked, claim.start)
    return _OFFER_ENDS_30.search(masked, clause, claim.start) is not None


# -- totals_30 -------------------------------------------------------------------------------------

_TOTALS_30 = (
    r"(?:combined|together|altogether|all[ \t]+told|between[ \t]+(?:them|the[ \t]+(?:two|three)"
    r"|both|all[ \t]+(?:two|three)))"
)
_TOTAL_AFTER_30 = re.compile(
    r"[ \t]*(?:(?:a|per|each|every)[ \t]+year[ \t]+|annually[ \t]+|yearly[ \t]+)?"
    r"(?:in[ \t]+(?:combined|joint)[ \t]+(?:annual[ \t]+|yearly[ \t]+)?fees?\b"
    r"|(?:in[ \t]+)?(?:annual[ \t]+)?fees?[ \t]+" + _TOTALS_30 + r"\b"
    r"|" + _TOTALS_30 + r"\b)"
)
_TOTAL_BEFORE_30 = re.compile(
    r"\b(?:a[ \t]+)?(?:combined|joint)[ \t]+(?:annual[ \t]+|yearly[ \t]+)?(?:fees?[ \t]+)?"
    r"(?:of|is|are|comes?[ \t]+to|=)?[ \t]*(?:about|around|roughly|~)?[ \t]*$"
)


def _fee_total_30(claim: Claim, masked: str) -> bool:
    """A dollar figure that sums fees ("$590 in combined fees", "a combined $590")."""
    if claim.family != FEE_CLAIM or claim.is_none or "$" not in claim.text:
        return False
    if _TOTAL_AFTER_30.match(masked, claim.end) is not None:
        return True
    return _TOTAL_BEFORE_30.search(masked, max(0, claim.start - 40), claim.start) is not None


# -- except_30 -------------------------------------------------------------------------------------

_EXCEPT_30 = re.compile(
    r"\b(?:except(?:[ \t]+for)?|other[ \t]+than|apart[ \t]+from|aside[ \t]+from|besides|save"
    r"[ \t]+for|but[ \t]+not|with[ \t]+the[ \t]+exception[ \t]+of|excluding)\b"
)
_GROUP_30 = re.compile(
    r"\b(?:most|all|every|each|both|these|those|the[ \t]+(?:rest|others)|others|none|many"
    r"|several|the[ \t]+other)\b"
)
_SENTENCE_30 = re.compile(r"[.!?\n](?:[ \t]|$)|\n")


def _sentence(masked: str, start: int, end: int) -> tuple[int, int]:
    lo = max(0, start - 200)
    a = lo
    for m in _SENTENCE_30.finditer(masked, lo, start):
        a = m.end()
    m = _SENTENCE_30.search(masked, end, end + 200)
    b = m.start() if m else min(len(masked), end + 200)
    return a, b


def _except_reading(
    mentions: list[NameMention],
) -> Callable[[Extraction], Extraction]:
    """Ruleset 30's ``except_30``: the cards named after an "except" in a group's denial are
    taken off that denial (module docstring)."""
    starts = [m.start for m in mentions]

    def revise(extraction: Extraction) -> Extraction:
        masked = extraction.masked
        out = list(extraction.claims)
        changed = False
        for i, claim in enumerate(out):
            if not claim.is_none or not claim.cards:
                continue
            a, b = _sentence(masked, claim.start, claim.end)
            exc = _EXCEPT_30.search(masked, a, b)
            if exc is None:
                continue
            if _GROUP_30.search(masked, a, min(exc.start(), claim.start)) is None:
                continue
            # the cards named from the "except" to its phrase's end (a comma, colon, "have" ...)
            stop = re.compile(r"[,;:)]|\b(?:have|has|had|charge|charges|come|comes)\b")
            m = stop.search(masked, exc.end(), b)
            phrase_end = m.start() if m else b
            if exc.end() <= claim.start < phrase_end:
                continue  # the denial is inside the except-phrase itself
            k = bisect_right(starts, exc.end() - 1)
            excepted = set()
            while k < len(mentions) and mentions[k].start < phrase_end:
                excepted.add(mentions[k].card_id)
                k += 1
            if not excepted:
                continue
            kept = tuple(c for c in claim.cards if c not in excepted)
            if kept != claim.cards:
                out[i] = replace(claim, cards=kept)
                changed = True
        return replace(extraction, claims=tuple(out)) if changed else extraction

    return revise


# -- cells_30 --------------------------------------------------------------------------------------

_OWN_TERMS_30 = re.compile(
    r"[ \t]*(?:intro[ \t]+)?(?:apr[ \t]+)?(?:on[ \t]+)?(?:new[ \t]+)?"
    r"(?P<kind>purchases?|purch\.?|buys|(?:balance[ \t-]+)?transfers?|bts?)"
    r"[ \t]*[,:(]?[ \t]*(?:for[ \t]+)?(?P<months>\d{1,2})[ \t]*(?:mo|mos|mths?|months?)\b"
)


def _own_terms_30(extraction: Extraction) -> Extraction:
    """Ruleset 30's ``cells_30``: an intro rate followed by its own kind and months is read with
    them ("0% purchases, 15 mo + 0% transfers, 21 mo"; module docstring)."""
    masked = extraction.masked
    out = list(extraction.claims)
    changed = False
    for i, claim in enumerate(out):
        if claim.family != INTRO_CLAIM or claim.is_none or claim.low is None:
            continue
        m = _OWN_TERMS_30.match(masked, claim.end)
        if m is None:
            continue
        word = m["kind"]
        kind = "bt" if "transfer" in word or word.startswith("bt") else "purchase"
        months = int(m["months"])
        if claim.months == months and claim.scopes == frozenset({kind}) and claim.kind == kind:
            continue
        out[i] = replace(claim, kind=kind, scopes=frozenset({kind}), months=months)
        changed = True
    return replace(extraction, claims=tuple(out)) if changed else extraction


def revise_30(
    extraction: Extraction,
    mentions: list[NameMention],
    promos: bool,
    cells: bool,
    totals: bool,
    excepts: bool,
) -> Extraction:
    """The extraction with ruleset 30's readings applied (module docstring)."""
    if cells and "%" in extraction.masked:
        extraction = _own_terms_30(extraction)
    if excepts:
        extraction = _except_reading(mentions)(extraction)
    readings = []
    if promos:
        readings.append(_generic_promo_30)
    if totals and "$" in extraction.masked:
        readings.append(_fee_total_30)
    return unbind_claims(extraction, readings)


__all__ = ["revise_30"]
