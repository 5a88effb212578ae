"""Ruleset 25, part b: who a figure is about - asides, bracket labels, short references and
definite references to an offer (the s28 tuning halves; ``ruleset25`` holds ``revise_25``).

* ``asides_25`` - **a card named only in an aside does not take the sentence's figures**: "its
  APR is a fixed 20.74% (lower than Granite Cash Back's range), it has no foreign transaction
  fee (Granite Cash Back charges 3%), and it has 0% on purchases for 9 months" is about the card
  its sentence named before the brackets. An aside is a bracket holding a comparison ("than",
  "unlike", "vs") or a card as the subject of its own clause ("Granite Cash Back charges 3%");
  an appositive ("My pick (the Summit Cash Plus, $95 a year) has ...", "(or the X)") names the
  subject. The figure goes to the card the sentence named last before the aside - right or
  wrong for it, so a wrong figure is reported - never to a card named as a comparison
  ("Compared with the X, ..."). And **a figure labelled by a bracketed name is that card's**:
  "late fees of up to $40 (Summit Cash) and $39 (Plus)" - a full name always, one word of one
  name only beside another figure of the sentence labelled by a card (so "(student)" is no
  label, nor is "(regular)" a sibling).
* ``refs_25`` - **"Beacon's 0% FX fee", "The 360's is 22.99%-30.99%"**: ruleset 24 read "the
  Plus's"; a possessive with no article, or a word of digits after "the" that ends its noun
  phrase, that is a word of the name of exactly one of the cards named last before it refers to
  that card - when no card is named before it in its sentence (or, after one, it opens a
  contrast clause with its own verb: "..., while the 360 has a 2.7% fee"), no "like", "unlike",
  "than", "matches" stands before it ("The Summit Cash matches Harbor's 0% fee" is about the
  Summit Cash) and a figure, a term or a verb follows it. "Over the 360 days" is no reference.
* ``offers_25`` - **"Unless you want the 0% intro window, ..."**: an intro figure written as a
  definite reference to an offer ("the <N-month> 0% window / period / offer") in an "unless"
  clause that names no card and no pronoun, bound only by context (or to a card named after it
  in another clause) and wrong for that card, is the offer of the most recent card named before
  it that has it; wrong for all of them it is reported. "The 12-month 0% window is its best
  feature", "you'll find the 12-month 0% window handy" say whose it is and stay.

See "Ruleset 25" in ``verifiers/compliance/RULESETS.md``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.catalog import Catalog
from replicas.verifiers.compliance.claims import Claim, Extraction
from replicas.verifiers.compliance.mentions import AMBIGUOUS, EXACT, UNKNOWN, NameMention
from replicas.verifiers.compliance.ruleset24 import _named_only_after, _right_for
from replicas.verifiers.compliance.spans import SpanIndex

if TYPE_CHECKING:
    from replicas.verifiers.compliance.names import NameIndex

__all__ = [
    "MAX_REBOUND_25",
    "SENTENCE_SPAN_25",
    "aside_card",
    "clause_end",
    "labelled_by",
    "offer_card",
    "refs_25",
    "sentence_start",
]

# -- the text around a figure -------------------------------------------------------------------

#: a sentence end: not after "i.e.", "e.g.", "etc.", "vs.", "approx.", "incl." (the look-behinds
#: follow the mark, so the scan skips to the marks at C speed; same matches as with them before)
_SENTENCE_25 = re.compile(
    r"[.!?](?<!\bi\.e.)(?<!\be\.g.)(?<!\betc.)(?<!\bvs.)(?<!\bapprox.)(?<!\bincl.)(?:[ \t]|$)|\n"
)
SENTENCE_SPAN_25 = 300
_CLAUSE_STOP_25 = re.compile(r"[,;:(]|[.!?](?:[ \t]|$)|\n|\u2014|[ \t]-[ \t]")


def _last_match(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The last match of ``pattern`` in ``text``, if any."""
    found = None
    for found in pattern.finditer(text):  # noqa: B007 - the loop keeps the last one
        pass
    return found


def sentence_start(masked: str, pos: int, span: int = SENTENCE_SPAN_25) -> int:
    """Where the sentence (or line) holding ``pos`` starts, at most ``span`` characters back."""
    low = max(0, pos - span)
    stop = _last_match(_SENTENCE_25, masked[low:pos])
    return low + (stop.end() if stop else 0)


def _clause_start(masked: str, pos: int) -> int:
    low = max(0, pos - SENTENCE_SPAN_25)
    stop = _last_match(_CLAUSE_STOP_25, masked[low:pos])
    return low + (stop.end() if stop else 0)


