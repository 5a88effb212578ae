"""Ruleset 14's second part: the classes session 14's blind tuning split showed (issue 13; seed
61), each fixed as a class, precision first. One section per class, grouped by where they act.

Text rewrites (``footnotes_14``, first of all rewrites):

* **footnote markers** - "The Atlas Cash¹ is also an option", "the Compass Journey²³", a
  footnote line "¹ The grace period ...": NFKC turns a superscript digit into a plain one, so
  the name reads "Atlas Cash1" (a misspelling). Superscript digits not after a digit are
  footnote markers and are dropped.

Names (``labels_14``, after ruleset 14's names):

* **a short label defined for a card** - "the Gray Rock Scholar ("Scholar")", "the X (the
  "Scholar")", "the X ("Scholar" for short)": later uses of the label ("Scholar: $39 annual
  fee") name that card. A label two cards define is no one's.

* **a lower-case invented name in a recommendation's slot** (``names_14b``) - "top
  recommendation: the larkspur voyage miles.", "the card i'd point you to is the aspen apex
  meteor.": a noun phrase that fills the slot up to the punctuation, begins with an unfamiliar
  word (or a catalog brand before one) and is named so again later is an invented card, as its
  Title Case form already is.

Claims (``claims_14b``, after ruleset 14's revision):

* **fee totals over several years** - "Over two years the fees add up to $95 + $95 = $190",
  "Total annual fees for 3 years of holding the X: $285 ($95 in year one, ...)": a dollar
  figure after a total word ("add up to", "total", "comes to", "=") in a sentence that spans
  several years is a sum, not a fee: unverified. A sum written out ("$95 + $95 = $200") that
  does not add up stays bound (its addends are the card's fees and are checked as such).
* **two cards' figures in one sentence** - "Between the A (a $150 annual fee; 24.99%-30.99%
  variable) and the B (no annual fee; 19.74% (fixed)), ...": a figure inside a parenthesis that
  opens right after a card's name (and names no other card) is that card's.

Myths (``beliefs_14``, as ruleset 14's ``drop_myths_14``):

* **a customer's wrong belief quoted and corrected** - "You thought the X would add a 3% fee
  abroad - good news, it has no foreign transaction fees", "You were under the impression the X
  has no foreign transaction fee. Unfortunately it does: 2.7%": the belief's figure is not the
  response's claim when a correction follows. Only past or hedged beliefs ("you thought", "you
  may have heard", "you were told"); "if you think ..." is a condition, not a belief.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.expansions import apply_replacements
from replicas.verifiers.compliance.matchers import at_word_start, find_starting_with
from replicas.verifiers.compliance.mentions import AMBIGUOUS, EXACT, UNKNOWN, NameMention
from replicas.verifiers.compliance.phrases import FUNCTION_WORDS
from replicas.verifiers.compliance.ruleset14 import _MYTH_END_14, _NAMES14, drop_corrected
from replicas.verifiers.compliance.spans import SpanIndex

if TYPE_CHECKING:
    from replicas.verifiers.compliance.claims import Claim, Extraction
    from replicas.verifiers.compliance.names import NameIndex
    from replicas.verifiers.compliance.text import NormalizedText

# == text rewrites ================================================================================

_SUPERSCRIPTS = "\u00b9\u00b2\u00b3\u2070\u2074\u2075\u2076\u2077\u2078\u2079"
_SUPER_RUN = re.compile(f"[{_SUPERSCRIPTS}]+")


def strip_footnotes_14(norm: NormalizedText) -> NormalizedText:
    """``norm`` without footnote markers (superscript digits not after a digit)."""
    original = norm.original
    if not any(ch in original for ch in _SUPERSCRIPTS):
        return norm
    text = norm.text
    found: list[tuple[int, int, str]] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if not ch.isdigit():
            i += 1
            continue
        j = i
        while j < n and text[j].isdigit():
            j += 1
        # the digits NFKC made of superscripts: each maps back to one superscript character
        k = i
        while k < j:
            a, b = norm.to_original(k, k + 1)
            if b - a == 1 and original[a] in _SUPERSCRIPTS:
                m = k
                while m < j:
                    a2, b2 = norm.to_original(m, m + 1)
                    if not (b2 - a2 == 1 and original[a2] in _SUPERSCRIPTS):
                        break
                    m += 1
                if k == i and (i == 0 or not text[i - 1].isdigit()):
                    found.append((k, m, ""))
                k = m
            else:
                k += 1
        i = j
    if not found:
        return norm
    return apply_replacements(norm, found)


# == names ========================================================================================

_LABEL_DEF = re.compile(
    r"[ \t]*(?:\*\*|__)?[ \t]*\([ \t]*(?:(?:the|hereafter|henceforth|or|or[ \t]+just|or[ \t]+simply"
    r"|just|simply|called|aka|a\.k\.a\.)[ \t]+)?(?P<q>[\"'])?(?P<label>[A-Z][A-Za-z0-9-]*"
    r"(?:[ \t][A-Z0-9][A-Za-z0-9-]*){0,2})(?(q)(?P=q))"
    r"(?:[ \t]+(?:for[ \t]+short|below|from[ \t]+here[ \t]+on|from[ \t]+now[ \t]+on|hereafter))?"
    r"[ \t]*\)"
)


def labels_14(text: str, mentions: Sequence[NameMention]) -> list[NameMention]:
    """The mentions with uses of short labels defined for a card added (module docstring)."""
    out = list(mentions)
    if "(" not in text:
        return out
    defined: dict[str, set[str]] = {}
    after: dict[str, int] = {}
    for m in out:
        if m.card_id is None or m.kind == AMBIGUOUS:
            continue
        d = _LABEL_DEF.match(text, m.end)
        if d is None:
            continue
        label = d.group("label")
        if d.group("q") is None:
            # unquoted: only words of the card's own name
            words = set(m.surface.lower().split())
            if any(w.lower() not in words for w in label.split()):
                continue
        defined.setdefault(label, set()).add(m.card_id)
        after[label] = min(after.get(label, d.end()), d.end())
    if not defined:
        return out
    found: list[NameMention] = []
    taken = SpanIndex((m.start, m.end) for m in out if m.kind != AMBIGUOUS)
    for label, cards in defined.items():
        if len(cards) != 1:
            continue  # two cards' label: no one's
        card = next(iter(cards))
        for u in re.finditer(rf"(?<![\w'-]){re.escape(label)}(?![\w-]|'s\w)", text):
            a, b = u.span()
            if a < after[label] or taken.overlaps(a, b):
                continue
            found.append(NameMention(a, b, EXACT, card, text[a:b]))
            taken.add(a, b)
    if not found:
        return out
    spans = SpanIndex((f.start, f.end) for f in found)
    kept = [
        m for m in out if not (m.kind in (AMBIGUOUS, UNKNOWN) and spans.overlaps(m.start, m.end))
    ]
    return sorted([*kept, *found], key=lambda m: m.start)


# -- a lower-case invented name in a recommendation's slot, used again --------------------------

_SLOT = re.compile(
    "(?:"
    + at_word_start(
        [
            "recommendation",
            "pick",
            "choice",
            r"point[ \t]+you[ \t]+to[ \t]+is",
            r"pointing[ \t]+you[ \t]+to",
            r"go[ \t]+with",
            r"best[ \t]+bet",
            r"best[ \t]+fit",
            "winner",
            "suggestion",
        ]
    )
    + ")"
    r"(?:[ \t]+for[ \t]+you)?[ \t]*(?:is|would[ \t]+be|:|-)?[ \t]*(?:\*\*|__)?the[ \t]+"
    r"(?P<name>[a-z][a-z-]{2,19}(?:[ \t][a-z][a-z-]{1,19}){1,3})"
    r"(?=(?:\*\*|__)?[ \t]*(?:[.,;:!?\n]|$))"
)

# the first word of each lead: every match of ``_SLOT`` opens with one of them
_SLOT_STARTS = ("recommendation", "pick", "choice", "point", "go", "best", "winner", "suggestion")


def slot_names_14(
    index: NameIndex, text: str, lower: str, mentions: Sequence[NameMention]
) -> list[NameMention]:
    """The mentions with a lower-case invented name added where it fills a recommendation's
    slot ("top recommendation: the larkspur voyage miles.") and is named so again later: its
    first word unfamiliar, or a catalog brand before an unfamiliar word."""
    out = list(mentions)
    if "the " not in lower or len(lower) != len(text):
        return out
    extra = _NAMES14.get(index)
    if extra is None:
        return out
    r13 = extra.r13
    taken = SpanIndex((m.start, m.end) for m in out)
    named: dict[str, int] = {}  # how often "the <name>" occurs, per name
    found: list[NameMention] = []
    for m in find_starting_with(_SLOT, lower, _SLOT_STARTS):
        name = m.group("name")
        words = name.split()
        if any(w in FUNCTION_WORDS or not w.replace("-", "").isalpha() for w in words):
            continue
        first = words[0]
        if first in extra.brands:
            if not any(r13._unfamiliar(w) for w in words[1:]):
                continue
        elif not r13._unfamiliar(first) or first in extra.base.stem_first:
            continue
        start, stop = m.span("name")
        if not text[start:stop].islower() or taken.overlaps(start, stop):
            continue
        if name not in named:
            named[name] = lower.count("the " + name)
        if named[name] < 2:
            continue  # named once: no card's use of it seen
        found.extend(r13._invented(text, start, stop, tuple(words)))
    if not found:
        return out
    return sorted([*out, *found], key=lambda m: m.start)


# == claims =======================================================================================

_NUM = (
    r"(?:\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|a[ \t]+few|several"
    r"|a[ \t]+couple[ \t]+of)"
)
_YEARS_SPAN = re.compile(
    rf"\b(?:over|for|across|in|after|within|during)[ \t]+(?:the[ \t]+)?(?:first[ \t]+|next[ \t]+"
    rf"|last[ \t]+)?{_NUM}[ \t]+years\b"
    rf"|\b{_NUM}[ \t]+years['’]?[ \t]+(?:of|worth)\b|\b(?:\d{{1,2}}|two|three|four|five|ten)-year\b"
)
_TOTAL_CUE = re.compile(
    r"(?:\badds?[ \t]+up[ \t]+to|\badding[ \t]+up[ \t]+to|\btotal(?:s|led|ed|ling|ing)?\b"
    r"|\bsums?[ \t]+to|\bcomes?[ \t]+to|\bcame[ \t]+to|\bworks?[ \t]+out[ \t]+(?:to|at)"
    r"|\bin[ \t]+all\b|\baltogether\b|\ball[ \t]+told\b|\bcombined\b|\bcumulative(?:ly)?\b"
    r"|\bin[ \t]+total\b|=)"
)
_TOTAL_AFTER = re.compile(
    r"[ \t]*(?:\)[ \t]*)?(?:in[ \t]+total\b|total\b|altogether\b|in[ \t]+all\b|combined\b"
    rf"|all[ \t]+told\b|over[ \t]+(?:the[ \t]+)?(?:first[ \t]+|next[ \t]+)?{_NUM}[ \t]+years\b)"
)
_PER_YEAR_AFTER = re.compile(
    r"[ \t]*(?:(?:a|per|each|every)[ \t]+year\b|/[ \t]*(?:yr|year)\b|annually\b|yearly\b"
    r"|in[ \t]+(?:year|the[ \t]+first|each|every)\b|\+|annual[ \t]+fee\b|(?:for|in)[ \t]+year\b)"
)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n")
_LAST_DOLLAR = re.compile(r"\$[ \t]?(\d{1,3}(?:,\d{3})+|\d{1,7}(?:\.\d{1,2})?)$")


_REACH = 400  # how far a sentence is read on either side of a figure


def _sentence(masked: str, pos: int) -> tuple[int, int]:
    """The sentence around ``pos``, at most ``_REACH`` characters on either side (so a text
    without sentence ends is not read whole for each of its figures)."""
    start = max(0, pos - _REACH)
    for m in _SENTENCE_END.finditer(masked, start, pos):
        start = m.end()
    stop = min(len(masked), pos + _REACH)
    end = _SENTENCE_END.search(masked, pos, stop)
    return start, end.start() if end is not None else stop


def _chain_sum(masked: str, lo: int, eq: int) -> float | None:
    """The sum of "$a + $b + ..." ending at ``eq`` (the "="), or None."""
    head = masked[lo:eq].rstrip()
    total = 0.0
    n = 0
    # the last addend, then each one before a "+"
    m = _LAST_DOLLAR.search(head)
    while m is not None:
        total += float(m.group(1).replace(",", ""))
        n += 1
        head = head[: m.start()].rstrip()
        if not head.endswith("+"):
            break
        head = head[:-1].rstrip()
        m = _LAST_DOLLAR.search(head)
    return total if n >= 2 else None


def _years_marks(masked: str) -> list[int]:
    """Where "years" or "-year" occurs in ``masked``, in order: every match of ``_YEARS_SPAN``
    holds one of them."""
    out = []
    for word in ("years", "-year"):
        pos = masked.find(word)
        while pos >= 0:
            out.append(pos)
            pos = masked.find(word, pos + 1)
    out.sort()
    return out


def _multi_year_total(claim: Claim, masked: str, marks: list[int] | None = None) -> bool:
    if claim.family != "fee" or claim.unit != "usd" or claim.is_none or claim.low is None:
        return False
    if marks is not None:
        # the sentence read lies within _REACH of the figure: no "years" there, no span of years
        k = bisect_left(marks, claim.start - _REACH)
        if k == len(marks) or marks[k] >= claim.start + _REACH:
            return False
    lo, hi = _sentence(masked, claim.start)
    if _YEARS_SPAN.search(masked, lo, hi) is None:
        return False
    if _PER_YEAR_AFTER.match(masked, claim.end) is not None:
        return False
    before = masked[lo : claim.start]
    eq = re.search(r"=[ \t]*(?:about[ \t]+|around[ \t]+|roughly[ \t]+)?$", before)
    if eq is not None:
        total = _chain_sum(masked, lo, lo + eq.start())
        return total is None or abs(total - claim.low) <= 0.5
    cue = None
    for c in _TOTAL_CUE.finditer(masked, max(lo, claim.start - 90), claim.start):
        cue = c
    if cue is not None and "$" not in masked[cue.end() : claim.start]:
        return True
    return _TOTAL_AFTER.match(masked, claim.end) is not None


_OPEN_PAREN = re.compile(r"[ \t]*(?:\*\*|__)?[ \t]*\(")


def _paren_spans(extraction: Extraction) -> list[tuple[int, int, str]]:
    """(start, end, card) of each parenthesis opening right after a card's name."""
    masked = extraction.masked
    out = []
    mentions = extraction.mentions
    starts = sorted(n.start for n in mentions)
    for m in mentions:
        if m.card_id is None or m.kind == AMBIGUOUS:
            continue
        o = _OPEN_PAREN.match(masked, m.end)
        if o is None:
            continue
        depth = 0
        close = None
        for i in range(o.end() - 1, min(len(masked), o.end() + 240)):
            ch = masked[i]
            if ch == "\n":
                break
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    close = i
                    break
        if close is None:
            continue
        if bisect_left(starts, close) > bisect_left(starts, o.end()):
            continue  # another card named inside
        out.append((o.end(), close, m.card_id))
    return out


