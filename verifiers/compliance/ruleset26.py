"""Ruleset 26: ruled-out cards, ranked notes, labels and avoided fees (the s29 tuning halves).

What ruleset 25 still flagged on the tuning halves of s29 (four blind writers of stop 39) was
mostly text that is no claim about a card's terms - a card the answer explains it left out, a
goal in a menu, a header, a late fee the reader can avoid - and figures of a ranked list's notes
given to the card named last instead of the one the note's rank names. Each reading is a class
and holds only where the text shows what it claims; a red team attacked it before it landed.

* ``why_not_26`` - **"Why not X?" answered by a requirement the customer fails rules X out**,
  with or without ruleset 19's "Because": "Why not Beacon Traveler? You already have this
  one.", "Why not Harbor Student? It's a student-only card and your profile isn't a student
  one.", "Why not Crest Cash Rewards? It needs a credit score of 640, and yours is 531." The
  answer is the rest of the line (or the next line when the question ends its line). A
  requirement counts only as failed: a card already held, "not available to you", "don't
  qualify", "not eligible", a student-only card where the answer does not say the customer is a
  student, or a score with the customer's own score below a minimum the answer states ("yours
  is 531", "you are at 676", "your 467 score is below its 670 minimum"). "Why not X? It needs
  640 and yours is 700" keeps X recommended, and so does an answer with a word that puts the
  card forward after all ("best", "apply", "go for", "still", "but", ...). As in ruleset 19, only the mention the
  recommendation was read from counts: a card put forward elsewhere stays put forward.
* ``ranks_26`` - **a note led by a rank ("#1 late fee up to $41; #1 CA 27.99%") is about the
  card that rank names** ("#1 Everyday Secured Cash | ..."), not the card named last. The note
  runs from its "#N" to the next ";", "|" or line end and names no card; a rank that names two
  cards names none. In such a note "CA" is the cash-advance APR and "PA" the penalty APR.
* ``tiers_26`` (with ``labels_26``) - **a lower-case "one" or "plus" after a capitalised name
  is a word, not the tier**: "the Solstice Reset one by one" names the Solstice Reset, not the
  Solstice Reset One, where the catalog has both; "the Vista Rewards plus a $95 fee" likewise.
* ``ranks_26`` also reads **prose after a code block**: a figure bound only by context to a card
  named last inside a fenced block (a JSON or YAML payload of candidates and ruled-out cards)
  goes to the card named last outside any block before it (all of it: letting each figure be
  right for either card would pass a text that mixes the two cards' terms) ("... Prism Rewards wins on the
  numbers. ```yaml ... ruled_out: - card: Northstar Cashback ...``` No annual fee, so ...").
* ``results_26`` - **a dollar figure the answer says is the reader's is a result**: "so that
  $976.68 is all yours", "$150 goes straight to you"; a note's cell that is an estimate ("| est
  rew $1,259/yr | net $771/yr |": the cell holds only "est rew", "estimated value", "net" and
  the figure); and "That comes to something like $717 a year" after a sentence whose last words
  are about what the card earns (rewards, back, points, miles: no price named after them), where
  the figure's own sentence names no price before it either.
* ``labels_26`` - **a goal or a header is no claim**: "no-fee" standing as an item of a list of
  goals ("a different goal (travel, balance transfer, no-fee)") - a hyphenated label followed by
  the end of the list, not by a noun it describes ("a no-fee card" stays a claim); and "Annual
  Percentage Rate" (a table's row header) is the term, never an unknown card "Percentage Rate".
* ``offers_26`` - **"no 0% transfer offer" says the card has no intro transfer APR**: the 0% is
  the offer it lacks, not a 0% offer, and the "no" does not reach the transfer fee after it ("no
  0% transfer offer with a 3% transfer fee" states a 3% fee; "no 0% transfer offer and no
  transfer fee" still states no fee).
* ``fees_26`` - **a late fee (or a penalty rate) the reader avoids is no term**: "set up autopay so you never trip a
  late fee", "pay on time so you won't incur a late fee" - "never", "won't", "don't" with a
  verb of the reader's (trip, incur, pay, get hit with, be charged, trigger, rack up) and a late
  fee, after a habit that avoids it (autopay, paying on time or in full, "so", "as long as",
  "if you"). "You'll never pay a late fee on this card" and "it has no late fee" stay claims.
  And a percentage followed by "(min $10) minimum fee" or "fee" is a fee, not an APR: it is
  checked as the fee of the transaction its sentence names before it (a cash advance, a
  transfer), or as one of the card's percentage fees when it names none.

See "Ruleset 26" in ``verifiers/compliance/RULESETS.md``.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claims import Claim, Extraction
from replicas.verifiers.compliance.mentions import UNKNOWN, NameMention, tokens_of
from replicas.verifiers.compliance.ruleset25b import sentence_start

if TYPE_CHECKING:
    from replicas.verifiers.compliance.names import NameIndex
    from replicas.verifiers.compliance.recommend import Recommendations

__all__ = ["labels_26", "revise_26", "tiers_26", "why_not_26"]

# -- "Why not X?" answered by a failed requirement -------------------------------------------------

# the card's name is blanked "#" in the masked text
_WHY_NOT_26 = re.compile(
    r"\bwhy[ \t]+not[ \t]+(?:the[ \t]+)?(?:\*\*|__)?#[^?:\n]{0,40}(?:\?|:(?![ \t]*\d))"
)
_ANSWER_26 = re.compile(r"(?:\*\*|__)?[ \t]*(?P<line>[^\n]{0,240})")
_NEXT_LINE_26 = re.compile(r"[ \t]*\n[ \t]*(?P<line>[^\n]{1,240})")
#: the card is held already: "You already have this one.", "It's already in your wallet."
_HELD_26 = re.compile(
    r"\balready[ \t]+(?:hold|have|own|carry|got)[ \t]+(?:it|this|that|this[ \t]+one|that[ \t]+one"
    r"|this[ \t]+card|that[ \t]+card|one)[ \t]*(?:[.!;]|$)"
    r"|\b(?:(?:it's|it[ \t]+is)[ \t]+)?already[ \t]+in[ \t]+your[ \t]+wallet\b"
    r"|\byou[ \t]+(?:have|hold|own)[ \t]+(?:it|this[ \t]+one|that[ \t]+one)[ \t]+already"
    r"[ \t]*(?:[.!;)\"]|\(|$)"
)
#: the card is closed to the customer, said of the card (or of "you" for it), ending its clause
_NOT_OPEN_26 = re.compile(
    r"\b(?:it|it's|this[ \t]+one|that[ \t]+one|this[ \t]+card|that[ \t]+card)[ \t]+"
    r"(?:is[ \t]+)?(?:isn't|is[ \t]+not|not)[ \t]+(?:available|open)[ \t]+to[ \t]+you"
    r"[ \t]*(?:[.!;]|$)"
    r"|\byou(?:'re|[ \t]+are)[ \t]+not[ \t]+eligible(?:[ \t]+for[ \t]+(?:it|this[ \t]+one|this"
    r"[ \t]+card))?[ \t]*(?:[.!;]|$)"
    r"|\byou[ \t]+(?:don't|do[ \t]+not|wouldn't|would[ \t]+not|won't|will[ \t]+not|can't|cannot)"
    r"[ \t]+(?:yet[ \t]+)?qualify(?:[ \t]+for[ \t]+(?:it|this[ \t]+one|this[ \t]+card))?"
    r"[ \t]*(?:[.!;]|$)"
)
_STUDENT_26 = re.compile(
    r"\bstudent-only\b|\bstudents?[ \t]+only\b|\bonly[ \t]+(?:open|available|for)[ \t]+"
    r"(?:to[ \t]+)?students\b"
)
#: the answer says the customer is a student or qualifies: the requirement is met, not failed
_MEETS_26 = re.compile(
    r"\byou(?:'re|[ \t]+are)[ \t]+(?:a[ \t]+|still[ \t]+(?:a[ \t]+)?)?(?:student|enrolled|eligible)"
    r"|\bas[ \t]+a[ \t]+student\b|\byou(?:'d|'ll|[ \t]+do|[ \t]+would|[ \t]+will)?[ \t]+qualify\b"
    r"|\byou[ \t]+(?:meet|clear|pass)\b|\b(?:above|over|exceeds?|clears?|meets?|comfortably)\b"
)
_SCORE_WORD_26 = re.compile(r"\bscore\b|\bfico\b|\bminimum\b|\bmin\b|\d{3}\+")
#: the minimum the answer states: "700+", "needs 640", "its 670 minimum", "a score of 700"
_MINIMUM_26 = re.compile(
    r"(?<![\d.$])(?P<a>\d{3})\+"
    r"|\b(?:needs?|requires?|wants?|minimum(?:[ \t]+score)?(?:[ \t]+(?:is|of))?|min|at[ \t]+least)"
    r"[ \t]+(?:a[ \t]+|an[ \t]+)?(?:(?:credit[ \t]+)?score[ \t]+of[ \t]+)?(?P<b>\d{3})\b"
    r"|(?<![\d.$])(?P<c>\d{3})[ \t]+(?:minimum|min)\b"
    r"|\bmin(?:imum)?[ \t]+(?:credit[ \t]+)?score[ \t]+(?:of[ \t]+|is[ \t]+)?(?P<d>\d{3})\b"
)
#: the customer's own score: "yours is 531", "you are at 676", "your 467 score", "your score is"
_OWN_SCORE_26 = re.compile(
    r"\b(?:yours[ \t]+is|you(?:'re|[ \t]+are)[ \t]+at|your[ \t]+(?:credit[ \t]+)?score[ \t]+is"
    r"|you[ \t]+have|vs\.?[ \t]+(?:your[ \t]+)?)[ \t]*(?:a[ \t]+|an[ \t]+|only[ \t]+|just[ \t]+)?"
    r"(?P<own>\d{3})\b(?!\+)(?=[ \t]*(?:[.;,)\"(]|$|and\b))"
    r"|\byour[ \t]+(?P<own2>\d{3})[ \t]+(?:credit[ \t]+)?score\b"
)
_SCORE_26 = re.compile(r"(?<![\d.$])(?P<n>\d{3})(?![\d.%])")


#: words that put the card forward after all: the answer is no ruling-out
_STILL_26 = re.compile(
    r"\b(?:recommend\w*|best|great|perfect|ideal|worth|go[ \t]+for|apply|pick|choose|good"
    r"[ \t]+fit|fits|works|still|but|however|though|although|anyway|instead|take[ \t]+it|get[ \t]+it"
    r"|grab[ \t]+it|sign[ \t]+up|go[ \t]+with|easy|approv\w*|reason)\b"
)


def _fails_requirement(answer: str) -> bool:
    """The answer to "Why not X?" says the customer fails one of X's requirements (an answer
    that names another card may be about that one: no ruling-out)."""
    if "#" in answer or _STILL_26.search(answer) or _MEETS_26.search(answer):
        return False
    if _HELD_26.search(answer) or _NOT_OPEN_26.search(answer) or _STUDENT_26.search(answer):
        return True
    if _SCORE_WORD_26.search(answer) is None:
        return False
    own = _OWN_SCORE_26.search(answer)
    if own is None:
        return False
    mine = int(own.group("own") or own.group("own2"))
    # the one minimum the answer states; any other score on the line makes it ambiguous
    minima = {
        int(m.group("a") or m.group("b") or m.group("c") or m.group("d"))
        for m in _MINIMUM_26.finditer(answer)
    }
    scores = {int(m.group("n")) for m in _SCORE_26.finditer(answer)} - {mine}
    if len(minima) != 1 or scores != minima:
        return False
    return 300 <= mine < next(iter(minima)) <= 850


def _answer_of(masked: str, end: int) -> str:
    answer = _ANSWER_26.match(masked, end)
    text = answer.group("line").strip(" \t*_") if answer else ""
    if text:
        return text
    after = _NEXT_LINE_26.match(masked, end + (answer.end() - answer.start() if answer else 0))
    return after.group("line") if after else ""


#: what may stand before a card's name on its line for the line to be an entry of a list or a
#: record: a list marker, a record's field ("card:", ``"name": "``), emphasis, "the"
_ENTRY_HEAD_26 = re.compile(
    r"[ \t]*(?:[-*\u2022+]|\d{1,2}[.)])?[ \t]*(?:\*\*|__)?[ \t]*"
    r"(?:\"?(?:card|name|card_name|product)\"?[ \t]*[:=][ \t]*\"?)?(?:the[ \t]+)?"
)
_ENTRY_REST_26 = re.compile(
    r"(?:\*\*|__)?[\"',]*[ \t]*(?:[:\u2014\u2013-]+[ \t]*)?(?P<rest>[^\n]{0,240})"
)
_REASON_LINE_26 = re.compile(
    r"[ \t]*\n[ \t]*\"?(?:reason|why|note|status)\"?[ \t]*[:=][ \t]*\"?(?P<rest>[^\n]{0,240})"
)


#: a list's lead-in or a record's key that rules its entries out, and one that puts them forward
_RULED_LEAD_26 = re.compile(
    r"\bruled[ \t_-]*out\b|\bleft[ \t]+(?:off|out)\b|\bexclu(?:ded|sions?)\b|\bnot[ \t]+eligible\b"
    r"|\bnot[ \t]+recommended\b|\bconsidered[ \t]+and[ \t]+dropped\b|\bdidn't[ \t]+make\b"
    r"|\bcan't[ \t]+(?:get|have|apply)\b|\bnot[ \t]+(?:open|available)[ \t]+to[ \t]+you\b"
    r"|\bineligible\b|\bskipped\b"
)
_PUT_FORWARD_26 = re.compile(
    r"\brecommend\w*|\bpicks?\b|\bshortlist\b|\branked\b|\bopen[ \t]+this\b|\bapply\b|\btop\b"
    r"|\bbest\b|\bsuggest\w*|\bcandidates?\b|\boptions?\b|\balso[ \t]+good\b"
)
_LEAD_SPAN_26 = 1500
#: "nothing is ruled out", "no exclusions", "ruled out: none"
_NEGATED_LEAD_26 = re.compile(r"\b(?:nothing|no|none|not|never|zero)\b[^.\n]{0,16}$")
_NONE_AFTER_26 = re.compile(r"[\"']?[ \t]*[:=]?[ \t]*[\[\"']?[ \t]*(?:none\b|nothing\b|n/a|\]|-)")


def _ruled_out_list(masked: str, line: int) -> bool:
    """The entry starting at ``line`` sits under a lead that rules its list out: the nearest
    lead-in or key before it that names a ruling-out or a putting-forward is a ruling-out."""
    low = max(0, line - _LEAD_SPAN_26)
    ruled = [
        m.end()
        for m in _RULED_LEAD_26.finditer(masked, low, line)
        if not _NEGATED_LEAD_26.search(masked, max(0, m.start() - 24), m.start())
        and not _NONE_AFTER_26.match(masked, m.end())
    ]
    if not ruled:
        return False
    forward = [m.end() for m in _PUT_FORWARD_26.finditer(masked, ruled[-1], line)]
    return not forward


def _entry_answer(masked: str, start: int, end: int) -> str | None:
    """What the entry a card's name leads says of it (``None``: the name leads no entry of a
    ruled-out list)."""
    line = masked.rfind("\n", 0, start) + 1
    if _ENTRY_HEAD_26.fullmatch(masked, line, start) is None:
        return None
    if not _ruled_out_list(masked, line):
        return None
    rest = _ENTRY_REST_26.match(masked, end)
    text = rest.group("rest").strip(" \t\"',*_") if rest else ""
    if text:
        return text
    line_end = masked.find("\n", end)
    reason = _REASON_LINE_26.match(masked, line_end) if line_end >= 0 else None
    return reason.group("rest") if reason else None


def why_not_26(masked: str, recs: Recommendations) -> Recommendations:
    """``recs`` with the cards of "Why not X?" answered by a failed requirement ruled out
    (module docstring). ``masked``: the lower-case text with card names as "#" runs."""
    from replicas.verifiers.compliance.recommend import Recommendations

    if not recs.positive:
        return recs
    positive = dict(recs.positive)
    negated = set(recs.negated)
    changed = False
    # an entry led by the card's name (a list item, a record's card field) that says the
    # customer fails a requirement: "- Prism Rewards - min score 640 vs your 612",
    # "card: X / reason: you have it already"
    for card_id, mention in list(positive.items()):
        answer = _entry_answer(masked, mention.start, mention.end)
        if answer is not None and _fails_requirement(answer):
            del positive[card_id]
            negated.add(card_id)
            changed = True
    if "why not" not in masked:
        return Recommendations(positive, frozenset(negated)) if changed else recs
    for m in _WHY_NOT_26.finditer(masked):
        inside = [c for c, n in positive.items() if m.start() <= n.start < m.end()]
        if not inside or not _fails_requirement(_answer_of(masked, m.end())):
            continue
        for card_id in inside:
            del positive[card_id]
            negated.add(card_id)
            changed = True
    return Recommendations(positive, frozenset(negated)) if changed else recs


# -- labels: "Annual Percentage Rate" is a term ---------------------------------------------------

_TERM_WORDS_26 = frozenset({"annual", "percentage", "rate", "rates", "yield"})


#: a noun after a lower-case phrase that makes it generic: "everyday cash back", "everyday
#: business costs"
_GENERIC_AFTER_26 = re.compile(
    r"[ \t]+(?:back|costs?|spend(?:ing)?|purchases?|expenses?|bills?|needs|use|shopping|buys)"
    r"(?![\w-])(?![ \t]+cards?\b)"
)


#: the words a generic phrase is made of (no brand, issuer or tier word)
_GENERIC_WORDS_26 = frozenset(
    {
        "everyday",
        "cash",
        "business",
        "rewards",
        "travel",
        "flat",
        "simple",
        "daily",
        "general",
        "regular",
        "online",
        "grocery",
        "dining",
        "gas",
        "basic",
        "plain",
    }
)


def labels_26(text: str, mentions: list[NameMention]) -> list[NameMention]:
    """``mentions`` without unknown cards that are the term "Annual Percentage Rate", or a
    lower-case generic phrase ("for everyday cash back")."""
    out = []
    for m in mentions:
        if (
            m.kind == UNKNOWN
            and m.surface.islower()
            and set(m.surface.split()) <= _GENERIC_WORDS_26
            and _GENERIC_AFTER_26.match(text, m.end)
        ):
            continue
        words = m.surface.lower().split()
        if (
            m.kind == UNKNOWN
            and "percentage" in words
            and set(words) <= _TERM_WORDS_26
            and (words[0] == "annual" or text[max(0, m.start - 7) : m.start].lower() == "annual ")
        ):
            continue
        out.append(m)
    return out if len(out) != len(mentions) else mentions


# -- a lower-case "one" or "plus" after a capitalised name is a word, not the tier --------------

_LOWER_TIERS_26 = ("one",)
#: "one" as a word after the name: "one by one", "one of", "one that", "one I mentioned"
_ONE_AS_WORD_26 = re.compile(r"[ \t]+(?:by|of|that|which|i|you|we|is|was|more|or|and)\b")


def tiers_26(index: NameIndex, text: str, mentions: list[NameMention]) -> list[NameMention]:
    """``mentions`` with "Solstice Reset one by one" read as "Solstice Reset" (module
    docstring): the name's last word "one" written lower-case after capitalised words and
    followed by a word that makes it a pronoun or numeral, where the catalog has the name
    without it; and later short references read off that mention moved with it. One pass."""
    out = None
    moved: dict[str, tuple[str, frozenset[str]]] = {}
    for i, m in enumerate(mentions):
        if m.card_id is None or m.kind == UNKNOWN:
            continue
        if m.card_id in moved:
            shorter, short = moved[m.card_id]
            if frozenset(tokens_of(m.surface)) < short:
                if out is None:
                    out = list(mentions)
                out[i] = NameMention(m.start, m.end, m.kind, shorter, m.surface, m.expected)
            continue
        words = m.surface.split()
        if len(words) < 3 or words[-1] not in _LOWER_TIERS_26:
            continue
        if not _ONE_AS_WORD_26.match(text, m.end):
            continue
        head = words[:-1]
        if not all(w[:1].isupper() for w in head if w[:1].isalpha()):
            continue
        shorter_id = index.card_by_words.get(tokens_of(" ".join(head)))
        if shorter_id is None or shorter_id == m.card_id:
            continue
        surface = m.surface[: m.surface.rfind(words[-1])].rstrip()
        if out is None:
            out = list(mentions)
        out[i] = NameMention(
            m.start, m.start + len(surface), m.kind, shorter_id, surface, m.expected
        )
        moved[m.card_id] = (shorter_id, frozenset(tokens_of(surface)))
    return out if out is not None else mentions


# -- ranked notes ----------------------------------------------------------------------------------

#: "#1 " (or "#1 | ", "#1. ", "#1: ", "#1 - ") right before a card's name
_RANK_BEFORE_26 = re.compile(
    r"#(?P<n>[1-9])[ \t]*(?:[|:.)\u2014\u2013-][ \t]*)?(?:\*\*|__)?[ \t]*$"
)
#: a rank leading a note: "#1 " not followed by a card's name
_RANK_NOTE_26 = re.compile(r"(?<![#\w])#(?P<n>[1-9])(?![\d#])[ \t]+(?!#)")
_NOTE_STOP_26 = re.compile(r"[;|\n]")
_NOTE_LEAD_26 = re.compile(r"[ \t]*(?:[a-z]+:[ \t]*)?")
_RANK_NOTE_SPAN_26 = 80
_CA_26 = re.compile(r"\bca[ \t]+$")
_PA_26 = re.compile(r"\bpa[ \t]+$")


def _ranks(masked: str, mentions: tuple[NameMention, ...]) -> dict[str, str]:
    """Rank "N" -> the card named right after "#N" (ranks naming two cards are dropped)."""
    found: dict[str, set[str]] = {}
    for m in mentions:
        if m.card_id is None or m.kind == UNKNOWN:
            continue
        before = _RANK_BEFORE_26.search(masked, max(0, m.start - 12), m.start)
        if before is not None:
            found.setdefault(before.group("n"), set()).add(m.card_id)
    return {n: next(iter(cards)) for n, cards in found.items() if len(cards) == 1}


def _rank_note(claim: Claim, masked: str, ranks: dict[str, str]) -> tuple[str, str] | None:
    """(card, kind) of the ranked note ``claim`` sits in; kind "" keeps the claim's own."""
    low = max(0, claim.start - _RANK_NOTE_SPAN_26)
    stops = [s.end() for s in _NOTE_STOP_26.finditer(masked, low, claim.start)]
    head = stops[-1] if stops else low
    notes = list(_RANK_NOTE_26.finditer(masked, head, claim.start))
    note = notes[-1] if notes else None
    if note is None or "#" in masked[note.end() : claim.start]:
        return None
    # the rank leads its note: nothing before it but a one-word label ("notes:")
    if _NOTE_LEAD_26.fullmatch(masked, head, note.start()) is None:
        return None
    card_id = ranks.get(note.group("n"))
    if card_id is None:
        return None
    lead = masked[note.end() : claim.start]
    if claim.family == "apr" and _CA_26.search(lead):
        return card_id, "cash_advance"
    if claim.family == "apr" and _PA_26.search(lead):
        return card_id, "penalty"
    return card_id, ""


