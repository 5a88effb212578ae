"""Ruleset 24: who a figure is about, and statements the answer takes back (the s27 tuning halves).

Ruleset 23 read what a figure can be. What ruleset 23 still flagged on s27's tuning halves was
mostly a figure given to the wrong card, or a figure the answer itself retracts:

* ``refs_24`` - **"the Plus's 15 months", "the Sterling's ongoing APR", "whereas the Horizon
  charges 3%"**: "the" and one capitalised word (possessive or not, no capitalised word after
  it) that is a word of the name of exactly one card the answer has named before it refers to
  that card, when a figure follows it in its sentence. A word of several such names, or of none,
  refers to nothing new (the figure keeps the reading it had); so does a reference with no figure
  after it ("I think the Frontier's the better fit", after the other card's figures).
* ``context_24`` - **a figure bound to a card the answer named only in passing may be about
  another card it has just named.** A sentence that names no card ("The purchase APR is 29.24%
  (variable)") is read as about the card the text was last talking about - and when that card
  was last named in a contrast or comparison ("we recommend the Crest Foundation ... whereas the
  alternative, the Prism Secured, charges $35 ... The purchase APR is 29.24%"; "vs ~$587 on the
  X"; "a flat-rate card like the X"), it is often not the card the sentence is about. An APR,
  fee or intro figure bound so, and wrong for that card, is given to the most recent of the
  other cards named just before it (``_CONTEXT_CARDS_24`` in all) that it is right for (an APR
  as the rate it was typed as: a purchase APR is not another card's because it equals that
  card's cash advance APR); wrong for all of them, it stays with its card and is reported. It
  stays bound to one card, so a figure never discloses a fee or an APR for a card it is not
  about. The same holds for a figure bound to the one card its sentence names only after it,
  behind a contrast ("First, it has no annual fee, whereas the alternative, the Prism Secured,
  charges $35 a year"). A card named as a subject ("The Summit Cash Plus has a $95 annual fee.
  It also has a 3% foreign transaction fee.") keeps its figures; so does a card whose heading or
  list label the figure is under ("**2. Atlas Explorer**"): there the text's structure, not the
  last sentence, says what a figure is about.
* ``corrections_24`` - **a statement the answer takes back is no claim**: "I told you the cash
  advance APR on the Vista Rewards was 33.24%, but that's the Sterling Rewards figure", "I had it
  down as $250 a year... wait", "I called its APR variable, and that was wrong". A figure after
  "I told you / I said / I had it down as / I called / I quoted / I mentioned" and before the
  correction that follows in its sentence or the next one - words that say the statement was an
  error ("that was wrong", "my mistake", "but that's the other card's figure", "wait, let me
  double-check") - is unverified. "But", "sorry" or "actually" alone correct nothing, a negated
  cue ("no mistake there") neither, and "as I told you" / "like I said" repeat a statement rather
  than take it back: "As I told you, it has no annual fee, but check the terms" stays a claim.

* ``results_24`` - **a dollar figure that is an amount, not a price**: one followed by what it
  is an amount of ("an $80 transfer", "a $6,000 balance", "$200 bonus", "the Voyager's $110
  advantage", "two hundred dollars a year more") or led by an arrow or an equals sign ("3% on
  travel -> $162 a year", "= $240") is no fee claim - unless the words right before the figure
  or the sign name a price ("yearly cost = $89", "costs $150 a year extra" are fees).
* ``waivers_24`` - **"Year one has no annual fee", "first year free ($0)"**: no annual fee (or
  $0) right after "year one / the first year (has / is / costs)" is the first-year fee.
* ``generic_24`` - **"a no-annual-fee card would serve you better", "the no-annual-fee card is
  the stronger choice"**: "no-...-fee" as the adjective of a card the sentence does not name
  describes a kind of card, not a term of the card the text is about. "X is a no-annual-fee
  card" and "X, a no-annual-fee card, ..." stay claims about X. Likewise an invented-looking
  name written all in lower case right after "a", "an" or "for" ("an everyday rewards card",
  "for everyday rewards, the Vista Cashback is ...") is a kind of card, not a product - unless a
  catalog brand is among its words ("i'd go for summit cash elite" is an invented product).

* ``sole_24`` - **an answer to a customer that names one card puts that card forward**
  ("the Granite Business Cash Elite ... is worth serious consideration", "The Cascade Voyager
  lines up nicely with that", "I'd skip the big travel cards - except one: **Liberty Voyager
  Plus**"), unless it rules the card out: with no other card named, what the answer offers the
  customer is that card, however it words the offer. So the card's annual fee must be stated
  and the customer must be eligible for it. Answers with no customer are not read so (a terms
  question names one card without recommending it). Likewise **a numbered line that opens with
  a card's name** ("**1. Orion Rewards 360** - Our #1 for you", "2) Cascade Voyager: ...") in an
  answer to a customer ranks that card for them: it is put forward unless ruled out.

See "Ruleset 24" in ``verifiers/compliance/RULESETS.md``.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.catalog import CardTerms, Catalog
from replicas.verifiers.compliance.claims import Claim, Extraction
from replicas.verifiers.compliance.findings import same
from replicas.verifiers.compliance.mentions import (
    AMBIGUOUS,
    EXACT,
    UNKNOWN,
    NameMention,
    tokens_of,
)
from replicas.verifiers.compliance.recommend import Recommendations
from replicas.verifiers.compliance.spans import SpanIndex
from replicas.verifiers.compliance.term_checks import CHECKERS

if TYPE_CHECKING:
    from replicas.verifiers.compliance.names import NameIndex

__all__ = ["generic_names_24", "ranked_picks_24", "refs_24", "revise_24", "sole_pick_24"]

#: "the Plus's", "The Sterling", "the Horizon": one capitalised word, not the start of a longer
#: capitalised name
# (``\b[Tt]he``, its word boundary as a look-behind after the letter: the same matches, scanned
# fast)
_SHORT_REF_24 = re.compile(
    r"[Tt](?<!\w[Tt])he[ \t]{1,3}([A-Z][A-Za-z0-9-]{1,20})"
    r"(?:['\u2019]s(?![\w'\u2019-])|(?![\w'\u2019-])(?![ \t]{1,3}[A-Z0-9]))"
)
#: what ends a label or a heading after a card's name: a colon, a dash, a bracket, the line end
_LABEL_END_24 = re.compile(r"(?:\*\*|__)?[ \t]*(?:$|\n|:|\(|-[ \t]|\u2013|\u2014|\|)")
#: how far back the readings look: mentions, characters to a line's start (for a line that
#: holds the figure; for a name that opens its line), and how many figures a response may have
#: re-bound by context (a guard on adversarial input; beyond it, ruleset 23's binding stands)
_LOOK_BACK_24 = 400
_LINE_WINDOW_24 = 2_000
_OPENING_WINDOW_24 = 40
_MAX_REBOUND_24 = 500
#: how far before a card's name a contrast may stand, within its sentence
_PASSING_SPAN_24 = 60
_SENTENCE_24 = re.compile(r"[.!?](?:[ \t]|$)|\n")
#: a contrast or comparison: the card after it is named in passing
_CONTRAST_24 = re.compile(
    r"\b(?:whereas|while|unlike|where|but|than|vs\.?|versus|compared|instead|rather|alternative"
    r"|why[ \t]+not|same[ \t]+as|as[ \t]+with|except|over|like|such[ \t]+as|comparison)\b"
)
#: a heading: the name alone on its line
_HEADING_END_24 = re.compile(r"(?:\*\*|__)?[ \t]*(?:$|\n)")
#: a figure after the reference, in its sentence
_FIGURE_AHEAD_24 = re.compile(r"[^.;!?\n]{0,80}?[0-9$%]")
#: the distinct cards a context-bound figure may be about: the last few named before it
_CONTEXT_CARDS_24 = 3
#: the start of a statement the answer reports having made
_REPORTED_24 = re.compile(
    r"\bi(?:[ \t]+(?:\w+ly|had|have|'d|'ve))?[ \t]+(?:told[ \t]+you|said|wrote|quoted|"
    r"mentioned|called|listed|gave[ \t]+you|put|had[ \t]+(?:it|that|this)[ \t]+(?:down[ \t]+)?as"
    r"|had[ \t]+[^.!?\n]{1,40}?[ \t]down[ \t]+as)\b"
)
#: "as I told you", "like I said": the answer repeats a statement, it does not take it back
_REAFFIRMED_24 = re.compile(r"\b(?:as|like)[ \t]+$")
#: the correction that follows it: words that say the statement was an error ("but", "sorry",
#: "actually" alone say nothing of the kind - "as I said, it has no fee, but check the terms")
_CORRECTION_24 = re.compile(
    r"\bwrong\b|\bmistake\b|\bmistaken\b|\bincorrect\b|\bmisspoke\b|\bmisread\b|\bmix-?up\b"
    r"|\bcorrection\b|\bmy[ \t]+bad\b|\bnot[ \t]+right\b|\bisn't[ \t]+right\b|\berror\b"
    r"|\bthat(?:'s|[ \t]+is|[ \t]+was)[ \t]+(?:actually[ \t]+)?(?:the|another|a[ \t]+different)[ \t]"
    r"[^.!?\n]{0,40}?\b(?:figure|number|rate|fee|one|card|apr)\b"
    r"|\bwait\b[^.!?\n]{0,12}?\b(?:let[ \t]+me[ \t]+(?:double-?)?check|no\b|that's[ \t]+not)"
)
_SENTENCE_END_24 = re.compile(r"[.!?](?:[ \t]|$)|\n")
_CORRECTION_SPAN_24 = 200
_NEXT_SENTENCE_24 = 80
#: what may open a line before a card's name: blanks, list and heading marks, bold, a number
_LINE_OPENING_24 = re.compile(
    r"[ \t>#|]*(?:\*\*|__)?(?:[-*+\u2022][ \t]+|\d{1,2}[.)][ \t]+)?(?:\*\*|__)?(?:the[ \t]+)?"
)


def refs_24(index: NameIndex, text: str, mentions: list[NameMention]) -> list[NameMention]:
    """Mentions plus the one-word references of ``_SHORT_REF_24`` (module docstring)."""
    if not mentions:
        return mentions
    taken = SpanIndex((m.start, m.end) for m in mentions)
    named: list[str] = []
    seen: set[str] = set()
    k = 0
    added = []
    for match in _SHORT_REF_24.finditer(text):
        start = match.start(1)
        while k < len(mentions) and mentions[k].end <= match.start():
            card = mentions[k].card_id
            if card is not None and mentions[k].kind != UNKNOWN and card not in seen:
                seen.add(card)
                named.append(card)
            k += 1
        if taken.overlaps(start, match.end()):
            continue
        word = match.group(1).lower()
        if word not in index.name_words:
            continue
        if not _FIGURE_AHEAD_24.match(text, match.end()):
            continue  # "the Frontier's the better fit": no figure of its own to give a card
        fits = [c for c in named if word in index.words_by_card.get(c, ())]
        if len(fits) == 1:
            added.append(NameMention(start, match.end(), EXACT, fits[0], text[start : match.end()]))
    if not added:
        return mentions
    return sorted([*mentions, *added], key=lambda m: m.start)


_KIND_ARTICLE_24 = re.compile(r"(?:^|[^\w'])(?:a|an|for)[ \t]{1,3}$", re.IGNORECASE)


def generic_names_24(index: NameIndex, text: str, mentions: list[NameMention]) -> list[NameMention]:
    """The mentions without the lower-case kinds of card read as invented names
    (``generic_24``): a name with a catalog brand in it ("i'd go for summit cash elite") is
    still an invented product."""
    if not any(m.kind == UNKNOWN for m in mentions):
        return mentions
    brands = {words[0] for words in index.words_by_card.values() if words}
    kept = [
        m
        for m in mentions
        if not (
            m.kind == UNKNOWN
            and m.surface.islower()
            and _KIND_ARTICLE_24.search(text, max(0, m.start - 8), m.start) is not None
            and not brands.intersection(tokens_of(m.surface))
        )
    ]
    return kept if len(kept) != len(mentions) else mentions


def _named_before(mentions: tuple[NameMention, ...], pos: int, limit: int) -> list[str]:
    """The last ``limit`` distinct cards named before ``pos``, most recent first (among the last
    ``_LOOK_BACK_24`` mentions)."""
    out: list[str] = []
    k = bisect_left(mentions, pos, key=lambda m: m.start)
    for m in reversed(mentions[max(0, k - _LOOK_BACK_24) : k]):
        if m.end > pos or m.card_id is None or m.kind == UNKNOWN:
            continue
        if m.card_id not in out:
            out.append(m.card_id)
            if len(out) == limit:
                break
    return out


def _line_start(masked: str, pos: int, window: int) -> int | None:
    """The start of ``pos``'s line, looked for ``window`` characters back (``None``: further)."""
    found = masked.rfind("\n", max(0, pos - window), pos)
    if found < 0:
        return 0 if pos <= window else None
    return found + 1


