"""Ruleset 27: readings about what a figure or a name can be, whoever wrote it.

Rulesets 24-26 read one round's writers phrase by phrase, and each carried to the same writers'
held-out halves but not to new writers (RULESETS.md, "Ruleset 26"). The readings here were chosen
on the tuning halves of all read blind sets at once (w1-w24), and only where a class holds for
any writer, not a phrasing:

* ``shapes_27`` - **a figure with no fee named at it must look like a fee to be held as one.** A
  fee figure whose words name no fee ("a flat 2% card with no fee", "groceries (3% vs 2%)",
  "roughly $247 after the fee", "Fee on $4,000 | $120") may be any fee of its card, and ruleset 26
  reported "no fee of X is 2%". Here such an open figure is checked only when its value is a value
  some card of the catalog has for a fee of its unit (a dollar fee or minimum, a percentage fee),
  or within 15 % of one of its card's own fees it may be: otherwise it is a reward rate, an
  amount or a result, and it is left unverified. A figure whose words name the fee ("a 4% foreign
  fee", "annual fee $89", "$89 a year") is always checked, and so is a figure that may only be the
  annual or first-year fee, a figure with a fee noun right at it ("$60 fee", "fee: $60", "fee of
  $60") and a percentage with a dollar minimum ("1.5% (min $7)"), and so is a figure whose clause
  holds a fee word about it ("a $60 service fee", "$60 in fees", "the fees are $60", "Fee on the
  Summit Cash Plus: $60", a table column or row headed "Fee") - not a fee word that is another
  figure's noun ("the $550 fee"), denied ("no fee"), netted ("$247 after the fee", "to cover
  the fee"), waived, compared ("a cheaper fee", "the higher transfer fee") or a kind of card
  ("the fee card"). An open "0%" with no fee noun
  at it ("plus 0% on purchases", "the 0% period") is an intro rate's, not a fee.
* ``tails_27`` - **"the Clear Plus" after "Cascade Clear Plus" is that card.** Ruleset 18 read
  "the <last words of one named card>" as that card, but a tail that ends in a product word
  ("Plus", "Elite") was taken first as an unknown product. An unknown product whose words are the
  last words (all but the first) of exactly one card the response names in full before it is
  that card - unless an issuer follows it ("the Clear Plus from Apex Bank", "by", "issued by",
  "at"), "a" / "an" stands before it ("Apex also issues a Clear Plus"), or its clause calls it
  another card ("another", "new", "separate", "different", "its own", "called", "issues", "a
  totally separate card" after it). A tail of several named cards, a tail written before the full name, and a name
  that only begins like a named card ("Redwood Journey" after "Redwood Journey Elite") stay
  unknown: that is how invented names are made.
* ``worked_27`` - **the figure after "=" that the expression before it works out to is a
  result.** "$413 x 12 x 2% = **$99.12 a year**", "$216 + $90 + $30 + $150 = **$486 a year**",
  "$468 x 2% = $9.36": ruleset 25 read a sum after "=" as a result only when its line said what
  the amounts were ("online", "rewards", ...) and never read a product. Here the expression is
  evaluated (x and / before + and -; a percentage is a fraction), and a dollar figure right after
  "=", "~=", "->" that it equals (within a dollar or 1 %) is unverified when its paragraph says
  what the amounts are worth ("earn", "rewards", "back", "spend", "groceries", "travel", ...) -
  unless the sentence before the expression, or a label line above it, names a price ("Annual
  fee: $50 + $45 = $95", "To keep it you pay 12 x $8 = $96", "membership", "upkeep"), or a price
  word follows the figure in its clause ("= $95 annual fee", "$96 a year in dues", "a year to
  hold the card"). A wrong sum is still checked.
* ``pairs_27`` - **"(0% vs 1.99%)": the second figure of a comparison may be the other card's.**
  "Harbor Miles has the better intro (0% vs 1.99%)", "the lower starting point for its standard
  rate (12.74% against 16.24%)": both figures were bound to the card the sentence is about. When
  two figures of one kind (the same fee, the same APR: not "18.24% APR vs 29.99% penalty APR")
  stand as "A vs B" ("versus", "against", "compared with"), and both are bound to one card, the
  second is right if it is right for that card or for another card the comparison is with: one
  named before the pair in its paragraph, else the card named last before the paragraph (never
  one named only after it); with no other card it stays the card's. When the sentence names two cards before the pair ("The Plus has a lower
  rate than the Summit Cash (18.24% against 19.99%)"), the figures are the two cards' in the
  order they were named.
* ``generic_27`` - **"an everyday rewards card" is no product.** A brand that is an ordinary
  word ("Everyday") made a lower-case phrase an unknown product: "an everyday cash back card",
  "for everyday rewards". An unknown product written all in lower case, of two or three words,
  whose first word is an ordinary word of that kind ("everyday", "basic", "simple", "standard",
  "regular", "plain") and whose others are category words ("rewards", "cash", "back", "travel",
  "miles", "points"), after "a" / "an" or "for" and before "card(s)" or the end of its clause,
  is a kind of card, not a name. Not after "apply for", "sign up for", "go for", "pick",
  "recommend"; a brand of another kind ("summit rewards"), a tier word ("elite", "plus"), "the
  everyday rewards" or capitals are still a product.
* ``rewards_27`` - **"5% on gas" after "the first year" is a reward rate.** Ruleset 21 read a
  percentage followed by a spend category as a reward rate unless its clause typed it first, and
  "first year" typed it as an intro offer: "(annual fee: $250, charged from the first year): 5%
  on gas", "$95 annual fee, $0 the first year, 3% travel and dining", "both $695 a year with no
  first-year waiver, both 5% on travel". A percentage above 0 % typed as an intro offer or an APR,
  followed at once by a spend category (gas, groceries, dining, travel, online, ...; not
  "abroad", a fee or an APR word after it), is a reward rate - unless an intro, promo, APR or
  rate word stands between the start of its clause and the figure, or "for N months" follows.

See "Ruleset 27" in ``verifiers/compliance/RULESETS.md``.
"""

