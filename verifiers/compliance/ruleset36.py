"""Ruleset 36's readings, for precision: the card an answer turns to instead, a rate inside a
card's range given as an example, and short names read as the card named in full.

* ``alternative_36``: a fee or APR figure the extraction bound to a card its sentence names only
  *after* it, past a clause break (a comma, a semicolon, a dash, "so", "which", "and", "but",
  "while", "whereas", "since", "instead"), is about another card when the card's own figure of
  the same term follows its name at once and disagrees with it: "The foreign transaction fee is
  2.7%, so keep the Horizon Journey (no foreign fee) for trips", "3% FTF, so if you study abroad,
  pair it with Redwood Scholar ($0 AF, 0% FTF)", "a 3% foreign transaction fee, which is the one
  thing Aspen Explorer does better (2.7%)". The later figure is that card's; the earlier one is
  checked against the card the text was talking about - the first card (other than that one)
  named by the last sentence before it that names one: "X beats Y for transfers. Its foreign fee
  is 2.7%, so keep the Z (no foreign fee) for trips" checks 2.7% against X - and left unverified
  when there is none.

  A figure whose card follows it with no clause break stays with it ("a 4% balance transfer fee
  on the X (minimum $10)", "up to 28.49% on the X (from 19.49% with excellent credit)", "a $75
  annual fee applies to the X ($0 intro annual fee)"); so does one the card's own figure agrees
  with, or one of another unit (a percentage and a dollar minimum).

  Written, attacked and dropped: a second trigger, a fee charged followed by "so" and a verb
  sending the reader to a card ("It does charge 3% on foreign transactions, so keep Summit
  Journey for anything abroad"). Red team K found 22 natural false texts it let through ("There's
  a 2% foreign transaction fee, so leave the X at home", "The late fee is $35, so pay on time if
  you keep the X", "so long as", "even so") and 13 honest texts it flagged: the card after "so"
  is as often the fee's own card as the one turned to.
* ``held_36`` (precision, a reading of recommendations; **dropped**): in an answer naming two or more
  of the cards the customer holds (a review of their wallet), a held card was recommended only
  where words telling them to get it ("I'd suggest", "add", "apply", "my pick") stood around a
  mention. It cleared 17 honest tuning answers (wallet reviews that never say whose the cards
  are) and lost no planted defect there, but red team L found 29 natural false texts it let
  through - verdicts with no verb of getting ("X is the card for you", "Winner: X", "## Verdict:
  X", "You want the X"), verbs the list lacked ("Take the X", "I'd choose"), negations read
  wrong ("I wouldn't hesitate to recommend X") - and inputs 5x to 9x slower. What puts a card
  forward is not a word list; rulesets 30 to 32 learnt the same.
* ``within_36``: a single purchase rate strictly inside its card's purchase APR range (the card
  charges some rate in that range, set by the customer's credit) is left unverified where its
  clause makes it an example or the customer's own - "say," / "say you" / "let's say",
  "suppose", "imagine", "for example", "e.g.", "your rate", "you're at", "interest at 25% on
  $3,000", "your 22.49%" - or a balance is multiplied by it ("$3,000 x 25% / 12"): "say
  you're at 27.99%" of a card at 23.99%-31.99%, "At, say, 24% APR that's about $18 of
  interest". A rate read as any other APR, one said to be fixed of a variable APR (or the other
  way round), and one whose
  clause speaks of another rate or of the range's ends (penalty, late, cash, intro, months,
  transfer, "as low as", "up to", "from", "between", "otherwise", ...) is checked as before. Ruleset 32's ``supposed_32`` and
  ruleset 34's ``supposed_34`` read the words alone and were dropped: "the APR is, say, 25%"
  was the card's own, wrong rate. Here the catalog decides: a rate outside the card's range (or
  one end of it, or a range) is checked whatever the words around it, and one inside the range
  is a rate the card can charge.

  What it gives up, by construction: a rate inside the range that a hedged sentence states as
  the card's ("if you carry a balance, the APR is 24%" of a card at 19.99%-27.99%) - stating a
  range as one of its rates - passes.
* ``names_36``: a product-like name that is no catalog card is no ``unknown_card`` when it is an
  institution ("If the Federal Reserve raises rates, ..."), or when its words - less a leading
  "the" and a possessive ("Gray Rock's") - are the tail of exactly one card the answer names in
  full ("Reset Plus: fee is $250" after "Northstar Reset Plus", "Every Day Cash: $516" after
  "Frontier Every Day Cash") or shorten it from its first word ("Cardinal Plus's" after
  "Cardinal Business Cash Plus"): it is read as that card. A tail needs two words or more
  ("Plus" alone stays unknown); a name that is the tail of two cards the answer names stays
  unknown. An invented name is never the tail of a card named in full, so it stays flagged.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import APR_CLAIM, FEE_CLAIM
from replicas.verifiers.compliance.claims import Claim
from replicas.verifiers.compliance.mentions import EXACT, UNKNOWN, NameMention, tokens_of
from replicas.verifiers.compliance.ruleset22b import _subsequence

if TYPE_CHECKING:
    from replicas.verifiers.compliance.catalog import Catalog
    from replicas.verifiers.compliance.claims import Extraction
    from replicas.verifiers.compliance.names import NameIndex
    from replicas.verifiers.compliance.ruleset import Ruleset

__all__ = ["alternative_36", "checked_36", "names_36", "within_36"]

# A clause break between a figure and the card named after it (masked text: card names are
# blanked out, so the gap holds no other card's name).
_BREAK_36 = re.compile(
    r"[,;()\u2013\u2014]|[ \t]-[ \t]|\b(?:so|which|and|but|while|whereas|since|instead)\b"
)
# How far after the card its own figure may start ("X (no foreign fee)", "X ($0 AF, 0% FTF)").
_OWN_REACH_36 = 24
# How far before the card the figure may be.
_GAP_36 = 160


def _unit_of(units: Sequence[tuple[int, int]], pos: int) -> tuple[int, int] | None:
    k = bisect_right(units, (pos, 1 << 62)) - 1
    if k < 0 or not units[k][0] <= pos < units[k][1]:
        return None
    return units[k]


def _same_kind(a: Claim, b: Claim) -> bool:
    """Whether both are figures of one fee that their words name ("3% foreign transaction fee",
    "(no foreign fee)"; not a bare "(4% fee)", which may be any percentage fee)."""
    return a.family == b.family and a.admissible == b.admissible and len(a.admissible) == 1


def _after(
    claims: Sequence[Claim], order: list[int], starts: list[int], pos: int
) -> Iterator[Claim]:
    """The claims starting within ``_OWN_REACH_36`` characters from ``pos``, in order
    (``order``: the claims' indices by start; ``starts``: their starts in that order)."""
    for k in range(bisect_left(starts, pos), len(order)):
        if starts[k] > pos + _OWN_REACH_36:
            return
        yield claims[order[k]]


def _differs(a: Claim, b: Claim) -> bool:
    """Whether the two figures disagree ("3%" and "no foreign fee"; "2.7%" and "3%"; not "4%"
    and "(minimum $10)", nor a rate and a range holding it)."""
    zero_a = a.is_none or a.low == 0
    zero_b = b.is_none or b.low == 0
    if zero_a or zero_b:
        return zero_a != zero_b
    if a.unit != b.unit:
        return False
    a_low, a_high = a.low, a.high if a.high is not None else a.low
    b_low, b_high = b.low, b.high if b.high is not None else b.low
    if a_low is None or a_high is None or b_low is None or b_high is None:
        return False  # a figure with no value: nothing to disagree with
    if a_low == a_high or b_low == b_high:
        # a rate and a range it lies in ("as high as 31.99%, so ... X (23.99% to 31.99%)") agree
        return not ((b_low <= a_low and a_high <= b_high) or (a_low <= b_low and b_high <= a_high))
    return (a_low, a_high) != (b_low, b_high)


def _last_other(mentions: Sequence[NameMention]) -> list[int]:
    """For each mention, the index of the last mention before it that names another card (or an
    unknown product), -1 for none: the card named last before a figure other than the one turned
    to is found in one step."""
    last = [-1] * len(mentions)
    for k in range(1, len(mentions)):
        prev = k - 1
        last[k] = prev if mentions[prev].card_id != mentions[k].card_id else last[prev]
    return last


def alternative_36(claims: Sequence[Claim], extraction: Extraction) -> Sequence[Claim]:
    """``claims`` with a figure bound to the card the answer turns to instead bound to the card
    named before it (module docstring)."""
    mentions = extraction.mentions
    if not mentions or not claims:
        return claims
    masked = extraction.masked
    units = extraction.units
    starts = [m.start for m in mentions]
    by_card: dict[str | None, list[int]] = {}
    for m in mentions:
        by_card.setdefault(m.card_id, []).append(m.start)
    order = sorted(range(len(claims)), key=lambda k: claims[k].start)
    claim_starts = [claims[k].start for k in order]
    last_other: list[int] | None = None
    subjects: dict[tuple[int, str], int] = {}
    out: list[Claim] | None = None
    for i, claim in enumerate(claims):
        if (
            claim.family != FEE_CLAIM
            or claim.binding not in ("clause", "unit")
            or len(claim.cards) != 1
        ):
            continue
        card_id = claim.cards[0]
        unit = _unit_of(units, claim.start)
        if unit is None:
            continue
        lo, hi = unit
        own_starts = by_card[card_id]
        if bisect_left(own_starts, claim.end) > bisect_left(own_starts, lo):
            continue  # the card is named before the figure in its unit: its own
        k = bisect_left(starts, claim.end)
        if k == len(mentions):
            continue
        mention = mentions[k]
        if mention.card_id != card_id or mention.start >= hi or mention.start - claim.end > _GAP_36:
            continue  # another card (or an unknown one) comes first
        if _BREAK_36.search(masked, claim.end, mention.start) is None:
            continue  # "a 4% fee on the X": the card the figure is said of
        # the first figure of the claim's kind right after the card: the card's own, disagreeing
        own = next(
            (o for o in _after(claims, order, claim_starts, mention.end) if _same_kind(o, claim)),
            None,
        )
        if own is None or own.cards != (card_id,) or not _differs(own, claim):
            continue
        if last_other is None:
            last_other = _last_other(mentions)
        # the card the text was talking about: the last unit before the figure naming a card other
        # than the one turned to, and the first such card it names - its subject ("X beats Y
        # for transfers. Its foreign fee is 2.7%, so ...": X)
        b = bisect_left(starts, claim.start) - 1
        if b >= 0 and mentions[b].card_id == card_id:
            b = last_other[b]
        if b >= 0:
            there = _unit_of(units, mentions[b].start)
            first = bisect_left(starts, there[0]) if there is not None else b
            key = (first, card_id)
            if key not in subjects:  # once per unit and card (a unit may name thousands)
                subjects[key] = next(
                    k for k in range(first, b + 1) if mentions[k].card_id != card_id
                )
            b = min(subjects[key], b)
        before = mentions[b].card_id if b >= 0 else None
        if out is None:
            out = list(claims)
        out[i] = replace(
            claim, cards=(before,) if before else (), binding="context" if before else ""
        )
    return claims if out is None else out


def checked_36(
    previous: Callable[[Extraction], Sequence[Claim]] | None, catalog: Catalog, rules: Ruleset
) -> Callable[[Extraction], Sequence[Claim]]:
    """The claims as ruleset 36 checks them: ruleset 35's, then ``alternative_36`` and
    ``within_36`` where ``rules`` has them."""

    def checked(extraction: Extraction) -> Sequence[Claim]:
        claims = extraction.claims if previous is None else previous(extraction)
        if rules.alternative_36:
            claims = alternative_36(claims, extraction)
        if rules.within_36:
            claims = within_36(claims, catalog, extraction.masked)
        return claims

    return checked


# -- within_36 -------------------------------------------------------------------------------------


# words that make a rate an example or the customer's own, in the figure's clause: "say," / "say
# you" / "let's say" (not "the terms say"), "suppose", "imagine", "for example", "e.g.", "your
# rate is", "you're at"
_EXAMPLE_36 = re.compile(
    r"(?:^|[,(;:\-]|\blet's|\band|\bso)[ \t]*say\b|\b(?:suppose|supposing|imagine|for[ \t]+example|"
    r"for[ \t]+instance)\b|\be\.g\.|\byour[ \t]+(?:purchase[ \t]+|interest[ \t]+)?(?:rate|apr)\b|"
    r"\byou(?:'re|[ \t]+are)[ \t]+at\b"
)
# a month's interest on a balance: "interest at 25% on $3,000", "interest at 25% on a few thousand"
_INTEREST_AT_36 = re.compile(r"\binterest[ \t]+at[ \t]+$")
_ON_BALANCE_36 = re.compile(r"[ \t]+on[ \t]+(?:a[ \t]+|your[ \t]+|the[ \t]+)?(?:\$|\d|few\b)")
# words of another rate, or of the range's ends, in the figure's clause: checked as before
_OTHER_RATE_36 = re.compile(
    r"\b(?:penalty|late|miss(?:es|ed|ing)?[ \t]+(?:a[ \t]+)?payment|jump\w*|climb\w*|goes[ \t]+up|"
    r"go[ \t]+up|cash|atm|advances?|intro\w*|promo\w*|transfers?|(?:for|first|next)[ \t]+\d+[ \t]+"
    r"months?|\d+[ \t-]+months?|low[ \t]+as|high[ \t]+as|starts?[ \t]+(?:at|from)|starting|"
    r"from[ \t]+\d|up[ \t]+to|tops?[ \t]+out|at[ \t]+(?:least|most)|ranges?|between|otherwise|"
    r"(?:low|high|top|bottom)[ \t]+end|floor|ceiling)\b"
)
# a rate in a sum, a balance times it: "$3,000 x 25% / 12" (not "the APR is 24%/12": the card's)
_SUM_BEFORE_36 = re.compile(r"[\d$][\d,.]*[ \t]*(?<![a-z])[x\u00d7][ \t]*$")
# the customer's own rate: "your 22.49% becomes 22.74%"
_YOUR_36 = re.compile(r"\byour[ \t]+$")
# where a clause ends, for the words around a figure
_CLAUSE_END_36 = re.compile(
    r"[.!?][\"')\]*_]*(?=[ \t\n\r]|$)|\n|;|\bso\b|\bwhich\b|,[ \t]+and\b|,[ \t]+but\b"
)


def within_36(claims: Sequence[Claim], catalog: Catalog, masked: str) -> Sequence[Claim]:
    """``claims`` with a single purchase rate strictly inside its card's purchase APR range, that
    its clause makes an example or the customer's own, left unverified (module docstring)."""
    out: list[Claim] | None = None
    for i, claim in enumerate(claims):
        if (
            claim.family != APR_CLAIM
            or claim.is_none
            or len(claim.cards) != 1
            or claim.low is None
            or claim.high != claim.low
            or claim.admissible != frozenset(("purchase",))
        ):
            continue
        card = catalog.card(claim.cards[0])
        if claim.variability is not None and (claim.variability == "variable") != (
            card.apr_is_variable is not False
        ):
            continue  # "that rate is fixed" of a variable rate: checked
        low, high = card.purchase_apr_min_pct, card.purchase_apr_max_pct
        if low is None or high is None or not low < claim.low < high:
            continue
        lo, hi = _clause(masked, claim.start, claim.end)
        clause = masked[lo:hi]
        if _OTHER_RATE_36.search(clause) is not None:
            continue
        example = (
            _EXAMPLE_36.search(clause) is not None
            or (
                _INTEREST_AT_36.search(masked, max(lo, claim.start - 16), claim.start) is not None
                and _ON_BALANCE_36.match(masked, claim.end) is not None
            )
            or _SUM_BEFORE_36.search(masked, max(lo, claim.start - 24), claim.start) is not None
            or _YOUR_36.search(masked, max(lo, claim.start - 8), claim.start) is not None
        )
        if not example:
            continue
        if out is None:
            out = list(claims)
        out[i] = replace(claim, cards=(), binding="")
    return claims if out is None else out


def _clause(masked: str, start: int, end: int) -> tuple[int, int]:
    """The clause around ``[start, end)``: from the last clause end before it (a sentence end, a
    line break, ";", "so", "which", ", and", ", but") to the next one after it, at most 300
    characters each way."""
    lo = max(0, start - 300)
    for match in _CLAUSE_END_36.finditer(masked, lo, start):
        lo = match.end()
    after = _CLAUSE_END_36.search(masked, end, min(len(masked), end + 300))
    return lo, after.start() if after is not None else min(len(masked), end + 300)


# -- names_36 --------------------------------------------------------------------------------------

# institutions, not products: "If the Federal Reserve raises rates, ..."
_INSTITUTIONS_36 = frozenset({("federal", "reserve"), ("federal", "reserve", "bank")})


def _bare(words: tuple[str, ...]) -> tuple[str, ...]:
    """A name's words without a leading "the" and a possessive on its last word ("Gray Rock's")."""
    if words and words[0] == "the":
        words = words[1:]
    if words and words[-1].endswith(("'s", "\u2019s")):
        words = (*words[:-1], words[-1][:-2])
    return words


def names_36(index: NameIndex, mentions: Sequence[NameMention]) -> list[NameMention]:
    """The mentions with an unknown product that is an institution ("the Federal Reserve")
    dropped, and one whose words (less "the" and a possessive) are the tail of exactly one card
    the response names in full ("Reset Plus" after "Northstar Reset Plus", "Every Day Cash 360")
    or shorten it from its first word ("Gray Rock's" after "Gray Rock Cash Back") read as that
    card (module docstring)."""
    if not any(m.kind == UNKNOWN for m in mentions):
        return list(mentions)
    named = {m.card_id for m in mentions if m.kind == EXACT and m.card_id is not None}
    full = {c: index.words_by_card[c] for c in named}
    out: list[NameMention] = []
    for m in mentions:
        if m.kind != UNKNOWN:
            out.append(m)
            continue
        words = _bare(tokens_of(m.surface))
        if words in _INSTITUTIONS_36:
            continue
        hits = [
            c
            for c, name in full.items()
            if 1 <= len(words) < len(name)
            and (
                (len(words) >= 2 and name[-len(words) :] == words)
                or (words[0] == name[0] and _subsequence(words, name))
            )
        ]
        if len(hits) == 1:
            out.append(NameMention(m.start, m.end, EXACT, hits[0], m.surface))
        else:
            out.append(m)
    return out
