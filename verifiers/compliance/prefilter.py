"""Cheap searches that find where an expensive expression may match, so it is tried only there.

Some of the rulesets' expressions open with ``\\b``, ``^`` or a lookbehind, which leaves
Python's ``re`` no literal prefix to skip ahead with: it runs the whole expression at every
position of the text, and a few of them cost more than everything else in a reading
(``others_19``'s "the other one", ``slot_names_19``'s slot, the ruled-out words of
``options_19``). ``matchers`` has the helpers for expressions that open with a known word or
after a known mark; these are for the rest.

Each helper here runs the same expression, unchanged, at a superset of the positions where it can
match - found by a *hint*, an expression with a literal prefix that holds a part every match must
hold - so the matches (their spans and groups) are exactly the ones a full scan finds. A hint that
missed a position would change a verdict; the hints are therefore written from the expressions'
alternatives one by one, and ``tests/test_compliance_prefilter.py`` checks each against the full
scan at every position of every text the tests and benchmark corpora hold, and on strings
generated from the expressions themselves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from replicas.verifiers.compliance.matchers import at_word_start


def word_prefixes(prefixes: Iterable[str]) -> re.Pattern[str]:
    """An expression matching, at the start of a word (no word character before it), any of
    ``prefixes`` (each opening with a lower-case letter): ``matchers.at_word_start``'s form,
    which ``re`` can skip ahead with."""
    return re.compile(at_word_start([re.escape(p) for p in sorted(set(prefixes))]))


def search_at_hints(
    patterns: tuple[re.Pattern[str], ...], hint: re.Pattern[str], text: str, a: int, b: int
) -> bool:
    """Whether ``any(p.search(text, a, b) for p in patterns)``, given that every match of every
    pattern starts where ``hint`` matches within ``[a, b)`` (the hint's match lying in the
    pattern's): each pattern is tried only at the hint's positions, with the same end."""
    for found in hint.finditer(text, a, b):
        pos = found.start()
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


def hint_starts(hint: re.Pattern[str], text: str, lead: str) -> Iterator[int]:
    """Every position, ascending, where a match can start that holds a match of ``hint`` after
    at most a run of ``lead``'s characters: each hint's start and the run of ``lead`` before it
    (each character looked at once: the hints' own characters are no ``lead``)."""
    for found in hint.finditer(text):
        q = r = found.start()
        while r > 0 and text[r - 1] in lead:
            r -= 1
        yield from range(r, q + 1)


def finditer_lines(
    pattern: re.Pattern[str], hint: re.Pattern[str], text: str
) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)`` for a pattern whose every match lies on one line, holds a match
    of ``hint`` in the lower-case text and looks at no character past its line's end (a line
    searched alone then matches as in the whole text): only the lines holding a hint are
    searched. ASCII text only (its lower case keeps positions); any other is searched whole."""
    if not text.isascii():
        yield from pattern.finditer(text)
        return
    lower = text.lower()
    done = 0
    for found in hint.finditer(lower):
        if found.start() < done:
            continue
        a = text.rfind("\n", 0, found.start()) + 1
        b = text.find("\n", found.end())
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