from __future__ import annotations

import re
import weakref
from bisect import bisect_left
from dataclasses import replace
from itertools import pairwise
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.attribution import UNION
from replicas.verifiers.compliance.catalog import Catalog
from replicas.verifiers.compliance.claims import Claim, Extraction
from replicas.verifiers.compliance.mentions import (
    EXACT,
    MISSPELLED,
    UNKNOWN,
    NameMention,
    tokens_of,
)
from replicas.verifiers.compliance.ruleset25 import _close, _priced_before
from replicas.verifiers.compliance.ruleset25b import sentence_start

if TYPE_CHECKING:
    from collections.abc import Sequence

    from replicas.verifiers.compliance.names import NameIndex

# -- shapes: an open fee figure must look like a fee ------------------------------------------------

#: the catalog fields a fee of each unit may be, and the fields each fee kind is checked against
_USD_FEES_27 = (
    "annual_fee_usd",
    "annual_fee_first_year_usd",
    "late_fee_usd",
    "min_interest_charge_usd",
    "bt_fee_min_usd",
    "cash_advance_fee_min_usd",
)
_PCT_FEES_27 = ("foreign_txn_fee_pct", "bt_fee_pct", "cash_advance_fee_pct")
_FIELDS_OF_KIND_27 = {
    ("usd", "annual"): ("annual_fee_usd",),
    ("usd", "annual_first_year"): ("annual_fee_first_year_usd", "annual_fee_usd"),
    ("usd", "late"): ("late_fee_usd",),
    ("usd", "min_interest"): ("min_interest_charge_usd",),
    ("usd", "bt"): ("bt_fee_min_usd",),
    ("usd", "cash_advance"): ("cash_advance_fee_min_usd",),
    ("pct", "foreign"): ("foreign_txn_fee_pct",),
    ("pct", "bt"): ("bt_fee_pct",),
    ("pct", "cash_advance"): ("cash_advance_fee_pct",),
}
_ANNUAL_27 = frozenset({"annual", "annual_first_year"})
#: how near one of its card's own fees an open figure may be and still be read as that fee (a
#: mistyped fee: "$89" for $95)
_NEAR_27 = 0.15
_SHAPES_CACHE_27: dict[int, tuple[weakref.ref[Catalog], dict[str, frozenset[float]]]] = {}