# -- prose after a code block -------------------------------------------------------------------

_FENCE_26 = re.compile(r"```[^\n]*\n.*?\n[ \t]*```", re.S)


def _blocks(masked: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _FENCE_26.finditer(masked)] if "```" in masked else []


class _Outside:
    """The named mentions in text order, each with the last card named outside any code block
    at or before it (computed once, so each claim is read in logarithmic time)."""

    def __init__(
        self, masked: str, mentions: tuple[NameMention, ...], blocks: list[tuple[int, int]]
    ) -> None:
        starts = [a for a, _ in blocks]
        self.masked = masked
        self.blocks = blocks
        self.starts = starts
        self.named = [m for m in mentions if m.card_id is not None]
        self.ends = [m.end for m in self.named]
        self.inside: list[bool] = []
        self.outside: list[str | None] = []
        last: str | None = None
        for m in self.named:
            k = bisect_right(starts, m.start) - 1
            inside = k >= 0 and m.start < blocks[k][1]
            self.inside.append(inside)
            if not inside and m.kind != UNKNOWN:
                last = m.card_id
            self.outside.append(last)

    def owner(self, claim: Claim) -> str | None:
        """The card prose after a code block is about: a context-bound claim whose card was
        named last inside a block goes to the card named last outside any block before it."""
        if claim.binding != "context" or len(claim.cards) != 1:
            return None
        i = bisect_right(self.ends, claim.start) - 1
        if i < 0 or self.named[i].card_id != claim.cards[0] or not self.inside[i]:
            return None
        # the block holding the last card ends before the claim
        k = bisect_right(self.starts, self.named[i].start) - 1
        if self.blocks[k][1] > claim.start:
            return None
        # ... under a ruling-out key of the block (a payload's "ruled_out" list), not a pick
        a = self.blocks[k][0]
        line = self.masked.rfind("\n", a, self.named[i].start) + 1
        if not _ruled_out_list(self.masked[a:], line - a):
            return None
        owner = self.outside[i]
        return owner if owner is not None and owner != claim.cards[0] else None


