"""Ruleset 17: inline short labels, quoted-and-corrected figures, yearly values, one-scope
intro offers, currency codes, transcripts, orderings, multi-year totals and ordinal references
(issue 13).

The s17 blind set's tuning part (seed 91) left four classes that ruleset 16 misreads:

* **A short label inside a line** (``labels_17``). "In short — One: 19.74–29.74 pct APR, no
  annual fee; Platinum: 19.74% to 27.74% APR" and "Build: 28.99 percent APR, $35 annual fee;
  Cash: 21.24–29.24 pct APR": a capitalised word or two right after a dash, a semicolon, a
  colon or a pipe and followed by a colon is a label. Ruleset 10 reads labels only at the start
  of a line and only as the tail of a card named *before* them, so these figures went to the card
  named last (``wrong_apr``/``wrong_fee`` on a true summary). A label that is the first or last
  word(s) of exactly one card the response names (anywhere: "Elite:" before "the Frontier
  Business Rewards Elite" is named) names that card; the words of several is ambiguous and its
  figures stay unverified; the words of none is no label.
* **A figure quoted and declared wrong** (``beliefs_17``). 'You mentioned "3.99% for 12 months" —
  that is not right for the X; the offer is 3.99% for 18 months': ruleset 14 reads "you thought",
  "you heard" as a belief, not "you mentioned", "you said", "you quoted". Such a belief counts
  only when a correction word ("not right", "incorrect", "actually", ...) follows it, and, as for
  every corrected myth, only when a figure of the same family corrects it.
* **A yearly value priced by year** (``values_17``). "Estimated value to you: $652.72 in year one,
  $352.72 a year after that" read as an annual fee of $352.72. A dollar figure read as an annual
  fee (or a first-year fee) in a sentence that calls it a value ("value", "worth", "net",
  "earn", "save", ...) before it and has no fee or cost word at all is unverified.
* **An intro offer scoped to one kind** (``sole_scope_17``). "zero percent introductory APR for
  18 months on purchases" on a card whose purchase offer is 0.99 % and whose balance-transfer
  offer is 0 % for 18 months passed: ruleset 3 gives an intro figure that is exactly the card's
  *other* offer the benefit of the doubt, because which offer a sentence means is easy to
  misread. When the figure's own unit names one kind of balance only (purchases, and no word of
  transfers; or transfers and no word of purchases), there is no doubt to give: the claim is
  checked against that offer alone (``wrong_intro_terms``), as ruleset 8 does when a unit states
  both offers.

The s18 blind set (a sixth writer, seeds 101-104) was scored with the classes above in place
(held out: 34 false positives in 300 compliant answers, 11.3 %), then its tuning part (seed 101)
gave five more classes, folded into this ruleset before it was published:

* **Dollars with the currency code** (``currency_17``): "annual fee USD 95 (first year: USD 0)",
  "95 usd" are read as "$95" and "$0" (``rewrite_17``); the first-year "USD 0" went unread, so
  the $95 was taken for the first-year fee.
* **The customer's figure in a transcript** (``beliefs_17``): in "User: ... the X's APR is 19.24%
  - true?" / "Assistant: That figure isn't right: its purchase APR is 23.24%", the customer's
  turn (a line opening "User:", "Customer:", "Client:", "Human:", "Me:", "Q:") up to the
  assistant's turn that answers it holds the customer's words; its figures are dropped when a
  later claim corrects them, as a quoted belief's are: the same family and card, another value.
  (Ruleset 11's test for a corrected myth takes any figure of the family after it; ruleset 17's
  beliefs need a claim about the same card that differs, so "- not a mistake; its late fee is
  $39" corrects nothing.) A "User:" turn that no
  assistant's turn follows is none (an answer that opens with "User:" is still read whole).
* **Figures ordered by a comparison sign** (``revise_17``): "23.24% < 23.49% < 26.74%" ranks
  several cards' figures; bound to the card named last they were three wrong APRs.
* **A fee paid over several years** (``revise_17``): "Across three years you'd pay $285 in
  annual fees" is a total; ruleset 14 unbinds a total only with a word that says so ("in
  total", "adds up to", "="). A dollar fee in a sentence about several years that no "a year",
  "per year" follows is unverified.
* **"the first one's", "the second's"** (``ordinals_17``): "The first one's late fee is $30, the
  second's $41" after two cards are named: the first (second, third) card named in the 400
  characters before it.

Scored before any rule saw it, this ruleset (with the classes above) flagged 24 of the 300
held-out compliant answers of a seventh writer, s19 (seeds 111-114; 8.0 %). Its tuning part
(seed 111) then gave two more classes, and a recall fix came from the missing-disclosure misses of
the s14 and s18 tuning parts; all three were folded in before publishing:

* **What others say, corrected** (``beliefs_17``): "People often say the X costs $125 a year. It
  doesn't; the annual fee is $95." - "people/some sites/reviewers say, claim, list ..." and "it
  is often said ..." open a belief, held to the same test as "you mentioned": a correction word
  after it and a figure of the same family that corrects it.
* **What the customer spends** (``values_17``): "You put about $2,206 a month on cards, so
  $26,469 a year" read as an annual fee; spending words ("spend", "put", "budget", "income")
  join the value words.
* **A fee disclosed by another figure** (``fee_disclosed_17``): a recommended card's annual fee
  counted as stated when any dollar figure of the response equalled it (another card's "$95
  annual fee", "spend $95 on groceries"); now a fee claim bound to that card states it, or an
  equal figure beside a cost word in a unit naming no other card, after that card was named
  last ("Go with the X - you'll pay ninety-five dollars a year ...": ``fee_stated_near``). On
  the six blind sets' held-out parts this raised ``missing_disclosure`` recall (s15 28 -> 30/30,
  s16 26 -> 30/30, s14 26 -> 27/30, s18 23 -> 24/30) and flagged no compliant answer.

Precision first, as everywhere: a figure unbound is unverified, not passed as true.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import FEE_CLAIM, INTRO_CLAIM
from replicas.verifiers.compliance.claims import unbind_claims
from replicas.verifiers.compliance.expansions import apply_first_replacements
from replicas.verifiers.compliance.mentions import AMBIGUOUS, EXACT, NameMention, tokens_of
from replicas.verifiers.compliance.ruleset14 import _MYTH_END_14
from replicas.verifiers.compliance.ruleset14b import _PER_YEAR_AFTER, _YEARS_SPAN
from replicas.verifiers.compliance.spans import SpanIndex
from replicas.verifiers.compliance.values import USD, find_values

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from replicas.verifiers.compliance.claims import Claim, Extraction
    from replicas.verifiers.compliance.names import NameIndex
    from replicas.verifiers.compliance.text import NormalizedText

# == rewrites =====================================================================================

# "USD 95", "95 USD", "US$95", "usd 0": dollars written with the currency code
_CODE_BEFORE_17 = re.compile(
    r"(?<![\w$])(?:usd|us[ \t]?\$)[ \t]?(?P<n>\d[\d,]*(?:\.\d{1,2})?)(?![\d%])"
)
_CODE_AFTER_17 = re.compile(r"(?<![\w$.,])(?P<n>\d[\d,]*(?:\.\d{1,2})?)[ \t]?usd\b")


def rewrite_17(norm: NormalizedText) -> NormalizedText:
    """``norm`` with dollar amounts written with the currency code ("USD 95", "95 USD") as
    "$95" (module docstring)."""
    lower = norm.lower
    if "usd" not in lower and "us$" not in lower and "us $" not in lower:
        return norm
    found = [(m.start(), m.end(), "$" + m.group("n")) for m in _CODE_BEFORE_17.finditer(lower)]
    found += [(m.start(), m.end(), "$" + m.group("n")) for m in _CODE_AFTER_17.finditer(lower)]
    if not found:
        return norm
    return apply_first_replacements(norm, found)


# == names ========================================================================================

# after a dash, a semicolon, a colon or a pipe (or at a line's start): one to three capitalised
# words, maybe in bold, then a colon and a space
_INLINE_LABEL_17 = re.compile(
    r"(?:^|(?<=[—–;:|])|(?<=[ \t][-—–])|(?<=[;:|][ \t])|(?<=[—–][ \t])|(?<=[ \t][-—–][ \t]))"
    r"[ \t]{0,3}(?:\*\*|__)?"
    r"(?P<label>[A-Z0-9][A-Za-z0-9'-]{0,20}(?:[ \t][A-Z0-9][A-Za-z0-9'-]{0,20}){0,2})"
    r"(?:\*\*|__)?[ \t]?:(?=[ \t])",
    re.MULTILINE,
)


_COLON_SPACE_17 = re.compile(r":[ \t]")

# how far a match reaches before its colon: three spaces, "**", three words of 21 characters and
# the two spaces between them, "**" and a space
_LABEL_REACH_17 = 3 + 2 + 3 * 21 + 2 + 2 + 1


def _inline_labels(text: str) -> Iterator[re.Match[str]]:
    """``_INLINE_LABEL_17.finditer(text)``, tried only in the few characters before each colon
    and space: a match holds no colon and ends at the first one after its start, so each colon
    has at most one match, starting after the colon before it and at most ``_LABEL_REACH_17``
    characters back (the pattern opens with look-behinds, so the regex engine would otherwise try
    it at every character of a long line)."""
    for colon in _COLON_SPACE_17.finditer(text):
        end = colon.start()
        start = max(0, end - _LABEL_REACH_17)
        start = max(start, text.rfind(":", start, end) + 1)
        match = _INLINE_LABEL_17.search(text, start, end + 2)
        if match is not None:
            yield match


def labels_17(index: NameIndex, text: str, mentions: Sequence[NameMention]) -> list[NameMention]:
    """The mentions with inline short labels added (module docstring)."""
    out = list(mentions)
    if ":" not in text:
        return out
    named = sorted({m.card_id for m in out if m.card_id is not None})
    if not named:
        return out
    taken = SpanIndex((m.start, m.end) for m in out)
    words = {c: index.words_by_card[c] for c in named}
    found = []
    for match in _inline_labels(text):
        start, end = match.span("label")
        if taken.overlaps(start, end):
            continue
        label = tokens_of(match.group("label"))
        n = len(label)
        if not n:
            continue
        fits = [c for c in named if len(words[c]) > n and label in (words[c][:n], words[c][-n:])]
        if len(fits) == 1:
            found.append(NameMention(start, end, EXACT, fits[0], text[start:end]))
        elif fits:
            found.append(NameMention(start, end, AMBIGUOUS, None, text[start:end]))
    if not found:
        return out
    return sorted([*out, *found], key=lambda m: m.start)


# -- "the first one's", "the second's": the cards just named, in order ---------------------------
_ORDINAL_17 = re.compile(
    # "[Tt](?<!\w[Tt])he": "\bthe" written to open with a literal, so the engine skips to it
    r"[Tt](?<!\w[Tt])he[ \t]+(?P<n>first|second|third)(?:[ \t]+(?:one|card|pick|option))?"
    r"(?:'s|’s)(?!\w)"
)
_ORDINALS = {"first": 0, "second": 1, "third": 2}


def ordinals_17(text: str, mentions: Sequence[NameMention]) -> list[NameMention]:
    """The mentions with "the first one's" / "the second's" added: the first (second, third)
    card named in the 400 characters before it, when it names two or more."""
    out = list(mentions)
    if ("'s" not in text and "’s" not in text) or not any(
        n in text for n in ("first", "second", "third")
    ):
        return out
    starts = [m.start for m in out]
    taken = SpanIndex((m.start, m.end) for m in out)
    found = []
    for match in _ORDINAL_17.finditer(text):
        a, b = match.span()
        if taken.overlaps(a, b):
            continue
        named: list[str] = []
        for m in out[bisect_right(starts, a - 400) : bisect_right(starts, a)]:
            if m.card_id is not None and m.end <= a and m.card_id not in named:
                named.append(m.card_id)
        k = _ORDINALS[match.group("n")]
        if len(named) >= 2 and k < len(named):
            found.append(NameMention(a, b, EXACT, named[k], text[a:b]))
    if not found:
        return out
    return sorted([*out, *found], key=lambda m: m.start)


# == claims =======================================================================================

# -- a yearly value priced by year ----------------------------------------------------------------
_VALUE_WORDS_17 = re.compile(
    r"\b(?:value|values|valued|worth|net|earn|earns|earned|earning|earnings|save|saves|saving"
    r"|savings|return|returns|payback|gain|gains|profit|benefit|benefits|comes[ \t]+out[ \t]+ahead"
    # what the customer spends ("You put about $2,206 a month on cards, so $26,469 a year")
    r"|spend|spends|spent|spending|put|puts|putting|budget|income|salary)\b"
)
_COST_WORDS_17 = re.compile(
    r"\b(?:fee|fees|af|charge|charges|charged|charging|cost|costs|costing|price|priced|pay|pays"
    r"|paying|bill|billed|due|membership)\b"
)
_SENTENCE_END_17 = re.compile(r"[.!?](?!\d)|\n")


def _sentence(masked: str, pos: int) -> tuple[int, int]:
    """The sentence (or line) around ``pos``, read at most 300 characters each way."""
    lo = max(0, pos - 300)
    start = lo
    for m in _SENTENCE_END_17.finditer(masked, lo, pos):
        start = m.end()
    end = _SENTENCE_END_17.search(masked, pos, pos + 300)
    return start, (end.start() if end is not None else min(len(masked), pos + 300))


def _yearly_value_17(claim: Claim, masked: str) -> bool:
    if claim.family != FEE_CLAIM or claim.kind not in ("annual", "annual_first_year"):
        return False
    if claim.is_none or not claim.low:
        return False
    a, b = _sentence(masked, claim.start)
    if _VALUE_WORDS_17.search(masked, a, claim.start) is None:
        return False
    return _COST_WORDS_17.search(masked, a, b) is None


# -- a fee paid over several years ----------------------------------------------------------------
def _over_years_17(claim: Claim, masked: str) -> bool:
    """A dollar fee in a sentence about several years ("Across three years you'd pay $285 in
    annual fees") that the words do not price per year: a total, not a fee."""
    if claim.family != FEE_CLAIM or claim.unit != USD or claim.is_none or claim.low is None:
        return False
    lo = max(0, claim.start - 300)
    if masked.find("years", lo, claim.start) < 0 and masked.find("-year", lo, claim.start) < 0:
        return False  # every match of _YEARS_SPAN holds one (the sentence starts after ``lo``)
    a, _ = _sentence(masked, claim.start)
    if _YEARS_SPAN.search(masked, a, claim.start) is None:
        return False
    return _PER_YEAR_AFTER.match(masked, claim.end) is None


# -- figures ordered by a comparison sign ---------------------------------------------------------
_FIGURE_17 = r"(?:\$[ \t]?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?[ \t]?%)"
_CHAIN_17 = re.compile(rf"{_FIGURE_17}(?:[ \t]*(?:<=?|>=?|≤|≥|≦|≧|<<|>>)[ \t]*{_FIGURE_17})+")


def _chains(masked: str) -> SpanIndex:
    return SpanIndex(m.span() for m in _CHAIN_17.finditer(masked))


def revise_17(extraction: Extraction) -> Extraction:
    """The extraction with yearly values priced by year, and figures ordered by a comparison
    sign ("23.24% < 23.49% < 26.74%"), unbound (module docstring)."""
    masked = extraction.masked
    readings: list[Callable[[Claim, str], bool]] = []
    if "$" in masked and any(h in masked for h in _VALUE_HINTS_17):
        readings.append(_yearly_value_17)
    if "$" in masked and "years" in masked:
        readings.append(_over_years_17)
    if any(sign in masked for sign in "<>≤≥≦≧"):
        chains = _chains(masked)
        if chains:

            def _in_chain(claim: Claim, _masked: str) -> bool:
                return chains.holding(claim.start) is not None

            readings.append(_in_chain)
    return unbind_claims(extraction, readings)


_VALUE_HINTS_17 = (
    "valu", "worth", "net", "earn", "sav", "return", "payback", "gain", "profit", "benefit",
    "ahead", "spen", "put", "budget", "income", "salary",
)  # fmt: skip


# -- one kind of balance named ------------------------------------------------------------------
_REACH_17 = 400
_TRANSFER_WORDS_17 = re.compile(r"transfer|\bbts?\b|\bb/t\b|balance")
_PURCHASE_WORDS_17 = re.compile(r"purchas|\bspend|\bbuy|\bshopping")


def sole_scope_17(extraction: Extraction) -> frozenset[int]:
    """The intro claims (indices) whose unit names only the kind of balance they are about: they
    are checked against that offer alone (module docstring)."""
    masked = extraction.masked
    starts = [u[0] for u in extraction.units]
    out = set()
    for i, claim in enumerate(extraction.claims):
        if (
            claim.family != INTRO_CLAIM
            or claim.is_none
            or len(claim.scopes) != 1
            or len(claim.cards) != 1
        ):
            continue
        k = bisect_right(starts, claim.start) - 1
        if k < 0:
            continue
        a, b = extraction.units[k]
        # the unit, read at most 400 characters each way (a unit with no break can be long)
        a, b = max(a, claim.start - _REACH_17), min(b, claim.end + _REACH_17)
        other = _PURCHASE_WORDS_17 if "bt" in claim.scopes else _TRANSFER_WORDS_17
        if other.search(masked, a, b) is None:
            out.add(i)
    return frozenset(out)


# -- a recommended card's fee stated where no claim was read -------------------------------------
_COST_CUE_17 = re.compile(
    r"\b(?:fee|fees|af|cost|costs|costing|charge|charges|charged|pay|pays|paying|annual|annually"
    r"|yearly|per[ \t]+year|a[ \t]+year|each[ \t]+year|every[ \t]+year|per[ \t]+annum)\b"
    r"|/[ \t]?y(?:ea)?r\b"
)


def fee_stated_near(extraction: Extraction, card_id: str, fee: float) -> bool:
    """Whether the text states ``fee`` for ``card_id`` where no fee claim was read: a dollar
    figure equal to it (digits or words) beside a cost word (60 characters either way), in a unit
    (sentence, list item, cell) that names no other card, after that card was the last one named
    ("Go with the X - you'll pay ninety-five dollars a year after a free first year"). Ruleset 16
    counted any equal figure anywhere - another card's fee, "spend $95 on groceries" - too."""
    masked = extraction.masked
    mentions = [m for m in extraction.mentions if m.card_id is not None]
    mention_starts = [m.start for m in mentions]
    for a, b in extraction.units:
        unit = masked[a:b]
        if "$" not in unit and "dollar" not in unit and "usd" not in unit:
            continue
        lo_m, hi_m = bisect_right(mention_starts, a - 1), bisect_right(mention_starts, b - 1)
        if any(m.card_id != card_id for m in mentions[lo_m:hi_m]):
            continue  # another card named in the unit: whose figure it is, is a guess
        for value in find_values(unit):
            if value.unit != USD or value.low is None or abs(value.low - fee) > 0.005:
                continue
            start = a + value.start
            last = bisect_right(mention_starts, start - 1) - 1
            if last < 0 or mentions[last].card_id != card_id:
                continue
            if _COST_CUE_17.search(masked, max(a, start - 60), min(b, a + value.end + 60)):
                return True
    return False


# == beliefs =======================================================================================

_BELIEF_17 = re.compile(
    # what others say ("People often say the X costs $125 a year. It doesn't; ...")
    r"\b(?:people|folks|many|some|others|forums?|blogs?|sites?|websites?|reviewers?|articles?)"
    r"(?:[ \t]+(?:often|usually|sometimes|commonly|still|online))?[ \t]+(?:say|said|claim|claimed"
    r"|think|thought|believe|believed|assume|assumed|quote|quoted|list|listed|report|reported"
    r"|repeat|mention|mentioned)\b"
    r"|\b(?:it[ \t]+is|it's|it[ \t]+was)[ \t]+(?:often|commonly|widely|sometimes|frequently)[ \t]+"
    r"(?:said|claimed|believed|thought|reported|repeated|quoted)\b"
    r"|\byou(?:[ \t]+(?:may|might|probably|also))?[ \t]+(?:have[ \t]+)?"
    r"(?:mentioned|said|wrote|quoted|cited|saw|noted|stated|were[ \t]+quoted|were[ \t]+given"
    r"|got[ \t]+quoted|came[ \t]+across|found|brought[ \t]+up|asked[ \t]+about|asked[ \t]+whether"
    r"|asked[ \t]+if|'ve[ \t]+seen|have[ \t]+seen|'re[ \t]+quoting|are[ \t]+quoting)\b"
    r"|[\"“][^\"”\n]{1,80}[\"”](?=[ \t]*(?:[-—–,:][ \t]*)?(?:(?:that|this|which|it)[ \t]+)?"
    r"(?:is|'s|was|isn't|wasn't)[ \t]+(?:not[ \t]+(?:right|correct|accurate|quite[ \t]+right)"
    r"|incorrect|inaccurate|wrong|outdated|out[ \t]+of[ \t]+date|a[ \t]+myth|mistaken)\b)"
)
_CORRECTION_17 = re.compile(
    r"\b(?:not[ \t]+(?:right|correct|accurate|quite|the[ \t]+case|what)|incorrect|inaccurate"
    r"|wrong|outdated|out[ \t]+of[ \t]+date|mistaken|actually|in[ \t]+fact|really|correction"
    r"|mix[ \t-]?up|mixed[ \t]+up|confus|myth|isn't|is[ \t]+not|wasn't|was[ \t]+not|doesn't"
    r"|does[ \t]+not)"
)


# a transcript's turns: the customer's, and the assistant's that answers it
_USER_TURN_17 = re.compile(
    r"(?m)^[ \t>]{0,4}(?:\*\*|__)?(?:user|customer|client|human|member|cardholder|me|q)"
    r"(?:\*\*|__)?[ \t]?:(?:\*\*|__)?"
)
_ASSISTANT_TURN_17 = re.compile(
    r"(?m)^[ \t>]{0,4}(?:\*\*|__)?(?:assistant|agent|bot|ai|advisor|adviser|support|rep"
    r"|representative|a)(?:\*\*|__)?[ \t]?:"
)


def user_turns(
    masked: str,
    user: re.Pattern[str] = _USER_TURN_17,
    answer: re.Pattern[str] = _ASSISTANT_TURN_17,
) -> list[tuple[int, int]]:
    """The customer's turns of a transcript ("User: ... is the APR 19%?"), each up to the
    assistant's turn that answers it; a turn no assistant's turn follows is none (the whole
    answer is not unread because it opens with "User:"). ``user`` / ``answer``: the turn
    openings (ruleset 18 reads callers' too)."""
    replies = [m.start() for m in answer.finditer(masked)]
    out = []
    for m in user.finditer(masked):
        k = bisect_right(replies, m.end())
        if k < len(replies):
            out.append((m.start(), replies[k]))
    return out


def drop_beliefs_17(extraction: Extraction) -> Extraction:
    """The extraction without the claims of a figure quoted (or "mentioned") and declared wrong,
    or stated in the customer's turn of a transcript, when a figure of the same family corrects
    it (module docstring)."""
    if not extraction.claims:
        return extraction
    return drop_corrected_17(extraction, belief_spans_17(extraction.masked))


def belief_spans_17(masked: str) -> list[tuple[int, int]]:
    """Where ruleset 17 reads somebody's belief: a customer's transcript turn, a figure quoted or
    "mentioned" and declared wrong, up to where it is declared wrong."""
    spans = user_turns(masked) if ":" in masked else []
    for m in _BELIEF_17.finditer(masked):
        if m.group(0).startswith(('"', "“")):
            spans.append((m.start(), m.end()))
            continue
        end = _MYTH_END_14.search(masked, m.end(), m.end() + _REACH_17)
        stop = end.start() if end is not None else min(len(masked), m.end() + _REACH_17)
        cue = _CORRECTION_17.search(masked, m.end(), min(len(masked), stop + 80))
        if cue is None:
            continue
        # the belief ends where it is declared wrong ("..., which is incorrect: it is $95")
        spans.append((m.start(), min(stop, cue.start())))
    return spans


# a yearly fee and its first year's: "$59 a year, which is incorrect: it is $95, waived the first
# year" corrects the one with the other
_ANNUAL_KINDS_17 = frozenset({"annual", "annual_first_year"})

# how far after a belief its correction may come (ruleset 11's reach)
_CORRECTION_REACH_17 = 300


def drop_corrected_17(extraction: Extraction, spans: list[tuple[int, int]]) -> Extraction:
    """The extraction without the claims inside ``spans`` that a later claim corrects: the same
    family, the same card(s), a kind either admits, and another value, length or "none"-ness,
    within 300 characters. Stricter than ruleset 11's test, which any figure of the
    family after the belief satisfies: "People say the X costs $125 a year; that isn't wrong,
    and its late fee is $40" must not drop the $125."""
    claims = extraction.claims
    if not spans or not claims:
        return extraction
    index = SpanIndex(spans)
    kept = []
    for i, claim in enumerate(claims):
        if claim.cards and index.holding(claim.start) is not None:
            corrected = False
            for other in claims[i + 1 :]:
                if other.start > claim.end + _CORRECTION_REACH_17:
                    break
                if index.holding(other.start) is not None:
                    continue  # another belief's figure corrects nothing
                if (
                    other.family == claim.family
                    and other.cards == claim.cards
                    and (
                        claim.kind in other.admissible
                        or other.kind in claim.admissible
                        or "any" in (claim.kind, other.kind)  # an offer with no scope named
                        or {claim.kind, other.kind} <= _ANNUAL_KINDS_17
                    )
                    and (
                        other.is_none != claim.is_none
                        or other.low != claim.low
                        or other.high != claim.high
                        or (
                            None not in (other.months, claim.months)
                            and other.months != claim.months
                        )
                    )
                ):
                    corrected = True
                    break
            if corrected:
                continue
        kept.append(claim)
    if len(kept) == len(claims):
        return extraction
    return replace(extraction, claims=tuple(kept))


__all__ = [
    "belief_spans_17",
    "drop_beliefs_17",
    "drop_corrected_17",
    "labels_17",
    "ordinals_17",
    "revise_17",
    "rewrite_17",
    "sole_scope_17",
    "user_turns",
]