def _shapes(catalog: Catalog) -> dict[str, frozenset[float]]:
    """Every value a dollar fee and a percentage fee has in the catalog ("no fee" is 0), once per
    catalog object (a catalog is immutable once built)."""
    held = _SHAPES_CACHE_27.get(id(catalog))
    if held is not None and held[0]() is catalog:
        return held[1]
    shapes = {
        unit: frozenset(
            0.0 if (v := getattr(card, f)) is None else float(v)
            for card in catalog.cards
            for f in fields
        )
        for unit, fields in (("usd", _USD_FEES_27), ("pct", _PCT_FEES_27))
    }
    key = id(catalog)
    _SHAPES_CACHE_27[key] = (
        weakref.ref(catalog, lambda _: _SHAPES_CACHE_27.pop(key, None)),
        shapes,
    )
    return shapes


def _is_open(claim: Claim) -> bool:
    """A fee figure whose words name no fee: it may be several fees, not only the annual one."""
    return (
        claim.family == "fee"
        and not claim.is_none
        and claim.low is not None
        and claim.unit in ("usd", "pct")
        and len(claim.kinds) > 1
        and not claim.kinds <= _ANNUAL_27
    )


def _near_own(claim: Claim, catalog: Catalog, value: float) -> bool:
    """``value`` is within ``_NEAR_27`` of a non-zero fee its card may have as one of its kinds."""
    for card_id in claim.cards:
        card = catalog.card(card_id)
        for kind in claim.kinds:
            for f in _FIELDS_OF_KIND_27.get((claim.unit, kind), ()):
                own = getattr(card, f)
                if own and abs(value - float(own)) <= _NEAR_27 * float(own):
                    return True
    return False


#: a fee word, and what makes one in a figure's clause not about that figure: another figure's
#: noun ("the $550 fee"), a denial ("no fee", "fee-free"), arithmetic after a fee ("$247 after
#: the fee", "enough to cover the fee") or a waiver ("with the fee waived")
_FEE_WORD_27 = re.compile(
    r"\b(?:fees?|charges?|charged|charging|costs?|dues|upkeep|membership|pricing|price)\b"
    r"(?!-free)"
)
#: another figure right before a fee word, at most three words between ("$550 fee", "5% (min
#: $10) transfer fee")
_OTHER_FIGURE_27 = re.compile(
    r"(?:\$[ \t]?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?[ \t]?%)(?:[ \t]*\([^()\n]{0,20}\))?"
    r"(?:[ \t]+[a-z][a-z-]*){0,3}[ \t]*$"
)
_DENIED_27 = re.compile(
    r"\b(?:no|zero|without(?:[ \t]+(?:a|an|the|any))?)(?:[ \t]+[a-z-]+){0,2}[ \t]*$"
)
_NETTED_27 = re.compile(
    r"\b(?:after|before|net[ \t]+of|minus|less|once|cover(?:s|ed|ing)?|offsets?|earns?[ \t]+back"
    r"|justif\w+|outweighs?|beats?|worth)[ \t]+(?:the[ \t]+|its[ \t]+|a[ \t]+|an[ \t]+|any[ \t]+"
    r"|that[ \t]+|their[ \t]+|your[ \t]+)?(?:[a-z]+[ \t]+)?$"
)
_WAIVED_27 = re.compile(r"[ \t]+(?:is[ \t]+|being[ \t]+)?waived\b")
#: "the fee card", "fee cards": a kind of card; "a cheaper fee", "the higher transfer fee": a
#: comparison, not the figure's term
_FEE_CARD_27 = re.compile(r"[ \t]+cards?\b")
_COMPARED_27 = re.compile(
    r"\b(?:cheaper|lower|higher|bigger|smaller|larger|better|worse|steeper|heftier|extra|same)"
    r"(?:[ \t]+[a-z-]+)?[ \t]+$"
)
_CLAUSE_27 = re.compile(r"[.!?](?:[ \t]|$)|[;\n|]")
_CLAUSE_SPAN_27 = 160