# -- results: "so that $976.68 is all yours" -------------------------------------------------------

_YOURS_26 = re.compile(
    r"[*_]{0,2}[ \t]+(?:(?:a|per)[ \t]+year[ \t]+|/yr[ \t]+)?(?:is|stays|are)[ \t]+"
    r"(?:all[ \t]+|entirely[ \t]+|fully[ \t]+)?yours\b"
    r"|[*_]{0,2}[ \t]+(?:goes|go)[ \t]+(?:straight[ \t]+|right[ \t]+)?(?:in)?to[ \t]+"
    r"(?:you|your[ \t]+pocket)\b"
)
#: a note's cell that estimates what the reader gets: "| est rew $1,259/yr | net $771/yr |"
_CELL_STOP_26 = re.compile(r"[|;\n]")
_ESTIMATE_26 = re.compile(
    r"[ \t]*(?:(?:est\.?|estimated)[ \t]+(?:rew|rews|rewards?|value|earnings?|cash[ \t-]?back)"
    r"|net)[ \t]*[:~\u2248]?[ \t]*"
)
#: a result's connective right before the figure: "so that $976.68 is all yours"
_SO_THAT_26 = re.compile(
    r"(?:^|[,;(][ \t]*|[ \t])(?:so(?:[ \t]+that)?|meaning|which[ \t]+means|leaving)[ \t]+"
    r"(?:the[ \t]+(?:full[ \t]+)?|all[ \t]+|your[ \t]+)?(?:about[ \t]+|~)?[*_]{0,2}$"
)
#: a balance with the fee added: "Starting balance incl. fee: $3,090"
_WITH_FEE_26 = re.compile(
    r"\bbalance[ \t]+(?:incl\.?|including|with|after|plus)[ \t]+(?:the[ \t]+)?(?:transfer[ \t]+)?"
    r"fees?[ \t]*[:=]?[ \t]*(?:\*\*|__)?[ \t]*$"
)
#: "reach zero before the intro rate ends": the balance, not a rate
_ZERO_BY_26 = re.compile(r"zero[ \t]+(?:before|by(?![ \t]+way)|ahead[ \t]+of|within)\b")
_TO_ZERO_26 = re.compile(
    r"\b(?:reach(?:es|ing)?|hit(?:s|ting)?|get(?:s|ting)?[ \t]+(?:it[ \t]+)?to|down[ \t]+to|clear"
    r"(?:s|ed)?[ \t]+it[ \t]+to)[ \t]+$"
)
#: an amount a fee is worked on: "on $100 that's $10", "on $1,000 you'd pay $30"
_ON_AMOUNT_26 = re.compile(
    r"(?:[\u2014\u2013:;(]|[ \t]-)[ \t]*(?:so[ \t]+)?on[ \t]+(?:a[ \t]+|an[ \t]+)?$"
)
_THAT_IS_26 = re.compile(
    r"[ \t]*(?:,[ \t]*)?(?:that's|that[ \t]+is|it's|you'd[ \t]+pay|you[ \t]+would[ \t]+pay"
    r"|that[ \t]+comes[ \t]+to)[ \t]+(?:about[ \t]+|~)?\$[ \t]?\d"
)
#: a record's key right before the figure: ``"est_net_after_fee": "`` (the normaliser reads
#: "_" as a space), ``est annual rewards:``
_KEY_26 = re.compile(
    r"(?:\"(?P<quoted>[a-z_ ]{1,40})\"|(?:^|\n)[ \t]*-?[ \t]*(?P<bare>[a-z_ ]{1,40}))[ \t]*[:=]"
    r"[ \t]*\"?$"
)
_ESTIMATE_WORDS_26 = frozenset(
    {"est", "estimated", "net", "reward", "rewards", "savings", "value", "earnings", "earned"}
)
_FEE_AFTER_WORDS_26 = frozenset({"after", "of", "minus", "less"})


