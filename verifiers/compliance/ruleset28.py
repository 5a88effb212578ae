"""Ruleset 28: claims earlier rulesets let pass - the figure's own noun, the first year, the rate.

Rulesets 24-27 were read for precision: each unbinds figures an honest answer states. Ruleset 28
reads for recall. The classes come from the defective answers of all read blind sets (w1-w28,
tuning halves) that ruleset 27 passes, and from a hole known since ruleset 3; each holds for any
writer, not a phrasing. Every guard below closes a class of honest text that a red team with the
source code found flagged (four rounds, ``tests/compliance_attacks28.py``); a reading that is not
sure leaves the claim to ruleset 27, so ruleset 28 gives every code ruleset 27 gives.

* ``fee_phrases_28`` - **a percentage is the fee its own noun phrase names.** "a cash back card
  with a 3% foreign transaction fee", "earns 2x miles with a 3% balance transfer fee": the
  typing of ruleset 3 measures a figure's cue words by distance, and "cash back" or "miles"
  before the figure is nearer than the "fee" that ends the long noun phrase after it, so the
  figure was dropped as a reward rate and a false fee passed. Here a percentage that no reading
  typed and that is followed at once by a fee's noun phrase ("foreign transaction fee",
  "balance-transfer fee", "currency conversion fee", "FX fee", "fee") is that fee - where the
  words right before it give a card the fee ("with a", "has a", "charges", a label's colon), a
  card is named before it in its sentence, and nothing there makes the fee another's, avoided or
  supposed ("saves you the", "unlike", "if", "most cards", "my old card", "from", an appositive
  or relative clause about another noun, a yes/no question, "respectively").
* ``year_one_28`` - **"$95, charged from the first year" says what the first year costs.** A
  dollar annual fee followed by "charged from the first year", "from year one", "starting in
  year one", "in year one too", "first year included", "no first-year waiver", "not waived" is
  also the first-year fee, and is checked against it (a card whose first year is $0 fails; one
  whose catalog does not say what the first year costs is not checked). Only the fee's own
  filler words may stand between ("annual fee, which is charged"; not "interest is charged", "the
  cap resets"), and not before later years ("from the start of your second year", "at renewal",
  "the first year you keep it past the intro"), waivers of something else ("no spend-based
  waiver", "not waived by spending"), or after "if", "whether", "waives", "unlike", "had" in its
  sentence, or a question. "no first-year fee waiver" (read "no annual fee the first year
  waiver" by the normaliser) denies the waiver, not the fee.
* ``variability_28`` - **"14.99% - and it's a variable rate" says the rate varies.** A purchase
  APR with no fixed/variable word of its own, followed at once (after a comma, dash, semicolon or
  "and") by "it's a variable rate", "that's a fixed rate", "variable (it moves with prime)",
  takes that word - only where the word ends its phrase or names the rate (not "fixed APRs like
  ...", "fixed vs. variable", "fixed $0 annual fee", "variable: no"), and not as a correction
  ("fixed, thanks"), a "respectively" list, negated or asked.

``span_around`` finds a figure's clause or sentence without taking a decimal point ("19.99%") for
a sentence's end.
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

# -- sentences and clauses ---------------------------------------------------------------------

#: a sentence's end (not a decimal point: "19.99%") and, for clauses, a semicolon, a pipe or a
#: line break
SENTENCE_STOP = re.compile(r"[.!?](?=[ \t\n\"')\]*_]|$)|\n")
CLAUSE_STOP = re.compile(r"[.!?](?=[ \t\n\"')\]*_]|$)|[\n;|]")


def span_around(
    text: str, start: int, end: int, reach: int = 200, stops: re.Pattern[str] = CLAUSE_STOP
) -> tuple[int, int]:
    """The bounds of the clause (or, with ``SENTENCE_STOP``, the sentence) holding
    ``text[start:end]``, at most ``reach`` characters either side; the end includes its stop."""
    low = max(0, start - reach)
    last = None
    for last in stops.finditer(text, low, start):  # noqa: B007 - the last one is wanted
        pass
    high = min(len(text), end + reach)
    after = stops.search(text, end, high)
    return (last.end() if last else low), (after.end() if after else high)


def clause_before(text: str, end: int, reach: int = 200) -> str:
    """The clause's text before ``end``, at most ``reach`` characters back."""
    return text[span_around(text, end, end, reach)[0] : end]


def clause_end(text: str, start: int, reach: int = 200) -> int:
    """Where the clause holding ``start`` stops: its stop's position (``text[end]`` is ".", "?",
    ... ), or ``reach`` characters on, or the text's end."""
    stop = CLAUSE_STOP.search(text, start, min(len(text), start + reach))
    return stop.start() if stop is not None else min(len(text), start + reach)


