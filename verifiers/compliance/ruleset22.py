"""Ruleset 22, part a: fee and APR figures bound to the wrong card or read against their words
(issue 13).

Ruleset 21 was scored on the s25 tuning set (four blind writers); these are the classes of its
``wrong_fee`` / ``wrong_apr`` false flags and misses that a general reading fixes without reading
honest text as a violation or hiding a real one:

* **A denied waiver** (``waivers_22``): "Neither card waives the fee in year one", "No card on
  this list waives the cash advance fee", "transfers are not fee-free", "(no yr1 waiver)" were
  read as a "no fee" claim. A "none" fee claim whose clause denies the waiver or the freedom from
  the fee - "neither" / "no card" / "none of them" / "not one" as the subject of "waives", "not"
  / "n't" before "fee-free" / "free", "no" before "(the) first year waiver" - is not a claim of
  no fee: dropped (unverified), as ruleset 5 drops "no first-year waiver".
* **A figure owned by the card in its parenthesis** (``owners_22``): "late fees run from $29 (the
  Alder Plus) to $40 (the Alder)", "APRs from 21.99% (Alder) to 28.99% (Birch)" bound each figure
  to the card the sentence named last, not to the card written right after it. A figure followed
  by a parenthesis holding only a catalog card's name ("(the Alder Plus)", "(on Birch)") is that
  card's claim.
* **A card named as a point of comparison** (``references_22``): "Transfer fee: 3%, min $5 (the
  same as the Alder)" or "- the same as the One." made the Alder the card the following lines
  were about; "this card charges $95 in year one (that wording belongs only to the Birch)" bound
  the $95 to the Birch. A catalog card named right after "the same as", "unlike", "as on / with",
  "compared to / with" or "belongs / applies (only) to", inside a parenthesis or a dash aside
  (which it ends, as it ends its sentence or line), is a reference: the figures after it that were bound to it only as the
  card last named go back to the card named before it (unverified if that is not one card), and a
  figure before it in its own sentence that it alone binds is unverified.
* **A term question answered by a bare figure** (``answers_22``): "> penalty rate on the Alder?" /
  "29.99%. Regular APR is ..." or "User: late fee on Birch?" / "Agent: Up to $25." stated no term,
  so a wrong figure went unnoticed. A line ending in "?" that names exactly one term (penalty
  APR, cash advance APR or fee, foreign transaction fee, balance transfer fee, late fee, annual
  fee) gives that term to the figure of its unit that opens the next line's answer (after a
  speaker label and "it's" / "up to" / "about"): it is read as "<figure> <term>".
* **A rate not to expect** (``expect_22``): "no intro APR, so don't expect a 0% period" read the 0%
  as the card's APR. A percentage right after "don't / won't / never expect (a / an / any)" or
  "don't / never count on / look for" is what the card does not give: unbound (unverified).
* **A rate its own words call the cash advance APR** (``advance_22``): "It's 28.49% cash advance
  APR" passed because 28.49% was the top of the card's purchase range (a single rate passes when
  it equals any rate of the card). A single rate followed by "cash advance APR / rate" or "on cash
  advances", or after "cash advance APR / rate (is / of / :)", is checked against that APR alone,
  as ruleset 20 checks the penalty APR: "the Alder's cash advance APR is 24.99%" is wrong when
  24.99% is only its purchase APR's top.

Precision first, as everywhere: a figure that cannot be attributed is unverified, not passed as
true and not a violation.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.expansions import apply_first_replacements
from replicas.verifiers.compliance.findings import Finding
from replicas.verifiers.compliance.mentions import AMBIGUOUS, UNKNOWN, NameMention
from replicas.verifiers.compliance.own_rates import own_rate_findings
from replicas.verifiers.compliance.ruleset21 import _TERM_RES_21, _lines

if TYPE_CHECKING:
    from replicas.verifiers.compliance.catalog import Catalog
    from replicas.verifiers.compliance.claims import Claim, Extraction
    from replicas.verifiers.compliance.findings import Tally
    from replicas.verifiers.compliance.text import NormalizedText

_S = r"[ \t]+"

# == a denied waiver ==============================================================================

# the clause before the claim (or the claim's own words) denies the waiver / the freedom
_DENIED_WAIVER_22 = re.compile(
    r"(?:\bneither(?:[ \t]+(?:card|one|of[ \t]+(?:them|these|the[ \t]+[a-z]+)))?"
    r"|\bno[ \t]+(?:card|one|issuer)(?:[ \t]+[a-z]+){0,3}?"
    r"|\bnone[ \t]+of[ \t]+(?:them|these|those|the[ \t]+[a-z]+)"
    r"|\bnot[ \t]+(?:one|a[ \t]+single[ \t]+(?:card|one)))"
    r"[ \t]+(?:(?:will|would|does|do|ever|actually)[ \t]+)?waives?\b"
    r"|(?:\bnot|n't)[ \t]+(?:(?:entirely|completely|totally|quite)[ \t]+)?(?:fee-?[ \t]?free|free)\b"
    r"|\bno[ \t]+(?:the[ \t]+)?(?:first|1st)[ \t-]+(?:year|yr)[ \t-]+(?:annual[ \t]+)?"
    r"(?:fee[ \t]+)?waiver\b"
)
_DENIAL_REACH_22 = 40


def _denied_waiver(claim: Claim, masked: str) -> bool:
    if claim.family != "fee" or not claim.is_none:
        return False
    lo = max(0, claim.start - _DENIAL_REACH_22)
    for stop in ".;!?\n":
        k = masked.rfind(stop, lo, claim.start)
        if k >= 0:
            lo = k + 1
    for m in _DENIED_WAIVER_22.finditer(masked, lo, claim.end + 12):
        if m.start() < claim.end:
            return True
    return False


# == a rate not to expect =========================================================================

_NOT_EXPECTED_22 = re.compile(
    r"\b(?:(?:don't|dont|do[ \t]+not|won't|wont|will[ \t]+not|never|no[ \t]+need[ \t]+to)"
    r"[ \t]+(?:expect|count[ \t]+on|look[ \t]+for|hope[ \t]+for)"
    r"|not[ \t]+expecting)[ \t]+(?:(?:a|an|any|the)[ \t]+)?$"
)


def _not_expected(claim: Claim, masked: str) -> bool:
    if claim.unit != "pct" or claim.family not in ("apr", "intro"):
        return False
    return _NOT_EXPECTED_22.search(masked, max(0, claim.start - 30), claim.start) is not None


# == a figure owned by the card in its parenthesis ================================================

_OPEN_OWNER_22 = re.compile(
    r"[ \t]*(?:\*\*|__)?[ \t]*\([ \t]*(?:(?:on|for|with|at)[ \t]+)?(?:(?:the|your)[ \t]+)?$"
)
_OPEN_OWNER_AFTER_22 = re.compile(
    r"[ \t]*(?:\*\*|__)?[ \t]*\([ \t]*(?:(?:on|for|with|at)[ \t]+)?(?:(?:the|your)[ \t]+)?"
)
_CLOSE_OWNER_22 = re.compile(r"(?:'s)?[ \t]*(?:card)?[ \t]*\)")


def _owner_after(
    claim: Claim, masked: str, starts: list[int], mentions: tuple[NameMention, ...]
) -> str | None:
    """The card named alone in a parenthesis right after ``claim`` ("$29 (the Alder Plus)")."""
    m = _OPEN_OWNER_AFTER_22.match(masked, claim.end)
    if m is None or "(" not in masked[claim.end : m.end()]:
        return None
    k = bisect_left(starts, m.end())
    if k >= len(mentions) or mentions[k].start != m.end():
        return None
    mention = mentions[k]
    if mention.card_id is None or mention.kind in (UNKNOWN, AMBIGUOUS):
        return None
    if _CLOSE_OWNER_22.match(masked, mention.end) is None:
        return None
    return mention.card_id


# == a card named as a point of comparison ========================================================

_REFERENCE_BEFORE_22 = re.compile(
    r"(?:\b(?:the[ \t]+)?same[ \t]+as|\bunlike|\bas[ \t]+(?:on|with|for)|\bcompared[ \t]+(?:to|with)"
    r"|\b(?:belongs?|applies|apply)[ \t]+(?:only[ \t]+)?to)[ \t]+(?:(?:the|on|with|for)[ \t]+)?"
    r"(?:\*\*|__)?$"
)
# a parenthesis or a dash aside opens before it, with no figure between
_ASIDE_OPEN_22 = re.compile(r"\(|[ \t][-\u2014\u2013][ \t]")
_FIGURE_22 = re.compile(r"\d")
# it ends its parenthesis, its sentence or its line
_REFERENCE_AFTER_22 = re.compile(r"(?:'s)?(?:\*\*|__)?[ \t]*(?:\)|[.!;](?=[ \t\n]|$)|\n|$)")
_REFERENCE_REACH_22 = 60
_REFERENCE_WORDS_22 = re.compile(r"same as|unlike|as on|as with|as for|compared|belong|appl")


def _references(masked: str, mentions: tuple[NameMention, ...]) -> list[int]:
    """The indexes of the mentions that are points of comparison (module docstring)."""
    out = []
    for i, m in enumerate(mentions):
        if m.card_id is None or m.kind in (UNKNOWN, AMBIGUOUS):
            continue
        if _REFERENCE_AFTER_22.match(masked, m.end) is None:
            continue
        lo = max(0, m.start - _REFERENCE_REACH_22)
        before = _REFERENCE_BEFORE_22.search(masked, lo, m.start)
        if before is None:
            continue
        # the aside: a parenthesis or a dash before the comparison words, in its sentence, with
        # no figure between
        head = masked[lo : before.start()]
        cut = max(head.rfind("."), head.rfind("\n"), head.rfind(";"), head.rfind(")"))
        opened = None
        for x in _ASIDE_OPEN_22.finditer(head, cut + 1):
            opened = x
        if opened is None or _FIGURE_22.search(head, opened.end()) is not None:
            continue
        out.append(i)
    return out


def _revise_references(extraction: Extraction) -> Extraction:
    masked = extraction.masked
    mentions = extraction.mentions
    refs = _references(masked, mentions)
    if not refs:
        return extraction
    starts = [m.start for m in mentions]
    ref_set = set(refs)
    out = list(extraction.claims)
    changed = False
    for i, claim in enumerate(out):
        if not claim.cards or len(claim.cards) != 1:
            continue
        card = claim.cards[0]
        k = bisect_left(starts, claim.start) - 1  # the last mention before the claim
        if claim.binding == "context" and k >= 0 and k in ref_set and mentions[k].card_id == card:
            j = k - 1
            while j >= 0 and j in ref_set:
                j -= 1
            prior = mentions[j] if j >= 0 else None
            if prior is not None and prior.card_id is not None and prior.kind != AMBIGUOUS:
                same_unit = [
                    x
                    for x in mentions[max(0, j - 3) : j]
                    if x.card_id is not None
                    and x.card_id != prior.card_id
                    and "\n" not in masked[x.end : prior.start]
                    and "." not in masked[x.end : prior.start]
                ]
                if not same_unit:
                    out[i] = replace(claim, cards=(prior.card_id,))
                    changed = True
                    continue
            out[i] = replace(claim, cards=())
            changed = True
        elif claim.binding == "clause":
            after = bisect_left(starts, claim.end)
            if after < len(mentions) and after in ref_set and mentions[after].card_id == card:
                stretch = masked[claim.end : mentions[after].start]
                if not any(c in stretch for c in ".!?;\n") and not any(
                    x.card_id == card
                    for x in mentions[max(0, after - 4) : after]
                    if "." not in masked[x.end : claim.start]
                    and "\n" not in masked[x.end : claim.start]
                ):
                    out[i] = replace(claim, cards=())
                    changed = True
    return replace(extraction, claims=tuple(out)) if changed else extraction


def revise_22(
    extraction: Extraction, waivers: bool, owners: bool, references: bool, expect: bool
) -> Extraction:
    """The extraction with ruleset 22 part a's readings (module docstring)."""
    if not extraction.claims:
        return extraction
    masked = extraction.masked
    out = list(extraction.claims)
    changed = False
    check_waivers = waivers and ("waiv" in masked or "free" in masked)
    check_expect = expect and "%" in masked and ("expect" in masked or "count on" in masked)
    check_owners = owners and "(" in masked
    mentions = extraction.mentions
    starts = [m.start for m in mentions]
    for i, claim in enumerate(out):
        if not claim.cards:
            continue
        if (check_waivers and _denied_waiver(claim, masked)) or (
            check_expect and _not_expected(claim, masked)
        ):
            out[i] = replace(claim, cards=())
            changed = True
        elif check_owners and claim.family in ("fee", "apr"):
            owner = _owner_after(claim, masked, starts, mentions)
            if owner is not None and claim.cards != (owner,):
                out[i] = replace(claim, cards=(owner,), binding="clause")
                changed = True
    if changed:
        extraction = replace(extraction, claims=tuple(out))
    if references and mentions and _REFERENCE_WORDS_22.search(masked) is not None:
        extraction = _revise_references(extraction)
    return extraction


