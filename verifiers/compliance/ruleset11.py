"""Ruleset 11's readings: the classes an attack on ruleset 10 found (README, "Known misses of
ruleset 10"), each fixed as a class, precision first.

Rewrites before reading (``rewrite_11``), which keep the map back to the original text:

* **formatting inside a figure** - ``*9.99*%``, ``**0**%``, ``$**0**``, ``**$**25``,
  ``$__25__`` lose their emphasis marks; "9,99%" (a decimal comma before a percent sign) reads
  "9.99%"; a figure alone on its line after a line that ends in a word or a colon ("APR of" /
  "9.99%.") joins that line.
* **look-alike letters and underscores in names** - a Cyrillic or Greek letter that looks like a
  Latin one, inside a word with Latin letters ("Аtlas"), reads as the Latin letter
  (``confusables11``, Unicode's confusables data), and an underscore between letters
  ("Atlas_Cash_Preferred") as a space; the mention that holds either is then a misspelling of
  the card it spells (``tricky_names``): the name is not written as the catalog writes it. A
  tier word set off by markup or brackets after a capitalised word ("Atlas Cash **Preferred**",
  "Atlas Cash (Preferred)") loses the marks, so the card it names is the tier's.
* **"no <fee> and 0% ..."** - the negation scopes over the fee only: "no annual fee and 0% intro
  APR for 21 months" reads "no annual fee and a 0% intro APR ..." (ruleset 10 read one "no intro
  APR" claim, so the true sentence failed and a false one passed).
* **"lacks"** reads "has no"; **"does not waive its annual fee"** reads "charges its annual
  fee"; **"skips the annual fee"** reads "has no annual fee".
* **anaphora** - "Annual fees are common, but the X has none", "Many cards charge an annual fee.
  The X doesn't.": "has none", "charges none", "doesn't (charge one)" at a clause end read "has no
  <fee>", the fee named last within the previous sentence; **blanket wording** - "the X is
  fee-free", "has no fees at all" read "has no annual fee" (a card with no fees has no annual
  fee; the words name no other fee, so no other is checked).
* **lists under a scoping heading** - "Cards with no annual fee:" followed by list items that are
  bare card names: each item reads "<name>: no annual fee"; "Fees the X does not charge:" followed
  by items that are bare fee names: each reads "no <fee>".
* **a question answered by a bare figure** - "What's the annual fee on the X? $0.", "Late fee on
  the X?" / "$10.": the question mark (and a line break after it) reads as a colon, so the
  figure is the question's term (ruleset 10 read a question as making no claim).
* **a waiver written in months** - "$0 for the first 12 months, then $95", "no annual fee for 12
  months, then $95" (ruleset 10 writes "for a year," in months): in a fee clause followed by
  "then $N", the months read "the first year".
* **quotes the response asserts** - ruleset 3 drops a quoted figure in a sentence with a
  reporting word (`the draft says "$50 annual fee", which is wrong`). Ruleset 11 drops it only
  when the response rejects it: a correction word ("wrong", "incorrect", "outdated", "not true",
  "should be", "actually", "myth", ...) in the quote's sentence or the next one. Otherwise the
  quote is text the response asserts - its own draft (``Draft: "..."``), a source it relays
  (``the terms say "..."``) or words it puts in its own mouth (`I'd say "..."`) - and its figures
  are claims, read as if unquoted. A false claim passed on without a correction is a false
  claim told to the customer.

Claims (``revise_11``, after ruleset 10's revisions):

* **a claim shared by cards named together** - "The X and the Y have no annual fee", "X, Y and
  Z all charge no annual fee", "X & Y: no annual fee": a figure whose subject is a group of
  cards joined by commas, "and", "&", "as well as", is a claim about each card (ruleset 10
  accepted it if it was true of one). A unit that states several figures of the same kind
  ("The X and the Y charge 3% and 5%") or says "respectively", "either", "one of", "between" keeps
  the benefit of the doubt.
* **correcting a myth** - "Myth: the X has no annual fee. Fact: it charges $495.", "It is not
  true that the X has no annual fee; it charges $495.", "Some sites say ... - that's wrong;
  it's $495": a claim in a clause that reports a belief to reject it ("myth", "it's not true
  that", "some sites say", "contrary to", "you may have heard") is not the response's, when a
  claim of the same family about the same card follows it within the next sentences - the
  correction, which is checked. With no correction after it, the reported claim is checked.
  ``verify_response`` drops a corrected myth's claims only when the response has a violation
  (``drop_myths``): the rule exists so a correction is not held against the response, and the
  scan it needs then costs nothing on a clean answer.

Findings (``worked_fee_findings``):

* **a worked example's arithmetic** - ruleset 10 leaves a worked example's result unverified
  ("if you transfer $5,000, the fee would be $50"). Ruleset 11 checks it where the card and the
  fee are known: the card's percentage of the base amount, raised to its minimum fee, must be
  the result (within half a dollar and 1 %); a wrong result is ``wrong_fee``. An example whose
  fee kind the sentence does not settle (transfer, cash advance or foreign purchase), or whose
  card is not bound by the text's own structure, stays unverified.

Recommendations (``recommend_11``):

* **a double negative or a conditional does not rule a card out** - "I would never avoid the
  X", "there's no reason to skip the X", "You don't qualify for the Y? Then the X is for you":
  a card ruled out only by a negated ruling-out ("never avoid") or by a ruling-out aimed at
  another card in an earlier clause (the question), whose own clause recommends it, is
  recommended.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import replace
from itertools import pairwise

from replicas.verifiers.compliance import lexicon as lex
from replicas.verifiers.compliance.attribution import UNION
from replicas.verifiers.compliance.catalog import Catalog
from replicas.verifiers.compliance.claim_types import FEE_CLAIM
from replicas.verifiers.compliance.claims import Claim, Extraction
from replicas.verifiers.compliance.confusables11 import latin_lookalikes
from replicas.verifiers.compliance.expansions import apply_replacements
from replicas.verifiers.compliance.findings import WRONG_FEE, Finding, Tally
from replicas.verifiers.compliance.mentions import EXACT, MISSPELLED, NameMention
from replicas.verifiers.compliance.recommend import Recommendations
from replicas.verifiers.compliance.ruleset import Ruleset
from replicas.verifiers.compliance.ruleset10 import _FIRST_YEAR, _RESULT_BEFORE, _worked_result
from replicas.verifiers.compliance.text import NormalizedText
from replicas.verifiers.compliance.values import USD

# -- rewrites ------------------------------------------------------------------------------------

_NUM = r"\d[\d,]*(?:\.\d+)?"
_EMPH_FIGURES = re.compile(
    rf"\$[ \t]?(?P<a>[*_]{{1,2}})(?P<an>{_NUM})(?P=a)"  # $**0**, $__25__
    rf"|(?P<b>[*_]{{1,2}})\$(?P=b)(?=\d)"  # **$**25
    rf"|(?P<c>[*_]{{1,2}})(?P<cn>{_NUM})(?P=c)(?=[ \t]?%)"  # *9.99*%, **0**%
)
# (matches where "\$[ \t]?[*_]|[*_][ \t]?[$%]" matches, written to open with one character class so
# the regex engine skips to candidates at C speed: ~3x faster on an 800-word answer)
_EMPH_GATE = re.compile(r"[$*_](?:(?<=\$)[ \t]?[*_]|(?<=[*_])[ \t]?[$%])")
_COMMA_PCT = re.compile(r",\d{1,2}[ \t]?%")
_DECIMAL_COMMA = re.compile(r"(?<![\d,.])(\d{1,2}),(\d{1,2})(?=[ \t]?%)")
# a figure alone on its line after a line ending in a word or a colon
_LONE_FIGURE = re.compile(
    r"[ \t]*\n[ \t]*(?=[*_]{0,2}(?:\$[ \t]?[*_]{0,2}\d[\d,]*(?:\.\d+)?"
    r"|\d{1,2}(?:\.\d{1,2})?[*_]{0,2}[ \t]?%)[*_]{0,2}[ \t]*[.!;]?[ \t]*(?:\n|$))"
)
_NEWLINE_FIGURE = re.compile(r"\n[ \t]*[*_]{0,2}[$\d]")
_TIERS = (
    r"(?:Preferred|Plus|Elite|Elites|Premier|Premium|Platinum|Signature|Select|Reserve|Gold"
    r"|Infinite|One|Max|Pro|Prime|World|Rewards|Cash|Miles|Travel|Classic|Secured|Student"
    r"|Business|Black|Sapphire|Titanium|Diamond|360)"
)
_MARKED_TIER = re.compile(
    rf"(?:(?P<m>\*\*|\*|__|_)(?P<t>{_TIERS})(?P=m)"
    rf"|\((?P<p>{_TIERS})\))(?![\w*])"
)
_OTHER_SCRIPT = re.compile("[\u0370-\u052f]")


def _marks(text: str) -> list[int]:
    """Positions of a markup or bracket opening right after a space ("X **Tier**")."""
    out = []
    for opener in (" *", " _", " ("):
        pos = text.find(opener, 1)
        while pos >= 0:
            out.append(pos + 1)
            pos = text.find(opener, pos + 2)
    return out


_UNDERSCORE = re.compile(r"(?<=[A-Za-z])_(?=[A-Za-z])")

_FEE_TERMS = (
    r"(?:annual|yearly|late|late[ \t]payment|foreign(?:[ \t]transaction)?|foreign[ \t]exchange"
    r"|fx|balance[ \t]transfer|transfer|cash[ \t]advance)[ \t]fees?"
)
_FEE_TERM = re.compile(rf"\b{_FEE_TERMS}\b")
_NO_FEE_AND_PCT = re.compile(
    rf"no[ \t]+{_FEE_TERMS}[ \t]+(?P<and>and|plus|with)[ \t]+(?=\d{{1,2}}(?:\.\d{{1,2}})?[ \t]?%)"
)
_LACKS = re.compile(r"\black(?P<s>s|ing)?[ \t]+(?:an?[ \t]+|any[ \t]+)?")
_NOT_WAIVE = re.compile(
    r"\b(?:does[ \t]+not|doesn'?t|never|won'?t|will[ \t]+not)[ \t]+waive[ \t]+(?=(?:its|the|their"
    r"|this)[ \t]+(?:\$\d[\d,]*[ \t]+)?annual[ \t]+fee)"
)
_SKIPS = re.compile(r"\bskips[ \t]+(?:the|an?|any)[ \t]+(?=(?:annual|yearly)[ \t]+fee)")
_HAS_NONE = re.compile(
    r"\b(?:has|have|charges?|carr(?:y|ies)|comes[ \t]+with)[ \t]+none\b"
    r"|\b(?:doesn'?t|does[ \t]+not)(?:[ \t]+(?:charge|have|carry|levy|impose)(?:[ \t]+(?:one|it"
    r"|any))?)?(?=[ \t]*(?:[.!;\n]|$))"
)
_FEE_FREE = re.compile(
    r"\b(?:is|are|'s|stays?|remains?)[ \t]+(?:completely[ \t]+|totally[ \t]+|entirely[ \t]+"
    r"|100%[ \t]+)?fee[- ]free\b(?![ \t-]+(?:for|on|when|if|abroad|overseas|transfers?))"
    r"|\b(?:has|charges|comes[ \t]+with|carries)[ \t]+no[ \t]+fees[ \t]+(?:at[ \t]+all|whatsoever"
    r"|of[ \t]+any[ \t]+kind)\b"
)
_NOT_CARD_FEES = re.compile(
    r"transfer|advance|foreign|abroad|overseas|late|purchase|withdraw|atm|payment|\bit\b"
    r"|\bthey\b|\bthat\b|\bthis\b"
)
_HEADING = re.compile(
    rf"^[ \t#>*_]*(?P<h>[^\n]{{0,80}}?\b(?:with|without|charging|that[ \t]+charge|and)[ \t]+"
    rf"(?:no|an?|zero|\$0)[ \t]+(?P<t>{_FEE_TERMS})|[^\n]{{0,40}}?\bno[- ](?P<t2>annual)[- ]fee"
    rf"[^\n]{{0,40}}?)[ \t*_]*:[ \t*_]*$",
    re.MULTILINE | re.IGNORECASE,
)
_FEES_NOT_CHARGED = re.compile(
    r"^[ \t#>*_]*[^\n]{0,80}?(?:\bfees?\b[^\n]{0,60}?\b(?:does[ \t]+not|doesn'?t|won'?t|will[ \t]+not"
    r"|never)[ \t]+(?:charge|have|carry|make[ \t]+you[ \t]+pay)|\bfees?[ \t]+you[ \t]+(?:won'?t"
    r"|will[ \t]+not|never)[ \t]+pay)\b[^\n]{0,60}?[ \t*_]*:[ \t*_]*$",
    re.MULTILINE | re.IGNORECASE,
)
_ITEM = re.compile(r"[ \t]*(?:[-*•+]|\d{1,2}[.)])[ \t]+(?P<body>[^\n]*)")
_BARE_FEE_ITEM = re.compile(rf"[ \t*_]*(?:the[ \t]+|an?[ \t]+)?(?P<t>{_FEE_TERMS})[ \t*_.;,]*$")
_QUESTION_FIGURE = re.compile(
    r"\?(?P<gap>[ \t]*\n?[ \t]*)(?=(?:(?:a|answer)[ \t]*[:.)-][ \t]*)?[*_]{0,2}(?:\$[ \t]?\d[\d,]*"
    r"(?:\.\d+)?|\d{1,2}(?:\.\d{1,2})?[ \t]?%)[*_]{0,2}(?:[ \t]+(?:a|per)[ \t]+year|[ \t]+annually)?"
    r"[ \t]*(?:[.!](?=\s|$)|(?=\n)|$))"
)
_MONTHS_WAIVER = re.compile(
    r"\bfor[ \t]+(?:the[ \t]+first[ \t]+|your[ \t]+first[ \t]+)?(?:12|twelve)[ \t]+months"
    r"(?=[ \t]*,?[ \t]*(?:and[ \t]+)?then[ \t]+\$[ \t]?\d)"
)
_MONTHS_WAIVER_OPENING = re.compile(
    r"\bfor[ \t]+(?:the[ \t]+first[ \t]+|your[ \t]+first[ \t]+)?(?:12|twelve)[ \t]+months"
    r"(?=[ \t]*,[^.;%\n]{0,80}?(?:no[ \t]+annual[ \t]+fee|\$0[ \t]+annual[ \t]+fee)"
    r"[^.;%\n]{0,60}?then[ \t]+\$[ \t]?\d)"
)
_WAIVER_BEFORE = re.compile(
    r"(?:\$0|no[ \t]+annual[ \t]+fee|annual[ \t]+fee[^.;%\n]{0,30}?(?:\$0|waived|nothing|free)"
    r"|waive[sd]?[^.;%\n]{0,30}?annual[ \t]+fee|pay[ \t]+no[ \t]+annual[ \t]+fee"
    r"|pay[ \t]+nothing)[^.;%\n]{0,60}$"
)
_CORRECTION = re.compile(
    r"\b(?:wrong(?:ly)?|incorrect(?:ly)?|inaccurate|untrue|not[ \t]+true|false|mistaken|mistake"
    r"|errors?|outdated|out[ \t]+of[ \t]+date|old|older|no[ \t]+longer|misleading|myth"
    r"|should[ \t]+(?:be|read|say)|actually|in[ \t]+fact|correct(?:ion|ed)?|fix(?:ed)?|ignore"
    r"|isn'?t|is[ \t]+not|not[ \t]+(?:accurate|right|correct|so)|disregard|typo|was|used[ \t]+to"
    r"|previously|formerly|no[ \t]+such)\b"
)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n")


# Every character a match of ``lex.REPORTING`` or ``_CORRECTION`` can hold (both are lists of
# lower-case words, some joined by blanks or an apostrophe): each match lies inside one run of
# them, and reads nothing beyond the one character either side of it.
_MATCH_RUN = re.compile(r"[a-z' \t]+")
# a quote whose sentence (before and after it) is longer than this is read through _RunMatches
_DIRECT_SENTENCE = 600


class _RunMatches:
    """For a long text: which runs of ``_MATCH_RUN`` hold a match of each pattern, so that
    "does ``pattern`` match ``lower[lo:a] + sep + lower[b:hi]``" costs a bisection plus the runs
    at the seam, not a scan of the whole sentence per quote (one line of quotes is otherwise
    quadratic). Exactly ``pattern.search(lower[lo:a] + sep + lower[b:hi]) is not None`` for the
    spans ``_quotes_asserted`` asks about: ``lower[lo - 1]`` (if any) and ``lower[hi - 1]`` (if
    ``hi < len(lower)``) end a sentence and ``lower[a]``, ``lower[b - 1]`` are quote marks, all
    outside every run, so every run of the joined text but the one at the seam is a run of
    ``lower`` with the same characters either side."""

    def __init__(self, lower: str, patterns: Sequence[re.Pattern[str]]) -> None:
        self.lower = lower
        self.starts: list[int] = []
        self.ends: list[int] = []
        for m in _MATCH_RUN.finditer(lower):
            self.starts.append(m.start())
            self.ends.append(m.end())
        self.counts: dict[re.Pattern[str], list[int]] = {}
        for pattern in patterns:
            count = [0]
            for s, e in zip(self.starts, self.ends, strict=True):
                # lower[e], outside the run, is read as context as it is in the text
                count.append(count[-1] + (pattern.search(lower, s, e + 1) is not None))
            self.counts[pattern] = count

    def has_match(
        self, pattern: re.Pattern[str], lo: int, a: int, b: int, hi: int, sep: str
    ) -> bool:
        """``pattern.search(lower[lo:a] + sep + lower[b:hi]) is not None``."""
        lower, starts, ends, count = self.lower, self.starts, self.ends, self.counts[pattern]
        # the runs before the quote that end before it
        i0 = bisect_left(starts, lo)
        i1 = bisect_left(starts, a)
        seam_lo = a
        if i1 > i0 and ends[i1 - 1] == a:
            i1 -= 1
            seam_lo = starts[i1]
        if count[i1] > count[i0]:
            return True
        # the runs after the quote that start after it
        j0 = bisect_right(starts, b)
        j1 = bisect_left(starts, hi)
        if count[j1] > count[j0]:
            return True
        # the run across the seam, with the characters either side of it
        seam_hi = b
        if j0 > 0 and starts[j0 - 1] == b and b < hi:
            seam_hi = ends[j0 - 1]
        before = lower[seam_lo - 1] if seam_lo > lo else ""
        after = lower[seam_hi] if seam_hi < hi else ""
        seam = before + lower[seam_lo:a] + sep + lower[b:seam_hi] + after
        return pattern.search(seam, len(before)) is not None


def _quotes_asserted(text: str, lower: str) -> list[tuple[int, int, str]]:
    """The double quote marks of quotes a sentence reports without rejecting them."""
    out: list[tuple[int, int, str]] = []
    runs: _RunMatches | None = None
    # _SENTENCE_END's matches are single characters that look only ahead: the ones at or after
    # b are those of the whole text from b on
    sentence_ends = [e.start() for e in _SENTENCE_END.finditer(lower)]
    for m in lex.QUOTED.finditer(lower):
        a, b = m.span()
        lo = max((e.end() for e in _SENTENCE_END.finditer(lower, max(0, a - 300), a)), default=0)
        # the sentence after the quote: up to two sentence ends after it
        i = bisect_left(sentence_ends, b)
        hi = sentence_ends[i + 1] + 1 if i + 1 < len(sentence_ends) else len(lower)
        if (a - lo) + (hi - b) <= _DIRECT_SENTENCE:
            outside = lower[lo:a] + " " + lower[b:hi]
            sentence = lower[lo:a] + lower[b:hi]
            if not lex.REPORTING.search(sentence):
                continue
            if _CORRECTION.search(outside):
                continue
        else:
            if runs is None:
                runs = _RunMatches(lower, (lex.REPORTING, _CORRECTION))
            if not runs.has_match(lex.REPORTING, lo, a, b, hi, ""):
                continue
            if runs.has_match(_CORRECTION, lo, a, b, hi, " "):
                continue
        out.append((a, a + 1, " "))
        out.append((b - 1, b, " "))
    return out


_OTHER_NOUN = re.compile(
    r"\b(?:rates?|aprs?|offers?|intro\w*|promo\w*|bonus\w*|perks?|deposits?|minimums?"
    r"|interest|penalt\w+)\b"
)


def _fee_before(lower: str, pos: int) -> str | None:
    """The fee named last before ``pos`` within the previous sentence ("annual fee", ...)."""
    ends = [e.end() for e in _SENTENCE_END.finditer(lower, max(0, pos - 300), pos)]
    lo = ends[-2] if len(ends) >= 2 else max(0, pos - 300)
    last = None
    for m in _FEE_TERM.finditer(lower, lo, pos):
        last = m
    if last is None or _OTHER_NOUN.search(lower, last.end(), pos) is not None:
        return None  # "don't expect an intro rate: the X has none" - the rate is the antecedent
    term = " ".join(last.group(0).split())
    return term[:-1] if term.endswith("fees") else term


def _list_items(lower: str, pos: int) -> list[tuple[int, int]]:
    """The list items (body spans) right after the line ending at ``pos``."""
    items: list[tuple[int, int]] = []
    at = pos + 1 if pos < len(lower) and lower[pos] == "\n" else pos
    while at < len(lower):
        m = _ITEM.match(lower, at)
        line_end = lower.find("\n", at)
        line_end = len(lower) if line_end < 0 else line_end
        if m is None or m.end() > line_end:
            if lower[at:line_end].strip():
                break
            if items:
                break
            at = line_end + 1
            continue
        items.append((m.start("body"), m.end("body")))
        at = line_end + 1
    return items


def _heading_lines(lower: str) -> list[tuple[int, int]]:
    """The lines that end in a colon (markup after it allowed) and have a list after them."""
    out = []
    for m in _COLON_EOL.finditer(lower):
        start = lower.rfind("\n", 0, m.start()) + 1
        out.append((start, m.end()))
    return out


_COLON_EOL = re.compile(r":[ \t*_]*(?=\n[ \t]*(?:[-*•+]|\d{1,2}[.)])[ \t])")


def _headings(text: str, lower: str) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    lines = _heading_lines(lower)
    if not lines:
        return out
    heads = [m for a, b in lines if (m := _HEADING.match(lower, a, b)) is not None]
    for m in heads:
        term = m.group("t") or (m.group("t2") and "annual fee") or ""
        term = " ".join(term.split())
        if term.endswith("fees"):
            term = term[:-1]
        for a, b in _list_items(lower, m.end()):
            body = text[a:b].rstrip(" \t.;,")
            if (
                not body
                or len(body) > 60
                or any(c in body for c in "$%:(")
                or not body[0].isupper()
            ):
                continue
            if _FEE_TERM.search(lower, a, b) or "fee" in lower[a:b]:
                continue
            end = a + len(body)
            out.append((end, end, f": no {term}"))
    for m in [m for a, b in lines if (m := _FEES_NOT_CHARGED.match(lower, a, b)) is not None]:
        for a, b in _list_items(lower, m.end()):
            item = _BARE_FEE_ITEM.match(lower, a, b)
            if item is not None and item.end() == b:
                out.append((item.start("t"), item.start("t"), "no "))
    return out


_QUALIFIED = re.compile(r"[ \t]+(?:on|for|in|at|with|of|to|from)\b")


_NONE_VERBS = ("has", "have", "charge", "carr", "with")


def _anaphora(lower: str) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    anchors = []
    for word in ("none", "doesn", "does not"):
        pos = lower.find(word)
        while pos >= 0:
            anchors.append((pos, pos + len(word)))
            pos = lower.find(word, pos + len(word))
    for a, b in sorted(anchors):
        if word_end := lower[b : b + 1]:
            if a and lower[a - 1].isalpha():
                continue
            if lower[a] == "n" and word_end.isalpha():
                continue  # "nonetheless"
        if lower[a] == "n":
            if not any(v in lower[max(0, a - 16) : a] for v in _NONE_VERBS):
                continue
        elif not any(p in lower[b : b + 32] for p in ".!;\n") and b + 32 < len(lower):
            continue  # "doesn't" ends its clause
        m = _HAS_NONE.search(lower, max(0, a - 16), min(len(lower), b + 40))
        if m is None or m.end() < b or m.start() > a:
            continue
        if _QUALIFIED.match(lower, m.end()):
            continue  # "has none on purchases": a qualified "none" is about something else
        term = _fee_before(lower, m.start())
        if term is None:
            continue
        out.append((m.start(), m.end(), f"has no {term}"))
    return out


def _months_waivers(lower: str) -> list[tuple[int, int, str]]:
    out = []
    anchors = []
    for word in ("12 months", "twelve months"):
        pos = lower.find(word)
        while pos >= 0:
            anchors.append((pos, pos + len(word)))
            pos = lower.find(word, pos + len(word))
    for a, b in sorted(anchors):
        lo = max(0, a - 32)
        if lower.find("for", lo, a) < 0:
            continue
        then = lower.find("then", b, b + 150)
        if then < 0 or lower.find("$", then, then + 8) < 0:
            continue  # a waiver in months is followed by "then $N"
        for pattern in (_MONTHS_WAIVER, _MONTHS_WAIVER_OPENING):
            m = pattern.search(lower, lo, min(len(lower), b + 200))
            if m is None or m.start() > a or m.end() < b:
                continue
            if pattern is _MONTHS_WAIVER_OPENING or (
                _WAIVER_BEFORE.search(lower, max(0, m.start() - 90), m.start()) is not None
            ):
                out.append((m.start(), m.end(), "for the first year"))
                break
    return out


def _merge(found: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Sorted, with replacements overlapping an earlier one dropped."""
    out: list[tuple[int, int, str]] = []
    end = -1
    for a, b, rep in sorted(found, key=lambda f: (f[0], f[1])):
        if a < end or (out and a == out[-1][0] and a == b and out[-1][0] == out[-1][1]):
            continue
        out.append((a, b, rep))
        end = max(end, b)
    return out


