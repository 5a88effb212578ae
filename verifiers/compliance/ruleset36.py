"""Ruleset 36's reading, for precision: the card an answer turns to instead.

* ``alternative_36``: a fee figure the extraction bound to a card its sentence names only
  *after* it, past a clause break (a comma, a semicolon, a dash, "so", "which", "and", "but",
  "while", "whereas", "since", "instead"), is about another card when the card's own figure of
  the same fee, named by both, follows its name at once and disagrees with it: "The foreign
  transaction fee is 2.7%, so keep the Horizon Journey (no foreign fee) for trips", "3% FTF, so
  if you study abroad, pair it with Redwood Scholar ($0 AF, 0% FTF)", "a 3% foreign transaction
  fee, which is the one thing Aspen Explorer does better (2.7%)". The later figure is that card's; the earlier one is
  checked against the card the text was talking about - the one card (other than that one) the
  last sentence before it that names a card names - and left unverified when no card is named
  before it. Only a card that sentence opens with is its subject: when the sentence names two
  cards or more ("Over Y, I'd pick X. Its foreign fee is 2.7%, so keep the Z (no foreign fee)
  for trips": which one is "its"?) or names its card anywhere else ("It earns more than the Y
  on dining", "It edges out the Y"), the figure stays where ruleset 35 binds it (red teams O and
  Q: a list of comparison words was never complete).

  A figure whose card follows it with no clause break stays with it ("a 4% balance transfer fee
  on the X (minimum $10)", "a $75 annual fee applies to the X ($0 intro annual fee)"); so does
  one the card's own figure agrees with, one of another unit (a percentage and a dollar
  minimum), and one whose fee either figure leaves open ("(4% fee)"). APRs are left alone: two
  different rates after one another are as often both the card's (the two ends of its range,
  "as high as 31.99%, but X (19.99% with excellent credit)"; red team M).

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
* ``within_36`` (**dropped**): a single purchase rate strictly inside its card's purchase APR
  range was left unverified where its clause made it an example or the customer's own ("say
  you're at 27.99%" of a card at 23.99%-31.99%, "a month of interest at 25% on $3,000", "$3,000 x
  25% / 12"): the card charges some rate in its range. It cleared 9 honest tuning answers, then
  6 once narrowed, and lost no planted defect there; but red team N found 31 natural false texts
  it let through (a bold "**24%**" read as a sum, penalty and intro rates read as the purchase
  rate, a range's end, "terms say", "if", "would") and, once narrowed (no "if", the words in the
  rate's own clause, no words of another rate or a range end there), red team P 31 more ("for
  example" introducing a card, "your rate moves with the prime rate", "you're at 700", "best
  rate", "fifteen months", "locked in"). Words do not say whether a rate is an example; the
  catalog only bounds the damage. The third such reading dropped (``supposed_32``,
  ``supposed_34``).
* ``names_36`` (**dropped**): a product-like name that is no catalog card was no
  ``unknown_card`` when it was an institution ("If the Federal Reserve raises rates, ..."), or
  the tail of exactly one card the answer had named in full before it ("Reset Plus" after
  "Northstar Reset Plus", "Every Day Cash" after "Frontier Every Day Cash"), or, with a
  possessive, its head ("Gray Rock's"). It cleared 4 honest tuning answers. Red team O found 8
  invented siblings it read as real cards (a name dropping a word from inside a real one:
  "Compass Elite's"); narrowed to tails and heads, red team Q found 8 invented "Federal Reserve"
  cards it let through ("*Federal Reserve* Card", "Federal Reserve Amex"), figures the
  institution's mention freed that bound to a card and were flagged, another bank's "Everyday
  Cash" read as the catalog's, and inputs 2.4x to 3.7x slower. Of all 60 cards' tails and heads
  on seed 1, only two read differently from ruleset 35: the gain was two names.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import FEE_CLAIM
from replicas.verifiers.compliance.claims import Claim

if TYPE_CHECKING:
    from replicas.verifiers.compliance.claims import Extraction
    from replicas.verifiers.compliance.mentions import NameMention
    from replicas.verifiers.compliance.ruleset import Ruleset

__all__ = ["alternative_36", "checked_36"]

# A clause break between a figure and the card named after it (masked text: card names are
# blanked out, so the gap holds no other card's name).
_BREAK_36 = re.compile(
    r"[,;()\u2013\u2014]|[ \t]-[ \t]|\b(?:so|which|and|but|while|whereas|since|instead)\b"
)
# How far after the card its own figure may start ("X (no foreign fee)", "X ($0 AF, 0% FTF)").
_OWN_REACH_36 = 24
# How far before the card the figure may be.
_GAP_36 = 160
# What may stand before a sentence's subject: markup, a list mark, "the", "your", "my".
_SUBJECT_36 = re.compile(
    r"[ \t\n#*_>\-\u2022\d.)(\"'|:]*(?:(?:the|your|my|our)[ \t]+)?(?:\*\*|__|\*|_)?$"
)
# The most mentions the sentence before may hold for its card to be read.
_SUBJECT_MENTIONS_36 = 12


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
        # the card the text was talking about: the one card other than the one turned to that the
        # last sentence naming one names, as its subject ("X is my everyday pick. Its one weak
        # spot is a 3% foreign fee, which the Z does better (0%)": X). A sentence naming two
        # ("X beats Y.") or naming its card elsewhere ("It earns more than the Y.") does not
        # say: the figure is left as ruleset 35 binds it.
        b = bisect_left(starts, claim.start) - 1
        if b >= 0 and mentions[b].card_id == card_id:
            b = last_other[b]
        before: str | None = None
        if b >= 0:
            there = _unit_of(units, mentions[b].start)
            first = bisect_left(starts, there[0]) if there is not None else b
            if b - first >= _SUBJECT_MENTIONS_36:
                continue
            named = [k for k in range(first, b + 1) if mentions[k].card_id != card_id]
            if len({mentions[k].card_id for k in named}) != 1:
                continue
            lead = mentions[named[0]].start
            if there is None or _SUBJECT_36.match(masked[there[0] : lead]) is None:
                continue  # "It earns more than the Y", "Over Y, ...": Y is not what it is about
            before = mentions[named[0]].card_id
        if out is None:
            out = list(claims)
        out[i] = replace(
            claim, cards=(before,) if before else (), binding="context" if before else ""
        )
    return claims if out is None else out


def checked_36(
    previous: Callable[[Extraction], Sequence[Claim]] | None, rules: Ruleset
) -> Callable[[Extraction], Sequence[Claim]]:
    """The claims as ruleset 36 checks them: ruleset 35's, then ``alternative_36`` where
    ``rules`` has it."""

    def checked(extraction: Extraction) -> Sequence[Claim]:
        claims = extraction.claims if previous is None else previous(extraction)
        if rules.alternative_36:
            claims = alternative_36(claims, extraction)
        return claims

    return checked