# == a term question answered by a bare figure ====================================================

_ANSWER_LEAD_22 = re.compile(
    r"[ \t>*-]*(?:[a-z][a-z0-9 ._()'-]{0,30}:[ \t]*)?(?:\*\*|__)?"
    r"(?:(?:it's|it[ \t]+is|its|that's|that[ \t]+is|thats|it's[ \t]+up|up|to|just|only|about"
    r"|around|currently|right[ \t]+now|a|flat|fixed|variable|yes|yeah|yep|,)[ \t,]*){0,4}"
)
_ANSWER_PCT_22 = re.compile(
    r"(?<![\d.])\d{1,2}(?:\.\d{1,2})?[ \t]?(?P<end>%)(?![ \t]*(?:-|to|\u2013)[ \t]*\d)"
    r"(?=[ \t]*(?:\*\*|__)?[ \t]*(?:[.,;!)]|apr\b|$|\n|and\b|with\b|on\b))"
)
_ANSWER_USD_22 = re.compile(
    r"\$[ \t]?\d{1,4}(?:\.\d\d)?(?P<end>)(?![\d,])(?![ \t]*(?:-|to|\u2013)[ \t]*\$?\d)"
    r"(?=[ \t]*(?:\*\*|__)?[ \t]*(?:[.,;!)]|$|\n|and\b|with\b))"
)
_APR_NEXT_22 = re.compile(r"[ \t]*(?:\*\*|__)?[ \t]*apr\b")
_ANSWER_TERM_22 = re.compile(
    r"\b(?:fees?|aprs?|interest|charges?|penalty|intro(?:ductory)?|purchases?|transfers?"
    r"|advances?|rates?)\b"
)


