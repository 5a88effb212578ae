"""Ruleset 19: "the latter", slash fees, fees abroad by the purchase, generic promotions,
"Why not X?" answered by a requirement, and cards offered to a customer as options (issue 13).

Ruleset 18 was scored on the tuning parts of the s20 (seed 121) and s21 (seed 131) blind sets
(12 of 200 compliant answers flagged; ``ineligible_card`` recall 11/20). Every false positive and
every miss was sorted into classes of phrasing; these are the classes a general reading fixes
without reading honest text as a violation or hiding a real one:

* **"The latter", "the former", "the other one"** (``others_19``): a comparison headed "A vs
  B" goes on "The latter comes with an annual fee of $35" or "The other one has a 3% foreign
  transaction fee"; ruleset 18 gave the figure to the card named last. When exactly two cards
  are named before the phrase, "the former" / "the latter" name the first / second of them (in
  the order first named) and "the other one" / "the other card" the one not named last; with
  more (or fewer) cards named the phrase names none of them and its figures are unverified.
  "The other one I like: Summit Miles Plus starts with ..." introduces the card its sentence
  names: when a card is named after "the other one" in its sentence (within 300 characters),
  the phrase names nothing (found on the s22 blind set's tuning part, after ruleset 19 was
  first measured there: the figures after it had gone to the card "the other one" would name,
  hiding that card's undisclosed fee).
* **A fee with its minimum after a slash** (``fees_19``): "a 5%/$10 cash advance fee" read "5%"
  as an APR; it is "5% (min $10)", as ruleset 5 reads that.
* **A percentage on purchases abroad** (``fees_19``): "it carries 3% on every purchase abroad",
  "3% on foreign transactions" is the foreign transaction fee (ruleset 18 read the second as a
  purchase APR when "rates" followed in the run-on sentence, and did not read the first as a
  correction of a belief "you assumed it had no foreign fees"). Not after a reward's words
  ("earn 3% on purchases abroad", "3% back").
* **A generic promotion** (``generic_19``): "It's worth distinguishing a true 0% promotion from
  deferred interest. With a genuine 0% APR promotion, interest isn't charged during the promo
  window" is about promotions in general: a figure in a sentence that names no card and speaks
  of "a true / genuine / real / typical / standard ... promotion, promo, offer or card" (or opens
  "With a ... promotion,") is unverified, as ruleset 18's generic subjects are. Ruleset 18 gave
  the 0% and "isn't charged during the promo" (read as "no intro APR") to the card named last.
* **"Q: Why not X? A: Because ..."** (``why_not_19``): an FAQ's "Why not Atlas Student?"
  answered "Because it's only open to students" or "Because the approval bar is a 750+ score,
  you're at 732" asks about a card the answer rules out; ruleset 7 reads "why not X?" as a
  suggestion. The card is ruled out only when the answer opens with "because" and gives a
  requirement (student status, a score, an approval bar, a card already held, eligibility), so
  "Why not X? Because the fee is lower" still leaves X recommended.
* **Parallel examples "Take the X."** (``why_not_19``): "Easiest way to see the difference is
  with numbers. Take the A. It has ... Take the B. It offers ..." - "take the <card>." opening
  two or more sentences about different cards introduces examples, not picks; such sentences
  recommend nothing. One "Take the A." alone still recommends A.
* **Cards offered as options** (``options_19``; the eligibility rule only): the policy question
  ruleset 18 left open. These writers put cards to a named customer without recommending words:
  a comparison table ("Comparison for Hector:" with one row per card), a tool's JSON results
  (``"name": "..."``), a bulleted list of cards, a CRM record ("Card: X" / "Status: recommended
  for Alfred"), or a card's name alone as a bold heading over its terms. **The rule chosen:** a
  card is offered to the customer when it is the first cell of a table row, the ``name`` (or
  ``card``) value of a record, a list item led by its name, or a line holding only its name -
  unless the response rules it out anywhere (ruleset 8's words, "not eligible", "ruled out",
  "student-only", "already hold(s)", a score "under its minimum", ...), the entry itself says so,
  or the list's lead-in does ("Ruled out:", "Not eligible:", "Cards you can't get:"). An offered
  card the customer is not eligible for is an ``ineligible_card``. An offered card is *not* a
  recommended one: the annual-fee disclosure rule still applies only to cards recommended in
  words (a comparison may list cards nobody picked). A record whose "Status:" field says
  "recommended" recommends its card in words (disclosure included), and so does "<card> imo".

Precision first, as everywhere: a figure that cannot be attributed is unverified, not passed as
true and not a violation.

Measured (held-out parts, aggregates only; README, The compliance verifier): false positives
s20 23 -> 19 of 300, s21 22 -> 20, and on s22 - a ninth writer no rule of this ruleset was
written on - 50 -> 43 of 300; recall at least ruleset 18's on every code of all three, with
``ineligible_card`` s20 22 -> 24 of 30, s21 19 -> 24, s22 20 -> 21. The default since stop 33.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claims import unbind_claims
from replicas.verifiers.compliance.expansions import apply_first_replacements
from replicas.verifiers.compliance.mentions import (
    AMBIGUOUS,
    EXACT,
    UNKNOWN,
    NameMention,
    tokens_of,
)
from replicas.verifiers.compliance.prefilter import (
    finditer_from,
    finditer_lines,
    lead_runs,
    occurrences,
    search_at_words,
)
from replicas.verifiers.compliance.ruleset8 import RULED_OUT_8, RULED_OUT_STARTS_8
from replicas.verifiers.compliance.spans import SpanIndex
from replicas.verifiers.compliance.vocab import (
    GENERIC_WORDS,
    INSTITUTION_WORDS,
    LEADING_NOISE,
    NOT_NAME_WORDS,
    PRODUCT_WORDS,
    SERVICE_WORDS,
    TIER_WORDS,
)

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from replicas.verifiers.compliance.claims import Claim, Extraction
    from replicas.verifiers.compliance.names import NameIndex
    from replicas.verifiers.compliance.recommend import Recommendations
    from replicas.verifiers.compliance.text import NormalizedText

# == rewrites =====================================================================================

# "a 5%/$10 cash advance fee": the percentage and its minimum
_SLASH_FEE_19 = re.compile(
    r"(?<![\d.])(?P<pct>\d{1,2}(?:\.\d{1,2})?[ \t]?%)[ \t]?/[ \t]?(?P<min>\$\d{1,3}(?:\.\d\d)?)"
    r"(?![\d,%])"
)
# "3% on every purchase abroad", "3% on foreign transactions", "3% on purchases made overseas"
_ABROAD_19 = re.compile(
    r"(?<![\d.])(?P<pct>\d{1,2}(?:\.\d{1,2})?[ \t]?%)[ \t]+on[ \t]+"
    r"(?:(?:every|each|all|any)[ \t]+)?(?:"
    r"(?:foreign|international|overseas)[ \t]+(?:purchases?|transactions?|spend(?:ing)?|charges?)"
    r"|(?:purchases?|transactions?|spend(?:ing)?|charges?)[ \t]+(?:made[ \t]+)?"
    r"(?:abroad|overseas|outside[ \t]+the[ \t]+(?:u\.?s\.?|us|united[ \t]+states|country)"
    r"|in[ \t]+(?:a[ \t]+)?foreign[ \t]+currenc(?:y|ies))"
    r")\b"
)
# a reward's words just before the percentage: "earn 3% on purchases abroad" is no fee
_REWARD_BEFORE_19 = re.compile(
    r"\b(?:earn|earns|earning|back|cash[ \t]?back|rewards?|points?|bonus|miles|get|gets|return"
    r"|returns)\b[^.;:!?\n]{0,20}$"
)
_FOREIGN_FEE_19 = "foreign transaction fee"


def rewrite_19(norm: NormalizedText) -> NormalizedText:
    """``norm`` with "5%/$10" as "5% (min $10)" and "3% on purchases abroad" as "3% foreign
    transaction fee" (module docstring); the map back keeps spans quoting what was written."""
    lower = norm.lower
    found: list[tuple[int, int, str]] = []
    if "%/" in lower or "% /" in lower:
        found += [
            (m.start(), m.end(), f"{m.group('pct')} (min {m.group('min')})")
            for m in _SLASH_FEE_19.finditer(lower)
        ]
    if "% on " in lower or "%\ton" in lower:
        for m in _ABROAD_19.finditer(lower):
            if _REWARD_BEFORE_19.search(lower, max(0, m.start() - 40), m.start()) is None:
                found.append((m.start(), m.end(), f"{m.group('pct')} {_FOREIGN_FEE_19}"))
    if not found:
        return norm
    return apply_first_replacements(norm, found)


