"""Ruleset 30, the s34 and s36 blind sets' false flags: talk about promotions in general, a table
cell holding two intro offers, a sum of fees, a card excepted from "no annual fee", the
customer's own cards reviewed, "$10k" and a transfer fee worked out (precision).

Ruleset 29's first reading of s34 (w33-w36, seeds 261-268) flagged 53 of its 400 honest answers.
Stop 43's closing note named the classes of their tuning halves' false flags; the texts were lost
with the scratch space, so each class was rebuilt in our own wording and reproduced a ruleset-29
false flag before a reading was written (RULESETS.md, "Ruleset 30"). Four readings; a figure
they read is unverified (as one the grammar cannot attribute), or read with its own words:

* ``promos_30`` - **talk about promotions in general denies no card's offer.** "Plan to be at
  zero before the promo ends", "new purchases may not share the promo rate", "you'd pay interest
  if there's no promo": ruleset 29 read each as "the card has no intro offer" and flagged a card
  that has one. A denial of an intro offer claims nothing where its negator is

  - a "zero" that counts a balance ("at / to / hit zero", not "to zero promo APR");
  - hedged ("may not", "might not", "not necessarily"; not "won't", "can not", "couldn't");
  - in an if-clause ("if / unless there's no promo", "if the card has no intro"; not "even if",
    "as if", "you asked if", ", if there's no promo to speak of", nor a question echoed: "...
    if there's no promo on the X?").

  Not where what follows asserts it of the card after all: within about 100 characters, another
  negation, a card's name or an assertion ("may not carry any promo at all", "from day one", "on
  this card", "- and there isn't -", "(the X has none)", "like the X", ". It doesn't.", "that's
  because"). "The X has no intro APR", "no promo on the X", "zero intro APR", "X won't give you an
  intro APR", "X is a card with no promo" still claim. Cards in general ("on a card with no promo")
  and the time after an offer ("once the promo is over there's no ...") were read too and dropped:
  three red-team rounds found cards named around them in ways no gate caught.
* ``cells_30`` - **"0% purchases, 15 mo + 0% transfers, 21 mo" is two offers.** In a table
  cell, ruleset 29 gave the first rate no months and the second the first's ("0% on balance
  transfers for 15 months"). An intro rate followed by its own kind word and months, then the
  cell's end or the next offer, is read with those months; a claim of another kind on the same
  rate is left alone, and no kind is taken off a claim.
* ``totals_30`` - **"$645 in combined fees" is a sum.** A dollar figure with a sum's word ("in
  combined / joint / total fees", "together", "altogether", "all told", "in total", "between
  them", "a combined ... of"; not "together with", "combined with") is no card's fee where it
  equals the annual (or first-year) fees of all the cards named before it in its own clause, two
  or more, each with a fee. A wrong sum, two cards of three, and a single card's "total annual
  fee of $790" keep their claim.
* ``except_30`` - **"Most of these have no annual fee, except the X at $150" says nothing of
  X's fee being none.** A denial whose subject is a group ("most / all / these / both / the rest
  / none of ...") is taken off the cards its except-phrase names ("except (for)", "other than",
  "apart from", "aside from", "besides", "save for", "but not", "with the exception of",
  "excluding") when the phrase opens with a card ("except that ...", "other than the X's lounge
  passes" except none): after the denial, up to a clause of its own or a word that puts a card in
  the group ("including", "even", "as does", "though"); or between the group and its verb, where
  the phrase is only a list of cards ("all of these except the X ($495) have no annual fee"). A
  card as the subject keeps its claim, and a group listed after the denial's colon is left alone.

Then s36's tuning halves (w41-w44, seeds 281-288), after ruleset 30's first reading there gave
every answer 29's codes (``held_30``, a reading of recommendations, is in ``ruleset30b``):

* ``held_30`` - **the customer's own cards, reviewed, are not put forward** ("Keep your X", a
  "Keep" verdict cell, "You're carrying:"; ``ruleset30b``).
* ``thousands_30`` - **"$10k" is ten thousand dollars**, no $10 fee, where words of spending,
  budgets or balances stand beside it ("$10k/yr on other stuff", "an under-$25k budget", "$4.9k/yr
  dining"), never in a table row; "AF $1k", "a $1k annual fee", "it runs $1k a year" stay fees
  (read as $1, and wrong).
* ``worked_30`` - **a transfer fee worked out is arithmetic**: a dollar figure bound as a fee of
  no named kind (or a transfer or cash advance fee) equal to the card's transfer or cash advance
  fee on an amount the answer moves, owes or transfers ("$8,000 ... 4% fee ... - fee: $320").
* ``totals_30``, a second shape - **"That's $745/yr in fees" after a list**: followed by "in
  (annual) fees", in a sentence that names no card, equal to the annual fees of every
  fee-charging card named in the 400 characters before it (two or more, the claimed card among
  them). Both shapes sum annual fees only (first-year fees where the sentence says year one),
  never late or other fees.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import FEE_CLAIM, INTRO_CLAIM
from replicas.verifiers.compliance.claims import unbind_claims

if TYPE_CHECKING:
    from collections.abc import Callable

    from replicas.verifiers.compliance.catalog import Catalog
    from replicas.verifiers.compliance.claims import Claim, Extraction
    from replicas.verifiers.compliance.mentions import NameMention


# -- promos_30 -------------------------------------------------------------------------------------

# "zero" that counts a balance: "be at zero", "pay it down to zero", "hit zero"
_ZERO_BALANCE_30 = re.compile(r"\b(?:at|to|hit|hits|hitting|reach|reaches|reaching)[ \t]+$")
_ZERO_OFFER_30 = re.compile(
    r"zero[ \t-]+(?:0[ \t]*%|intro\w*|promo\w*|teaser|interest|apr|percent|%|rate|offers?|deals?"
    r"|months?|special|financing|balance[ \t-]+transfer)"
)
# after a denial: it is about this card's terms ("no intro APR on this card", "from day one")
_THIS_CARD_30 = re.compile(
    r"[^.;:\n]{0,40}?\b(?:on|with)[ \t]+(?:this|that|the|its)[ \t]+(?:card|one|#)"
    r"|[^.;:\n]{0,40}?\b(?:from[ \t]+day[ \t]+one|at[ \t]+all|whatsoever)\b"
)
# "even if", "as if", "no matter if", "a decent card, if there's no promo to speak of": a
# concession, not a hypothetical; "you asked if": a question reported
_CONCESSIVE_30 = re.compile(
    r"(?:\b(?:even|as|matter|only|asked|ask|asks|asking|wonder\w*|know|check\w*|see|question)"
    r"[ \t]+(?:me[ \t]+|us[ \t]+)?|,[ \t]*)(?:if|unless)\b[^,;:.\n]*$"
)
# an aside after a hypothetical denial that asserts it of the card ("- and there isn't -", "(the X
# has none)", ", as is the case with both options above")
_CONFIRMED_30 = re.compile(
    r"[^.;\n]{0,40}?(?:[-\u2014\u2013(,][ \t]*(?:and|as|which)\b|\()[^.;\n]{0,50}?"
    r"(?:n't\b|\b(?:has|have)[ \t]+none\b|(?:\bis|'s)[ \t]+the[ \t]+case\b|\bnone\b"
    r"|\bno[ \t]+(?:promo|intro)|(?:\bis|'s)[ \t]+(?:right|correct|true)\b|\bcorrect\b|\bindeed\b)"
)
# after a hedged or hypothetical denial, in its sentence or the next clause: another negation, a
# card named, or an assertion ("- it doesn't", "; it has none", ", period", "like the X", "(true
# of the X)", "that's because", "on day one")
_ASSERTED_30 = re.compile(
    r"[^\n]{0,100}?(?:n't\b|\bnot\b|\bnone\b|\bno\b|\black\w*|\bperiod\b|\bfull[ \t]+stop\b"
    r"|\bday[ \t]+one\b|\bfirst[ \t]+(?:purchase|day|statement)\b|\bbecause\b|\btrue\b"
    r"|\bsituation\b|\bcase\b|#)"
)
# a hedge right before the negator: "may not", "might not" (not "won't", "can not", "couldn't")
_HEDGE_30 = re.compile(r"\b(?:may|might)(?:[ \t]+(?:well|also|still|sometimes|often))?[ \t]+$")
_HEDGE_AFTER_30 = re.compile(r"[ \t]+necessarily\b")
# a hypothetical right before the negator: "if there's no promo"
_IF_30 = re.compile(
    r"\b(?:if|unless)[ \t]+(?:there(?:'s|[ \t]+is|[ \t]+are|'re|[ \t]+was"
    r"|[ \t]+were)|(?:the|a|your|that)[ \t]+card[ \t]+(?:has|had|offers|comes[ \t]+with)"
    r"|it[ \t]+(?:has|had|offers)|you[ \t]+(?:have|had|get|got))[ \t]+(?:a[ \t]+|an[ \t]+|any[ \t]+)?$"
)


def _generic_promo_30(claim: Claim, masked: str) -> bool:
    """A denial of an intro offer that claims nothing about the card (module docstring)."""
    if claim.family != INTRO_CLAIM or not claim.is_none:
        return False
    text = masked[claim.start : claim.end]
    before = masked[max(0, claim.start - 90) : claim.start]
    if (
        text.startswith("zero")
        and _ZERO_BALANCE_30.search(before)
        and _ZERO_OFFER_30.match(masked, claim.start) is None
    ):
        return True
    if _THIS_CARD_30.match(masked, claim.end) or _CONFIRMED_30.match(masked, claim.end):
        # "may not carry any promo at all", "if there's no promo on it - and there isn't -"
        return False
    if _ASSERTED_30.match(masked, claim.end):
        # what follows asserts it after all ("- it doesn't.", "; it has none", ", period", "like
        # the X", "that's because ...")
        return False
    if text.startswith(("not", "n't")) or before.endswith("n't"):
        head = before[:-3] if before.endswith("n't") else before
        if _HEDGE_30.search(head) or _HEDGE_AFTER_30.match(masked, claim.start + 3):
            return True
    if text.startswith("without"):
        before += "without "
    if _IF_30.search(before) and _CONCESSIVE_30.search(before) is None:
        # a hypothetical, not a question echoed ("... if there's no intro APR on the X?")
        _, end = _sentence(masked, claim.start, claim.end)
        return masked[end : end + 1] != "?"
    return False


# -- totals_30 -------------------------------------------------------------------------------------

# a sum's word after the figure ("$645 in combined fees", "$645 a year between them", "$645 all
# told"; not "together with", "combined with") or before it ("a combined $645", "a total of")
_TOTAL_AFTER_30 = re.compile(
    r"[ \t]*(?:(?:a|per|each|every)[ \t]+year[ \t]+|annually[ \t]+|yearly[ \t]+)?"
    r"(?:in[ \t]+(?:annual[ \t]+|yearly[ \t]+)?fees?[ \t]+)?"
    r"(?:in[ \t]+(?:combined|joint|total)[ \t]+(?:annual[ \t]+|yearly[ \t]+)?fees?"
    r"|combined|together|altogether|all[ \t]+told|in[ \t]+total|total"
    r"|between[ \t]+(?:them|the[ \t]+(?:two|three)|both))\b(?![ \t]+with\b)"
)
_TOTAL_BEFORE_30 = re.compile(
    r"(?:\b(?:combined|joint|total)[ \t]+(?:annual[ \t]+|yearly[ \t]+)?(?:fees?[ \t]+)?"
    r"(?:of|is|are|comes?[ \t]+to|=)?"
    r"|\b(?:together|combined|altogether|all[ \t]+told|in[ \t]+total)[ \t]*[,:]?[ \t]*"
    r"(?:that's|that[ \t]+is|it's|it[ \t]+is|they[ \t]+(?:cost|come[ \t]+to))?)"
    r"[ \t]*(?:about|around|roughly|~)?[ \t]*$"
)
# "$745/yr in fees", "$245 a year in annual fees"
_IN_FEES_30 = re.compile(
    r"[ \t]*(?:/[ \t]*(?:yr|year)|(?:a|per)[ \t]+year|annually)?[ \t]*in[ \t]+(?:annual[ \t]+)?fees\b"
)
_LIST_REACH_30 = 400
# a clause before the figure's own ("..., while", "..., but", "whereas", "compared with", "a vs
# b:")
_SUM_CLAUSE_30 = re.compile(
    r",[ \t]*(?:while|whereas|but|though|although|and|so|then)\b|\b(?:while|whereas)\b"
    r"|\b(?:unlike|compared[ \t]+(?:with|to)|like|where|vs\.?|versus)\b[^,;:\n]*[,:]"
)


_SUMMED_KINDS_30 = frozenset({"any", "annual", "annual_first_year"})
_YEAR_ONE_30 = re.compile(
    r"\b(?:year[ \t-]+(?:one|1)|first[ \t-]+year|1st[ \t-]+year|opening[ \t]+year)\b"
)


def _summed_fields(claim: Claim, masked: str, a: int, b: int) -> tuple[str, ...]:
    """The fee a sum adds: the first-year fees where the claim or its sentence says year one,
    else the annual fees."""
    if claim.kind == "annual_first_year" or _YEAR_ONE_30.search(masked, a, b):
        return ("annual_fee_first_year_usd",)
    return ("annual_fee_usd",)


def _sum_reading(catalog: Catalog, mentions: list[NameMention]) -> Callable[[Claim, str], bool]:
    """Ruleset 30's ``totals_30``: a dollar figure with a sum's word that equals the annual fees
    (or first-year fees) of two or more cards named in its clause, each with a fee, adds them:
    it is no card's fee (module docstring). So does "$745/yr in fees" after a list: the fees of
    all the cards named in the 400 characters before it that have one, two or more. A wrong sum
    keeps its claim."""
    starts = [m.start for m in mentions]

    def summed(claim: Claim, masked: str) -> bool:
        if claim.family != FEE_CLAIM or claim.is_none or claim.low is None:
            return False
        if "$" not in claim.text:
            return False
        if _TOTAL_AFTER_30.match(masked, claim.end) is None and (
            _TOTAL_BEFORE_30.search(masked, max(0, claim.start - 40), claim.start) is None
        ):
            return _fees_of_list(claim, masked)
        if claim.kind not in _SUMMED_KINDS_30:
            return False  # "a total of $190 in late fees" is no sum of annual fees
        a, _ = _sentence(masked, claim.start, claim.end)
        for m in _SUM_CLAUSE_30.finditer(masked, a, claim.start):
            a = m.end()  # the figure's own clause: "X is $95, while the Y has a total of $790"
        # the addends come before their sum ("A ($150) and B ($495) come to $645"), not after it
        # ("$590, as much as A and B put together")
        cards = _cards_between(mentions, starts, a, claim.start)
        if len(cards) < 2:
            return _fees_of_list(claim, masked)
        for attr in _summed_fields(claim, masked, a, _):
            fees = [getattr(catalog.card(c), attr) for c in sorted(cards)]
            # every card named is an addend, each with a fee: "A ($150) and B ($495) come to
            # $645" (not two of three, nor a card with none)
            if all(fees) and abs(sum(fees) - claim.low) < 0.005:
                return True
        return _fees_of_list(claim, masked)

    def _fees_of_list(claim: Claim, masked: str) -> bool:
        # "- X, AF $495 / - Y, AF $250 / That's $745/yr in fees": "in fees" after the figure, and
        # the fees of every card named before it (within reach) that has one, two or more
        if _IN_FEES_30.match(masked, claim.end) is None or claim.kind not in _SUMMED_KINDS_30:
            return False
        a, b = _sentence(masked, claim.start, claim.end)
        if _summed_fields(claim, masked, a, b) != ("annual_fee_usd",):
            return False
        if "#" in masked[a:b]:
            return False  # "$190 a year in fees on the X": a card's own fee
        cards = _cards_between(mentions, starts, max(0, claim.start - _LIST_REACH_30), claim.start)
        addends = {c for c in cards if catalog.card(c).annual_fee_usd}
        if len(addends) < 2 or not set(claim.cards) <= addends:
            return False
        total = sum(catalog.card(c).annual_fee_usd for c in addends)
        return abs(total - claim.low) < 0.005

    return summed


# -- except_30 -------------------------------------------------------------------------------------

_EXCEPT_30 = re.compile(
    r"\b(?:except(?:[ \t]+for)?|other[ \t]+than|apart[ \t]+from|aside[ \t]+from|besides|save"
    r"[ \t]+for|but[ \t]+not|with[ \t]+the[ \t]+exception[ \t]+of|excluding)\b"
)
_GROUP_30 = re.compile(
    r"\b(?:most|all|every|each|both|these|those|the[ \t]+(?:rest|others)|others|none|many"
    r"|several)\b"
)
_SENTENCE_30 = re.compile(r"[.!?;](?:[ \t]|$)|\n")
# what ends an except-phrase before the denial: the verb of the group ("have", "charge" ...)
_EXCEPT_VERB_30 = re.compile(
    r"\b(?:have|has|had|charge|charges|come|comes|carry|carries|are|is|offer|offers|get|gets"
    r"|cost|costs|include|includes|feature|features)\b"
)
# a clause between a group, its except-phrase and its denial ("..., which has no", "; it has
# no", ", and the X has no", " - the X")
_CLAUSE_30 = re.compile(
    r",[ \t]*(?:which|who|that|and|but|while|though|although|so|it|its|the|this)\b"
    r"|[;:(\u2014\u2013]| - |\b(?:which|who|whose)\b"
)
# what ends an except-phrase after the denial: a clause of its own
_EXCEPT_END_30 = re.compile(
    r",[ \t]*(?:which|who|that|and[ \t]+(?:the|it|its|this|that)|but|while|so|it|its)\b"
    r"|,?[ \t]*\b(?:including|even|especially|notably|plus|as[ \t]+well[ \t]+as|like|such"
    r"[ \t]+as|incl\.?|as[ \t]+does|as[ \t]+do|so[ \t]+does|so[ \t]+do|along[ \t]+with"
    r"|among[ \t]+them|together[ \t]+with|alongside|same[ \t]+(?:for|goes)|included|though"
    r"|yet|not[ \t]+to[ \t]+mention|let[ \t]+alone|leaving|making|then|unlike|whereas"
    r"|meaning|so[ \t]+that)\b"
    r"|[;:\u2014\u2013]| - |\b(?:which|who|whose|is|are|has|have|charges)\b"
)


def _sentence(masked: str, start: int, end: int) -> tuple[int, int]:
    """The sentence (or clause after a semicolon) holding ``[start, end)``, within reach."""
    lo = max(0, start - 200)
    a = lo
    for m in _SENTENCE_30.finditer(masked, lo, start):
        a = m.end()
    after = _SENTENCE_30.search(masked, end, end + 200)
    b = after.start() if after else min(len(masked), end + 200)
    return a, b


def _cards_between(mentions: list[NameMention], starts: list[int], a: int, b: int) -> set[str]:
    """The catalog cards named from ``a`` to ``b``."""
    k = bisect_right(starts, a - 1)
    out = set()
    while k < len(mentions) and mentions[k].start < b:
        if mentions[k].card_id is not None:
            out.add(mentions[k].card_id)
        k += 1
    return out


def _excepted(
    masked: str, claim: Claim, mentions: list[NameMention], starts: list[int]
) -> set[str]:
    """The cards a group's denial excepts (module docstring): "most have no annual fee, except
    the X (...) and the Y" (after the denial, up to a clause of its own or a word that puts a
    card in the group) or "all of these except the X ($495) have no annual fee" (between the
    group and the denial, with no clause between the except-phrase and the denial, and no list
    of the group after it)."""
    a, b = _sentence(masked, claim.start, claim.end)
    for exc in _EXCEPT_30.finditer(masked, a, b):
        named = _EXCEPTS_A_CARD_30.match(masked, exc.end())
        if named is None or masked.startswith("'s", named.end()):
            continue  # "except that ...", "except when ...", "other than the X's lounge passes"
        if exc.start() >= claim.end:
            # "<group> ... <denial>, except the X": the group is the denial's subject
            group = _GROUP_30.search(masked, a, claim.start)
            if group is None or _CLAUSE_30.search(masked, group.end(), claim.start):
                continue
            if "#" in masked[group.end() : claim.start]:
                continue  # a card between the group and its denial
            if _CLAUSE_30.search(masked, claim.end, exc.start()):
                continue
            end = _EXCEPT_END_30.search(masked, exc.end(), b)
            stop = end.start() if end else b
            return _cards_between(mentions, starts, exc.end(), stop) - _aside_cards(
                masked, mentions, starts, exc.end(), stop
            )
        if exc.end() <= claim.start:
            # "<group> except the X (...) <verb> <denial>"
            group = _GROUP_30.search(masked, a, exc.start())
            if group is None or _CLAUSE_30.search(masked, group.end(), exc.start()):
                continue
            verb = _EXCEPT_VERB_30.search(masked, exc.end(), claim.start)
            if verb is None:
                continue
            phrase = _ASIDE_30.sub("", masked[exc.end() : verb.start()])
            gap = masked[verb.end() : claim.start]
            if _CLAUSE_30.search(gap) or "#" in gap:
                continue
            if masked.find(":", claim.end, b + 1) >= 0:
                continue  # the group is listed after its denial: left to the earlier readings
            if _CARD_LIST_30.fullmatch(phrase) is None:
                continue  # only a list of cards is excepted ("except the X ($495) and the Y")
            return _cards_between(mentions, starts, exc.end(), verb.start()) - _aside_cards(
                masked, mentions, starts, exc.end(), verb.start()
            )
    return set()


# the except-phrase names a card first: "except (for) (the) X"
_EXCEPTS_A_CARD_30 = re.compile(r"[ \t]+(?:for[ \t]+)?(?:the[ \t]+)?#+")
# a parenthesised aside in an except-phrase ("except the X ($495)")
_ASIDE_30 = re.compile(r"\([^()\n]{0,40}\)")
# an except-phrase that is only a list of cards (asides removed): "the X, the Y and the Z"
_CARD_LIST_30 = re.compile(
    r"[ \t,]*(?:(?:the|for)[ \t]+)*#+(?:[ \t]*(?:,|and|or|&)[ \t]*(?:the[ \t]+)?#+)*[ \t,]*"
)


def _aside_cards(
    masked: str, mentions: list[NameMention], starts: list[int], a: int, b: int
) -> set[str]:
    """The cards named inside parenthesised asides between ``a`` and ``b`` ("(not the Y)")."""
    out: set[str] = set()
    for m in _ASIDE_30.finditer(masked, a, b):
        out |= _cards_between(mentions, starts, m.start(), m.end())
    return out


def _except_reading(mentions: list[NameMention]) -> Callable[[Extraction], Extraction]:
    """Ruleset 30's ``except_30``: the cards named in a group's except-phrase are taken off the
    group's denial (module docstring)."""
    starts = [m.start for m in mentions]

    def revise(extraction: Extraction) -> Extraction:
        masked = extraction.masked
        out = list(extraction.claims)
        changed = False
        for i, claim in enumerate(out):
            if not claim.is_none or not claim.cards:
                continue
            excepted = _excepted(masked, claim, mentions, starts)
            kept = tuple(c for c in claim.cards if c not in excepted)
            if kept != claim.cards:
                out[i] = replace(claim, cards=kept)
                changed = True
        return replace(extraction, claims=tuple(out)) if changed else extraction

    return revise