_NEGATED_CUE_24 = re.compile(r"(?:\bno|\bnot|\bnothing|\bnever|n't)[ \t]+(?:\w+[ \t]+)?$")


def _corrects(text: str, start: int = 0) -> bool:
    """``text`` (from ``start``) says a statement was an error - not "no mistake there"."""
    for cue in _CORRECTION_24.finditer(text, start):
        if not _NEGATED_CUE_24.search(text, max(start, cue.start() - 16), cue.start()):
            return True
    return False


def _retracted(claim: Claim, masked: str) -> bool:
    """The figure sits in a statement the answer reports having made and then corrects."""
    head = masked[max(0, claim.start - _CORRECTION_SPAN_24) : claim.start]
    head = head[head.rfind("\n") + 1 :]
    ends = [m.end() for m in _SENTENCE_END_24.finditer(head)]
    head = head[ends[-1] :] if ends else head
    found = list(_REPORTED_24.finditer(head))
    if not found:
        return False
    reported = found[-1]
    if _REAFFIRMED_24.search(head, 0, reported.start()):
        return False
    if _corrects(head, reported.end()):
        return False  # corrected before the figure: the figure is the correction
    tail = masked[claim.end : claim.end + _CORRECTION_SPAN_24]
    stop = _SENTENCE_END_24.search(tail)
    sentence = tail[: stop.start()] if stop else tail
    if _corrects(sentence):
        return True
    if stop is None or tail[stop.start()] == "\n":
        return False
    after = tail[stop.end() :].lstrip(" \t.")
    after = after[:_NEXT_SENTENCE_24]
    end = _SENTENCE_END_24.search(after)
    return _corrects(after[: end.start()] if end else after)


