"""Ruleset 15: the classes the s16 blind set's tuning split showed (issue 13; seed 81), each fixed
as a class, precision first. One section per class, grouped by where they act.

Text rewrites (``footnote_offers_15``, first of all rewrites, before ruleset 14's footnote
markers are dropped):

* **an intro offer whose length sits in a footnote** - "0% intro APR on purchases**" with a
  footnote line "\\*\\* For 15 months from account opening; after that, 21.24%-29.24% variable
  APR." (also "*", "†", "‡", "§", "¹", "[1]"): the offer's length is in the footnote its marker
  points to. A marker right after an intro offer's words (on a line that states no months),
  whose footnote line (the marker at its start) gives one length in months or billing cycles,
  is read as "for N months" - so the length is checked against the card (a wrong footnote
  length is wrong intro terms) and discloses it. A bold "**" that closes an opening one is no
  marker.

Names (``names_15``, after every other name rule):

* **an issuer's first word before an invented product, in lower case** - "hollow elevate cash
  offers a $95 annual fee ... i'd recommend hollow elevate cash", "prairie elevate cash offers
  ...": the first word of an issuer's name of two or more words ("Hollow Creek Bank", "Prairie
  Plains Bank") without the rest of it, then one unfamiliar word and product words ending in a
  strong one, is an invented card - as its Title Case form already reads - when the phrase is
  written in lower case and used as a card: named so twice, or followed by a term verb ("offers",
  "has", "charges", ...) or a possessive. Claims then attach to it, not to the card named before.

Claims (``claims_15``, after ruleset 14's revisions):

* **a yearly value with its first year in brackets** - "I estimate its value to you at around
  $338 a year ($1,838 in year one)", "rewards worth ~$300 per year, or $450 the first year": the
  first year's figure of a yearly amount that is no fee (its clause names a value, rewards,
  savings, earnings, a return or a bonus and no fee) is that amount's, not a first-year annual
  fee: unverified.
* **a periodic rate worked out from the APR** - "20.49% APR ÷ 12 ≈ 1.71% a month", "19.99%/12 =
  1.67% per month", "a monthly periodic rate of about 1.67%", "divided by twelve, roughly 1.67%
  monthly", "about 0.055% a day": a rate per month or per day (or the result of dividing by 12
  or 365) is no APR: unverified. The APR it is worked out from is still checked.
* **the other card's fee in a comparison** - "The A costs $195 a year, which is $146 more than
  the B's $49", "..., versus the B's $49", "... than the $49 of the B": a dollar figure right
  after the possessive of the card a fee is compared with (or "the $N of/on the B") is read as
  that card's fee of the same kind as the fee it is compared with (the A's, stated before it in
  the sentence) and checked. The difference itself stays unverified.
* **a myth that a 0% offer means no fee** - "a 0% transfer offer does not mean transfers are
  free", "an intro rate of 0% doesn't mean balance transfers cost nothing", "0% interest is not
  the same as no fee": a "no fee" (or $0) claim in what "does not mean" / "is not the same as" /
  "doesn't imply" denies is not the response's claim. A figure stated after the clause ("every
  transfer carries a 3% fee") is checked as before.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.claim_types import APR_CLAIM, FEE_CLAIM, INTRO_CLAIM
from replicas.verifiers.compliance.claims import Claim, unbind_claims
from replicas.verifiers.compliance.expansions import apply_replacements
from replicas.verifiers.compliance.matchers import at_line_starts, trie_pattern
from replicas.verifiers.compliance.mentions import NameMention
from replicas.verifiers.compliance.names10 import STRONG_PRODUCT_WORDS
from replicas.verifiers.compliance.numwords import NUMBER_WORDS, parse_number_words
from replicas.verifiers.compliance.phrases import FUNCTION_WORDS
from replicas.verifiers.compliance.ruleset13 import Names13, names13_for
from replicas.verifiers.compliance.spans import SpanIndex
from replicas.verifiers.compliance.values import USD
from replicas.verifiers.compliance.vocab import (
    GENERIC_WORDS,
    INSTITUTION_WORDS,
    PRODUCT_WORDS,
    SERVICE_WORDS,
)

if TYPE_CHECKING:
    from replicas.verifiers.compliance.claims import Extraction
    from replicas.verifiers.compliance.names import NameIndex
    from replicas.verifiers.compliance.text import NormalizedText


# == text rewrites ================================================================================

# -- an intro offer whose length sits in a footnote --------------------------------------------
_SUPER_15 = "\u00b9\u00b2\u00b3\u2070\u2074\u2075\u2076\u2077\u2078\u2079"
# a footnote line: its marker first (markdown may escape "*"), then its words
_NOTE_LINE_15 = re.compile(
    r"^[ \t]*(?:[-*>][ \t]+)?(?P<marker>(?:\\?\*){1,3}|[\u2020\u2021\u00a7]{1,2}|\[\d{1,2}\]"
    r"|[" + _SUPER_15 + r"]{1,2}|\d{1,2}(?=[ \t]+[A-Z]))[ \t]*(?P<body>[^\n]*)$",
    re.MULTILINE,
)
# the one length a footnote gives: "for 15 months", "15 billing cycles", "the first fifteen months"
_NOTE_MONTHS_15 = re.compile(
    r"\b(?P<n>\d{1,2}|" + NUMBER_WORDS + r")[ \t]+(?:full[ \t]+)?(?:months?|billing[ \t]+cycles?"
    r"|statement[ \t]+cycles?)\b",
    re.IGNORECASE,
)
# an intro offer's words before a marker, on its line
_INTRO_CUE_15 = re.compile(r"\b(?:intro|introductory|promo|promotional)\b|\b0(?:\.0+)?[ \t]*%")
_MONTHS_WORD_15 = re.compile(r"\bmonths?\b|\bbilling[ \t]+cycles?\b", re.IGNORECASE)
_BOLD_15 = re.compile(r"(?<!\\)\*\*")


def _note_months(body: str) -> int | None:
    """The one length in months a footnote's words give (None: none or several)."""
    found = set()
    for m in _NOTE_MONTHS_15.finditer(body):
        word = m.group("n").lower()
        value = int(word) if word.isdigit() else parse_number_words(word)
        if 0 < value < 100:
            found.add(value)
    return found.pop() if len(found) == 1 else None