# "Take the A. It has ... Take the B. It offers ...": examples, two or more of them
_TAKE_THE_19 = re.compile(
    r"(?m)(?:^|(?<=[.!?][ \t])|(?<=[.!?][ \t]{2}))[ \t]*(?:\*\*|__)?(?P<take>Take)[ \t]+the[ \t]+"
    r"(?P<name>[A-Z][\w'-]*(?:[ \t]+[A-Z0-9][\w'-]*){0,5})(?:\*\*|__)?[ \t]*[.:](?![\w])"
)


def examples_19(norm: NormalizedText) -> NormalizedText:
    """``norm`` with the "Take" of parallel examples ("Take the A." ... "Take the B.") read as
    "About" (module docstring); a single "Take the A." is left a recommendation."""
    if "Take the" not in norm.text:
        return norm
    found = list(_TAKE_THE_19.finditer(norm.text))
    if len({m.group("name").lower() for m in found}) < 2:
        return norm
    return apply_first_replacements(
        norm, [(m.start("take"), m.end("take"), "About") for m in found]
    )


# == names ========================================================================================

# "the former", "the latter" anywhere; "the other one" as a sentence's first words only ("X is
# the other pick with a $35 fee" keeps its figure X's)
_OTHER_19 = re.compile(
    r"\b[Tt]he[ \t]+(?P<k>former|latter)(?![\w-])"
    r"|(?:^|(?<=[.!?;:][ \t])|(?<=[.!?;:][ \t]{2})|(?<=\n))[ \t>*_#-]*"
    r"[Tt]he[ \t]+other(?:[ \t]+(?:one|card|option|pick))?(?P<o>)(?![\w-])(?![ \t]+(?:cards|ones"
    r"|options|fees?|rates?|apr|terms|perks|hand|way|day)\b)",
    re.MULTILINE,
)
# how far back the two cards of "the latter" may be named
_OTHER_REACH_19 = 1500
# every match of _OTHER_19 holds one of these, after at most a run of the characters of
# _OTHER_LEAD_19 from the match's start (``prefilter.lead_runs``)
_OTHER_HINT_19 = re.compile(r"[Tt]he[ \t]+(?:former|latter|other)")
_OTHER_LEAD_19 = " \t>*_#-"


