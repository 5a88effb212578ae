"""Ruleset 26, part b: figures that are no claims about a card's terms - results the answer says
are the reader's, labels and quotations, "no 0% transfer offer", and terms the reader acts on
(``results_26``, ``labels_26``, ``offers_26``, ``fees_26``; ``ruleset26`` describes each reading
and holds ``revise_26``, which calls these).

See "Ruleset 26" in ``verifiers/compliance/RULESETS.md``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import replace

from replicas.verifiers.compliance.claims import Claim
from replicas.verifiers.compliance.ruleset25b import sentence_start

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