#: what a dollar figure is an amount of, right after it (after "a year" at most)
_AMOUNT_OF_24 = re.compile(
    r"[ \t]*(?:(?:a|per|each)[ \t]+year[ \t]+|/[ \t]*y(?:ea)?r[ \t]+|annually[ \t]+)?"
    r"(?:(?:balance[ \t]+)?transfers?|purchases?|balances?|bonus|advantage|edge|head[ \t]+start"
    r"|difference|gap|savings?|(?:statement[ \t]+)?credit|welcome|sign-?up|rewards?"
    r"|cash[ \t-]?back|more|less|extra|cheaper|in[ \t]+(?:rewards|cash|points|interest|savings)"
    r"|of[ \t]+(?:rewards|spend\w*|purchases|interest))\b"
)
#: an arrow or an equals sign right before a figure: the figure is a result
_RESULT_OF_24 = re.compile(r"(?:\u2192|->|=>|=|\u2248|~=)[ \t]*(?:~|about[ \t]+|roughly[ \t]+)?$")
_WORDS_BEFORE_RESULT_24 = 30
_BOUNDARY_24 = re.compile(r"[|\n;:(),]|[.!?](?:[ \t]|$)|\u2192|->|=>|=")
_PRICE_WORDS_24 = re.compile(
    r"\bfees?\b|\bcost(?:s|ing)?\b|\bcharg(?:es?|ing)\b|\bprice\b|\bmembership\b|\bapr\b"
    r"|\binterest\b"
)
#: "year one has", "the first year is", "first year free (": the first year's fee follows
_FIRST_YEAR_BEFORE_24 = re.compile(
    r"\b(?:year[ \t]+(?:one|1)|(?:the[ \t]+|your[ \t]+)?first[ \t]+year)(?:'s)?[ \t]*"
    r"(?:has|is|carries|comes[ \t]+with|costs?|:|-|=|free[ \t]*\()?[ \t]*$"
)
_FEE_ADJECTIVE_24 = re.compile(r"no-[a-z-]{0,30}fee[ \t]+(?:cards?|options?|alternatives?|one)\b")
_GENERIC_ARTICLE_24 = re.compile(r"\b(?:a|an|the|any|another)[ \t]+$")
#: "the Summit Cash Plus, a no-annual-fee card," / "X - a no-annual-fee card with ...": the
#: phrase describes the card just named (card names are masked with "#")
_APPOSITION_24 = re.compile(r"#[ \t]*(?:\*\*|__)?[ \t]*[,:(\-\u2013\u2014][ \t]*(?:a|an)[ \t]+$")
_PREDICATE_24 = re.compile(r"\b(?:is|'s|are|be|as|was|remains?|stays?)[ \t]+(?:a|an)[ \t]+$")