# -- fee_phrases_28 ----------------------------------------------------------------------------

# The noun phrase of a fee right after a percentage: its scope words, then "fee(s)" or
# "charge(s)". The scope decides the kind; no scope leaves every percentage fee open.
_FEE_PHRASE = re.compile(
    r"[ \t]{0,3}(?:"
    r"(?P<foreign>(?:foreign|international|overseas|currency)"
    r"(?:[- ](?:currency|exchange|conversion))?"
    r"(?:[- ](?:transaction|purchase|exchange|spend(?:ing)?|conversion)s?)?|fx|forex|ftf)"
    r"|(?P<bt>(?:balance|bal\.?)[- ]transfers?|transfers?|bt)"
    r"|(?P<cash_advance>cash[- ]advances?|advances?)"
    r")?[ \t]{0,3}(?:fees?|charges?)\b(?!-)"  # not "1% fee-free rewards"
)
_PCT_FEE_KINDS = ("foreign", "bt", "cash_advance")
# Right before the figure: the words that give a card a fee ("with a", "has a", "charges", a
# label's colon) - not "saves you the", "losing it to a", "had a".
_GIVES_FEE = re.compile(
    r"(?:\b(?:with|has|have|having|charges?|charging|carries|carrying|comes[ \t]+with|plus|and"
    r"|there's|there[ \t]+is)[ \t]+(?:an?[ \t]+|its[ \t]+)?|[:(|][ \t]*|[ \t][-\u2013\u2014][ \t]*)$"
)
# Anywhere before the figure in its sentence: the fee is another's, avoided or supposed.
_NOT_ITS_FEE = re.compile(
    r"\b(?:sav\w*|spare\w*|avoid\w*|skip\w*|dodg\w*|escap\w*|sidestep\w*|instead|unlike|rather"
    r"|compar\w*|vs|versus|than|if|would|could|should|other|others|most|many|typical\w*|usual\w*"
    r"|standard|debit|los(?:e|es|ing)|wast\w*|suppose\w*|imagine|whereas|while|respectively"
    r"|my|old|older|previous\w*|former\w*|replac\w*|upgrad\w*|from|used|had|ex)\b"
    # ", which ..." / ", that ...": a relative clause about the noun before the comma
    r"|,[ \t]+(?:which|that|who)\b"
)
# ", a cash back card with a 3% fee": an appositive describing the noun before its comma - the
# named card's only when that noun is the card
_APPOSITIVE = re.compile(
    r"(?P<noun>[^,]{0,40}),[ \t]+(?:a|an|the|one)[ \t]+[^,#]{0,60}\bcards?\b[^,#]*$"
)
_NAMED_BEFORE_COMMA = re.compile(r"#[ \t]*(?:\*\*|__)?[ \t]*$")
_SENTENCE_REACH = 200
# a unit that opens as a yes/no question ("Does the X earn cash back with a 3% ... fee")
_ASKING = re.compile(
    r"[ \t>*_-]*(?:does|do|did|is|are|was|were|can|could|will|would|should|has|have)\b"
)


def fee_phrases_28(
    unit_text: str, values: Sequence[Value], drafts: Sequence[dict[str, Any] | None]
) -> tuple[dict[str, Any] | None, ...]:
    """The unit's drafts with each untyped percentage that its own noun phrase calls a fee typed
    as that fee (``unit_text``: the unit's masked, lower-cased text): only where the words right
    before it give a card the fee, a card is named before it in its sentence, and nothing before
    it in the sentence makes the fee another's, avoided or supposed."""
    out: list[dict[str, Any] | None] = list(drafts)
    for i, (value, draft) in enumerate(zip(values, drafts, strict=True)):
        if draft is not None or value.unit != PCT or value.low is None:
            continue
        match = _FEE_PHRASE.match(unit_text, value.end)
        if match is None or match.end() == value.end:
            continue
        low, high = span_around(unit_text, value.start, value.end, _SENTENCE_REACH)
        before = unit_text[low : value.start]
        if "#" not in before or not _GIVES_FEE.search(before) or _NOT_ITS_FEE.search(before):
            continue
        appositive = _APPOSITIVE.search(before)
        if appositive is not None and not _NAMED_BEFORE_COMMA.search(appositive.group("noun")):
            continue  # "replaces my old card, a cash back card with a 3% fee"
        if "?" in unit_text[value.end : high] or _ASKING.match(unit_text):
            continue  # asked, not said
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

