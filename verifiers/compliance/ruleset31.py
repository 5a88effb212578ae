"""Ruleset 31, the s36 blind sets' tuning halves' false flags by class: a card called by a short
name, a yearly value worked out, two cards' figures given in order, and the customer's own cards
reviewed (precision; one reading, ``pairs_31``, is also stricter on swapped pairs).

Ruleset 30 was read on s36 and gave each of its 800 answers 29's codes: its readings were of
phrasings s34 had shown, and s36's writers used others. These four readings are of what a figure
or a card is in any writer's text, not of one phrasing:

* ``shortrefs_31`` - **"BJR has no intro rate, 26.24%-32.24% variable", "Beacon 26.24% var,
  Frontier 26.99% var", "Plus: $95 a year, Vista: no annual fee"**: an answer that names two or
  more cards in full often calls them by one word of the name or by its initials afterwards.
  Ruleset 30 did not see those words as cards, so the figure after one went to the card named in
  full last and was flagged as wrong for it. A *short name* is a capitalised word of the name of
  a card the response names in full (not a word of card talk: "Cash", "Card", "Rewards", ...:
  such a word stops the search, since it may call a card and the words do not say which), or an
  all-capitals word spelling the initials of such a name ("EDJE" for "Every Day Journey Elite").
  A figure bound by its clause, sentence or the text's context is read as about the card(s) the
  nearest short name before it in its unit calls, when no card is named in full between them and
  no ";" or line end either - or about the card a bracketed short name right after it calls
  ("24.74% var (Liberty)"). Several cards ("Summit" for three Summit cards): it must be right for
  one of them. A short name after "like", "unlike", "than", "as", "vs", "compared with", "over",
  "instead of", "including" is a comparison, not the subject, and takes nothing. A card the
  response never names in full has no short name (it could be an invented product, which the
  name rules judge).
* ``yearly_31`` - **"the Plus wins by $19/yr", "that's +$133/yr", "Plus gives $360/yr from
  groceries"**: a dollar amount read as an annual fee (or a fee of no named kind) is unverified
  where its value is no annual or first-year fee of any card of the catalog, its sentence holds
  no word of fees ("fee", "AF", "charge", "cost", "membership", "annual", "waive") and does hold
  a word of value worked out ("wins", "gives", "earns", "worth", "back", "net", "after",
  "saves", "ahead", "extra", "+", "=", "->"). "X: $99/yr", "X costs $99 a year", "X: $480/yr,
  skip" keep their claim: with no word of value an amount beside a card is its price.
* ``pairs_31`` - **"X and Y both charge an annual fee, $39 and $29"**: two figures of one kind
  joined by "and" (or ",", "&", "/") right after two cards joined by "and" in the same unit,
  each bound to those cards, are the cards' in order. Ruleset 30 checked each figure against
  both (or let either card's value pass): the honest pair was flagged and a swapped pair
  ("charge $95 and $150" for $150 and $95) passed. This reading is stricter on the swap.
* ``held_31`` - **"Here's where your cards stand: - X - $695 a year, worth it if you fly
  monthly", "X is your best asset right now, so let it age", "Will closing the X hurt my
  score?"**: with a customer, a card the customer already holds is put forward only by words
  that put it forward in its sentence, or in the lead line of its list ("I'd suggest", "I'd go
  with", "I'd add", "apply", "get", "my pick", "is the one", "switch to", "a great fit", "for
  you", ...: ``_FORWARD_31``). Otherwise it is reviewed: no recommendation, and not the sole
  pick of the answer either. Cards closed to the customer for any other reason (score,
  student-only, bankruptcy) are untouched.

See "Ruleset 31" in ``verifiers/compliance/RULESETS.md``.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.attribution import UNION
from replicas.verifiers.compliance.catalog import Catalog
from replicas.verifiers.compliance.claims import Claim, Extraction, unbind_claims
from replicas.verifiers.compliance.memo import PerCatalog
from replicas.verifiers.compliance.mentions import EXACT, MISSPELLED, NameMention, tokens_of
from replicas.verifiers.compliance.vocab import (
    GENERIC_WORDS,
    NOT_NAME_WORDS,
    PRODUCT_WORDS,
    TIER_WORDS,
)

if TYPE_CHECKING:
    from replicas.verifiers.compliance.recommend import Recommendations

__all__ = ["held_31", "revise_31"]

# Bindings a short name may override: the ones that only say which card was named nearest.
_LOOSE = frozenset({"clause", "unit", "context"})
# Words of card talk that never call a particular card (the product words are shared by many
# names: "Cash", "Rewards", "Miles"; tier words stay, since "the Preferred" calls one card).
_NOT_SHORT = (
    GENERIC_WORDS
    | NOT_NAME_WORDS
    | (
        PRODUCT_WORDS
        - frozenset(
            {
                "plus",
                "preferred",
                "premier",
                "premium",
                "platinum",
                "gold",
                "silver",
                "elite",
                "select",
                "reserve",
                "pro",
                "max",
                "prime",
                "ultra",
                "edge",
                "flex",
                "advantage",
                "classic",
                "essential",
                "essentials",
                "black",
                "diamond",
                "titanium",
                "sapphire",
                "voyager",
                "explorer",
                "traveler",
                "sky",
                "signature",
                "infinite",
                "world",
                "unlimited",
            }
        )
    )
)
_WORD = re.compile(r"(?<![\w'-])([A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)(?:'s|\u2019s)?(?![\w-])")
_COMPARISON = re.compile(
    r"(?:\b(?:like|unlike|than|as|vs\.?|versus|compared\s+(?:with|to)|over|beats?|from|against|"
    r"instead\s+of|including|match(?:es)?|mirrors?|equals?|copies|think|similar\s+to|on\s+par\s+with|"
    r"relative\s+to|identical\s+to|same\s+as)"
    r"\s+(?:the\s+|your\s+)?)$",
    re.IGNORECASE,
)
_BRACKET_AFTER = re.compile(
    r"[ \t]{0,3}(?:(?:var(?:iable)?|fixed|a\s+year|/yr|per\s+year)[ \t]{0,3})?\(([A-Z][A-Za-z0-9'-]*)\)"
)
# A clause ends at these (a short name before one does not reach a figure after it).
_CLAUSE_END = re.compile(r"[;\n]")


def _named_cards(mentions: list[NameMention]) -> dict[str, tuple[str, ...]]:
    """Card id -> the words of the name the response wrote for it in full."""
    out: dict[str, tuple[str, ...]] = {}
    for m in mentions:
        if m.card_id is not None and m.kind in (EXACT, MISSPELLED):
            out.setdefault(m.card_id, tokens_of(m.surface))
    return out


def _short_names(
    text: str, catalog: Catalog, named: dict[str, tuple[str, ...]], mentions: list[NameMention]
) -> list[tuple[int, int, frozenset[str]]]:
    """Each short name of the text: (start, end, the named cards it may call), in order."""
    words: dict[str, set[str]] = {}
    initials: dict[str, set[str]] = {}
    blockers: set[str] = set()
    for card_id in named:
        full = tokens_of(catalog.names.name_of(card_id))
        for w in full:
            if w in _NOT_SHORT or w.isdigit():
                blockers.add(w)
            else:
                words.setdefault(w, set()).add(card_id)
        if len(full) >= 2:
            initials.setdefault("".join(w[0] for w in full), set()).add(card_id)
    spans = sorted((m.start, m.end) for m in mentions)
    out = []
    k = 0
    for match in _WORD.finditer(text):
        start, end = match.span(1)  # "Harbor" of "Harbor's": the possessive is read after it
        while k < len(spans) and spans[k][1] <= start:
            k += 1
        if k < len(spans) and spans[k][0] < end:
            continue  # inside a name the mention rules read
        word = match.group(1)
        lower = word.lower()
        cards = words.get(lower)
        if (
            cards is None
            and word.isupper()
            and 3 <= len(word) <= 6
            and lower not in _ABBREVIATIONS
            and lower not in _NOT_SHORT
        ):
            cards = initials.get(lower)
        if cards and _part_of_other_name(text, start, end, word):
            cards = None  # "First Meridian Savings Bank", "World Elite Mastercard"
        if cards:
            out.append((start, end, frozenset(cards)))
        elif lower in blockers:
            out.append((start, end, frozenset()))  # may call a card; which, the words don't say
    return out


# abbreviations of card talk that may spell a name's initials ("BT" for "Beacon Traveler")
_ABBREVIATIONS = frozenset(
    [
        "apr",
        "aprs",
        "apy",
        "atm",
        "ach",
        "fico",
        "ftf",
        "sub",
        "cb",
        "pts",
        "usd",
        "faq",
        "fyi",
        "tldr",
        "asap",
        "imo",
        "imho",
        "btw",
        "lol",
        "nfc",
        "pin",
        "mo",
        "yr",
        "min",
        "max",
        "avg",
        "est",
        "pst",
        "est",
        "edt",
        "utc",
    ]
)
# abbreviations of everyday talk that may spell a name's initials ("the CSR said ...")
_ABBREVIATIONS = _ABBREVIATIONS | frozenset(
    [
        "csr",
        "sec",
        "abc",
        "nbc",
        "cbs",
        "cto",
        "ceo",
        "cfo",
        "rbc",
        "pcr",
        "irs",
        "ssn",
        "ira",
        "llc",
        "diy",
        "eta",
        "pdf",
        "kyc",
        "aml",
        "dti",
        "ltv",
        "hsa",
        "fsa",
        "roi",
        "nyc",
        "usa",
    ]
)
_CAPITALISED = re.compile(r"[A-Z][\w'-]*")


def _part_of_other_name(text: str, start: int, end: int, word: str) -> bool:
    """A capitalised word right before or after the short name (not a sentence's first word, not
    an all-capitals word): it is a word of another proper name."""
    after = _CAPITALISED.match(text, end + 1) if text[end : end + 1] == " " else None
    if after is not None and not after.group().isupper():
        return True
    if start >= 2 and text[start - 1] == " ":
        k = start - 2
        while k >= 0 and (text[k].isalnum() or text[k] in "'-"):
            k -= 1
        before = text[k + 1 : start - 1]
        if before[:1].isupper() and not before.isupper() and not _sentence_start(text, k + 1):
            return before.lower() not in ("the", "a", "an", "my", "your")
    return False


def _sentence_start(text: str, pos: int) -> bool:
    """Whether only blanks, markup or a list bullet stand between ``pos`` and the sentence,
    line, clause (":") or bracket before it."""
    k = pos - 1
    while k >= 0 and text[k] in " \t*_#>-\u2022":
        k -= 1
    return k < 0 or text[k] in ".!?:;(\n|" or text[k].isdigit()


def _unit_of(extraction: Extraction, pos: int) -> tuple[int, int]:
    units = extraction.units
    k = bisect_right(units, (pos, 1 << 62)) - 1
    return units[k] if k >= 0 else (0, pos)


# Between a short name and its figure: "Harbor's 14.99%", "the Preferred at $150/yr", "Plus: $95",
# "HSME is $495/yr", "Juniper's (23.99%-31.99%)" - the figure is the name's whatever stands before.
_INDEFINITE_31 = re.compile(r"\b(?:a|an|another|any)[ \t]+(?:[\w$%-]+[ \t]+){0,2}$", re.IGNORECASE)
_LABEL_AFTER = re.compile(r"(?:'s|\u2019s|(?:\*\*|__)?[ \t]*:)")
_PRONOUN_31 = re.compile(
    r"\b(?:it|it's|its|this[ \t]+card|that[ \t]+card|they|which|(?:the[ \t]+)?other[ \t]+one|that[ \t]+one|"
    r"this[ \t]+one|the[ \t]+other|my[ \t]+(?:pick|choice|rec\w*)|the[ \t]+(?:first|second|former|latter|"
    r"new|old)[ \t]+(?:one|card)?|the[ \t]+(?:former|latter))\b",
    re.IGNORECASE,
)
_DIRECT = re.compile(
    r"(?:'s|\u2019s)?[ \t]*(?:\*\*|__)?[ \t]*([:=(\-\u2013\u2014]|at|is|runs|charges|costs|has)?"
    r"[ \t]*(?:\*\*|__|\()?[ \t]*(?:a|an|the|only|just|about|~)?[ \t]*"
)
# What may open a clause before its subject: "Harbor 14.99% fixed, Plus 18.24%", "and the Plus".
_SUBJECT_LEAD = re.compile(
    r"(?:(?:and|but|while|whereas|so|then|also|or|meanwhile)[ \t]+)?(?:(?:the|and)[ \t]+)?"
)
_CLAUSE_OPEN = re.compile(r"[,;:(\n|]|[.!?](?:[ \t]|$)")
# after "X's": a word of the card's terms ("BJR's annual fee is $550"), else X's is a modifier
# of something else ("Y's sister card charges ...")
_TERM_AFTER_POSSESSIVE = re.compile(
    r"(?:'s|\u2019s)[ \t]+(?:\*\*)?(?:annual|fee|fees|apr|aprs|rate|rates|intro|late|foreign|fx|"
    r"af|bt|penalty|cash|balance|purchase|purchases|transfer|transfers|regular|ongoing|variable|"
    r"fixed|first|promo|\$|\d)",
    re.IGNORECASE,
)
# Words of names that are common words too: as a sentence's first word they call no card
# ("Plus, it has ...", "Clear advantage: ...") unless a figure follows at once.
_THE_BEFORE = re.compile(r"\b[Tt]he[ \t]+(?:\*\*|__)?$")
_COMMON_31 = TIER_WORDS | frozenset({"clear", "day", "every", "world", "first", "bright", "true"})


def _opens_clause(text: str, unit_start: int, start: int) -> bool:
    """Whether only a clause opening ("," ":" "(" ...), "and", "the" stand before ``start`` in its
    clause: "The Plus: $95 a year, Vista: no annual fee", not "close Juniper: ..."."""
    lead = text[max(unit_start, start - 80) : start]
    opens = [m.end() for m in _CLAUSE_OPEN.finditer(lead)]
    lead = lead[opens[-1] :] if opens else lead
    lead = lead.strip(" \t*_#>-\u2022").lower()
    return not lead or _SUBJECT_LEAD.fullmatch(lead + " ") is not None


def _subject(text: str, unit_start: int, start: int, end: int, word: str) -> bool:
    """Whether the short name at ``[start, end)`` opens its clause as its subject."""
    lead = text[max(unit_start, start - 80) : start]
    opens = [m.end() for m in _CLAUSE_OPEN.finditer(lead)]
    lead = lead[opens[-1] :] if opens else lead
    lead = lead.strip(" \t*_#>-\u2022").lower()
    if lead and not _SUBJECT_LEAD.fullmatch(lead + " "):
        return False
    if text[end : end + 2] in ("'s", "\u2019s") and not _TERM_AFTER_POSSESSIVE.match(text, end):
        return False
    if word.lower() in _COMMON_31 and not lead.endswith("the"):
        return False  # "Plus, ...", "Clear advantage", "Elite perks"
    return text[end : end + 1] != ","


def _referent(
    claim: Claim,
    text: str,
    extraction: Extraction,
    shorts: list[tuple[int, int, frozenset[str]]],
    starts: list[int],
    mention_ends: list[int],
    mention_starts: list[int],
    breaks: list[int],
) -> frozenset[str] | None:
    """The cards the short name nearest before ``claim`` (or bracketed right after it) calls, or
    None when no short name calls the figure's card."""
    unit_start, unit_end = _unit_of(extraction, claim.start)
    after = _BRACKET_AFTER.match(text, claim.end)
    if after is not None:
        k = bisect_right(starts, after.start(1)) - 1
        if (
            k >= 0
            and shorts[k][0] == after.start(1)
            and text[shorts[k][0] : shorts[k][1]].lower() not in _COMMON_31
        ):
            return shorts[k][2] or None
    k = bisect_right(starts, claim.start) - 1
    if k < 0:
        return None
    start, end, cards = shorts[k]
    if not cards or start < unit_start or end > claim.start:
        return None
    # a card named in full between the short name and the figure is the nearer subject
    m = bisect_right(mention_ends, claim.start) - 1
    if m >= 0 and mention_ends[m] > end:
        return None
    j = bisect_left(breaks, end)
    if j < len(breaks) and breaks[j] < claim.start:
        return None  # a ";" or a line end between them
    # a card named in full after the figure, in its unit, is the one the sentence gives it to
    # ("Pinnacle lacks the 0.99% intro rate that Harbor Travel has")
    n = bisect_right(mention_starts, claim.end)
    if n < len(mention_starts) and mention_starts[n] < unit_end:
        return None
    word = text[start:end]
    if word.lower() in _COMMON_31 and not _THE_BEFORE.search(text, max(0, start - 8), start):
        return None  # "Plus: 0% FX" in a pros and cons list, "Clear advantage"
    if _COMPARISON.search(text[max(unit_start, start - 24) : start]):
        return None  # "like Harbor: $0 a year", "matches Orion at 0.99%"
    if _INDEFINITE_31.search(text, max(unit_start, start - 30), start):
        return None  # "basically a no-fee Crest": a kind of card, not the card
    # the sentence names a card in full before the short name: that card is its subject
    p = bisect_right(mention_starts, start) - 1
    if (
        p >= 0
        and mention_starts[p] >= unit_start
        and not (_LABEL_AFTER.match(text, end) and _opens_clause(text, unit_start, start))
    ):
        return None  # ("Vista: no annual fee" after "The Plus: $95 a year, " is a label)
    between = text[end : claim.start]
    if _PRONOUN_31.search(between) or (")" in between and "(" in text[unit_start:start]):
        return None  # "Harbor doesn't, but it runs ...", "(Harbor is comparable) ... 0.99%"
    direct = _DIRECT.fullmatch(text, end, claim.start)
    if direct is None or direct.group(1) == "at":
        if direct is None and _COMPARISON.search(text[max(unit_start, start - 24) : start]):
            return None
        if not _subject(text, unit_start, start, end, word) and not (
            direct is not None and _THE_BEFORE.search(text, max(0, start - 8), start)
        ):
            return None
    return cards


