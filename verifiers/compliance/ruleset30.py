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
from itertools import combinations
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import FEE_CLAIM, INTRO_CLAIM
from replicas.verifiers.compliance.claims import unbind_claims

if TYPE_CHECKING:
    from collections.abc import Callable

    from replicas.verifiers.compliance.catalog import Catalog
    from replicas.verifiers.compliance.claims import Claim, Extraction
    from replicas.verifiers.compliance.mentions import NameMention


# -- promos_30 -------------------------------------------------------------------------------------

# "zero" that counts a balance: "be at zero", "pay it down to zero", "hit zero"
_ZERO_BALANCE_30 = re.compile(r"\b(?:at|to|hit|hits|hitting|reach|reaches|reaching)[ \t]+$")
_ZERO_OFFER_30 = re.compile(
    r"zero[ \t-]+(?:intro\w*|promo\w*|teaser|interest|apr|percent|%|rate|offers?|deals?|months?)\b"
)
# after a denial: it is about this card's terms ("no intro APR on this card", "from day one")
_THIS_CARD_30 = re.compile(
    r"[^.;:\n]{0,40}?\b(?:on|with)[ \t]+(?:this|that|the|its)[ \t]+(?:card|one|#)"
    r"|[^.;:\n]{0,40}?\b(?:from[ \t]+day[ \t]+one|at[ \t]+all|whatsoever)\b"
)
_POINTS_30 = re.compile(r"\b(?:it|its|it's|this[ \t]+(?:card|one)|that[ \t]+(?:card|one))\b")
# an aside after a hypothetical denial that asserts it of the card ("- and there isn't -", "(the X
# has none)", ", as is the case with both options above")
_CONFIRMED_30 = re.compile(
    r"[^.;\n]{0,40}?(?:[-\u2014\u2013(,][ \t]*(?:and|as|which)\b|\()[^.;\n]{0,50}?"
    r"(?:n't\b|\b(?:has|have)[ \t]+none\b|\bis[ \t]+the[ \t]+case\b|\bnone\b|\bno[ \t]+(?:promo"
    r"|intro))"
)
# a hedge right before the negator: "may not", "might not" (not "won't", "can not", "couldn't")
_HEDGE_30 = re.compile(r"\b(?:may|might)(?:[ \t]+(?:well|also|still|sometimes|often))?[ \t]+$")
_HEDGE_AFTER_30 = re.compile(r"[ \t]+necessarily\b")
# a hypothetical right before the negator: "if there's no promo"
_IF_30 = re.compile(
    r"\b(?:if|unless|whether)[ \t]+(?:there(?:'s|[ \t]+is|[ \t]+are|'re|[ \t]+was"
    r"|[ \t]+were)|(?:the|a|your|that)[ \t]+card[ \t]+(?:has|had|offers|comes[ \t]+with)"
    r"|it[ \t]+(?:has|had|offers)|you[ \t]+(?:have|had|get|got))[ \t]+(?:a[ \t]+|an[ \t]+|any[ \t]+)?$"
)
# cards in general: "on a card with no promo", "for cards without a promo" (not a description:
# "is a card with", "are two cards with", "one of the cards without"; and only where no card is
# named after it in its sentence: "a travel card without a promo, like the X")
_GENERIC_30 = re.compile(
    r"(?:\b(?:on|with|for|from|to|get|getting|pick|picking|choose|choosing|carry|carrying|use"
    r"|using|want|need|prefer)[ \t]+(?:an?|any|some)[ \t]+(?:\w+[ \t]+){0,2}?"
    r"(?:card|option)[ \t]+(?:with|that[ \t]+(?:has|offers)|without)"
    r"|\b(?:on|for|from|to|than|most|many|some|any)[ \t]+cards[ \t]+(?:with|that[ \t]+(?:have"
    r"|offer)|without)"
    r")[ \t]+(?:a[ \t]+|an[ \t]+|any[ \t]+)?$"
)
# the time after the offer, in the denial's own clause: "once the promo is over there's no
# intro rate left", "after the intro period ends, you'll pay ..." (the ending clause right
# before the denial's: no other card, no "switch to", between them)
_OFFER_ENDS_30 = re.compile(
    r"\b(?:once|after|when|whenever)[ \t]+(?:the|your|that|its|this)[ \t]+(?:\w+[ \t]+){0,2}?"
    r"(?:promo\w*|intro\w*|teaser)[ \t]+(?:(?:period|offer|rate|apr|deal)[ \t]+)?"
    r"(?:ends|ended|is[ \t]+over|was[ \t]+over|expires|expired|runs[ \t]+out|ran[ \t]+out"
    r"|lapses|lapsed|finishes|finished|wraps[ \t]+up|is[ \t]+done|is[ \t]+up)"
    r"[ \t]*,?[ \t]*(?:then[ \t]+)?(?:there(?:'s|[ \t]+is|[ \t]+are|'ll[ \t]+be|[ \t]+will"
    r"[ \t]+be)|you(?:'ll|[ \t]+will)?[ \t]+(?:have|get|see|pay[ \t]+with))[ \t]+$"
)


