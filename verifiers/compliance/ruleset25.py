"""Ruleset 25: worked results, worked fees, asides and references (the s28 tuning halves).

What ruleset 24 still flagged on s28's tuning halves was mostly arithmetic the answer shows its
reader - the numerate writer's totals, nets and worked fees - and figures bound to a card the
sentence names only in an aside. Each reading below is a class, and each holds only where the
text shows what it claims: a red team with the source code attacked the first version (stop 39)
and every hole it found is a test case.

* ``results_25`` - **a dollar figure the answer works out is a result, not a price**:
  ``"... = **$648/yr**"``, ``"-> **about $164**"`` (emphasis or "about" between the sign and
  the figure, which ruleset 24 did not read), ``"Total: $342 a year"``, ``"Net after fee:
  $328.92"``, ``"Atlas Build's $29 fee brings that to $159"``, ``"wins by $168 a year"`` - but
  only where the figure **is** the arithmetic: the sum of the figures right before it (``$240 +
  $72 + $336``) or of the lines right above it (a worked list), or the difference of the last
  two figures (or of the last two lines' figures). A monthly amount after a sign (``"$120 fee ->
  $208 a month"``) is a payment. A price named anywhere in the sentence before the figure, and
  not as the noun of an earlier figure ("$29 fee") or a fee the result is taken after ("net
  after fee"), keeps the figure a claim: ``"Then there's the annual fee; it comes to $150"``.
  Amounts: a dollar figure of spending, a budget, an amount on a category (``"$2,900 of
  spending"``, ``"a $350 budget"``, ``"$460.20 a year on online purchases"``) or restated in
  other units (``"$242 of monthly spending ($2,900 a year)"``, ``"a $2.60 difference, or $31.20
  over a year"``) is no price unless the sentence names a price before it; and after a noun
  that cannot be a price ("bonus", "transfer", "balance") a price word more than three words
  back is no label (``"The fee is waived and the $750 bonus needs $3,000"``). "More", "extra",
  "cheaper" after a figure keep ruleset 24's reading (``"the fee runs to $150 extra"``).
* ``worked_25`` - **a fee worked out from a transaction stated before it**: ``"With a $5,000
  balance: ... Plain one: $200 fee"`` - 4 % of a $5,000 balance, and 4 % is that card's
  transfer fee. A dollar figure not typed as an annual or late fee (nor written as a minimum)
  that is the card's own fee for a transaction of $100 or more the answer states before it - a
  transfer or balance (its transfer fee), a cash advance or withdrawal (its cash-advance fee),
  spending abroad or on a trip (its foreign fee) - is a worked fee: right, so no claim. An
  amount that is no transaction ("spend $3,000 for the bonus", "a $3,000 credit line") works
  nothing out.
* ``asides_25`` - **a card named only in an aside does not take the sentence's figures**: "its
  APR is a fixed 20.74% (lower than Granite Cash Back's range), it has no foreign transaction
  fee (Granite Cash Back charges 3%), and it has 0% on purchases for 9 months" is about the card
  its sentence named before the brackets. An aside is a bracket with a figure or a comparison in
  it; a bracket holding only a name ("My pick (the Summit Cash Plus) has ...", "(or the X)")
  names the subject. The figure goes to the card the sentence named last before the aside -
  right or wrong for it, so a wrong figure is reported. And **a figure labelled by a bracketed
  name is that card's**: "late fees of up to $40 (Summit Cash) and $39 (Plus)" - a full name
  always, one word of one name only beside another labelled figure of the sentence (so "(student)"
  is no label).
* ``refs_25`` - **"Beacon's 0% FX fee", "The 360's is 22.99%-30.99%"**: ruleset 24 read "the
  Plus's"; a possessive with no article, or a word of digits after "the" that ends its noun
  phrase, that is a word of the name of exactly one of the cards named last before it refers to
  that card - when it opens its clause (no card named before it in the clause, no "like",
  "unlike", "than", "matches" before it: "The Summit Cash matches Harbor's 0% fee" is about the
  Summit Cash) and a figure, a term or a verb follows it. "Over the 360 days" is no reference.
* ``offers_25`` - **"Unless you want the 0% intro window, ..."**: an intro figure written as a
  definite reference to an offer ("the <N-month> 0% window / period / offer") in a clause that
  weighs its use ("unless", "if you need", "is useful for", "helps") and names no card and no
  pronoun, bound only by context (or to a card named after it in another clause) and wrong for
  that card, is the offer of the most recent card named before it that has it; wrong for all of
  them it is reported. "The 12-month 0% window is its best feature" says whose it is and stays.

See "Ruleset 25" in ``verifiers/compliance/RULESETS.md``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.catalog import Catalog
from replicas.verifiers.compliance.claims import Claim, Extraction
from replicas.verifiers.compliance.mentions import AMBIGUOUS, EXACT, UNKNOWN, NameMention
from replicas.verifiers.compliance.ruleset22c import _MONEY_22C, _money_value
from replicas.verifiers.compliance.ruleset24 import _AMOUNT_OF_24, _named_only_after, _right_for
from replicas.verifiers.compliance.spans import SpanIndex

if TYPE_CHECKING:
    from replicas.verifiers.compliance.names import NameIndex

__all__ = ["refs_25", "revise_25"]

# -- the text around a figure -------------------------------------------------------------------

#: a sentence end: not after "i.e.", "e.g.", "etc.", "vs.", "approx.", "incl."
_SENTENCE_25 = re.compile(
    r"(?<!\bi\.e)(?<!\be\.g)(?<!\betc)(?<!\bvs)(?<!\bapprox)(?<!\bincl)[.!?](?:[ \t]|$)|\n"
)
_SENTENCE_SPAN_25 = 300
_CLAUSE_STOP_25 = re.compile(r"[,;:(]|[.!?](?:[ \t]|$)|\n|\u2014|[ \t]-[ \t]")


def _last_match(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The last match of ``pattern`` in ``text``, if any."""
    found = None
    for found in pattern.finditer(text):  # noqa: B007 - the loop keeps the last one
        pass
    return found