# -- thousands_30 -----------------------------------------------------------------------------------


def _thousands_30(claim: Claim, masked: str) -> bool:
    """ "$10k/yr on other stuff", "an under-$25k budget", "$4.9k/yr dining": a dollar figure in
    thousands that the answer spends, earns or budgets is an amount of money, no fee (ruleset 29
    read "$10" and flagged it as a fee). Only with such words next to it, and never in a table
    row: "AF $1k", "| $1k |" under a fee column, "it runs $1k a year" stay fees (read as $1, and
    wrong)."""
    if claim.family != FEE_CLAIM or "$" not in claim.text:
        return False
    tail = masked[claim.end : claim.end + 2]
    if tail[:1] != "k" or tail[1:2].isalpha():
        return False
    line_start = masked.rfind("\n", 0, claim.start) + 1
    line_end = masked.find("\n", claim.end)
    if "|" in masked[line_start : len(masked) if line_end < 0 else line_end]:
        return False
    if _PRICED_AFTER_30.match(masked, claim.end + 1):
        return False
    if _PRICED_BEFORE_30.search(masked, max(0, claim.start - 30), claim.start):
        return False
    return bool(
        _MONEY_AFTER_30.match(masked, claim.end + 1)
        or _MONEY_BEFORE_30.search(masked, max(0, claim.start - 30), claim.start)
    )