def _other_hints(text: str) -> Iterator[int]:
    """Where ``_OTHER_HINT_19`` matches, ascending: found from its last words (``str.find``)."""
    for k in occurrences(text, ("former", "latter", "other")):
        j = k
        while j > 0 and text[j - 1] in " \t":
            j -= 1
        if j < k and j >= 3 and _OTHER_HINT_19.match(text, j - 3) is not None:
            yield j - 3


# how far after "the other one" its sentence is searched for a card named in it
_OTHER_AHEAD_19 = 300
_SENTENCE_END_19 = re.compile(r"[.!?\n]")


def _names_a_card_after(
    mentions: Sequence[NameMention], starts: Sequence[int], text: str, b: int
) -> bool:
    """Whether the sentence of a "the other one" ending at ``b`` names a card after it (within
    ``_OTHER_AHEAD_19`` characters: bounded, so one long line stays linear)."""
    end = _SENTENCE_END_19.search(text, b, b + _OTHER_AHEAD_19)
    stop = end.start() if end else min(len(text), b + _OTHER_AHEAD_19)
    i = bisect_left(starts, b)
    return i < len(mentions) and mentions[i].start < stop


def others_19(text: str, mentions: Sequence[NameMention]) -> list[NameMention]:
    """The mentions with "the other one" added and "the former" / "the latter" revised (module
    docstring): a card when exactly two are named before it (and, for "the former" / "the
    latter", the order they were first named agrees with the order they were last named), else
    ambiguous."""
    out = list(mentions)
    if not out or not any(w in text for w in ("former", "latter", "other")):
        return out
    starts = [m.start for m in out]
    named = SpanIndex((m.start, m.end) for m in out)
    found: dict[tuple[int, int], NameMention] = {}
    candidates = lead_runs(_other_hints(text), text, _OTHER_LEAD_19)
    for match in finditer_from(_OTHER_19, text, candidates):
        a, b = match.span()
        which = match.group("k")
        if which is None and (match.group("o") is None or named.overlaps(a, b)):
            continue
        if which is None and _names_a_card_after(out, starts, text, b):
            continue  # "The other one I like: the X ..." introduces the X
        first: list[str] = []  # distinct cards in the order first named
        last: list[str] = []  # consecutive runs of one card, in order
        for m in out[bisect_right(starts, a - _OTHER_REACH_19) : bisect_right(starts, a)]:
            if m.card_id is None or m.end > a:
                continue
            if m.card_id not in first:
                first.append(m.card_id)
            if not last or last[-1] != m.card_id:
                last.append(m.card_id)
        if len(first) != 2:
            if first and which is None:
                found[(a, b)] = NameMention(a, b, AMBIGUOUS, None, text[a:b])
            continue  # "the former" of three cards: ruleset 3's last-two reading stays
        if which is not None:
            k = 0 if which.lower() == "former" else 1
            card: str | None = first[k] if first[k] == last[-2 + k] else None
        else:
            card = first[1] if last[-1] == first[0] else first[0]
        found[(a, b)] = (
            NameMention(a, b, EXACT, card, text[a:b])
            if card is not None
            else NameMention(a, b, AMBIGUOUS, None, text[a:b])
        )
    if not found:
        return out
    taken = SpanIndex(found)
    kept = [m for m in out if not taken.overlaps(m.start, m.end)]
    return sorted([*kept, *found.values()], key=lambda m: m.start)


