"""Ruleset 25: worked results and worked fees (the s28 tuning halves).

What ruleset 24 still flagged on s28's tuning halves was mostly arithmetic the answer shows its
reader - the numerate writer's totals, nets and worked fees - and figures bound to a card the
sentence names only in an aside. Each reading is a class, and each holds only where the text
shows what it claims: two red teams with the source code attacked it before it landed (stop 39),
and their attacks are test cases. This module reads the arithmetic and holds ``revise_25``;
``ruleset25b`` reads who a figure is about (``asides_25``, ``refs_25``, ``offers_25``).

* ``results_25`` - **a dollar figure the answer works out is a result, not a price**:
  ``"... = **$648/yr**"``, ``"-> **about $164**"`` (emphasis or "about" between the sign and
  the figure, which ruleset 24 did not read), ``"Total: $342 a year"``, ``"Net after fee:
  $328.92"``, ``"Atlas Build's $29 fee brings that to $159"``, ``"wins by $168 a year"`` - but
  only where the figure **is** the arithmetic: the sum of the figures right before it (``$240 +
  $72 + $336``), of its own line's amounts or of the lines right above it (a worked list), or the
  difference of the last two figures (or lines) - and where the text from the first operand on
  says what they are amounts of ("online", "rewards", "earn", "interest", ...: "$100 + $50 =
  $150 a year" under "Annual fee:" is a fee's breakdown). A monthly amount after a sign (``"$120
  fee -> $208 a month"``) is a payment. A price named in the sentence before the figure, or on a
  label line right above it, keeps the figure a claim - unless it is the noun of an earlier
  dollar or percent figure ("$29 fee"; not a year: "2025 annual fee") or a fee the result is
  taken after ("net after fee"): ``"Then there's the annual fee; it comes to $150"``.
  Amounts: a dollar figure of spending, a budget, an amount on a category (``"$2,900 of
  spending"``, ``"a $350 budget"``, ``"$460.20 a year on online purchases"``) or restated in
  other units (``"$242 of monthly spending ($2,900 a year)"``, ``"a $2.60 difference, or $31.20
  over a year"``) is no price unless its sentence names a price; and after a noun that cannot be
  a price ("bonus", "transfer", "balance") a price word more than three words back is no label
  (``"The fee is waived and the $750 bonus needs $3,000"``). "More", "extra", "cheaper" after a
  figure keep ruleset 24's reading (``"the fee runs to $150 extra"``).
* ``worked_25`` - **a fee worked out from a transaction stated before it**: ``"With a $5,000
  balance: ... Plain one: $200 fee"`` - 4 % of a $5,000 balance, and 4 % is that card's
  transfer fee. A dollar figure not typed as an annual or late fee, nor written as a minimum or
  as a standing fee ("$150 just for keeping the card open"), that is the card's own fee for a
  transaction of $100 or more the answer states before it - a transfer or balance (its transfer
  fee; moving, owing or carrying a sum only in a sentence about a transfer or balance), a cash
  advance or withdrawal (its cash-advance fee), spending abroad or on a trip (its foreign fee) -
  is a worked fee: right, so no claim. An amount that is no transaction ("spend $3,000 for the
  bonus", "You owe $3,000 on your car") works nothing out.

See "Ruleset 25" in ``verifiers/compliance/RULESETS.md``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import replace

from replicas.verifiers.compliance.catalog import Catalog
from replicas.verifiers.compliance.claims import Claim, Extraction
from replicas.verifiers.compliance.ruleset22c import _MONEY_22C, _money_value
from replicas.verifiers.compliance.ruleset24 import _AMOUNT_OF_24
from replicas.verifiers.compliance.ruleset25b import (
    MAX_REBOUND_25,
    SENTENCE_SPAN_25,
    aside_card,
    clause_end,
    labelled_by,
    offer_card,
    sentence_start,
)

__all__ = ["revise_25"]

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
    start = sentence_start(masked, pos)
    head = masked[start:pos]
    if start and masked[start - 1] == "\n":
        # a label line right above ("Summit Cash Plus annual fee:") labels this one
        above = masked[max(0, start - 1 - SENTENCE_SPAN_25) : start - 1]
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
        sentence = masked[sentence_start(masked, start) : clause_end(masked, end) + 1]
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
    if _STANDING_FEE_25.search(masked, claim.end, clause_end(masked, claim.end)):
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
        if tried >= MAX_REBOUND_25 or claim.family not in ("apr", "fee", "intro"):
            continue
        if offers and claim.family == "intro":
            offer = offer_card(claim, extraction, catalog)
            if offer is not None:
                tried += 1
                out[i] = replace(claim, cards=(offer,))
                changed = True
                continue
        if asides:
            card_id = labelled_by(claim, masked, mentions, catalog) or aside_card(
                claim, masked, mentions
            )
            if card_id is not None and claim.cards != (card_id,):
                tried += 1
                out[i] = replace(claim, cards=(card_id,), binding="clause")
                changed = True
    return replace(extraction, claims=tuple(out)) if changed else extraction
