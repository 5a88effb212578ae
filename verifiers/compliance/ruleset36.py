"""Ruleset 36's readings, for precision: the card an answer turns to instead, and short names read
as the card named in full.

* ``alternative_36``: a fee or APR figure the extraction bound to a card its sentence names only
  *after* it, past a clause break (a comma, a semicolon, a dash, "so", "which", "and", "but",
  "while", "whereas", "since", "instead"), is about another card when the card's own figure of
  the same term follows its name at once and disagrees with it: "The foreign transaction fee is
  2.7%, so keep the Horizon Journey (no foreign fee) for trips", "3% FTF, so if you study abroad,
  pair it with Redwood Scholar ($0 AF, 0% FTF)", "a 3% foreign transaction fee, which is the one
  thing Aspen Explorer does better (2.7%)". The later figure is that card's; the earlier one is
  checked against the card the text was talking about - the one card (other than that one) the
  last sentence before it that names a card names - and left unverified when no card is named
  before it. When that sentence names two cards or more ("Over Y, I'd pick X. Its foreign fee is
  2.7%, so keep the Z (no foreign fee) for trips": which one is "its"?), or names its card as
  what another is compared with ("It earns more than the Y on dining"), the figure stays where
  ruleset 35 binds it (red team O).

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
* ``names_36``: a product-like name that is no catalog card is no ``unknown_card`` when it is an
  institution ("If the Federal Reserve raises rates, ..."; its figures, the regulator's, bind to
  no card; "the Federal Reserve Card" stays unknown), or when its words - less a leading "the"
  and a possessive - are the tail of exactly one card the answer has named in full before it
  ("Reset Plus: fee is $250" after "Northstar Reset Plus", "Every Day Cash: $516" after
  "Frontier Every Day Cash"), or, with a possessive, its head ("Gray Rock's" after "Gray Rock
  Cash Back"): it is read as that card. A tail or head needs two words or more ("Plus" alone
  stays unknown); a name that fits two cards named before, or only a card named after it, stays
  unknown; so do names that drop a word from inside a card's name ("Compass Elite's" after
  "Compass Business Elite": an invented sibling is made that way - red team O).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import FEE_CLAIM
from replicas.verifiers.compliance.claims import Claim
from replicas.verifiers.compliance.mentions import AMBIGUOUS, EXACT, UNKNOWN, NameMention, tokens_of

if TYPE_CHECKING:
    from replicas.verifiers.compliance.claims import Extraction
    from replicas.verifiers.compliance.names import NameIndex
    from replicas.verifiers.compliance.ruleset import Ruleset

__all__ = ["alternative_36", "checked_36", "names_36"]

# A clause break between a figure and the card named after it (masked text: card names are
# blanked out, so the gap holds no other card's name).
_BREAK_36 = re.compile(
    r"[,;()\u2013\u2014]|[ \t]-[ \t]|\b(?:so|which|and|but|while|whereas|since|instead)\b"
)
# How far after the card its own figure may start ("X (no foreign fee)", "X ($0 AF, 0% FTF)").
_OWN_REACH_36 = 24
# How far before the card the figure may be.
_GAP_36 = 160
# A card named as what another is compared with: "more than the Y", "over Y", "unlike Y", "vs Y".
_COMPARED_36 = re.compile(
    r"\b(?:than|over|unlike|vs\.?|versus|against|compared[ \t]+(?:with|to)|instead[ \t]+of|"
    r"rather[ \t]+than|like|beats?|outearns?|skip)[ \t]+(?:the[ \t]+|your[ \t]+|a[ \t]+)?(?:\*\*|__)?$"
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
        # last sentence naming one names ("X is my everyday pick. Its one weak spot is a 3%
        # foreign fee, which the Z does better (0%)": X). A sentence naming two ("Over Y, I'd
        # pick X.") does not say which: the figure is left as ruleset 35 binds it.
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
            if any(
                _COMPARED_36.search(masked, max(0, mentions[k].start - 40), mentions[k].start)
                for k in named
            ):
                continue  # "It earns more than the Y": the sentence is about another card
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


def names_36(index: NameIndex, text: str, mentions: Sequence[NameMention]) -> list[NameMention]:
    """The mentions with an unknown product that is an institution ("the Federal Reserve") read
    as a name of no card (ambiguous: its figures bind to none), and one whose words (less "the"
    and a possessive) are the tail of exactly one card the answer has named in full before it
    ("Reset Plus" after "Northstar Reset Plus", "Every Day Cash 360"), or, with a possessive, its
    head ("Gray Rock's" after "Gray Rock Cash Back"), read as that card (module docstring)."""
    if not any(m.kind == UNKNOWN for m in mentions):
        return list(mentions)
    full: dict[str, tuple[str, ...]] = {}
    out: list[NameMention] = []
    for m in mentions:
        if m.kind != UNKNOWN:
            if m.kind == EXACT and m.card_id is not None:
                full.setdefault(m.card_id, index.words_by_card[m.card_id])
            out.append(m)
            continue
        raw = tokens_of(m.surface)
        words = _bare(raw)
        if words in _INSTITUTIONS_36 and not _PRODUCT_AFTER_36.match(text, m.end):
            out.append(NameMention(m.start, m.end, AMBIGUOUS, None, m.surface))
            continue
        possessive = bool(raw) and raw[-1] != words[-1] if words else False
        hits = [
            c
            for c, name in full.items()
            if 2 <= len(words) < len(name)
            and (name[-len(words) :] == words or (possessive and name[: len(words)] == words))
        ]
        if len(hits) == 1:
            out.append(NameMention(m.start, m.end, EXACT, hits[0], m.surface))
        else:
            out.append(m)
    return out


# "the Federal Reserve Card": a product after all
_PRODUCT_AFTER_36 = re.compile(
    r"[ \t]*(?:\*\*|__)?[ \t]*(?:cards?|credit|rewards|visa|mastercard)\b", re.I
)