# what a sum of money in thousands is, after it: "$10k/yr on other stuff", "$25k budget",
# "$4.9k/yr dining", "$5k balance"
_MONEY_AFTER_30 = re.compile(
    r"[ \t]*(?:/[ \t]*(?:yr|year|mo|month)|(?:a|per)[ \t]+(?:year|month))?[ \t]*(?:of[ \t]+|in[ \t]+|on"
    r"[ \t]+)?(?:your[ \t]+)?(?:spend\w*|income|budget|salary|balance|limit|line|credit|dining"
    r"|travel|groceries|gas|purchases|other|everything|stuff|debt|transfer|bill|trip|expenses?)\b"
)
# before it: "an under-$25k budget", "income of $60k", "if you spend $10k"
_MONEY_BEFORE_30 = re.compile(
    r"(?:\b(?:under|over|about|around|income|budget|salary|spend\w*|earn\w*|owe|owes|owing"
    r"|balance|limit|put|charge[ \t]+up)[ \t-]+(?:of[ \t]+)?(?:about[ \t]+|around[ \t]+|~[ \t]*)?)$"
)


_PRICED_AFTER_30 = re.compile(
    r"[ \t]*(?:/[ \t]*(?:yr|year)|(?:a|per)[ \t]+year|annually)?[ \t]*(?:annual[ \t]+|yearly[ \t]+)?"
    r"(?:fee|fees|charge)\b"
)
_PRICED_BEFORE_30 = re.compile(
    r"(?:\b(?:costs?|charges?|charging|priced[ \t]+at|fee[ \t]+(?:is|of)|runs?|af|fee|fees)[:=]?"
    r"|[:=])[ \t]+(?:you[ \t]+)?"
    r"(?:about|around|roughly|~)?[ \t]*$"
)


