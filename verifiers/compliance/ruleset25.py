"""Ruleset 25: worked results, worked fees and asides (the s28 blind sets' tuning halves).

What ruleset 24 still flagged on s28's tuning halves was mostly arithmetic the answer shows its
reader - the numerate writer's totals, nets and worked fees - and figures bound to a card the
sentence names only in an aside:

* ``results_25`` - **a dollar figure the answer works out is a result, not a price**:
  ``"= **$648/yr**"``, ``"-> **about $164**"`` (emphasis or "about" between the sign and the
  figure), ``"Total: $342 a year"``, ``"Net after fee: $328.92"``, ``"Atlas Build's $29 fee
  brings that to $159"``, ``"wins by $168 a year"``. A price named in the label keeps the
  figure a claim (``"Total annual fee: $0"``, ``"yearly cost = $89"``); a price word that
  belongs to an earlier figure of the label does not (``"$120 fee -> $208 a month"``), and
  neither does a fee the result is taken after (``"net after fee"``, ``"net of the fee"``).
  Likewise a dollar figure followed by what it is an amount of that ruleset 24 did not list
  (``"$2,900 of spending"``, ``"a $350 budget"``, ``"$460.20 a year on online purchases"``,
  ``"$750 for $3,000"`` of spending) is no price - unless a price word right before it is the
  figure's own (``"costs $150 a year extra"``); so is an amount restated in other units
  (``"$242 of monthly spending ($2,900 a year)"``, ``"a $2.60 difference, or $31.20 over a
  year"``). The label and verb readings hold only where the figure is the arithmetic they
  claim: the sum of a run of the figures before it or of the lines above it, or the difference
  of two of them - a label alone proves nothing (``"Total: $300 a year"`` under lines that add
  up to $268.80 stays a claim).
* ``worked_25`` - **a fee worked out from an amount stated anywhere before it**: ``"With a
  $5,000 balance: ... Plain one: $200 fee"`` - the $200 is 4 % of the $5,000, and 4 % is the
  card's own balance-transfer fee. Ruleset 22 (part c) looked for the amount in the figure's
  sentence only; a heading ("**$1,500 advance, repaid after one month**") or a lead-in line
  states it once for the lines under it. A dollar figure not typed as an annual or late fee
  that is one of the card's own percentage fees (balance transfer, cash advance, foreign
  transaction) of a dollar amount of $100 or more stated before it in the answer is a worked
  fee: right, so no claim to report (a figure of the kind the words type it as - "a $40
  transfer fee" is worked out only with the card's transfer fee). The percentage
  must be the card's own, so a figure that merely happens to be some percentage of some amount
  is still checked.
* ``asides_25`` - **a card named only in brackets does not take the sentence's figures**: "its
  APR is a fixed 20.74% (lower than Granite Cash Back's range), it has no foreign transaction
  fee (Granite Cash Back charges 3%), and it has 0% on purchases for 9 months" is about the card
  named before the brackets. A figure outside the brackets, bound to a card whose only mentions
  in its sentence sit inside closed brackets before it, is bound to the card named last before
  the sentence's first such bracket (in its sentence, or before it within the look-back) -
  right or wrong for it, so a wrong figure for the card the sentence is about is reported. And
  **a figure labelled by a bracketed name is that card's**: "late fees of up to $40 (One) and
  $35 (Compass Balance Transfer)" - a figure right before "(<card>)" is bound to that card.
* ``refs_25`` - **"Beacon's 0% FX fee", "The 360's is 22.99%-30.99%"**: ruleset 24 read "the
  Plus's"; a possessive with no article, or a word of digits after "the", that is a word of the
  name of exactly one card named before it refers to that card when a figure follows it in its
  sentence. A word of two such names refers to neither.
* ``offers_25`` - **"The 9-month 0% window is useful for a textbook bill"**: an intro figure
  written as a definite reference to an offer ("the <N-month> 0% window / period / offer"),
  bound only by context (or to a card its sentence names after it) and wrong for that card,
  is the offer of the most recent card named before it that has it; wrong for all of them it
  is reported. "The Summit Cash Plus's 12-month 0% window" says whose it is and stays.

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
    r"|(?<![\w-])(?:wins?|ahead|leads?|better|cheaper|beats?[ \t]+\w+)[ \t]+by"
    r"|\bfee[ \t]+to)"
    rf"[ \t]*{_EMPH}[ \t]*:?[ \t]*{_EMPH}[ \t]*{_APPROX}{_EMPH}[ \t]*$"
)
_LABEL_SPAN_25 = 48
#: what ends a label (looking back from a figure): a line, a cell, a sentence, a clause
_LABEL_STOP_25 = re.compile(r"[|\n;(]|[.!?](?:[ \t]|$)")
_PRICE_25 = re.compile(
    r"\bfees?\b|\bcost(?:s|ing)?\b|\bcharg(?:es?|ing)\b|\bprice\b|\bmembership\b|\bapr\b"
    r"|\binterest\b"
)
#: a fee the result is taken after: "net after fee", "net of the annual fee", "minus the fee"
_AFTER_FEE_25 = re.compile(
    r"\b(?:after|of|minus|less|net[ \t]+of|excluding|including)[ \t]+(?:the[ \t]+|its[ \t]+)?"
    r"(?:annual[ \t]+|yearly[ \t]+|\$[\d,.]+[ \t]+)?fees?\b"
)
_FIGURE_25 = re.compile(r"[$\d]")
#: a monthly amount right after a figure: a payment, not a fee term
_MONTHLY_25 = re.compile(
    r"(?:\*\*|__)?[ \t]*(?:a|per|each|every)[ \t]+month\b|(?:\*\*|__)?[ \t]*/[ \t]?mo(?:nth)?\b"
    r"|(?:\*\*|__)?[ \t]+monthly\b"
)
#: what a dollar figure is an amount of, right after it (after "a year" / "a month" at most)
_AMOUNT_OF_25 = re.compile(
    r"[ \t]*(?:(?:a|per|each)[ \t]+(?:year|month)[ \t]+|/[ \t]*(?:y(?:ea)?r|mo(?:nth)?)[ \t]+"
    r"|annually[ \t]+|monthly[ \t]+)?"
    r"(?:of[ \t]+(?:\w+[ \t]+)?(?:spend\w*|purchases|charges|balance|debt)"
    r"|(?:monthly[ \t]+|yearly[ \t]+|annual[ \t]+)?(?:budget|spend(?:ing)?|payments?|income)"
    r"|on[ \t]+(?:your[ \t]+)?(?:online|groceries|grocery|gas|fuel|travel|dining|restaurants"
    r"|everything|other|purchases|spending|streaming|transit|drugstores?|flights|hotels)"
    r"|for[ \t]+\$|after[ \t]+\$|in[ \t]+value\b|of[ \t]+value\b)"
)


#: an amount restated in brackets: "$242 of monthly spending ($2,900 a year)"
_RESTATED_25 = re.compile(
    r"\b(?:spend\w*|purchases|budget|balance|debt|income|difference|gap|savings)"
    r"(?:[ \t]+[\w-]+){0,4}[ \t]*(?:\(|,?[ \t]*(?:-|\u2013|\u2014|or)[ \t]|,[ \t]*or[ \t])[ \t]*(?:~|about[ \t]+)?$"
)
#: a price word right before a figure: "costs $150", "a fee of about $75", "charges you $40"
_PRICE_RIGHT_BEFORE_25 = re.compile(
    r"\b(?:fees?|costs?|charges?|charging|price|membership|pay|pays|apr|interest)\b[ \t]*[:=]?"
    r"(?:[ \t]+[\w'-]+){0,3}[ \t]*[:=]?[ \t]*(?:\*\*|__)?[ \t]*$"
)


def _last_match(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The last match of ``pattern`` in ``text``, if any."""
    found = None
    for found in pattern.finditer(text):  # noqa: B007 - the loop keeps the last one
        pass
    return found


