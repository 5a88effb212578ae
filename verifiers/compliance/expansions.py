"""Ruleset 5's rewrites of abbreviations and paraphrases into the words the reader knows.

Unlike ruleset 4's term synonyms (``synonyms``, which must keep the text's length), these change
it: "no AF" becomes "no annual fee", "no FTF" "no foreign transaction fee", "22.49% p.a."
"22.49% APR", "move your existing debt over" "balance transfer". They run on the normalised text
and extend its map back to the original (``NormalizedText.segments``), so every span of a finding
still quotes exactly what the agent wrote - a rewritten stretch maps onto the whole original
phrase it replaced.

Each rewrite is one class of phrasing, not one example:

* fee abbreviations: ``AF`` (annual fee; upper-case, or lower-case where it reads as a fee: "no
  af", "$95 af", "af: none"), ``FTF`` / ``FTFs``;
* a percentage "per annum": ``p.a.``, ``pa``, ``per annum`` right after a percentage (after a
  dollar amount "per annum" stays the yearly word it is);
* foreign spending named otherwise: "non-sterling", "non-dollar", "cross-border" become
  "foreign";
* the first year abbreviated: "yr 1", "1st yr" become "the first year";
* a term label and its value joined by an arrow or a question mark ("Annual fee -> none",
  "Late fee? None.") become "label: value";
* balance transfers named by what they do: moving, shifting or bringing debt or a balance over
  ("move your existing debt over", "balances you bring over", "shift a balance across"),
  consolidating debt ("consolidate your card debt"), "transferred debt", "debt transfers".

A rewrite never touches a capitalised phrase (a product name such as "Shift Balance Rewards" is
the name finder's business) and never a card name.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from replicas.verifiers.compliance.text import NormalizedText, _lower_same_length

_SP = r"[ \t]{1,3}"
# "no AF", "$95 AF", "AF: none", "AF waived", "0 AF": the context of a lower-case "af"
_AF_CONTEXT_BEFORE = re.compile(
    r"(?:\bno|\bzero|\bthe|\ban?|\bits|\$[\d.,]{1,9}|\b\d{1,4}|\bwith|\bwithout|\bany)[ \t]{1,3}$"
)
_AF_CONTEXT_AFTER = re.compile(
    r"[ \t]{0,2}(?:[:=]|->|\u2192|\?|[ \t](?:is|of|waived|free|none|\$))"
)
_PER_ANNUM = re.compile(r"[ \t]{0,2}(?:p\.[ \t]?a\b\.?|pa\b|per[ \t]{1,3}annum\b)")
_DEBT_OBJECT = (
    r"(?:(?:your|an?|the|that|this|any|existing|old|current|high[ \t-]interest|credit[ \t]card"
    r"|card|other|outstanding)" + _SP + r"){0,3}(?:debts?|balances?)"
)
_MOVE_VERB = r"(?:mov(?:e|es|ing)|shift(?:s|ing)?|bring(?:s|ing)?|port(?:s|ing)?|roll(?:s|ing)?)"
_BT_PHRASES = re.compile(
    # "move your existing debt over", "shift a balance across", "bring over your balance"
    r"\b"
    + _MOVE_VERB
    + r"(?:"
    + _SP
    + r"(?:over|across))?"
    + _SP
    + _DEBT_OBJECT
    + r"(?:"
    + _SP
    + r"(?:over|across))?\b"
    # "balances you bring over", "debt you move across", "debt moved over"
    + r"|\b(?:debts?|balances?)"
    + _SP
    + r"(?:(?:you|that[ \t]you)"
    + _SP
    + r")?"
    r"(?:bring|brought|move|moved|shift|shifted|port|ported|roll|rolled)"
    + _SP
    + r"(?:over|across|in)\b"
    # "consolidate your card debt", "debt consolidation"
    + r"|\bconsolidat(?:e|es|ing|ion)"
    + _SP
    + r"(?:of"
    + _SP
    + r")?"
    + _DEBT_OBJECT
    + r"\b"
    + r"|\bdebt"
    + _SP
    + r"consolidation\b"
    # "transferred debt", "debt transfers"
    + r"|\btransferred"
    + _SP
    + r"debts?\b|\bdebt"
    + _SP
    + r"transfers?\b"
)
# Ruleset 6: balance transfers named by the debt they move: "existing card debt", "debt from
# your old card", "balances from other cards", "the balance you carry over from your old card",
# "consolidated debt", "when you consolidate" (the verb alone; with its object it is ruleset 5's)
_OTHER_CARD = (
    r"from"
    + _SP
    + r"(?:(?:your|an?|the)"
    + _SP
    + r")?(?:other|old|older|another|previous|existing|current)"
    + _SP
    + r"(?:credit"
    + _SP
    + r")?cards?\b"
)
_BT_PHRASES_6 = re.compile(
    r"\bexisting"
    + _SP
    + r"(?:credit"
    + _SP
    + r")?card"
    + _SP
    + r"debts?\b"
    + r"|\b(?:debts?|balances?)"
    + _SP
    + _OTHER_CARD
    + r"|\bbalances?"
    + _SP
    + r"(?:(?:that"
    + _SP
    + r")?you"
    + _SP
    + r")?carr(?:y|ied)"
    + _SP
    + r"over"
    + _SP
    + _OTHER_CARD
    + r"|\bconsolidated"
    + _SP
    + r"(?:(?:credit"
    + _SP
    + r")?card"
    + _SP
    + r")?debts?\b"
    + r"|(?<=\b(?:when|once)"
    + r"[ \t]you[ \t])consolidate\b(?![ \t]{1,3}(?:your|an?|the|that|this|any|existing|old|current"
    r"|credit|card|other|outstanding|debts?|balances?|of)\b)"
)
# "non-sterling transactions", "cross-border purchases": foreign ones
_FOREIGN_WORDS = re.compile(r"\b(?:non-(?:sterling|dollar|us|usd|domestic)|cross-border)\b")
# "yr 1", "1st yr", "first yr", "yr one": the first year, abbreviated
_YEAR_ONE = re.compile(r"\b(?:yr[ \t]?(?:1|one)|(?:1st|first)[ \t-]yr|y1)\b")
# "Annual fee? Zero.", "Annual fee -> none", "Late fee → $40", "APR >> 19.99%": a short term label
# and its value joined by a question mark or an arrow, read as "label: value". The label opens a
# line, a list item, a table cell or a sentence and holds no figure.
_LABEL_ARROW = re.compile(
    r"(?:^|(?<=[\n|.!]))(?P<lead>[ \t]{0,4}(?:(?:[-*+>\u2022]|\d{1,2}[.)])[ \t]{1,3})?(?:\*\*|__)?)"
    r"(?P<label>(?:[a-z][a-z'/()-]{0,20}[ \t]{1,2}){0,4}(?:fees?|aprs?|rates?|charges?|costs?|"
    r"offer|promo|intro|apr[ \t]after))(?:\*\*|__)?"
    r"(?P<sep>[ \t]{0,2}(?:\?|->|=>|\u2192|>{1,2})[ \t]{0,3})(?=[^\s?|])"
)
_TRIGGERS = (
    "non-",
    "cross-border",
    "af",
    "a/f",
    "ftf",
    "%",
    "debt",
    "balance",
    "consolidat",
    "yr",
    "y1",
    "?",
    ">",
    "\u2192",
)


def _windows(
    lower: str, anchors: tuple[str, ...], before: int, after: int
) -> list[tuple[int, int]]:
    """Merged stretches around every occurrence of ``anchors`` (found with ``str.find``): the
    patterns below then run on these few stretches only, not on every character of the text."""
    spans: list[tuple[int, int]] = []
    size = len(lower)
    for anchor in anchors:
        pos = lower.find(anchor)
        while pos >= 0:
            spans.append((max(0, pos - before), min(size, pos + len(anchor) + after)))
            pos = lower.find(anchor, pos + 1)
    return merge_spans(spans)


def merge_spans(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` sorted, with overlapping or touching ones merged."""
    spans.sort()
    merged: list[tuple[int, int]] = []
    for lo, hi in spans:
        if merged and lo <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return merged