_ONES_15 = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
)  # fmt: skip
_TENS_15 = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def _in_words(n: int) -> str:
    """1-99 in words (ruleset 14 drops digits whose original is a superscript marker)."""
    if n < 20:
        return _ONES_15[n]
    tens, ones = divmod(n, 10)
    return _TENS_15[tens] + (f"-{_ONES_15[ones]}" if ones else "")


def _marker_forms(marker: str) -> tuple[str, ...]:
    """The inline forms of a footnote line's marker ("\\*\\*" is "**")."""
    plain = marker.replace("\\", "")
    return (plain, marker) if plain != marker else (plain,)


def footnote_offers_15(norm: NormalizedText) -> NormalizedText:
    """``norm`` with a footnote marker right after an intro offer read as the length its
    footnote gives ("0% intro APR on purchases**" -> "... on purchases for 15 months")."""
    text = norm.text
    if "month" not in norm.lower and "cycle" not in norm.lower:
        return norm
    notes: dict[str, tuple[int, int]] = {}  # marker -> (months, footnote line start)
    for m in at_line_starts(_NOTE_LINE_15, text):
        marker = m.group("marker").replace("\\", "")
        if marker.isdigit():
            # NFKC made a superscript a digit: a marker only if the original was one
            a, _ = norm.to_original(m.start("marker"), m.start("marker") + 1)
            if norm.original[a : a + 1] not in _SUPER_15:
                continue
        months = _note_months(m.group("body"))
        if months is None:
            continue
        if marker in notes and notes[marker][0] != months:
            notes[marker] = (-1, 0)  # two notes, two lengths: no one's
            continue
        notes.setdefault(marker, (months, m.start()))
    notes = {k: v for k, v in notes.items() if v[0] > 0}
    if not notes:
        return norm
    found: list[tuple[int, int, str]] = []
    for marker, (months, note_start) in notes.items():
        for form in _marker_forms(marker):
            pos = text.find(form)
            while pos >= 0:
                end = pos + len(form)
                line_start = text.rfind("\n", 0, pos) + 1
                line_end = text.find("\n", end)
                line_end = len(text) if line_end < 0 else line_end
                before = text[line_start:pos]
                spaced = form.startswith("[") and text[pos - 1 : pos] == " "
                if (
                    line_start != note_start
                    and pos > line_start + spaced
                    and (spaced or not text[pos - 1].isspace())
                    and text[pos - 1] not in "*\\"
                    and (end >= len(text) or text[end] not in "*\u2020\u2021\u00a7")
                    and _INTRO_CUE_15.search(before[-80:]) is not None
                    and _MONTHS_WORD_15.search(text, line_start, line_end) is None
                    and not (form == "**" and len(_BOLD_15.findall(before)) % 2 == 1)
                    and not (marker.isdigit() and text[pos - 1].isdigit())
                ):
                    said = (
                        _in_words(months) if marker.isdigit() or marker[0] in _SUPER_15 else months
                    )
                    found.append((pos - spaced, end, f" for {said} months"))
                pos = text.find(form, end)
    if not found:
        return norm
    found.sort()
    kept: list[tuple[int, int, str]] = []
    for item in found:
        if kept and item[0] < kept[-1][1]:
            continue
        kept.append(item)
    return apply_replacements(norm, kept)