def _annual_fees(catalog: Catalog) -> frozenset[float]:
    """Every annual and first-year fee of the catalog, in cents."""
    out = set()
    for card in catalog.cards:
        for fee in (card.annual_fee_usd, card.annual_fee_first_year_usd):
            if fee is not None:
                out.add(round(fee * 100))
    return frozenset(out)


_fees_of = PerCatalog(_annual_fees)
_CLAUSE_EDGE = re.compile(r"[|\n;]|[.!?](?:\s|$)")
_FEE_WORDS = re.compile(
    r"\b(?:fees?|af|charges?|charged|charging|costs?|costing|membership|annual(?:ly)?|waived?)\b"
)
# An amount worked out, by the words right at it: "+$133/yr", "wins by $19/yr", "gives you $360/yr",
# "worth about $400 a year", "= $606", "$360/yr back", "$44/yr ahead", "$250 in rewards".
_VALUE_BEFORE = re.compile(
    r"(?:(?:^|[(:,=]|that's|thats|that[ \t]+is)[ \t]*\+|=|\u2192|->|\u2248|\bwins?[ \t]+by(?:[ \t]*(?:\.{2,3}|\u2026))?|\bahead[ \t]+by|"
    r"\b(?:an[ \t]+)?extra|\b(?:gives?|earns?|saves?|nets?)(?:[ \t]+(?:you|him|her|them|us))?(?:[ \t]+(?:about|around|"
    r"roughly|nearly|almost|over))?|\bworth(?:[ \t]+(?:about|around|roughly|nearly|almost|over))?)"
    r"[ \t]*~?[ \t]*(?:\*\*|__)?[ \t]*$"
)
_VALUE_AFTER = re.compile(
    r"(?:/yr|/year|[ \t]+a[ \t]+year|[ \t]+per[ \t]+year|[ \t]+yearly)?[ \t]*(?:back\b|ahead\b|in[ \t]+"
    r"(?:rewards|value|cash[ \t]*back|points|miles|savings)\b|of[ \t]+value\b|more[ \t]+(?:back|in[ \t]+"
    r"rewards|value)\b)"
)
_VALUE_REACH = 30
_CLAUSE_REACH = 60