def revise_14b(extraction: Extraction) -> Extraction:
    """The extraction with multi-year fee totals unbound and figures in a parenthesis after a
    card's name bound to it (module docstring)."""
    masked = extraction.masked
    totals = "year" in masked and "$" in masked
    parens = "(" in masked
    if not (totals or parens):
        return extraction
    spans = _paren_spans(extraction) if parens else []
    marks = _years_marks(masked) if totals else None
    out = list(extraction.claims)
    changed = False
    for i, claim in enumerate(out):
        if not claim.cards:
            continue
        if totals and _multi_year_total(claim, masked, marks):
            out[i] = replace(claim, cards=())
            changed = True
            continue
        for a, b, card in spans:
            if a <= claim.start < b:
                if claim.cards != (card,):
                    out[i] = replace(claim, cards=(card,), binding="clause")
                    changed = True
                break
    if not changed:
        return extraction
    return replace(extraction, claims=tuple(out))


# == myths ========================================================================================

_BELIEF = re.compile(
    r"(?<!\bif[ \t])(?<!\bwhen[ \t])(?<!\bunless[ \t])"
    r"\byou(?:'d|[ \t]+(?:may|might|probably|also))?[ \t]+(?:have[ \t]+)?"
    r"(?:thought|assumed|believed|figured|expected|suspected|guessed|feared|heard|read"
    r"|were[ \t]+(?:told|expecting|worried|afraid|under[ \t]+the[ \t]+impression)"
    r"|had[ \t]+(?:the[ \t]+impression|heard|read|been[ \t]+told)|seem(?:ed)?[ \t]+to[ \t]+think"
    r"|(?:may|might)[ \t]+think|'re[ \t]+assuming|are[ \t]+assuming|'ve[ \t]+heard)\b"
    r"|\byour[ \t]+(?:understanding|assumption|impression|belief)[ \t]+(?:is|was)\b"
)


def drop_beliefs_14(extraction: Extraction) -> Extraction:
    """The extraction without the claims of a customer's belief quoted and corrected."""
    masked = extraction.masked
    claims = extraction.claims
    if not claims or "you" not in masked:
        return extraction
    spans = []
    # The first end at or after each belief: a search's leftmost match from an earlier start is
    # also the leftmost from any later start it does not precede, so one match serves every
    # belief before it (searching anew from each belief was quadratic on a long unit).
    end: re.Match[str] | None = None
    searched = False
    for m in _BELIEF.finditer(masked):
        if not searched or (end is not None and end.start() < m.end()):
            end = _MYTH_END_14.search(masked, m.end())
            searched = True
        spans.append((m.start(), end.start() if end is not None else len(masked)))
    return drop_corrected(extraction, spans)


__all__ = ["drop_beliefs_14", "labels_14", "revise_14b", "slot_names_14", "strip_footnotes_14"]