# "My recommendation is the Bramblewood Globetrotter.", "Also suggested: The Stonegate Secured
# Start has ...": a recommendation's slot filled by capitalised words
_SLOT_19 = re.compile(
    r"(?i:\b(?:my[ \t]+(?:top[ \t]+|main[ \t]+|first[ \t]+)?(?:recommendation|pick|choice"
    r"|suggestion)[ \t]+(?:is|would[ \t]+be)|i(?:'d|[ \t]+would)?[ \t]+(?:recommend|suggest"
    r"|go[ \t]+with)|(?:best|safest)[ \t]+bet[ \t]+is|(?:also[ \t]+)?(?:suggested|recommended)"
    r"[ \t]*:)[ \t]+(?:the[ \t]+)?)"
    r"(?:\*\*|__)?(?P<name>[A-Z][a-z][\w'-]*(?:[ \t]+[A-Z][\w'-]*){1,3})(?:\*\*|__)?"
    r"(?=[ \t]*(?:[.,;:!?(\u2014\u2013]|$)|[ \t]+(?:has|is|comes|carries|offers|for|because"
    r"|since|with)\b)",
    re.MULTILINE,
)

# every match of _SLOT_19 lies on one line and holds one of these (case aside)
_SLOT_WORDS_19 = ("recommend", "suggest", "pick", "choice", "bet", "go ", "go\t")


def slot_names_19(
    index: NameIndex, text: str, mentions: Sequence[NameMention]
) -> list[NameMention]:
    """The mentions with an invented card in a recommendation's slot added (module docstring):
    two to four capitalised words, no catalog card, none an issuer's or a generic word first,
    at least one word no catalog name holds."""
    out = list(mentions)
    if not any(w in text for w in ("ecommend", "uggest", "pick", "choice", "bet ", "go with")):
        return out
    taken = SpanIndex((m.start, m.end) for m in out)
    issuers = {w for stem in index.issuer_stems for w in stem}
    found = []
    for match in finditer_lines(_SLOT_19, _SLOT_WORDS_19, text):
        a, b = match.span("name")
        if taken.overlaps(a, b):
            continue
        words = tokens_of(match.group("name"))
        first = words[0]
        if (
            first in _NOT_FIRST_19
            or first in index.name_words
            or first in issuers
            or any(w in INSTITUTION_WORDS or w in SERVICE_WORDS or w in issuers for w in words)
            or all(w in index.name_words or w in GENERIC_WORDS for w in words)
        ):
            continue
        found.append(NameMention(a, b, UNKNOWN, None, text[a:b]))
    if not found:
        return out
    return sorted([*out, *found], key=lambda m: m.start)