def _label_of(masked: str, pos: int) -> str:
    """The words right before ``pos`` within its line, cell, sentence or clause."""
    head = masked[max(0, pos - _LABEL_SPAN_25) : pos]
    parts = _LABEL_STOP_25.split(head)
    return parts[-1]


def _priced_25(label: str) -> bool:
    """The label names a price of its own: a price word with no figure after it (a price word
    followed by a figure belongs to that figure: "$120 fee -> $208"), not a fee the result is
    taken after ("net after fee")."""
    label = _AFTER_FEE_25.sub(" ", label)
    last = _last_match(_PRICE_25, label)
    if last is None:
        return False
    before = label[: last.start()]
    # "$120 fee ->": the price word is that figure's noun, unless a figure follows it
    if _FIGURE_25.search(label, last.end()):
        return False
    return not re.search(r"\$[\d,.]+[ \t]*(?:\w+[ \t]+){0,2}$", before)


def _is_result(claim: Claim, masked: str) -> bool:
    """A dollar figure the answer works out, or an amount of something (``results_25``)."""
    if claim.family != "fee" or claim.is_none or claim.low is None:
        return False
    if claim.unit != "usd":
        return False
    window = max(0, claim.start - _LABEL_SPAN_25)
    if _AMOUNT_OF_25.match(masked, claim.end):
        return not _priced_25(_label_of(masked, claim.start))
    if _AMOUNT_OF_24.match(masked, claim.end) or _RESTATED_25.search(masked, window, claim.start):
        # "the fee is waived and the $750 bonus": only a price word at most three words before
        # the figure makes it a price ("costs $150 a year extra", "the fee runs $95 more")
        return _PRICE_RIGHT_BEFORE_25.search(masked, window, claim.start) is None
    head = masked[window : claim.start]
    sign = _SIGN_25.search(head)
    if sign is not None:
        label = _label_of(masked, window + sign.start())
        if _priced_25(label):
            return False
        if _PRICE_25.search(_AFTER_FEE_25.sub(" ", label)) is None:
            return True  # no price word at all (ruleset 24's reading, emphasis allowed)
        # "$120 fee -> $208": the price word is an earlier figure's; the result is another
        # quantity (a monthly sum) or arithmetic - not "$150 annual fee -> $0 the first year"
        return _MONTHLY_25.match(masked, claim.end) is not None or _arithmetic(
            claim.low, masked, claim.start
        )
    verb = _RESULT_LABEL_25.search(head)
    if verb is None or _priced_25(_label_of(masked, window + verb.end())):
        return False
    # a label or verb of a result ("Total:", "brings that to", "wins by") says so only when
    # the figure is arithmetic on the figures before it
    return _arithmetic(claim.low, masked, claim.start)