def rewrite_11(norm: NormalizedText, rules: Ruleset) -> tuple[NormalizedText, tuple[int, ...]]:
    """``norm`` with ruleset 11's rewrites (module docstring), and the positions of the letters
    read through a look-alike or an underscore (in the returned text)."""
    if not rules.rewrites_11:
        return norm, ()
    text, lower = norm.text, norm.lower
    found: list[tuple[int, int, str]] = []
    if _EMPH_GATE.search(text) is not None:
        for m in _EMPH_FIGURES.finditer(text):
            if m.group("a"):
                found.append((m.start(), m.end(), "$" + m.group("an")))
            elif m.group("b"):
                found.append((m.start(), m.end(), "$"))
            else:
                found.append((m.start(), m.end(), m.group("cn")))
    if "(" in text or "*" in text or "_" in text:
        for k in _marks(text):
            if not text[k - 2].isalnum():
                continue
            hit = _MARKED_TIER.match(text, k)
            if hit is None:
                continue
            word = text[max(0, hit.start() - 24) : hit.start() - 1].rsplit(" ", 1)[-1]
            if not word[:1].isupper() and not word[:1].isdigit():
                continue  # after a capitalised word of a name
            found.append((hit.start(), hit.end(), hit.group("t") or hit.group("p")))
    if "," in text and "%" in text:
        for anchor in _COMMA_PCT.finditer(text):
            hit = _DECIMAL_COMMA.search(text, max(0, anchor.start() - 3), anchor.end())
            if hit is None or hit.end() != anchor.end() - 1 - (text[anchor.end() - 2] in " \t"):
                continue
            found.append((hit.start(), hit.end(), f"{hit.group(1)}.{hit.group(2)}"))
    if "\n" in text:
        for anchor in _NEWLINE_FIGURE.finditer(text):
            k = anchor.start()
            while k and text[k - 1] in " \t":
                k -= 1
            if not k or not (
                text[k - 1].isascii() and (text[k - 1].isalpha() or text[k - 1] == ":")
            ):
                continue
            hit = _LONE_FIGURE.match(text, k)
            if hit is not None:
                found.append((hit.start(), hit.end(), " "))
    if "no " in lower and "%" in lower:
        pos = lower.find("no ")
        while pos >= 0:
            hit = _NO_FEE_AND_PCT.match(lower, pos)
            if hit is not None:
                found.append((hit.end("and"), hit.end("and"), " a"))
            pos = lower.find("no ", pos + 3)
    if "lack" in lower:
        for m in _LACKS.finditer(lower):
            found.append((m.start(), m.end(), "with no " if m.group("s") == "ing" else "has no "))
    if "waive" in lower:
        for m in _NOT_WAIVE.finditer(lower):
            found.append((m.start(), m.end(), "charges "))
    if "skips" in lower:
        for m in _SKIPS.finditer(lower):
            found.append((m.start(), m.end(), "has no "))
    if "none" in lower or "doesn" in lower or "does not" in lower:
        found += _anaphora(lower)
    if "fee-free" in lower or "fee free" in lower or "no fees" in lower:
        for m in _FEE_FREE.finditer(lower):
            lo = max(0, m.start() - 80)
            cut = max(lower.rfind(c, lo, m.start()) for c in ".!?;:\n")
            if _NOT_CARD_FEES.search(lower, max(lo, cut + 1), m.start()) is None:
                found.append((m.start(), m.end(), "has no annual fee"))
    if ":" in lower and "\n" in lower:
        found += _headings(text, lower)
    if "?" in lower:
        for m in _QUESTION_FIGURE.finditer(lower):
            found.append((m.start(), m.end(), ": "))
    if ("12 months" in lower or "twelve months" in lower) and "then" in lower:
        found += _months_waivers(lower)
    if '"' in lower:
        found += _quotes_asserted(text, lower)
    if found:
        norm = apply_replacements(norm, _merge(found))
    # letters: one for one, so their positions hold in the final text
    text = norm.text
    letters: list[tuple[int, int, str]] = []
    if not text.isascii():
        lookalikes = None
        for found_char in _OTHER_SCRIPT.finditer(text):
            i = found_char.start()
            char = text[i]
            if lookalikes is None:
                lookalikes = latin_lookalikes()
            latin = lookalikes.get(char)
            if latin is None:
                continue
            near = text[max(0, i - 1) : i + 2]
            if any(c.isascii() and c.isalpha() for c in near):
                letters.append((i, i + 1, latin))
    if "_" in text:
        letters += [(m.start(), m.end(), " ") for m in _UNDERSCORE.finditer(text)]
    if not letters:
        return norm, ()
    letters.sort()
    return apply_replacements(norm, letters), tuple(a for a, _, _ in letters)


