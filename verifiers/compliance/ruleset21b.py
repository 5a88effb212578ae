"""Ruleset 21, part 2: more reward notation, worked sums, denials of an offer, warnings, shared
months, spelling notes and a card ruled out in its own sentence (issue 13).

Part 1 (``ruleset21``) was tuned on the s24 blind sets' first writer. Ruleset 21 was then scored
on the tuning parts of two more writers (w3: 9 of 30 compliant answers flagged; w4: 5 of 16).
The classes below are read in general form; each keeps its twin (a real wrong figure in the
same construction) caught:

* **More reward notation** (``rewards2_21``): "3% on groceries and 2% on gas, each up to $6,000
  a year, then 1%" read the rate after the cap as an APR; "the Atlas's flat 2% wins" read a
  flat reward rate as one. A percentage under 10% right after "then" whose sentence states a
  spend cap before it ("up to $6,000", "first $6k", "capped at") is the rate after the cap; a
  percentage under 10% right after "flat" is a flat reward rate: both unbound (unverified),
  unless a fee or APR word types them (before, in their clause, or within four words after).
* **Worked sums** (``sums_21``): "On a $10,000 transfer: $300 / $500 / $300 in fees" read the
  sums as fees; "so the extra $6 in fee pays for itself" read a difference of two fees as one.
  A dollar fee that is a percentage (10% or less) stated in the response of a principal its
  paragraph names as "a $N transfer / balance / purchase" is arithmetic; a dollar figure right
  after "extra", "additional", "difference of" or "more" that equals the difference of two
  dollar figures stated in the response is a difference: both unbound.
* **A denial of an intro offer** (``denials_21``): "It is not 0% intro." (a customer's "0%
  intro" denied) read 0% as the card's intro offer; "there is no introductory waiver on this
  card" (a first-year fee waiver) read as "no intro APR". An intro rate right after "not",
  "isn't", "is not", "never" or "no longer" is denied, not claimed; an intro "none" claim whose
  words go on to a waiver, a bonus, a credit or a discount (of the fee) is about that, not an
  intro APR: both unbound.
* **A warning about a wrong figure** (``warnings_21``): "Common mistake: quoting the Plus's
  first-year $0 for the Preferred. Don't." read $0 as the Preferred's fee. A figure in a
  sentence opened by "(common / classic / frequent) mistake / error / pitfall:" or in a
  sentence that says "don't / never / avoid quote / say / promise" is what not to say: unbound.
* **Shared months** (``shared_21``): "0% on purchases and 0.99% on transfers for 15 months
  (then ...)" read no months for the purchase offer. In "A% on purchases and B% on (balance)
  transfers for N months" (or transfers first) the months are both offers': the first offer is
  read with "for N months" too.
* **A spelling note** (``spelling_21``): '"North Star ..." (two words, North Star)' read the
  note's "North Star" as an invented card. An invented name right after "(one word," / "(two
  words," / "spelled" is a spelling: dropped.
* **A card ruled out in its own sentence** (``ruled_21``, the eligibility rule only): "a student
  card like the X sounds like the natural choice, but you wouldn't qualify for it yet" offered
  X. A card that is the only card its sentence names, in a sentence that rules something out
  (ruleset 19's words: "wouldn't qualify", "not eligible", "already hold", ...), is not
  recommended for the eligibility rule.

Left alone: a fixed-width plain-text table whose columns are cards under abbreviated headers
("Gray Rock Sec.") with a legend line - no reading of it was precise enough in the time there
was.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claims import unbind_claims
from replicas.verifiers.compliance.expansions import apply_first_replacements
from replicas.verifiers.compliance.matchers import at_word_start
from replicas.verifiers.compliance.mentions import AMBIGUOUS, UNKNOWN, NameMention
from replicas.verifiers.compliance.ruleset19 import rules_out_19

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from replicas.verifiers.compliance.claims import Claim, Extraction
    from replicas.verifiers.compliance.recommend import Recommendations
    from replicas.verifiers.compliance.text import NormalizedText

_TERM_WORD_21B = re.compile(
    r"\b(?:fees?|aprs?|interest|charges?|charged|penalty|intro(?:ductory)?|variable|fixed"
    r"|rates?|transfers?|advances?|abroad|foreign|overseas|fx|ftf)\b"
)
_STOP_21B = re.compile(r"[,;.!?:()\n]")
_AFTER_TYPED_21B = re.compile(
    r"[ \t]*(?:\)[ \t]*)?(?:[a-z'-]+[ \t]+){0,3}?" + _TERM_WORD_21B.pattern
)


def _clause_start(masked: str, pos: int, reach: int = 40) -> int:
    start = max(0, pos - reach)
    for m in _STOP_21B.finditer(masked, start, pos):
        start = m.end()
    return start


def _typed(claim: Claim, masked: str) -> bool:
    """A fee or APR word types the figure: in its clause before it, or within four words after."""
    if _TERM_WORD_21B.search(masked, _clause_start(masked, claim.start), claim.start):
        return True
    return _AFTER_TYPED_21B.match(masked, claim.end) is not None


def _small_pct(claim: Claim) -> bool:
    return (
        claim.unit == "pct"
        and claim.family in ("apr", "fee")
        and claim.high is not None
        and claim.high < 10.0
    )


# == more reward notation =========================================================================

_THEN_BEFORE_21B = re.compile(r"\bthen[ \t]+$")
_FLAT_BEFORE_21B = re.compile(r"\bflat[ \t]+$")
_CAP_21B = re.compile(
    r"\b(?:up[ \t]+to|first|capped[ \t]+at|caps?(?:[ \t]+of)?|max(?:imum)?(?:[ \t]+of)?)[ \t]+"
    r"\$[ \t]?\d"
)
_SENTENCE_STOP_21B = re.compile(r"[.!?](?=[ \t\n]|$)|\n")


def _sentence_start(masked: str, pos: int, reach: int = 200) -> int:
    start = max(0, pos - reach)
    for m in _SENTENCE_STOP_21B.finditer(masked, start, pos):
        start = m.end()
    return start


def _rate_after_cap(claim: Claim, masked: str) -> bool:
    if not _small_pct(claim):
        return False
    if _THEN_BEFORE_21B.search(masked, max(0, claim.start - 12), claim.start) is None:
        return False
    if _CAP_21B.search(masked, _sentence_start(masked, claim.start), claim.start) is None:
        return False
    return _AFTER_TYPED_21B.match(masked, claim.end) is None


def _flat_rate(claim: Claim, masked: str) -> bool:
    if not _small_pct(claim):
        return False
    if _FLAT_BEFORE_21B.search(masked, max(0, claim.start - 12), claim.start) is None:
        return False
    return not _typed(claim, masked)


# == worked sums ==================================================================================

# "On a $10,000 transfer", "for a $5,000 balance"
# ("a" with the word boundary as a look-behind after it: the same matches, scanned fast)
_PRINCIPAL_21B = re.compile(
    r"a(?<!\wa)[ \t]+\$[ \t]?(?P<n>\d{1,3}(?:,\d{3})+|\d{3,7})(?![\d,])[ \t]+(?:balance[ \t]+)?"
    r"(?:transfers?|balances?|purchases?|debts?)\b"
)
_PCT_21B = re.compile(r"(?<![\d.])(\d{1,2}(?:\.\d{1,2})?)[ \t]?%")
_DOLLARS_21B = re.compile(r"\$[ \t]?(\d{1,3}(?:,\d{3})+|\d{1,7})(?:\.(\d\d))?(?![\d,])")
_BLANK_21B = re.compile(r"\n[ \t]*\n")
_DIFF_BEFORE_21B = re.compile(r"\b(?:extra|additional|difference[ \t]+of|more)[ \t]+$")
_SUMS_MAX_21B = 12
_DOLLARS_MAX_21B = 40


def _worked_sums(masked: str) -> Callable[[Claim, str], bool]:
    pcts = sorted({float(m.group(1)) for m in _PCT_21B.finditer(masked)} - {0.0})
    pcts = [p for p in pcts if p <= 10.0]
    if len(pcts) > _SUMS_MAX_21B:
        pcts = []
    blanks = [(m.start(), m.end()) for m in _BLANK_21B.finditer(masked)]
    starts = [a for a, _ in blanks]
    paragraphs: dict[int, list[float]] = {}

    def principals(pos: int) -> list[float]:
        k = bisect_left(starts, pos)
        a = blanks[k - 1][1] if k else 0
        if a not in paragraphs:
            b = blanks[k][0] if k < len(blanks) else len(masked)
            paragraphs[a] = sorted(
                {
                    float(m.group("n").replace(",", ""))
                    for m in _PRINCIPAL_21B.finditer(masked, a, b)
                }
            )
        return paragraphs[a]

    def worked(claim: Claim, _masked: str) -> bool:
        if claim.family != "fee" or claim.unit != "usd" or claim.low is None or not pcts:
            return False
        ordered = principals(claim.start)
        if not ordered:
            return False
        x = claim.low
        for p in pcts:
            k = bisect_left(ordered, (x - 0.5) * 100 / p)
            if k < len(ordered) and ordered[k] <= (x + 0.5) * 100 / p:
                return True
        return False

    return worked


def _differences(masked: str) -> Callable[[Claim, str], bool]:
    values: list[float] = []
    for m in _DOLLARS_21B.finditer(masked):
        values.append(
            float(m.group(1).replace(",", "")) + (int(m.group(2)) / 100 if m.group(2) else 0)
        )
        if len(values) > _DOLLARS_MAX_21B:
            values = []
            break
    values = sorted(set(values))
    diffs = {round(b - a, 2) for i, a in enumerate(values) for b in values[i + 1 :]}

    def difference(claim: Claim, _masked: str) -> bool:
        if claim.family != "fee" or claim.unit != "usd" or claim.low is None:
            return False
        if _DIFF_BEFORE_21B.search(masked, max(0, claim.start - 20), claim.start) is None:
            return False
        return round(claim.low, 2) in diffs

    return difference


# == a denial of an intro offer ===================================================================

_DENIED_BEFORE_21B = re.compile(
    r"\b(?:not|isn't|is[ \t]+not|never|no[ \t]+longer)[ \t]+(?:an?[ \t]+)?$"
)
_WAIVER_AFTER_21B = re.compile(
    r"[ \t]*(?:\(?[a-z-]+\)?[ \t]+){0,3}?(?:(?:annual[ \t]+)?fee[ \t]+)?(?:waivers?|waived|bonus(?:es)?"
    r"|credits?|discounts?)\b"
)


def _denied_intro(claim: Claim, masked: str) -> bool:
    if claim.family != "intro" or claim.is_none:
        return False
    return _DENIED_BEFORE_21B.search(masked, max(0, claim.start - 16), claim.start) is not None


def _waiver_none(claim: Claim, masked: str) -> bool:
    if claim.family != "intro" or not claim.is_none:
        return False
    return _WAIVER_AFTER_21B.match(masked, claim.end) is not None


# a quoted question: 'customer asking whether the X is "0% intro"'
_ASKED_21B = re.compile(
    r"\b(?:ask(?:s|ed|ing)?|wonder(?:s|ed|ing)?|wants?[ \t]+to[ \t]+know|checking|queried)\b"
    r"[^\n\"\u201c\u201d.?!]{0,80}?\b(?:whether|if)\b[^\n\"\u201c\u201d.?!]{0,80}$"
)
_OPEN_QUOTE_21B = re.compile(r"[\"\u201c]")
_CLOSE_QUOTE_21B = re.compile(r"[^\n\"\u201c\u201d]{0,40}?[\"\u201d]")


def _asked(claim: Claim, masked: str) -> bool:
    lo = max(0, claim.start - 40)
    line = masked.rfind("\n", lo, claim.start) + 1
    quote = None
    for m in _OPEN_QUOTE_21B.finditer(masked, max(lo, line), claim.start):
        quote = m
    if quote is None or _CLOSE_QUOTE_21B.match(masked, claim.end) is None:
        return False
    if '"' in masked[quote.end() : claim.start] or "\u201d" in masked[quote.end() : claim.start]:
        return False
    return _ASKED_21B.search(masked, max(0, quote.start() - 160), quote.start()) is not None


# == a warning about a wrong figure ===============================================================

# \b(?:(?:common|classic|frequent|typical|usual)[ \t]+(?:mistake|error|slip|pitfall)s?
# |(?:mistake|error|pitfall)s?[ \t]*:|(?:don't|do[ \t]+not|never|avoid)[ \t]+(?:ever[ \t]+)?
# (?:quot|say|tell|promis)\w*), written with ``at_word_start`` (the same matches, scanned fast)
_SLIPS_21B = r"[ \t]+(?:mistake|error|slip|pitfall)s?"
_TOLD_21B = r"[ \t]+(?:ever[ \t]+)?(?:quot|say|tell|promis)\w*"
_WARNING_21B = re.compile(
    at_word_start(
        [
            "common" + _SLIPS_21B,
            "classic" + _SLIPS_21B,
            "frequent" + _SLIPS_21B,
            "typical" + _SLIPS_21B,
            "usual" + _SLIPS_21B,
            r"mistakes?[ \t]*:",
            r"errors?[ \t]*:",
            r"pitfalls?[ \t]*:",
            "don't" + _TOLD_21B,
            r"do[ \t]+not" + _TOLD_21B,
            "never" + _TOLD_21B,
            "avoid" + _TOLD_21B,
        ]
    )
)
# every match of _WARNING_21B holds one of these
_WARNING_WORDS_21B = ("mistake", "error", "slip", "pitfall", "quot", "say", "tell", "promis")


def _warnings(masked: str) -> Callable[[Claim, str], bool]:
    spans = []
    for m in _WARNING_21B.finditer(masked):
        a = _sentence_start(masked, m.start(), 300)
        stop = min(len(masked), m.end() + 300)
        end = _SENTENCE_STOP_21B.search(masked, m.end(), stop)
        spans.append((a, end.start() if end else stop))
    starts = [a for a, _ in spans]

    def warned(claim: Claim, _masked: str) -> bool:
        k = bisect_left(starts, claim.start + 1)
        return k > 0 and spans[k - 1][1] >= claim.end

    return warned


def revise_21b(
    extraction: Extraction, rewards: bool, sums: bool, denials: bool, warnings: bool
) -> Extraction:
    """The extraction with ruleset 21 part 2's claims unbound (module docstring)."""
    masked = extraction.masked
    readings: list[Callable[[Claim, str], bool]] = []
    if rewards and "%" in masked:
        if "then" in masked and "$" in masked:
            readings.append(_rate_after_cap)
        if "flat" in masked:
            readings.append(_flat_rate)
    if sums and "$" in masked:
        if "%" in masked and _PRINCIPAL_21B.search(masked) is not None:
            readings.append(_worked_sums(masked))
        if any(w in masked for w in ("extra", "additional", "difference", "more")):
            readings.append(_differences(masked))
    if denials and "intro" in masked:
        readings += [_denied_intro, _waiver_none]
    if (
        denials
        and ("whether" in masked or "if" in masked)
        and ('"' in masked or "\u201c" in masked)
    ):
        readings.append(_asked)
    if (
        warnings
        and any(word in masked for word in _WARNING_WORDS_21B)
        and _WARNING_21B.search(masked) is not None
    ):
        readings.append(_warnings(masked))
    return unbind_claims(extraction, readings)