def _sentence_start(masked: str, pos: int, span: int = _SENTENCE_SPAN_25) -> int:
    """Where the sentence (or line) holding ``pos`` starts, at most ``span`` characters back."""
    low = max(0, pos - span)
    stop = _last_match(_SENTENCE_25, masked[low:pos])
    return low + (stop.end() if stop else 0)


def _clause_start(masked: str, pos: int) -> int:
    low = max(0, pos - _SENTENCE_SPAN_25)
    stop = _last_match(_CLAUSE_STOP_25, masked[low:pos])
    return low + (stop.end() if stop else 0)


def _clause_end(masked: str, pos: int) -> int:
    stop = _CLAUSE_STOP_25.search(masked, pos, min(len(masked), pos + _SENTENCE_SPAN_25))
    return stop.start() if stop else min(len(masked), pos + _SENTENCE_SPAN_25)


# -- prices named before a figure ---------------------------------------------------------------

#: words that name a price a dollar figure may be (an APR or interest is never a dollar price)
_PRICE_25 = re.compile(
    r"\bfees?\b|\bcost(?:s|ing)?\b|\bcharg(?:es?|ing)\b|\bprice\b|\bmembership\b"
)
#: a fee a result is taken after: "net after fee", "minus the annual fee", "net of fees"
_AFTER_FEE_25 = re.compile(
    r"\b(?:after|minus|less|net[ \t]+of|excluding)[ \t]+(?:the[ \t]+|its[ \t]+)?"
    r"(?:annual[ \t]+|yearly[ \t]+|\$[\d,.]+[ \t]+)?fees?\b"
)
#: a price word that is the noun of the figure before it: "$29 fee", "a 3% transfer fee"
_FIGURE_NOUN_25 = re.compile(
    r"(?:\$[ \t]?[\d,.]+k?|\d[\d,.]*[ \t]?%)[*_]{0,2}[ \t]+(?:[a-z-]+[ \t]+)?$"
)