def tricky_names(
    mentions: Sequence[NameMention], positions: Sequence[int], catalog: Catalog
) -> list[NameMention]:
    """Exact mentions holding a look-alike letter or an underscore are misspellings."""
    if not positions:
        return list(mentions)
    out = []
    for m in mentions:
        k = bisect_right(positions, m.end - 1)
        if m.kind == EXACT and m.card_id is not None and k and positions[k - 1] >= m.start:
            name = catalog.names.name_of(m.card_id)
            m = NameMention(m.start, m.end, MISSPELLED, m.card_id, m.surface, (name,))
        out.append(m)
    return out


# -- claims ---------------------------------------------------------------------------------------

_GROUP_JOIN = re.compile(
    r"[ \t]*(?:\*\*)?[ \t]*(?:,[ \t]*)?(?:(?:and|&|\+|as[ \t]+well[ \t]+as|plus)[ \t]+)?"
    r"(?:the[ \t]+)?(?:\*\*)?[ \t]*$"
)
_KEEP_DOUBT = re.compile(
    r"\b(?:respectively|either|one[ \t]+of|between|combined|whichever|or|depending|vary|varies"
    r"|range[sd]?|from)\b"
)
_MYTH = re.compile(
    r"\b(?:myths?|misconceptions?|rumou?rs?|common[ \t]+(?:mistake|belief|claim|assumption)s?)"
    r"[ \t]*(?:\d{1,2}[ \t]*)?[:.\-]"
    r"|\b(?:it(?:'s|[ \t]+is)|that(?:'s|[ \t]+is))[ \t]+(?:not[ \t]+true|a[ \t]+myth|false|untrue"
    r"|wrong|incorrect)[ \t]+that\b"
    r"|\bcontrary[ \t]+to\b"
    r"|\b(?:some|many|other|a[ \t]+few|several|online)[ \t]+(?:\w+[ \t]+){0,2}(?:say|says|claim"
    r"|claims|state|suggest|report|think|believe|assume)\b"
    r"|\byou[ \t]+(?:may|might)[ \t]+have[ \t]+(?:heard|read|seen)\b"
    r"|\bdon'?t[ \t]+believe\b|\bpeople[ \t]+(?:often[ \t]+)?(?:think|assume|say)\b"
)
_MYTH_CLAUSE_END = re.compile(r"[.;?!](?=\s|$)|\n|[ \t]-[ \t]|—|\bfact\b|\bin[ \t]+reality\b")
_CORRECTION_SPAN = 300