_S = r"[ \t]+"
# A verb of charging right before the words about the first year (needed by the bare forms:
# "charged in the first year", not "and in the first year you earn 5%").
_CHARGED = r"(?:charged|payable|billed|applies|applicable|due|paid|owed|levied|assessed|collected)"
_FIRST_YEAR = rf"(?:(?:first|1st){_S}year|year{_S}(?:one|1))"
_YEAR_ONE = re.compile(
    rf"(?:{_CHARGED}|pay(?:ing)?|starts?|kicks?{_S}in)?[ \t]{{0,3}}(?:in{_S}full{_S})?"
    r"(?:"
    # "from the first year", "starting in year one", "from day one", "from your first statement"
    rf"(?:(?:right{_S})?from|starting(?:{_S}(?:in|with))?|beginning(?:{_S}(?:in|with))?"
    rf"|as{_S}of){_S}(?:(?:the|your){_S})?(?:very{_S})?"
    rf"(?:(?:first|1st){_S}(?:year|statement|bill(?:ing)?(?:{_S}cycle)?)(?:{_S}of{_S}membership)?"
    rf"|year{_S}(?:one|1)|day{_S}(?:one|1)|(?:the{_S})?start|account{_S}opening"
    rf"|(?:the{_S}moment|when){_S}you{_S}open(?:{_S}(?:the|your){_S}account)?)"
    # "in year one too", "even in the first year", "first year included", "including the first"
    rf"|(?:even{_S})?(?:in|for){_S}(?:the{_S})?{_FIRST_YEAR}{_S}(?:too|as{_S}well|also)"
    rf"|even{_S}(?:in|for){_S}(?:the{_S})?{_FIRST_YEAR}"
    rf"|(?:the{_S})?first{_S}year{_S}included(?=[ \t]*(?:[.,;:)!\n]|$))"
    rf"|including{_S}the{_S}first(?:{_S}year)?"
    # a waiver of the first year only: "no first-year waiver", "no intro fee waiver" (not "no
    # spend-based waiver", "no retention waiver"), "not waived" at its clause's end or for the
    # first year (not "not waived by spending $5,000", "for authorized users")
    rf"|(?:(?:with{_S})?no{_S}(?:(?:first|1st|year|one|first-year|year-one|1st-year|intro"
    rf"|introductory|annual|fee|initial|opening|the)[ \t-]+){{0,5}}?waivers?"
    rf"|(?:(?:is|it'?s){_S})?not{_S}waived|isn't{_S}waived"
    rf"|(?:does(?:n't|{_S}not)|won't|will{_S}not){_S}(?:be{_S})?waive[ds]?(?:{_S}it)?)"
    rf"(?:{_S}(?:in|for|during){_S}(?:the{_S})?{_FIRST_YEAR}"
    rf"|(?={_S}(?:on{_S}(?:this|the|that){_S}(?:card|one)|here|either|at{_S}all)\b)"
    r"|(?=[ \t]*(?:[.,;:)!\n]|$)))"
    r")(?![\w-]|'s)"
    # "... from the start of your second year", "from the first year's anniversary onward"
    rf"(?!{_S}(?:of|after|onwards?|following|anniversary|until|unless|if|for{_S}(?:the|your)"
    rf"{_S}(?:other|second)))"
)
# after a charging verb only ("charged in the first year", "billed on your first statement")
_CHARGED_IN = re.compile(
    rf"{_CHARGED}{_S}(?:(?:in|for|during){_S}(?:the{_S}|your{_S})?(?:very{_S})?{_FIRST_YEAR}"
    rf"|on{_S}(?:the{_S}|your{_S})?(?:very{_S})?first{_S}statement)(?![\w-]|'s)"
    rf"(?!{_S}(?:of|after|onwards?|following|anniversary|until|unless|if))"
)
# The words that may stand between the figure and the words about the first year: the fee's own
# noun and the verbs and fillers of its clause, nothing else - a new subject or noun ("interest
# is charged", "the cap resets", "pays for itself", "the late fee has no waiver") ends the reading.
_FILLER = re.compile(
    r"[ \t,(:\-\u2013\u2014*_]+|(?:annual|yearly|membership|fees?|af|a|an|per|each|every|year"
    r"|yr|/yr|/year|/|annually|and|which|that|is|it|it's|its|there|there's|is|was|will|be|gets?"
    r"|charged|billed|payable|applies|applicable|due|paid|owed|levied|assessed|you|pay|in|full"
    r"|the|amount|too|also|though|straight|away|right|card|this|for|on|that's|with|yes|yep)(?![\w'])"
)
# Before the figure, in its sentence: what makes the first year another's or the claim unsaid.
_NOT_SAID_BEFORE = re.compile(
    r"\b(?:waiv\w*|if|suppose\w*|whether|imagine|nobody|no[ \t]+one|unlike|would|were|asked"
    r"|wonder\w*|not|n't|never|without|had|used[ \t]+to)\b"
)
_SPOILERS = re.compile(
    r"\b(?:waiv(?:ed|es|e)|then|after|later|until|unless|except|not|n't|never|isn't|no\s+longer"
    r"|free|zero|nothing|if)\b"
)
_LATER_YEARS = re.compile(
    r"\b(?:after|anniversary|second|2nd|two|three|third|following|until|unless|ends?|renew\w*"
    r"|thereafter|going[ \t]+forward|beyond|once|subsequent\w*|later|past|keep|months?|next"
    r"|january|february|march|april|may|june|july|august|september|october|november|december)\b"
    r"|\d"  # "billed from the first statement in month 13", "from year 2", "from 2027"
)