def _is_estimate_key(masked: str, low: int, start: int) -> bool:
    """The figure is the value of a record's key naming an estimate and no price (a fee only
    as what the estimate is taken after: "net after fee")."""
    key = _KEY_26.search(masked, low, start)
    if key is None:
        return False
    words = re.split(r"[ _]+", (key.group("quoted") or key.group("bare")).strip(" _"))
    if not _ESTIMATE_WORDS_26 & set(words):
        return False
    for i, word in enumerate(words):
        if word in ("fee", "fees", "cost", "costs", "charge", "apr", "price") and (
            i == 0 or words[i - 1] not in _FEE_AFTER_WORDS_26
        ):
            return False
    return True


_COMES_TO_26 = re.compile(
    r"(?:^|[ \t])(?:that|this|it|which|all[ \t]+told[ \t,]+that)[ \t]+(?:\w+[ \t]+)?"
    r"(?:comes|works[ \t]+out|adds[ \t]+up|amounts)[ \t]+to[ \t]+(?:something[ \t]+like|about"
    r"|around|roughly|approximately|an[ \t]+estimated|nearly|almost|~|\u2248)?[ \t]*[*_]{0,2}$"
)
_EARN_RATE_26 = re.compile(
    r"\d(?:\.\d+)?[ \t]?(?:%|x\b|points?\b|miles?\b)[^.;!?]{0,40}?"
    r"\b(?:back|cash[ \t-]?back|cashback|rewards?|points?|miles|on)\b"
    r"|\bearns?[ \t]+[^.;!?]{0,40}?\d"
)
_PRICE_26 = re.compile(
    r"\bfees?\b|\bcost(?:s|ing)?\b|\bcharg(?:es?|ing)\b|\bprice\b|\bmembership\b|\bapr\b"
    r"|\binterest\b"
)