def _distributed(claim: Claim, masked: str, lo: int, hi: int, mentions: list[NameMention]) -> bool:
    """The union claim's cards are one subject joined before it ("X and Y have ...")."""
    named = [m for m in mentions if lo <= m.start < claim.start and m.card_id in claim.cards]
    if len(named) < 2 or len({m.card_id for m in named}) != len(claim.cards):
        return False
    for left, right in pairwise(named):
        joined = _GROUP_JOIN.match(masked, left.end, right.start)
        if joined is None or joined.end() != right.start:
            return False
    return _KEEP_DOUBT.search(masked, lo, hi) is None


def revise_11(
    extraction: Extraction, text: str, rules: Ruleset, myths_too: bool = True
) -> Extraction:
    """Joint subjects checked per card, first-year waivers before their fee, and (``myths_too``)
    myths that are corrected dropped (module docstring). ``verify_response`` drops myths only
    when the response has a violation (``drop_myths``): a corrected myth's claim is not held
    against the response, and reading it costs a scan of the text."""
    claims = extraction.claims
    if not claims or not rules.claims_11:
        return extraction
    masked = extraction.masked
    units = extraction.units
    myths = _myth_spans(masked) if myths_too and any(w in masked for w in _MYTH_SIGNALS) else []
    # the claims ruleset 11 may revise: a myth, a first-year waiver, a joint subject
    todo = [
        i
        for i, c in enumerate(claims)
        if myths
        or (c.binding == UNION and len(c.cards) > 1)
        or (c.is_none and c.kind == "annual" and c.family == FEE_CLAIM)
    ]
    if not todo:
        return extraction
    starts = [u[0] for u in units]
    unit_of = [bisect_right(starts, c.start) - 1 for c in claims]
    kinds_in_unit: dict[tuple[int, str, str], int] = {}
    for k, claim in zip(unit_of, claims, strict=True):
        key = (k, claim.family, claim.kind)
        kinds_in_unit[key] = kinds_in_unit.get(key, 0) + 1
    mentions = list(extraction.mentions)
    changed = False
    out = list(claims)
    dropped: set[int] = set()
    for i in todo:
        claim = claims[i]
        k = unit_of[i]
        lo, hi = units[k] if k >= 0 else (0, len(masked))
        if myths and _in_myth(claim, myths) and _corrected(claim, claims[i + 1 :], masked, myths):
            dropped.add(i)
            changed = True
            continue
        if (
            claim.is_none
            and claim.family == FEE_CLAIM
            and claim.kind == "annual"
            and _FIRST_YEAR.search(masked, max(lo, claim.start - 70), claim.start) is not None
            and _THEN_FEE.search(masked, claim.end, hi) is not None
        ):
            # "For the first year, you pay no annual fee on the X, then $95"
            claim = replace(claim, kind="annual_first_year", kinds=frozenset())
            changed = True
        if (
            claim.binding == UNION
            and len(claim.cards) > 1
            and kinds_in_unit[(k, claim.family, claim.kind)] == 1
            and _distributed(claim, masked, lo, hi, mentions)
        ):
            claim = replace(claim, binding="collective")
            changed = True
        out[i] = claim
    if dropped:
        out = [c for i, c in enumerate(out) if i not in dropped]
    if not changed:
        return extraction
    return replace(extraction, claims=tuple(out))


