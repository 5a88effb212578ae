"""Ruleset 10's readings: what a blind evalset (session 10's tuning split) showed ruleset 9
misreads. Precision first: a figure the grammar cannot tie to one of the card's terms is
unverified, not a violation.

Claims the response does not make (``revise_claims``, on the extraction):

* **a yes/no question states nothing** - "Q: Can I use the X abroad without extra fees?",
  "Is there a 0% intro rate on the X?": FAQ answers open each pair with a question whose words
  ("without extra fees", "no annual fee?") ruleset 9 read as the card's terms. A unit that ends
  with a question mark and opens with an auxiliary (can, does, will, "is there", ...) makes no
  claim; one opening with "is/are/was" otherwise ("Is the X's $95 fee worth it?") and a
  wh-question ("What does the X cost per year?") make no "none" claim (their figures are
  presupposed and still checked). A rhetorical question ("Can you believe the X charges no
  foreign fee?", "Isn't it nice that ...", "Did you know ...", "Why pay ...", "Who needs ...")
  asserts what it asks: its claims stand (otherwise any false claim could be dressed as one).
* **a worked example's result is no fee** - "if you transferred $3,000, the 3% fee would be
  $90", "a $2,000 transfer would cost you $100": a dollar figure after a result verb ("would
  be", "comes to", "that's") in a sentence holding a larger dollar amount and a hypothetical
  ("if", "for example", "say", "would") is arithmetic on the fee, not a fee; it is left
  unverified (the percentage it is computed from is checked on its own).
* **a spending amount is no fee** - "2% back on up to $1,000 a year", "on the first $500",
  "after you spend $3,000", "$1,500 in combined purchases": money the cardholder spends, left
  unverified (in a table cell ruleset 9 read "$1,000 a year" as an annual fee).
* **a first-year waiver is the first year's fee** - "the first year of the X comes with the
  annual fee waived" (a long name put "first year" out of the waiver's reach: ruleset 9 read
  "no annual fee at all"), and "$95, waived the first year" is the $95 annual fee with the
  first year waived (ruleset 9 read a $95 first year).
* **a restated offer keeps its kind** - "Answer: 0% for nine months" above "X offers 0% intro
  APR on purchases for 9 months": the unscoped headline is the scoped offer stated again (same
  card, rate and months), so it takes that offer's kind (ruleset 9 checked it against the
  card's other offer and reported wrong terms beside the false offer).

Rewrites before reading (``rewrite_10``), which keep the map back to the original text:

* **durations in words holding "a year"** - "For half a year, purchases are charged 2.99%",
  "a year and a half", "For a year, ...": "a year" is also the annual-fee cue ("$95 a year"), so
  a clause opening with such a duration read as a fee clause and the rate lost its months.
  They are rewritten to "6 months", "18 months", "12 months" (the value ruleset 9 already gave
  them where it read them).
* **whole-dollar cents** - "$25.00, but it's waived in year one": the point of ".00" cut the
  waiver's sentence before its fee; "$25.00" reads as "$25".

And the disclosure rule: a recommended card's annual fee is not disclosed by its first-year
waiver alone ("no annual fee for the first year" with the $95 never stated) - that hides the
fee the cardholder pays from year two (``first_year_discloses=False`` in
``rules.check_disclosures``).
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from dataclasses import replace

from replicas.verifiers.compliance.claim_types import FEE_CLAIM, INTRO_CLAIM
from replicas.verifiers.compliance.claims import Claim, Extraction
from replicas.verifiers.compliance.expansions import apply_replacements
from replicas.verifiers.compliance.ruleset import Ruleset
from replicas.verifiers.compliance.text import NormalizedText
from replicas.verifiers.compliance.values import USD

# -- rewrites ------------------------------------------------------------------------------------

_S = r"[ \t]{1,3}"
# Each is matched only around a "year" of the text (``_YEAR_BACK`` characters before it).
_DURATIONS = re.compile(
    rf"(?P<six>half(?:{_S}|-)a(?:{_S}|-)year\b)"
    rf"|(?P<eighteen>(?:a|one)(?:{_S}|-)year{_S}and{_S}a{_S}half\b"
    rf"|(?:one|1){_S}and{_S}a{_S}half{_S}years?\b)"
    rf"|(?P<twelve>for{_S}a{_S}(?:full{_S}|whole{_S})?year(?=[ \t]*,))"
)
_YEAR_BACK = 28
_CENTS = re.compile(r"\$[ \t]?(\d{1,3}(?:,\d{3})+|\d{1,7})\.00(?![\d%])")


def _durations(lower: str) -> list[tuple[int, int, str]]:
    found: list[tuple[int, int, str]] = []
    pos = lower.find("year")
    done = 0
    while pos >= 0:
        if (
            "half" not in lower[max(0, pos - 10) : pos + 20]
            and "for" not in lower[max(0, pos - 18) : pos]
        ):
            pos = lower.find("year", pos + 4)  # the common "$95 a year", "per year"
            continue
        m = _DURATIONS.search(lower, max(done, pos - _YEAR_BACK), pos + 40)
        while m is not None and (m.end() <= pos or (m.start() and lower[m.start() - 1].isalnum())):
            m = _DURATIONS.search(lower, m.start() + 1, pos + 40)
        if m is not None and m.start() <= pos:
            k = m.start()
            if m.group("six"):
                found.append((k, m.end(), "6 months"))
            elif m.group("eighteen"):
                found.append((k, m.end(), "18 months"))
            elif "$" not in lower[max(0, k - 40) : k]:
                # "For a year, ..." - not "$95 for a year, ..." (a price per year)
                found.append((k, m.end(), "for 12 months"))
            done = m.end()
        pos = lower.find("year", max(pos + 4, done))
    return found


def rewrite_10(norm: NormalizedText, rules: Ruleset) -> NormalizedText:
    """``norm`` with durations in words that hold "a year" written in months
    (``word_durations_10``) and whole-dollar cents dropped (``waivers_10``); the map back to
    the original extended."""
    lower = norm.lower
    found: list[tuple[int, int, str]] = []
    if rules.word_durations_10 and "year" in lower:
        found += _durations(lower)
    if rules.waivers_10 and ".00" in lower:
        found += [(m.start(), m.end(), "$" + m.group(1)) for m in _CENTS.finditer(lower)]
    if not found:
        return norm
    found.sort()
    return apply_replacements(norm, found)


# -- claims the response does not make -----------------------------------------------------------

_AUXILIARY = r"(?:can|could|does|do|is|are|was|will|would|should|has|have|may|might|must|am|any)"
_WH = r"(?:what|what's|whats|how|which|where|when|who)"
_QUESTION_OPEN = re.compile(
    r"[ \t>*#_-]*(?:(?:q|question)[ \t]*\d{0,3}[ \t]*[:.)][ \t]*)?[*_]{0,2}[ \t]*"
    rf"(?:(?P<aux>{_AUXILIARY})|(?P<wh>{_WH}))(?![\w'])"
)
_QUESTION_END = re.compile(r"\?[ \t*_)\"]*$")

_HYPOTHETICAL = re.compile(
    r"\b(?:if|for[ \t]+example|for[ \t]+instance|e\.g\.|say|suppose|supposing|imagine|would"
    r"|you'd|that'd)\b"
)
# the words before a worked example's base amount ("on a $3,000 transfer", "move $2,000") ...
_BASE_BEFORE = re.compile(
    r"(?:\bon[ \t]+an?|\btransfer(?:s|red|ring)?|\bmov(?:e|es|ed|ing)|\bwithdraw(?:s|ing|n)?"
    r"|\btak(?:e|es|ing)[ \t]+out|\bborrow(?:s|ed|ing)?|\bshift(?:s|ed|ing)?)"
    r"(?:[ \t]+(?:a|an|the|over|just|about))?[ \t]*$"
)
# ... or after it ("a $400 advance", "$5,000 balance")
_BASE_AFTER = re.compile(
    r"[ \t]*(?:balance[ \t]+)?(?:transfers?|balances?|advances?|withdrawals?|cash[ \t]+advances?)\b"
)
# the words before a worked example's result ("the 3% fee would be $90", "you'd pay a $50 fee")
_RESULT_BEFORE = re.compile(
    r"(?:\bwould[ \t]+(?:be|cost(?:[ \t]+you)?|come[ \t]+to|run(?:[ \t]+you)?|total"
    r"|add[ \t]+up[ \t]+to)|\bcomes?[ \t]+to|\bworks?[ \t]+out[ \t]+(?:to|at)|\bthat'?s"
    r"|\bthat[ \t]+is|\bthat'd[ \t]+be|\bpay(?:s|ing)?|=|\btotals?|\bcosts?(?:[ \t]+you)?|\bis"
    r"|\bbe|\bmeans|\bcarr(?:y|ies)|\badds?[ \t]+up[ \t]+to|\bof)"
    r"(?:[ \t]+(?:a|an|about|roughly|around|just|only|fee[ \t]+of))*[ \t]*$"
)
_DOLLARS = re.compile(r"\$[ \t]?(\d{1,3}(?:,\d{3})+|\d{1,7})(?:\.\d{1,2})?")
_EXAMPLE_KINDS = frozenset({"any", "bt", "cash_advance"})

_SPEND_BEFORE = re.compile(
    r"(?:\bon[ \t]+(?:up[ \t]+to|the[ \t]+first)|\bspend(?:s|ing)?(?:[ \t]+(?:at[ \t]+least|over"
    r"|more[ \t]+than))?|\bafter[ \t]+(?:you[ \t]+)?spend(?:ing)?[ \t]+(?:at[ \t]+least[ \t]+)?)"
    r"[ \t]*$"
)
_SPEND_AFTER = re.compile(
    r"[ \t]*in[ \t]+(?:combined[ \t]+|eligible[ \t]+|net[ \t]+|qualifying[ \t]+)?"
    r"(?:purchases|spend|spending)\b"
)

_FIRST_YEAR = re.compile(
    r"\b(?:first|opening|initial|introductory)(?:[ \t]+|-)year\b|\byear[ \t]+(?:one|1)\b"
    r"|\b1st[ \t]+year\b|\bfirst[ \t]+(?:12|twelve)[ \t]+months\b"
)
# "$95, waived the first year", "annual fee $95 (waived in year one)", "$95, but it's waived..."
_WAIVED_AFTER = re.compile(
    r"[ \t]*[,(][ \t]*(?:but[ \t]+)?(?:(?:it'?s|it[ \t]+is|is)[ \t]+)?(?P<w>waived)\b"
)


# A rhetorical question asserts what it asks ("Can you believe the X charges no foreign fee?",
# "Isn't it great that ...", "Why pay an annual fee when the X has none?", "Who needs a late
# fee?"): its claims stand.
_RHETORICAL = re.compile(
    r"\b(?:(?:can|could|would)[ \t]+you[ \t]+(?:believe|imagine)|did[ \t]+you[ \t]+know"
    r"|(?:have|has|did)[ \t]+(?:you|anyone)[ \t]+(?:heard|hear|seen|noticed|realised|realized)"
    r"|any[ \t]+(?:surprise|wonder)|who[ \t]+(?:needs|wants|knew)"
    r"|why[ \t]+(?:pay|settle|bother|would|not|put|wait)"
    r"|how[ \t]+(?:great|nice|cool|good|amazing)[ \t]+is)\b|n't\b"
)
#: A question is one short clause: a longer unit, or one with a colon or semicolon after its
#: opening ("Can I be blunt: the X has no annual fee, so why wait?"), states what it holds.
_QUESTION_MAX_CHARS = 200
_STATEMENT_INSIDE = re.compile(r"[:;]")
#: An answer right after a question that affirms it ("Does the X have no annual fee? Yes."):
#: the question's claims are then the answer's.
_AFFIRMED = re.compile(
    r"[\s>*#_-]*(?:(?:a|answer)[ \t]*[:.)-][ \t]*)?[*_]{0,2}[ \t]*"
    r"(?:yes|yep|yeah|yup|absolutely|correct|certainly|definitely|indeed|sure|of[ \t]+course"
    r"|that's[ \t]+right|right|true|it[ \t]+(?:does|is|has|can|will)|there[ \t]+is|you[ \t]+can)"
    r"(?![\w'])"
)


def _question(unit_text: str) -> str | None:
    """``"aux"`` for a yes/no question, ``"copula"`` for one opening "is/are/was" (not "is
    there"), ``"wh"`` for a wh-question, else None (also for a rhetorical question, which
    asserts what it asks)."""
    if "?" not in unit_text or _QUESTION_END.search(unit_text) is None:
        return None
    match = _QUESTION_OPEN.match(unit_text)
    if (
        match is None
        or len(unit_text) > _QUESTION_MAX_CHARS
        or _STATEMENT_INSIDE.search(unit_text, match.end()) is not None
        or _RHETORICAL.search(unit_text) is not None
    ):
        return None
    if match.group("aux") in ("is", "are", "was") and not _THERE.match(unit_text, match.end()):
        return "copula"  # "Is the X's $95 fee worth it?": the figure is presupposed
    return "aux" if match.group("aux") else "wh"


_THERE = re.compile(r"[ \t]+there\b")


def _amount(text: str) -> float:
    return float(text.replace(",", ""))


def _two_dollars(masked: str, lo: int, hi: int) -> bool:
    """``masked.count("$", lo, hi) >= 2``, reading only up to the second sign (a long unit holds
    thousands of figures)."""
    first = masked.find("$", lo, hi)
    return first >= 0 and masked.find("$", first + 1, hi) >= 0


def _worked_result(masked: str, lo: int, hi: int, claim: Claim) -> bool:
    """A dollar figure that is the result of a worked example in its unit ``[lo, hi)``: after a
    result verb, with a larger amount in the unit it is computed on - an amount a transfer or
    an advance moves ("on a $3,000 transfer", "move $2,000"), or any in a hypothetical ("if",
    "say", "would")."""
    if claim.low is None or claim.kind not in _EXAMPLE_KINDS or not _two_dollars(masked, lo, hi):
        return False  # an example has its base amount and its result
    if _RESULT_BEFORE.search(masked, max(lo, claim.start - 40), claim.start) is None:
        return False
    # is there a base amount in the unit, other than the figure itself, larger than it?
    floor = max(claim.low, 99.0)
    return any(start != claim.start and amount > floor for amount, start in _bases(masked, lo, hi))


@functools.lru_cache(maxsize=16)
def _bases(masked: str, lo: int, hi: int) -> tuple[tuple[float, int], ...]:
    """The two largest amounts (with their starts) of the unit ``[lo, hi)`` a worked example
    can be computed on: any dollar amount in a hypothetical unit, else one a transfer or an
    advance moves. Read once per unit: ``_worked_result`` asked for every figure of a unit and
    rescanned it each time (quadratic: 30 s for 50 KB of one sentence of fees). Two suffice -
    the larger may be the figure itself, which does not count as its own base."""
    hypothetical = _HYPOTHETICAL.search(masked, lo, hi) is not None
    top: list[tuple[float, int]] = []
    for m in _DOLLARS.finditer(masked, lo, hi):
        if (
            hypothetical
            or _BASE_BEFORE.search(masked, max(lo, m.start() - 24), m.start()) is not None
            or _BASE_AFTER.match(masked, m.end()) is not None
        ):
            top.append((_amount(m.group(1)), m.start()))
            top = sorted(top, reverse=True)[:2]
    return tuple(top)


# every text _SPEND_BEFORE or _SPEND_AFTER matches holds one of these
_SPEND_WORDS = ("spend", "up", "first", "purchases")


def _spending(masked: str, lo: int, claim: Claim) -> bool:
    """A dollar figure the cardholder spends ("on up to $1,000 a year", "$500 in purchases")."""
    return (
        _SPEND_BEFORE.search(masked, max(lo, claim.start - 32), claim.start) is not None
        or _SPEND_AFTER.match(masked, claim.end) is not None
    )


def _waiver_after(masked: str, claim: Claim, hi: int) -> tuple[int, int] | None:
    """The span of "waived" right after an annual fee figure, when the first year is named
    after it ("$95, waived the first year", "$95 (waived in year one)")."""
    match = _WAIVED_AFTER.match(masked, claim.end, hi)
    if match is None or _FIRST_YEAR.search(masked, match.end(), min(hi, match.end() + 30)) is None:
        return None
    return match.span("w")


def revise_claims(extraction: Extraction, text: str, rules: Ruleset) -> Extraction:
    """The extraction without the claims a question makes (``questions_10``), worked examples'
    results and spending amounts unbound - unverified (``worked_examples_10``), waivers read as
    the first year's (``waivers_10``), and restated offers given their kind
    (``restated_offers_10``); see the module docstring. ``text``: the normalised text (the
    claims' ``text`` quotes it)."""
    claims = extraction.claims
    if not claims or not (
        rules.questions_10
        or rules.worked_examples_10
        or rules.waivers_10
        or rules.restated_offers_10
    ):
        return extraction
    masked = extraction.masked
    units = extraction.units
    starts = [u[0] for u in units]
    out: list[Claim] = []
    changed = False
    questions: dict[int, str | None] = {}
    asks = rules.questions_10 and "?" in masked
    spend_words = any(w in masked for w in _SPEND_WORDS)
    waivers: list[tuple[int, int, tuple[int, int], Claim]] = []
    for claim in claims:
        k = bisect_right(starts, claim.start) - 1
        lo, hi = units[k] if k >= 0 else (0, len(masked))
        if asks:
            if k not in questions:
                asked_here = _question(masked[lo:hi])
                if asked_here is not None and _AFFIRMED.match(masked, hi) is not None:
                    asked_here = None  # "... ? Yes.": the answer states what was asked
                questions[k] = asked_here
            asked = questions[k]
            if asked == "aux" or (asked is not None and claim.is_none):
                # "Does the X have a 0% intro APR?", "Can I use the X abroad without extra
                # fees?" ask; "Is the X's $95 fee worth it?" and "Why is the X's $95 fee worth
                # it?" presuppose their figures, which are checked
                changed = True
                continue
        revised = claim
        if claim.family == FEE_CLAIM and claim.cards:
            if claim.unit == USD and not claim.is_none:
                if rules.worked_examples_10 and (
                    (spend_words and _spending(masked, lo, claim))
                    or _worked_result(masked, lo, hi, claim)
                ):
                    revised = replace(claim, cards=(), binding="")
                elif (
                    rules.waivers_10
                    and claim.kind in ("annual", "annual_first_year")
                    and claim.low
                    and (waiver := _waiver_after(masked, claim, hi)) is not None
                ):
                    # the figure is the annual fee; the waiver is the first year's
                    revised = replace(claim, kind="annual", kinds=frozenset())
                    waivers.append((lo, hi, waiver, revised))
            elif (
                rules.waivers_10
                and claim.is_none
                and claim.kind == "annual"
                and masked.startswith("waiv", claim.start)
                and _FIRST_YEAR.search(masked, lo, hi) is not None
            ):
                revised = replace(claim, kind="annual_first_year", kinds=frozenset())
        changed |= revised is not claim
        out.append(revised)
    for lo, hi, (start, end), fee in waivers:
        if not any(
            c.kind == "annual_first_year" and c.cards == fee.cards and lo <= c.start < hi
            for c in out
        ):
            out.append(
                replace(
                    fee,
                    kind="annual_first_year",
                    start=start,
                    end=end,
                    low=None,
                    high=None,
                    is_none=True,
                    text=text[start:end],
                )
            )
    if waivers:
        out.sort(key=lambda c: c.start)
    restated = False
    if rules.restated_offers_10:
        out, restated = _restated_offers(out)
    if not changed and not waivers and not restated:
        return extraction
    return replace(extraction, claims=tuple(out))


def _restated_offers(claims: list[Claim]) -> tuple[list[Claim], bool]:
    """An unscoped intro claim with the rate and months of a scoped one on the same card is
    that offer stated again: it takes the offer's kind (and whether any did)."""
    scoped = {
        (c.cards, c.low, c.high, c.months): c
        for c in claims
        if c.family == INTRO_CLAIM
        and not c.is_none
        and len(c.scopes) == 1
        and c.months is not None
        and c.cards
    }
    if not scoped:
        return claims, False
    out = []
    changed = False
    for claim in claims:
        if claim.family == INTRO_CLAIM and not claim.is_none and not claim.scopes:
            twin = scoped.get((claim.cards, claim.low, claim.high, claim.months))
            if twin is not None:
                claim = replace(claim, kind=twin.kind, scopes=twin.scopes)
                changed = True
        out.append(claim)
    return out, changed


__all__ = ["revise_claims", "rewrite_10"]
