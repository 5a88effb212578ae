"""Ruleset 29, the s33 blind sets' tuning halves: a pick after a bold label and an intro rate with
its months after a slash (recall), and a reader's question the answer denies, a value net of the
fee and a compound number around "hundred" (precision).

Ruleset 28 was read on the tuning halves of s33 (w29-w32, seeds 251-258) after its first reading
there. Of its 15 misses, 8 were ``ineligible_card``; three classes of them are phrasings any
writer uses, and ruleset 29 reads two:

* ``picks_29`` - **a pick after a label whose bold closes after the colon, and the reasons
  given for it.** "> **The short answer:** the **X** (no annual fee), because ..." is the
  answer's own pick: ruleset 28 read "Short answer: the X" but not a label whose closing "**"
  stands after its colon or dash (nor "__Verdict:__", "Quick answer:", "In short:"). And "the
  X, because it pays well on your spending" is still a pick: ruleset 28 read the whole sentence
  for what unmakes a pick ("your", "months", ...), so the reason given for the pick unmade it.
  Here the sentence is read for those words only up to "because", "since", "given" or "as it"
  after the card; the reasons are still read for a comparison, a negation, a condition or a
  deferral ("because its APR is lower than ...", "since it needs a 700 score - so not yet"), and
  the part before them for a superlative or a second card ("the X - the lowest range of the
  three"). A question before the card that asks a fact about the cards ("Which Orion card has a
  balance transfer offer?"), not for one to get, makes no pick (a red team found each of these).
* **Left out: a card's name alone on its line between emoji** ("✨ Willow Cash Back 360" under
  "shortlist:", 2 of the 8 misses). Read as an offer to the customer, two red-team rounds found
  85 honest answers it flagged (cards under a lead of another kind, cards ruled out in words the
  rule-out patterns miss, sub-labels that end an entry, a rule-out after a blank line, held or
  future cards with emoji) and a quadratic scan; each narrowing opened new classes, so ruleset 29
  leaves these lines to the earlier readings.
* ``slash_29`` - **"0% / 15mo" is a rate for fifteen months.** A table cell or list item
  "intro purch | 0% / 15mo" gave the rate and no duration, so a wrong number of months passed.
  A percentage under 10 followed by a slash and a number of months ("mo", "mos", "mths",
  "months") reads as "0% for 15mo" where it is an intro offer's value: in a table cell whose
  row label names an intro offer ("intro BT"), or right after such a label ("intro purchase APR
  0% / 12mo"), the months ending the cell or clause. A column headed "Intro" was read too, in
  rows led by a card's name, and dropped: a red team found months left, plans, other moments
  and bar-less tables whose columns shift under it. A red team found the slash in
  payoff sums ("$3,000 at 0% / 12 months = $250 a month"), reward boosts ("5% / 3 months on
  gas"), the reader's own targets and promos, and chains ("0% / 1.99% / 12 mo / 21 mo"): none
  of them is read. A fee's minimum after a slash ("5%/$10") is no duration.

Of ruleset 28's false flags on the tuning halves of s32 and s33, three classes are phrasings
any writer uses (the figure is unverified, as one the grammar cannot attribute):

* ``questions_29`` - **a reader's question that the answer denies asks, and claims nothing.**
  "**q (from the comments):** does the X have a 0% intro period?" then "no introductory apr
  ...", and a note's "Cx asked about 0% promo -> none on this card": ruleset 18 read a question
  only when it opened its sentence. Only whether there is a 0% offer at all is read: a question
  right after a label naming a question or a comment that asks "does the X have / is there a 0%
  ... ?", answered "No," or with a denial naming the offer ("no introductory apr", "none on
  this card"), and a note's "Cx asked about 0% promo" answered "-> none on this card". Its 0%
  (no months) is unverified; a question answered yes, a question about a property of an offer
  ("is the X's 0% going away?", "does the 0% need enrolment? No"), and what a question
  presupposes (the X's $95 fee, its 0% for 21 months) keep their figures (red teams found each
  of these).
* ``nets_29`` - **"wins, at $350 after the first-year fee" is a value net of the fee.** A dollar
  figure given as a value ("worth", "nets you", "earns", "saves", or "wins, at" after "net" or
  "value" in its sentence) and followed by
  "after the (first-year / annual) fee", "net of the fee", "less the fee", with that phrase
  ending its sentence, is unverified ("wins, at $120 after the first-year fee, versus $150 for
  the Preferred" compares fees). A price is not a value: "comes in at $120 a year after the
  first-year fee", "$95 after the first-year fee waiver ends" are fees (a red team found them).
* ``hyphens_29`` - **"a two-hundred-fifty-dollar annual fee" is $250.** The number words read
  "two hundred fifty" but not the hyphenated compound adjective, so the fee read $50; the
  hyphens around "hundred" in a compound number read as spaces (not after "thousand", which the
  number words do not read).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import INTRO_CLAIM
from replicas.verifiers.compliance.claims import unbind_claims
from replicas.verifiers.compliance.expansions import apply_first_replacements
from replicas.verifiers.compliance.ruleset28c import _MARK, PickReading, picks_28

if TYPE_CHECKING:
    from collections.abc import Callable

    from replicas.verifiers.compliance.claims import Claim, Extraction
    from replicas.verifiers.compliance.recommend import Recommendations
    from replicas.verifiers.compliance.text import NormalizedText

# -- picks_29 --------------------------------------------------------------------------------------

# ruleset 28's lead to a card after a colon, comma or dash, with a bold that closes after the
# colon or the dash ("**The short answer:** the **X**", "**Short answer -** the X")
_DEFERRED_29 = re.compile(
    rf"(?:[:,]|[ \t][-\u2013\u2014]){_MARK}[ \t]*(?:(?:the|our)[ \t]+)?{_MARK}$"
)
# ruleset 28's labels of the answer's own pick, read after an underscore too ("__Verdict:__"),
# with "quick answer"
_PICK_LABEL_29 = re.compile(
    r"(?<![a-z0-9])(?:short[ \t]+answer|quick[ \t]+answer|tl;?dr|(?:my|our|top)"
    r"[ \t]+(?:pick|answer|suggestion|vote|choice)|best[ \t]+bet|verdict|bottom[ \t]+line)"
    rf"[ \t]*{_MARK}[ \t]*$"
)
# the reasons given for a pick, after the card
_REASONS_29 = re.compile(r"\b(?:because|since|given|as[ \t]+(?:it|its|it's|they|you))\b")
# what still unmakes a pick in its reasons: a comparison, a negation, a condition, a deferral or
# a rule-out ("because its APR is lower than ...", "because it needs a 700 score - so not yet")
_AGAINST_REASONS_29 = re.compile(
    r"n't\b|(?<![a-z])(?:than|unlike|over|vs|versus|not|never|other|others|instead|rather|worst"
    r"|avoid\w*|skip\w*|overkill|wrong|but|however|although|though|yet|except|whereas|while"
    r"|until|unless|if|once|when|later|eventually|someday|hold|held|already|close|closing"
    r"|cancel\w*|drop\w*|ditch\w*|downgrad\w*|get[ \t]+rid|of[ \t]+the[ \t]+(?:two|three|four"
    r"|five|bunch|lot))\b"
)
# what makes the card the answer to a factual or comparing question, before its reasons: a
# superlative or comparison ("the lowest variable range of the three") or a second card named
_COMPARED_29 = re.compile(
    r"#[^#\n]+#|(?<![a-z])(?:highest|lowest|most|least|only|priciest|cheapest|longest|shortest"
    r"|biggest|smallest|largest|steepest|costliest|higher|lower|than|vs|versus|unlike|compared"
    r"|whereas)\b"
)
# a question asking a fact about the cards ("Which Orion card has a balance transfer offer?",
# "Which of these would I be turned down for?", "Does the X charge foreign fees?") ...
_ASKS_FACT_29 = re.compile(
    r"\b(?:which|what|whichever)\b[^?\n]{0,80}?\b(?:has|have|had|is|are|was|were|charges?"
    r"|offers?|gives?|comes|carries|costs?|would|could|can't|cannot|won't|turned|denied|declined"
    r"|rejected)\b|(?:^|[\n>.!?:,\u2013\u2014-][ \t>*_]*)(?:does|doesn't|do|don't|did|didn't|is"
    r"|isn't|are|aren't|was|wasn't|can|can't|will|won't|has|hasn't|have|haven't|any)(?![\w'])"
)
# ... not for a card to get ("Which card is best for me?", "which would you recommend?")
_ASKS_PICK_29 = re.compile(
    r"\b(?:best|better|for[ \t]+me|should|recommend\w*|suggest\w*|suit\w*|good|worth"
    r"|go[ \t]+for|apply|pick|choose|start)\b|\bright\b(?![ \t]+now)"
    r"|\bget\b(?![ \t]+(?:turned|declined|denied|rejected|refused|approved))"
)
# a question about a card the reader holds: "the X I opened last year", "my (current) X", "I
# have the X", "the X in my wallet"
_ASKS_HELD_29 = re.compile(
    r"#[ \t*_]*(?:that[ \t]+|which[ \t]+)?(?:i|we)(?:'ve)?[ \t]+(?:already[ \t]+)?(?:opened|got"
    r"|have|had|hold|own|carry|signed[ \t]+up|been[ \t]+using)\b"
    r"|\b(?:my|our)[ \t]+(?:(?:current|existing|old|trusty)[ \t]+)?(?:\*\*|__)?#"
    r"|\b(?:i|we)[ \t]+(?:already[ \t]+)?(?:have|hold|own|carry|use)[ \t]+(?:the[ \t]+|a[ \t]+|an[ \t]+)?"
    r"(?:\*\*|__)?#|#[^?\n]{0,24}\bin[ \t]+(?:my|our)[ \t]+wallet"
)
READING_29 = PickReading(
    _DEFERRED_29,
    _PICK_LABEL_29,
    _REASONS_29,
    _AGAINST_REASONS_29,
    _COMPARED_29,
    _ASKS_FACT_29,
    _ASKS_PICK_29,
    _ASKS_HELD_29,
    whole_question=True,
)


def picks_29(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """``recs`` with the cards a recommending clause leads to: ruleset 28's picks, then those
    ruleset 29's patterns find among the rest (a label bold after its colon, the reasons for a
    pick read apart; module docstring). Its stricter checks (a question asking a fact, about a
    held card) only hold back picks ruleset 28 did not make, so no pick of 28 is lost."""
    return picks_28(masked, extraction, picks_28(masked, extraction, recs), READING_29)


# -- slash_29 --------------------------------------------------------------------------------------

_SLASH_29 = re.compile(
    r"(?<![\d.,/])(?P<pct>\d(?:\.\d{1,2})?)[ \t]*%(?P<slash>[ \t]*/[ \t]*)"
    r"\d{1,2}[ \t]*(?:mo|mos|mths?|months?)\b\.?"
)
# the label of an intro offer right before the rate, with no figure between ("intro purch",
# "Intro APR on purchases:", "intro BT")
_INTRO_LABEL_29 = re.compile(r"\b(?:intro|introductory)\b[^\d%|\n/]{0,30}$")
# a cell's text before the rate: nothing, or the kind of the offer ("purch 0% / 21 mo")
_CELL_HEAD_29 = re.compile(
    r"[ \t*_]*(?:(?:purch\w*|bt|balance[ \t]+transfers?|transfers?|on[ \t]+purchases)[ \t:]*)?"
)
# what makes an intro label another offer's, an example's or what is left of one ("intro left",
# "your current card's intro", "you need an intro of", "a friend's intro for comparison")
_NOT_OFFERED_29 = re.compile(
    r"\b(?:left|remain\w*|your|you|need\w*|current\w*|ago|ending|ends|elapsed|used|old|previous\w*"
    r"|formerly|was|were|after|statements?|now|still|ahead|as[ \t]+of|in[ \t]+\d{4}|month[ \t]+\d+"
    r"|other|target\w*|goal\w*|want\w*|wish|since|until|expir\w*|today|to[ \t]+go|friend\w*"
    r"|sister|brother|partner|spouse|wife|husband|parent\w*|colleague\w*|example|e\.g|instance"
    r"|comparison|compare\w*|below|above|hypothetical\w*|plan\w*|scenario\w*|store|retail\w*"
    r"|financing|loan|bnpl)\b|'s\b"
)
# after the months: the end of the cell, the line or the clause, and no further slash
_SLASH_END_29 = re.compile(r"[ \t*_]*(?:[|,;)\n]|\.(?!\d)|$)")
_SLASH_REACH_29 = 120  # how far back an intro label or a cell is read


def _slash_read(lower: str, match: re.Match[str], line_start: int) -> bool:
    """Whether the "rate / months" at ``match`` (on the line starting at ``line_start``) is an
    intro offer's value: the value cell of a table row whose label cell names an intro offer, or
    a rate right after an intro label, the months ending the cell or clause (not "a $3,000 laptop
    at 0% / 12 months", a reward's "5% / 3 months", a chain "0% / 1.99% / 12 mo / 21 mo", a
    column of plans or time left)."""
    if _SLASH_END_29.match(lower, match.end()) is None:
        return False
    start = match.start()
    bar = lower.rfind("|", max(line_start, start - _SLASH_REACH_29), start)
    if bar < 0:
        if lower.find("|", line_start, start) >= 0:
            return False  # a cell too long to be a value
        before = lower[max(line_start, start - _SLASH_REACH_29) : start]
        clause = before[max(before.rfind(stop) for stop in ".;!?") + 1 :][-80:]
        return _INTRO_LABEL_29.search(clause) is not None and _NOT_OFFERED_29.search(clause) is None
    if _CELL_HEAD_29.fullmatch(lower, bar + 1, start) is None:
        return False  # not alone in its cell (but for its kind: "purch 0% / 21 mo")
    first = lower.find("|", line_start, bar + 1)
    if lower[line_start:first].strip():
        label_start, label_end = line_start, first  # a row without a leading bar
    else:
        label_start = first + 1
        label_end = lower.find("|", label_start, bar + 1)
    if label_end < 0 or label_end - label_start > _SLASH_REACH_29:
        return False  # the rate's own cell is the row's label, or the label is no label
    label = lower[label_start:label_end].strip(" \t*_")
    if _NOT_OFFERED_29.search(label) is not None:
        return False
    return _INTRO_LABEL_29.search(label) is not None  # "| intro BT | 0% / 12mo |"


# -- hyphens_29 ------------------------------------------------------------------------------------

_SMALL_29 = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen"
    "|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
)
# the hyphens of a compound number before "hundred" and after it ("two-hundred-fifty-dollar",
# "a hundred-and-fifty-dollar"): the number words read "two hundred fifty"
_HUNDRED_HYPHENS_29 = re.compile(
    r"(?<![a-z])(?:a|one|two|three|four|five|six|seven|eight|nine)(?P<h1>-)(?=hundred\b)"
    rf"|(?<![a-z])hundred(?P<h2>-)(?:and(?P<h3>-))?(?=(?:{_SMALL_29})(?![a-z]))"
)


def rewrite_29(norm: NormalizedText, slash: bool, hyphens: bool) -> NormalizedText:
    """``norm`` with "0% / 15mo" read as "0% for 15mo" (``slash``) and the hyphens around
    "hundred" in a compound number read as spaces (``hyphens``; module docstring)."""
    lower = norm.lower
    found: list[tuple[int, int, str]] = []
    if slash and "/" in lower:
        breaks: list[int] | None = None  # the line breaks, found once at the first match
        for m in _SLASH_29.finditer(lower):
            if breaks is None:
                breaks = [b.start() for b in re.finditer("\n", lower)]
            k = bisect_right(breaks, m.start() - 1)
            if _slash_read(lower, m, breaks[k - 1] + 1 if k else 0):
                found.append((m.start("slash"), m.end("slash"), " for "))
    if hyphens and ("hundred-" in lower or "-hundred" in lower):
        for m in _HUNDRED_HYPHENS_29.finditer(lower):
            if "thousand" in lower[max(0, m.start() - 24) : m.start()]:
                continue  # the number words read no thousands: the earlier reading stands
            found += [(m.start(g), m.end(g), " ") for g in ("h1", "h2", "h3") if m.start(g) >= 0]
    return apply_first_replacements(norm, found) if found else norm


# -- questions_29 ----------------------------------------------------------------------------------

# a question after a label of the reader's question, at the start of its sentence, asking
# whether there is an offer at all ("**comment reply** - does the X have a 0% intro period?",
# "**q (from the comments):** is there any 0% promo on the X?")
_LABELED_QUESTION_29 = re.compile(
    r"(?:q|question|reader[ \t]+question|comment|comment[ \t]+reply|reply|mailbag)\b"
    r"(?:[ \t]*\([^()\n]{0,30}\))?[ \t*_]*(?::|[ \t][-\u2013\u2014])[ \t*_]*"
    r"(?:(?:does|do)\b[^?\n]{0,60}?\b(?:have|offer|come[ \t]+with|get)|is[ \t]+there)[ \t]+"
    r"(?:a|an|any)[ \t]+(?:0%|intro|introductory|promo)"
)
# a question reported in a note about its asker, the figure right after it ("Cx asked about 0%
# promo -> none on this card")
_ASKED_29 = re.compile(
    r"\b(?:cx|customer|caller|client|member|applicant)[ \t]+(?:asked|enquired|inquired)[ \t]+"
    r"(?:about|re|abt)[ \t]+(?:(?:a|an|any)[ \t]+)?$"
)
# where a reported question ends and its answer starts
_ANSWER_MARK_29 = re.compile(r"[ \t]*(?:->|=>|\u2192)")
# an answer that denies an intro offer by name: "none on this card", "no introductory apr"
_NO_OFFER_29 = (
    r"none[ \t]+(?:on|for)[ \t]+(?:this|the|that)[ \t]+card\b|no[ \t]+(?:intro(?:ductory)?|0%"
    r"|promo(?:tional)?)\b|there(?:'s|[ \t]+is)[ \t]+no[ \t]+(?:intro(?:ductory)?|0%|promo(?:tional)?)\b"
)
_ANSWER_HEAD_29 = r"[\s>*#_-]*(?:(?:a|answer)[ \t]*[:.)-][ \t]*)?[*_]{0,2}[ \t]*"
# ... or, after a question asking whether there is one, a bare "no"
_DENIED_29 = re.compile(
    _ANSWER_HEAD_29
    + r"(?:(?:no|nope)[ \t]*(?:[.,;!]|[\u2013\u2014]|[ \t]-[ \t])|"
    + _NO_OFFER_29
    + ")"
)
_DENIED_NAMED_29 = re.compile(_ANSWER_HEAD_29 + "(?:" + _NO_OFFER_29 + ")")
# what narrows a denial to part of the offer ("not on purchases", "for purchases", "only", "but
# the BT promo still applies")
_NARROWED_29 = re.compile(
    r"\b(?:not[ \t]+(?:on|for)|on[ \t]+purchases|for[ \t]+(?:purchases|transfers|balance|new|the[ \t]+first)"
    r"|only|but|except|however|though|until|unless|apart|still|applies|instead|yet|just)\b"
)
_SENTENCE_END_29 = re.compile(r"[.!?](?=\s|$)|\n\s*\n")
_OFFER_WORD_29 = re.compile(r"[ \t]*(?:intro(?:ductory)?|promo(?:tional)?|apr|offer|deal)\b")
_MARKUP_29 = " \t\n*_#>-\u2022|"
_ASKED_REACH_29 = 80


def _denies(pattern: re.Pattern[str], masked: str, at: int) -> bool:
    """Whether the answer at ``at`` opens with a denial and its sentence does not narrow it ("No,
    not on purchases - balance transfers only", "none on this card for purchases; the BT promo
    still applies")."""
    denial = pattern.match(masked, at)
    if denial is None:
        return False
    stop = min(len(masked), denial.end() + _ASKED_REACH_29 * 2)
    end = _SENTENCE_END_29.search(masked, denial.end(), stop)
    return _NARROWED_29.search(masked, denial.end(), end.start() if end else stop) is None


def _labeled_question_denied(masked: str, a: int, b: int) -> bool:
    """The unit ``masked[a:b]`` is a labelled reader's question that the answer after it denies."""
    body = masked[a:b].strip(_MARKUP_29)
    if not body.endswith("?") or _LABELED_QUESTION_29.match(body) is None:
        return False
    return _denies(_DENIED_29, masked, b)


def _asked_and_denied(masked: str, a: int, start: int, end: int) -> bool:
    """The figure at ``masked[start:end]`` is what a reported question asked about ("asked about
    0% promo"), and the answer after it denies it ("-> none")."""
    if _ASKED_29.search(masked, max(a, start - _ASKED_REACH_29), start) is None:
        return False
    if _OFFER_WORD_29.match(masked, end) is None:
        return False  # "asked about 0% promo", not "asked about 0% balance transfer fees"
    stop = min(len(masked), end + _ASKED_REACH_29)
    for k in range(end, stop):
        mark = _ANSWER_MARK_29.match(masked, k)
        if mark is not None:
            return _denies(_DENIED_NAMED_29, masked, mark.end())
        if masked[k] in "\n.,;:?!\u2013\u2014":
            return False
    return False


# a dollar figure worked out net of the fee, the phrase ending its clause: "$350 after the
# first-year fee." (rewritten "after the annual fee the first year"), "$120 net of the annual
# fee," (not "$95 after the first-year fee waiver ends")
_NET_AFTER_29 = re.compile(
    r"[ \t*_]*(?:\([^()\n]{0,30}\)[ \t]*)?"
    r"(?:net[ \t]+)?(?:after|net[ \t]+of|less|minus)[ \t]+(?:(?:the|its|that|their|paying"
    r"(?:[ \t]+the)?)[ \t]+)?(?:first[- \t]year|annual|yearly)?[ \t]*(?:annual[ \t]+)?fees?\b"
    r"(?:[ \t]+(?:the|in)[ \t]+(?:first[ \t]+year|year[ \t]+one))?(?:\[\d{1,2}\]|[*\u2020])?"
    r"[ \t*_]*(?:[.;)!\n]|$)"
)


# a value's cue right before the figure: "wins, at $350", "worth $280", "nets you $120" (not a
# price's "at $120", "comes to $120", "= $120")
_VALUE_BEFORE_29 = re.compile(
    r"(?:\bworth|\bnets?(?:[ \t]+you)?|\bnetting"
    r"|\bnet[ \t]+value[ \t]+of|\bleaves[ \t]+you|\bearns?(?:[ \t]+you)?|\bsaves?(?:[ \t]+you)?)"
    r"[ \t*_]*(?:about|around|roughly|~|\u2248)?[ \t*_]*$"
)


# "wins, at $350" is a value only where the sentence says it compares values ("on first-year
# net value the X wins, at $350"), not costs ("on cost, the X wins, at $120")
_WINS_AT_29 = re.compile(r"\bwins[ \t]*,?[ \t]+at[ \t*_]*$")
_NET_VALUE_29 = re.compile(r"\b(?:net|value)\b")


def revise_29(extraction: Extraction, questions: bool, nets: bool) -> Extraction:
    """The extraction with ``questions_29``'s and ``nets_29``'s figures unbound (module
    docstring)."""
    readings = []
    if questions:
        readings.append(_questions_29(extraction))
    if nets and "$" in extraction.masked:
        readings.append(_net_after_29)
    return unbind_claims(extraction, [r for r in readings if r is not None])


def _net_after_29(claim: Claim, masked: str) -> bool:
    """A dollar figure given as a value ("worth $280", "on net value the X wins, at $350") and
    followed by "after the first-year fee" (or "net of the annual fee")."""
    if "$" not in claim.text or _NET_AFTER_29.match(masked, claim.end) is None:
        return False
    if _VALUE_BEFORE_29.search(masked, max(0, claim.start - 24), claim.start) is not None:
        return True
    wins = _WINS_AT_29.search(masked, max(0, claim.start - 16), claim.start)
    if wins is None:
        return False
    return _NET_VALUE_29.search(masked, max(0, wins.start() - 80), wins.start()) is not None


def _questions_29(extraction: Extraction) -> Callable[[Claim, str], bool] | None:
    """Whether a claim is in a reader's question that the answer denies: a labelled question
    ("**q (from the comments):** does the X have a 0% intro period?" then "no introductory apr
    ...") or a reported one ("Cx asked about 0% promo -> none on this card") (module
    docstring). A question answered yes keeps its figures."""
    masked = extraction.masked
    if "?" not in masked and not any(w in masked for w in ("ask", "enquir", "inquir", "want")):
        return None
    units = extraction.units
    starts = [u[0] for u in units]
    memo: dict[int, bool] = {}

    def denied(claim: Claim, _masked: str) -> bool:
        if claim.family != INTRO_CLAIM or claim.months is not None or claim.low not in (None, 0):
            # what the question presupposes ("the X's $95 fee", "its 0% APR for 21 months") is
            # still a claim: only whether there is a 0% offer at all is asked
            return False
        k = bisect_right(starts, claim.start) - 1
        if k < 0 or claim.start >= units[k][1]:
            return False
        a, b = units[k]
        if a not in memo:
            memo[a] = _labeled_question_denied(masked, a, b)
        return memo[a] or _asked_and_denied(masked, a, claim.start, claim.end)

    return denied


__all__ = ["picks_29", "revise_29", "rewrite_29"]