def _priced_before(masked: str, pos: int) -> bool:
    """The sentence before ``pos`` (with a label line right above it) names a price of its own:
    a price word that is not the noun of an earlier dollar or percent figure ("$29 fee brings
    that to") nor a fee the result is taken after ("net after fee")."""
    start = _sentence_start(masked, pos)
    head = masked[start:pos]
    if start and masked[start - 1] == "\n":
        # a label line right above ("Summit Cash Plus annual fee:") labels this one
        above = masked[max(0, start - 1 - _SENTENCE_SPAN_25) : start - 1]
        above = above[above.rfind("\n") + 1 :]
        if above.rstrip(" \t*_").endswith(":"):
            head = above + " " + head
    head = _AFTER_FEE_25.sub(" ", head)
    for word in _PRICE_25.finditer(head):
        if not _FIGURE_NOUN_25.search(head, max(0, word.start() - 24), word.start()):
            return True
    return False


# -- results ------------------------------------------------------------------------------------

_EMPH = r"(?:\*\*|__|\*|_)?"
_APPROX = r"(?:~|about[ \t]+|roughly[ \t]+|around[ \t]+|approx(?:imately|\.)?[ \t]+|some[ \t]+)?"
#: an arrow or an equals sign before a figure, with emphasis or "about" between them
_SIGN_25 = re.compile(rf"(?:\u2192|->|=>|=|\u2248|~=)[ \t]*{_EMPH}[ \t]*{_APPROX}{_EMPH}[ \t]*$")
#: a result label or verb right before a figure ("total:", "net after fee:", "brings that to",
#: "wins by"), with emphasis, a colon or "about" between them
_RESULT_LABEL_25 = re.compile(
    r"(?:(?<![\w-])(?:grand[ \t]+)?(?:sub)?total|(?<![\w-])net\b[^:\n|]{0,30}?|(?<![\w-])sum"
    r"|(?<![\w-])(?:you(?:'d)?|that)[ \t]+(?:net|clear|pocket|keep)s?"
    r"|(?<![\w-])(?:brings?|bringing|takes?|taking|cuts?|drops?|dropping|reduces?|lowers?"
    r"|leaves?|puts?)[ \t]+(?:that|it|this|them|those|you|the[ \t]+\w+|your[ \t]+\w+)"
    r"(?:[ \t]+(?:down|up|back))?[ \t]+to"
    r"|(?<![\w-])(?:comes?|works?|adds?|totals?|falls?|drops?)[ \t]+(?:out[ \t]+|up[ \t]+)?to"
    r"|(?<![\w-])(?:wins?|ahead|leads?|better|beats?[ \t]+\w+)[ \t]+by)"
    rf"[ \t]*{_EMPH}[ \t]*:?[ \t]*{_EMPH}[ \t]*{_APPROX}{_EMPH}[ \t]*$"
)
_LABEL_SPAN_25 = 48
#: a monthly amount right after a figure: a payment, not a fee term
_MONTHLY_25 = re.compile(
    r"(?:\*\*|__)?[ \t]*(?:a|per|each|every)[ \t]+month\b|(?:\*\*|__)?[ \t]*/[ \t]?mo(?:nth)?\b"
    r"|(?:\*\*|__)?[ \t]+monthly\b"
)
#: what a dollar figure is an amount of, right after it (after "a year" / "a month" at most)
_AMOUNT_OF_25 = re.compile(
    r"[ \t]*(?:(?:a|per|each)[ \t]+(?:year|month)[ \t]+|/[ \t]*(?:y(?:ea)?r|mo(?:nth)?)[ \t]+"
    r"|annually[ \t]+|monthly[ \t]+)?"
    r"(?:of[ \t]+(?:\w+[ \t]+)?(?:spend\w*|purchases|balance|debt)"
    r"|(?:monthly[ \t]+|yearly[ \t]+)?(?:budget|spend(?:ing)?|income)"
    r"|on[ \t]+(?:your[ \t]+)?(?:online|groceries|grocery|gas|fuel|travel|dining|restaurants"
    r"|everything|other|purchases|spending|streaming|transit|drugstores?|flights|hotels)"
    r"|for[ \t]+\$|in[ \t]+value\b|of[ \t]+value\b)"
)
#: ruleset 24's amounts that are comparisons ("$150 extra", "$95 more"): no new reading
_COMPARED_24 = re.compile(
    r"[ \t]*(?:(?:a|per|each)[ \t]+year[ \t]+|/[ \t]*y(?:ea)?r[ \t]+|annually[ \t]+)?"
    r"(?:more|less|extra|cheaper)\b"
)
#: an amount restated in other units: "$242 of monthly spending ($2,900 a year)", "a $2.60
#: difference, or $31.20 over a year"
_RESTATED_25 = re.compile(
    r"\b(?:spend\w*|purchases|budget|balance|debt|income|difference|gap|savings)"
    r"(?:[ \t]+[\w-]+){0,4}[ \t]*(?:\(|,?[ \t]*(?:-|\u2013|\u2014|or)[ \t]|,[ \t]*or[ \t])"
    r"[ \t]*(?:~|about[ \t]+)?$"
)
#: a price word right before a figure: "costs $150", "a fee of about $75", "charges you $40"
_PRICE_RIGHT_BEFORE_25 = re.compile(
    r"\b(?:fees?|costs?|charges?|charging|price|membership|pay|pays|apr|interest)\b[ \t]*[:=]?"
    r"(?:[ \t]+[\w'-]+){0,3}[ \t]*[:=]?[ \t]*(?:\*\*|__)?[ \t]*$"
)