# == names =======================================================================================

# -- an issuer's first word before an invented product, in lower case ---------------------------
# a card's use after the phrase: a term verb or a possessive
_CARD_USE_15 = re.compile(
    r"(?:'s\b|[ \t]+(?:offers|has|comes|charges|carries|gives|provides|features|includes|costs"
    r"|lets|earns|pays|is[ \t]+(?:a|an|the|my|our|worth)\b))"
)
_WORD_15 = re.compile(r"[a-z0-9']+")
_ISSUER_FIRST_15: dict[int, tuple[object, re.Pattern[str] | None, dict[str, tuple[str, ...]]]] = {}


def _issuer_firsts(
    index: NameIndex, extra: Names13
) -> tuple[re.Pattern[str] | None, dict[str, tuple[str, ...]]]:
    """The first words of the issuers' names of two or more words (a regex, and each word's
    stems), per index."""
    hit = _ISSUER_FIRST_15.get(id(index))
    if hit is not None and hit[0] is index:
        return hit[1], hit[2]
    seconds: dict[str, set[str]] = {}
    for stem in extra.base.stems:
        if len(stem) >= 2 and stem[0].isalpha() and len(stem[0]) >= 4:
            seconds.setdefault(stem[0], set()).add(stem[1])
    # a first word that is also a card brand opens catalog names: left to the other rules
    firsts = {w: tuple(sorted(v)) for w, v in seconds.items() if w not in extra.base.brands}
    pattern = (
        re.compile(
            r"(?<![\w'-])(?:" + trie_pattern(sorted(firsts)) + r")(?P<t>(?:[ \t][a-z0-9']+){2,3})"
        )
        if firsts
        else None
    )
    if len(_ISSUER_FIRST_15) > 64:
        _ISSUER_FIRST_15.clear()
    _ISSUER_FIRST_15[id(index)] = (index, pattern, firsts)
    return pattern, firsts


