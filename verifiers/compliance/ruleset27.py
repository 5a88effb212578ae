"""Ruleset 27: readings about what a figure or a name can be, whoever wrote it.

Rulesets 24-26 read one round's writers phrase by phrase, and each carried to the same writers'
held-out halves but not to new writers (RULESETS.md, "Ruleset 26"). The readings here were chosen
on the tuning halves of all read blind sets at once (w1-w24), and only where a class holds for
any writer, not a phrasing; three red teams with the source code attacked them, and each guard
below closes a class they found (``tests/compliance_attacks27.py``):

* ``shapes_27`` - **a figure with no fee named at it must look like a fee to be held as one.** A
  fee figure whose words name no fee ("a flat 2% card with no fee", "groceries (3% vs 2%)",
  "roughly $247 after the fee", "Fee on $4,000 | $120") may be any fee of its card, and ruleset 26
  reported "no fee of X is 2%". Here such an open figure is checked only when its value is a value
  some card of the catalog has for a fee of its unit (a dollar fee or minimum, a percentage fee),
  or within 15 % of one of its card's own fees it may be: otherwise it is a reward rate, an
  amount or a result, and it is left unverified. Always checked, whatever the value:
  * a figure whose words name the fee ("a 4% foreign fee", "annual fee $89", "$89 a year"), or
    that may only be the annual or first-year fee;
  * a fee noun right at it ("$60 fee", "fee: $60", "fee of $60"), a dollar minimum ("1.5% (min
    $7)", "with $15 as the minimum", "at least $15");
  * a fee word in its clause that is about it ("a $60 service fee", "$60 in fees", "the fees are
    $60", "the higher fee at $60", "cover the fee ($60)", "a 5% fee plus $60", "fee ... ($0 vs
    $120)"), a fee word in its line's label ("Fees: X $0; Y $60") or its table column's header or
    row's label ("| Fee |", any number of rows up).
  A fee word is not the figure's when it is another figure's noun ("the $550 fee by 3.5%", "$60
  and a $550 fee"), when another figure stands between it and the figure (not a pair, range or
  list: "$5 to $60"), when it describes a kind of card ("a flat 2% card with no fee", "the fee
  card - groceries (3% vs 2%)"), when it is waived ("with the fee waived"; not "unless the fee
  is waived"), and, after the figure only, when the figure is worked after it ("$247 after the
  fee", "~$974 once the fee kicks in"). An open "0%" before "on purchases", "on transfers",
  "intro", "period" or "window" is an intro rate's, not a fee.
* ``tails_27`` - **"the Clear Plus" after "Cascade Clear Plus" is that card.** Ruleset 18 read
  "the <last words of one named card>" as that card, but a tail that ends in a product word
  ("Plus", "Elite") was taken first as an unknown product. An unknown product right after "the"
  whose words are the last words (all but the first) of exactly one card the response names in
  full before it is that card - unless an issuer's name follows it ("from Apex", "(by Apex)"),
  or its sentence or the one before it holds a capitalised name that is no card ("Apex makes
  the Clear Plus too"), or its sentence names a bank or an issuer, or calls it
  another card ("from Apex Bank", "issued", "sells", "their", "competing", "rival", "another",
  "new", "different", "version", "via", ...). A tail of several named cards, a tail written
  before the full name or without "the", and a name that only begins like a named card
  ("Redwood Journey" after "Redwood Journey Elite") stay unknown: that is how invented names
  are made.
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
* ``generic_27`` - **"an everyday rewards card" is no product.** A brand that is an ordinary
  word ("Everyday") made a lower-case phrase an unknown product: "an everyday cash back card",
  "For everyday rewards, ...". An unknown product written all in lower case, of two or three
  words, whose first word is an ordinary word of that kind ("everyday", "basic", "simple",
  "standard", "regular", "plain") and whose others are category words ("rewards", "cash",
  "back", "travel", "miles", "points"), after "a" / "an" and before "card(s)", or after a "For"
  that opens its sentence, is a kind of card: an ambiguous reference, no product, and the
  figures of its clause are no card's ("below an everyday travel card's usual 24%") - or, after
  "is a" / "as a", a description of the card named before it, whose figures they stay ("The
  Atlas Cash is an everyday cash back card with a 3% foreign fee") - unless the sentence goes on
  to compare it with other cards ("unlike premium cards with a $550 annual fee"). After any
  other word ("qualify for", "apply for"), a brand of another kind ("summit rewards"), a tier
  word ("elite", "plus"), "the everyday rewards" or capitals, it is still a product.
* ``rewards_27`` - **"5% on gas" after "the first year" is a reward rate.** Ruleset 21 read a
  percentage followed by a spend category as a reward rate unless its clause typed it first, and
  "first year" typed it as an intro offer: "(annual fee: $250, charged from the first year): 5%
  on gas", "$95 annual fee, $0 the first year, 3% travel and dining", "both $695 a year with no
  first-year waiver, both 5% on travel". A percentage above 0 % typed as an intro offer or an APR,
  followed at once by a spend category (gas, groceries, dining, travel, online, ...; not
  "abroad", a fee or an APR word after it), is a reward rate - unless an intro, promo, APR, rate,
  offer or interest word stands before it in its sentence, or a term of an offer follows it or
  stands before it ("for 12 months", "during the first year", "for the intro period", "until
  January", "through 2027"; before it, not a fee's: "$0 the first year", "first-year waiver").

The names (``generic_27``, ``tails_27``) are in ``ruleset27b``. See "Ruleset 27" in
``verifiers/compliance/RULESETS.md``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import replace

from replicas.verifiers.compliance.catalog import Catalog
from replicas.verifiers.compliance.claims import Claim, Extraction
from replicas.verifiers.compliance.memo import PerCatalog
from replicas.verifiers.compliance.ruleset25 import _close, _priced_before
from replicas.verifiers.compliance.ruleset25b import sentence_start

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


def _compute_shapes(catalog: Catalog) -> dict[str, frozenset[float]]:
    """Every value a dollar fee and a percentage fee has in the catalog ("no fee" is 0)."""
    return {
        unit: frozenset(
            0.0 if (v := getattr(card, f)) is None else float(v)
            for card in catalog.cards
            for f in fields
        )
        for unit, fields in (("usd", _USD_FEES_27), ("pct", _PCT_FEES_27))
    }


#: ``_compute_shapes`` once per catalog object
_shapes = PerCatalog(_compute_shapes)


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
    r"(?:[ \t]+(?:annual|yearly|late|transfer|foreign|advance|cash|first-year|membership))?[ \t]*$"
)
#: a denial that describes a kind of card: "a flat 2% card with no fee", "a card without fees"
_DENIED_27 = re.compile(
    r"\bcards?[ \t]+(?:with[ \t]+no|without(?:[ \t]+(?:a|an|any))?)(?:[ \t]+(?:annual|yearly))?"
    r"[ \t]*$"
)
#: after a figure: "$247 after the fee", "~$974 once the fee kicks in", "enough to cover the fee"
_NETTED_27 = re.compile(
    r"\b(?:after|before|net[ \t]+of|minus|less|once|cover(?:s|ed|ing)?|offsets?|earns?[ \t]+back"
    r"|justif\w+|outweighs?)[ \t]+(?:the[ \t]+|its[ \t]+|a[ \t]+|an[ \t]+|any[ \t]+|that[ \t]+"
    r"|their[ \t]+|your[ \t]+)?(?:[a-z]+[ \t]+)?$"
)
#: a waiver after a fee word ("the fee is waived", "fee waived")
_WAIVED_27 = re.compile(r"[ \t]+(?:is[ \t]+|being[ \t]+)?waived\b")
#: "the fee card - groceries (3% vs 2%)": a kind of card, not the figure's fee ("a fee card at
#: $60" is)
_FEE_CARD_27 = re.compile(r"[ \t]+cards?\b")
_THE_FEE_27 = re.compile(r"\bthe[ \t]+$")
#: a spend category between "the fee card" and a percentage: the percentage is a reward rate
_SPEND_27 = re.compile(
    r"\b(?:groceries|grocery|dining|restaurants?|gas|fuel|travel|online|streaming|drugstores?"
    r"|transit|everything|elsewhere|other[ \t]+purchases)\b"
)
_WITH_WAIVED_27 = re.compile(r"\bwith[ \t]+(?:the|its|that|their|your)[ \t]+(?:annual[ \t]+)?$")
_ANY_FIGURE_27 = re.compile(r"\$[ \t]?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?[ \t]?%")
#: the last figure before ours joined to it as a pair, range or list: "($0 vs $120)", "$5 to $60"
_JOINED_27 = re.compile(
    r"[ \t]*(?:\*\*|__)?[ \t]*(?:vs\.?|versus|against|or|to|and|-|\u2013|/|,|then)[ \t]*"
    r"(?:\*\*|__)?[ \t]*(?:just[ \t]+|only[ \t]+)?"
)
_PLUS_27 = re.compile(r"[ \t]*(?:,[ \t]*)?(?:plus|and|or|\+|&)[ \t]+(?:an?[ \t]+|another[ \t]+)?")
#: "0% on purchases", "the 0% period": an intro rate's 0%, whatever fee word is near
_INTRO_ZERO_27 = re.compile(
    r"[ \t]*(?:\*\*|__)?[ \t]*(?:on[ \t]+(?:purchases|(?:balance[ \t]+)?transfers|bts?)\b"
    r"|intro|promo|period|window|for[ \t]+\d+)"
)
_CLAUSE_27 = re.compile(r"[.!?](?:[ \t]|$)|[;\n|]")
_CLAUSE_SPAN_27 = 160
#: a line's label before its first colon ("Fees: Summit Cash $0; Summit Cash Plus $60")
_LABEL_27 = re.compile(r"[ \t]*[-*\u2022]?[ \t]*(?:\*\*|__)?(?P<label>[^:\n]{1,40}):")


def _about_this(word: re.Match[str], claim: Claim, masked: str, start: int) -> bool:
    """A fee word of the figure's clause that is about the figure (module docstring)."""
    lead = masked[max(start, word.start() - 60) : word.start()]
    if word.end() <= claim.start:
        between = masked[word.end() : claim.start]
        card = _FEE_CARD_27.match(masked, word.end())
        if card and _THE_FEE_27.search(lead) and _SPEND_27.search(masked, card.end(), claim.start):
            return False  # "the fee card - groceries (3% vs 2%)": a reward rate
        if _OTHER_FIGURE_27.search(lead) is not None:
            # "the $550 fee by 3.5%": the earlier figure's fee word - but "a 5% fee plus $60"
            # adds a fee
            return _PLUS_27.fullmatch(between) is not None
        figures = list(_ANY_FIGURE_27.finditer(between))
        if figures and not _JOINED_27.fullmatch(
            masked, word.end() + figures[-1].end(), claim.start
        ):
            return False  # another figure stands between: the fee word is not this one's
        # "In year one, with the fee waived, it's worth $1,337": the waiver is the figure's
        # condition (not "the fee is waived in year one and is $60 after that")
        return not (_WITH_WAIVED_27.search(lead) and _WAIVED_27.match(masked, word.end()))
    between = masked[claim.end : word.start()]
    if _OTHER_FIGURE_27.search(between) is not None:
        return False  # "$60 and a $550 fee": the fee word is the later figure's
    # "$247 after the fee", "~$974 once the fee kicks in", "a flat 2% card with no fee"
    return not (
        _DENIED_27.search(lead) or _NETTED_27.search(lead) or _WAIVED_27.match(masked, word.end())
    )