def _in_windows(
    pattern: re.Pattern[str], lower: str, windows: list[tuple[int, int]]
) -> list[re.Match[str]]:
    found: list[re.Match[str]] = []
    cursor = 0
    for lo, hi in windows:
        for match in pattern.finditer(lower, lo if lo > cursor else cursor, hi):
            found.append(match)
            cursor = match.end()
    return found


_ABBREVIATION_EDGE = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_/&-")


def _word_at(lower: str, word: str) -> list[int]:
    """Where ``word`` stands as a word of its own (not inside "after" or "draft")."""
    out = []
    size = len(lower)
    pos = lower.find(word)
    while pos >= 0:
        end = pos + len(word)
        if (pos == 0 or lower[pos - 1] not in _ABBREVIATION_EDGE) and (
            end == size or lower[end] not in _ABBREVIATION_EDGE
        ):
            out.append(pos)
        pos = lower.find(word, end)
    return out


_SEPARATORS = ("?", "->", "=>", ">>", "> ", "\u2192")
_LABEL_ENDS = (
    "fee",
    "fees",
    "apr",
    "aprs",
    "rate",
    "rates",
    "charge",
    "charges",
    "cost",
    "costs",
    "offer",
    "promo",
    "intro",
    "after",
    "**",
    "__",
)