def names_15(
    index: NameIndex, text: str, lower: str, mentions: list[NameMention]
) -> list[NameMention]:
    """``mentions`` with invented names in lower case that open with an issuer's first word
    ("hollow elevate cash"; module docstring)."""
    if len(lower) != len(text):
        return mentions
    extra = names13_for(index)
    pattern, firsts = _issuer_firsts(index, extra)
    if pattern is None or not any(first in lower for first in firsts):
        return mentions
    taken = SpanIndex((m.start, m.end) for m in mentions)
    found: dict[tuple[str, ...], list[tuple[int, int, bool]]] = {}
    for m in pattern.finditer(lower):
        start = m.start()
        first = lower[start : m.start("t")]
        words = [
            (w.start(), w.end(), w.group()) for w in _WORD_15.finditer(lower, m.start("t"), m.end())
        ]
        if words[0][2] in firsts.get(first, ()):
            continue  # the issuer's whole name (rulesets 12-13 read it)
        tail: list[str] = []
        last = -1
        coined = 0
        for x, (_, _, raw) in enumerate(words):
            w = raw[:-2] if raw.endswith("'s") else raw.rstrip("'")
            if w in FUNCTION_WORDS or w in SERVICE_WORDS or w in INSTITUTION_WORDS:
                break
            if w in STRONG_PRODUCT_WORDS or (w in PRODUCT_WORDS and w in index.tiers):
                tail.append(w)
                last = x
            elif w in PRODUCT_WORDS or w in index.tiers:
                tail.append(w)
            elif x == 0 and w.isalpha() and w not in GENERIC_WORDS and extra._unfamiliar(w):
                tail.append(w)
                coined += 1
            else:
                break
            if raw != w:
                break  # a possessive ends the name
        if coined != 1 or last < 1:
            continue
        stop = words[last][1]
        if words[last][2].endswith("'s"):
            stop -= 2
        if text[start:stop] != lower[start:stop] or taken.overlaps(start, stop):
            continue
        name = (first, *tail[: last + 1])
        used = _CARD_USE_15.match(lower, stop) is not None
        found.setdefault(name, []).append((start, stop, used))
    if not found:
        return mentions
    out = list(mentions)
    for name, spans in found.items():
        if len(spans) < 2 and not any(used for _, _, used in spans):
            continue
        for a, b, _ in spans:
            if taken.overlaps(a, b):
                continue
            invented = extra._invented(text, a, b, name)
            if not invented:
                break  # a catalog name
            out.extend(invented)
            taken.add(a, b)
    if len(out) == len(mentions):
        return mentions
    out.sort(key=lambda m: (m.start, m.end))
    return out


# == claims =======================================================================================

# -- a yearly value with its first year in brackets ---------------------------------------------
# the yearly amount, then the bracket (or ", or", a dash) the first-year figure opens
_YEARLY_THEN_15 = re.compile(
    r"\$[ \t]*\d[\d,]*(?:\.\d+)?[ \t]*k?[ \t]*(?:(?:a|per|each|every|/)[ \t]*(?:year|yr)\b"
    r"|annually\b|yearly\b|annual\b)[ \t]*(?:\(|\[|,?[ \t]*or\b|[-:;,])[ \t]*"
    r"(?:or[ \t]+|about[ \t]+|around[ \t]+|roughly[ \t]+|approximately[ \t]+|~[ \t]*|closer[ \t]+to[ \t]+)?$"
)
_VALUE_WORDS_15 = re.compile(
    r"\b(?:value|values|valued|worth|net|earn|earns|earning|earnings|save|saves|saving|savings"
    r"|return|returns|rewards?|cash[ \t]+back|cashback|points|miles|bonus|benefit|benefits"
    r"|payback|pays[ \t]+back|comes[ \t]+out[ \t]+ahead|gain|gains|profit)\b"
)
_FEE_WORDS_15 = re.compile(
    r"\b(?:fee|fees|charge|charges|charged|costs?[ \t]+to[ \t]+(?:hold|keep))\b"
)
_CLAUSE_START_15 = re.compile(r"[.!?\n;](?!\d)")