def clause_end(masked: str, pos: int) -> int:
    stop = _CLAUSE_STOP_25.search(masked, pos, min(len(masked), pos + SENTENCE_SPAN_25))
    return stop.start() if stop else min(len(masked), pos + SENTENCE_SPAN_25)


# -- asides and bracket labels --------------------------------------------------------------------

_ASIDE_LOOK_BACK_25 = 600
#: what makes a bracket an aside: a figure or a comparison in it
_ASIDE_25 = re.compile(
    r"\b(?:unlike|vs\.?|versus|compared|than|whereas|while)\b"
    r"|#[ \t]*(?:\*\*|__)?(?:['\u2019]s[ \t]+[\w-]+[ \t]+)?[ \t]*(?:charges?|has|costs?|offers?|gives?"
    r"|is|carries|comes)\b"
)
#: a bracket that adds a card ("(and the X)", "(or the X)") names one more subject
_ADDS_CARD_25 = re.compile(r"\([ \t]*(?:and|or|plus|as[ \t]+well)\b")
#: a card named as a point of comparison, which a figure is never given to
_COMPARED_BEFORE_25 = re.compile(
    r"\b(?:compared[ \t]+(?:to|with)|unlike|than|vs\.?|versus|next[ \t]+to|over|against"
    r"|instead[ \t]+of|rather[ \t]+than)[ \t]+(?:the[ \t]+)?(?:\*\*|__)?$"
)
#: "(One)", "(Compass Balance Transfer)", "(**X**)": a bracket holding only a card's name
_NAME_BRACKET_25 = re.compile(r"[ \t]*\((?:\*\*|__)?(#+)(?:\*\*|__)?\)")
#: "(One)", "(Cardinal)": a bracket holding one word
_WORD_BRACKET_25 = re.compile(r"[ \t]*\((?:\*\*|__)?([a-z0-9][a-z0-9-]{1,20})(?:\*\*|__)?\)")
#: a figure labelled by a bracket: the sibling a one-word label needs
_LABELLED_FIGURE_25 = re.compile(
    r"[$\d][\d,.%k]*[ \t]*\((?:\*\*|__)?([#a-z0-9][#a-z0-9 \t-]*?)(?:\*\*|__)?\)"
)
#: the distinct cards named last before a figure that a one-word label may be about
_LABEL_CARDS_25 = 6
MAX_REBOUND_25 = 500


_BRACKET_25 = re.compile(r"[()]")


def _brackets(masked: str, start: int, end: int) -> list[tuple[int, int]]:
    """The closed top-level bracket pairs between ``start`` and ``end``."""
    out = []
    depth = 0
    opened = 0
    for bracket in _BRACKET_25.finditer(masked, start, end):
        i = bracket.start()
        ch = masked[i]
        if ch == "(":
            if depth == 0:
                opened = i
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                out.append((opened, i + 1))
    return out


def _named(m: NameMention) -> bool:
    return m.kind not in (UNKNOWN, AMBIGUOUS) and m.card_id is not None


def _recent_cards(mentions: tuple[NameMention, ...], pos: int, limit: int) -> list[str]:
    """The last ``limit`` distinct cards named before ``pos``, most recent first."""
    k = bisect_left(mentions, pos, key=lambda x: x.start)
    seen: list[str] = []
    for x in reversed(mentions[max(0, k - _ASIDE_LOOK_BACK_25) : k]):
        if x.card_id is not None and _named(x) and x.card_id not in seen:
            seen.append(x.card_id)
            if len(seen) == limit:
                break
    return seen


def labelled_by(
    claim: Claim, masked: str, mentions: tuple[NameMention, ...], catalog: Catalog
) -> str | None:
    """The card named in a bracket right after the figure: "$35 (Compass Balance Transfer)",
    or one word of the name of exactly one of the last cards named before it, beside another
    labelled figure of the sentence: "$40 (One) and $35 (Compass Balance Transfer)"."""
    m = _NAME_BRACKET_25.match(masked, claim.end)
    if m is not None:
        k = bisect_left(mentions, m.start(1), key=lambda x: x.start)
        if k < len(mentions) and mentions[k].start == m.start(1) and _named(mentions[k]):
            return mentions[k].card_id
        return None
    w = _WORD_BRACKET_25.match(masked, claim.end)
    if w is None:
        return None
    word = w.group(1)
    words = catalog.names.words_by_card
    recent = _recent_cards(mentions, claim.start, _LABEL_CARDS_25)
    fits = [c for c in recent if word in words[c]]
    if len(fits) != 1:
        return None
    start = sentence_start(masked, claim.start)
    limit = min(len(masked), w.end() + SENTENCE_SPAN_25)
    end = _SENTENCE_25.search(masked, w.end(), limit)
    stop = end.start() if end else limit
    # "$25 (student)" alone is a gloss, not a label: another figure of the sentence must be
    # labelled by a card too ("$40 (One) and $35 (Compass Balance Transfer)")
    siblings = 0
    for label in _LABELLED_FIGURE_25.finditer(masked, start, stop):
        text = label.group(1).strip()
        if label.start(1) != w.start(1) and (
            text.startswith("#") or any(text in words[c] for c in recent)
        ):
            siblings += 1
    return fits[0] if siblings else None