def _label_separator_candidates(lower: str) -> list[int]:
    """Where a label's arrow or question mark may stand: right after a term word ("fee?",
    "APR ->") and before a value on the same line - found with ``str.find``."""
    out = []
    size = len(lower)
    for sep in _SEPARATORS:
        pos = lower.find(sep)
        while pos >= 0:
            after = pos + len(sep)
            while after < size and lower[after] in " \t":
                after += 1
            if after < size and lower[after] not in "\n?|":
                head = lower[max(0, pos - 10) : pos].rstrip(" \t")
                if head.endswith(_LABEL_ENDS):
                    out.append(pos)
            pos = lower.find(sep, pos + len(sep))
    return sorted(set(out))


_DOWN = re.compile(r"[ \t]{1,3}(?:down|off)\b")


def _replacements(
    text: str, lower: str, transfers_6: bool = False, not_down_7: bool = False
) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    for word in ("af", "a/f"):
        for a in _word_at(lower, word):
            b = a + len(word)
            upper = text[a:b].replace("/", "") == "AF"
            if not upper and not (
                _AF_CONTEXT_BEFORE.search(lower, max(0, a - 16), a)
                or _AF_CONTEXT_AFTER.match(lower, b)
            ):
                continue
            out.append((a, b, "annual fee"))
    for word in ("ftf", "ftfs"):
        for a in _word_at(lower, word):
            out.append((a, a + len(word), "foreign transaction fee" + word[3:]))
    if "p" in lower:
        size = len(lower)
        pos = lower.find("%")
        while pos >= 0:
            nxt = pos + 1
            while nxt < size and nxt - pos <= 3 and lower[nxt] in " \t":
                nxt += 1
            if nxt < size and lower[nxt] == "p":
                match = _PER_ANNUM.match(lower, pos + 1)
                if match is not None:
                    out.append((match.start(), match.end(), " apr"))
            pos = lower.find("%", pos + 1)
    if "debt" in lower or "balance" in lower or "consolidat" in lower:
        windows = _windows(lower, ("debt", "balance", "consolidat"), 60, 40)
        for m in _in_windows(_BT_PHRASES, lower, windows):
            a, b = m.span()
            # a capitalised word after the first makes it a name, not a paraphrase
            if any(ch.isupper() for ch in text[a + 1 : b]):
                continue
            if not_down_7 and _DOWN.match(lower, b):
                continue  # ruleset 7: "bring your balance down" pays it off, it moves nothing
            words = lower[a:b]
            plural = "s" if re.search(r"(?:debts|balances)\b", words) else ""
            out.append((a, b, "balance transfer" + plural))
        if transfers_6:
            for m in _in_windows(_BT_PHRASES_6, lower, windows):
                a, b = m.span()
                if any(ch.isupper() for ch in text[a + 1 : b]):
                    continue
                plural = "s" if re.search(r"(?:debts|balances)\b", lower[a:b]) else ""
                out.append((a, b, "balance transfer" + plural))
    if "non-" in lower or "cross-border" in lower:
        for m in _in_windows(_FOREIGN_WORDS, lower, _windows(lower, ("non-", "cross-"), 2, 12)):
            out.append((m.start(), m.end(), "foreign"))
    if "yr" in lower or "y1" in lower:
        for m in _in_windows(_YEAR_ONE, lower, _windows(lower, ("yr", "y1"), 8, 8)):
            out.append((m.start(), m.end(), "the first year"))
    for pos in _label_separator_candidates(lower):
        # the label runs from the start of its line, cell or sentence to the separator
        start = max(lower.rfind("\n", 0, pos), lower.rfind("|", 0, pos), lower.rfind(". ", 0, pos))
        match = _LABEL_ARROW.match(lower, max(start, 0) if start < 0 else start + 1)
        if match is not None and match.start("sep") <= pos < match.end("sep"):
            out.append((match.start("sep"), match.end("sep"), ": "))
    out.sort()
    kept: list[tuple[int, int, str]] = []
    for item in out:
        if kept and item[0] < kept[-1][1]:
            continue
        kept.append(item)
    return kept


_LINES: dict[str, tuple[tuple[int, int, str], ...]] = {}
_LINES_6: dict[str, tuple[tuple[int, int, str], ...]] = {}  # ruleset 6 rewrites more
_LINES_7: dict[str, tuple[tuple[int, int, str], ...]] = {}  # ruleset 7 rewrites less
_LINES_LIMIT = 50_000