#: how far back, and how many dollar figures, a worked result may be arithmetic on
_ARITH_SPAN_25 = 700
_ARITH_FIGURES_25 = 16
_ARITH_RUN_25 = 8
_LINE_FIGURE_25 = re.compile(r"\$[ \t]?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?")


def _arithmetic(value: float, masked: str, pos: int) -> bool:
    """``value`` is the sum of a run of the dollar figures right before ``pos``, the sum of the
    last figures of the lines right before it, or the difference of two of those figures."""
    if value < 1:
        return False  # "$0" is no result of anything an answer would work out
    start = max(0, pos - _ARITH_SPAN_25)
    found = [(m.start(), _money_value(m)) for m in _MONEY_22C.finditer(masked, start, pos)]
    figures = [(at, v) for at, v in found if v][-_ARITH_FIGURES_25:]
    values = [v for _, v in figures]
    for i in range(len(values)):
        total = values[i]
        for j in range(i + 1, min(len(values), i + _ARITH_RUN_25)):
            total += values[j]
            if _close(value, total):
                return True
        for other in values[i + 1 :]:
            if _close(value, abs(values[i] - other)):
                return True
    # the last figure of each line above (a worked list: "- 5% online -> $124.80")
    lines: dict[int, float] = {}
    for at, v in figures:
        lines[masked.rfind("\n", 0, at)] = v
    line_values = list(lines.values())
    total = 0.0
    for v in reversed(line_values[-_ARITH_RUN_25:]):
        total += v
        if _close(value, total) and total != v:
            return True
    return False