def _own_clause(masked: str, start: int, end: int) -> str:
    before = masked[max(0, start - _CLAUSE_REACH) : start]
    after = masked[end : end + _CLAUSE_REACH]
    edges = [m.end() for m in _CLAUSE_EDGE.finditer(before)]
    if edges:
        before = before[edges[-1] :]
    stop = _CLAUSE_EDGE.search(after)
    if stop is not None:
        after = after[: stop.start()]
    return f"{before} {after}"


def _fee_shaped(amount: float, cards: tuple[str, ...], catalog: Catalog) -> bool:
    """Whether ``amount`` could be written as a card's annual fee: whole dollars ending in 0, 5 or
    9 ($95, $99, $120, $149), or within $10 of the fee of a card it is bound to (a typo: "$97"
    for $95). "$87 a year", "$426 a year", "$7.29" are values worked out."""
    cents = round(amount * 100)
    if cents % 100 == 0 and (cents // 100) % 10 in (0, 5, 9):
        return True
    for card_id in cards:
        fee = catalog.card(card_id).annual_fee_usd
        if fee is not None and abs(amount - fee) <= _TYPO_USD:
            return True
    return False


_TYPO_USD = 10.0


def _yearly_reading(catalog: Catalog) -> Callable[[Claim, str], bool]:
    fees = _fees_of(catalog)

    def yearly(claim: Claim, masked: str) -> bool:
        """``yearly_31``: an amount read as an annual fee that no card of the catalog charges,
        with no word of fees in its sentence and words of a value worked out right at it ("wins
        by $19/yr", "+$133/yr", "$360/yr back")."""
        if claim.family != "fee" or claim.is_none or claim.low is None or claim.unit != "usd":
            return False
        if "annual" not in claim.admissible and claim.kind != "annual":
            return False
        if round(claim.low * 100) in fees:
            return False
        if _FEE_WORDS.search(_own_clause(masked, claim.start, claim.end)) is not None:
            return False
        before = masked[max(0, claim.start - _VALUE_REACH) : claim.start]
        return (
            _VALUE_BEFORE.search(before) is not None
            or _VALUE_AFTER.match(masked, claim.end) is not None
            or not _fee_shaped(claim.low, claim.cards, catalog)
        )

    return yearly


def _shortrefs(
    extraction: Extraction, text: str, catalog: Catalog, mentions: list[NameMention]
) -> Extraction:
    """``shortrefs_31``: figures re-bound to the card a short name before them calls."""
    named = _named_cards(mentions)
    if len(named) < 2:
        return extraction
    shorts = _short_names(text, catalog, named, mentions)
    if not shorts:
        return extraction
    starts = [s for s, _, _ in shorts]
    mention_ends = sorted(m.end for m in mentions)
    mention_starts = sorted(m.start for m in mentions)
    breaks = [m.start() for m in _CLAUSE_END.finditer(text)]
    out = list(extraction.claims)
    changed = False
    for i, claim in enumerate(out):
        if not claim.cards or claim.binding not in _LOOSE:
            continue
        cards = _referent(
            claim, text, extraction, shorts, starts, mention_ends, mention_starts, breaks
        )
        if cards is None or set(claim.cards) <= cards:  # no short name, or one its card answers to
            continue
        ordered = tuple(sorted(cards))
        out[i] = replace(claim, cards=ordered, binding="clause" if len(ordered) == 1 else UNION)
        changed = True
    return replace(extraction, claims=tuple(out)) if changed else extraction


_JOINER = re.compile(
    r"[ \t]*(?:\*\*|__)?[ \t]*(?:and|&)[ \t]*(?:the[ \t]+)?(?:\*\*|__)?[ \t]*", re.IGNORECASE
)
_PAIR_GAP = 160
_PAIR_ORDER = re.compile(
    r"'s\b|\u2019s\b|\b(?:lower|higher|lowest|highest|cheaper|pricier|first|second|respectively|order|"
    r"annual|late|foreign|transfer|cash|penalty)\b[^$%\n]{0,40}\band\b",
    re.IGNORECASE,
)
_BY_VALUE = re.compile(
    r"[^.;\n]{0,30}\b(?:(?:lowest|highest|cheapest|smallest|biggest|largest)[ \t]+first|low[ \t]+to[ \t]+high|"
    r"high[ \t]+to[ \t]+low|by[ \t]+size|in[ \t]+(?:ascending|descending)[ \t]+order)\b",
    re.IGNORECASE,
)
_BRACKET_NEXT = re.compile(r"[ \t]*\(")
_RANGE_WORDS = re.compile(r"\b(?:between|from|rang\w*|anywhere|either)\b", re.IGNORECASE)
_FIGURE_JOINER = re.compile(r"[ \t]*(?:and|&|,[ \t]*and)[ \t]*")
# before the pair in its clause: a contrast or a list ("Unlike X and Y, ...", "A, X and Y")
_PAIR_LEAD = re.compile(
    r"\b(?:like|unlike|compared|instead|after|not|skip|than|vs|versus|over|except|besides|rather|"
    r"before|beyond|only)\b|,[ \t]*(?:the[ \t]+)?$",
    re.IGNORECASE,
)


def _pairs(extraction: Extraction, text: str) -> Extraction:
    """``pairs_31``: "X and Y both charge an annual fee, $39 and $29" - two figures of one kind
    joined by "and" after two cards joined by "and" are the cards' in order."""
    claims = list(extraction.claims)
    named = [
        m for m in extraction.mentions if m.card_id is not None and m.kind in (EXACT, MISSPELLED)
    ]
    if len(named) < 2 or len(claims) < 2:
        return extraction
    ends = [m.end for m in extraction.mentions]
    changed = False
    for k in range(len(claims) - 1):
        first, second = claims[k], claims[k + 1]
        if (
            not first.cards
            or not second.cards
            or first.family != second.family
            or first.kind != second.kind
            or first.family != "fee"
            or first.binding not in _PAIRABLE
            or second.binding not in _PAIRABLE
            or not _FIGURE_JOINER.fullmatch(text[first.end : second.start])
        ):
            continue
        # the two mentions nearest before the first figure, joined by "and", in its unit
        j = bisect_right(ends, first.start) - 1
        if j < 1:
            continue
        one, two = extraction.mentions[j - 1], extraction.mentions[j]
        if (
            one.card_id is None
            or two.card_id is None
            or one.card_id == two.card_id
            or not _JOINER.fullmatch(text[one.end : two.start])
            or not set(first.cards) | set(second.cards) <= {one.card_id, two.card_id}
        ):
            continue
        unit_start, unit_end = _unit_of(extraction, first.start)
        if one.start < unit_start:
            continue
        if _PAIR_LEAD.search(text, max(unit_start, one.start - 60), one.start):
            continue
        if _BY_VALUE.match(text, second.end):
            continue  # "$25 and $29, lowest first"
        if _BRACKET_NEXT.match(text, second.end):
            continue  # "$40 and $29 (first miss, repeat)": one schedule, not a pair
        if first.start - two.end > _PAIR_GAP or _PAIR_ORDER.search(text, two.end, first.start):
            continue  # "Harbor's and Juniper's", "the lower and higher", "annual and late fees"
        if _RANGE_WORDS.search(text, two.end, first.start):
            continue  # "cost between $0 and $95 a year": a range, not a pair
        # a card named after the figures in their unit may say whose each is ("(Y/X)")
        if j + 1 < len(extraction.mentions) and extraction.mentions[j + 1].start < unit_end:
            continue
        claims[k] = replace(first, cards=(one.card_id,), binding="respectively")
        claims[k + 1] = replace(second, cards=(two.card_id,), binding="respectively")
        changed = True
    return replace(extraction, claims=tuple(claims)) if changed else extraction


_PAIRABLE = frozenset({"clause", "unit", "context", "collective", UNION})


# -- needs_31 --------------------------------------------------------------------------------------

# "needs only $300", "requires a $500", "if you can stretch to $300": an amount required, no fee
_NEEDS_BEFORE = re.compile(
    r"\b(?:needs?|requires?|requiring|put[ \t]+down|stretch[ \t]+to|deposit[ \t]+of|minimum[ \t]+of|"
    r"ties?[ \t]+up|lock[ \t]+up)[ \t]+(?:only[ \t]+|just[ \t]+|at[ \t]+least[ \t]+|an?[ \t]+)?$"
)


_FEE_LABEL = re.compile(
    r"\b(?:fees?|af)\b[ \t]*(?:\*\*|__)?[ \t]*[:=\-\u2013\u2014][ \t]*(?:\*\*|__)?[ \t]*$"
)
_CLAUSE_STOP = re.compile(r"[.;!?\n]|,|\band\b|\bbut\b|\bwhile\b")
_PRICED_AFTER = re.compile(
    r"[ \t]*(?:\*\*|__)?[ \t]*(?:(?:annual|yearly|late|foreign|transfer|membership)\b|(?:a|an|the)?[ \t]*"
    r"(?:fee|fees|af)\b|a[ \t]+year|/yr|/year|per[ \t]+year|annually|each[ \t]+year|every[ \t]+year)"
)


def _needed(claim: Claim, masked: str) -> bool:
    """``needs_31``: a dollar amount a card requires (a deposit, a spend) is no fee of it."""
    if claim.family != "fee" or claim.is_none or claim.unit != "usd":
        return False
    needs = _NEEDS_BEFORE.search(masked, max(0, claim.start - 30), claim.start)
    if needs is None:
        return False
    # "requires a $300 annual fee", "requires $120 in annual fees", "annual fee: requires $120",
    # "needs $95 a year" still state a fee
    if _PRICED_AFTER.match(masked, claim.end):
        return False
    rest = _CLAUSE_STOP.search(masked, claim.end, claim.end + _CLAUSE_REACH)
    after = masked[claim.end : rest.start() if rest else claim.end + _CLAUSE_REACH]
    lead = masked[max(0, needs.start() - _CLAUSE_REACH) : needs.start()]
    cut = [m.end() for m in _CLAUSE_STOP.finditer(lead)]
    lead = lead[cut[-1] :] if cut else lead
    return not _FEE_WORDS.search(after) and not _FEE_LABEL.search(lead)


# -- generic_31 -----------------------------------------------------------------------------------

# "a no-fee card", "a $0 annual fee card", "carry a no-foreign-fee card", "a flat 2% no-fee card":
# the figure inside an indefinite noun phrase headed by "card" is about cards in general
_GENERIC_BEFORE = re.compile(
    r"(?<![\w'])(?:a|an|one|any|another|some|other|extra|second|backup)[ \t]+"
    r"(?:[\w$%.,-]+[ \t]+){0,2}(?:\*\*|__)?$"
)
_GENERIC_AFTER = re.compile(r"(?:\*\*|__)?[ \t]*(?:[\w-]+[ \t]+){0,2}?cards?\b")
_PER_CARD = re.compile(r"\b(?:per|each|every)[ \t]+cards?\b")
_PREDICATE_31 = re.compile(
    r"(?:\b(?:is|are|was|be|been|as|it'?s|that'?s|'s|'re|becomes?|remains?|stays?)|[:,(\u2014\u2013]|"
    r"[ \t]-)[ \t]*$"
)


def _generic_card(claim: Claim, masked: str) -> bool:
    """``generic_31``: the claim sits in "a(n) ... <claim> ... card" (not "X is a no-fee card")."""
    if claim.family != "fee":
        return False
    before = _GENERIC_BEFORE.search(masked, max(0, claim.start - 40), claim.start)
    if before is None:
        return False
    after = _GENERIC_AFTER.match(masked, claim.end)
    if after is None or _PER_CARD.search(masked, before.start(), after.end()):
        return False
    # a sentence that names a card, or a table row, says it of that card ("X is basically a
    # no-fee card", "| X | a great no annual fee card |", "For a no-fee card, X is my pick")
    begin, stop = _sentence_of(masked, claim.start, claim.end)
    line_start = masked.rfind("\n", 0, claim.start) + 1
    return "#" not in masked[begin:stop] and not _ROW_31.match(masked, line_start)


# -- held_31 ---------------------------------------------------------------------------------------

# words that put a card forward for the customer to get: "I'd suggest", "I'd go with", "I'd add",
# "apply for", "my pick", "is the one", "switch to" (not "keep", "use", "close", "your X")
_FORWARD_31 = re.compile(
    r"\b(?:suggest\w*|recommend\w*|go(?:ing)?[ \t]+(?:with|for|ahead)|add|adding|gets?|getting|"
    r"apply\w*|applications?|picks?|choice|sign(?:ing)?[ \t]+up|open(?:ing)?\b(?![ \t]+to\b)|"
    r"switch(?:ing)?[ \t]+to|try|consider\w*|grab|put[ \t]+you[ \t]+in|upgrade[ \t]+to|"
    r"is[ \t]+the[ \t]+one|would[ \t]+be[ \t]+my|winner|new[ \t]+card|fits?|for[ \t]+you|ideal|"
    r"perfect|right[ \t]+(?:card|choice|pick|one)|for[ \t]+your|match|checks?[ \t]+(?:every|all)|what[ \t]+you[ \t]+want|makes?[ \t]+(?:the[ \t]+"
    r"most[ \t]+)?sense|options?|strong|vote|top|ranked|ranking|start[ \t]+with|solid|"
    r"should[ \t]+(?:get|add|open|apply)|which[ \t]+card|point(?:ing)?[ \t]+you|steer(?:ing)?[ \t]+you|"
    r"lean(?:ing)?[ \t]+(?:toward|towards|to)|"
    r"best(?![ \t]+(?:asset|thing|move|part|way|to|of|if|when))"
    r")\b"
)
# the customer's own card: "your X", "you've got", "you're paying $95 for X", "already", "keep it",
# "close", "current", "letting X age", "pay X in full", "I have", "on file"
_OWN_31 = re.compile(
    r"\b(?:your|yours|you've[ \t]+got|you[ \t]+(?:have|hold|carry|own|already|currently|still|use|"
    r"pay|are[ \t]+(?:paying|carrying|using|holding))|you're[ \t]+(?:paying|carrying|using|holding)|"
    r"already|current(?:ly)?|existing|keep(?:ing|s)?|close|closing|cancel\w*|downgrad\w*|"
    r"i[ \t]+have|i've[ \t]+got|my|holds?|owns?|on[ \t]+file|letting|let[ \t]+it|in[ \t]+full|"
    r"bring|age)\b"
)
# "you don't need to add the X", "no need to get another": a negated forward word puts nothing
_NEGATED_31 = re.compile(
    r"\b(?:don't|do[ \t]+not|no[ \t]+need[ \t]+to|not|never|wouldn't|won't|needn't|shouldn't|"
    r"isn't|aren't)[ \t]+(?:[\w']+[ \t]+){0,2}$"
)
# list items, table rows and quotes: read under the nearest line above that is none (a lead, or
# a heading); a table row also under its table's header row
_LIST_LINE_31 = re.compile(r"[ \t]*(?:[-*+>\u2022]|\d{1,2}[.)])")
_ROW_31 = re.compile(r"[ \t]*\|")
_HEADING_31 = re.compile(r"[ \t]*#{1,6}[ \t]")
_APPLY_NEXT_31 = re.compile(
    r"[ \t]*(?:apply|sign[ \t]+up|get[ \t]+it|grab[ \t]+it|open[ \t]+(?:it|one))\b"
)
_SENTENCE_END_31 = re.compile(r"[.!?;](?:[ \t]|$)|\n")
_REACH_31 = 400
_HELD_MENTIONS_31 = 40
_LINES_UP_31 = 30


def _forward(text: str) -> bool:
    """Whether ``text`` holds a word that puts a card forward, not negated."""
    for match in _FORWARD_31.finditer(text):
        if not _NEGATED_31.search(text, max(0, match.start() - 30), match.start()):
            return True
    return False


def _put_forward(masked: str, start: int, end: int) -> bool:
    """Whether words putting a card forward stand around the mention (``_said_around``)."""
    return _said_around(masked, start, end, _forward)


def _possessed(masked: str, start: int, end: int) -> bool:
    """Whether words of the customer's own card ("your", "you have", "already", "keep", "close",
    "current") stand around the mention (``_said_around``)."""
    return _said_around(masked, start, end, lambda text: _OWN_31.search(text) is not None)


def _said_around(masked: str, start: int, end: int, said: Callable[[str], bool]) -> bool:
    """Whether ``said`` holds of the mention's sentence (or a question just before it), or - in a
    list item, table row or heading - of its whole line, the nearest line above that is none, or
    its table's header row."""
    _forward = said
    head = masked[max(0, start - _REACH_31) : start]
    cuts = [m for m in _SENTENCE_END_31.finditer(head)]
    if cuts:
        last = cuts[-1]
        # "Which card should you get? The X.": the question is part of the answer's sentence
        begin = cuts[-2].end() if last.group()[0] == "?" and len(cuts) > 1 else 0
        head = head[begin:] if last.group()[0] == "?" else head[last.end() :]
    tail = masked[end : end + _REACH_31]
    stop = _SENTENCE_END_31.search(tail)
    # "X checks every box. Apply online in minutes.": an imperative to get it comes next
    if stop is not None and not _APPLY_NEXT_31.match(tail, stop.end()):
        tail = tail[: stop.start()]
    if said(head) or said(tail):
        return True
    line_start = masked.rfind("\n", 0, start) + 1
    line_end = masked.find("\n", end)
    line_end = len(masked) if line_end < 0 else line_end
    # (a long line is read near the mention: each mention reads at most this much of it)
    near_start, near_end = max(line_start, start - _REACH_31), min(line_end, end + _REACH_31)
    in_row = _ROW_31.match(masked, line_start) is not None
    in_heading = _HEADING_31.match(masked, line_start) is not None
    if not in_row and not in_heading and not _LIST_LINE_31.match(masked, line_start):
        return False
    if said(masked[near_start:near_end]):
        return True  # a later sentence of its list item, row or heading
    pos = line_start - 1
    for _ in range(_LINES_UP_31):
        if pos <= 0:
            return False
        above = masked.rfind("\n", 0, pos) + 1
        line = masked[above:pos]
        pos = above - 1
        if not line.strip():
            continue
        if _ROW_31.match(line):
            if in_row and said(line):
                return True  # the header (or another row) of the card's table
            continue
        if _LIST_LINE_31.match(line) or (in_heading and not _HEADING_31.match(line)):
            continue  # under a heading, the lead is the heading above it
        return said(line[-2 * _REACH_31 :])
    return False


def held_31(
    masked: str, extraction: Extraction, recs: Recommendations, *, held: frozenset[str]
) -> Recommendations:
    """``held_31``: a card the customer already holds, that the answer treats as theirs and no
    mention puts forward, is reviewed, not recommended (module docstring): no recommendation,
    and not the answer's sole pick either (ruleset 3 takes the only card an answer names as its
    pick)."""
    from replicas.verifiers.compliance.recommend import Recommendations

    named = {m.card_id for m in extraction.mentions if m.card_id in held}
    if not named:
        return recs
    counts = {card: sum(1 for m in extraction.mentions if m.card_id == card) for card in named}
    # a card named more than this often is left as ruleset 30 reads it (bounds the work)
    named = {card for card in named if counts[card] <= _HELD_MENTIONS_31}
    forward = {
        card
        for card in named
        if any(
            m.card_id == card and _put_forward(masked, m.start, m.end) for m in extraction.mentions
        )
    }
    reviewed = {
        card
        for card in named - forward
        if any(
            m.card_id == card and _possessed(masked, m.start, m.end) for m in extraction.mentions
        )
    }
    if not reviewed:
        return recs
    positive = {c: m for c, m in recs.positive.items() if c not in reviewed}
    return Recommendations(positive, recs.negated | reviewed)


# -- retracted_31 ---------------------------------------------------------------------------------

# "In my last reply I suggested X. You pointed out ...": a past suggestion the answer corrects
_PAST_PICK_31 = re.compile(
    r"\b(?:(?:i|we)[ \t]+(?:had[ \t]+|originally[ \t]+|previously[ \t]+)?(?:suggested|recommended|"
    r"pointed[ \t]+you[ \t]+(?:to|toward|towards)|put[ \t]+you[ \t]+(?:in|on)|mentioned|told[ \t]+you"
    r"[ \t]+about)|my[ \t]+(?:last|earlier|previous|original|first)[ \t]+(?:answer|reply|message|"
    r"suggestion|recommendation|pick))\b"
)
_CORRECTION_31 = re.compile(
    r"\b(?:correction|my[ \t]+mistake|i[ \t]+was[ \t]+wrong|got[ \t]+(?:something|it|that)(?:[ \t]+"
    r"\w+)?[ \t]+wrong|pointed[ \t]+out|"
    r"turned[ \t]+down|declined)\b"
)
_CORRECTION_REACH = 200
# "X would normally be the obvious pick, but ...": a counterfactual pick
_COUNTERFACTUAL_31 = re.compile(
    r"[ \t]*(?:\)|\*\*|__)?[ \t]*(?:would|might)[ \t]+(?:normally|otherwise|usually|typically|ordinarily)[ \t]+be"
    r"|[ \t]*(?:\)|\*\*|__)?[ \t]*would[ \t]+have[ \t]+been"
)
_COUNTER_PICK_31 = re.compile(
    r"[^.!?;\n]{0,40}\b(?:pick|choice|option|recommendation|go-to|fit|card[ \t]+for[ \t]+you)\b"
    r"[^.!?;\n]*\b(?:but|except)\b"
)
# words that keep a past pick standing: "my earlier recommendation stands", "I'd keep my original
# pick", "still", "stick with"
_STANDS_31 = re.compile(
    r"\b(?:stands?|still|stick(?:ing)?[ \t]+with|keep[ \t]+my|same[ \t]+pick|again)\b"
)


def _sentence_of(masked: str, start: int, end: int) -> tuple[int, int]:
    head = masked[max(0, start - _REACH_31) : start]
    cuts = [m.end() for m in _SENTENCE_END_31.finditer(head)]
    begin = max(0, start - _REACH_31) + (cuts[-1] if cuts else 0)
    stop = _SENTENCE_END_31.search(masked, end, end + _REACH_31)
    return begin, stop.start() if stop is not None else min(len(masked), end + _REACH_31)


def _withdrawn(masked: str, mention: NameMention) -> bool:
    """Whether ``mention`` is a past suggestion the answer corrects (the correction within a few
    sentences of it), or a counterfactual pick."""
    begin, stop = _sentence_of(masked, mention.start, mention.end)
    if _PAST_PICK_31.search(masked, begin, mention.start):
        corrected = _CORRECTION_31.search(
            masked, max(0, begin - _CORRECTION_REACH), mention.end + _CORRECTION_REACH
        )
        # what stands around it, up to the end of the next sentence, must not put it forward
        after = _SENTENCE_END_31.search(masked, stop + 1, stop + _REACH_31)
        around = masked[begin : after.start() if after else stop + _REACH_31]
        return (
            corrected is not None
            and not _forward(around.replace(masked[begin : mention.start], "", 1))
            and not _STANDS_31.search(around)
        )
    # "X would normally be the obvious pick for you, but ...": the card is the counterfactual's
    # subject, and its pick is undone by "but" / "except"
    shape = _COUNTERFACTUAL_31.match(masked, mention.end)
    return shape is not None and _COUNTER_PICK_31.match(masked, shape.end()) is not None


def retracted_31(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """``retracted_31``: a card named only as a past suggestion the answer corrects ("In my last
    reply I suggested X. You pointed out ...") or as a counterfactual pick ("X would normally be
    the obvious pick, but ...") is not put forward."""
    from replicas.verifiers.compliance.recommend import Recommendations

    if not recs.positive:
        return recs
    withdrawn = set()
    for card in recs.positive:
        named = [m for m in extraction.mentions if m.card_id == card]
        if named and all(_withdrawn(masked, m) for m in named):
            withdrawn.add(card)
    if not withdrawn:
        return recs
    positive = {c: m for c, m in recs.positive.items() if c not in withdrawn}
    return Recommendations(positive, recs.negated | withdrawn)


def revise_31(
    extraction: Extraction,
    text: str,
    catalog: Catalog | None,
    mentions: list[NameMention],
    shortrefs: bool,
    yearly: bool,
    pairs: bool,
    generic: bool = False,
    needs: bool = False,
) -> Extraction:
    """The extraction with ruleset 31's readings (module docstring)."""
    if catalog is None:
        return extraction
    if yearly and "$" in extraction.masked:
        extraction = unbind_claims(extraction, [_yearly_reading(catalog)])
    if generic and " card" in extraction.masked:
        extraction = unbind_claims(extraction, [_generic_card])
    if needs and "$" in extraction.masked:
        extraction = unbind_claims(extraction, [_needed])
    if shortrefs:
        extraction = _shortrefs(extraction, text, catalog, mentions)
    if pairs:
        extraction = _pairs(extraction, text)
    return extraction