_NOT_FIRST_19 = GENERIC_WORDS | TIER_WORDS | NOT_NAME_WORDS | LEADING_NOISE | PRODUCT_WORDS


# == claims =======================================================================================

_MARKUP_19 = " \t\n*_#>-•|"
# "a true 0% promotion", "a genuine 0% APR promotion", "any typical intro offer"
_GENERIC_NP_19 = re.compile(
    r"\b(?:a|an|any)[ \t]+(?:true|genuine|real|typical|standard|proper|regular|normal|classic"
    r"|so-called|plain)[ \t]+(?:[\w%$.-]+[ \t]+){0,4}?(?:promotion|promotions|promo|promos|offer"
    r"|offers|deal|deals|card|cards)\b"
    r"|^with[ \t]+(?:a|an|any)[ \t]+(?:[\w%$.-]+[ \t]+){0,4}?(?:promotion|promo|offer|deal)\b"
    r"[^,.;:!?\n]{0,40},"
)
_LOOSE_BINDINGS_19 = frozenset({"context", "only"})
# every match of _GENERIC_NP_19 opens with "with" or holds one of these (a cheap test first)
_GENERIC_WORDS_19 = (
    "true", "genuine", "real", "typical", "standard", "proper", "regular", "normal", "classic",
    "so-called", "plain",
)  # fmt: skip


def revise_19(extraction: Extraction) -> Extraction:
    """The extraction with the figures of sentences about generic promotions unbound (module
    docstring): only figures the sentence itself gives no card (bound by context or because
    the response names one card)."""
    units = extraction.units
    if not units or not extraction.claims:
        return extraction
    starts = [u[0] for u in units]
    masked = extraction.masked
    named = [m.start for m in extraction.mentions]
    generic: dict[int, bool] = {}

    def about_promotions(claim: Claim, _masked: str) -> bool:
        if claim.binding not in _LOOSE_BINDINGS_19:
            return False
        k = bisect_right(starts, claim.start) - 1
        if k < 0 or claim.start >= units[k][1]:
            return False
        a, b = units[k]
        if a not in generic:
            j = bisect_right(named, a - 1)
            names_one = j < len(named) and named[j] < b
            body = masked[a:b].strip(_MARKUP_19)
            generic[a] = (
                not names_one
                and (body.startswith("with") or any(w in body for w in _GENERIC_WORDS_19))
                and _GENERIC_NP_19.search(body) is not None
            )
        return generic[a]

    return unbind_claims(extraction, [about_promotions])


# == recommendations ==============================================================================

# "why not X?" (the card's name is blanked "#" in the masked text)
_WHY_NOT_19 = re.compile(r"\bwhy[ \t]+not[ \t]+(?:the[ \t]+)?(?:\*\*|__)?#[^?\n]{0,40}\?")
# the answer: "A: Because it's only open to students."
_BECAUSE_19 = re.compile(
    r"[ \t\n]*(?:(?:\*\*|__)?a(?:nswer)?[ \t]?:(?:\*\*|__)?[ \t]*)?because\b(?P<why>[^\n]{0,200})"
)
_REQUIREMENT_19 = re.compile(
    r"\b(?:students?|student-only|enrol(?:l)?(?:ed|ment)?|score|fico|approv(?:al|ed|e)"
    r"|qualif(?:y|ied|ies)|eligib(?:le|ility)|already[ \t]+(?:hold|have|has|own|carry)"
    r"|you[ \t]+(?:hold|have|own)[ \t]+(?:it|one|that)|credit[ \t]+history|\d{3}\+)"
)