def _about_this(word: re.Match[str], claim: Claim, masked: str, start: int) -> bool:
    """A fee word of the figure's clause that is not another figure's noun, denied, netted or
    waived."""
    lead = masked[max(start, word.start() - 60) : word.start()]
    if claim.end <= word.start():
        between = masked[claim.end : word.start()]
        if _OTHER_FIGURE_27.search(between) is not None:
            return False  # "$60 and a $550 fee": the fee word is the later figure's
    elif _OTHER_FIGURE_27.search(lead) is not None:
        return False  # "the $550 fee by 3.5%": the fee word is the earlier figure's
    return not (
        _DENIED_27.search(lead)
        or _NETTED_27.search(lead)
        or _COMPARED_27.search(lead)
        or _WAIVED_27.match(masked, word.end())
        or _FEE_CARD_27.match(masked, word.end())
    )


def _fee_in_clause(claim: Claim, masked: str) -> bool:
    """The figure's clause (its sentence, cell or line) has a fee word about it, or its table
    column or row is headed by one."""
    lo = max(0, claim.start - _CLAUSE_SPAN_27)
    start = lo
    for stop in _CLAUSE_27.finditer(masked, lo, claim.start):
        start = stop.end()
    end_stop = _CLAUSE_27.search(masked, claim.end, claim.end + _CLAUSE_SPAN_27)
    end = end_stop.start() if end_stop else min(len(masked), claim.end + _CLAUSE_SPAN_27)
    for word in _FEE_WORD_27.finditer(masked, start, end):
        if claim.start <= word.start() < claim.end:
            continue
        if _about_this(word, claim, masked, start):
            return True
    return _fee_header(claim, masked)


#: how far back or ahead a line's or paragraph's edge is looked for (longer ones are cut there,
#: so a 100 kB line or paragraph costs the same per figure as a short one)
_EDGE_SPAN_27 = 2_000


def _line_at(masked: str, pos: int) -> tuple[int, int]:
    """The line holding ``pos``, cut at ``_EDGE_SPAN_27`` characters each side."""
    low = max(0, pos - _EDGE_SPAN_27)
    start = masked.rfind("\n", low, pos)
    end = masked.find("\n", pos, pos + _EDGE_SPAN_27)
    return (low if start < 0 else start + 1), (
        min(len(masked), pos + _EDGE_SPAN_27) if end < 0 else end
    )


def _paragraph_start(masked: str, pos: int) -> int:
    """Where the paragraph holding ``pos`` starts, at most ``_EDGE_SPAN_27`` characters back."""
    low = max(0, pos - _EDGE_SPAN_27)
    found = masked.rfind("\n\n", low, pos)
    return low if found < 0 else found + 1


def _fee_header(claim: Claim, masked: str) -> bool:
    """A table cell whose column header or row label is a fee word ("| Fee |")."""
    start, end = _line_at(masked, claim.start)
    line = masked[start:end]
    if not line.lstrip().startswith("|"):
        return False
    cells = line.split("|")
    if len(cells) > 2 and _FEE_WORD_27.search(cells[1]):
        return True  # a row labelled "Fee"
    column = masked.count("|", start, claim.start)
    top = start  # the table's first line is its header
    for _ in range(_TABLE_ROWS_27):
        if top == 0:
            break
        prev, _end = _line_at(masked, top - 1)
        if not masked[prev : top - 1].lstrip().startswith("|"):
            break
        top = prev
    header = masked[top : _line_at(masked, top)[1]].split("|")
    return column < len(header) and _FEE_WORD_27.search(header[column]) is not None


#: how many rows up a table's header is looked for
_TABLE_ROWS_27 = 60


#: a fee noun at the figure: "$60 fee", "3% (min $5) charge", "fee: $60", "fee of $60"
_FEE_NOUN_AFTER_27 = re.compile(r"[)\]]?[ \t]*(?:\*\*|__)?[ \t]*(?:fees?|charges?)\b")
_FEE_NOUN_BEFORE_27 = re.compile(
    r"\b(?:fees?|charges?)[ \t]*(?:\*\*|__)?[ \t]*(?::|of|is|=|-|\u2013|\u2014)?[ \t]*"
    r"(?:\*\*|__)?[ \t]*(?:(?:just|only|about|roughly|around)[ \t]+|~)?$"
)


