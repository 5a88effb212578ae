"""Ruleset 31: the s36 and s37 blind sets' tuning halves' false flags, by class (precision; one
reading, ``pairs_31``, is also stricter on swapped pairs).

Ruleset 30 gave each of s36's 800 answers 29's codes on its first reading: its readings were of
phrasings s34 had shown, and s36's writers used others. The readings here are of what a figure or
a card is in any writer's text - a card called by a short name, a value worked out, an amount
required, a card in general, the customer's own card, a withdrawn pick - not of one phrasing. Each
was attacked by red teams with the source (RULESETS.md, "Ruleset 31"), and narrowed until every
text they wrote was closed; the gates below are what that left. ``ruleset31b`` holds the readings
of recommendations (``held_31``, ``retracted_31``).

* ``shortrefs_31`` - **"BJR has no intro rate, 26.24%-32.24% variable", "Beacon 26.24% var,
  Frontier 26.99% var", "HSME is $495/yr"**: an answer that names two or more cards in full often
  calls them afterwards by one word of the name or by its initials; ruleset 30 gave the figure
  after such a word to the card named in full last, and flagged it. A *short name* is a
  capitalised word of the name of a card the response names in full - not a word of card talk
  ("Cash", "Rewards": those only stop the search), not a word of another proper name ("First
  Meridian Savings Bank") - or an all-capitals word of three to six letters spelling such a
  name's initials, not an abbreviation ("BT", "CSR", "FEE"). A figure bound by its clause,
  sentence or context goes to the card(s) the nearest short name before it in its unit calls
  when the short name is the subject of the figure's clause or stands right before it ("X's",
  "X:", "X at", "X is"), and none of these stands in the way: a card named in full between them,
  before it in the sentence (unless "X:" opens its clause as a label), or after the figure in its
  unit; a ";" or line end; a pronoun or noun-phrase subject ("it", "the other one", "my pick");
  a closed bracket; a comparison before the short name ("like", "than", "as", "vs", "over",
  "matches", "think", ...); "a"/"an" before it ("a no-fee Crest"). A common word of a name
  ("Plus", "Clear", "Elite") calls a card only after "the". A bracketed short name right after
  a figure labels it ("24.74% var (Liberty)"). Several cards ("Summit" for three): the figure
  must be right for one; a figure whose card the short name also calls stays put.
* ``yearly_31`` - **"the Plus wins by $19/yr", "that's +$133/yr", "Compass Scholar: about $7.29
  a month, $87 a year"**: a dollar amount read as an annual fee (or a fee of no named kind) is
  unverified where its value is no annual or first-year fee of any catalog card, its sentence
  holds no word of fees, and either words of a value worked out stand right at it ("wins by",
  "gives you", "earns", "worth", "an extra", "that's +", "=", "->", "... back", "... ahead") or
  it has no fee's shape (not whole dollars ending in 0, 5 or 9, and not within $10 of its
  card's fee). "X: $99/yr", "X runs $120 a year", "$120 after the first year" keep their claim.
* ``pairs_31`` - **"X and Y both charge an annual fee, $39 and $29"**: two fees of one kind
  joined by "and" within 160 characters after "X and Y" (two cards joined by "and", not in a
  longer list, not after a contrast) are the cards' in order - unless words between say
  otherwise (possessives, fee kinds, "between", "lower and higher") or after ("(first miss,
  repeat)", "lowest first"). Ruleset 30 checked each figure against both cards: the honest pair
  was flagged and a swapped pair ("$95 and $150" for $150 and $95) passed.
* ``generic_31`` - **"for everything else a flat 2% no-fee card does fine"**: a fee inside "a(n)
  ... <fee> ... card" in a sentence that names no card and is no table row is about cards in
  general ("X is basically a no-fee card", "| X | a no-fee card |", "$120 per card" stay).
* ``needs_31`` - **"X needs only $300 and has the lowest late fee"**: an amount right after
  "needs", "requires", "put down", "stretch to", "deposit of" is required, not charged - unless
  its clause names a fee ("requires $120 in annual fees", "annual fee: requires $120").
* ``held_31`` (``ruleset31b``) - **"Here's where your cards stand: - X - $695 a year", "X is your
  best asset right now, so let it age"**: with a customer, a card they already hold that the
  answer treats as theirs ("your", "you have", "already", "keep", "close", "current", ...) and
  that no words put forward ("I'd suggest", "go with", "apply", "my pick", "for you", ...: its
  sentence, the next one if it says "apply", its list item, heading, table header or lead line)
  is reviewed, not recommended. Other closed cards (score, student-only, bankruptcy) are
  untouched; a card named over 40 times is left as ruleset 30 reads it.
* ``retracted_31`` (``ruleset31b``) - **"In my last reply I suggested X. You pointed out ..."**:
  a card whose every mention is a past suggestion corrected within a few sentences ("pointed
  out", "my mistake", "turned down", ...) with nothing putting it forward or keeping it ("still",
  "stands"), or the subject of "X would normally be the obvious pick for you, but ...", is no
  pick.

See "Ruleset 31" in ``verifiers/compliance/RULESETS.md``.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import replace

from replicas.verifiers.compliance.attribution import UNION
from replicas.verifiers.compliance.catalog import Catalog
from replicas.verifiers.compliance.claims import Claim, Extraction, unbind_claims
from replicas.verifiers.compliance.memo import PerCatalog
from replicas.verifiers.compliance.mentions import EXACT, MISSPELLED, NameMention, tokens_of
from replicas.verifiers.compliance.ruleset31c import (
    ABBREVIATIONS,
    CLAUSE_REACH,
    FEE_WORDS,
    NOT_SHORT,
    generic_reading,
    needed,
    read_pairs,
    unit_of,
)
from replicas.verifiers.compliance.vocab import (
    TIER_WORDS,
)

__all__ = ["revise_31"]

# Bindings a short name may override: the ones that only say which card was named nearest.
_LOOSE = frozenset({"clause", "unit", "context"})
_WORD = re.compile(r"(?<![\w'-])([A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)(?:'s|\u2019s)?(?![\w-])")
_COMPARISON = re.compile(
    r"(?:\b(?:like|unlike|than|as|vs\.?|versus|compared\s+(?:with|to)|over|beats?|from|against|"
    r"instead\s+of|including|match(?:es)?|mirrors?|equals?|copies|think|similar\s+to|on\s+par\s+with|"
    r"relative\s+to|identical\s+to|same\s+as|forget|skip|ditch|drop|bye|sorry|not|avoid|pass\s+on|"
    r"thanks|thank\s+you|cheers|hi|hey|hello|dear|v)"
    r",?\s+(?:the\s+|your\s+)?)$",
    re.IGNORECASE,
)
_BRACKET_AFTER = re.compile(
    r"[ \t]{0,3}(?:(?:var(?:iable)?|fixed|a\s+year|/yr|per\s+year)[ \t]{0,3})?\(([A-Z][A-Za-z0-9'-]*)\)"
)
# A clause ends at these (a short name before one does not reach a figure after it).
_CLAUSE_END = re.compile(r"[;\n]")
# a sentence the units read on past an abbreviation's period ("etc. Next, ...", "the U.S. The")
_ABBREVIATION_END = re.compile(r"\b(?:etc|U\.S|U\.K|e\.g|i\.e|vs|approx|incl)\.(?=[ \t]+[A-Z])")


def _named_cards(mentions: list[NameMention]) -> dict[str, None]:
    """The cards the response names in full, in order of first mention."""
    return {
        m.card_id: None for m in mentions if m.card_id is not None and m.kind in (EXACT, MISSPELLED)
    }


def _tokens_by_card(catalog: Catalog) -> dict[str, tuple[str, ...]]:
    return {card.card_id: tokens_of(catalog.names.name_of(card.card_id)) for card in catalog.cards}


_name_tokens = PerCatalog(_tokens_by_card)


def _short_names(
    text: str, catalog: Catalog, named: dict[str, None], mentions: list[NameMention]
) -> list[tuple[int, int, frozenset[str]]]:
    """Each short name of the text: (start, end, the named cards it may call), in order."""
    words: dict[str, set[str]] = {}
    initials: dict[str, set[str]] = {}
    blockers: set[str] = set()
    tokens = _name_tokens(catalog)
    for card_id in named:
        full = tokens[card_id]
        for w in full:
            if w in NOT_SHORT or w.isdigit():
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
        if start and text[start - 1] == "@":
            continue  # a forum handle
        word = match.group(1)
        lower = word.lower()
        cards = words.get(lower)
        if (
            cards is None
            and word.isupper()
            and 3 <= len(word) <= 6
            and lower not in ABBREVIATIONS
            and lower not in NOT_SHORT
        ):
            cards = initials.get(lower)
        if cards and _part_of_other_name(text, start, end, word):
            cards = None  # "First Meridian Savings Bank", "World Elite Mastercard"
        if cards:
            out.append((start, end, frozenset(cards)))
        elif lower in blockers:
            out.append((start, end, frozenset()))  # may call a card; which, the words don't say
    return out


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


_INDEFINITE_31 = re.compile(r"\b(?:a|an|another|any)[ \t]+(?:[\w$%-]+[ \t]+){0,2}$", re.IGNORECASE)
_SHORT_REACH = 200
_MODIFIER_AFTER = re.compile(
    r"(?:'s|\u2019s)?[ \t]+(?:card)?(?:holders?|fans?|users?|customers?|owners?|members?|people|folks|"
    r"crowd|loyalists|aside|gone|excluded|apart|notwithstanding|included|out[ \t]+of)\b"
)
_OTHER_PRODUCT = re.compile(
    r"\b(?:version|variant|edition|tier|sibling|cousin|sister|another|other|upgrade|downgrade)\b"
)
_CLAUSE_JOIN = re.compile(r",[ \t]*(?:and|but|while|whereas|so|though)\b|[ \t]\u2014[ \t]")
_LABEL_AFTER = re.compile(r"(?:\*\*|__)?[ \t]*:")
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
_CLAUSE_OPEN = re.compile(r"[,;:(\n|]|[.!?](?:[ \t]|$)|\u2192|->|=>")
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
    unit_start, unit_end = unit_of(extraction, claim.start)
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
    if claim.start - end > _SHORT_REACH:
        return None  # a short name reaches this far at most (and each figure reads no more)
    if _MODIFIER_AFTER.match(text, end):
        return None  # "Juniper cardholders ...", "Juniper aside, ...": no subject
    between = text[end : claim.start]
    if _CLAUSE_JOIN.search(between) and not _LABEL_AFTER.match(text, end):
        return None  # "Harbor doesn't come close, and the annual fee is $0"
    if _OTHER_PRODUCT.search(between):
        return None  # "Juniper also does a version for $95 a year"
    if _PRONOUN_31.search(between) or (")" in between and "(" in text[unit_start:start]):
        return None  # "Harbor doesn't, but it runs ...", "(Harbor is comparable) ... 0.99%"
    # subject of its clause, whatever stands between it and the figure ("Cancel Juniper: $0",
    # "Heading to Keystone: ...", "The upside of ditching Juniper is $0" are not); right before
    # the figure after "the" it may be an object ("do you still need the Preferred at $150/yr?")
    direct = _DIRECT.fullmatch(text, end, claim.start)
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


def _own_clause(masked: str, start: int, end: int) -> str:
    before = masked[max(0, start - CLAUSE_REACH) : start]
    after = masked[end : end + CLAUSE_REACH]
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
# an answer working out what a card earns: the shape of an amount alone says it is no fee there
_EARNING = re.compile(
    r"\b(?:earn\w*|rewards?|points?|cash[ \t]*back|back|worth|value|miles|spend\w*)\b|\d(?:\.\d+)?x\b"
)


def _distinctive_words(catalog: Catalog) -> frozenset[str]:
    """The words of the catalog's card names that are no words of card talk ("harbor", "willow")."""
    return frozenset(
        w
        for card in catalog.cards
        for w in tokens_of(card.card_name)
        if w not in NOT_SHORT and not w.isdigit()
    )


_name_words = PerCatalog(_distinctive_words)


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
        if FEE_WORDS.search(_own_clause(masked, claim.start, claim.end)) is not None:
            return False
        before = masked[max(0, claim.start - _VALUE_REACH) : claim.start]
        return (
            _VALUE_BEFORE.search(before) is not None
            or _VALUE_AFTER.match(masked, claim.end) is not None
            or (
                not _fee_shaped(claim.low, claim.cards, catalog)
                and _EARNING.search(masked, max(0, claim.start - 200), claim.end + 40) is not None
            )
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
    breaks = sorted(
        [m.start() for m in _CLAUSE_END.finditer(text)]
        + [m.start() for m in _ABBREVIATION_END.finditer(text)]
    )
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
        extraction = unbind_claims(extraction, [generic_reading(text, _name_words(catalog))])
    if needs and "$" in extraction.masked:
        extraction = unbind_claims(extraction, [needed])
    if shortrefs:
        extraction = _shortrefs(extraction, text, catalog, mentions)
    if pairs:
        extraction = read_pairs(extraction, text)
    return extraction