class _Figures:
    """The response's dollar figures, parsed once per extraction (when first asked for)."""

    __slots__ = ("_ends", "_kinds", "_pos", "_values", "masked")

    def __init__(self, masked: str) -> None:
        self.masked = masked
        self._pos: list[int] | None = None
        self._ends: list[int] = []
        self._values: list[float] = []
        self._kinds: list[str | None] = []

    def _load(self) -> list[int]:
        if self._pos is None:
            masked = self.masked
            pos: list[int] = []
            for m in _MONEY_22C.finditer(masked):
                value = _money_value(m)
                if value:
                    pos.append(m.start())
                    self._ends.append(m.end())
                    self._values.append(value)
                    self._kinds.append(_transaction(masked, m.start(), m.end()))
            self._pos = pos
        return self._pos

    def before(self, at: int, span: int) -> list[tuple[int, float]]:
        """The figures (start, value) that start in ``[at - span, at)``."""
        pos = self._load()
        lo = bisect_left(pos, at - span)
        hi = bisect_left(pos, at)
        return list(zip(pos[lo:hi], self._values[lo:hi], strict=True))

    def end_of(self, start: int) -> int:
        """Where the figure that starts at ``start`` ends."""
        pos = self._load()
        return self._ends[bisect_left(pos, start)]

    def transactions_before(self, at: int, span: int) -> list[tuple[float, str]]:
        """The transactions (amount, fee kind) stated in ``[at - span, at)``."""
        pos = self._load()
        lo = bisect_left(pos, at - span)
        hi = bisect_left(pos, at)
        return [
            (v, k)
            for v, k in zip(self._values[lo:hi], self._kinds[lo:hi], strict=True)
            if k is not None
        ]