# -- worked_30 -------------------------------------------------------------------------------------

_DOLLARS_30 = re.compile(r"\$[ \t]?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?(k\b)?")
_WORKED_FLOOR_30 = 100.0  # a balance worked through a percentage fee is at least this
_WORKED_KINDS_30 = frozenset({"any", "bt", "cash_advance"})
# what is done with a worked amount: moved, transferred, owed, advanced
_MOVED_30 = re.compile(
    r"\b(?:transfer\w*|mov(?:e|es|ed|ing)|balance|debt|owe\w*|advance\w*|withdraw\w*|example"
    r"|carry\w*|bt)\b"
)


def _worked_reading(catalog: Catalog, masked: str) -> Callable[[Claim, str], bool] | None:
    """Ruleset 30's ``worked_30``: a dollar figure bound as a fee (of no named kind, or a
    transfer or cash advance fee) that is the card's balance transfer or cash advance fee worked
    out on an amount the answer moves, owes or transfers ("moving $8,000 ... 4% fee ... fee:
    $320", "Worked example: $5,000 - Vista BT: $250 fee") is arithmetic, no fee of the card's
    (ruleset 22's worked fees read "5% of $5,000 is $250", not these)."""
    bases = set()
    for m in _DOLLARS_30.finditer(masked):
        value = float(m[1].replace(",", "")) + (float("0." + m[2]) if m[2] else 0.0)
        value = value * 1000 if m[3] else value
        near = masked[max(0, m.start() - 40) : m.end() + 40]
        if value >= _WORKED_FLOOR_30 and _MOVED_30.search(near):
            bases.add(value)
    if not bases:
        return None
    worked_fees: dict[str, set[int]] = {}

    def fees_of(card_id: str) -> set[int]:
        # the card's transfer and cash advance fees on each base, in cents (once per card)
        if card_id not in worked_fees:
            card = catalog.card(card_id)
            cents = set()
            for pct, floor in (
                (card.bt_fee_pct, card.bt_fee_min_usd),
                (card.cash_advance_fee_pct, card.cash_advance_fee_min_usd),
            ):
                if pct:
                    cents |= {round(100 * max(b * pct / 100, floor or 0.0)) for b in bases}
            worked_fees[card_id] = cents
        return worked_fees[card_id]

    def worked(claim: Claim, _masked: str) -> bool:
        if claim.family != FEE_CLAIM or claim.is_none or claim.low is None:
            return False
        if claim.kind not in _WORKED_KINDS_30 or not claim.text.lstrip("*_ ").startswith("$"):
            return False  # "a $250 annual fee", "5% (minimum $10)" are fees
        if claim.low in bases:
            return False
        return any(round(100 * claim.low) in fees_of(c) for c in claim.cards)

    return worked