def _close(a: float, b: float) -> bool:
    """Equal within a dollar or 1 % (worked results are rounded: "about $164")."""
    return abs(a - b) <= max(1.0, 0.01 * abs(b))


#: fee kinds that are a percentage of an amount (with a dollar minimum)
_PERCENT_KINDS_25 = ("bt", "cash_advance", "foreign")
_AMOUNTS_BEFORE_25 = 60
_WORKED_SPAN_25 = 3_000
#: the smallest amount a worked fee is taken of (a transfer, an advance, a trip's spending)
_PRINCIPAL_MIN_25 = 100.0
_MINIMUM_25 = re.compile(r"\bmin(?:imum|\.)?\b|\bfloor\b|\bat[ \t]+least\b")


def _percent_fees(
    catalog: Catalog, card_id: str, kinds: frozenset[str] | None
) -> list[tuple[float, float]]:
    """The card's percentage fees (of ``kinds``; ``None``: all) as (rate, minimum) pairs: a
    figure typed as a transfer fee is worked out only with the card's transfer fee."""
    card = catalog.card(card_id)
    out = []
    for kind, pct, low in (
        ("bt", card.bt_fee_pct, card.bt_fee_min_usd),
        ("cash_advance", card.cash_advance_fee_pct, card.cash_advance_fee_min_usd),
        ("foreign", card.foreign_txn_fee_pct, None),
    ):
        if pct and (kinds is None or kind in kinds):
            out.append((pct, low or 0.0))
    return out


def _near(a: float, b: float) -> bool:
    return abs(a - b) <= max(0.5, 0.005 * abs(b))


def _is_worked_fee(claim: Claim, masked: str, catalog: Catalog) -> bool:
    """A dollar figure that is one of its card's own percentage fees of an amount stated before
    it (``worked_25``)."""
    if claim.family != "fee" or claim.unit != "usd" or claim.low is None or claim.is_none:
        return False
    if claim.high is not None and claim.high != claim.low:
        return False
    kinds = claim.admissible
    if not any(k in kinds for k in _PERCENT_KINDS_25) and len(kinds) < 3:
        return False  # typed as an annual, late or first-year fee: a flat fee term
    start = max(0, claim.start - _WORKED_SPAN_25)
    found = [_money_value(m) for m in _MONEY_22C.finditer(masked, start, claim.start)]
    amounts = [a for a in found[-_AMOUNTS_BEFORE_25:] if a and a >= _PRINCIPAL_MIN_25]
    if claim.low < 1:
        return False  # "$0 fee" says the card has no fee: a term, never a worked example
    if _MINIMUM_25.search(masked, max(0, claim.start - 16), min(len(masked), claim.end + 16)):
        return False  # "a $10 floor", "minimum $5": a fee's minimum, a term
    open_kinds = len(kinds) >= 3
    worked = [
        _worked(claim.low, amounts, _percent_fees(catalog, c, None if open_kinds else kinds))
        for c in claim.cards
    ]
    # several cards: a figure that may be any of them ("union") is worked for one; "both cards
    # charge $200" must be worked for each
    return any(worked) if claim.any_card else all(worked)


def _worked(value: float, amounts: list[float], fees: list[tuple[float, float]]) -> bool:
    """``value`` is one of ``fees`` (rate, minimum) of one of ``amounts``, above the fee's
    minimum (a figure equal to the minimum is read as the minimum it states: "a $10 floor")."""
    for amount in amounts:
        for pct, low in fees:
            fee = amount * pct / 100.0
            if fee > low and _near(value, fee):
                return True
    return False


_SENTENCE_25 = re.compile(r"[.!?](?:[ \t]|$)|\n")
_ASIDE_LOOK_BACK_25 = 600
#: "(One)", "(Compass Balance Transfer)", "(**X**)": a bracket holding only a card's name
_NAME_BRACKET_25 = re.compile(r"[ \t]*\((?:\*\*|__)?(#+)(?:\*\*|__)?\)")
#: "(One)", "(Cardinal)": a bracket holding one word
_WORD_BRACKET_25 = re.compile(r"[ \t]*\((?:\*\*|__)?([a-z0-9][a-z0-9-]{1,20})(?:\*\*|__)?\)")
#: the distinct cards named last before a figure that a one-word label may be about
_LABEL_CARDS_25 = 6