def _fee_in_clause(claim: Claim, masked: str, tables: _Tables) -> bool:
    """The figure's clause (its sentence, cell or line) has a fee word about it, its line's label
    is one, or its table column or row is headed by one."""
    if claim.unit == "pct" and claim.low == 0 and _INTRO_ZERO_27.match(masked, claim.end):
        return False
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
    line_start = _line_at(masked, claim.start)[0]
    label = _LABEL_27.match(masked, line_start, claim.start)
    if label is not None and _FEE_WORD_27.search(label.group("label")):
        return True
    return tables.fee_header(claim.start)


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


class _Tables:
    """Markdown tables of one text: each table line's header line, found once per table."""

    def __init__(self, masked: str) -> None:
        self.masked = masked
        self.starts: list[int] = []
        self._top: dict[int, int] = {}
        if "|" in masked:
            self.starts = [0, *(m.end() for m in re.finditer("\n", masked))]

    def _is_row(self, k: int) -> bool:
        """A table line: one that opens with "|" or holds two or more of them."""
        start = self.starts[k]
        end = self.starts[k + 1] - 1 if k + 1 < len(self.starts) else len(self.masked)
        line = self.masked[start:end]
        return line.lstrip().startswith("|") or line.count("|") >= 2

    def _top_of(self, k: int) -> int:
        """The first line of the table that line ``k`` (a table row) is in."""
        top = self._top.get(k)
        if top is None:
            j = k
            while j > 0 and self._is_row(j - 1) and (j - 1) not in self._top:
                j -= 1
            top = self._top[j - 1] if j > 0 and (j - 1) in self._top else j
            for i in range(j, k + 1):
                self._top[i] = top
        return top

    def fee_header(self, pos: int) -> bool:
        """``pos`` is in a table cell whose column header or row label is a fee word."""
        if not self.starts:
            return False
        k = bisect_left(self.starts, pos + 1) - 1
        if not self._is_row(k):
            return False
        start = self.starts[k]
        line = self.masked[start : start + _EDGE_SPAN_27].split("\n", 1)[0]
        cells = _cells(line)
        if len(cells) > 1 and _FEE_WORD_27.search(cells[0]):
            return True  # a row labelled "Fee"
        column = self.masked.count("|", start, pos) - (1 if line.lstrip().startswith("|") else 0)
        top = self.starts[self._top_of(k)]
        header = _cells(self.masked[top : top + _EDGE_SPAN_27].split("\n", 1)[0])
        return column < len(header) and _FEE_WORD_27.search(header[column]) is not None