def _is_result(claim: Claim, masked: str, figures: _Figures) -> bool:
    """A dollar figure the answer works out, or an amount of something (``results_25``)."""
    if claim.family != "fee" or claim.is_none or claim.low is None or claim.unit != "usd":
        return False
    window = max(0, claim.start - _LABEL_SPAN_25)
    if _AMOUNT_OF_25.match(masked, claim.end) or _RESTATED_25.search(masked, window, claim.start):
        # "a $350 budget", "$242 of spending ($2,900 a year)": the noun says what the figure is,
        # unless its sentence names a price ("it has an annual fee, a hit to your budget ($150
        # a year)")
        return not _priced_before(masked, claim.start)
    if _AMOUNT_OF_24.match(masked, claim.end) and not _COMPARED_24.match(masked, claim.end):
        # "the fee is waived and the $750 bonus": only a price word at most three words before
        # the figure makes it a price
        return _PRICE_RIGHT_BEFORE_25.search(masked, window, claim.start) is None
    head = masked[window : claim.start]
    sign = _SIGN_25.search(head) or _RESULT_LABEL_25.search(head)
    if sign is None or _priced_before(masked, claim.start):
        return False
    if sign.re is _SIGN_25 and _MONTHLY_25.match(masked, claim.end):
        return True  # "-> $208 a month": a payment
    return _arithmetic(claim.low, masked, claim.start, figures)


#: how far back a worked result may be arithmetic on the figures, and on how many
_ARITH_SPAN_25 = 700
_ARITH_RUN_25 = 8
_DIFF_SPAN_25 = 300
#: what follows a figure that is multiplied ("$6,000 x 2%")
_MULTIPLIED_25 = re.compile(r"[ \t]*(?:\u00d7|x|\*)[ \t]*[\d$]")


def _close(a: float, b: float) -> bool:
    """Equal within a dollar or 1 % (worked results are rounded: "about $164")."""
    return abs(a - b) <= max(1.0, 0.01 * abs(b))


def _arithmetic(value: float, masked: str, pos: int, figures: _Figures) -> bool:
    """``value`` is arithmetic on amounts the answer shows (``_operands``), and the text from the
    first operand's line to ``pos`` says what they are amounts of ("online", "rewards", "earn",
    "interest", ...): "$100 + $50 = $150 a year" under "Annual fee:" is a fee's breakdown."""
    first = _operands(value, masked, pos, figures)
    if first is None:
        return False
    return _VALUE_WORDS_25.search(masked, masked.rfind("\n", 0, first) + 1, pos) is not None


def _operands(value: float, masked: str, pos: int, figures: _Figures) -> int | None:
    """Where the first operand starts, if ``value`` is the sum of the figures right before
    ``pos`` (a run of two or more ending at the last one, within its paragraph), of its own
    line's amounts (not counting what is multiplied) or of the last figures of the lines right
    above it, or the difference of the last two figures (or of the last two lines' figures)."""
    if value < 1:
        return None  # "$0" is no result an answer works out
    found = figures.before(pos, _ARITH_SPAN_25)
    if not found:
        return None
    paragraph = masked.rfind("\n\n", 0, pos)
    run = [(at, v) for at, v in found if at > paragraph][-_ARITH_RUN_25:]
    total = run[-1][1] if run else 0.0
    for at, v in reversed(run[:-1]):
        total += v
        if _close(value, total):
            return at
    # the amounts of the result's own line, not counting what is multiplied: "online $540,
    # travel $6,000 x 1.5% = $90, other $36,000 x 1.5% = $540 -> $1,170"
    here = masked.rfind("\n", 0, pos)
    parts = [
        (at, v)
        for at, v in found
        if at > here and not _MULTIPLIED_25.match(masked, figures.end_of(at))
    ]
    if len(parts) >= 2 and _close(value, sum(v for _, v in parts)):
        return parts[0][0]
    near = [(at, v) for at, v in found if at >= pos - _DIFF_SPAN_25]
    if len(near) >= 2 and _close(value, abs(near[-1][1] - near[-2][1])):
        return near[-2][0]
    # the last figure of each line above (a worked list: "- 5% online -> $124.80")
    lines: dict[int, tuple[int, float]] = {}
    for at, v in found:
        if at < here:
            lines[masked.rfind("\n", 0, at)] = (at, v)
    starts = sorted(lines)
    # a run of lines right above the result's line, with no blank line between them
    block: list[tuple[int, float]] = []
    end = here
    for start in reversed(starts):
        if masked.count("\n", start + 1, end) > 0 and block:
            break
        block.append(lines[start])
        end = start
    total = 0.0
    for i, (at, v) in enumerate(block[:_ARITH_RUN_25]):
        total += v
        if i and _close(value, total):
            return at
    # the last two lines' figures, across one blank line at most ("... wins by $168")
    last = [lines[s] for s in starts if masked.count("\n\n", s, pos) <= 1][-2:]
    if len(last) == 2 and _close(value, abs(last[1][1] - last[0][1])):
        return last[0][0]
    return None


