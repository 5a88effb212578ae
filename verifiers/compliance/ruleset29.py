"""Ruleset 29, the s33 blind sets' tuning halves: a pick after a bold label, a card headed by
an emoji, an intro rate with its months after a slash (recall), and a reader's question the
answer denies, a value net of the fee, a compound number around "hundred" (precision).

Ruleset 28 was read on the tuning halves of s33 (w29-w32, seeds 251-258) after its first reading
there. Of its 15 misses, 8 were ``ineligible_card``; three classes of them are phrasings any
writer uses:

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
* ``options_29`` - **a card's name alone on its line between emoji, in a section of picks, is
  offered** (the eligibility rule only, as ruleset 19's bare headings): "✨ Willow Cash Back
  360" and "**Meridian Business Rewards Preferred** 💳" head a block of terms under "shortlist:"
  or "my picks:"; ruleset 19 read a line holding only a name (with "#" or bold) and no other
  mark. Up to three emoji or pictographs may stand on either side of the name. The section's
  lead (the nearest markdown heading or line ending with a colon before it) must name picks,
  options or a shortlist and must not put them aside ("not", "later", "already hold", "out of
  reach", ...); a mark that rules out, warns, defers or doubts ("❌", "🚫", "⚠️", "🔒", "🔜",
  ...) on the line or the lead makes no offer; and the card's entry (its terms, sub-list and
  paragraphs up to the next lead or the next line naming a card) and every line naming it are
  read for ruleset 19's rule-outs.
* ``slash_29`` - **"0% / 15mo" is a rate for fifteen months.** A table cell or list item
  "intro purch | 0% / 15mo" gave the rate and no duration, so a wrong number of months passed.
  A percentage under 10 followed by a slash and a number of months ("mo", "mos", "mths",
  "months") reads as "0% for 15mo"; a fee's minimum after a slash ("5%/$10") is no duration.

Of ruleset 28's false flags on the tuning halves of s32 and s33, three classes are phrasings
any writer uses (the figure is unverified, as one the grammar cannot attribute):

* ``questions_29`` - **a reader's question that the answer denies asks, and claims nothing.**
  "**q (from the comments):** does the X have a 0% intro period?" then "no introductory apr
  ...", and a note's "Cx asked about 0% promo -> none on this card": ruleset 18 read a question
  only when it opened its sentence. A question after a label naming a question, a comment or
  its asker, and a figure after "asked about" / "asked if" in a note, are unverified when the
  answer right after denies ("no", "none", "not", "there is no", "it doesn't"); a question
  answered yes, or not answered, keeps its figures.
* ``nets_29`` - **"$350 after the first-year fee" is a value net of the fee.** A dollar figure
  followed by "after the (first-year / annual) fee", "net of the fee", "less the fee", with that
  phrase ending its clause, is unverified ("$95 after the first-year fee waiver ends" is a fee).
* ``hyphens_29`` - **"a two-hundred-fifty-dollar annual fee" is $250.** The number words read
  "two hundred fifty" but not the hyphenated compound adjective, so the fee read $50; the
  hyphens around "hundred" in a compound number read as spaces.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claims import unbind_claims
from replicas.verifiers.compliance.expansions import apply_first_replacements
from replicas.verifiers.compliance.mentions import AMBIGUOUS
from replicas.verifiers.compliance.ruleset19 import Lines19, rules_out_19
from replicas.verifiers.compliance.ruleset28c import _MARK, PickReading, picks_28

if TYPE_CHECKING:
    from collections.abc import Callable

    from replicas.verifiers.compliance.claims import Claim, Extraction
    from replicas.verifiers.compliance.mentions import NameMention
    from replicas.verifiers.compliance.recommend import Recommendations
    from replicas.verifiers.compliance.text import NormalizedText

# -- picks_29 --------------------------------------------------------------------------------------

# ruleset 28's lead to a card after a colon, comma or dash, with a bold that closes after the
# colon or the dash ("**The short answer:** the **X**", "**Short answer -** the X")
_DEFERRED_29 = re.compile(
    rf"(?:[:,]|[ \t][-\u2013\u2014]){_MARK}[ \t]*(?:(?:the|our)[ \t]+)?{_MARK}$"
)
# ruleset 28's labels of the answer's own pick, read after an underscore too ("__Verdict:__"),
# with "quick answer" and "in short"
_PICK_LABEL_29 = re.compile(
    r"(?<![a-z0-9])(?:short[ \t]+answer|quick[ \t]+answer|in[ \t]+short|tl;?dr|(?:my|our|top)"
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
    r"|cancel\w*|of[ \t]+the[ \t]+(?:two|three|four|five|bunch|lot))\b"
)
# what makes the card the answer to a factual or comparing question, before its reasons: a
# superlative or comparison ("the lowest variable range of the three") or a second card named
_COMPARED_29 = re.compile(
    r"#[^#\n]+#|(?<![a-z])(?:highest|lowest|most|least|only|priciest|cheapest|longest|shortest"
    r"|biggest|smallest|largest|steepest|costliest|higher|lower|than|vs|versus|unlike|compared"
    r"|whereas)\b"
)
# a question asking a fact about the cards ("Which Orion card has a balance transfer offer?",
# "Which of these would I be turned down for?") ...
_ASKS_FACT_29 = re.compile(
    r"\b(?:which|what|whichever)\b[^?\n]{0,80}?\b(?:has|have|had|is|are|was|were|charges?"
    r"|offers?|gives?|comes|carries|costs?|would|could|can't|cannot|won't|turned|denied|declined"
    r"|rejected)\b"
)
# ... not for a card to get ("Which card is best for me?", "which would you recommend?")
_ASKS_PICK_29 = re.compile(
    r"\b(?:best|better|for[ \t]+me|should|recommend\w*|suggest\w*|suit\w*|right|good|worth"
    r"|go[ \t]+for|get|apply|pick|choose|start)\b"
)
READING_29 = PickReading(
    _DEFERRED_29,
    _PICK_LABEL_29,
    _REASONS_29,
    _AGAINST_REASONS_29,
    _COMPARED_29,
    _ASKS_FACT_29,
    _ASKS_PICK_29,
)


def picks_29(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """``recs`` with the cards a recommending clause leads to, as ruleset 28 reads them plus a
    label bold after its colon and with the reasons for a pick read apart (module docstring)."""
    return picks_28(masked, extraction, recs, READING_29)


# -- options_29 ------------------------------------------------------------------------------------

# an emoji or pictograph (with its variation selector or joiner)
_DECOR = r"[\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff][\ufe0f\u200d]*"
# marks that rule a card out, warn, defer or doubt ("❌ X", "🚫 X", "⚠️ X", "🔒 X", "🔜 X"): no
# offer where they stand on the heading's line or its section's lead
_AGAINST = re.compile(
    "[\u274c\u274e\u2716\u2717\u2718\u26a0\u26d4\u23f3\u231b\u23f8\u2753\u2754"
    "\U0001f6ab\U0001f6d1\U0001f44e\U0001f645\U0001f480\U0001f4a9\U0001f534\U0001f7e5"
    "\U0001f7e0\U0001f7e1\U0001f7e7\U0001f7e8\u2639\U0001f612\U0001f62c\U0001f615"
    "\U0001f641\U0001f61e\U0001f494\U0001f512\U0001f510\U0001f4c9\U0001f5d1\U0001f937"
    "\U0001f51c\U0001f4b8\U0001f6b7\U0001f648\U0001f914\U0001f928\U0001f9ca\U0001f422"
    "\U0001f4a4\U0001f6a7\U0001f6a8\U0001f331\U0001f33f\U0001f333\U0001f4c5\U0001f5d3]"
)
_BARE_HEAD_29 = re.compile(
    rf"[ \t]*(?:#{{1,6}}[ \t]+)?(?:{_DECOR}[ \t]*){{0,3}}(?:\*\*|__)?[ \t]*(?:{_DECOR}[ \t]*){{0,3}}"
)
_BARE_TAIL_29 = re.compile(
    rf"[ \t]*(?:\*\*|__)?[ \t]*(?:{_DECOR}[ \t]*){{0,3}}(?:\*\*|__)?[ \t]*:?[ \t]*"
)
_ANY_DECOR = re.compile(_DECOR)
_HEAD_REACH_29 = 40
# the lead of a section of picks ("my picks:", "shortlist:", "## Your options") ...
_PICKS_LEAD_29 = re.compile(
    r"\b(?:picks?|shortlist|short[ \t]+list|shortlisted|options?|recommend\w*|suggest\w*"
    r"|top[ \t]+(?:\d|two|three|four|five|choices?)|best[ \t]+(?:bets?|cards?|fits?|options?|matches)"
    r"|contenders?|candidates?)\b"
)
# ... that does not put the cards aside, off, in the past or in another's hands
_LEAD_AGAINST_29 = re.compile(
    r"\b(?:not|n't|no|never|nor|later|once|someday|eventually|future|next|hold|holds|held|have"
    r"|has|already|current\w*|wallet|friend\w*|partner\w*|colleague\w*|spouse|skip\w*|avoid\w*"
    r"|ruled|out|reach|stretch|revisit\w*|upgrade\w*|wait\w*|after|when|if|unless|other|others"
    r"|compar\w*|vs|versus|considered|rejected|instead|less|worse|worst|weak\w*|downside\w*"
    r"|need\w*|requir\w*|better|higher|improv\w*|rebuild|step|ladder|path|goal\w*)\b"
)
_STRIP_29 = re.compile(rf"(?:[ \t*_>#\-\u2022|]|{_DECOR})+")
_LEAD_LINES_29 = 40
_LEAD_REACH_29 = 3000
_ENTRY_REACH_29 = 800


def _decorated(text: str, mention: NameMention, a: int, b: int) -> bool:
    """Whether the mention (on the line ``[a, b)``) is alone on its line between emoji, none of
    which rules it out, warns, defers or doubts."""
    if mention.start - a > _HEAD_REACH_29 or b - mention.end > _HEAD_REACH_29:
        return False
    if not _BARE_HEAD_29.fullmatch(text, a, mention.start):
        return False
    if not _BARE_TAIL_29.fullmatch(text, mention.end, b):
        return False
    if not _ANY_DECOR.search(text, a, mention.start) and not _ANY_DECOR.search(
        text, mention.end, b
    ):
        return False  # ruleset 19's own bare heading
    return _AGAINST.search(text, a, b) is None


def _is_lead(line: str) -> bool:
    """A section's lead: a markdown heading, or a line ending with a colon."""
    return line.lstrip(" \t>").startswith("#") or _STRIP_29.sub(" ", line).rstrip().endswith(":")


