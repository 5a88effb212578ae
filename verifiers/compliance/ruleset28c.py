"""Ruleset 28, recommendations and own rates: a pick the earlier readings did not see as one,
and a rate whose kind is sure.

* ``picks_28`` - **the card a recommending clause leads to is recommended.** The readings of
  rulesets 4-27 look for a recommending word in the clause that names a card, so a pick whose
  name comes after a colon, comma or dash ("I recommend our top travel card, the **X**", "Short
  answer: the X", "I'd go straight to the top shelf: the **X**"), a pick made with a verb they do
  not list ("I'd look at the X", "I'd point you at **X**"), a pick "worth a look", and an answer
  that opens with a card's name after a question asking for a card ("> best card for dining?"
  then "X. 4% on dining ...") were no recommendation: a pick of a card whose annual fee the answer
  never states passed the disclosure rule, and an ineligible pick passed the eligibility rule.
  Here each is a recommendation - in the answer's own voice (first person, or its own label
  before the colon) and where the card ends its noun phrase ("the X's fee table" is none) -
  unless the card is ruled out anywhere, or its sentence asks, supposes ("if you travelled", not
  "if you want"), defers ("once your score", "in a year"), contrasts, reports another's pick
  ("your friend recommended"), rejects the card ("overkill", "avoid", "worst"), gives an example
  or an order of work, or is about the reader's own cards; or a question before it asks which
  card to close, is the most or least of something, or which of the reader's cards to use; or a
  price stands near it in a form the disclosure rule does not read ("$495-a-year", "bucks").
* ``own_rates_28`` - **a rate whose kind is sure is checked against that rate.** Rulesets 3-27
  pass a single rate when it equals any rate of its card, and rulesets 20 and 22 check a penalty
  or cash advance APR against its own term only when its words stand right at the figure; so
  "cash advances are a different story: 29.99% APR" on a card whose cash advance APR is 25.99%
  (and whose penalty APR is 29.99%) passed. A single rate that the typing gives one kind alone,
  cash advance or penalty, on one card, is checked against that APR - unless approximate, or its
  clause holds another APR, a change of rate ("jump to", "into", "takes over") or the scope as an
  exception ("except cash advances", "unless a penalty APR kicks in").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from replicas.verifiers.compliance import lexicon as lex
from replicas.verifiers.compliance.catalog import Catalog
from replicas.verifiers.compliance.findings import Finding, Tally
from replicas.verifiers.compliance.mentions import AMBIGUOUS, UNKNOWN
from replicas.verifiers.compliance.own_rates import rate_findings
from replicas.verifiers.compliance.ruleset8 import is_approximate
from replicas.verifiers.compliance.ruleset28 import SENTENCE_STOP, clause_before, span_around

if TYPE_CHECKING:
    from replicas.verifiers.compliance.claims import Claim, Extraction
    from replicas.verifiers.compliance.recommend import Recommendations

_MARK = r"(?:\*\*|__)?"
# a card named after a colon, comma or dash that ends the clause before it
_DEFERRED = re.compile(rf"(?:[:,]|[ \t][-\u2013\u2014])[ \t]*(?:(?:the|our)[ \t]+)?{_MARK}$")
# what makes that clause a pick, besides the recommending words of rulesets 4 and 7
_PICK_WORDS = re.compile(
    r"\b(?:recommend(?:s|ation)?|top[ \t]+shelf|go[ \t]+straight[ \t]+(?:to|for))\b"
)
# a label of the answer's own pick, right before the colon that leads to the card
_PICK_LABEL = re.compile(
    r"\b(?:short[ \t]+answer|tl;?dr|(?:my|our|top)[ \t]+(?:pick|answer|suggestion|vote|choice)"
    rf"|best[ \t]+bet|verdict|bottom[ \t]+line)[ \t]*{_MARK}[ \t]*$"
)
# whose pick: the answer's own (first person, or a label of its own answer)
_OWN_VOICE = re.compile(r"\b(?:i|i'd|i'll|i'm|i've|we|we'd|we'll|we're|my|our|me|us)\b")
# anywhere in the pick's sentence: a pick not made now, of another, or against the card
_NOT_A_PICK = re.compile(
    r"\b(?:if(?![ \t]+you(?:'re|[ \t]+are)?[ \t]+(?:want|need|prefer|like|looking|after|value|care"
    r"|plan|mostly|mainly|'d[ \t]+like|would[ \t]+like))|unless|were|had|once|when|whenever|later|someday|eventually|down[ \t]+the[ \t]+road"
    r"|in[ \t]+a[ \t]+(?:year|few|couple)|worst|close|closing|cancel\w*|drop\w*|cut\w*|trim\w*"
    r"|avoid\w*|against|hold\w*[ \t]+off|wait\w*|stay\w*[ \t]+away|instead|rather|than|over"
    r"|unlike|vs|versus|overkill|nah|nope|wrong|friend\w*|colleague\w*|partner\w*|recommended"
    r"|suggested|asked|whether|not|n't|never|between|depends|comes[ \t]+down|either|neither"
    r"|imagine|suppose\w*|hypothetical\w*|world[ \t]+where|example|illustration|instance"
    r"|see[ \t]+what|then|order|pay\w*[ \t]+(?:down|off)|one[ \t]+by[ \t]+one|walk\w*[ \t]+through"
    r"|your|current\w*|existing|already|other|old|applicant\w*|profile|persona|scenario|someone"
    r"|somebody|anyone|after|next|months?)\b"
)
# a price near the pick in a form the disclosure rule does not read as the annual fee ("a
# $495-a-year card", "150 bucks a year", "four hundred ninety-five dollars"): the pick is left to
# the earlier readings
_PRICE_NEAR = re.compile(r"\d-a-year\b|\b(?:dollars|bucks)\b")
# right after the card: the end of the pick's noun phrase (not "the X's fee table", "the X is
# overkill", "the X in a year or two")
_PHRASE_END = re.compile(rf"{_MARK}[ \t]*(?:[.!:;,(\n]|$|[-\u2013\u2014]|from\b|by\b|\((?!\s))")
# a pick by a verb the earlier readings do not list, right before the card
_VERB_PICK = re.compile(
    r"\bi(?:'d|[ \t]+would)[ \t]+(?:(?:probably|definitely|just|really|personally|also|first"
    r"|honestly)[ \t]+)?(?:look[ \t]+at|point[ \t]+you[ \t]+(?:at|to|toward|towards)"
    r"|go[ \t]+straight[ \t]+(?:to|for)|suggest"
    rf"|nominate)[ \t]+(?:(?:the|your)[ \t]+)?{_MARK}$"
)
_WORTH_A_LOOK = re.compile(
    rf"{_MARK}[ \t]+(?:is|'s)[ \t]+(?:(?:well|definitely|really|certainly)[ \t]+)?worth[ \t]+"
    r"(?:a|taking[ \t]+a)[ \t]+(?:closer[ \t]+|good[ \t]+|serious[ \t]+)?look\b"
)
# a quoted question asking for a card, and the answer's first line opening with one
_ASKS_FOR_CARD = re.compile(
    r"\b(?:best|which|what|recommend\w*|suggest\w*|should[ \t]+i[ \t]+(?:get|pick|choose|apply))"
    r"\b[^\n]{0,80}\bcards?\b|\bcards?\b[^\n]{0,40}\b(?:for[ \t]+me|should[ \t]+i)\b"
)
# a question asking which card to get rid of, or the worst one, asks for no pick
_ASKS_TO_DROP = re.compile(
    r"\b(?:close|closing|cancel\w*|drop\w*|cut\w*|ditch\w*|get[ \t]+rid|worst|avoid\w*|downgrade\w*"
    r"|most|highest|biggest|steepest|priciest|lowest|least|longest|shortest|costs?|my[ \t]+cards?"
    r"|use|pay[ \t]+off|put)\b"
)
_ANSWER_HEAD = re.compile(rf"[ \t]*{_MARK}(?:the[ \t]+)?{_MARK}$")
_ANSWER_TAIL = re.compile(rf"{_MARK}[ \t]*(?:[.!:]|[ \t]-|\n|$)")
_REACH = 240  # how far back a clause is read
_QUESTION_REACH = 600  # how far back a question is looked for (``PickReading.fact_asked``)


@dataclass(frozen=True)
class PickReading:
    """The patterns ``picks_28`` reads a pick with (ruleset 28's by default; ruleset 29 passes
    its own, ``ruleset29.READING_29``): the lead to a card after a colon, comma or dash; a label
    of the answer's own pick; and, when given, the words after which the reasons for a pick
    start, what in those reasons still unmakes it, and what in its sentence makes the card an
    answer to a factual or comparing question rather than a pick."""

    deferred: re.Pattern[str] = _DEFERRED
    label: re.Pattern[str] = _PICK_LABEL
    reasons: re.Pattern[str] | None = None
    against_reasons: re.Pattern[str] | None = None
    compared: re.Pattern[str] | None = None
    # a question before the card that asks a fact about the cards ("which has a transfer
    # offer?"), not for one to get ("which is best for me?")
    asks_fact: re.Pattern[str] | None = None
    asks_pick: re.Pattern[str] | None = None
    # a question about a card the reader holds ("the X I opened last year", "my X")
    asks_held: re.Pattern[str] | None = None
    # also read the question before the card from its own start to its "?" (ruleset 28 reads a
    # slice that goes wrong when the "?" stands in the first 120 characters of its window)
    whole_question: bool = False

    def fact_asked(self, masked: str, start: int) -> bool:
        """Whether the last question before ``start`` (a sentence ending with "?", or a quoted
        "> " line, within 600 characters) asks a fact, not a pick, or asks about a card the
        reader holds."""
        if self.asks_fact is None or self.asks_pick is None:
            return False
        floor = max(0, start - _QUESTION_REACH)
        asked = ("\n" if floor == 0 else "") + masked[floor:start]
        mark = asked.rfind("?")
        quoted = asked.rfind("\n>")
        if quoted > mark:
            line_end = asked.find("\n", quoted + 1)
            question = asked[quoted + 1 : line_end if line_end >= 0 else len(asked)]
        elif mark >= 0:
            question = asked[max(0, mark - 120) : mark + 1]
        else:
            return False
        if self.asks_held is not None and self.asks_held.search(question):
            return True
        return bool(self.asks_fact.search(question)) and not self.asks_pick.search(question)


READING_28 = PickReading()


def _answer_opening(masked: str, start: int) -> bool:
    """The card opens the first line of an answer to a quoted question asking for a card."""
    line_start = masked.rfind("\n", max(0, start - 40), start) + 1
    if not _ANSWER_HEAD.fullmatch(masked, line_start, start):
        return False
    floor = max(0, line_start - 400)
    before = masked[floor:line_start].rstrip("\n \t")
    if not before:
        return False
    question = before[before.rfind("\n") + 1 :]
    return (
        question.lstrip().startswith(">")
        and bool(_ASKS_FOR_CARD.search(question))
        and not _ASKS_TO_DROP.search(question)
    )


def _sentence_of(
    masked: str, start: int, end: int, reasons: re.Pattern[str] | None
) -> tuple[str, str]:
    """The sentence around ``masked[start:end]`` (at most ``_REACH`` characters either side),
    and the part of it read for what unmakes a pick: all of it, or with ``reasons`` only up to
    the first of them after the card (ruleset 29: the reasons given for a pick do not unmake
    it)."""
    low, high = span_around(masked, start, end, _REACH, SENTENCE_STOP)
    why = reasons.search(masked, end, high) if reasons is not None else None
    return masked[low:high], masked[low : why.start() if why is not None else high]


def _unmade(sentence: str, read: str, reading: PickReading) -> bool:
    """Whether the pick's sentence unmakes it: ``_NOT_A_PICK`` in the part read, and (with a
    later ruleset's reading) its own words in the reasons after that part, or a comparison in
    it."""
    if _NOT_A_PICK.search(read):
        return True
    if reading.against_reasons is not None and reading.against_reasons.search(sentence, len(read)):
        return True
    return reading.compared is not None and reading.compared.search(read) is not None


def _picked(masked: str, start: int, end: int, reading: PickReading = READING_28) -> bool:
    """The card at ``masked[start:end]`` is the answer's own pick, made now (module docstring;
    ``reading``: the patterns, ruleset 28's or a later ruleset's)."""
    if reading.fact_asked(masked, start):
        return False
    if _answer_opening(masked, start):
        return (
            _ANSWER_TAIL.match(masked, end) is not None
            and not _unmade(*_sentence_of(masked, start, end, reading.reasons), reading)
            and not _PRICE_NEAR.search(masked, end, min(len(masked), end + 200))
        )
    window = masked[max(0, start - _REACH) : start]
    clause = clause_before(masked, start, _REACH)
    deferred = reading.deferred.search(window)
    if deferred is not None:
        lead = clause_before(masked, start - (len(window) - deferred.start()), _REACH)
        # a label of the answer's own pick right before the colon ("Short answer:", "My pick:"),
        # or a recommending verb in the answer's own voice ("I recommend our top card, the X")
        picked = "#" not in lead and (
            reading.label.search(lead) is not None
            or (
                _OWN_VOICE.search(lead) is not None
                and (
                    _PICK_WORDS.search(lead) is not None
                    or lex.RECOMMEND_MORE.search(lead) is not None
                    or lex.RECOMMEND_7.search(lead) is not None
                )
            )
        )
    else:
        picked = bool(_VERB_PICK.search(window)) or bool(_WORTH_A_LOOK.match(masked, end))
    if not picked or lex.NEGATION.search(clause) is not None:
        return False
    sentence, read = _sentence_of(masked, start, end, reading.reasons)
    if sentence.rstrip().endswith("?") or _unmade(sentence, read, reading):
        return False
    if _PRICE_NEAR.search(masked, max(0, start - 80), min(len(masked), end + 200)):
        return False
    asked = masked[max(0, start - _REACH) : start]
    if "?" in asked:
        mark = asked.rfind("?")
        if _ASKS_TO_DROP.search(asked[mark - 120 :]):
            return False  # "Which would I nominate as the worst value? I'd nominate the X."
        if reading.whole_question and _ASKS_TO_DROP.search(asked[max(0, mark - 120) : mark + 1]):
            return False
    return (
        _WORTH_A_LOOK.match(masked, end) is not None or _PHRASE_END.match(masked, end) is not None
    )


def picks_28(
    masked: str,
    extraction: Extraction,
    recs: Recommendations,
    reading: PickReading = READING_28,
) -> Recommendations:
    """``recs`` with the cards a recommending clause leads to (module docstring; ``reading``:
    ruleset 28's patterns, or ruleset 29's, ``ruleset29.picks_29``)."""
    from replicas.verifiers.compliance.recommend import Recommendations

    positive = dict(recs.positive)
    changed = False
    for m in extraction.mentions:
        card_id = m.card_id
        if m.kind in (UNKNOWN, AMBIGUOUS) or card_id is None:
            continue
        if card_id in positive or card_id in recs.negated:
            continue
        if _picked(masked, m.start, m.end, reading):
            positive[card_id] = m
            changed = True
    return Recommendations(positive, recs.negated) if changed else recs


# -- own_rates_28 ----------------------------------------------------------------------------------


def own_rates_28(
    catalog: Catalog, extraction: Extraction, findings: list[Finding], tally: Tally
) -> list[Finding]:
    """Findings for a single rate typed as one card's cash advance or penalty APR and nothing
    else ("cash advances are a different story: 29.99% APR", "cash advances are charged 26.24%",
    "penalty APR? 29.99% if you pay late") when it is not that APR. Rulesets 3-27 passed any
    rate of the card there (a misread kind must not become a violation); rulesets 20 and 22
    checked the kind only when its words stand right at the figure. The typing is as sure when
    its clause's scope word leaves no other kind open, so the rate is checked against that APR -
    unless it is approximate, or its clause holds another rate, a change of rate or the scope as
    an exception ("the X's 14.99% can jump to 29.99%", "turn a 19.99% APR into the penalty rate",
    "14.99% on everything except cash advances").
    """
    masked = extraction.masked

    def own(claim: Claim) -> str | None:
        label = _OWN_KINDS.get(claim.kind)
        if label is None or claim.kinds != frozenset({claim.kind}):
            return None
        clause = _clause_around(masked, claim.start, claim.end)
        rates = sum(float(r) >= _APR_FLOOR for r in _PERCENT.findall(clause))
        if rates > 1 or _MOVES.search(clause) or _NEGATED.search(clause):
            return None
        if is_approximate(masked, claim):
            return None
        return label

    return rate_findings(catalog, extraction, findings, tally, own)


_OWN_KINDS = {"cash_advance": "cash advance APR", "penalty": "penalty APR"}
# another rate after the figure in its clause: the figure is the one it moves from
_NEGATED = re.compile(r"\b(?:not|never|no)\b|n't\b")
_PERCENT = re.compile(r"\b(\d{1,2}(?:\.\d{1,2})?)[ \t]?%")
_APR_FLOOR = 10.0  # an APR is ten percent or more; a fee or an intro rate is less
# in the rate's clause: another rate, a change of rate, or the scope as an exception - the rate
# may be the one a penalty moves from ("turn a 19.99% APR into the penalty rate") or the purchase
# rate ("14.99% on everything except cash advances")
_MOVES = re.compile(
    r"\b(?:to|into|replac\w*|takes?[ \t]+over|jump\w*|ris(?:e|es|ing)|go(?:es)?[ \t]+up"
    r"|climb\w*|increas\w*|kicks?[ \t]+in|as[ \t]+high[ \t]+as|except\w*|exclud\w*|aside"
    r"|other[ \t]+than|not[ \t]+counting|unless|barring|besides|apart[ \t]+from|only)\b"
)


def _clause_around(masked: str, start: int, end: int) -> str:
    """The clause of ``masked[start:end]`` (at most ``_REACH`` characters either side)."""
    low, high = span_around(masked, start, end, _REACH)
    return masked[low:high]


__all__ = ["own_rates_28", "picks_28"]