def drop_myths(extraction: Extraction) -> Extraction:
    """The extraction without the claims of corrected myths (``revise_11``'s myth step)."""
    masked = extraction.masked
    claims = extraction.claims
    if not claims or not any(w in masked for w in _MYTH_SIGNALS):
        return extraction
    myths = _myth_spans(masked)
    if not myths:
        return extraction
    kept = [
        c
        for i, c in enumerate(claims)
        if not (_in_myth(c, myths) and _corrected(c, claims[i + 1 :], masked, myths))
    ]
    if len(kept) == len(claims):
        return extraction
    return replace(extraction, claims=tuple(kept))


_THEN_FEE = re.compile(
    r"\b(?:then|after[ \t]+that|afterwards?|thereafter)[ \t,]+(?:it'?s[ \t]+|it[ \t]+is[ \t]+)?\$[ \t]?\d"
)
# a myth is reported to be corrected: one of these words is in the response whenever the
# correction is (the myth's own marker or the correction's)
_MYTH_SIGNALS = (
    "myth",
    "misconception",
    "rumo",
    "not true",
    "untrue",
    "false",
    "wrong",
    "incorrect",
    "in fact",
    "in reality",
    "fact:",
    "contrary",
    "mistake",
    "heard",
    "believe",
)


def _myth_spans(masked: str) -> list[tuple[int, int]]:
    spans = []
    for m in _MYTH.finditer(masked):
        end = _MYTH_CLAUSE_END.search(masked, m.end())
        spans.append((m.start(), end.start() if end is not None else len(masked)))
    return spans