def _fee_named(claim: Claim, masked: str) -> bool:
    """A fee noun stands right at the figure, or a dollar minimum ("1.5% (min $7)"): it is a fee
    claim, whichever fee it is."""
    if claim.min_usd is not None:
        return True
    return _FEE_NOUN_AFTER_27.match(masked, claim.end) is not None or (
        _FEE_NOUN_BEFORE_27.search(masked, max(0, claim.start - 24), claim.start) is not None
    )


def _fee_shaped(claim: Claim, catalog: Catalog) -> bool:
    if claim.unit == "pct" and claim.low == 0:
        return False  # "plus 0% on purchases", "the 0% period": with no fee noun, an intro rate
    shapes = _shapes(catalog)[claim.unit]
    values = [claim.low] if claim.high is None else [claim.low, claim.high]
    return all(
        v is not None and (float(v) in shapes or _near_own(claim, catalog, float(v)))
        for v in values
    )


# -- worked: "$413 x 12 x 2% = $99.12 a year" ------------------------------------------------------

_NUM_27 = r"\$?[ \t]?\d[\d,]*(?:\.\d+)?%?"
_OP_27 = r"[ \t]*(?:\+|-|\u2212|\u00d7|x|\*|\u00f7|/)[ \t]*"
#: an expression of two or more numbers, then a sign (and emphasis or "about") right before a figure
_WORKED_27 = re.compile(
    rf"(?P<expr>{_NUM_27}(?:{_OP_27}{_NUM_27}){{1,8}})[ \t]*(?:=|\u2248|~=|->|\u2192)[ \t]*"
    r"(?:\*\*|__)?[ \t]*(?:~|about[ \t]+|roughly[ \t]+|approx(?:imately|\.)?[ \t]+)?"
    r"(?:\*\*|__)?[ \t]*$"
)
_TOKEN_27 = re.compile(rf"(?P<num>{_NUM_27})|(?P<op>\+|-|\u2212|\u00d7|x|\*|\u00f7|/)")
_WORKED_SPAN_27 = 160
#: a fee word after the figure in its clause: "= $95 annual fee"
_FEE_AFTER_27 = re.compile(
    r"[^,.;:|\n()]{0,30}?\b(?:fees?|charges?|costs?|price|dues|upkeep|membership|pay\w*"
    r"|to[ \t]+(?:keep|hold|own|have)|for[ \t]+(?:keeping|holding|owning|having))\b"
)
#: price words the sentence before a worked result (and a label line above it) may hold
_PRICE_27 = re.compile(
    r"\b(?:fees?|charges?|charged|costs?|price|dues|upkeep|membership|pay\w*|keep\w*|hold\w*"
    r"|own\w*|yearly[ \t]+cost|annual(?:ly)?)\b"
)
#: what a worked result is worth: its paragraph says what the amounts are
_WORTH_27 = re.compile(
    r"\b(?:earn\w*|rewards?|back|cash-?back|value|worth|net|sav(?:e|es|ed|ing|ings)|bonus"
    r"|points|miles|spend\w*|grocer\w*|gas|fuel|dining|restaurants?|travel|online)\b"
)


def _value_of(expr: str) -> float | None:
    """The value of a chain of numbers and operators (x and / before + and -), or ``None``."""
    terms: list[float] = []
    factor: float | None = None
    pending = "+"
    expect_num = True
    for m in _TOKEN_27.finditer(expr):
        if m.group("num") is not None:
            if not expect_num:
                return None
            raw = m.group("num").replace("$", "").replace(",", "").strip()
            value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
            if pending in "+-\u2212":
                if factor is not None:
                    terms.append(factor)
                factor = value if pending == "+" else -value
            elif pending in "\u00d7x*":
                factor = (factor or 0.0) * value
            else:
                if value == 0:
                    return None
                factor = (factor or 0.0) / value
            expect_num = False
        else:
            if expect_num:
                return None
            pending = m.group("op")
            expect_num = True
    if expect_num or factor is None:
        return None
    return sum(terms) + factor


