"""Ruleset 34's readings, for recall (the s36-s39 blind sets' tuning halves' missed codes, and
red team Y's holes that rulesets 32 and 33 share):

* ``acquire_34``: a first-person verb of getting a card right before it puts the card forward
  ("I'd add the **X**", "at 610 I'd go **X**:", "I'd move it to X", "I'll transfer the balance
  to X"), unless the sentence before it puts the step off ("once you're at 680, I'd add X") or
  negates it, or the line quotes the customer ("> I'd move it to X?");
* ``first_year_34``: a clause that says what a card's first year costs is checked against the
  catalog's first-year fee: a waiver ("which waives the $325 for your first year", "its first
  year is also waived", "$95 ($0 year one)", "both waive the $95 the first year") on a card that
  charges its fee in year one, and the first year's fee ("the first year is $95", "no first-year
  waiver", "you pay it in the first year too") on a card that waives it. The clause binds to the
  card it names (or, naming none, the one card its sentence names before it); several cards only
  with "both"/"each"; a request ("ask them to waive the first year"), a hedge ("many cards waive")
  or a clause about another fee or an intro rate is no claim; a clause the extraction already read
  a first-year claim in is left to it.

and two for precision (the tuning halves' false flags):

* ``supposed_34``: a whole-number APR the answer supposes is no rate of the card it is bound to
  ("at, say, 24%", "e.g. 22%", "if ... your rate is 18%", a sentence opening "Say you've got
  ...", "keeping it on a 27% card", "at a 24% rate it would cost"); no catalog APR is a whole
  number, an example's is. Without such words a whole-number APR stays checked: "a 27% APR" is
  the likeliest hallucination of all (``round_33``, dropped in stop 47);
* ``amounts_34``: a dollar figure that is thousands ("up to $6k"), a deposit ("$200 deposit",
  "only $200 down", "a deposit of $200") or a payment ("an automatic $295 payment", "payments of
  $343") is no fee;
* ``yearly_34``: a yearly figure twelve times a monthly one right before it on its line ("$30 a
  month, or $360 a year", "~$17/mo, ~$205/yr"), wrong for each of its cards, is no fee - unless a
  word of a price stands before it in its sentence ("costs $8 a month, or $96 a year") or a fee
  word governs it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import APR_CLAIM, FEE_CLAIM
from replicas.verifiers.compliance.claims import Claim
from replicas.verifiers.compliance.recommend import Recommendations
from replicas.verifiers.compliance.ruleset32 import _governed
from replicas.verifiers.compliance.term_checks import check_fee
from replicas.verifiers.compliance.values import NONE, USD

if TYPE_CHECKING:
    from replicas.verifiers.compliance.catalog import Catalog
    from replicas.verifiers.compliance.claims import Extraction
    from replicas.verifiers.compliance.ruleset import Ruleset

__all__ = ["acquire_34", "amounts_34", "checked_34", "first_year_34", "supposed_34", "yearly_34"]


# -- acquire_34 ----------------------------------------------------------------------------------

# "I'd add the **", "I would go ", "I'd move it over to ", "I'll transfer the balance to the "
# ending right where a card mention (masked as "#") starts
_ACQUIRE_34 = re.compile(
    r"(?<![a-z])i(?:'d|[ \t]+would|'ll|[ \t]+will)[ \t]+"
    r"(?:(?:probably|definitely|personally|just|also|honestly|really|then|now|still)[ \t]+)?"
    r"(?:add|go"
    r"|(?:move|transfer|shift|put)[ \t]+(?:it|this|that|them|(?:the|your|that|this)[ \t]+"
    r"(?:balance|debt|transfer))(?:[ \t]+over)?[ \t]+(?:to|on(?:to)?))"
    r"[ \t]+(?:(?:the|an?)[ \t]+)?(?:\*\*|__)?$"
)
# what puts the step off or denies it, in the sentence before the card
_PUT_OFF_34 = re.compile(
    r"\b(?:once|when|after|until|till|unless|if|later|eventually|someday|one[ \t]+day|next[ \t]+year"
    r"|down[ \t]+the[ \t]+(?:road|line)|not|never|in[ \t]+(?:\d+|a|an|a[ \t]+few|six|twelve|"
    r"several)[ \t-]+(?:to[ \t]+\d+[ \t]+)?(?:months?|years?))\b|n't\b"
)
_REACH_34 = 80


def acquire_34(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """``recs`` with the cards a first-person verb of getting puts forward (module docstring);
    a card ``recs`` rules out stays ruled out."""
    positive = None
    for mention in extraction.mentions:
        card = mention.card_id
        if card is None or card in recs.positive or card in recs.negated:
            continue
        if positive is not None and card in positive:
            continue
        line_start = masked.rfind("\n", 0, mention.start) + 1
        if masked.startswith(">", line_start):
            continue  # the customer's own words, quoted
        before = masked[max(line_start, mention.start - _REACH_34) : mention.start]
        if _ACQUIRE_34.search(before) is None:
            continue
        sentence = masked[_sentence_start(masked, mention.start, line_start) : mention.start]
        if _PUT_OFF_34.search(sentence) is not None:
            continue
        if positive is None:
            positive = dict(recs.positive)
        positive[card] = mention
    return recs if positive is None else Recommendations(positive, recs.negated)


def _sentence_start(masked: str, pos: int, floor: int) -> int:
    """Where the sentence holding ``pos`` starts (not before ``floor``)."""
    k = pos
    while k > floor:
        ch = masked[k - 1]
        if ch in "!?;" or (ch == "." and not (k < len(masked) and masked[k].isdigit())):
            return k
        k -= 1
    return floor


# -- first_year_34 -------------------------------------------------------------------------------

_FIRST_YEAR_34 = re.compile(r"\b(?:first|1st|opening)[ \t-]+year\b|\byear[ \t-]+(?:one|1)\b")
# the clause's bounds: a sentence end, a line end, a table bar, a comma, a contrast
_CLAUSE_END_34 = re.compile(
    r"[!?;|\n]|\.(?!\d)|,|\((?!\$?0\b)|\)|[ \t](?:-|--|\u2013|\u2014)[ \t]"
    r"|\b(?:but|while|whereas|unlike|though|although|then|except|however)\b"
)
# a waiver said not to exist (read before a waiver)
_NOT_WAIVED_34 = re.compile(
    r"\bno[ \t]+(?:first[ \t-]+year[ \t]+|year[ \t-]+one[ \t]+)?(?:fee[ \t]+)?(?:waiver|break)\b"
    r"|(?:\b(?:not|never|no)\b|n't\b)[^.;\n]{0,25}?\bwaiv\w*"
    r"|\bfrom[ \t]+day[ \t]+one\b"
    r"|\b(?:pay|paying|charged?|charges|due|applies|billed)\b[^.;\n]{0,30}?"
    r"\b(?:first|1st)[ \t-]+year\b[ \t]*(?:too|as[ \t]+well|also)\b"
)
# a waiver of the first year's fee
_WAIVED_34 = re.compile(
    r"\bwaiv(?:e|es|ed|ing)\b"
    r"|(?<![-\w])free\b"
    r"|(?:\bon[ \t]+the[ \t]+house|\bcosts?[ \t]+nothing|\bpay[ \t]+nothing|\bnothing)\b"
    r"|\$0(?:\.00)?(?![\d,.]*\d)"
)
# the first year priced: "the first year is $95", "year one costs $95"
_PRICED_34 = re.compile(r"(?:first|1st)[ \t-]+year|year[ \t-]+(?:one|1)")
_PRICE_34 = re.compile(
    r"(?:'s[ \t]+fee)?[ \t]+(?:is|costs?|comes[ \t]+to|will[ \t]+(?:be|cost)|runs?(?:[ \t]+you)?)"
    r"[ \t]+(?:(?:the[ \t]+)?full[ \t]+|still[ \t]+)?\$(\d{1,3}(?:,\d{3})*|\d+)(?:\.00)?(?![\d,.]*\d)"
)
# what makes the clause no claim about the annual fee's first year: a request, a hedge, another
# fee, an intro rate, a reward
_NOT_A_CLAIM_34 = re.compile(
    r"\b(?:ask\w*|request\w*|call\w*|negotiat\w*|might|may|could|sometimes|often|usually"
    r"|typically|many|some|most|other|if|would|late|foreign|transfers?|advance|penalty|interest"
    r"|aprs?|intro\w*|purchases?|earn\w*|rewards?|bonus|cash[ \t]*back|points|miles|value|worth"
    r"|net|saves?|saving)\b|%"
)
# a sentence that takes its card from the one before
_NO_SUBJECT_34 = re.compile(
    r"[ \t*_>-]*(?:it\b|it's\b|its\b|the[ \t]+(?:first|1st|fee|annual[ \t]+fee|card)\b|first\b"
    r"|1st\b|year\b|that\b|this\b|and\b|you\b|your\b|no\b|there\b|there's\b|but\b)"
)
_ALL_34 = re.compile(r"\b(?:both|each|all[ \t]+(?:two|three|four))\b")


def first_year_34(
    claims: Sequence[Claim], extraction: Extraction, catalog: Catalog
) -> Sequence[Claim]:
    """``claims`` and the first-year claims ``first_year_34`` reads (module docstring), added
    after them (the disclosure rules and ruleset 8's strict intro indices keep the extraction's
    claims)."""
    masked = extraction.masked
    if not masked or _FIRST_YEAR_34.search(masked) is None:
        return claims
    out = list(claims)
    added: list[Claim] = []
    done: set[int] = set()
    for match in _FIRST_YEAR_34.finditer(masked):
        start, end = _clause(masked, match.start(), match.end())
        if start in done:
            continue
        done.add(start)
        clause = masked[start:end]
        if _NOT_A_CLAIM_34.search(clause) is not None:
            continue
        value = _value(clause)
        if value is None:
            continue
        cards = _cards(masked, extraction, start, end, clause)
        if not cards:
            continue
        here = [
            i
            for i, c in enumerate(out)
            if c.family == FEE_CLAIM
            and start <= c.start < end
            and "annual_first_year" in (c.kinds or {c.kind})
        ]
        if value == "waived":
            # the extraction read the waiver already ("$0 the first year", "no fee in year one")
            if any(out[i].cards and (out[i].is_none or out[i].low == 0) for i in here):
                continue
            # "waives the $325 for your first year": the figure is the fee waived, no claim
            for i in here:
                out[i] = replace(out[i], cards=())
        elif value == "charged":
            if any(out[i].cards for i in here):
                continue
        else:
            # "the first year costs $95": the figure is the first year's fee, no other
            for i in here:
                out[i] = replace(out[i], cards=())
        for card_id in cards:
            card = catalog.card(card_id)
            fee, first = card.annual_fee_usd, card.annual_fee_first_year_usd
            if fee is None or first is None or not fee:
                continue
            if value == "waived":
                claim = Claim(FEE_CLAIM, "annual_first_year", start, end, NONE, is_none=True)
            else:
                amount = fee if value == "charged" else value
                claim = Claim(
                    FEE_CLAIM, "annual_first_year", start, end, USD, low=amount, high=amount
                )
            added.append(_bound(claim, card_id, masked[start:end]))
    return claims if not added and out == list(claims) else [*out, *added]


def _bound(claim: Claim, card_id: str, text: str) -> Claim:
    return Claim(
        claim.family,
        claim.kind,
        claim.start,
        claim.end,
        claim.unit,
        low=claim.low,
        high=claim.high,
        is_none=claim.is_none,
        cards=(card_id,),
        text=text.strip(),
        binding="clause",
    )


def _clause(masked: str, start: int, end: int) -> tuple[int, int]:
    """The clause around the first-year words at ``[start, end)``."""
    line_start = masked.rfind("\n", 0, start) + 1
    left = line_start
    for bound in _CLAUSE_END_34.finditer(masked, max(line_start, start - 160), start):
        left = bound.end()
    after = _CLAUSE_END_34.search(masked, end, min(len(masked), end + 160))
    right = after.start() if after is not None else min(len(masked), end + 160)
    while left < start and masked[left] in " \t*_":
        left += 1
    while right > end and masked[right - 1] in " \t*_":
        right -= 1
    return left, right


def _cards(
    masked: str, extraction: Extraction, start: int, end: int, clause: str
) -> tuple[str, ...]:
    """The cards the clause at ``[start, end)`` is about (module docstring)."""
    inside = {m.card_id: None for m in extraction.mentions if start <= m.start < end and m.card_id}
    if any(m.card_id is None and start <= m.start < end for m in extraction.mentions):
        return ()
    if len(inside) == 1:
        return tuple(inside)
    if len(inside) > 1:
        return tuple(inside) if _ALL_34.search(clause) is not None else ()
    # naming none: the one card its line (a paragraph, a list item) names before it, when its
    # sentence names no subject of its own ("It waives ...", "The first year is $95", not
    # "Plus only wins on a free year 1")
    line_start = masked.rfind("\n", 0, start) + 1
    sentence = _sentence_start(masked, start, line_start)
    if sentence > line_start and _NO_SUBJECT_34.match(masked, sentence) is None:
        return ()
    before = [m for m in extraction.mentions if line_start <= m.start < start]
    if any(m.card_id is None for m in before):
        return ()
    named = {m.card_id: None for m in before}
    return tuple(named) if len(named) == 1 else ()


def _value(clause: str) -> str | float | None:
    """What the clause says of the first year: "charged" (no waiver), "waived", a dollar
    figure, or ``None``."""
    if _NOT_WAIVED_34.search(clause) is not None:
        return "charged"
    priced = None
    for m in _PRICED_34.finditer(clause):
        priced = _PRICE_34.match(clause, m.end())
        if priced is not None:
            break
    if priced is not None:
        amount = float(priced.group(1).replace(",", ""))
        return "waived" if amount == 0 else amount
    if _WAIVED_34.search(clause) is not None:
        return "waived"
    return None


# -- supposed_34, amounts_34 (precision) -----------------------------------------------------

# a rate the answer supposes: "at, say, 24%", "e.g. 22%", "if ... your rate is 18%", "at a 24%
# rate it would cost", "on a 27% card"
_SUPPOSED_BEFORE_34 = re.compile(
    r"(?:\bsay|\bsuppose|\bimagine|\be\.g\.|\bfor[ \t]+(?:example|instance)),?[ \t]+"
    r"(?:(?:a|an|an[ \t]+apr[ \t]+of|a[ \t]+rate[ \t]+of)[ \t]+)?(?:\*\*|__)?$"
    r"|\bif\b[^.;:!?\n]{0,60}\b(?:rate|apr)[ \t]+(?:is|were|was|lands?|landed|ends?[ \t]+up)"
    r"(?:[ \t]+at)?[ \t]+(?:\*\*|__)?$"
    r"|\b(?:on|at|than|vs\.?|versus|to)[ \t]+an?[ \t]+(?:\*\*|__)?$"
)
_SUPPOSED_AFTER_34 = {
    # "... a 27% card", "a 24% rate it would cost" (the "a" before the rate: _SUPPOSED_BEFORE_34)
    "card": re.compile(r"(?:\*\*|__)?[ \t]+(?:apr[ \t]+)?card\b"),
    "rate": re.compile(r"(?:\*\*|__)?[ \t]+(?:rate|apr)\b[^.;:!?\n]{0,30}\b(?:would|'d|will)\b"),
}
_LEADING_A_34 = re.compile(r"\ban?[ \t]+(?:\*\*|__)?$")
# a sentence that sets up an example: "Say you've got $3,000 on X and your rate landed at 25%"
_EXAMPLE_SENTENCE_34 = re.compile(
    r"[ \t*_>-]*(?:(?:let's|lets)[ \t]+)?(?:say|suppose|imagine|for[ \t]+example|e\.g\.)\b"
)
# a dollar figure that is no fee: thousands ("$6k"), a deposit ("$200 deposit", "$200 down",
# "a deposit of $200"), a payment ("an automatic $295 payment", "payments of $343")
_THOUSANDS_AFTER_34 = re.compile(r"[kK]\b")
_NO_FEE_AFTER_34 = re.compile(
    r"(?:\*\*|__)?[ \t]+(?:(?:security|minimum|refundable|cash)[ \t]+)?(?:deposit|down\b)"
    r"|(?:\*\*|__)?[ \t]+(?:(?:monthly|a[ \t]+month|/mo|per[ \t]+month)[ \t]+)?payments?\b"
    r"(?![ \t]+fee)"
)
_NO_FEE_BEFORE_34 = re.compile(
    r"\b(?:deposit|payments?)[ \t]+(?:of|is|are|:)[ \t]+(?:about[ \t]+|around[ \t]+|~)?"
    r"(?:\*\*|__)?$"
)


def supposed_34(claims: Sequence[Claim], masked: str) -> Sequence[Claim]:
    """``claims`` with a whole-number APR the answer supposes left unverified (no catalog APR
    is a whole number; an example's rate is): after "say", "e.g.", "if ... your rate is", in a
    sentence that opens with "say"/"suppose", or "a 27% card", "at a 24% rate it would cost"."""
    out: list[Claim] | None = None
    for i, claim in enumerate(claims):
        if (
            claim.family != APR_CLAIM
            or not claim.cards
            or claim.low is None
            or claim.low != claim.high
            or claim.low != int(claim.low)
        ):
            continue
        line_start = masked.rfind("\n", 0, claim.start) + 1
        before = masked[max(line_start, claim.start - _REACH_34) : claim.start]
        supposed = _SUPPOSED_BEFORE_34.search(before)
        if supposed is not None and _LEADING_A_34.search(before) is not None:
            # "on a 27% card", "at a 24% rate it would ...": only with a card or a rate after
            supposed = None
            for after in _SUPPOSED_AFTER_34.values():
                if after.match(masked, claim.end) is not None:
                    supposed = after.match(masked, claim.end)
        if supposed is None:
            sentence = _sentence_start(masked, claim.start, line_start)
            if _EXAMPLE_SENTENCE_34.match(masked, sentence) is None:
                continue
        if out is None:
            out = list(claims)
        out[i] = replace(claim, cards=())
    return claims if out is None else out


def amounts_34(claims: Sequence[Claim], masked: str) -> Sequence[Claim]:
    """``claims`` with a dollar figure that is no fee left unverified: thousands ("up to $6k"),
    a deposit ("$200 deposit", "only $200 down") or a payment ("an automatic $295 payment")."""
    out: list[Claim] | None = None
    for i, claim in enumerate(claims):
        if claim.family != FEE_CLAIM or not claim.cards or claim.unit != USD:
            continue
        line_start = masked.rfind("\n", 0, claim.start) + 1
        if (
            _THOUSANDS_AFTER_34.match(masked, claim.end) is None
            and _NO_FEE_AFTER_34.match(masked, claim.end) is None
            and _NO_FEE_BEFORE_34.search(masked, max(line_start, claim.start - 40), claim.start)
            is None
        ):
            continue
        if out is None:
            out = list(claims)
        out[i] = replace(claim, cards=())
    return claims if out is None else out


# a yearly figure that is twelve times a monthly one right before it: "$30 a month, or $360 a
# year", "~$17/mo, ~$205/yr", "about $34 a month across both cards, just over $408 a year"
_YEAR_AFTER_34 = re.compile(
    r"(?:\*\*|__)?[ \t]*(?:(?:a|per|/)[ \t]*(?:year|yr)\b|annually\b|yearly\b|/annum\b)"
)
_MONTHLY_BEFORE_34 = re.compile(
    r"\$(\d{1,3}(?:,\d{3})*(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)(?![\d,]*\d)[ \t]*(?:\*\*|__)?[ \t]*"
    r"(?:a|per|/)[ \t]*(?:month|mo)\b(?P<gap>[^$\n]{0,40})$"
)
# words that make the monthly figure a price: "costs $8 a month, or $96 a year"
_PRICE_WORDS_34 = re.compile(
    r"\b(?:fees?|af|costs?|costing|charges?|charged|charging|pay|paying|price\w*|membership"
    r"|subscription)\b"
)
_ROUNDING_34 = 6.0  # a monthly figure rounded to the dollar, times twelve


def yearly_34(claims: Sequence[Claim], masked: str, catalog: Catalog) -> Sequence[Claim]:
    """``claims`` with a yearly dollar figure that is twelve times a monthly figure right before
    it on its line (``_MONTHLY_BEFORE_34``) left unverified, when it is wrong for each of its
    cards and no word of a price stands in its sentence before it or governs it."""
    out: list[Claim] | None = None
    for i, claim in enumerate(claims):
        if (
            claim.family != FEE_CLAIM
            or not claim.cards
            or claim.unit != USD
            or not claim.low
            or claim.low != claim.high
            or _YEAR_AFTER_34.match(masked, claim.end) is None
        ):
            continue
        line_start = masked.rfind("\n", 0, claim.start) + 1
        monthly = _MONTHLY_BEFORE_34.search(masked, max(line_start, claim.start - 120), claim.start)
        if monthly is None:
            continue
        value = float(monthly.group(1).replace(",", ""))
        if abs(12 * value - claim.low) > _ROUNDING_34:
            continue
        sentence = _sentence_start(masked, monthly.start(), line_start)
        if _PRICE_WORDS_34.search(masked, sentence, claim.start) or _governed(masked, claim):
            continue
        if not all(check_fee(claim, catalog.card(c), c) for c in claim.cards):
            continue
        if out is None:
            out = list(claims)
        out[i] = replace(claim, cards=())
    return claims if out is None else out


def checked_34(
    previous: Callable[[Extraction], Sequence[Claim]] | None, catalog: Catalog, rules: Ruleset
) -> Callable[[Extraction], Sequence[Claim]]:
    """The claims as ruleset 34 checks them: ruleset 33's, then ``amounts_34``,
    ``supposed_34`` and ``first_year_34`` where ``rules`` has them."""

    def checked(extraction: Extraction) -> Sequence[Claim]:
        claims = extraction.claims if previous is None else previous(extraction)
        if rules.amounts_34:
            claims = amounts_34(claims, extraction.masked)
        if rules.supposed_34:
            claims = supposed_34(claims, extraction.masked)
        if rules.yearly_34:
            claims = yearly_34(claims, extraction.masked, catalog)
        if rules.first_year_34:
            claims = first_year_34(claims, extraction, catalog)
        return claims

    return checked