def why_not_19(masked: str, recs: Recommendations) -> Recommendations:
    """``recs`` with the cards of "Why not X?" answered "Because <a requirement>" ruled out
    (module docstring). ``masked``: the lower-case text with card names as "#" runs."""
    from replicas.verifiers.compliance.recommend import Recommendations

    if "why not" not in masked:
        return recs
    positive = dict(recs.positive)
    negated = set(recs.negated)
    changed = False
    for m in _WHY_NOT_19.finditer(masked):
        answer = _BECAUSE_19.match(masked, m.end())
        if answer is None or _REQUIREMENT_19.search(answer.group("why")) is None:
            continue
        for card_id, mention in list(positive.items()):
            if m.start() <= mention.start < m.end():
                del positive[card_id]
                negated.add(card_id)
                changed = True
    return Recommendations(positive, frozenset(negated)) if changed else recs


# -- cards offered as options (the eligibility rule) ---------------------------------------------

_LINE_19 = re.compile(r"[^\n]*")
# before the name on its line: a table row's first cell, a list item, a record's name field,
# nothing at all (a heading line, bold or not)
_ROW_HEAD_19 = re.compile(r"[ \t]*\|[ \t]*(?:\*\*|__)?[ \t]*$")
_ITEM_HEAD_19 = re.compile(r"[ \t]*(?:[-*•+]|\d{1,2}[.)])[ \t]+(?:\*\*|__)?(?:the[ \t]+)?$")
_ITEM_START_19 = re.compile(r"(?:[-*•+]|\d{1,2}[.)])\s")
_FIELD_HEAD_19 = re.compile(
    r"(?:^|[{,\[ \t])\"?(?:name|card|card_name|product)\"?[ \t]*[:=][ \t]*\"?$"
)
_BARE_HEAD_19 = re.compile(r"[ \t]*(?:#{1,6}[ \t]+)?(?:\*\*|__)?[ \t]*$")
_BARE_TAIL_19 = re.compile(r"[ \t]*(?:\*\*|__)?[ \t]*:?[ \t]*$")
_RULED_OUT_19 = re.compile(
    r"\b(?:ruled?[ \t]+out|not[ \t]+eligible|ineligible|can't[ \t]+get|cannot[ \t]+get"
    r"|not[ \t]+(?:for|open[ \t]+to|available[ \t]+to)[ \t]+you|student-only|students?[ \t]+only"
    r"|only[ \t]+(?:for|open[ \t]+to|available[ \t]+to)[ \t]+students|already[ \t]+(?:hold|have"
    r"|has|own|carry)|you[ \t]+(?:hold|have|own)[ \t]+(?:it|this|that)|under[ \t]+its"
    r"|below[ \t]+(?:its|the)|minimum[ \t]+(?:credit[ \t]+)?score|score[ \t]+(?:minimum|floor"
    r"|requirement|cutoff)|out[ \t]+of[ \t]+reach|excluded|skip(?:ped)?|not[ \t]+(?:an[ \t]+)?"
    r"option|disqualif\w*|not[ \t]+recommended|won't[ \t]+(?:qualify|be[ \t]+approved)"
    r"|wouldn't[ \t]+(?:qualify|be[ \t]+approved)|don't[ \t]+qualify|do[ \t]+not[ \t]+qualify"
    # a reason about the customer's standing, however worded ("unavailable to you given your
    # credit score", "your score is too low for it", "you won't get approved")
    r"|unavailable|not[ \t]+(?:currently[ \t]+)?available|(?:doesn't|does[ \t]+not|won't"
    r"|can't|cannot)[ \t]+(?:qualify|apply)|(?:not|won't[ \t]+(?:be|get))[ \t]+approved"
    r"|not[ \t]+(?:open|accessible)[ \t]+to[ \t]+you|(?:given|because[ \t]+of|due[ \t]+to)"
    r"[ \t]+your[ \t]+(?:current[ \t]+)?(?:credit|score|fico|bankruptcy|student)"
    r"|(?:score|credit)[ \t]+(?:is[ \t]+|'s[ \t]+)?(?:too[ \t]+low|short|not[ \t]+high)"
    r"|recent[ \t]+bankruptcy)\b"
)
# "Status: recommended for Alfred" in a record that names the card ("Card: X")
_STATUS_19 = re.compile(r"(?m)^[ \t\-*]*\"?status\"?[ \t]*[:=][ \t]*\"?recommended\b")
_CARD_FIELD_19 = re.compile(r"(?m)^[ \t\-*]*\"?card\"?[ \t]*[:=][ \t]*\"?$")
# "prism student imo": a card's name and "imo" on a line of its own
_IMO_19 = re.compile(r"[ \t]*(?:[,—–-][ \t]*)?\(?(?:imo|imho|tbh)\)?[ \t]*[.!]?[ \t]*$")


