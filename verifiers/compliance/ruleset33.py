"""Ruleset 33's reading of worked figures, for precision (``worked_33``).

A dollar figure bound to a card as a fee is checked against that fee. Answers that explain a
card also work sums on the reader's own amounts, and those results sit where a fee would:

* **a percentage fee worked out on an amount the answer states** - "say you're moving $6,000 ...
  Summit Clear: fee = $180", "Transfer fee: 5% (min $10) -> $100 on $2,000". The figure is the
  card's own balance transfer, cash advance or foreign transaction fee on a dollar amount the
  answer states anywhere (at least $100, not the figure itself). It is right for the card, so it
  is no wrong fee (ruleset 30's ``worked_30`` read this only beside words of moving money, and
  not when the fee itself stood beside such a word: "fee = $180. you now owe $6,180");
* **a result of the answer's own arithmetic** - "$29 and $39, you're paying $68 a year in fees",
  "costs $10 more a year", "$288 + $180 ... **$468/yr**", "On your $2,000 a month: ... $480 a year"
  (2 % of $24,000). The figure is the sum or difference of two other dollar figures of its
  paragraph or the one before it, or a percentage of its paragraph's times one of those amounts
  (as written, a year of a monthly amount, or a month of a yearly one), to the dollar. A figure a
  fee word governs ("annual fee: $68", "$99 fee", "the fee is $68") is a fee, unless words right
  after it make it a comparison or a total ("$10 more", "$720/yr in fees", "combined");
* **a bonus named again** - "comes with a $250 bonus ... plus $250 in year one": a figure equal to
  a bonus the answer states elsewhere ("a $250 bonus", "bonus of $75", "$500 SUB"), that no fee
  word governs, is that bonus.

Each reading leaves the figure unverified (the grammar cannot tell it from a fee); it never
makes a wrong fee right where the words name the fee.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import FEE_CLAIM
from replicas.verifiers.compliance.ruleset32 import _governed
from replicas.verifiers.compliance.term_checks import check_fee

if TYPE_CHECKING:
    from replicas.verifiers.compliance.catalog import Catalog
    from replicas.verifiers.compliance.claims import Claim, Extraction

__all__ = ["checked_33", "worked_33"]

_DOLLARS_33 = re.compile(
    r"(?<![\w.])\$[ \t]?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?(?![\d,]\d)(?:[ \t]?([kK])\b)?"
)
_PERCENT_33 = re.compile(r"(?<![\w.])(\d{1,2}(?:\.\d{1,2})?)[ \t]?%")
_BASE_FLOOR_33 = 100.0  # an amount a percentage fee is worked on is at least this
_PCT_FEES_33 = (
    ("bt", "bt_fee_pct", "bt_fee_min_usd"),
    ("cash_advance", "cash_advance_fee_pct", "cash_advance_fee_min_usd"),
    ("foreign", "foreign_txn_fee_pct", None),
)
_BLANK_33 = re.compile(r"\n[ \t]*\n")
# words right after a figure that make it a comparison or a total, not a price
_RESULT_AFTER_33 = re.compile(
    r"(?:\*\*|__)?[ \t]*(?:(?:a|per)[ \t]+(?:year|month)[ \t]+|/[ \t]*(?:yr|year|mo|month)[ \t]+)?"
    r"(?:more|less|extra|cheaper|ahead|behind|back|net|in[ \t]+(?:total|combined|annual)?[ \t]*fees"
    r"|combined|total|together|between[ \t]+them|altogether)\b"
)
# words right before a figure that make it a total: "total $9,270", "comes to $342", "= $468"
_RESULT_BEFORE_33 = re.compile(
    r"\b(?:total(?:s|ling|ing)?|sum|net|(?:comes?|adds?[ \t]+up)[ \t]+to|works?[ \t]+out[ \t]+(?:to|at)"
    r"|altogether|in[ \t]+all)[ \t]*(?:of|is|:|=)?[ \t]*(?:about|around|roughly|~|\u2248)?[ \t]*"
    r"(?:\*\*|__)?[ \t]*[-+]?$"
)
# a base amount a fee is worked on: "Upfront fee on $6,000", "a 3% fee on your $5,000"
_BASE_BEFORE_33 = re.compile(
    r"\bon[ \t]+(?:a|an|the|your|that|this|every|each)?[ \t]*(?:\*\*|__)?[ \t]*$"
)
# a reward multiplier read as a rate: "4x dining" (points at a cent each: 4 %)
_MULTIPLIER_33 = re.compile(r"(?<![\w.])(\d{1,2}(?:\.\d{1,2})?)[ \t]?x\b", re.IGNORECASE)
# a bonus figure: "a $250 bonus", "$75 bonus after", "bonus of $500", "$500 SUB", "welcome offer: $200"
_BONUS_AFTER_33 = re.compile(
    r"(?:\*\*|__)?[ \t]*(?:cash[ \t]+|sign-?up[ \t]+|welcome[ \t]+|intro(?:ductory)?[ \t]+)?"
    r"(?:bonus|sub|welcome[ \t]+offer|sign-?up[ \t]+offer)\b"
)
_BONUS_BEFORE_33 = re.compile(
    r"\b(?:bonus|sub|welcome[ \t]+offer|sign-?up[ \t]+offer)[ \t]*(?:of|is|:|=|worth)?[ \t]*"
    r"(?:about|around|~|an?[ \t]+extra)?[ \t]*(?:\*\*|__)?[ \t]*$"
)
_TOLERANCE_USD_33 = 0.5  # whole dollars
_RATE_CEILING_33 = 10.0  # a reward or fee rate; an APR times an amount is interest
# at most this many operands of each kind around a figure, and figures read per answer: the
# reading is bounded on any input
_OPERANDS_33 = 24
_PERCENTS_33 = 12
_READ_33 = 64


def _amounts(masked: str, lo: int, hi: int) -> list[tuple[int, float]]:
    """The dollar figures between ``lo`` and ``hi``: (start, value), "$6k" read as $6,000."""
    out = []
    for m in _DOLLARS_33.finditer(masked, lo, hi):
        value = float(m[1].replace(",", "")) + (float("0." + m[2]) if m[2] else 0.0)
        out.append((m.start(), value * 1000 if m[3] else value))
    return out


def _paragraph_starts(masked: str) -> list[int]:
    """Where each paragraph (text between blank lines) starts, in order."""
    return [0, *(m.end() for m in _BLANK_33.finditer(masked))]


def _pct_fee_worked(claim: Claim, catalog: Catalog, bases: list[float]) -> bool:
    """The figure is one of its cards' percentage fees on an amount the answer states."""
    value = claim.low or 0.0
    kinds = claim.admissible
    for card_id in claim.cards:
        card = catalog.card(card_id)
        for kind, pct_field, min_field in _PCT_FEES_33:
            if claim.kind != "any" and kind not in kinds:
                continue
            pct = getattr(card, pct_field)
            if not pct:
                continue
            floor = getattr(card, min_field) if min_field else 0.0
            for base in bases:
                if abs(max(base * pct / 100, floor or 0.0) - value) <= 0.5:
                    return True
    return False