def _is_result(claim: Claim, masked: str) -> bool:
    if (
        claim.family == "intro"
        and claim.is_none
        and _ZERO_BY_26.match(masked, claim.start)
        and _TO_ZERO_26.search(masked, max(0, claim.start - 24), claim.start)
    ):
        return True
    if claim.family != "fee" or claim.unit != "usd" or claim.is_none:
        return False
    low = max(0, claim.start - 60)
    if _WITH_FEE_26.search(masked, low, claim.start) or _is_estimate_key(masked, low, claim.start):
        return True
    if _ON_AMOUNT_26.search(masked, low, claim.start) and _THAT_IS_26.match(masked, claim.end):
        return True
    if _YOURS_26.match(masked, claim.end) and _SO_THAT_26.search(
        masked, max(0, claim.start - 40), claim.start
    ):
        return True
    cells = [s.end() for s in _CELL_STOP_26.finditer(masked, max(0, claim.start - 40), claim.start)]
    if cells and _ESTIMATE_26.fullmatch(masked, cells[-1], claim.start):
        return True
    start = sentence_start(masked, claim.start)
    before = masked[start : claim.start]
    if _COMES_TO_26.search(before) is None or _PRICE_26.search(before):
        return False
    end = len(masked[:start].rstrip())
    if end and masked[end - 1] in ".!?":
        end -= 1
    if end < 2:
        return False
    prior = masked[sentence_start(masked, end) : end]
    last = 0
    for price in _PRICE_26.finditer(prior):
        last = price.end()
    # after its last price, the sentence states what the card earns, with a rate
    return bool(_EARN_RATE_26.search(prior, last))