def _line_replacements(
    text: str, lower: str, transfers_6: bool = False, not_down_7: bool = False
) -> list[tuple[int, int, str]]:
    """``_replacements`` paragraph by paragraph (blocks of lines between blank lines), each
    paragraph's kept (answers repeat their paragraphs): no rewrite spans a line break, so the
    paragraphs' rewrites are exactly the text's."""
    if "\n\n" not in text:
        return _replacements(text, lower, transfers_6, not_down_7)
    lines = _LINES_7 if not_down_7 else _LINES_6 if transfers_6 else _LINES
    out: list[tuple[int, int, str]] = []
    size = len(text)
    pos = 0
    while pos < size:
        stop = text.find("\n\n", pos)
        stop = size if stop < 0 else stop + 2
        block = text[pos:stop]
        # (a block's lower-case copy is a function of the block alone when it is ASCII)
        ascii_block = block.isascii()
        found = lines.get(block) if ascii_block else None
        if found is None:
            found = tuple(_replacements(block, lower[pos:stop], transfers_6, not_down_7))
            if ascii_block and len(block) <= 4_000:
                if len(lines) >= _LINES_LIMIT:
                    lines.clear()
                lines[block] = found
        if found:
            out.extend((a + pos, b + pos, rep) for a, b, rep in found)
        pos = stop
    return out


def expand(
    norm: NormalizedText, transfers_6: bool = False, not_down_7: bool = False
) -> NormalizedText:
    """``norm`` with ruleset 5's rewrites applied and its map back to the original extended
    (``transfers_6``: ruleset 6's further balance-transfer paraphrases too; ``not_down_7``:
    ruleset 7 leaves "bring your balance down" alone)."""
    lower = norm.lower
    if not any(t in lower for t in _TRIGGERS):
        return norm
    found = _line_replacements(norm.text, lower, transfers_6, not_down_7)
    if not found:
        return norm
    return apply_replacements(norm, found)


def apply_first_replacements(
    norm: NormalizedText, found: list[tuple[int, int, str]]
) -> NormalizedText:
    """``apply_replacements`` of ``found`` sorted, each replacement that overlaps an earlier one
    dropped (rewrites found by several patterns)."""
    found.sort()
    kept: list[tuple[int, int, str]] = []
    for a, b, rep in found:
        if not kept or a >= kept[-1][1]:
            kept.append((a, b, rep))
    return apply_replacements(norm, kept)


def apply_replacements(
    norm: NormalizedText, found: Sequence[tuple[int, int, str]]
) -> NormalizedText:
    """``norm`` with each ``(start, end, replacement)`` of ``found`` (sorted, non-overlapping,
    in ``norm.text`` offsets) applied, its map back to the original text extended to match."""
    pieces: list[str] = []
    segments: list[tuple[int, int, int, int]] = []
    pos = 0
    npos = 0
    for a, b, rep in found:
        if a > pos:
            npos = _copy(norm, pos, a, npos, pieces, segments)
        o_start, o_end = norm.to_original(a, b)
        segments.append((npos, o_start, len(rep), o_end - o_start))
        pieces.append(rep)
        npos += len(rep)
        pos = b
    if pos < len(norm.text):
        _copy(norm, pos, len(norm.text), npos, pieces, segments)
    text = "".join(pieces)
    return NormalizedText(norm.original, text, _lower_same_length(text), tuple(segments))


def _copy(
    norm: NormalizedText,
    start: int,
    end: int,
    npos: int,
    pieces: list[str],
    segments: list[tuple[int, int, int, int]],
) -> int:
    """Copy ``norm.text[start:end]`` verbatim, with the segments that map it to the original."""
    pieces.append(norm.text[start:end])
    if not norm.segments:
        segments.append((npos, start, end - start, end - start))
        return npos + end - start
    old = norm.segments
    k = max(bisect_right([s[0] for s in old], start) - 1, 0)
    pos = start
    while pos < end and k < len(old):
        n0, o0, nl, ol = old[k]
        seg_end = n0 + nl
        if seg_end <= pos and nl:
            k += 1
            continue
        stop = min(end, seg_end) if nl else pos
        if stop > pos:
            if nl == ol:
                segments.append((npos + pos - start, o0 + pos - n0, stop - pos, stop - pos))
            else:
                segments.append((npos + pos - start, o0, stop - pos, ol))
        pos = max(stop, pos)
        k += 1
    return npos + end - start


__all__ = ["expand"]