def _is_worked(claim: Claim, masked: str) -> bool:
    """A dollar fee figure right after a sign that the expression before it equals."""
    if claim.family != "fee" or claim.is_none or claim.low is None or claim.unit != "usd":
        return False
    if claim.high is not None and claim.high != claim.low:
        return False  # a range is no worked result
    head = masked[max(0, claim.start - _WORKED_SPAN_27) : claim.start]
    if "=" not in head and "\u2248" not in head and "->" not in head and "\u2192" not in head:
        return False
    m = _WORKED_27.search(head)
    if m is None:
        return False
    expr = m.group("expr")
    # the shortest tail of the chain that works out to the figure ("in 2025 - $216 + $90 = $306")
    starts = [t.start() for t in _TOKEN_27.finditer(expr) if t.group("num") is not None]
    for at in starts[:-1]:
        value = _value_of(expr[at:])
        if value is not None and _close(claim.low, value):
            break
    else:
        return False
    start = claim.start - len(head) + m.start("expr") + at
    if _priced_before(masked, start) or _FEE_AFTER_27.match(masked, claim.end):
        return False
    # the sentence before the expression, with a label line right above it, names no price
    lead = sentence_start(masked, start)
    above = _line_at(masked, max(0, lead - 1))[0]
    if lead and masked[lead - 1] == "\n" and masked[above : lead - 1].rstrip(" \t*_").endswith(":"):
        lead = above
    if _PRICE_27.search(masked, lead, start):
        return False
    # and its paragraph says what the amounts are worth ("on $700 a month of groceries")
    paragraph = _paragraph_start(masked, start)
    return _WORTH_27.search(masked, paragraph, claim.start) is not None


# -- pairs: "(0% vs 1.99%)" ---------------------------------------------------------------------

_VERSUS_27 = re.compile(
    r"[ \t]*(?:(?:variable|fixed|apr|intro|a[ \t]+year|/[ \t]?yr|per[ \t]+year)[ \t]*)?"
    r"(?:\*\*|__)?[ \t]*(?:vs\.?|versus|against|compared[ \t]+(?:with|to))[ \t]+"
    r"(?:\*\*|__)?[ \t]*(?:(?:just|only|about)[ \t]+|~)?"
)


class _Named:
    """The cards named in full or misspelled, by position: the distinct cards of a span and the
    card named last before a position, without walking the whole list each time."""

    def __init__(self, extraction: Extraction) -> None:
        named = [m for m in extraction.mentions if m.card_id and m.kind in (EXACT, MISSPELLED)]
        self.starts = [m.start for m in named]
        self.cards = [m.card_id or "" for m in named]
        self._spans: dict[tuple[int, int], list[str]] = {}

    def within(self, start: int, end: int) -> list[str]:
        """The distinct cards named in ``[start, end)``, in order (cached per span)."""
        key = (start, end)
        held = self._spans.get(key)
        if held is None:
            lo, hi = bisect_left(self.starts, start), bisect_left(self.starts, end)
            held = list(dict.fromkeys(self.cards[lo:hi]))
            self._spans[key] = held
        return held

    def last_before(self, pos: int, other_than: str) -> str:
        """The card (not ``other_than``) named last before ``pos``, or ``""``."""
        k = bisect_left(self.starts, pos) - 1
        while k >= 0 and self.cards[k] == other_than:
            k -= 1
        return self.cards[k] if k >= 0 else ""


def _same_kind(first: Claim, second: Claim) -> bool:
    """Two figures of one term, or one whose term is left open ("0% vs 1.99% on purchases")."""
    return first.kind == second.kind or "any" in (first.kind, second.kind)


def _pairs(extraction: Extraction, out: list[Claim]) -> bool:
    """Rebind the second figure of each "A vs B" pair of one kind (module docstring); True if any
    claim changed."""
    masked = extraction.masked
    if not any(w in masked for w in (" vs", "versus", "against", "compared")):
        return False
    named = _Named(extraction)
    changed = False
    order = sorted(range(len(out)), key=lambda k: (out[k].start, out[k].end))
    for a, b in pairwise(order):
        first, second = out[a], out[b]
        if (
            first.family != second.family
            or not _same_kind(first, second)
            or len(first.cards) != 1
            or len(second.cards) != 1
            or second.start < first.end
            or _VERSUS_27.fullmatch(masked, first.end, second.start) is None
        ):
            continue
        start = sentence_start(masked, first.start)
        # "The Plus has a lower rate than the Summit Cash (18.24% against 19.99%)": two cards
        # named before the pair in its sentence are paired with its figures in order
        before = named.within(start, first.start)
        if len(before) == 2:
            if (first.cards[0], second.cards[0]) != (before[0], before[1]):
                out[a] = replace(first, cards=(before[0],), binding="clause")
                out[b] = replace(second, cards=(before[1],), binding="clause")
                changed = True
            continue
        if second.cards != first.cards:
            continue
        # "Harbor Miles has the better intro (0% vs 1.99%)": the second may be the card's the
        # comparison is with - one named before it in its paragraph, else the card named last
        # before it; it is right if it is right for the card itself or for one of those
        own = first.cards[0]
        lo = _paragraph_start(masked, first.start)
        others = [c for c in named.within(lo, first.start) if c != own]
        if not others:
            last = named.last_before(lo, own)
            others = [last] if last else []
        if not others:
            continue  # no other card to compare with: the figure stays the card's
        out[b] = replace(second, cards=(own, *others), binding=UNION)
        changed = True
    return changed