#: what a worked result's operands are amounts of
_VALUE_WORDS_25 = re.compile(
    r"\b(?:earn\w*|rewards?|back|cash-?back|value|worth|net|sav(?:e|es|ed|ing|ings)|bonus"
    r"|points|miles|interest|spend\w*|online|grocer\w*|gas|fuel|dining|restaurants?|travel"
    r"|else|everything|other|balance|payments?|transfer\w*|advance|month\s+\d)\b"
)


# -- worked fees ---------------------------------------------------------------------------------

#: fee kinds that are a percentage of an amount (with a dollar minimum)
_PERCENT_KINDS_25 = ("bt", "cash_advance", "foreign")
_WORKED_SPAN_25 = 1_500
#: the smallest amount a worked fee is taken of (a transfer, an advance, a trip's spending)
_PRINCIPAL_MIN_25 = 100.0
_MINIMUM_25 = re.compile(r"\bmin(?:imum|\.)?\b|\bfloor\b|\bat[ \t]+least\b")
#: words after a fee that make it a standing fee of the card, not a transaction's
_STANDING_FEE_25 = re.compile(
    r"\b(?:keep(?:ing)?|hold(?:ing)?|hav(?:e|ing)[ \t]+(?:the|it)|open(?:ing)?|own(?:ing)?"
    r"|membership|each[ \t]+year|every[ \t]+year|per[ \t]+year|a[ \t]+year|annual(?:ly)?|yearly"
    r"|/[ \t]?yr|a[ \t]+month|monthly)\b"
)
_TRANSACTION_WORDS_25 = (
    r"(?P<bt>(?:balance[ \t]+)?transfer(?:s|red|ring)?|balances?|move[sd]?|moving|owe|owing"
    r"|debt|carry(?:ing)?)"
    r"|(?P<cash_advance>(?:cash[ \t]+)?advances?|withdraw(?:al|als|n|ing|s)?|atm)"
    r"|(?P<foreign>abroad|overseas|foreign|trips?|vacation|holiday)"
)
_TRANSFER_TALK_25 = re.compile(r"\b(?:transfer\w*|balances?)\b")
#: a transaction word right after an amount ("a $5,000 balance", "**$1,500 advance**", "$2,000
#: of spending abroad") or right before it ("transfer $3,000", "withdraw five hundred dollars")
_TRANSACTION_AFTER_25 = re.compile(
    rf"(?:\*\*|__)?[ \t]*(?:[a-z-]+[ \t]+){{0,4}}?(?:{_TRANSACTION_WORDS_25})\b"
)
_TRANSACTION_BEFORE_25 = re.compile(
    rf"\b(?:{_TRANSACTION_WORDS_25})[ \t]+(?:(?:a|an|of|about|your|the|just|over|some)[ \t]+)?"
    r"(?:\*\*|__)?[ \t]*$"
)