def _yearly_value(claim: Claim, masked: str) -> bool:
    """A first-year figure in brackets after a yearly amount that is no fee ("its value to you at
    around $338 a year ($1,838 in year one)")."""
    if claim.family != FEE_CLAIM or claim.kind != "annual_first_year" or claim.is_none:
        return False
    lo = max(0, claim.start - 60)
    m = _YEARLY_THEN_15.search(masked, lo, claim.start)
    if m is None:
        return False
    # the clause of the yearly amount, up to it
    cut = 0
    for c in _CLAUSE_START_15.finditer(masked, max(0, m.start() - 200), m.start()):
        cut = c.end()
    clause = masked[max(cut, m.start() - 200) : m.start()]
    value = None
    for v in _VALUE_WORDS_15.finditer(clause):
        value = v
    if value is None:
        return False
    return (
        _FEE_WORDS_15.search(clause, value.start()) is None
        and _FEE_WORDS_15.search(masked, m.start(), claim.end) is None
    )


# -- a periodic rate worked out from the APR ----------------------------------------------------
# after the figure: "a month", "per month", "/mo", "monthly", "each day", "daily"
_PER_PERIOD_AFTER_15 = re.compile(
    r"[ \t]*(?:(?:a|per|each|every|/|a[ \t]+calendar)[ \t]*(?:month|mo|day)\b|monthly\b|daily\b"
    r"|of[ \t]+interest[ \t]+(?:a|per|each)[ \t]+(?:month|day)\b|(?:in|of)[ \t]+interest[ \t]+"
    r"(?:a|per|each|every)[ \t]+(?:month|day)\b)"
)
# before it: "monthly (periodic) rate of about", "20.49% APR ÷ 12 ≈", "19.99%/12 =", "19.99% divided
# by twelve, roughly" (the division of a percentage by 12 or 365)
_PER_PERIOD_BEFORE_15 = re.compile(
    r"(?:\b(?:monthly|daily)[ \t]+(?:periodic[ \t]+)?(?:interest[ \t]+)?rate\b|\bperiodic[ \t]+rate\b"
    r"|\d[ \t]*%[ \t]*(?:apr[ \t]*|a[ \t]+year[ \t]*|per[ \t]+year[ \t]*)?(?:\u00f7|/|\bdivided[ \t]+by)"
    r"[ \t]*(?:12|twelve|365|360)\b(?:[ \t]+months|[ \t]+days)?)"
    r"[^.;\n%$]{0,30}$"
)
# every match of _PER_PERIOD_BEFORE_15 holds one of these (a cheap test before the pattern, which
# the regex engine tries at every character of its window)
_PER_PERIOD_HINTS_15 = ("rate", "/", "\u00f7", "divided")


def _periodic_rate(claim: Claim, masked: str) -> bool:
    """A rate per month or per day (or the result of dividing an APR by 12 or 365): no APR (nor,
    after its figure, an intro rate: "19.99% over twelve months is 1.67% a month")."""
    if claim.is_none or claim.low is None:
        return False
    if claim.family == INTRO_CLAIM:
        return claim.low > 0 and _PER_PERIOD_AFTER_15.match(masked, claim.end) is not None
    if claim.family != APR_CLAIM:
        return False
    if _PER_PERIOD_AFTER_15.match(masked, claim.end) is not None:
        return True
    lo = max(0, claim.start - 70)
    if not any(masked.find(h, lo, claim.start) >= 0 for h in _PER_PERIOD_HINTS_15):
        return False
    return _PER_PERIOD_BEFORE_15.search(masked, lo, claim.start) is not None


