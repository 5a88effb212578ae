"""Ruleset 28: claims earlier rulesets let pass - the figure's own noun, the first year, the rate.

Rulesets 24-27 were read for precision: each unbinds figures an honest answer states. Ruleset 28
reads for recall. The classes come from the defective answers of all read blind sets (w1-w28,
tuning halves) that ruleset 27 passes, and from a hole known since ruleset 3; each holds for any
writer, not a phrasing:

* ``fee_phrases_28`` - **a percentage is the fee its own noun phrase names.** "a cash back card
  with a 3% foreign transaction fee", "earns 2x miles with a 3% balance transfer fee": the
  typing of ruleset 3 measures a figure's cue words by distance, and "cash back" or "miles"
  before the figure is nearer than the "fee" that ends the long noun phrase after it, so the
  figure was dropped as a reward rate and a false fee passed. Here a percentage that no reading
  typed and that is followed at once by a fee's noun phrase ("foreign transaction fee",
  "balance-transfer fee", "cash advance fee", "FX fee", "fee") is that fee.
* ``year_one_28`` - **"$95, charged from the first year" says what the first year costs.** A
  dollar annual fee followed in its clause by "charged from the first year", "from year one",
  "starting in year one", "in year one too", "first year included", "no (first-year) waiver",
  "not waived" is also the first-year fee, and is checked against it (a card whose first year is
  $0 fails; one whose catalog does not say what the first year costs is not checked). Not when
  the words between name a card, another figure, a waiver, "then" or "after", or when the
  words are negated or asked ("isn't charged from the first year", "charged from year one?").
* ``variability_28`` - **"14.99% - and it's a variable rate" says the rate varies.** A purchase
  APR with no fixed/variable word of its own, followed at once (after a comma, dash or "and")
  by "it's a variable rate", "that's a fixed rate", "variable (it moves with prime)", takes that
  word. Not when negated ("it's not a fixed rate") or asked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from replicas.verifiers.compliance.claim_types import FEE_CLAIM, PCT_FEE_KINDS
from replicas.verifiers.compliance.values import PCT, USD, Value

if TYPE_CHECKING:  # claims imports this module for ``fee_phrases_28``
    from replicas.verifiers.compliance.claims import Claim, Extraction

# -- fee_phrases_28 ----------------------------------------------------------------------------

# The noun phrase of a fee right after a percentage: its scope words, then "fee(s)" or
# "charge(s)". The scope decides the kind; no scope leaves every percentage fee open.
_FEE_PHRASE = re.compile(
    r"[ \t]*(?:"
    r"(?P<foreign>(?:foreign|international|overseas)(?:[- ](?:currency|exchange|conversion))?"
    r"(?:[- ](?:transaction|purchase|exchange|spend(?:ing)?|conversion)s?)?|fx|forex|ftf)"
    r"|(?P<bt>(?:balance|bal\.?)[- ]transfers?|transfers?|bt)"
    r"|(?P<cash_advance>cash[- ]advances?|advances?)"
    r")?[ \t]*(?:fees?|charges?)\b"
)
_PCT_FEE_KINDS = ("foreign", "bt", "cash_advance")


def fee_phrases_28(
    unit_text: str, values: Sequence[Value], drafts: Sequence[dict[str, Any] | None]
) -> tuple[dict[str, Any] | None, ...]:
    """The unit's drafts with each untyped percentage that its own noun phrase calls a fee typed
    as that fee (``unit_text``: the unit's masked, lower-cased text)."""
    out: list[dict[str, Any] | None] = list(drafts)
    for i, (value, draft) in enumerate(zip(values, drafts, strict=True)):
        if draft is not None or value.unit != PCT or value.low is None:
            continue
        match = _FEE_PHRASE.match(unit_text, value.end)
        if match is None or match.end() == value.end:
            continue
        kind = next((k for k in _PCT_FEE_KINDS if match.group(k)), "any")
        out[i] = {
            "family": FEE_CLAIM,
            "kind": kind,
            "start": value.start,
            "end": value.end,
            "unit": PCT,
            "low": value.low,
            "high": value.high,
            "min_usd": value.min_usd,
            "kinds": frozenset({kind}) if kind != "any" else PCT_FEE_KINDS,
        }
    return tuple(out)


# -- year_one_28 -------------------------------------------------------------------------------

_YEAR_ONE = re.compile(
    r"(?:charged|payable|billed|applies|applicable|due|paid|pay(?:ing)?|owed|starts?|kicks? in)?"
    r"[ \t]*(?:in[ \t]+full[ \t]+)?"
    r"(?:"
    r"(?:from|starting(?:[ \t]+(?:in|with))?|beginning(?:[ \t]+(?:in|with))?|as[ \t]+of)[ \t]+"
    r"(?:(?:the|your)[ \t]+)?(?:(?:first|1st)[ \t]+(?:year|statement|bill(?:ing)?(?:[ \t]+cycle)?)"
    r"(?:[ \t]+of[ \t]+membership)?|year[ \t]+(?:one|1)|day[ \t]+(?:one|1)|start)"
    r"|(?:in|for)[ \t]+(?:the[ \t]+)?(?:first[ \t]+year|year[ \t]+(?:one|1))[ \t]+(?:too|as[ \t]+well|also)"
    r"|(?:the[ \t]+)?first[ \t]+year[ \t]+included|including[ \t]+the[ \t]+first[ \t]+year"
    r"|(?:with[ \t]+)?no[ \t]+(?:[a-z-]+[ \t]+){0,3}?waiver"
    r"|(?:is[ \t]+|it'?s[ \t]+)?not[ \t]+waived"
    r")(?![\w-])"
)
# What may stand between the figure and the words about the first year: a few plain words, no
# other figure, card, waiver, negation or time word that would make the first year another's.
_BETWEEN = re.compile(r"[^$#\d%;|\n?!.]{0,60}")
_SPOILERS = re.compile(
    r"\b(?:waiv(?:ed|es|e)|then|after|later|until|unless|except|not|n't|never|isn't|no\s+longer"
    r"|free|\$0|zero|nothing|first[- ]year[ \t]+(?:fee[ \t]+)?(?:is|of)|if)\b"
)
_CLAUSE_END = re.compile(r"[;|\n?!]|\.(?:\s|$)")


def _says_year_one(masked: str, claim: Claim) -> bool:
    between = _BETWEEN.match(masked, claim.end)
    if between is None:
        return False
    text = between.group(0)
    for cut in range(len(text) + 1):
        # the first place the words about the first year begin
        if cut and text[cut - 1] not in " \t,(-:":
            continue
        match = _YEAR_ONE.match(masked, claim.end + cut)
        if match is None or match.end() == claim.end + cut or not match.group(0).strip():
            continue
        if _SPOILERS.search(text[:cut]):
            return False
        words = match.group(0)
        if (
            "waiver" not in words
            and "waived" not in words
            and not re.search(r"(?:from|starting|beginning|as of|in|for|included|including)", words)
        ):
            return False
        end = _CLAUSE_END.search(masked, match.end())
        return end is None or masked[end.start()] != "?"  # asked, not said
    return False


def _is_annual(claim: Claim) -> bool:
    return (
        claim.family == FEE_CLAIM
        and claim.unit == USD
        and not claim.is_none
        and bool(claim.low)
        and claim.low == claim.high
        and claim.kind in ("annual", "annual_first_year", "any")
        and "annual" in claim.admissible
        and claim.admissible <= {"annual", "annual_first_year"}
    )


# -- variability_28 ----------------------------------------------------------------------------

_VARIABILITY_AFTER = re.compile(
    r"[ \t]*(?:,|-|\(|:)?[ \t]*(?:and[ \t]+|but[ \t]+)?"
    r"(?:(?:it|that|this|which|the[ \t]+(?:rate|apr))[ \t]*(?:'s|[ \t]is|[ \t]was)[ \t]+"
    r"(?:a[ \t]+|an[ \t]+)?(?:fully[ \t]+|completely[ \t]+|truly[ \t]+)?)?"
    r"(?P<word>fixed|variable)\b(?![ \t]*(?:-|to|or)\b)"
)


def _variability_after(masked: str, claim: Claim) -> str | None:
    if claim.family != "apr" or claim.kind != "purchase" or claim.variability is not None:
        return None
    match = _VARIABILITY_AFTER.match(masked, claim.end)
    if match is None:
        return None
    end = _CLAUSE_END.search(masked, match.end())
    if end is not None and masked[end.start()] == "?":
        return None
    return match.group("word")


def revise_28(extraction: Extraction, year_one: bool, variability: bool) -> Extraction:
    """The extraction with ruleset 28's claim readings (module docstring)."""
    if not (year_one or variability) or not extraction.claims:
        return extraction
    masked = extraction.masked
    out: list[Claim] = []
    changed = False
    for claim in extraction.claims:
        out.append(claim)
        if not claim.cards:
            continue
        if year_one and _is_annual(claim) and _says_year_one(masked, claim):
            # names are masked ("#"): none stands between the figure and the words
            out.append(
                replace(claim, kind="annual_first_year", kinds=frozenset({"annual_first_year"}))
            )
            changed = True
        elif variability and (word := _variability_after(masked, claim)) is not None:
            out[-1] = replace(claim, variability=word)
            changed = True
    return replace(extraction, claims=tuple(out)) if changed else extraction


__all__ = ["fee_phrases_28", "revise_28"]