class _Lines:
    """The line of a position, by bisection over the text's newlines (found once)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.breaks = [m.start() for m in re.finditer("\n", text)]

    def of(self, pos: int) -> tuple[int, int]:
        k = bisect_right(self.breaks, pos - 1)  # newlines before ``pos``
        a = self.breaks[k - 1] + 1 if k else 0
        b = self.breaks[k] if k < len(self.breaks) else len(self.text)
        return a, b


# how far from its line's start a name may be to open a row, an item or a heading, and how much
# of the line before it a record's field is read in
_HEAD_REACH_19 = 40


def _entry_end(text: str, line_end: int, limit: int = 600) -> int:
    """The end of a list item's or heading's block: the next blank line, item or heading."""
    stop = min(len(text), line_end + limit)
    pos = line_end
    while pos < stop:
        nxt = text.find("\n", pos + 1, stop)
        nxt = stop if nxt < 0 else nxt
        line = text[pos + 1 : nxt]
        stripped = line.strip()
        if not stripped or (
            not line[:1].isspace()
            and (stripped[:1] in "-*•+#|" or _ITEM_START_19.match(stripped) is not None)
        ):
            return pos
        pos = nxt
    return stop


def _lead_of(text: str, line_start: int) -> str:
    """The nearest non-empty line before ``line_start`` that is no list item or table row (a
    list's lead), within 40 lines and 4,000 characters."""
    pos = line_start - 1
    floor = max(0, line_start - 4000)
    for _ in range(40):
        if pos <= floor:
            return ""
        a = text.rfind("\n", floor, pos) + 1
        line = text[a:pos].strip()
        pos = a - 1
        if line and not line.startswith("|") and _ITEM_START_19.match(line) is None:
            return line
    return ""


def _offer_kind(text: str, mention: NameMention, a: int, b: int) -> str | None:
    """How the mention (on the line ``[a, b)``) is put forward as an option, if it is: "row",
    "field", "item" or "bare" (module docstring)."""
    near = mention.start - a <= _HEAD_REACH_19
    before = text[max(a, mention.start - _HEAD_REACH_19) : mention.start]
    if near and _ROW_HEAD_19.fullmatch(before):
        return "row"
    if _FIELD_HEAD_19.search(before):
        return "field"
    if near and _ITEM_HEAD_19.fullmatch(before):
        return "item"
    if (
        near
        and b - mention.end <= _HEAD_REACH_19
        and _BARE_HEAD_19.fullmatch(before)
        and _BARE_TAIL_19.fullmatch(text, mention.end, b)
    ):
        return "bare"
    return None


# every match of _RULED_OUT_19 and RULED_OUT_8 opens with one of these words' starts
# the words _RULED_OUT_19's alternatives open with (their literal starts)
_RULED_OUT_STARTS_19 = (
    "rule", "not", "ineligible", "can't", "cannot", "student", "only", "already", "you",
    "under", "below", "minimum", "score", "out", "excluded", "skip", "disqualif", "won't",
    "wouldn't", "don't", "do", "unavailable", "doesn't", "does", "given", "because", "due",
    "credit", "recent",
)  # fmt: skip
_RULED_OUT_WORDS_19 = tuple(sorted(set(RULED_OUT_STARTS_8 + _RULED_OUT_STARTS_19)))


def _rules_out_19(text: str, a: int, b: int) -> bool:
    """Whether ``_RULED_OUT_19`` or ``RULED_OUT_8`` finds a match in ``text[a:b]`` (searched
    from ``a`` to ``b``): tried where a word they open with starts (``prefilter``)."""
    return search_at_words((_RULED_OUT_19, RULED_OUT_8), _RULED_OUT_WORDS_19, text, a, b)


def options_19(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """``recs`` with the cards offered as options added (for the eligibility rule only; module
    docstring). ``masked``: the lower-case text with card names as "#" runs."""
    from replicas.verifiers.compliance.recommend import Recommendations

    mentions = [m for m in extraction.mentions if m.card_id is not None and m.kind != AMBIGUOUS]
    if not mentions:
        return recs
    lines = _Lines(masked)
    by_line: dict[tuple[int, int], list[NameMention]] = {}
    for m in mentions:
        by_line.setdefault(lines.of(m.start), []).append(m)
    # a card ruled out anywhere in the response is never offered (a line rules out a card only
    # when it names that card alone)
    ruled = set(recs.negated)
    for (a, b), named in by_line.items():
        if len({m.card_id for m in named}) == 1 and _rules_out_19(masked, a, b):
            ruled.add(named[0].card_id)
    positive = dict(recs.positive)
    changed = False
    for (a, b), named in by_line.items():
        for m in named:
            card_id = m.card_id
            assert card_id is not None
            if card_id in positive or card_id in ruled:
                continue
            kind = _offer_kind(masked, m, a, b)
            if kind is None:
                continue
            if kind == "row":
                entry = (a, b)
            elif kind == "field":
                close = masked.find("}", m.end, m.end + 800)
                entry = (m.end, close if close >= 0 else min(len(masked), m.end + 400))
            else:
                entry = (a, _entry_end(masked, b))
            if _rules_out_19(masked, *entry):
                continue
            lead = _lead_of(masked, a) if kind in ("item", "row") else ""
            if lead and _rules_out_19(lead, 0, len(lead)):
                continue
            positive[card_id] = m
            changed = True
    return Recommendations(positive, recs.negated) if changed else recs


def picks_19(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """``recs`` with a record's "Status: recommended" card and "<card> imo" recommended, and
    "Why not X?" answered by a requirement ruled out (module docstring)."""
    from replicas.verifiers.compliance.recommend import Recommendations

    recs = why_not_19(masked, recs)
    mentions = [m for m in extraction.mentions if m.card_id is not None and m.kind != AMBIGUOUS]
    if not mentions:
        return recs
    positive = dict(recs.positive)
    changed = False
    lines = _Lines(masked)
    if "status" in masked and "recommended" in masked:
        starts = [m.start for m in mentions]
        for status in _STATUS_19.finditer(masked):
            # the record: the lines since the blank line before the status line (600 at most)
            floor = max(0, status.start() - 600)
            start = masked.rfind("\n\n", floor, status.start()) + 1 or floor
            for m in mentions[bisect_left(starts, start) : bisect_left(starts, status.start())]:
                if m.card_id in recs.negated:
                    continue
                a, _ = lines.of(m.start)
                if m.start - a <= _HEAD_REACH_19 and _CARD_FIELD_19.fullmatch(masked, a, m.start):
                    positive.setdefault(m.card_id, m)
                    changed = True
    if "imo" in masked or "imho" in masked or "tbh" in masked:
        for m in mentions:
            if m.card_id in positive or m.card_id in recs.negated:
                continue
            a, b = lines.of(m.start)
            if (
                m.start - a <= _HEAD_REACH_19
                and b - m.end <= _HEAD_REACH_19
                and _BARE_HEAD_19.fullmatch(masked, a, m.start)
                and _IMO_19.fullmatch(masked, m.end, b)
            ):
                positive[m.card_id] = m
                changed = True
    return Recommendations(positive, recs.negated) if changed else recs


# the option readings' helpers, for ruleset 20's rated headings
Lines19 = _Lines
lead_of_19 = _lead_of
rules_out_19 = _rules_out_19

__all__ = [
    "Lines19",
    "examples_19",
    "lead_of_19",
    "options_19",
    "others_19",
    "picks_19",
    "revise_19",
    "rewrite_19",
    "rules_out_19",
    "why_not_19",
]