def _in_myth(claim: Claim, spans: list[tuple[int, int]]) -> bool:
    return any(a <= claim.start < b for a, b in spans)


_FEE_FIGURE = re.compile(r"\$[ \t]?\d")
_PCT_FIGURE = re.compile(r"\d[ \t]?%")


def _corrected(
    claim: Claim, later: Sequence[Claim], masked: str, spans: list[tuple[int, int]]
) -> bool:
    """A correction follows the myth soon after: a claim of the same family about the same card,
    or a figure of the family after the myth's clause (the card's own figure, which ruleset 10
    leaves unverified when no term word stands by it)."""
    if not claim.cards:
        return False
    return corrected_after(claim, later, masked, next(b for a, b in spans if a <= claim.start < b))


def corrected_after(claim: Claim, later: Iterable[Claim], masked: str, end: int) -> bool:
    """``_corrected`` for a myth clause ending at ``end`` (the claim names a card)."""
    figure = _FEE_FIGURE if claim.family == FEE_CLAIM else _PCT_FIGURE
    if figure.search(masked, end, end + _CORRECTION_SPAN):
        return True
    for other in later:
        if other.start > claim.end + _CORRECTION_SPAN:
            return False
        if (
            other.family == claim.family
            and other.cards == claim.cards
            and (claim.kind in other.admissible or other.kind in claim.admissible)
            and (other.is_none != claim.is_none or other.low != claim.low)
        ):
            return True
    return False