# -- cells_30 --------------------------------------------------------------------------------------

# in a table cell: "0% purchases, 15 mo + 0% transfers, 21 mo" (the kind right after the rate,
# then its months, then the cell's end or the next offer; not "15 months of $300")
_OWN_TERMS_30 = re.compile(
    r"[ \t]*(?:on[ \t]+)?(?P<kind>purchases?|purch\.?|(?:balance[ \t-]+)?transfers?|bts?)"
    r"[ \t]*[,:(]?[ \t]*(?:for[ \t]+)?(?P<months>\d{1,2})[ \t]*(?:mo|mos|mths?|months?)\b\.?"
    r"[ \t)]*(?=[|+;,&]|and\b)"
)


def _own_terms_30(extraction: Extraction) -> Extraction:
    """Ruleset 30's ``cells_30``: in a table cell, an intro rate followed by its own kind and
    months is read with those months ("0% purchases, 15 mo + 0% transfers, 21 mo"; module
    docstring). A claim of another kind on the same rate is left alone, and no kind is taken
    off a claim."""
    masked = extraction.masked
    out = list(extraction.claims)
    changed = False
    for i, claim in enumerate(out):
        if claim.family != INTRO_CLAIM or claim.is_none or claim.low is None:
            continue
        line_start = masked.rfind("\n", 0, claim.start) + 1
        line_end = masked.find("\n", claim.end)
        line_end = len(masked) if line_end < 0 else line_end
        if (
            masked.find("|", line_start, claim.start) < 0
            or masked.find("|", claim.end, line_end) < 0
        ):
            continue
        m = _OWN_TERMS_30.match(masked, claim.end, line_end)
        if m is None:
            continue
        word = m["kind"]
        kind = "bt" if "transfer" in word or word.startswith("bt") else "purchase"
        months = int(m["months"])
        if claim.months == months or (claim.scopes and claim.scopes != frozenset({kind})):
            continue
        out[i] = replace(claim, kind=kind, scopes=frozenset({kind}), months=months)
        changed = True
    return replace(extraction, claims=tuple(out)) if changed else extraction


def revise_30(
    extraction: Extraction,
    catalog: Catalog | None,
    mentions: list[NameMention],
    promos: bool,
    cells: bool,
    totals: bool,
    excepts: bool,
    thousands: bool,
    worked: bool,
) -> Extraction:
    """The extraction with ruleset 30's readings applied (module docstring)."""
    if cells and "%" in extraction.masked:
        extraction = _own_terms_30(extraction)
    if excepts:
        extraction = _except_reading(mentions)(extraction)
    readings: list[Callable[[Claim, str], bool]] = []
    if thousands and "$" in extraction.masked:
        readings.append(_thousands_30)
    if promos:
        readings.append(_generic_promo_30)
    if totals and catalog is not None and "$" in extraction.masked:
        readings.append(_sum_reading(catalog, mentions))
    if worked and catalog is not None and "$" in extraction.masked and "%" in extraction.masked:
        reading = _worked_reading(catalog, extraction.masked)
        if reading is not None:
            readings.append(reading)
    return unbind_claims(extraction, readings)


__all__ = ["revise_30"]