def _arithmetic(
    value: float, amounts: list[float], percents: list[float], fees: list[float]
) -> bool:
    """``value`` is, to the dollar, a sum or difference of two of ``amounts`` and ``fees``, or
    one of ``percents`` (a reward or fee rate, at most 10 %: no APR) of one of ``amounts`` (as
    written, times twelve, or over twelve)."""
    ops = sorted(a for a in amounts + fees if a > 0 and abs(a - value) > _TOLERANCE_USD_33)
    for i, a in enumerate(ops):
        # another operand b = value - a (a sum), a - value or a + value (a difference)
        for b in (value - a, a - value, a + value):
            k = bisect_left(ops, b - _TOLERANCE_USD_33)
            while k < len(ops) and ops[k] <= b + _TOLERANCE_USD_33:
                if k != i:
                    return True
                k += 1
    for p in percents:
        if not 0 < p <= _RATE_CEILING_33:
            continue
        for a in amounts:
            worked = a * p / 100
            for d in (worked, worked * 12, worked / 12):
                if abs(d - value) <= max(_TOLERANCE_USD_33, 0.005 * d):
                    return True
    return False


def _bonuses(masked: str) -> set[float]:
    out = set()
    for start, value in _amounts(masked, 0, len(masked)):
        m = _DOLLARS_33.match(masked, start)
        end = m.end() if m is not None else start
        if _BONUS_AFTER_33.match(masked, end) or _BONUS_BEFORE_33.search(
            masked, max(0, start - 40), start
        ):
            out.add(value)
    return out