def _transaction(masked: str, start: int, end: int) -> str | None:
    """The fee kind of the transaction the amount at ``[start, end)`` is, if it is one. Moving,
    owing or carrying an amount is a balance transfer only in a sentence about a transfer or a
    balance ("The transfer fee is 3%, so moving $4,000 costs $120"; not "You owe $3,000 on your
    car")."""
    m = _TRANSACTION_AFTER_25.match(masked, end) or _TRANSACTION_BEFORE_25.search(
        masked, max(0, start - 40), start
    )
    if m is None:
        return None
    kind = next(kind for kind in _PERCENT_KINDS_25 if m.group(kind))
    if kind == "bt" and not re.match(r"(?:balance|transfer)", m.group("bt")):
        sentence = masked[_sentence_start(masked, start) : _clause_end(masked, end) + 1]
        if not _TRANSFER_TALK_25.search(sentence):
            return None
    return kind


def _card_fee(catalog: Catalog, card_id: str, kind: str) -> tuple[float, float] | None:
    """The card's fee of ``kind`` as (rate, minimum), if it has one."""
    card = catalog.card(card_id)
    pct, low = {
        "bt": (card.bt_fee_pct, card.bt_fee_min_usd),
        "cash_advance": (card.cash_advance_fee_pct, card.cash_advance_fee_min_usd),
        "foreign": (card.foreign_txn_fee_pct, None),
    }[kind]
    return (pct, low or 0.0) if pct else None


def _is_worked_fee(claim: Claim, masked: str, catalog: Catalog, figures: _Figures) -> bool:
    """A dollar figure that is its card's own fee for a transaction stated before it
    (``worked_25``)."""
    if claim.family != "fee" or claim.unit != "usd" or claim.low is None or claim.is_none:
        return False
    if claim.low < 1 or (claim.high is not None and claim.high != claim.low):
        return False  # "$0 fee" says the card has no fee: a term, never a worked example
    kinds = claim.admissible
    open_kinds = len(kinds) >= 3
    if not open_kinds and not any(k in kinds for k in _PERCENT_KINDS_25):
        return False  # typed as an annual, late or first-year fee: a flat fee term
    if _MINIMUM_25.search(masked, max(0, claim.start - 16), min(len(masked), claim.end + 16)):
        return False  # "a $10 floor", "minimum $5": a fee's minimum, a term
    if _STANDING_FEE_25.search(masked, claim.end, _clause_end(masked, claim.end)):
        return False  # "a $150 fee just for keeping the card open": a standing fee, a term
    deals = [
        (amount, kind)
        for amount, kind in figures.transactions_before(claim.start, _WORKED_SPAN_25)
        if amount >= _PRINCIPAL_MIN_25 and (open_kinds or kind in kinds)
    ]
    if not deals:
        return False
    worked = [_worked(claim.low, deals, catalog, card_id) for card_id in claim.cards]
    # several cards: a figure that may be any of them ("union") is worked for one; "both cards
    # charge $200" must be worked for each
    return any(worked) if claim.any_card else all(worked)


def _worked(value: float, deals: list[tuple[float, str]], catalog: Catalog, card_id: str) -> bool:
    """``value`` is the card's fee for one of ``deals``, above that fee's minimum (a figure
    equal to the minimum is read as the minimum it states)."""
    for amount, kind in deals:
        fee = _card_fee(catalog, card_id, kind)
        if fee is None:
            continue
        charged = amount * fee[0] / 100.0
        if charged > fee[1] and _near(value, charged):
            return True
    return False


def _near(a: float, b: float) -> bool:
    return abs(a - b) <= max(0.5, 0.005 * abs(b))


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
_MAX_REBOUND_25 = 500


def _brackets(masked: str, start: int, end: int) -> list[tuple[int, int]]:
    """The closed top-level bracket pairs between ``start`` and ``end``."""
    out = []
    depth = 0
    opened = 0
    for i in range(start, end):
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


