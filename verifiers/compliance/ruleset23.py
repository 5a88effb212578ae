"""Ruleset 23: readings that hold whatever a writer's phrasing, found on the s26 tuning halves.

Ruleset 22 read each new writer's phrasings one by one, and those readings carried over to the
next writers by an item or two (RULESETS.md, "Ruleset 22"). The three readings here are not
about a phrasing but about what a figure can be:

* ``plausible_23`` - **a figure no card's term could be is no term claim.** A percentage typed
  as a (non-intro) APR that is below half the lowest purchase APR of the whole catalog is a
  reward or fee rate the reader mistyped ("6% groceries" in a table row, "at its top rate of 4%
  on dining"); a dollar figure typed as a fee that is more than twice the largest dollar fee of
  the whole catalog is a balance, a spend or a total ("start with $4,200 on the card", "well over
  $1,500 a year all in"). Both are left unverified. The bounds come from the catalog, not from
  the text, so a plausible wrong figure ("19.99%" for 21.99 %, "$59" for $39) is still checked;
  an intro rate, a 0 % rate and a figure typed by its own words as an intro offer are never
  touched (a fake 0 % offer is still reported).
* ``postposed_23`` - **a figure followed by "on / for the <card>" is that card's.** "18.24% to
  26.24% variable on the Alder, 25.99% to 33.99% on the Birch and 18.99% on the Cedar": each
  range belongs to the card named right after it, not the card named before it. Only when
  nothing but "variable" / "fixed" / "APR" / "fee" stands between the figure and "on" / "for"
  and the card name follows at once.
* ``net_fee_23`` - **a dollar figure that differs from another dollar amount of its sentence
  by exactly the card's annual fee is arithmetic on that fee**, not a fee term: "about $342 a
  year ($247 after the fee)", "| $709 ($804 in year one) |". Only for a card whose annual fee is
  not zero, within half a dollar, in a sentence that works a value out ("after", "before",
  "once", "net", "less", "in year one") and denies nothing ("not $150", "rather than"); never a
  "$0", the card's true fee or a figure with the fee named at it. The figure is unverified.

See "Ruleset 23" in ``verifiers/compliance/RULESETS.md``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import replace

from replicas.verifiers.compliance.catalog import _USD_FIELDS, Catalog
from replicas.verifiers.compliance.claims import Claim, Extraction
from replicas.verifiers.compliance.memo import PerCatalog
from replicas.verifiers.compliance.mentions import UNKNOWN

__all__ = ["revise_23"]

#: an APR-typed percentage below this share of the catalog's lowest purchase APR is no APR
_APR_FLOOR_SHARE_23 = 0.5
#: a fee-typed dollar figure above this multiple of the catalog's largest dollar fee is no fee
_FEE_CEILING_FACTOR_23 = 2.0
#: between a figure and the card it is "on": only a rate's type words, then "on" / "for"
_POSTPOSED_23 = re.compile(
    r"[ \t]*(?:\(?(?:variable|fixed|var\.?)\)?[ \t,]*)?(?:(?:apr|fee|interest)[ \t,]*)?"
    r"(?:on|for)[ \t]+(?:the[ \t]+)?(?:\*\*|__)?$"
)
_POSTPOSED_GAP_23 = 40
_DOLLARS_23 = re.compile(r"\$[ \t]?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?(?![\d,]*%)")
_NET_TOLERANCE_23 = 0.5
_WORDS_SPAN_23 = 30
_BOUNDARY_23 = re.compile(r"[|\n;]|[.!?](?:[ \t]|$)")
_APR_WORDS_23 = re.compile(r"\bapr\b|\binterest\b|\brate[ \t]+on[ \t]+(?:purchases|balances)")
_MAX_TABLE_ROWS_23 = 200
#: a table column or row that names a value the answer works out, not a card's term
_VALUE_HEADER_23 = re.compile(
    r"\bafter[ \t]+(?:the[ \t]+|its[ \t]+)?(?:annual[ \t]+)?fees?\b|\bnet\b|\brewards?\b"
    r"|\bvalue\b|\bearn\w*|\bsavings?\b|\bspend\w*|\bbonus\b|\bworth\b|\bpoints\b"
    r"|\breturns?\b|\bcash[ \t-]?back\b"
)
_TERM_HEADER_23 = re.compile(
    r"\bapr\b|\binterest\b|\bintro\w*|\bpromo\w*|\bpenalty\b|\blate\b|\bforeign\b|\bfx\b"
    r"|\btransfers?\b|\bbt\b|\badvances?\b|\bannual[ \t]+fee\b|\bfirst[ \t-]year\b"
    r"|\byear[ \t]+(?:one|1)\b"
)
#: the words that work a value out net of (or before) the fee
_NET_WORDS_23 = re.compile(
    r"\b(?:after|before|net|less|minus|once|leaves|left|takes[ \t]+it|in[ \t]+year[ \t]+(?:one|1)"
    r"|(?:the[ \t]+)?first[ \t]+year)\b"
)
#: a sentence that denies a figure ("not $150", "isn't", "rather than") makes claims, not sums
_DENIAL_23 = re.compile(r"\bnot\b|n't\b|\bnever\b|\binstead\b|\brather[ \t]+than\b|\bwrong\b")
#: a fee named right at the figure ("$300 annual fee", "$95/yr fee", "annual fee: $300")
_NAMED_AFTER_23 = re.compile(
    r"[ \t]*(?:(?:a|per|/)[ \t]*(?:year|yr)[ \t]+)?(?:annual|yearly|first[- ]year)?[ \t]*"
    r"(?:fee|membership)\b"
)
_NAMED_BEFORE_23 = re.compile(
    r"\b(?:fee|membership)[ \t]*(?:is|of|:|=|-|costs?)?[ \t]*(?:just|only|about|around)?[ \t]*$"
)
_FEE_WORDS_23 = re.compile(r"\bfees?\b|\bcharges?\b|\bmembership\b")
_MAX_AMOUNTS_23 = 30


def _compute_bounds(catalog: Catalog) -> tuple[float | None, float | None]:
    """The APR floor and the dollar-fee ceiling of the whole catalog (``None``: no such term)."""
    aprs = [c.purchase_apr_min_pct for c in catalog.cards if c.purchase_apr_min_pct]
    fees = [v for c in catalog.cards for f in _USD_FIELDS if (v := getattr(c, f)) is not None]
    floor = _APR_FLOOR_SHARE_23 * min(aprs) if aprs else None
    ceiling = _FEE_CEILING_FACTOR_23 * max(fees) if fees else None
    return floor, ceiling


#: ``_compute_bounds`` once per catalog object (a catalog is immutable once built)
_bounds = PerCatalog(_compute_bounds)


def _own_words(claim: Claim, masked: str) -> str:
    """The words around the figure within its cell, line and sentence (at most 30 characters
    each side)."""
    before = masked[max(0, claim.start - _WORDS_SPAN_23) : claim.start]
    after = masked[claim.end : claim.end + _WORDS_SPAN_23]
    before = _BOUNDARY_23.split(before)[-1]
    after = _BOUNDARY_23.split(after)[0]
    return f"{before} {after}"


def _implausible(claim: Claim, masked: str, floor: float | None, ceiling: float | None) -> bool:
    """A figure no catalog card could have as the term it was typed as, where its own words do
    not name that term ("a 3% APR", "fees: $2,000 a year" are still checked)."""
    if claim.low is None or claim.is_none:
        return False
    top = claim.high if claim.high is not None else claim.low
    if claim.family == "apr" and claim.unit == "pct" and floor is not None:
        if not (claim.low > 0 and top < floor):
            return False
        return _APR_WORDS_23.search(_own_words(claim, masked)) is None
    if claim.family == "fee" and claim.unit == "usd" and ceiling is not None:
        if claim.low <= ceiling:
            return False
        return _FEE_WORDS_23.search(_own_words(claim, masked)) is None
    return False


def _postposed_card(
    claim: Claim, masked: str, extraction: Extraction, starts: list[int]
) -> str | None:
    """The card named right after ``claim`` behind "on / for (the)", if any (``starts``: the
    mentions' start positions)."""
    mentions = extraction.mentions
    k = bisect_right(starts, claim.end - 1)
    if k >= len(mentions):
        return None
    mention = mentions[k]
    if mention.kind == UNKNOWN or mention.card_id is None:
        return None
    gap = masked[claim.end : mention.start]
    if len(gap) > _POSTPOSED_GAP_23 or _POSTPOSED_23.fullmatch(gap) is None:
        return None
    return mention.card_id


def _dollars(text: str) -> list[float]:
    out = []
    for m in _DOLLARS_23.finditer(text):
        out.append(
            float(m.group(1).replace(",", "")) + (float(f"0.{m.group(2)}") if m.group(2) else 0)
        )
        if len(out) > _MAX_AMOUNTS_23:
            return []
    return out


def _net_amounts(
    extraction: Extraction, pos: int, read: dict[tuple[int, int], list[float] | None]
) -> list[float] | None:
    """The dollar amounts of the unit at ``pos`` if it reads as net of a fee ("after / before /
    once ... the fee", no denial), else None; memoised per unit in ``read`` (a unit without
    sentence breaks holds every claim of a long text)."""
    k = bisect_right(extraction.units, (pos, 1 << 62)) - 1
    key = extraction.units[k] if k >= 0 else (0, 0)
    if not key[0] <= pos < key[1]:
        key = (0, 0)  # no unit: the empty text
    if key in read:
        return read[key]
    unit = extraction.masked[key[0] : key[1]]
    amounts = None
    if _NET_WORDS_23.search(unit) is not None and _DENIAL_23.search(unit) is None:
        amounts = _dollars(unit)
    read[key] = amounts
    return amounts


def _net_of_fee(
    claim: Claim,
    extraction: Extraction,
    catalog: Catalog,
    read: dict[tuple[int, int], list[float] | None] | None = None,
) -> bool:
    if claim.family != "fee" or claim.unit != "usd" or claim.low is None or len(claim.cards) != 1:
        return False
    card = catalog.card(claim.cards[0])
    fee = card.annual_fee_usd
    value = claim.low
    if not fee or any(
        v is not None and abs(v - value) <= _NET_TOLERANCE_23
        for v in (fee, card.annual_fee_first_year_usd)
    ):
        return False  # a right fee stays a claim (it is what discloses the fee)
    if value <= _NET_TOLERANCE_23:
        return False  # "$0" is a waiver claim: "$0 the first year, then $95" is no arithmetic
    masked = extraction.masked
    if _NAMED_AFTER_23.match(masked, claim.end) or _NAMED_BEFORE_23.search(
        masked[max(0, claim.start - _WORDS_SPAN_23) : claim.start]
    ):
        return False  # "$300 annual fee", "annual fee: $300": a fee named is always checked
    amounts = _net_amounts(extraction, claim.start, {} if read is None else read)
    if amounts is None:
        return False  # no "after / before / once ... the fee" - or a denial ("not $150"): a claim
    return any(
        abs(abs(a - value) - fee) <= _NET_TOLERANCE_23
        for a in amounts
        if a > _NET_TOLERANCE_23 and a != value
    )


def _cell_headers(claim: Claim, masked: str) -> tuple[str, str]:
    """The column header and the row label of the table cell ``claim`` sits in ("" if none)."""
    line_start = masked.rfind("\n", 0, claim.start) + 1
    line_end = masked.find("\n", claim.start)
    line = masked[line_start : len(masked) if line_end < 0 else line_end]
    if not line.lstrip().startswith("|"):
        return "", ""
    column = masked.count("|", line_start, claim.start)
    header_start = line_start
    for _ in range(_MAX_TABLE_ROWS_23):
        if header_start == 0:
            break
        above = masked.rfind("\n", 0, header_start - 1) + 1
        if not masked[above : header_start - 1].lstrip().startswith("|"):
            break
        header_start = above
    else:
        return "", ""
    header_end = masked.find("\n", header_start)
    header = masked[header_start : len(masked) if header_end < 0 else header_end].split("|")
    cells = line.split("|")
    label = cells[1] if len(cells) > 1 else ""
    return (header[column] if column < len(header) else ""), label


def _value_column(claim: Claim, masked: str) -> bool:
    """A cell under a column (or beside a row label) that names a value, not a term: "Est.
    rewards / yr", "After fee", "Net value" - a figure there is the answer's arithmetic."""
    if claim.binding != "cell":
        return False
    header, label = _cell_headers(claim, masked)
    return any(
        _VALUE_HEADER_23.search(words) is not None and _TERM_HEADER_23.search(words) is None
        for words in (header, label)
    )


def revise_23(
    extraction: Extraction,
    catalog: Catalog,
    plausible: bool,
    postposed: bool,
    net_fee: bool,
    columns: bool = False,
) -> Extraction:
    """The extraction with ruleset 23's readings (module docstring)."""
    if not extraction.claims:
        return extraction
    floor, ceiling = _bounds(catalog) if plausible else (None, None)
    starts = [m.start for m in extraction.mentions] if postposed else []
    masked = extraction.masked
    out = list(extraction.claims)
    changed = False
    units_read: dict[tuple[int, int], list[float] | None] = {}
    for i, claim in enumerate(out):
        if not claim.cards or claim.family not in ("apr", "fee", "intro"):
            continue
        if (
            plausible and claim.family != "intro" and _implausible(claim, masked, floor, ceiling)
        ) or (columns and claim.family != "intro" and _value_column(claim, masked)):
            out[i] = replace(claim, cards=())
            changed = True
            continue
        if postposed and extraction.mentions:
            card = _postposed_card(claim, masked, extraction, starts)
            if card is not None and claim.cards != (card,):
                claim = out[i] = replace(claim, cards=(card,), binding="clause")
                changed = True
        if net_fee and _net_of_fee(claim, extraction, catalog, units_read):
            out[i] = replace(claim, cards=())
            changed = True
    return replace(extraction, claims=tuple(out)) if changed else extraction