# == shared months ================================================================================

_INTRO_WORDS_21B = r"(?:[ \t]+intro(?:ductory)?(?:[ \t]+apr)?)?"
_SHARED_21B = re.compile(
    r"(?<![\d.])\d{1,2}(?:\.\d{1,2})?%" + _INTRO_WORDS_21B + r"[ \t]+on[ \t]+(?P<first>purchases"
    r"|(?:balance[ \t]+)?transfers)(?P<end>)[ \t]+and[ \t]+(?<![\d.])\d{1,2}(?:\.\d{1,2})?%"
    + _INTRO_WORDS_21B
    + r"[ \t]+on[ \t]+"
    r"(?P<second>purchases|(?:balance[ \t]+)?transfers)[ \t]+for[ \t]+(?:the[ \t]+first[ \t]+)?"
    r"(?P<months>\d{1,2})[ \t]+months\b"
)


def shared_months_21(norm: NormalizedText) -> NormalizedText:
    """``norm`` with the first of two coordinated intro offers given the months stated after the
    second ("0% on purchases and 0.99% on transfers for 15 months"; module docstring)."""
    lower = norm.lower
    if "% on " not in lower or " months" not in lower:
        return norm
    found = []
    for m in _SHARED_21B.finditer(lower):
        if m.group("first").endswith("purchases") == m.group("second").endswith("purchases"):
            continue
        found.append((m.end("end"), m.end("end"), f" for {m.group('months')} months"))
    return apply_first_replacements(norm, found) if found else norm