# -- a myth that a 0% offer means no fee ---------------------------------------------------------
_DOES_NOT_MEAN_15 = re.compile(
    r"\b(?:does[ \t]+not|doesn't|doesnt|did[ \t]+not|didn't|do[ \t]+not|don't|won't|will[ \t]+not"
    r"|should[ \t]+not|shouldn't|need[ \t]+not|needn't)[ \t]+(?:necessarily[ \t]+|automatically[ \t]+)?"
    r"(?:mean|imply|equal|translate[ \t]+(?:in)?to|guarantee|make)\b"
    r"|\b(?:is|are|isn't|aren't)[ \t]+(?:not[ \t]+)?(?:the[ \t]+same[ \t]+(?:thing[ \t]+)?as|no[ \t]+guarantee)\b"
    r"|\bnot[ \t]+to[ \t]+be[ \t]+confused[ \t]+with\b|\bis[ \t]+not[ \t]+a[ \t]+promise[ \t]+of\b"
)
_CLAUSE_END_15 = re.compile(r"[.!?;:\n](?!\d)|[ \t][-\u2013\u2014][ \t]|\bbut\b|\bin[ \t]+fact\b")


_INDEFINITE_15 = re.compile(r"\b(?:a|an|any)[ \t]+$")


def _denied_meaning(claim: Claim, masked: str) -> bool:
    """A "no fee" claim inside what "does not mean" denies ("a 0% offer does not mean transfers
    are free"), or an indefinite intro offer it is said of ("a 0% intro rate on transfers doesn't
    mean ...": any card's offer, not this card's)."""
    if claim.family == INTRO_CLAIM and not claim.is_none:
        if _INDEFINITE_15.search(masked, max(0, claim.start - 6), claim.start) is None:
            return False
        m = _DOES_NOT_MEAN_15.search(masked, claim.end, min(len(masked), claim.end + 60))
        return m is not None and _CLAUSE_END_15.search(masked, claim.end, m.start()) is None
    if claim.family != FEE_CLAIM or not (claim.is_none or claim.low == 0):
        return False
    lo = max(0, claim.start - 90)
    hi = min(len(masked), claim.end + 20)
    if not any(masked.find(w, lo, hi) >= 0 for w in _DENIED_HINTS_15):
        return False  # every match of _DOES_NOT_MEAN_15 holds one
    last = None
    for m in _DOES_NOT_MEAN_15.finditer(masked, lo, hi):
        if m.start() < claim.end:
            last = m
    if last is None:
        return False
    return (
        last.end() >= claim.start or _CLAUSE_END_15.search(masked, last.end(), claim.start) is None
    )


# cheap substring tests: a class's revision runs only where its words occur
_YEARLY_HINTS_15 = (
    "value", "worth", "net", "earn", "sav", "return", "reward", "back", "bonus", "benefit",
    "point", "miles", "gain", "profit",
)  # fmt: skip
_PERIODIC_HINTS_15 = ("month", " day", "daily", "periodic", "12", "twelve", "365", "360")
_DENIED_HINTS_15 = (
    "mean", "same", "imply", "guarantee", "confused", "equal", "translate", "make", "promise",
)  # fmt: skip


# -- the other card's fee in a comparison ---------------------------------------------------------
# before the compared card's name: "than (the)", "versus (the)", "compared with (the)"; after it
# its possessive and the figure ("'s $49"); or the figure before it ("than the $49 of the")
_COMPARE_WORD_15 = r"\b(?:than|compared[ \t]+(?:with|to)|versus|vs\.?|against)[ \t]+(?:the[ \t]+)?"
_FIGURE_15 = r"\$[ \t]*\d[\d,]*(?:\.\d\d)?(?![\d,]*(?:\.\d|[ \t]*%))"
_COMPARED_BEFORE_15 = re.compile(_COMPARE_WORD_15 + r"$")
_POSSESSIVE_FIGURE_15 = re.compile(r"(?:'s|')[ \t]+(?P<fig>" + _FIGURE_15 + r")")
_FIGURE_OF_15 = re.compile(
    _COMPARE_WORD_15 + r"(?P<fig>" + _FIGURE_15 + r")[ \t]+(?:of|on|for)[ \t]+(?:the[ \t]+)?$"
)
_SENTENCE_BREAK_15 = re.compile(r"[.!?\n](?!\d)")
# every match of _COMPARE_WORD_15 holds one of these
_COMPARE_HINTS_15 = ("than", "compared", "versus", "vs", "against")


