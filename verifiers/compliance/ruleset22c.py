"""Ruleset 22, part c (flag ``arithmetic_22c``): a dollar figure typed only by the generic word
"fee" that is arithmetic on the amounts of its sentence is a worked example, not a fee term.

Answers that explain a fee work it out: "Moving $4,000 -> $120 fee", "5%, minimum $10 -> $250
on your $5,000", "on a $6,000 move the fees would be $300 and $240", "take out five hundred
dollars and the fee is fifteen dollars", "$2,000 plus the $60 fee is $2,060", "the minimum
bites below $10 / 4% = $250". The extractor reads each of those dollar figures as a claim about
"a fee" of the card nearby - any of its dollar fees (annual, late, minimum interest, a
percentage fee's minimum) - and none matches, so ruleset 21 reports ``wrong_fee`` on a correct
sum. Ruleset 21 read a worked fee only after a principal phrased "owe / move / transfer $N"
(``ruleset21._worked_fees``).

Here a dollar figure the words around it typed only as *some* fee (the claim leaves three or more
fee kinds open: no "annual", "late", "transfer fee" next to it) is unverified when its sentence
(the extractor's unit: a sentence, list item or table row) shows it is arithmetic - with ``V``
the figure, ``D``/``E`` other dollar amounts of the same unit (digits, "$5k", "500 dollars", "three thousand dollars", "three hundred bucks") and
``p`` a percentage of 10 % or less stated in the response (digits or words):

* a percentage of an amount: ``V = p% x D`` (the fee a transfer or cash advance costs), or the
  same per year on a monthly amount (``12 x p% x D``, "on $200 a month ... 4% is $96 a year");
* the amount a percentage was taken of: ``D = p% x V`` ("$250 on your $5,000"; a break-even
  withdrawal "$10 / 5% = $200");
* for a yearly figure the extractor typed as the annual fee by "a year" alone (no fee word after
  it: "on $250 a month of groceries, 4% is $120 a year"), only the percentage relations;
* a sum or a difference: ``V = D + E`` or ``V = D - E`` ("$3,000 plus the $90 fee is $3,090"),
  where the unit's words work one out ("plus", "+", "=", "in total", "comes to").

Within half a dollar or 0.5 %, whichever is larger. A figure typed as one fee ("annual fee $95",
"late fee: $40", "a $5 minimum") is never unbound here, so a wrong fee term is still reported;
only an untyped figure that the arithmetic explains is left unverified (issue 13: a figure the
grammar cannot attribute is reported as unverified, not as a violation). See "Ruleset 22, part c"
in ``verifiers/compliance/RULESETS.md``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence

from replicas.verifiers.compliance.catalog import Catalog
from replicas.verifiers.compliance.claims import Claim, Extraction, unbind_claims
from replicas.verifiers.compliance.numwords import NUMBER_WORDS, parse_number_words

__all__ = ["revise_22c"]

#: a claim that leaves this many fee kinds open was typed only by a generic word ("fee")
_GENERIC_KINDS_22C = 3
#: more stated percentages than this: a rate table, not an explanation (as ruleset 21)
_MAX_PCTS_22C = 12
_MAX_AMOUNTS_22C = 40
#: a yearly figure the extractor typed as the annual fee ("$120 a year")
_ANNUAL_22C = frozenset({"annual", "annual_first_year"})


def _candidate(claim: Claim) -> bool:
    """A single dollar figure typed only as "a fee", or as an annual fee by "a year" alone."""
    if claim.family != "fee" or claim.unit != "usd" or claim.low is None or not claim.cards:
        return False
    if claim.high is not None and claim.high != claim.low:
        return False
    return len(claim.kinds) >= _GENERIC_KINDS_22C or _yearly(claim)


def _yearly(claim: Claim) -> bool:
    return claim.kind in _ANNUAL_22C and (not claim.kinds or claim.kinds <= _ANNUAL_22C)


_DIGITS = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?"
_MONEY_22C = re.compile(
    rf"\$[ \t]?(?P<d>{_DIGITS})(?:[ \t]?(?P<k>k)\b)?"
    rf"|(?<![\w.,])(?P<n>{_DIGITS})[ \t]?(?P<k2>k[ \t]+)?(?:dollars|bucks|usd)\b"
    rf"|\b(?P<w>{NUMBER_WORDS})(?:[ \t]+(?P<t>thousand))?[ \t]+(?:dollars|bucks)\b"
    rf"|\b(?P<f>{NUMBER_WORDS}|{_DIGITS})(?=[ \t]+in[ \t]+fees?\b)"
)
#: the first branch alone: a unit with no "dollars", "bucks", "usd" or "in fees" in it
_MONEY_DIGITS_22C = re.compile(rf"\$[ \t]?(?P<d>{_DIGITS})(?:[ \t]?(?P<k>k)\b)?")
_MONEY_WORDS_22C = re.compile(r"dollar|buck|usd|in[ \t]+fee")
_PCT_22C = re.compile(r"(?<![\d.])(?P<d>\d{1,2}(?:\.\d{1,2})?)[ \t]?(?:%|percent\b|per[ \t]cent\b)")
_PCT_WORDS_22C = re.compile(
    rf"\b(?P<w>{NUMBER_WORDS})(?:[ \t]+point[ \t]+(?P<f>{NUMBER_WORDS}))?[ \t]+"
    rf"(?:percent|per[ \t]cent)\b"
)
#: a sum is worked out only where the words say so ("plus", "+", "in total", "=", "comes to")
_SUM_WORDS_22C = re.compile(
    r"\+|=|\b(?:plus|minus|total|totals|altogether|in[ \t]+all|on[ \t]+top|comes?[ \t]+to)\b"
)
#: the words right after a yearly figure that make it a fee ("$120 annual fee", "$95/yr fee")
_FEE_WORD_22C = re.compile(
    r"[^.;:\n]{0,20}?\b(?:fees?|annual[ \t]+fee|membership|charge[ds]?|costs?)\b"
)
_FEE_BEFORE_22C = re.compile(
    r"\b(?:fees?|costs?|charges?|pay|pays|membership)\b(?:[ \t]+(?:is|of|just|only|about|"
    r"around|you|a|an|\w+ly))*[ \t:]*$"
)
_MONTHLY_22C = re.compile(r"\b(?:a|per|each|every)[ \t]+month\b|\bmonthly\b|/[ \t]?mo\b")


def _money_value(m: re.Match[str]) -> float | None:
    if "n" not in m.re.groupindex:
        value = float(m.group("d").replace(",", ""))
        return value * 1000 if m.group("k") else value
    try:
        if m.group("d") is not None:
            value = float(m.group("d").replace(",", ""))
            return value * 1000 if m.group("k") else value
        if m.group("n") is not None:
            value = float(m.group("n").replace(",", ""))
            return value * 1000 if m.group("k2") else value
        if m.group("f") is not None:
            word = m.group("f")
            return float(word.replace(",", "")) if word[0].isdigit() else parse_number_words(word)
        value = float(parse_number_words(m.group("w")))
    except ValueError:
        return None
    return value * 1000 if m.group("t") else value


def _pct_value(m: re.Match[str]) -> float | None:
    if "d" in m.re.groupindex:
        return float(m.group("d"))
    try:
        whole = parse_number_words(m.group("w"))
        frac = m.group("f")
        if frac is None:
            return float(whole)
        digits = str(parse_number_words(frac))
        return float(f"{whole}.{digits}")
    except ValueError:
        return None


def _near(a: float, b: float) -> bool:
    return abs(a - b) <= max(0.5, 0.005 * max(abs(a), abs(b)))


def _fee_rates(catalog: Catalog, card_ids: Sequence[str]) -> list[tuple[float, float]]:
    """(percentage, dollar minimum) of every percentage fee of the cards the figure is bound to."""
    rates = []
    for card_id in card_ids:
        try:
            card = catalog.card(card_id)
        except (KeyError, ValueError):
            continue
        for pct, low in (
            (card.bt_fee_pct, card.bt_fee_min_usd),
            (card.cash_advance_fee_pct, card.cash_advance_fee_min_usd),
            (card.foreign_txn_fee_pct, None),
        ):
            if pct:
                rates.append((float(pct), float(low or 0.0)))
    return rates


def _arithmetic(
    masked: str, units: Sequence[tuple[int, int]], catalog: Catalog
) -> Callable[[Claim, str], bool]:
    """The reading: whether a generic dollar fee is arithmetic on its sentence's amounts."""
    stated: list[list[float]] = []

    def percentages() -> list[float]:
        # the response's fee-sized percentages, read once, on the first figure that needs them
        if not stated:
            matches = list(_PCT_22C.finditer(masked))
            if "percent" in masked or "per cent" in masked:
                matches += _PCT_WORDS_22C.finditer(masked)
            found = sorted({v for m in matches if (v := _pct_value(m)) is not None and 0 < v <= 10})
            stated.append(found if len(found) <= _MAX_PCTS_22C else [])
        return stated[0]

    starts = [a for a, _ in units]
    sentences: dict[int, tuple[list[tuple[int, float]], bool, bool]] = {}

    def sentence(pos: int) -> tuple[list[tuple[int, float]], bool, bool]:
        # the unit (sentence, list item, table row) holding ``pos``; none: no arithmetic read
        k = bisect_right(starts, pos) - 1
        if k < 0 or pos >= units[k][1]:
            return [], False, False
        a, b = units[k]
        if a not in sentences:
            amounts = [
                (m.start(), v)
                for m in (
                    _MONEY_22C if _MONEY_WORDS_22C.search(masked, a, b) else _MONEY_DIGITS_22C
                ).finditer(masked, a, b)
                if (v := _money_value(m)) is not None and v > 0
            ][:_MAX_AMOUNTS_22C]
            sentences[a] = (
                amounts,
                _MONTHLY_22C.search(masked, a, b) is not None,
                _SUM_WORDS_22C.search(masked, a, b) is not None,
            )
        return sentences[a]

    def arithmetic(claim: Claim, _masked: str) -> bool:
        if not _candidate(claim):
            return False
        yearly = len(claim.kinds) < _GENERIC_KINDS_22C
        if yearly and (
            _FEE_WORD_22C.match(masked, claim.end) is not None
            or _FEE_BEFORE_22C.search(masked, max(0, claim.start - 30), claim.start) is not None
        ):
            return False  # "$120 annual fee", "it costs $120 a year": typed by its own words
        value = claim.low
        assert value is not None
        amounts, monthly, sums = sentence(claim.start)
        others = [v for pos, v in amounts if not claim.start <= pos < claim.end]
        if not others:
            return False
        if yearly:
            # a reward on a spend: the response's own (reward-sized) percentages
            factors = (1.0, 12.0) if monthly else (1.0,)
            return any(
                _near(value, f * p * d / 100) or _near(d, f * p * value / 100)
                for d in others
                for p in percentages()
                for f in factors
            )
        for pct, low in _fee_rates(catalog, claim.cards):
            for d in others:
                # the card's own fee on an amount (its minimum where that is more), or the amount
                # the card's fee was taken of: a wrong worked fee matches neither and stays a claim
                if _near(value, max(pct * d / 100, low)) or (
                    value > d and _near(d, pct * value / 100)
                ):
                    return True
        if not sums:
            return False
        # a total the sentence adds up ("$3,000 plus the $90 fee is $3,090"): the total only - an
        # addend that is the fee is checked by the relations above
        return any(
            value > max(d, e) and _near(value, d + e)
            for i, d in enumerate(others)
            for e in others[i + 1 :]
        )

    return arithmetic


def revise_22c(extraction: Extraction, catalog: Catalog) -> Extraction:
    """The extraction with ruleset 22's worked fee amounts unbound (module docstring)."""
    masked = extraction.masked
    if "$" not in masked and "dollar" not in masked and "buck" not in masked:
        return extraction
    if not any(_candidate(c) for c in extraction.claims):
        return extraction
    return unbind_claims(extraction, [_arithmetic(masked, extraction.units, catalog)])