# -- rewards: "5% on gas" after "the first year" ------------------------------------------------

_CATEGORY_AFTER_27 = re.compile(
    r"[ \t]*(?:\*\*|__)?[ \t]*(?:(?:cash[ \t-]?)?back[ \t]+)?(?:(?:on|in|at|for)[ \t]+)?"
    r"(?:all[ \t]+|your[ \t]+)?(?:gas|fuel|groceries|grocery|supermarkets?|dining|restaurants?"
    r"|travel|online|streaming|drugstores?|transit)\b(?![ \t]*(?:abroad|overseas|fees?|apr|rate))"
)
_TYPED_BEFORE_27 = re.compile(r"\b(?:intro\w*|promo\w*|aprs?|rates?|0%)")
_FOR_MONTHS_27 = re.compile(r"[^.;\n]{0,40}?\bfor[ \t]+(?:\d+|[a-z]+(?:-[a-z]+)?)[ \t]+months?\b")
_CLAUSE_STOP_27 = re.compile(r"[.;:!?\n(]|\u2014|\u2013| - ")


def _is_reward(claim: Claim, masked: str) -> bool:
    """A rate typed as an intro offer or an APR that is a reward rate (module docstring)."""
    if claim.family not in ("intro", "apr") or claim.is_none or claim.unit != "pct":
        return False
    if not claim.low or (claim.high is not None and claim.high != claim.low):
        return False
    after = _CATEGORY_AFTER_27.match(masked, claim.end)
    if after is None or _FOR_MONTHS_27.match(masked, after.end()):
        return False
    head = masked[max(0, claim.start - 80) : claim.start]
    stops = list(_CLAUSE_STOP_27.finditer(head))
    clause = head[stops[-1].end() :] if stops else head
    return _TYPED_BEFORE_27.search(clause) is None


def revise_27(
    extraction: Extraction,
    catalog: Catalog,
    shapes: bool,
    worked: bool,
    pairs: bool,
    rewards: bool = False,
) -> Extraction:
    """The extraction with ruleset 27's claim readings (module docstring)."""
    if not (shapes or worked or pairs or rewards) or not extraction.claims:
        return extraction
    masked = extraction.masked
    out = list(extraction.claims)
    changed = pairs and _pairs(extraction, out)
    for i, claim in enumerate(out):
        if not claim.cards:
            continue
        if (
            (
                shapes
                and _is_open(claim)
                and not _fee_shaped(claim, catalog)
                and not _fee_named(claim, masked)
                and not _fee_in_clause(claim, masked)
            )
            or (worked and _is_worked(claim, masked))
            or (rewards and _is_reward(claim, masked))
        ):
            out[i] = replace(claim, cards=())
            changed = True
    return replace(extraction, claims=tuple(out)) if changed else extraction


# -- tails: "the Clear Plus" after "Cascade Clear Plus" ------------------------------------------