def _labelled_by(
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
    start = _sentence_start(masked, claim.start)
    limit = min(len(masked), w.end() + _SENTENCE_SPAN_25)
    end = _SENTENCE_25.search(masked, w.end(), limit)
    stop = end.start() if end else limit
    word = w.group(1)
    words = catalog.names.words_by_card
    recent = _recent_cards(mentions, claim.start, _LABEL_CARDS_25)
    fits = [c for c in recent if word in words[c]]
    if len(fits) != 1:
        return None
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


def _aside_card(claim: Claim, masked: str, mentions: tuple[NameMention, ...]) -> str | None:
    """The card the sentence is about, when the figure's card is named in it only inside asides
    before the figure (``asides_25``)."""
    if claim.binding not in ("clause", "unit") or len(claim.cards) != 1:
        return None
    card_id = claim.cards[0]
    start = _sentence_start(masked, claim.start, _ASIDE_LOOK_BACK_25)
    # an aside: a comparison, or a card named as the subject of its own clause ("(Granite Cash
    # Back charges 3%)"); not an appositive ("my pick (the X, $95 a year) has ...")
    pairs = [
        (a, b)
        for a, b in _brackets(masked, start, claim.start)
        if _ASIDE_25.search(masked, a, b) and not _ADDS_CARD_25.match(masked, a)
    ]
    if not pairs:
        return None
    lo = bisect_left(mentions, start, key=lambda x: x.start)
    hi = bisect_left(mentions, claim.start, key=lambda x: x.start)
    inside = [m for m in mentions[lo:hi] if m.card_id == card_id]
    if not inside or not all(any(a < m.start < b for a, b in pairs) for m in inside):
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
        sentence = _sentence_start(text, lead)
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


def _offer_card(claim: Claim, extraction: Extraction, catalog: Catalog) -> str | None:
    """The card named before a definite reference to an intro offer ("the 9-month 0% window")
    whose offer it is, when it is not its card's (``offers_25``)."""
    if claim.family != "intro" or len(claim.cards) != 1:
        return None
    masked = extraction.masked
    if not _OFFER_BEFORE_25.search(masked, max(0, claim.start - 24), claim.start):
        return None
    if not _OFFER_AFTER_25.match(masked, claim.end):
        return None
    clause = masked[_clause_start(masked, claim.start) : _clause_end(masked, claim.end)]
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


# -- the ruleset ---------------------------------------------------------------------------------


def revise_25(
    extraction: Extraction,
    catalog: Catalog,
    results: bool,
    worked: bool,
    asides: bool,
    offers: bool = False,
) -> Extraction:
    """The extraction with ruleset 25's readings (module docstring)."""
    if not extraction.claims:
        return extraction
    masked = extraction.masked
    mentions = extraction.mentions
    figures = _Figures(masked)
    out = list(extraction.claims)
    changed = False
    tried = 0
    for i, claim in enumerate(out):
        if not claim.cards:
            continue
        if (results and _is_result(claim, masked, figures)) or (
            worked and _is_worked_fee(claim, masked, catalog, figures)
        ):
            out[i] = replace(claim, cards=())
            changed = True
            continue
        if tried >= _MAX_REBOUND_25 or claim.family not in ("apr", "fee", "intro"):
            continue
        if offers and claim.family == "intro":
            offer = _offer_card(claim, extraction, catalog)
            if offer is not None:
                tried += 1
                out[i] = replace(claim, cards=(offer,))
                changed = True
                continue
        if asides:
            card_id = _labelled_by(claim, masked, mentions, catalog) or _aside_card(
                claim, masked, mentions
            )
            if card_id is not None and claim.cards != (card_id,):
                tried += 1
                out[i] = replace(claim, cards=(card_id,), binding="clause")
                changed = True
    return replace(extraction, claims=tuple(out)) if changed else extraction