def _generic_promo_30(claim: Claim, masked: str) -> bool:
    """A denial of an intro offer that claims nothing about the card (module docstring)."""
    if claim.family != INTRO_CLAIM or not claim.is_none:
        return False
    text = masked[claim.start : claim.end]
    before = masked[max(0, claim.start - 90) : claim.start]
    if (
        text.startswith("zero")
        and _ZERO_BALANCE_30.search(before)
        and _ZERO_OFFER_30.match(masked, claim.start) is None
    ):
        return True
    if _THIS_CARD_30.match(masked, claim.end) or _CONFIRMED_30.match(masked, claim.end):
        # "may not carry any promo at all", "if there's no promo on it - and there isn't -"
        return False
    if text.startswith(("not", "n't")) or before.endswith("n't"):
        head = before[:-3] if before.endswith("n't") else before
        if _HEDGE_30.search(head) or _HEDGE_AFTER_30.match(masked, claim.start + 3):
            return True
    if text.startswith("without"):
        before += "without "
    if _IF_30.search(before):
        return True
    if _GENERIC_30.search(before) is None and _OFFER_ENDS_30.search(before) is None:
        return False
    # cards in general, or the time after an offer, only where the sentence names no card and
    # points at none ("Harbor Travel is the best pick for a card without a promo", "with it
    # you're getting a card without a promo")
    start, end = _sentence(masked, claim.start, claim.end)
    return "#" not in masked[start:end] and _POINTS_30.search(masked, start, end) is None


# -- totals_30 -------------------------------------------------------------------------------------

# a sum's word after the figure ("$645 in combined fees", "$645 a year between them", "$645 all
# told"; not "together with", "combined with") or before it ("a combined $645", "a total of")
_TOTAL_AFTER_30 = re.compile(
    r"[ \t]*(?:(?:a|per|each|every)[ \t]+year[ \t]+|annually[ \t]+|yearly[ \t]+)?"
    r"(?:in[ \t]+(?:annual[ \t]+|yearly[ \t]+)?fees?[ \t]+)?"
    r"(?:in[ \t]+(?:combined|joint|total)[ \t]+(?:annual[ \t]+|yearly[ \t]+)?fees?"
    r"|combined|together|altogether|all[ \t]+told|in[ \t]+total|total"
    r"|between[ \t]+(?:them|the[ \t]+(?:two|three)|both))\b(?![ \t]+with\b)"
)
_TOTAL_BEFORE_30 = re.compile(
    r"(?:\b(?:combined|joint|total)[ \t]+(?:annual[ \t]+|yearly[ \t]+)?(?:fees?[ \t]+)?"
    r"(?:of|is|are|comes?[ \t]+to|=)?"
    r"|\b(?:together|combined|altogether|all[ \t]+told|in[ \t]+total)[ \t]*[,:]?[ \t]*"
    r"(?:that's|that[ \t]+is|it's|it[ \t]+is|they[ \t]+(?:cost|come[ \t]+to))?)"
    r"[ \t]*(?:about|around|roughly|~)?[ \t]*$"
)
# a clause before the figure's own ("..., while", "..., but", "whereas")
_SUM_CLAUSE_30 = re.compile(r",[ \t]*(?:while|whereas|but|though|although)\b|\b(?:while|whereas)\b")
_SUM_CARDS_30 = 8  # at most this many cards' subsets are tried


def _sum_reading(catalog: Catalog, mentions: list[NameMention]) -> Callable[[Claim, str], bool]:
    """Ruleset 30's ``totals_30``: a dollar figure with a sum's word that equals the annual fees
    (or first-year fees) of two or more cards named in its clause, each with a fee, adds them: it is no card's fee (module docstring). A wrong sum keeps its claim."""
    starts = [m.start for m in mentions]

    def summed(claim: Claim, masked: str) -> bool:
        if claim.family != FEE_CLAIM or claim.is_none or claim.low is None:
            return False
        if "$" not in claim.text:
            return False
        if _TOTAL_AFTER_30.match(masked, claim.end) is None and (
            _TOTAL_BEFORE_30.search(masked, max(0, claim.start - 40), claim.start) is None
        ):
            return False
        a, _ = _sentence(masked, claim.start, claim.end)
        for m in _SUM_CLAUSE_30.finditer(masked, a, claim.start):
            a = m.end()  # the figure's own clause: "X is $95, while the Y has a total of $790"
        # the addends come before their sum ("A ($150) and B ($495) come to $645"), not after it
        # ("$590, as much as A and B put together")
        cards = sorted(_cards_between(mentions, starts, a, claim.start))[:_SUM_CARDS_30]
        for attr in ("annual_fee_usd", "annual_fee_first_year_usd"):
            fees = [getattr(catalog.card(c), attr) for c in cards]
            fees = [f for f in fees if f]
            if len(fees) >= 2 and _subset_sums_to(fees, claim.low):
                return True
        return False

    return summed