def _compared_figure(masked: str, mention: NameMention) -> tuple[int, int] | None:
    """The span of the figure compared as ``mention``'s card's ("than the B's $49", "than the
    $49 of the B"), if any."""
    before = masked[max(0, mention.start - 60) : mention.start]
    if not any(w in before for w in _COMPARE_HINTS_15):
        return None
    if _COMPARED_BEFORE_15.search(before) is not None:
        m = _POSSESSIVE_FIGURE_15.match(masked, mention.end)
        if m is not None:
            return m.start("fig"), m.end("fig")
    m = _FIGURE_OF_15.search(before)
    if m is not None:
        shift = mention.start - len(before)
        return m.start("fig") + shift, m.end("fig") + shift
    return None


def compared_fees(extraction: Extraction) -> Extraction:
    """The extraction with the compared card's figure read as its fee of the compared kind
    (module docstring)."""
    masked = extraction.masked
    if "$" not in masked or not (
        "than" in masked
        or "vers" in masked
        or "vs" in masked
        or "compared" in masked
        or "against" in masked
    ):
        return extraction
    claims = list(extraction.claims)
    taken = SpanIndex((c.start, c.end) for c in claims)
    # the claims by start (with their place in ``claims``), so the fee claims of a window are
    # looked up, not scanned for (a long text compares many times)
    by_start = sorted((c.start, i) for i, c in enumerate(claims))
    added: list[Claim] = []
    for mention in extraction.mentions:
        if mention.card_id is None:
            continue
        span = _compared_figure(masked, mention)
        if span is None:
            continue
        a, b = span
        if taken.overlaps(a, b):
            continue  # already read as a claim
        # the fee it is compared with: the sentence's last fee claim before it, another card's
        lo = 0
        for br in _SENTENCE_BREAK_15.finditer(masked, max(0, a - 300), a):
            lo = br.end()
        window = by_start[
            bisect_left(by_start, (lo, -1)) : bisect_left(by_start, (min(a, mention.start), -1))
        ]
        base = None
        for _, i in sorted(window, key=lambda w: w[1]):
            c = claims[i]
            if c.family == FEE_CLAIM and c.certain:
                base = c
        if (
            base is None
            or base.unit != USD
            or base.is_none
            or mention.card_id in base.cards
            or base.kind not in ("annual", "late", "annual_first_year")
        ):
            continue
        try:
            value = float(masked[a:b].replace("$", "").replace(",", "").strip())
        except ValueError:
            continue
        added.append(
            Claim(
                family=FEE_CLAIM,
                kind=base.kind,
                start=a,
                end=b,
                unit=USD,
                low=value,
                high=value,
                cards=(mention.card_id,),
                text=masked[a:b],
                binding="clause",
            )
        )
    if not added:
        return extraction
    return replace(
        extraction, claims=tuple(sorted([*claims, *added], key=lambda c: (c.start, c.end)))
    )


def revise_15(extraction: Extraction) -> Extraction:
    """The extraction with yearly values' first years, periodic rates and denied meanings unbound
    (module docstring)."""
    masked = extraction.masked
    yearly = "year" in masked and any(w in masked for w in _YEARLY_HINTS_15)
    periodic = any(w in masked for w in _PERIODIC_HINTS_15)
    denied = any(w in masked for w in _DENIED_HINTS_15)
    extraction = compared_fees(extraction)
    readings = [
        r
        for on, r in (
            (yearly, _yearly_value),
            (periodic, _periodic_rate),
            (denied, _denied_meaning),
        )
        if on
    ]
    return unbind_claims(extraction, readings)


__all__ = ["footnote_offers_15", "names_15", "revise_15"]