# -- worked examples -----------------------------------------------------------------------------

_TRANSFER = re.compile(r"transfer|\bmov(?:e|es|ed|ing)\b|\bshift")
_ADVANCE = re.compile(r"advance|withdraw|\batm\b|take[ \t]+out")
_FOREIGN = re.compile(r"abroad|foreign|overseas|international")
_DOLLARS = re.compile(r"\$[ \t]?(\d{1,3}(?:,\d{3})+|\d{1,7})(?:\.\d{1,2})?")
_EXAMPLE_KINDS = (("bt", _TRANSFER), ("cash_advance", _ADVANCE), ("foreign", _FOREIGN))


_YEARLY = re.compile(r"annual|year|month|\bmo\b|interest|back|reward|bonus|credit|save|saving")


def worked_examples(
    extraction: Extraction, rules: Ruleset
) -> list[tuple[int, int, float, str, float, str]]:
    """Worked examples' results, read before ruleset 10 unbinds them: (start, end, result, card,
    base amount, fee kind). A result is a dollar figure after a result verb in a unit holding a
    larger amount it is computed on (``ruleset10._worked_result``), read as a fee of the example
    kinds or, if no claim was read there, with no yearly or reward word around it; the card is
    the one the claim is bound to by the text's structure, else the one card its unit names."""
    if not rules.worked_arithmetic_11 or extraction.masked.count("$") < 2:
        return []
    masked = extraction.masked
    units = extraction.units
    claims = {c.start: c for c in extraction.claims}
    mentions = extraction.mentions
    out: list[tuple[int, int, float, str, float, str]] = []
    every = list(_DOLLARS.finditer(masked))
    if not any(len(f.group(1)) > 2 for f in every):
        return out  # no amount of $100 or more to compute a fee on
    starts = [u[0] for u in units]
    by_unit: dict[int, list[re.Match[str]]] = {}
    for f in every:
        by_unit.setdefault(bisect_right(starts, f.start()) - 1, []).append(f)
    for k, figures in by_unit.items():
        lo, hi = units[k] if k >= 0 else (0, len(masked))
        top = max(float(f.group(1).replace(",", "")) for f in figures)
        if len(figures) < 2 or top <= 99.0:
            continue  # an example's base is a larger amount than its result
        kinds: list[str] | None = None
        named: set[str | None] | None = None
        for m in figures:
            if float(m.group(1).replace(",", "")) >= top:
                continue
            if _RESULT_BEFORE.search(masked, max(lo, m.start() - 40), m.start()) is None:
                continue  # no result verb before it: no worked result
            value = float(m.group(1).replace(",", ""))
            claim = claims.get(m.start())
            if claim is not None:
                if (
                    claim.family != FEE_CLAIM
                    or claim.unit != USD
                    or claim.is_none
                    or claim.kind not in ("any", "bt", "cash_advance")
                ):
                    continue
                card = claim.cards[0] if claim.certain else None
            else:
                if _YEARLY.search(masked, max(lo, m.start() - 30), min(hi, m.end() + 30)):
                    continue
                claim = Claim(FEE_CLAIM, "any", m.start(), m.end(), USD, low=value, high=value)
                card = None
            if card is None:
                if named is None:
                    named = {n.card_id for n in mentions if lo <= n.start < hi}
                card = next(iter(named)) if len(named) == 1 else None
            if card is None or not _worked_result(masked, lo, hi, claim):
                continue
            kind = claim.kind if claim.kind in ("bt", "cash_advance") else None
            if kinds is None:
                unit_text = masked[lo:hi]
                kinds = [k for k, pattern in _EXAMPLE_KINDS if pattern.search(unit_text)]
            if kind is None and len(kinds) == 1:
                kind = kinds[0]
            bases = {
                float(b.group(1).replace(",", ""))
                for b in _DOLLARS.finditer(masked, lo, hi)
                if b.start() != m.start()
            }
            bases = {b for b in bases if b > max(value, 99.0)}
            if kind is None or len(bases) != 1:
                continue
            out.append((m.start(), m.end(), value, card, bases.pop(), kind))
    return out


