"""Cheap searches that find where an expensive expression may match, so it is tried only there.

Some of the rulesets' expressions open with ``\\b``, ``^`` or a lookbehind, which leaves
Python's ``re`` no literal prefix to skip ahead with: it runs the whole expression at every
position of the text, and a few of them cost more than everything else in a reading
(``others_19``'s "the other one", ``slot_names_19``'s slot, the ruled-out words of
``options_19``). ``matchers`` has the helpers for expressions that open with a known word or
after a known mark; these are for the rest.

Each helper here runs the same expression, unchanged, at a superset of the positions where it can
match - found from a *hint*, words or a literal every match must hold, which ``str.find`` or
Aho-Corasick finds fast - so the matches (their spans and groups) are exactly the ones a full scan finds. A hint that
missed a position would change a verdict; the hints are therefore written from the expressions'
alternatives one by one, and ``tests/test_compliance_prefilter.py`` checks each against the full
scan at every position of every text the tests and benchmark corpora hold, and on strings
generated from the expressions themselves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from replicas.verifiers.compliance.matchers import _starts_automaton


def occurrences(text: str, words: Iterable[str]) -> list[int]:
    """Every position (ascending, each once) where one of ``words`` occurs, overlapping ones
    too (``str.find``, which skips ahead faster than an expression opening with a class)."""
    found: set[int] = set()
    for word in words:
        pos = text.find(word)
        while pos >= 0:
            found.add(pos)
            pos = text.find(word, pos + 1)
    return sorted(found)


# windows shorter than this are searched plainly (cheaper than the Aho-Corasick pass)
_SHORT_WINDOW = 32


def search_at_words(
    patterns: tuple[re.Pattern[str], ...], words: tuple[str, ...], text: str, a: int, b: int
) -> bool:
    """Whether ``any(p.search(text, a, b) for p in patterns)``, given that every match of every
    pattern opens at a word start (``\\b`` before a word character) with one of ``words``: each
    pattern is tried, with the same end, only where one of them occurs within ``[a, b)`` after
    no word character (one Aho-Corasick pass over the window)."""
    if b - a < _SHORT_WINDOW:
        # (a table cell, a short line: scanning it costs less than finding its words)
        return any(pattern.search(text, a, b) is not None for pattern in patterns)
    found = _starts_automaton(words).find_matches_as_indexes(text[a:b], overlapping=True)
    for offset in sorted({start for _, start, _ in found}):
        pos = a + offset
        if pos and (text[pos - 1].isalnum() or text[pos - 1] == "_"):
            continue  # a word character before it: no word boundary (what ``\\w`` is)
        for pattern in patterns:
            if pattern.match(text, pos, b) is not None:
                return True
    return False


def finditer_from(
    pattern: re.Pattern[str], text: str, starts: Iterable[int]
) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)``, given ``starts`` (ascending) holds every position a match of
    ``pattern`` can start at, and no match is empty: the expression is tried at those positions
    only, each after the end of the match before (as ``finditer`` resumes)."""
    pos = 0
    for start in starts:
        if start < pos:
            continue
        found = pattern.match(text, start)
        if found is not None:
            if found.end() == start:
                raise ValueError(f"an empty match of {pattern.pattern!r} at {start}")
            pos = found.end()
            yield found


def lead_runs(hints: Iterable[int], text: str, lead: str) -> Iterator[int]:
    """Every position, ascending, where a match can start that opens with at most a run of
    ``lead``'s characters before one of ``hints`` (ascending positions of what every match
    holds; no hint's own first character is in ``lead``): each hint and the run before it, each
    character looked at once."""
    for q in hints:
        r = q
        while r > 0 and text[r - 1] in lead:
            r -= 1
        yield from range(r, q + 1)


def finditer_lines(
    pattern: re.Pattern[str], words: tuple[str, ...], text: str
) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)`` for a pattern whose every match lies on one line, holds one of
    ``words`` in the lower-case text and looks at no character past its line's end (a line
    searched alone then matches as in the whole text): only the lines holding a word are
    searched. ASCII text only (its lower case keeps positions); any other is searched whole."""
    if not text.isascii():
        yield from pattern.finditer(text)
        return
    done = 0
    for pos in occurrences(text.lower(), words):
        if pos < done:
            continue
        a = text.rfind("\n", 0, pos) + 1
        b = text.find("\n", pos)
        b = len(text) if b < 0 else b
        yield from pattern.finditer(text, a, b)
        done = b


def line_starts_holding(text: str, mark: str) -> Iterator[int]:
    """The start of every line (ascending) that holds ``mark`` (no line break in it)."""
    pos = text.find(mark)
    while pos >= 0:
        start = text.rfind("\n", 0, pos) + 1
        yield start
        end = text.find("\n", pos)
        if end < 0:
            return
        pos = text.find(mark, end)