def aside_card(claim: Claim, masked: str, mentions: tuple[NameMention, ...]) -> str | None:
    """The card the sentence is about, when the figure's card is named in it only inside asides
    before the figure (``asides_25``)."""
    if claim.binding not in ("clause", "unit") or len(claim.cards) != 1:
        return None
    card_id = claim.cards[0]
    start = sentence_start(masked, claim.start, _ASIDE_LOOK_BACK_25)
    lo = bisect_left(mentions, start, key=lambda x: x.start)
    hi = bisect_left(mentions, claim.start, key=lambda x: x.start)
    inside = [m for m in mentions[lo:hi] if m.card_id == card_id]
    if not inside:
        return None  # not named in this sentence
    # an aside: a comparison, or a card named as the subject of its own clause ("(Granite Cash
    # Back charges 3%)"); not an appositive ("my pick (the X, $95 a year) has ...")
    pairs = [
        (a, b)
        for a, b in _brackets(masked, start, claim.start)
        if _ASIDE_25.search(masked, a, b) and not _ADDS_CARD_25.match(masked, a)
    ]
    if not pairs:
        return None
    if not all(any(a < m.start < b for a, b in pairs) for m in inside):
        return None  # not named in this sentence, or named outside an aside too
    if masked.rfind("(", start, claim.start) > masked.rfind(")", start, claim.start):
        return None  # the figure is itself inside a bracket
    first = min(a for a, b in pairs if any(a < m.start < b for m in inside))
    for m in reversed(mentions[lo:hi]):
        if m.start < first and _named(m) and not any(a < m.start < b for a, b in pairs):
            if _COMPARED_BEFORE_25.search(masked, max(0, m.start - 24), m.start):
                return None  # "Compared with the X, ...": X is no subject
            return m.card_id if m.card_id != card_id else None
    return None  # no card named before the aside in its sentence


# -- references ----------------------------------------------------------------------------------

#: "Beacon's 0% FX fee" (a possessive with no article: ruleset 24 read "the Plus's"), "the 360's
#: range", "the 360 charges 3%" (a word of digits that ends its noun phrase)
_BARE_REF_25 = re.compile(
    r"(?<![\w'\u2019.-])(?:(?P<bare>[A-Z][A-Za-z0-9-]{1,20})['\u2019]s(?![\w'\u2019-])"
    r"|[Tt]he[ \t]{1,3}(?P<digits>[0-9][A-Za-z0-9-]{0,20})"
    r"(?:['\u2019]s(?![\w'\u2019-])|(?=[ \t]*[,;:)]|[ \t]+(?:is|has|charges|costs|offers|gives"
    r"|comes|carries|runs|sits|starts)\b)))"
)
#: what may follow a reference: a figure, a term, a verb (within three words)
_REF_AHEAD_25 = re.compile(
    r"(?:[ \t]+[\w-]+){0,3}?[ \t]*(?:\*\*|__)?[ \t]*(?:[$\d]|\b(?:fees?|apr|rates?|range|intro"
    r"|offer|window|annual|foreign|fx|ftf|transfer|late|penalty|cash|purchase|regular|ongoing"
    r"|variable|fixed|is|has|charges|costs|runs|sits|comes|offers|gives|starts)\b)"
)
#: words that make a reference an object of comparison, not the subject
_REF_COMPARED_25 = re.compile(
    r"\b(?:like|as|than|unlike|match(?:es)?|beats?|to|with|versus|vs\.?|over|of|from|and|or"
    r"|for|in|on|at|by)[ \t]+(?:the[ \t]+)?$",
    re.IGNORECASE,
)
#: a contrast that opens a clause of its own
_CONNECTIVE_25 = re.compile(
    r"[ \t]*(?:while|whereas|but|and|though|although|however|yet)?[ \t]*", re.IGNORECASE
)
#: a verb right after a reference's noun phrase: "the 360 has", "Harbor's fee is"
_REF_VERB_25 = re.compile(
    r"(?:[ \t]+[\w-]+){0,2}?[ \t]+(?:is|has|charges|costs|runs|sits|comes|offers|gives|starts"
    r"|carries)\b"
)
#: a figure after the reference, in its sentence
_FIGURE_AHEAD_25 = re.compile(r"[^.;!?\n]{0,80}?[0-9$%]")
_REF_CARDS_25 = 8