# -- labels: "no-fee" as an item of a list of goals -------------------------------------------------

_LABEL_26 = re.compile(r"no-(?:annual-)?fee|fee-free")
_LABEL_BEFORE_26 = re.compile(r"(?:[,/]|\bor|\band)[ \t]*$")
_LABEL_AFTER_26 = re.compile(r"[ \t]*(?:[)/?]|$|or\b|and\b)")
_FIRST_LABEL_BEFORE_26 = re.compile(r"\([ \t]*$")
_FIRST_LABEL_AFTER_26 = re.compile(r"[ \t]*(?:[,/]|or\b)")


def _is_label(claim: Claim, masked: str) -> bool:
    if claim.family != "fee" or not claim.is_none:
        return False
    text = masked[claim.start : claim.end]
    if _LABEL_26.fullmatch(text) is None:
        return False
    # an item of a list: after another item, or first in a bracket with more items after it
    low = max(0, claim.start - 8)
    return bool(
        (
            _LABEL_BEFORE_26.search(masked, low, claim.start)
            and _LABEL_AFTER_26.match(masked, claim.end)
        )
        or (
            _FIRST_LABEL_BEFORE_26.search(masked, low, claim.start)
            and _FIRST_LABEL_AFTER_26.match(masked, claim.end)
        )
    )


# -- a value the answer rejects, a question it quotes ---------------------------------------------

#: "it's up to forty-one dollars, not up to $25", "it's 3%, not 4 percent": the value after ",
#: not" is the one rejected
_REJECTED_26 = re.compile(
    r",[ \t]*(?:and[ \t]+)?not[ \t]+(?:up[ \t]+to[ \t]+|quite[ \t]+|exactly[ \t]+)?$"
)
_QUOTES_26 = ('"', "\u201c", "\u201d")
#: before a quotation: what the customer said or read
_SAID_26 = re.compile(
    r"\b(?:you[ \t]+(?:asked|said|wrote|mentioned|thought|think)|asked|the[ \t]+(?:website|site|ad|"
    r"letter|app)[ \t]+said|i[ \t]+(?:read|heard|saw))[ \t]*[:,]?[ \t]*$"
)


#: the reply right after a quotation opens by correcting it: "Ah, no, it's ...", "I can see why
#: you'd think ...", "Not quite", "Actually, ..."
_CORRECTS_26 = re.compile(
    r"[ \t\u2014\u2013?!.,:-]*(?:(?:ah|oh|well|hmm|so)[ \t]*,?[ \t]+)?"
    r"(?:no\b(?![ \t]+(?:doubt|question|problem|worries|issue))|nope\b|not[ \t]+quite\b|actually\b"
    r"|i[ \t]+can[ \t]+see[ \t]+why\b|that's[ \t]+not\b|that[ \t]+is[ \t]+not\b|it's[ \t]+not\b"
    r"|correction\b|that's[ \t]+(?:a[ \t]+)?(?:common[ \t]+)?mix-?up\b|easy[ \t]+to[ \t]+mix\b)"
)
_CONFIRMS_26 = re.compile(r"\b(?:yes|yep|yeah|correct|right|exactly|indeed|true)\b")


def _quotes(masked: str) -> list[int]:
    return (
        [i for i, ch in enumerate(masked) if ch in _QUOTES_26]
        if any(q in masked for q in _QUOTES_26)
        else []
    )


def _is_rejected(claim: Claim, masked: str, quotes: list[int]) -> bool:
    """The figure is a value the answer rejects after ", not", or sits in a quotation of what
    the customer said or asked that the answer then corrects."""
    if _REJECTED_26.search(masked, max(0, claim.start - 24), claim.start):
        return True
    if not quotes:
        return False
    line = masked.rfind("\n", 0, claim.start) + 1
    first, here = bisect_left(quotes, line), bisect_left(quotes, claim.start)
    if (here - first) % 2 == 0 or here >= len(quotes):
        return False  # not inside a quotation on its line
    start, end = quotes[here - 1], quotes[here]
    if end < claim.end or masked.find("\n", claim.end, end) >= 0:
        return False
    said = _SAID_26.search(masked, max(line, start - 40), start) is not None
    asked = masked[start + 1 : end].rstrip().endswith("?")
    if not (said or asked) or _CORRECTS_26.match(masked, end + 1) is None:
        return False
    return _CONFIRMS_26.search(masked, end + 1, min(len(masked), end + 60)) is None


# -- "no 0% transfer offer" -------------------------------------------------------------------------