def _sentence_start(masked: str, pos: int) -> int:
    head = masked[max(0, pos - _ASIDE_LOOK_BACK_25) : pos]
    stop = _last_match(_SENTENCE_25, head)
    return pos - len(head) + (stop.end() if stop else 0)


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


def _labelled_by(
    claim: Claim, masked: str, mentions: tuple[NameMention, ...], catalog: Catalog
) -> str | None:
    """The card named in a bracket right after the figure: "$35 (Compass Balance Transfer)",
    or one word of the name of exactly one of the last cards named before it: "$40 (One)"."""
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
    k = bisect_left(mentions, claim.start, key=lambda x: x.start)
    seen: list[str] = []
    for x in reversed(mentions[max(0, k - _ASIDE_LOOK_BACK_25) : k]):
        if x.card_id is not None and _named(x) and x.card_id not in seen:
            seen.append(x.card_id)
            if len(seen) == _LABEL_CARDS_25:
                break
    words = catalog.names.words_by_card
    fits = [c for c in seen if word in words.get(c, ())]
    return fits[0] if len(fits) == 1 else None


def _aside_card(claim: Claim, masked: str, mentions: tuple[NameMention, ...]) -> str | None:
    """The card the sentence is about, when the figure's card is named in it only inside closed
    brackets before the figure (``asides_25``)."""
    if claim.binding not in ("clause", "unit") or len(claim.cards) != 1:
        return None
    card_id = claim.cards[0]
    start = _sentence_start(masked, claim.start)
    pairs = _brackets(masked, start, claim.start)
    if not pairs:
        return None
    lo = bisect_left(mentions, start, key=lambda x: x.start)
    hi = bisect_left(mentions, claim.start, key=lambda x: x.start)
    inside = False
    for m in mentions[lo:hi]:
        if m.card_id != card_id:
            continue
        if not any(a < m.start < b for a, b in pairs):
            return None  # named outside the brackets too: the binding stands
        inside = True
    if not inside or masked.rfind("(", start, claim.start) > masked.rfind(")", start, claim.start):
        return None  # not named in this sentence, or the figure is itself inside a bracket
    first = min(a for a, b in pairs if any(a < m.start < b for m in mentions[lo:hi]))
    if not masked[start:first].strip(" \t*_-#>|0123456789.)"):
        return None  # "(X) has no annual fee": a bracket that opens its sentence is its subject
    k = bisect_left(mentions, first, key=lambda x: x.start) - 1
    floor = bisect_left(mentions, first - _ASIDE_LOOK_BACK_25, key=lambda x: x.start)
    while k >= floor:
        m = mentions[k]
        if _named(m) and not any(a < m.start < b for a, b in pairs):
            return m.card_id if m.card_id != card_id else None
        k -= 1
    return None


_MAX_ASIDES_25 = 500


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
    out = list(extraction.claims)
    changed = False
    tried = 0
    for i, claim in enumerate(out):
        if not claim.cards:
            continue
        if (results and _is_result(claim, masked)) or (
            worked and _is_worked_fee(claim, masked, catalog)
        ):
            out[i] = replace(claim, cards=())
            changed = True
            continue
        if offers and tried < _MAX_ASIDES_25:
            offer = _offer_card(claim, extraction, catalog)
            if offer is not None:
                tried += 1
                out[i] = replace(claim, cards=(offer,))
                changed = True
                continue
        if asides and claim.family in ("apr", "fee", "intro") and tried < _MAX_ASIDES_25:
            tried += 1
            card_id = _labelled_by(claim, masked, mentions, catalog) or _aside_card(
                claim, masked, mentions
            )
            if card_id is not None and claim.cards != (card_id,):
                out[i] = replace(claim, cards=(card_id,), binding="clause")
                changed = True
    return replace(extraction, claims=tuple(out)) if changed else extraction