_CATEGORY_27 = frozenset(
    {"rewards", "reward", "cash", "back", "cashback", "travel", "miles", "points"}
)
#: ordinary words a brand may also be, that describe a kind of card in lower case
_ORDINARY_27 = frozenset({"everyday", "basic", "simple", "standard", "regular", "plain"})
#: after a lower-case kind of card: "card" / "cards", or the end of its clause
_KIND_AFTER_27 = re.compile(
    r"(?:[ \t]+(?:back|cash|rewards?|travel|miles|points))*[ \t]*(?:cards?\b|[,.;:!?)\n]|$)"
)
#: before one: "a" / "an", or "for" that no "apply" / "sign up" / "go" / "opt" leads
_KIND_BEFORE_27 = re.compile(r"(?:^|[^\w'])(?:an?|for)[ \t]+$", re.I)
_SIGN_UP_BEFORE_27 = re.compile(
    r"\b(?:apply(?:ing)?|appl(?:ied|ies)|sign(?:ing|ed|s)?[ \t]+up|go(?:ing)?|opt(?:ing)?|get"
    r"|pick|choose|recommend\w*)[ \t]+(?:now[ \t]+|today[ \t]+)?for[ \t]+$",
    re.I,
)


def _generic(text: str, m: NameMention) -> bool:
    """An all lower-case unknown product that is a kind of card (module docstring)."""
    if m.kind != UNKNOWN or m.surface != m.surface.lower():
        return False
    words = tokens_of(m.surface)
    if not 2 <= len(words) <= 3 or words[0] not in _ORDINARY_27:
        return False
    if not all(w in _CATEGORY_27 for w in words[1:]):
        return False
    if _KIND_AFTER_27.match(text, m.end) is None:
        return False
    before = text[max(0, m.start - 24) : m.start]
    if _KIND_BEFORE_27.search(before) is None:
        return False
    return _SIGN_UP_BEFORE_27.search(before) is None


def generic_27(text: str, mentions: Sequence[NameMention]) -> list[NameMention]:
    """The mentions without lower-case kinds of card ("an everyday rewards card")."""
    if not any(m.kind == UNKNOWN for m in mentions):
        return list(mentions)
    return [m for m in mentions if not _generic(text, m)]


#: what makes a bare tail another product: an issuer after it, or "another / new / separate"
#: (or a name given to it) before it in its clause
_ISSUED_AFTER_27 = re.compile(
    r"[ \t]*(?:\*\*|__)?[ \t]*(?:card[ \t]+)?(?:\(|,[ \t]*)?(?:from|by|issued|offered|at|of)\b",
    re.I,
)
_OTHER_BEFORE_27 = re.compile(
    r"\b(?:another|other|new|newer|separate|different|unrelated|own|called|named|branded"
    r"|issues?|issued|offers?|launch(?:es|ed)?)\b[^.;:!?\n]{0,40}$|\ban?[ \t]+$",
    re.I,
)
_OTHER_AFTER_27 = re.compile(
    r"[^.;!?\n]{0,60}\b(?:separate|different|another|unrelated|other|new)[ \t]+"
    r"(?:card|product|one)\b",
    re.I,
)


def tails_27(
    index: NameIndex, mentions: Sequence[NameMention], text: str = ""
) -> list[NameMention]:
    """The mentions with each unknown product that is the tail of exactly one card named in full
    before it read as that card - module docstring."""
    out = list(mentions)
    if not any(m.kind == UNKNOWN for m in out):
        return out
    first_named: dict[str, int] = {}
    for m in out:
        if m.kind in (EXACT, MISSPELLED) and m.card_id and m.card_id not in first_named:
            first_named[m.card_id] = m.start
    if not first_named:
        return out
    tails: dict[tuple[str, ...], set[str]] = {}
    for c in sorted(first_named):
        words = tuple(index.words_by_card[c])
        for n in range(1, len(words)):
            tails.setdefault(words[-n:], set()).add(c)
    for i, m in enumerate(out):
        if m.kind != UNKNOWN:
            continue
        fits = sorted(tails.get(tuple(tokens_of(m.surface)), ()))
        if len(fits) != 1 or first_named[fits[0]] > m.start:
            continue  # a tail of several cards, or before the card is named: still unknown
        if (
            _ISSUED_AFTER_27.match(text, m.end)
            or _OTHER_AFTER_27.match(text, m.end)
            or _OTHER_BEFORE_27.search(text, max(0, m.start - 60), m.start)
        ):
            continue
        out[i] = NameMention(m.start, m.end, EXACT, fits[0], m.surface)
    return out


__all__ = ["generic_27", "revise_27", "tails_27"]