def _cells(line: str) -> list[str]:
    """A table line's cells, the first one first whether or not the line opens with "|"."""
    stripped = line.strip()
    return (stripped[1:] if stripped.startswith("|") else stripped).split("|")


#: a fee noun at the figure: "$60 fee", "3% (min $5) charge", "fee: $60", "fee of $60"
_FEE_NOUN_AFTER_27 = re.compile(r"[)\]]?[ \t]*(?:\*\*|__)?[ \t]*(?:fees?|charges?)\b")
_FEE_NOUN_BEFORE_27 = re.compile(
    r"\b(?:fees?|charges?)[ \t]*(?:\*\*|__)?[ \t]*(?::|of|is|=|-|\u2013|\u2014)?[ \t]*"
    r"(?:\*\*|__)?[ \t]*(?:(?:just|only|about|roughly|around)[ \t]+|~)?$"
)


#: a fee's minimum near the figure: "with $15 as the minimum", "min. $15", "at least $15",
#: "whichever is greater"
_MINIMUM_27 = re.compile(r"\bmin(?:imum|\.)?\b|\bat[ \t]+least\b|\bwhichever\b")


def _fee_named(claim: Claim, masked: str) -> bool:
    """A fee noun stands right at the figure, or a dollar minimum ("1.5% (min $7)"): it is a fee
    claim, whichever fee it is."""
    if claim.min_usd is not None:
        return True
    if _MINIMUM_27.search(masked, max(0, claim.start - 24), min(len(masked), claim.end + 24)):
        return True  # "5%, with $15 as the minimum", "a $15 minimum", "at least $15"
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
    r"[^.;|\n]{0,30}?\b(?:fees?|charges?|costs?|price|dues|upkeep|membership|pay\w*"
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