def answers_22(norm: NormalizedText) -> NormalizedText:
    """``norm`` with the figure opening the answer to a one-term question read as that term
    (module docstring)."""
    lower = norm.lower
    if "?" not in lower or ("%" not in lower and "$" not in lower):
        return norm
    lines = _lines(lower)
    found: list[tuple[int, int, str]] = []
    prev: tuple[int, int] | None = None
    for a, b in lines:
        if a == b or not lower[a:b].strip():
            continue
        if prev is not None:
            found += _answer(lower, prev, a, b)
        prev = (a, b) if lower[a:b].rstrip().endswith("?") and b - a <= 200 else None
    return apply_first_replacements(norm, found) if found else norm


def _answer(lower: str, question: tuple[int, int], a: int, b: int) -> list[tuple[int, int, str]]:
    qa, qb = question
    if "%" in lower[qa:qb] or "$" in lower[qa:qb]:
        return []
    named = [(unit, words) for rx, unit, words in _TERM_RES_21 if rx.search(lower, qa, qb)]
    if len(named) != 1:
        return []
    unit, words = named[0]
    lead = _ANSWER_LEAD_22.match(lower, a, b)
    if lead is None:
        return []
    pos = lead.end()
    figure = (_ANSWER_PCT_22 if unit == "%" else _ANSWER_USD_22).match(lower, pos, b)
    if figure is None or _ANSWER_TERM_22.search(lower, a, pos) is not None:
        return []
    end = figure.end("end")
    if unit == "%" and _APR_NEXT_22.match(lower, end, b) is not None:
        if not words.endswith(" APR"):
            return []
        return [(end, end, words[: -len(" APR")])]
    return [(end, end, words)]