def worked_33(
    claims: Sequence[Claim], extraction: Extraction, catalog: Catalog
) -> Sequence[Claim]:
    """``worked_33`` (module docstring): worked dollar figures bound as fees, and wrong for each
    of their cards, are unverified (at most ``_READ_33`` figures an answer)."""
    masked = extraction.masked
    if "$" not in masked:
        return claims
    out: list[Claim] | None = None
    everything: list[tuple[int, float]] = []
    echoes: set[float] = set()
    fees: list[float] = []
    starts: list[int] = []
    paragraphs: list[int] = []
    percents: list[tuple[int, float]] = []
    bonuses: set[float] | None = None
    read = 0
    for i, claim in enumerate(claims):
        if (
            claim.family != FEE_CLAIM
            or not claim.cards
            or claim.is_none
            or not claim.low  # "$0" denies a fee: never a worked figure
            or claim.unit != "usd"
            or not claim.text.lstrip("*_~ ").startswith("$")
            or read >= _READ_33
            or not any(check_fee(claim, catalog.card(c), c) for c in claim.cards)
        ):
            continue
        read += 1
        if not paragraphs:
            everything = _amounts(masked, 0, len(masked))
            starts = [s for s, _ in everything]
            paragraphs = _paragraph_starts(masked)
            percents = sorted(
                (m.start(), float(m[1]))
                for rate in (_PERCENT_33, _MULTIPLIER_33)
                for m in rate.finditer(masked)
                if float(m[1]) <= _RATE_CEILING_33
            )
            claimed = {c.start for c in extraction.claims}
            echoes = {v for s, v in everything if s not in claimed}
            fees = sorted(
                {
                    fee
                    for m in extraction.mentions
                    if m.card_id is not None
                    and (fee := catalog.card(m.card_id).annual_fee_usd or 0.0) > 0
                }
            )
        value = claim.low
        bases = sorted({v for s, v in everything if v >= _BASE_FLOOR_33 and s != claim.start})
        worked = bool(bases) and _pct_fee_worked(claim, catalog, bases)
        if not worked:
            line = masked.rfind("\n", 0, claim.start) + 1
            governed = (
                _governed(masked, claim)
                and not _RESULT_AFTER_33.match(masked, claim.end)
                and not _RESULT_BEFORE_33.search(masked, max(line, claim.start - 40), claim.start)
            )
            if value >= _BASE_FLOOR_33 and _BASE_BEFORE_33.search(
                masked, max(line, claim.start - 24), claim.start
            ):
                worked = True  # "fee on $6,000": the amount the fee is worked on
            if not governed and not worked:
                k = bisect_right(paragraphs, claim.start) - 1
                lo = paragraphs[max(0, k - 1)]
                hi = paragraphs[k + 1] if k + 1 < len(paragraphs) else len(masked)
                at = bisect_left(starts, claim.start)
                first = max(bisect_left(starts, lo), at - _OPERANDS_33)
                last = min(bisect_left(starts, hi), at + 1 + _OPERANDS_33 // 3)
                amounts = [v for s, v in everything[first:last] if s != claim.start]
                near = sorted(percents, key=lambda sp: (abs(sp[0] - claim.start), sp[0]))
                worked = _arithmetic(value, amounts, [p for _, p in near[:_PERCENTS_33]], fees)
                if not worked:
                    if bonuses is None:
                        bonuses = _bonuses(masked)
                    worked = (
                        value in bonuses and not _BONUS_AFTER_33.match(masked, claim.end)
                    ) or value in echoes
        if worked:
            if out is None:
                out = list(claims)
            out[i] = replace(claim, cards=(), binding="")
    return claims if out is None else out


def checked_33(
    previous: Callable[[Extraction], Sequence[Claim]] | None, catalog: Catalog
) -> Callable[[Extraction], Sequence[Claim]]:
    """The claims as ruleset 33 checks them: ruleset 32's, then ``worked_33``."""

    def checked(extraction: Extraction) -> Sequence[Claim]:
        claims = extraction.claims if previous is None else previous(extraction)
        return worked_33(claims, extraction, catalog)

    return checked