# -- rewards: "5% on gas" after "the first year" ------------------------------------------------

_CATEGORY_AFTER_27 = re.compile(
    r"[ \t]*(?:\*\*|__)?[ \t]*(?:(?:cash[ \t-]?)?back[ \t]+)?(?:(?:on|in|at|for)[ \t]+)?"
    r"(?:all[ \t]+|your[ \t]+)?(?:gas|fuel|groceries|grocery|supermarkets?|dining|restaurants?"
    r"|travel|online|streaming|drugstores?|transit)\b(?![ \t]*(?:abroad|overseas|fees?|apr|rate))"
)
_TYPED_BEFORE_27 = re.compile(r"\b(?:intro\w*|promo\w*|aprs?|rates?|offers?|interest|0%)")
#: a term of an offer: "for 12 months", "for the first year", "during the first year", "for the
#: intro period", "until January", "through 2027", "for 15 billing cycles" - after the figure, or
#: before it unless it is a fee's ("$0 the first year", "first-year waiver")
_TERM_27 = re.compile(
    r"\b(?:for|during|over|in|within|across)[ \t]+(?:[a-z0-9]+[ \t]+){0,3}(?:months?|mo\.?|mos"
    r"|years?|billing[ \t]+cycles?|statements?|cycles?|intro\w*|promo\w*|period|time|while)\b"
    r"|\b(?:until|till|through|thru|ending|expir\w*|limited[ \t]+time|to[ \t]+start)\b"
)
_TERM_AFTER_27 = re.compile(r"[^.;\n]{0,120}?" + _TERM_27.pattern)
_FEE_TERM_27 = re.compile(r"(?:\$[ \t]?\d[\d,]*|fee|waiver|waived|charged)[^.;\n]{0,25}$")