# == a rate its own words call the cash advance APR ===============================================

_ADVANCE_AFTER_22 = re.compile(
    r"[ \t]*(?:\*\*|__)?[ \t]*(?:variable[ \t]+)?(?:on[ \t]+)?cash[ \t-]+advances?[ \t]+(?:aprs?|rates?)?"
    r"(?![ \t]*fee)\b|[ \t]*(?:\*\*|__)?[ \t]*(?:apr[ \t]+)?on[ \t]+cash[ \t-]+advances?\b"
)
_ADVANCE_BEFORE_22 = re.compile(
    r"\bcash[ \t-]+advance[ \t]+(?:aprs?|rates?|interest(?:[ \t]+rates?)?)[ \t]*(?:\*\*|__)?"
    r"[ \t]*(?:of|is|at|:|=|-|runs)?[ \t]*(?:\*\*|__)?[ \t]*$"
)


def advance_findings_22(
    catalog: Catalog, extraction: Extraction, findings: list[Finding], tally: Tally
) -> list[Finding]:
    """Findings for a single rate that its own words call the cash advance APR ("28.49% cash
    advance APR", "cash advance rate: 28.49%") of one card that has one, when it is not that APR:
    ruleset 21 passed any rate of the card (28.49% was its purchase APR's top). Counted once more
    in the APR objective, as ruleset 20 does for the penalty APR."""
    if "advance" not in extraction.masked:
        return findings
    return own_rate_findings(
        catalog,
        extraction,
        findings,
        tally,
        kind="cash_advance",
        label="cash advance APR",
        after=_ADVANCE_AFTER_22,
        before=_ADVANCE_BEFORE_22,
        window=40,
    )


__all__ = ["advance_findings_22", "answers_22", "revise_22"]