#: "Beacon's 0% FX fee" (a possessive with no "the": ruleset 24 read "the Plus's"), "the 360's
#: range", "the 360 charges 3%" (a word of digits)
_BARE_REF_25 = re.compile(
    r"(?<![\w'\u2019.-])(?:(?P<bare>[A-Z][A-Za-z0-9-]{1,20})['\u2019]s(?![\w'\u2019-])"
    r"|[Tt]he[ \t]{1,3}(?P<digits>[0-9][A-Za-z0-9-]{0,20})(?:['\u2019]s)?(?![\w'\u2019-])"
    r"(?![ \t]{1,3}[A-Z]))"
)
_ARTICLE_BEFORE_25 = re.compile(r"\b[Tt]he[ \t]{1,3}$")
#: a figure after the reference, in its sentence
_FIGURE_AHEAD_25 = re.compile(r"[^.;!?\n]{0,80}?[0-9$%]")
_REF_LOOK_BACK_25 = 400


def refs_25(index: NameIndex, text: str, mentions: list[NameMention]) -> list[NameMention]:
    """Mentions plus ``refs_25``'s one-word references: a possessive with no article ("Beacon's
    0% FX fee") or a word of digits after "the" ("the 360's range"), that is a word of the name
    of exactly one card named before it, with a figure after it in its sentence."""
    if not mentions:
        return mentions
    taken = SpanIndex((m.start, m.end) for m in mentions)
    added = []
    for match in _BARE_REF_25.finditer(text):
        group = "bare" if match.group("bare") else "digits"
        start = match.start(group)
        if taken.overlaps(match.start(), match.end()):
            continue
        if group == "bare" and _ARTICLE_BEFORE_25.search(text, max(0, start - 8), start):
            continue  # "the Plus's": ruleset 24's reference
        word = match.group(group).lower()
        if word not in index.name_words:
            continue
        if not _FIGURE_AHEAD_25.match(text, match.end()):
            continue
        k = bisect_left(mentions, start, key=lambda m: m.start)
        named: list[str] = []
        for m in reversed(mentions[max(0, k - _REF_LOOK_BACK_25) : k]):
            if _named(m) and m.card_id is not None and m.card_id not in named:
                named.append(m.card_id)
        fits = [c for c in named if word in index.words_by_card.get(c, ())]
        if len(fits) == 1:
            end = match.end(group)
            added.append(NameMention(start, end, EXACT, fits[0], text[start:end]))
    if not added:
        return mentions
    return sorted([*mentions, *added], key=lambda m: m.start)


#: "the 9-month 0% window", "the 0% intro period": a definite reference to an offer
_OFFER_BEFORE_25 = re.compile(r"\bthe[ \t]+(?:[\w-]+[ \t]+){0,2}$")
_OFFER_AFTER_25 = re.compile(
    r"(?:[ \t]+(?:intro(?:ductory)?|apr|interest-free|promo(?:tional)?|purchase|transfer))*"
    r"[ \t]+(?:window|period|offer|promo|deal|stretch|runway)\b"
)


def _offer_card(claim: Claim, extraction: Extraction, catalog: Catalog) -> str | None:
    """The card named before a definite reference to an intro offer ("the 9-month 0% window")
    whose offer it is, when it is not its card's (``offers_25``)."""
    if claim.family != "intro" or len(claim.cards) != 1:
        return None
    if claim.binding != "context" and not _named_only_after(claim, extraction):
        return None  # "the Summit Cash Plus's 12-month 0% window": its sentence says whose
    masked = extraction.masked
    if not _OFFER_BEFORE_25.search(masked, max(0, claim.start - 24), claim.start):
        return None
    if not _OFFER_AFTER_25.match(masked, claim.end):
        return None
    if _right_for(claim, catalog, claim.cards[0]):
        return None
    mentions = extraction.mentions
    k = bisect_left(mentions, claim.start, key=lambda m: m.start)
    seen: set[str] = set()
    for m in reversed(mentions[max(0, k - _REF_LOOK_BACK_25) : k]):
        card_id = m.card_id
        if card_id is None or m.kind in (UNKNOWN, AMBIGUOUS) or card_id in seen:
            continue
        seen.add(card_id)
        if card_id != claim.cards[0] and _right_for(claim, catalog, card_id):
            return card_id
    return None