def _is_reward(claim: Claim, masked: str) -> bool:
    """A rate typed as an intro offer or an APR that is a reward rate (module docstring)."""
    if claim.family not in ("intro", "apr") or claim.is_none or claim.unit != "pct":
        return False
    if not claim.low or (claim.high is not None and claim.high != claim.low):
        return False
    after = _CATEGORY_AFTER_27.match(masked, claim.end)
    if after is None or _TERM_AFTER_27.match(masked, after.end()):
        return False
    # no intro, promo, APR, rate, offer or interest word before it in its sentence, and no term
    # of an offer that is not a fee's
    start = sentence_start(masked, claim.start)
    if _TYPED_BEFORE_27.search(masked, start, claim.start):
        return False
    for term in _TERM_27.finditer(masked, start, claim.start):
        if not _FEE_TERM_27.search(masked, max(start, term.start() - 40), term.start()):
            return False
    return True


def revise_27(
    extraction: Extraction,
    catalog: Catalog,
    shapes: bool,
    worked: bool,
    rewards: bool,
) -> Extraction:
    """The extraction with ruleset 27's claim readings (module docstring)."""
    if not (shapes or worked or rewards) or not extraction.claims:
        return extraction
    masked = extraction.masked
    tables = _Tables(masked)
    out = list(extraction.claims)
    changed = False
    for i, claim in enumerate(out):
        if not claim.cards:
            continue
        if (
            (
                shapes
                and _is_open(claim)
                and not _fee_shaped(claim, catalog)
                and not _fee_named(claim, masked)
                and not _fee_in_clause(claim, masked, tables)
            )
            or (worked and _is_worked(claim, masked))
            or (rewards and _is_reward(claim, masked))
        ):
            out[i] = replace(claim, cards=())
            changed = True
    return replace(extraction, claims=tuple(out)) if changed else extraction


__all__ = ["revise_27"]