_NO_OFFER_26 = re.compile(
    r"no[ \t]+0(?:\.0+)?[ \t]?%[ \t]+(?:intro(?:ductory)?[ \t]+|promo(?:tional)?[ \t]+)?"
    r"(?:apr[ \t]+)?(?:on[ \t]+)?(?:balance[ \t-]+)?transfers?[ \t]+(?:apr[ \t]+)?"
    r"(?:offer|deal|promo(?:tion)?|period|window|rate)s?\b"
)
_OFFER_AFTER_26 = re.compile(
    r"[ \t]+(?:intro(?:ductory)?[ \t]+|promo(?:tional)?[ \t]+)?(?:apr[ \t]+)?(?:on[ \t]+)?"
    r"(?:balance[ \t-]+)?transfers?[ \t]+(?:apr[ \t]+)?(?:offer|deal|promo(?:tion)?|period"
    r"|window|rate)s?\b"
    r"|[ \t]*(?:\((?:or[ \t]+)?[a-z ]{0,20}\)[ \t]*)?(?:intro(?:ductory)?|promo(?:tional)?)"
    r"[ \t]+(?:apr|rate|offer)[ \t]+(?:on|for)[ \t]+(?:balance[ \t-]+)?transfers\b"
)
_SECOND_NEGATION_26 = re.compile(
    r"\bno\b|\bfree\b|\bwithout\b|\bzero\b|\bnone\b|\bwaived?\b|\bnot\b|n't\b"
)
_FEE_WORD_26 = re.compile(r"[ \t]*fees?\b")
_PERCENT_26 = re.compile(r"(?P<v>\d{1,2}(?:\.\d{1,2})?)[ \t]?%")


def _no_offer(claim: Claim, masked: str) -> Claim | None:
    """The claim as ruleset 26 reads "no 0% transfer offer" (``None``: unchanged)."""
    text = masked[claim.start : claim.end]
    if claim.is_none and claim.family == "fee":
        offer = _NO_OFFER_26.match(text)
        if offer is None:
            return None
        rest = text[offer.end() :]
        if _SECOND_NEGATION_26.search(rest) or _FEE_WORD_26.match(rest):
            return None
        fee = _PERCENT_26.search(rest)
        if fee is None:
            return replace(claim, cards=())
        value = float(fee.group("v"))
        return replace(claim, is_none=False, unit="pct", low=value, high=value)
    return _no_intro(claim, masked)


def _no_intro(claim: Claim, masked: str) -> Claim | None:
    """The intro transfer APR "no 0% transfer offer" denies, as a claim (``None``: none)."""
    if claim.family == "fee" and claim.is_none:
        # the denial leading a fee claim: "no 0% transfer offer with a 3% transfer fee"
        offer = _NO_OFFER_26.match(masked, claim.start)
        if offer is None:
            return None
        return replace(
            claim,
            end=offer.end(),
            family="intro",
            kind="bt",
            unit="none",
            low=None,
            high=None,
            months=None,
            is_none=True,
            kinds=frozenset(),
            scopes=frozenset({"bt"}),
        )
    if claim.is_none or claim.low != 0 or claim.family not in ("intro", "apr", "fee"):
        return None
    if masked[max(0, claim.start - 3) : claim.start] != "no ":
        return None
    if _OFFER_AFTER_26.match(masked, claim.end) is None:
        return None
    return replace(
        claim,
        family="intro",
        kind="bt",
        unit="none",
        low=None,
        high=None,
        months=None,
        is_none=True,
        kinds=frozenset(),
        scopes=frozenset({"bt"}),
    )


# -- fees: the avoided late fee, and "(min $10) minimum fee" ---------------------------------------

_AVOIDED_26 = re.compile(
    r"(?:never|won't|will[ \t]+not|don't|do[ \t]+not|wouldn't|can't|n't|not)[ \t]+(?:ever[ \t]+)?"
    r"(?:trip|incur|pay|get[ \t]+hit[ \t]+with|be[ \t]+hit[ \t]+with|get[ \t]+charged|be[ \t]+"
    r"charged|trigger|rack[ \t]+up|face|owe|see)[ \t]+(?:a|any|the)[ \t]+late[ \t]+fees?"
)
#: "so a missed due date never turns into a late fee", "doesn't turn into a late fee"
_TURNS_INTO_26 = re.compile(
    r"(?:never|won't|will[ \t]+not|doesn't|does[ \t]+not|don't|n't|not)[ \t]+(?:ever[ \t]+)?"
    r"(?:turns?|becomes?|leads?[ \t]+to|results?[ \t]+in|ends?[ \t]+up[ \t]+as)[ \t]+"
    r"(?:into[ \t]+)?(?:a|an|any)[ \t]+late[ \t]+fees?"
)
_PENALTY_AVOIDED_26 = re.compile(
    r"(?:never|won't|will[ \t]+not|don't|do[ \t]+not|n't|not)[ \t]+(?:ever[ \t]+)?"
    r"(?:see|trip|trigger|face|pay|get[ \t]+hit[ \t]+with|be[ \t]+hit[ \t]+with|incur)[ \t]+"
    r"(?:a|an|any|the|that)[ \t]+penalty[ \t]+(?:apr|rate)s?\b"
)
#: the habit is what avoids the fee: "... so (that) ...", "the easiest way to ...", "to make sure"
_PURPOSE_26 = re.compile(
    r"\bso(?:[ \t]+that)?\b|\bway[ \t]+to\b|\bto[ \t]+make[ \t]+sure\b|\bensures?\b|\bmeans\b"
)
#: a habit the sentence concedes or negates: "even if autopay fails", "with or without autopay"
_CONCESSION_26 = re.compile(
    r"\beven[ \t]+(?:if|when|without)\b|\bwithout\b|\bfails?\b|\bregardless\b|\bor[ \t]+not\b"
    r"|\blate\b(?![ \t]+fees?\b)|\bno[ \t]+need\b|\bneedn't\b|\b(?:isn't|not|aren't)[ \t]+"
    r"(?:needed|necessary|required)\b|\bforget\b|\bor[ \t]+no\b|\bskip\b|\boptional\b"
)
#: the reader's own habit: an imperative or "you" before it ("set up autopay", "pay on time")
_READER_26 = re.compile(
    r"\b(?:set(?:ting)?[ \t]+up|turn(?:ing)?[ \t]+on|use|using|pay(?:ing)?|enable|enabling"
    r"|schedul(?:e|ing)|you|your)\b"
)
#: between the habit and the fee: the card's design, not the reader's habit
_DESIGNED_26 = re.compile(r"#|\b(?:designed|built|works|made|has|offers|comes)\b")
#: after the avoided fee: the card has none at all
_HAS_NONE_26 = re.compile(
    r"[^.!?\n]{0,40}\b(?:has[ \t]+none|there[ \t]+is[ \t]+none|there[ \t]+isn't[ \t]+one"
    r"|none[ \t]+at[ \t]+all|doesn't[ \t]+(?:have|charge)[ \t]+(?:one|any)|no[ \t]+(?:late[ \t]+fee"
    r"|penalty))"
)
_HABIT_26 = re.compile(
    r"\b(?:autopay|auto-pay|automatic[ \t]+payments?|on[ \t]+time|in[ \t]+full|by[ \t]+the[ \t]+"
    r"due[ \t]+date|reminders?|alerts?|the[ \t]+minimum[ \t]+payment)\b"
)
#: "22.49-28.49% var": the abbreviation of "variable"
_VAR_26 = re.compile(r"[ \t]*(?:\*\*|__)?var\b\.?(?![ \t]*\d)")
_CASH_26 = re.compile(r"\bcash[ \t-]+advances?\b|\btaking[ \t]+cash\b|\bcash[ \t]+out\b")
_FEE_AFTER_26 = re.compile(r"[ \t]*(?:\)[ \t]*)?(?:minimum[ \t]+)?fee\b")