def _subset_sums_to(fees: list[float], target: float) -> bool:
    """Whether two or more of ``fees`` add up to ``target`` (to the cent)."""
    for size in range(2, len(fees) + 1):
        for combo in combinations(fees, size):
            if abs(sum(combo) - target) < 0.005:
                return True
    return False


# -- except_30 -------------------------------------------------------------------------------------

_EXCEPT_30 = re.compile(
    r"\b(?:except(?:[ \t]+for)?|other[ \t]+than|apart[ \t]+from|aside[ \t]+from|besides|save"
    r"[ \t]+for|but[ \t]+not|with[ \t]+the[ \t]+exception[ \t]+of|excluding)\b"
)
_GROUP_30 = re.compile(
    r"\b(?:most|all|every|each|both|these|those|the[ \t]+(?:rest|others)|others|none|many"
    r"|several)\b"
)
_SENTENCE_30 = re.compile(r"[.!?;](?:[ \t]|$)|\n")
# what ends an except-phrase before the denial: the verb of the group ("have", "charge" ...)
_EXCEPT_VERB_30 = re.compile(
    r"\b(?:have|has|had|charge|charges|come|comes|carry|carries|are|is|offer|offers|get|gets"
    r"|cost|costs|include|includes|feature|features)\b"
)
# a clause between a group, its except-phrase and its denial ("..., which has no", "; it has
# no", ", and the X has no", " - the X")
_CLAUSE_30 = re.compile(
    r",[ \t]*(?:which|who|that|and|but|while|though|although|so|it|its|the|this)\b"
    r"|[;:(\u2014\u2013]| - |\b(?:which|who|whose)\b"
)
# what ends an except-phrase after the denial: a clause of its own
_EXCEPT_END_30 = re.compile(
    r",[ \t]*(?:which|who|that|and[ \t]+(?:the|it|its|this|that)|but|while|so|it|its)\b"
    r"|,?[ \t]*\b(?:including|even|especially|notably|plus|as[ \t]+well[ \t]+as|like|such"
    r"[ \t]+as|incl\.?|as[ \t]+does|as[ \t]+do|so[ \t]+does|so[ \t]+do|along[ \t]+with"
    r"|among[ \t]+them|together[ \t]+with|alongside|same[ \t]+(?:for|goes)|included)\b"
    r"|[;:\u2014\u2013]| - |\b(?:which|who|whose|is|are|has|have|charges)\b"
)


def _sentence(masked: str, start: int, end: int) -> tuple[int, int]:
    """The sentence (or clause after a semicolon) holding ``[start, end)``, within reach."""
    lo = max(0, start - 200)
    a = lo
    for m in _SENTENCE_30.finditer(masked, lo, start):
        a = m.end()
    m = _SENTENCE_30.search(masked, end, end + 200)
    b = m.start() if m else min(len(masked), end + 200)
    return a, b


def _cards_between(mentions: list[NameMention], starts: list[int], a: int, b: int) -> set[str]:
    """The catalog cards named from ``a`` to ``b``."""
    k = bisect_right(starts, a - 1)
    out = set()
    while k < len(mentions) and mentions[k].start < b:
        if mentions[k].card_id is not None:
            out.add(mentions[k].card_id)
        k += 1
    return out