def _says_year_one(masked: str, claim: Claim) -> bool:
    pos = claim.end
    limit = min(len(masked), pos + 80)
    while pos < limit:
        match = _YEAR_ONE.match(masked, pos) or _CHARGED_IN.match(masked, pos)
        if match is not None and match.group(0).strip():
            break
        filler = _FILLER.match(masked, pos)
        if filler is None or filler.end() == pos:
            return False
        pos = filler.end()
    else:
        return False
    if _SPOILERS.search(masked, claim.end, pos) or _NOT_SAID_BEFORE.search(
        clause_before(masked, claim.start)
    ):
        return False
    end = clause_end(masked, match.end())
    if _LATER_YEARS.search(masked, match.start(), min(end, match.end() + 60)):
        return False  # "starting with the first billing cycle after your first year ends"
    return end >= len(masked) or masked[end] != "?"  # asked, not said


_WAIVER_AFTER = re.compile(
    r"[ \t]{0,3}(?:\*\*|__)?[ \t]{0,3}waivers?\b(?=[ \t]*(?:[.,;:!?)\n*_]|$|(?:on|for|in)[ \t]+"
    r"(?:this|the|that|its|year|first|1st)\b|(?:here|either|at[ \t]+all)\b))"
)


def _denied_waiver(masked: str, claim: Claim) -> bool:
    return (
        claim.family == FEE_CLAIM
        and claim.is_none
        and claim.kind in ("annual", "annual_first_year")
        and _WAIVER_AFTER.match(masked, claim.end) is not None
    )


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
    r"(?:[ \t]{0,3}apr)?[ \t]{0,3}(?:,|-|\u2013|\u2014|\(|:|;)?[ \t]{0,3}(?:and[ \t]+|but[ \t]+)?"
    r"(?:(?:it|that|this|which|the[ \t]+(?:rate|apr))[ \t]*(?:'s|[ \t]is|[ \t]was)[ \t]+"
    r"(?:a[ \t]+|an[ \t]+)?(?:fully[ \t]+|completely[ \t]+|truly[ \t]+)?)?"
    r"(?P<word>fixed|variable)\b"
    # the word ends the phrase or names the rate: not "fixed APRs like ...", "fixed vs. variable",
    # "fixed $0 annual fee", "fixed for the intro", "variable-rate"
    r"(?=[ \t]{0,3}(?:(?:rate|apr)\b[ \t]{0,3})?(?:[.,;!)\n]|$|[ \t]+(?:and|but|so|which|meaning"
    r"|that)\b|\(|[ \t]+[-\u2013\u2014][ \t]))"
)
# in the rest of the clause: the word is about something else ("fixed, thanks for catching that",
# "variable and fixed, respectively")
_OTHER_SENSE = re.compile(
    r"\b(?:thanks?|typo\w*|edit\w*|catch\w*|corrected|updated|respectively|fixed|variable|yes"
    r"|no)\b"
)


def _variability_after(masked: str, claim: Claim) -> str | None:
    if claim.family != "apr" or claim.kind != "purchase" or claim.variability is not None:
        return None
    match = _VARIABILITY_AFTER.match(masked, claim.end)
    if match is None:
        return None
    end = clause_end(masked, match.end())
    if end < len(masked) and masked[end] == "?":
        return None
    if (
        _OTHER_SENSE.search(masked, match.end(), end)
        or "edit" in masked[max(0, claim.start - 40) : claim.start]
    ):
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
        if year_one and claim.cards and _denied_waiver(masked, claim):
            # "no first-year fee waiver" (read "no annual fee the first year waiver"): no denial
            # of the fee - it denies the waiver
            claim = replace(claim, cards=())
            changed = True
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


__all__ = [
    "CLAUSE_STOP",
    "SENTENCE_STOP",
    "clause_before",
    "clause_end",
    "fee_phrases_28",
    "revise_28",
    "span_around",
]