def _is_amount(claim: Claim, masked: str) -> bool:
    """A dollar figure that is an amount of something, or a worked result (``results_24``)."""
    if claim.family != "fee" or claim.is_none:
        return False
    if not (claim.unit == "usd" or (claim.low is None and claim.min_usd is not None)):
        return False  # "a 3% balance transfer fee" is a rate
    if _AMOUNT_OF_24.match(masked, claim.end):
        # "an $80 transfer", "$200 bonus" - but "costs $150 a year extra", "charges $150 more"
        # state a price
        return not _priced(masked, claim.start)
    marker = _RESULT_OF_24.search(masked, max(0, claim.start - 12), claim.start)
    if marker is None:
        return False
    # "yearly cost = $89", "annual fee -> $95": the words before the sign name a price
    return not _priced(masked, marker.start())


def _priced(masked: str, pos: int) -> bool:
    """The words right before ``pos`` (within its clause, cell or line) name a price."""
    label = masked[max(0, pos - _WORDS_BEFORE_RESULT_24) : pos]
    label = _BOUNDARY_24.split(label)[-1]
    return _PRICE_WORDS_24.search(label) is not None


def _first_year(claim: Claim, masked: str) -> bool:
    """No annual fee, or $0, right after "year one has" (``waivers_24``)."""
    if claim.family != "fee" or claim.kind != "annual":
        return False
    if not (claim.is_none or claim.low == 0):
        return False
    return _FIRST_YEAR_BEFORE_24.search(masked, max(0, claim.start - 30), claim.start) is not None