def _section_lead(text: str, line_start: int) -> str:
    """The lead of the section holding the line at ``line_start``: the nearest line before it
    that is a markdown heading or ends with a colon (within 40 lines and 3,000 characters)."""
    pos = line_start - 1
    floor = max(0, line_start - _LEAD_REACH_29)
    for _ in range(_LEAD_LINES_29):
        if pos <= floor:
            return ""
        a = text.rfind("\n", floor, pos) + 1
        line = text[a:pos]
        pos = a - 1
        if _is_lead(line):
            return line
    return ""


def _entry_stop(text: str, line_end: int, others: list[int]) -> int:
    """The end of a heading's entry: before the next section lead or the next line naming a
    card (its terms, sub-list and paragraphs up to then; 800 characters at most)."""
    stop = min(len(text), line_end + _ENTRY_REACH_29)
    k = bisect_right(others, line_end)
    if k < len(others) and others[k] < stop:
        stop = text.rfind("\n", line_end, others[k]) + 1 or stop
    pos = line_end
    while pos < stop:
        nxt = text.find("\n", pos + 1, stop)
        nxt = stop if nxt < 0 else nxt
        if _is_lead(text[pos + 1 : nxt]):
            return pos
        pos = nxt
    return stop


def options_29(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """``recs`` with the cards alone on their line between emoji in a section of picks offered
    (the eligibility rule only), unless ruled out (module docstring)."""
    from replicas.verifiers.compliance.recommend import Recommendations

    if not _ANY_DECOR.search(masked):
        return recs
    mentions = [m for m in extraction.mentions if m.card_id is not None and m.kind != AMBIGUOUS]
    lines = Lines19(masked)
    starts = [m.start for m in mentions]
    # a card ruled out on any line naming it, alone or with others
    ruled = set(recs.negated)
    for m in mentions:
        a, b = lines.of(m.start)
        if m.card_id not in ruled and rules_out_19(masked, a, b):
            ruled.add(m.card_id)
    positive = dict(recs.positive)
    changed = False
    for m in mentions:
        card_id = m.card_id
        if card_id is None or card_id in positive or card_id in ruled:
            continue
        a, b = lines.of(m.start)
        if not _decorated(masked, m, a, b):
            continue
        lead = _section_lead(masked, a)
        if (
            not lead
            or _PICKS_LEAD_29.search(lead) is None
            or _LEAD_AGAINST_29.search(lead) is not None
            or _AGAINST.search(lead) is not None
            or rules_out_19(lead, 0, len(lead))
        ):
            continue
        if rules_out_19(masked, a, _entry_stop(masked, b, starts)):
            continue
        positive[card_id] = m
        changed = True
    return Recommendations(positive, recs.negated) if changed else recs


# -- slash_29 --------------------------------------------------------------------------------------

_SLASH_29 = re.compile(
    r"(?<![\d.,])(?P<pct>\d(?:\.\d{1,2})?)[ \t]*%(?P<slash>[ \t]*/[ \t]*)"
    r"(?=\d{1,2}[ \t]*(?:mo|mos|mths?|months?)\b)"
)


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
        found += [(m.start("slash"), m.end("slash"), " for ") for m in _SLASH_29.finditer(lower)]
    if hyphens and ("hundred-" in lower or "-hundred" in lower):
        for m in _HUNDRED_HYPHENS_29.finditer(lower):
            found += [(m.start(g), m.end(g), " ") for g in ("h1", "h2", "h3") if m.start(g) >= 0]
    return apply_first_replacements(norm, found) if found else norm


# -- questions_29 ----------------------------------------------------------------------------------

# a question after a label of the reader's question ("**comment reply** - does the X have ...?",
# "**q (from the comments):** does ...?"): the label names a question, a comment or its asker
_LABELED_QUESTION_29 = re.compile(
    r"[^?\n]{0,40}?\b(?:q|question|questions|comment|comments|reply|reader|mailbag|asks|asked"
    r"|dm|user|customer|cx)\b[^?\n:]{0,24}?(?::|[ \t][-\u2013\u2014])[ \t*_]*"
    r"(?:can|could|does|do|is|are|will|would|should|what|which|how|when|where|who)\b"
)
# a question reported in a note ("Cx asked about 0% promo -> none on this card")
_ASKED_29 = re.compile(
    r"\b(?:asked|asks|enquired|inquired|wanted[ \t]+to[ \t]+know)[ \t]+(?:about|re|abt|if"
    r"|whether)\b[^\n.;:?!\u2192\u2013\u2014>]{0,60}$"
)
# where a reported question ends and its answer starts
_ANSWER_MARK_29 = re.compile(r"[ \t]*(?:->|=>|\u2192|[:\u2013\u2014]|[ \t]-[ \t])")
# an answer that denies what was asked: no, none, not, there is no ...
_DENIED_29 = re.compile(
    r"[\s>*#_-]*(?:(?:a|answer)[ \t]*[:.)-][ \t]*)?[*_]{0,2}[ \t]*"
    r"(?:no|nope|nah|none|not|n/a|never|there(?:'s|[ \t]+is)[ \t]+no|it[ \t]+(?:doesn't|does"
    r"[ \t]+not|has[ \t]+no|isn't|is[ \t]+not))\b"
)
_MARKUP_29 = " \t\n*_#>-\u2022|"
_ASKED_REACH_29 = 80


def _labeled_question_denied(masked: str, a: int, b: int) -> bool:
    """The unit ``masked[a:b]`` is a labelled reader's question that the answer after it denies."""
    body = masked[a:b].strip(_MARKUP_29)
    if not body.endswith("?") or _LABELED_QUESTION_29.match(body) is None:
        return False
    return _DENIED_29.match(masked, b) is not None


def _asked_and_denied(masked: str, a: int, start: int, end: int) -> bool:
    """The figure at ``masked[start:end]`` is what a reported question asked about ("asked about
    0% promo"), and the answer after it denies it ("-> none")."""
    if _ASKED_29.search(masked, max(a, start - _ASKED_REACH_29), start) is None:
        return False
    stop = min(len(masked), end + _ASKED_REACH_29)
    for k in range(end, stop):
        mark = _ANSWER_MARK_29.match(masked, k)
        if mark is not None:
            return _DENIED_29.match(masked, mark.end()) is not None
        if masked[k] in "\n.;?!":
            return False
    return False


# a dollar figure worked out net of the fee, the phrase ending its clause: "$350 after the
# first-year fee." (rewritten "after the annual fee the first year"), "$120 net of the annual
# fee," (not "$95 after the first-year fee waiver ends")
_NET_AFTER_29 = re.compile(
    r"[ \t*_]*(?:\([^()\n]{0,30}\)[ \t]*)?(?:a[ \t]+year[ \t]+|/[ \t]*yr[ \t]+|per[ \t]+year[ \t]+)?"
    r"(?:net[ \t]+)?(?:after|net[ \t]+of|less|minus)[ \t]+(?:(?:the|its|that|their|paying"
    r"(?:[ \t]+the)?)[ \t]+)?(?:first[- \t]year|annual|yearly|\$[\d,]+)?[ \t]*(?:annual[ \t]+)?fees?\b"
    r"(?:[ \t]+(?:the|in)[ \t]+(?:first[ \t]+year|year[ \t]+one))?(?:\[\d{1,2}\]|[*\u2020])?"
    r"[ \t*_]*(?:[.,;:)!?\n]|$)"
)


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
    """A dollar figure followed by "after the first-year fee" (or "net of the annual fee")."""
    return "$" in claim.text and _NET_AFTER_29.match(masked, claim.end) is not None


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
        k = bisect_right(starts, claim.start) - 1
        if k < 0 or claim.start >= units[k][1]:
            return False
        a, b = units[k]
        if a not in memo:
            memo[a] = _labeled_question_denied(masked, a, b)
        return memo[a] or _asked_and_denied(masked, a, claim.start, claim.end)

    return denied


__all__ = ["options_29", "picks_29", "revise_29", "rewrite_29"]