def _is_avoided(claim: Claim, masked: str) -> bool:
    if not claim.is_none or claim.family not in ("fee", "apr"):
        return False
    if claim.family == "apr":
        # "autopay is the easiest way to never see that penalty rate"
        avoided = _PENALTY_AVOIDED_26.match(masked, claim.start)
    else:
        avoided = _AVOIDED_26.match(masked, claim.start) or _TURNS_INTO_26.match(
            masked, claim.start
        )
    if avoided is None:
        return False
    start = sentence_start(masked, claim.start)
    if _CONCESSION_26.search(masked, start, claim.start) or _HAS_NONE_26.match(
        masked, avoided.end()
    ):
        return False
    habit = _HABIT_26.search(masked, start, claim.start)
    if habit is None or not _READER_26.search(
        masked, max(start, habit.start() - 30), habit.start()
    ):
        return False
    purpose = _PURPOSE_26.search(masked, habit.end(), min(claim.start, habit.end() + 60))
    return purpose is not None and not _DESIGNED_26.search(masked, habit.end(), claim.start)


#: "doesn't fully cover the $95 annual fee", "don't treat the intro period as free money": the
#: verb's object is the term, and the negation is of the verb, not of the term
_NOT_DENIAL_26 = re.compile(
    r"(?:n't|not|never)[ \t]+(?:fully[ \t]+|quite[ \t]+|really[ \t]+|always[ \t]+)?"
    r"(?:cover|offset|outweigh|justify|treat|count[ \t]+on|rely[ \t]+on|ignore|overlook"
    r"|underestimate)s?\b"
)
_LACK_26 = re.compile(r"\b(?:lack|absence)[ \t]+of\b|\bno[ \t]|\bnone\b|\bfree\b|\bwithout\b")


def _is_not_denial(claim: Claim, masked: str) -> bool:
    if not claim.is_none:
        return False
    verb = _NOT_DENIAL_26.match(masked, claim.start)
    return verb is not None and _LACK_26.search(masked, verb.end(), claim.end) is None


def _as_fee(claim: Claim, masked: str) -> Claim | None:
    """A percentage the text calls a fee ("4% (min $10) minimum fee"), as a percentage fee."""
    if claim.family != "apr" or claim.unit != "pct" or claim.is_none or claim.low is None:
        return None
    text = masked[claim.start : claim.end]
    if "min" not in text or _FEE_AFTER_26.match(masked, claim.end) is None:
        return None
    # the fee of the transaction its sentence names before it, or any percentage fee
    before = masked[sentence_start(masked, claim.start) : claim.start]
    kinds = (
        frozenset({"cash_advance"})
        if _CASH_26.search(before)
        else frozenset({"bt"})
        if "transfer" in before
        else frozenset({"bt", "cash_advance", "foreign"})
    )
    return replace(
        claim,
        family="fee",
        kind="any" if len(kinds) > 1 else next(iter(kinds)),
        kinds=kinds,
        variability=None,
    )


def revise_26(
    extraction: Extraction,
    ranks: bool,
    results: bool,
    labels: bool,
    offers: bool,
    fees: bool,
) -> Extraction:
    """The extraction with ruleset 26's readings (module docstring)."""
    if not extraction.claims:
        return extraction
    masked = extraction.masked
    ranked = _ranks(masked, extraction.mentions) if ranks and "#" in masked else {}
    blocks = _blocks(masked) if ranks else []
    outside = _Outside(masked, extraction.mentions, blocks) if blocks else None
    quotes = _quotes(masked) if labels else []
    out = list(extraction.claims)
    denials: list[Claim] = []
    changed = False
    for i, claim in enumerate(out):
        new: Claim | None = None
        if claim.cards and (
            (results and _is_result(claim, masked))
            or (labels and _is_label(claim, masked))
            or (fees and (_is_avoided(claim, masked) or _is_not_denial(claim, masked)))
            or (labels and _is_rejected(claim, masked, quotes))
        ):
            new = replace(claim, cards=())
        elif offers and (
            ("no 0" in masked[claim.start : claim.start + 4])
            or masked[max(0, claim.start - 3) : claim.start] == "no "
        ):
            new = _no_offer(claim, masked)
            if new is not None and new.family == "fee" and not new.is_none:
                # the fee after the denial is checked, and so is the denial itself
                denial = _no_intro(claim, masked)
                if denial is not None:
                    denials.append(denial)
        if new is None and fees:
            new = _as_fee(claim, masked)
        if (
            new is None
            and fees
            and claim.variability == "fixed"
            and _VAR_26.match(masked, claim.end)
        ):
            new = replace(claim, variability="variable")
        if new is None and outside is not None:
            owner = outside.owner(claim)
            if owner is not None:
                # one card for all of it (per-figure "either card" would let a text mix the two)
                new = replace(claim, cards=(owner,))
        if new is None and ranked:
            note = _rank_note(claim, masked, ranked)
            if note is not None:
                card_id, kind = note
                new = replace(claim, cards=(card_id,), binding="clause")
                if kind:
                    new = replace(new, kind=kind, kinds=frozenset({kind}))
        if new is not None and new != claim:
            out[i] = new
            changed = True
    if denials:
        out = sorted([*out, *denials], key=lambda c: (c.start, c.end))
    return replace(extraction, claims=tuple(out)) if changed else extraction