def _kind_of_card(claim: Claim, masked: str) -> bool:
    """ "a no-annual-fee card would serve you better" (``generic_24``)."""
    if claim.family != "fee" or not claim.is_none:
        return False
    if not _FEE_ADJECTIVE_24.match(masked, claim.start):
        return False
    before = masked[max(0, claim.start - 24) : claim.start]
    return (
        _GENERIC_ARTICLE_24.search(before) is not None
        and not _PREDICATE_24.search(before)
        and not _APPOSITION_24.search(before)
    )


def _right_for(claim: Claim, catalog: Catalog, card_id: str) -> bool:
    checker = CHECKERS[claim.family]
    return not checker(claim, catalog.card(card_id), catalog.names.name_of(card_id))


def _last_mention_of(claim: Claim, mentions: tuple[NameMention, ...]) -> int | None:
    """The index of the last mention of the claim's card before it (among the last
    ``_LOOK_BACK_24`` mentions), or ``None``."""
    k = bisect_left(mentions, claim.start, key=lambda m: m.start) - 1
    floor = max(-1, k - _LOOK_BACK_24)
    while k > floor and mentions[k].card_id != claim.cards[0]:
        k -= 1
    return k if k > floor else None


def _labelled_section(claim: Claim, extraction: Extraction) -> bool:
    """The card's last mention before the figure, or a mention of it on the figure's line, is a
    heading or a label (it opens a line and ends it, or a colon, a dash or a bracket follows:
    "**2. Atlas Explorer**", "Meridian Cash Back 360: ..."): what follows is under that card, so
    the context is the text's structure, not the last card a sentence happened to name. A
    label holds for the lines right under it; a heading (the name alone on its line) for the
    paragraphs under it too."""
    mentions = extraction.mentions
    k = _last_mention_of(claim, mentions)
    if k is None:
        return False
    floor = max(-1, k - _LOOK_BACK_24)
    masked = extraction.masked
    marks = {mentions[k].start: mentions[k].end}
    # the figure's own line opening with the card's name ("Meridian Cash Back 360: ... It's a
    # no-annual-fee card."), whatever the line names in between
    line_start = _line_start(masked, claim.start, _LINE_WINDOW_24)
    if line_start is not None:
        while k > floor and mentions[k].start >= line_start:
            if mentions[k].card_id == claim.cards[0]:
                marks[mentions[k].start] = mentions[k].end
            k -= 1
    for at, end in marks.items():
        opening = _line_start(masked, at, _OPENING_WINDOW_24)
        if opening is None or _LABEL_END_24.match(masked, end) is None:
            continue
        opened = _LINE_OPENING_24.match(masked, opening, at)
        if (opened.end() if opened else opening) != at:
            continue
        if masked.find("\n\n", end, claim.start) < 0:
            return True  # the label's line, or the lines right under it
        if _HEADING_END_24.match(masked, end):
            return True  # a heading: the paragraphs under it, up to the next heading
    return False