# == a spelling note ==============================================================================

_SPELLING_BEFORE_21B = re.compile(
    r"(?:\((?:one|two|three|single)[ \t]+words?,?|\bspelled|\bspelt|\bwritten[ \t]+as)[ \t]*"
    r"[\"'\u201c]?$",
    re.IGNORECASE,
)


def spelling_21(text: str, mentions: Sequence[NameMention]) -> list[NameMention]:
    """The mentions without the invented names that a spelling note quotes (module docstring)."""
    return [
        m
        for m in mentions
        if not (
            m.kind == UNKNOWN
            and _SPELLING_BEFORE_21B.search(text, max(0, m.start - 24), m.start) is not None
        )
    ]


# == a card ruled out in its own sentence =========================================================


_BUT_21B = re.compile(r"\b(?:but|however|though|although|except)\b")


def ruled_21(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """``recs`` without the cards that their own sentence, naming no other card, rules out (for
    the eligibility rule only; module docstring)."""
    from replicas.verifiers.compliance.recommend import Recommendations

    if not recs.positive:
        return recs
    mentions = [m for m in extraction.mentions if m.card_id is not None and m.kind != AMBIGUOUS]
    ruled: set[str] = set()
    for card_id, mention in recs.positive.items():
        a = _sentence_start(masked, mention.start, 400)
        stop = min(len(masked), mention.end + 400)
        end = _SENTENCE_STOP_21B.search(masked, mention.end, stop)
        b = end.start() if end else stop
        named = {m.card_id for m in mentions if a <= m.start < b}
        but = _BUT_21B.search(masked, mention.end, b)
        if named == {card_id} and but is not None and rules_out_19(masked, but.end(), b):
            ruled.add(card_id)
    if not ruled:
        return recs
    positive = {k: v for k, v in recs.positive.items() if k not in ruled}
    return Recommendations(positive, recs.negated)


__all__ = ["revise_21b", "ruled_21", "shared_months_21", "spelling_21"]