def refs_25(index: NameIndex, text: str, mentions: list[NameMention]) -> list[NameMention]:
    """Mentions plus ``refs_25``'s one-word references (module docstring)."""
    if not mentions:
        return mentions
    taken = SpanIndex((m.start, m.end) for m in mentions)
    ordered = tuple(mentions)
    added = []
    for match in _BARE_REF_25.finditer(text):
        group = "bare" if match.group("bare") else "digits"
        start = match.start(group)
        if taken.overlaps(match.start(), match.end()):
            continue
        lead = match.start() if group == "digits" else start
        if _REF_COMPARED_25.search(text, max(0, lead - 16), lead):
            continue  # "matches Harbor's", "like the 360", "over the 360 days"
        if group == "bare" and re.search(r"\b[Tt]he[ \t]{1,3}$", text[max(0, start - 8) : start]):
            continue  # "the Plus's": ruleset 24's reference
        word = match.group(group).lower()
        if word not in index.name_words:
            continue
        if not _FIGURE_AHEAD_25.match(text, match.end()) or not _REF_AHEAD_25.match(
            text, match.end()
        ):
            continue
        sentence = sentence_start(text, lead)
        k = bisect_left(ordered, sentence, key=lambda m: m.start)
        if k < len(ordered) and ordered[k].start < lead:
            # its sentence names a card before it, which is the subject - unless the reference
            # opens a clause of its own after a contrast, with its own verb ("..., while the 360
            # has a 2.7% fee"); not "X is as good abroad: Harbor's 0% fee"
            clause = _clause_start(text, lead)
            if not _CONNECTIVE_25.fullmatch(text[clause:lead]) or not _REF_VERB_25.match(
                text, match.end()
            ):
                continue
            j = bisect_left(ordered, clause, key=lambda m: m.start)
            if j < len(ordered) and ordered[j].start < lead:
                continue
        fits = [
            c
            for c in _recent_cards(ordered, start, _REF_CARDS_25)
            if word in index.words_by_card.get(c, ())
        ]
        if len(fits) == 1:
            end = match.end(group)
            added.append(NameMention(start, end, EXACT, fits[0], text[start:end]))
    if not added:
        return mentions
    return sorted([*mentions, *added], key=lambda m: m.start)


# -- definite references to an offer --------------------------------------------------------------

#: "the 9-month 0% window", "the 0% intro period": a definite reference to an offer
_OFFER_BEFORE_25 = re.compile(r"\bthe[ \t]+(?:[\w-]+[ \t]+){0,2}$")
_OFFER_AFTER_25 = re.compile(
    r"(?:[ \t]+(?:intro(?:ductory)?|apr|interest-free|promo(?:tional)?|purchase|transfer))*"
    r"[ \t]+(?:window|period|offer|promo|deal|stretch|runway)\b"
)
#: a clause that weighs an offer's use rather than saying whose it is
_WEIGHED_25 = re.compile(r"\bunless\b")
_PRONOUN_25 = re.compile(r"\b(?:it|its|it's|this[ \t]+card|that[ \t]+card|this[ \t]+one)\b")


def offer_card(claim: Claim, extraction: Extraction, catalog: Catalog) -> str | None:
    """The card named before a definite reference to an intro offer ("the 9-month 0% window")
    whose offer it is, when it is not its card's (``offers_25``)."""
    if claim.family != "intro" or len(claim.cards) != 1:
        return None
    masked = extraction.masked
    if not _OFFER_BEFORE_25.search(masked, max(0, claim.start - 24), claim.start):
        return None
    if not _OFFER_AFTER_25.match(masked, claim.end):
        return None
    clause = masked[_clause_start(masked, claim.start) : clause_end(masked, claim.end)]
    if "#" in clause or _PRONOUN_25.search(clause) or not _WEIGHED_25.search(clause):
        return None  # "... is its best feature", "... is great on the X": it says whose
    if claim.binding != "context" and not _named_only_after(claim, extraction):
        return None
    if _right_for(claim, catalog, claim.cards[0]):
        return None
    for card_id in _recent_cards(extraction.mentions, claim.start, _REF_CARDS_25):
        if card_id != claim.cards[0] and _right_for(claim, catalog, card_id):
            return card_id
    return None