def _named_only_after(claim: Claim, extraction: Extraction) -> bool:
    """A figure bound to the one card its sentence (or clause) names, named only after it ("it
    has no annual fee, whereas the alternative, the Prism Secured, charges $35"): the subject
    before the figure is whatever the text was talking about."""
    if claim.binding not in ("unit", "clause"):
        return False
    k = bisect_right(extraction.units, (claim.start, 1 << 62)) - 1
    unit_start = extraction.units[k][0] if k >= 0 else 0
    mentions = extraction.mentions
    j = bisect_left(mentions, claim.start, key=lambda m: m.start)
    for m in mentions[max(0, j - _LOOK_BACK_24) : j]:
        if m.start >= unit_start and m.card_id == claim.cards[0]:
            return False
    return True


def _same_kind(claim: Claim, card: CardTerms) -> bool:
    """An APR the other card is right for as the rate it was typed as: "29.24% variable APR" is
    not the Keystone's because its cash advance APR is 29.24% (a lone rate may be any APR of the
    card it is bound to, but only its purchase APR can take it from another card)."""
    if claim.family != "apr" or claim.low is None:
        return True
    high = claim.high if claim.high is not None else claim.low
    if claim.kind == "cash_advance":
        return same(claim.low, card.cash_advance_apr_pct)
    if claim.kind == "penalty":
        return same(claim.low, card.penalty_apr_pct)
    low_end, high_end = card.purchase_apr_min_pct, card.purchase_apr_max_pct
    if claim.low != high:
        return same(claim.low, low_end) and same(high, high_end)
    return same(claim.low, low_end) or same(claim.low, high_end)


def _in_passing(claim: Claim, extraction: Extraction) -> bool:
    """The figure's card was named only in passing: its last mention before the figure sits in
    a contrast or comparison ("whereas the alternative, the Prism Secured, charges $35", "vs
    ~$587 on the Everyday Cash Rewards", "a flat-rate card like the Frontier Journey", "Why not
    the Pinnacle Cash Reward Plus?"), or - for a
    figure bound to a card its sentence names only after it - a contrast stands between them
    ("it has no annual fee, whereas the Prism Secured ..."). A card named as the subject of the
    sentence before ("The Summit Cash Plus has a $95 annual fee. It also has ...") is what the
    text is about: its figures stay with it."""
    masked = extraction.masked
    mentions = extraction.mentions
    if claim.binding != "context":
        k = bisect_left(mentions, claim.end, key=lambda m: m.start)
        for m in mentions[k : k + _LOOK_BACK_24]:
            if m.card_id == claim.cards[0]:
                return _CONTRAST_24.search(masked, claim.end, m.start) is not None
        return False
    last = _last_mention_of(claim, mentions)
    if last is None:
        return False
    at = mentions[last].start
    head = masked[max(0, at - _PASSING_SPAN_24) : at]
    head = _SENTENCE_24.split(head)[-1]
    return _CONTRAST_24.search(head) is not None