def _excepted(
    masked: str, claim: Claim, mentions: list[NameMention], starts: list[int]
) -> set[str]:
    """The cards a group's denial excepts (module docstring): "most have no annual fee, except
    the X (...) and the Y" (after the denial, up to a clause of its own or a word that puts a
    card in the group) or "all of these except the X ($495) have no annual fee" (between the
    group and the denial, with no clause between the except-phrase and the denial, and no list
    of the group after it)."""
    a, b = _sentence(masked, claim.start, claim.end)
    for exc in _EXCEPT_30.finditer(masked, a, b):
        if exc.start() >= claim.end:
            # "<group> ... <denial>, except the X": the group is the denial's subject
            group = _GROUP_30.search(masked, a, claim.start)
            if group is None or _CLAUSE_30.search(masked, group.end(), claim.start):
                continue
            if "#" in masked[group.end() : claim.start]:
                continue  # a card between the group and its denial
            if _CLAUSE_30.search(masked, claim.end, exc.start()):
                continue
            end = _EXCEPT_END_30.search(masked, exc.end(), b)
            return _cards_between(mentions, starts, exc.end(), end.start() if end else b)
        if exc.end() <= claim.start:
            # "<group> except the X (...) <verb> <denial>"
            group = _GROUP_30.search(masked, a, exc.start())
            if group is None or _CLAUSE_30.search(masked, group.end(), exc.start()):
                continue
            verb = _EXCEPT_VERB_30.search(masked, exc.end(), claim.start)
            if verb is None:
                continue
            phrase = _ASIDE_30.sub("", masked[exc.end() : verb.start()])
            gap = masked[verb.end() : claim.start]
            if _CLAUSE_30.search(phrase) or _CLAUSE_30.search(gap) or "#" in gap:
                continue
            if masked.find(":", claim.end, b + 1) >= 0:
                continue  # the group is listed after its denial: left to the earlier readings
            inside = _EXCEPT_END_30.search(masked, exc.end(), verb.start())
            return _cards_between(
                mentions, starts, exc.end(), inside.start() if inside else verb.start()
            )
    return set()


# a parenthesised aside in an except-phrase ("except the X ($495)")
_ASIDE_30 = re.compile(r"\([^()\n]{0,40}\)")


def _except_reading(mentions: list[NameMention]) -> Callable[[Extraction], Extraction]:
    """Ruleset 30's ``except_30``: the cards named in a group's except-phrase are taken off the
    group's denial (module docstring)."""
    starts = [m.start for m in mentions]

    def revise(extraction: Extraction) -> Extraction:
        masked = extraction.masked
        out = list(extraction.claims)
        changed = False
        for i, claim in enumerate(out):
            if not claim.is_none or not claim.cards:
                continue
            excepted = _excepted(masked, claim, mentions, starts)
            kept = tuple(c for c in claim.cards if c not in excepted)
            if kept != claim.cards:
                out[i] = replace(claim, cards=kept)
                changed = True
        return replace(extraction, claims=tuple(out)) if changed else extraction

    return revise


# -- cells_30 --------------------------------------------------------------------------------------

# in a table cell: "0% purchases, 15 mo + 0% transfers, 21 mo" (the kind right after the rate,
# then its months, then the cell's end or the next offer; not "15 months of $300")
_OWN_TERMS_30 = re.compile(
    r"[ \t]*(?:on[ \t]+)?(?P<kind>purchases?|purch\.?|(?:balance[ \t-]+)?transfers?|bts?)"
    r"[ \t]*[,:(]?[ \t]*(?:for[ \t]+)?(?P<months>\d{1,2})[ \t]*(?:mo|mos|mths?|months?)\b\.?"
    r"[ \t)]*(?=[|+;,&]|and\b)"
)


def _own_terms_30(extraction: Extraction) -> Extraction:
    """Ruleset 30's ``cells_30``: in a table cell, an intro rate followed by its own kind and
    months is read with those months ("0% purchases, 15 mo + 0% transfers, 21 mo"; module
    docstring). A claim of another kind on the same rate is left alone, and no kind is taken
    off a claim."""
    masked = extraction.masked
    out = list(extraction.claims)
    changed = False
    for i, claim in enumerate(out):
        if claim.family != INTRO_CLAIM or claim.is_none or claim.low is None:
            continue
        line_start = masked.rfind("\n", 0, claim.start) + 1
        line_end = masked.find("\n", claim.end)
        line_end = len(masked) if line_end < 0 else line_end
        if (
            masked.find("|", line_start, claim.start) < 0
            or masked.find("|", claim.end, line_end) < 0
        ):
            continue
        m = _OWN_TERMS_30.match(masked, claim.end, line_end)
        if m is None:
            continue
        word = m["kind"]
        kind = "bt" if "transfer" in word or word.startswith("bt") else "purchase"
        months = int(m["months"])
        if claim.months == months or (claim.scopes and claim.scopes != frozenset({kind})):
            continue
        out[i] = replace(claim, kind=kind, scopes=frozenset({kind}), months=months)
        changed = True
    return replace(extraction, claims=tuple(out)) if changed else extraction


def revise_30(
    extraction: Extraction,
    catalog: Catalog | None,
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
    if totals and catalog is not None and "$" in extraction.masked:
        readings.append(_sum_reading(catalog, mentions))
    return unbind_claims(extraction, readings)


__all__ = ["revise_30"]