def worked_fee_findings(
    catalog: Catalog, examples: Sequence[tuple[int, int, float, str, float, str]], tally: Tally
) -> list[Finding]:
    """``wrong_fee`` for each worked example whose result is not the card's fee on its base."""
    findings = []
    for start, end, result, card_id, base, kind in examples:
        card = catalog.card(card_id)
        if kind == "bt":
            pct, minimum = card.bt_fee_pct, card.bt_fee_min_usd
        elif kind == "cash_advance":
            pct, minimum = card.cash_advance_fee_pct, card.cash_advance_fee_min_usd
        else:
            pct, minimum = card.foreign_txn_fee_pct, None
        if pct is None:
            continue
        expected = max(base * pct / 100.0, minimum or 0.0)
        ok = abs(result - expected) <= max(0.5, 0.01 * expected)
        tally.count("fees", ok)
        if not ok:
            name = catalog.names.name_of(card_id)
            findings.append(
                Finding(
                    WRONG_FEE,
                    f"the worked example puts the fee on ${base:,.0f} at ${result:,.2f} for "
                    f'"{name}", but its fee ({pct:g}%'
                    + (f", min ${minimum:,.0f}" if minimum else "")
                    + f") comes to ${expected:,.2f}",
                    start,
                    end,
                    round(expected, 2),
                    result,
                )
            )
    return findings


# -- recommendations -----------------------------------------------------------------------------

_DOUBLE_NEGATIVE = re.compile(
    r"\b(?:never|not|n't|no[ \t]+reason[ \t]+to|hard[ \t]+to)[ \t]+(?:\w+[ \t]+)?(?:avoid|skip"
    r"|pass[ \t]+on|rule[ \t]+out|overlook|ignore|dismiss|write[ \t]+off|steer[ \t]+clear[ \t]+of)\b"
    r"|\bcan'?t[ \t]+go[ \t]+wrong[ \t]+with\b"
)
_CLAUSE_CUT = re.compile(r"[;?!]|\.(?=\s)|\n|[ \t][-—][ \t]|\bthen\b|\bso\b|\bbut\b")
_OWN_RULE_OUT = re.compile(
    r"\b(?:avoid|skip|pass[ \t]+on|rule[sd]?[ \t]+out|steer[ \t]+clear|ineligible|not[ \t]+eligible"
    r"|(?:don'?t|do[ \t]+not|doesn'?t|won'?t)[ \t]+qualify|instead[ \t]+of|rather[ \t]+than"
    r"|unlike|not[ \t]+for[ \t]+you|out[ \t]+of[ \t]+reach)\b"
)


# every text _RECOMMEND_11 / _DOUBLE_NEGATIVE match holds one of these
_RECOMMEND_11_WORDS = ("for you", "the one", "is your")
_DOUBLE_NEGATIVE_WORDS = (
    "avoid",
    "skip",
    "pass on",
    "rule out",
    "overlook",
    "ignore",
    "dismiss",
    "write off",
    "steer clear",
    "go wrong",
)
_RECOMMEND_11 = re.compile(
    r"\bis[ \t]+(?:the[ \t]+(?:one|card)[ \t]+)?for[ \t]+you\b|\bis[ \t]+the[ \t]+one\b"
    r"|\bis[ \t]+your[ \t]+(?:card|pick|best[ \t]+bet|match)\b"
)


def _anchored(text: str, words: Sequence[str], pattern: re.Pattern[str]) -> list[int]:
    """Where ``pattern`` matches around an occurrence of one of ``words`` (every match holds
    one): found by ``str.find``, then matched in a short window, not by scanning the text."""
    out = []
    for word in words:
        pos = text.find(word)
        while pos >= 0:
            m = pattern.search(text, max(0, pos - 40), min(len(text), pos + len(word) + 24))
            if m is not None and m.start() <= pos and m.end() >= pos + len(word):
                out.append(m.start())
            pos = text.find(word, pos + len(word))
    return out


def _recommends(text: str) -> bool:
    return bool(
        lex.RECOMMEND_MORE.search(text)
        or lex.RECOMMEND_7.search(text)
        or lex.RECOMMEND.search(text)
        or _RECOMMEND_11.search(text)
    )


_CLAUSE_REACH = 600


def recommend_11(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """Cards ruled out only by a double negative or by a ruling-out aimed at another card, whose
    own clause recommends them, are recommended."""
    # a double negative matters where ruleset 10 read the negation as ruling a card out
    cues = sorted(
        _anchored(masked, _RECOMMEND_11_WORDS, _RECOMMEND_11)
        + (_anchored(masked, _DOUBLE_NEGATIVE_WORDS, _DOUBLE_NEGATIVE) if recs.negated else [])
    )
    neutral = bool(cues)
    if not neutral and not recs.negated:
        return recs
    positive = dict(recs.positive)
    negated = set(recs.negated)
    for mention in extraction.mentions:
        card_id = mention.card_id
        if card_id is None or card_id in positive or (card_id not in negated and not neutral):
            continue
        if card_id not in negated:
            near = bisect_right(cues, mention.start + 200)
            if not near or cues[near - 1] < mention.start - 200:
                continue  # no new recommending phrase near this mention
        cuts = [
            m.end()
            for m in _CLAUSE_CUT.finditer(masked, max(0, mention.start - 200), mention.start)
        ]
        lo = cuts[-1] if cuts else max(0, mention.start - 200)
        # the clause runs to the next cut, read at most _CLAUSE_REACH characters on (real
        # clauses are far shorter; a text with no cut was read to its end per mention)
        reach = min(len(masked), mention.end + _CLAUSE_REACH)
        end = _CLAUSE_CUT.search(masked, mention.end, reach)
        hi = end.start() if end is not None else reach
        if masked.startswith("?", hi):
            continue  # "Is the X right for you?" asks
        clause = masked[lo:hi]
        rel = mention.start - lo
        before = clause[:rel]
        doubled = list(_DOUBLE_NEGATIVE.finditer(clause))
        cleared = clause
        for m in doubled:
            cleared = cleared[: m.start()] + " " * (m.end() - m.start()) + cleared[m.end() :]
        if _OWN_RULE_OUT.search(cleared) or lex.NEGATION.search(cleared):
            continue
        if not (doubled or _recommends(clause)):
            continue
        if not doubled and not _recommends(clause[rel:]) and not _recommends(before):
            continue
        negated.discard(card_id)
        positive.setdefault(card_id, mention)
    if negated == set(recs.negated) and len(positive) == len(recs.positive):
        return recs
    return Recommendations(positive, frozenset(negated))


__all__ = [
    "drop_myths",
    "recommend_11",
    "revise_11",
    "rewrite_11",
    "tricky_names",
    "worked_examples",
    "worked_fee_findings",
]