def _context_card(claim: Claim, extraction: Extraction, catalog: Catalog) -> str | None:
    """The card a context-bound figure wrong for its card is right for, if any. A figure whose
    value is right for its card and only its "variable" / "fixed" is wrong stays with the card:
    the figure is that card's, and the word is the error."""
    if _right_for(claim, catalog, claim.cards[0]):
        return None
    if _labelled_section(claim, extraction) or not _in_passing(claim, extraction):
        return None
    cards = _named_before(extraction.mentions, claim.start, _CONTEXT_CARDS_24)
    for card_id in cards:
        if (
            card_id != claim.cards[0]
            and _right_for(claim, catalog, card_id)
            and _same_kind(claim, catalog.card(card_id))
        ):
            return card_id
    return None


def revise_24(
    extraction: Extraction,
    catalog: Catalog,
    context: bool,
    corrections: bool,
    results: bool = False,
    waivers: bool = False,
    generic: bool = False,
) -> Extraction:
    """The extraction with ruleset 24's readings (module docstring)."""
    if not extraction.claims:
        return extraction
    masked = extraction.masked
    out = list(extraction.claims)
    changed = False
    tried = 0
    for i, claim in enumerate(out):
        if not claim.cards:
            continue
        if (
            (corrections and _retracted(claim, masked))
            or (results and _is_amount(claim, masked))
            or (generic and _kind_of_card(claim, masked))
        ):
            out[i] = replace(claim, cards=())
            changed = True
            continue
        if waivers and _first_year(claim, masked):
            claim = out[i] = replace(claim, kind="annual_first_year", kinds=frozenset())
            changed = True
        if (
            context
            and claim.family in ("apr", "fee", "intro")
            and len(claim.cards) == 1
            and (claim.binding == "context" or _named_only_after(claim, extraction))
        ):
            tried += 1
            card_id = (
                _context_card(claim, extraction, catalog) if tried <= _MAX_REBOUND_24 else None
            )
            if card_id is not None:
                out[i] = replace(claim, cards=(card_id,))
                changed = True
    return replace(extraction, claims=tuple(out)) if changed else extraction


def sole_pick_24(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """``recs`` plus the one card an answer to a customer names, when it names one and puts
    no card forward or rules it out (``sole_24``; the caller applies it with a customer only)."""
    if recs.positive:
        return recs
    named = [m for m in extraction.mentions if m.kind not in (UNKNOWN, AMBIGUOUS) and m.card_id]
    if not named or any(m.card_id != named[0].card_id for m in named):
        return recs
    card_id = named[0].card_id
    if card_id is None or card_id in recs.negated:
        return recs
    return Recommendations({card_id: named[0]}, recs.negated)


#: a numbered line's opening up to a card's name: "1. ", "**2. ", "#3 ", "4) ", "### 1. "
_RANKED_24 = re.compile(
    r"[ \t>]*(?:#{1,6}[ \t]*)?(?:\*\*|__)?(?:#?\d{1,2}[.):][ \t]+|#\d{1,2}[ \t]+)(?:\*\*|__)?"
)


def ranked_picks_24(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """``recs`` plus the cards whose names open a numbered line (``sole_24``; the caller
    applies it with a customer only)."""
    positive = dict(recs.positive)
    for m in extraction.mentions:
        if m.kind in (UNKNOWN, AMBIGUOUS) or m.card_id is None or m.card_id in recs.negated:
            continue
        line_start = _line_start(masked, m.start, _OPENING_WINDOW_24)
        if line_start is None:
            continue
        opened = _RANKED_24.match(masked, line_start, m.start)
        if opened is not None and opened.end() == m.start:
            positive.setdefault(m.card_id, m)
    if len(positive) == len(recs.positive):
        return recs
    return Recommendations(positive, recs.negated)
