"""Regular expressions built from word lists so that they scan fast, and a word-set helper.

The compliance vocabularies (``lexicon``, ``cue_words``, ``vocab``, card names) are long lists of
words; these builders turn a list into a pattern the regex engine can skip through at C speed,
and ``find_starting_with`` runs a pattern only where one of its opening words occurs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ahocorasick_rs import AhoCorasick, MatchKind

_QUANTIFIERS = frozenset("?*+{")


def word_set(text: str) -> frozenset[str]:
    """The blank-separated words of ``text`` (long vocabularies written as paragraphs)."""
    return frozenset(text.split())


def at_word_start(alternatives: list[str]) -> str:
    """A pattern matching exactly what ``\\b(?:a1|a2|...)`` matches, written to scan fast.

    Each alternative must open with a lower-case ASCII letter taken literally. Python's regex
    engine tries a pattern that opens with a word boundary at every position of the text, and
    every alternative at every word start; a pattern whose top-level alternatives all open with a
    literal lets it skip at C speed to the characters that can start a match. So the
    alternatives are grouped by first letter and the boundary becomes a look-behind after that
    letter - ``b(?<!\\wb)(?:ecause|ut)`` for ``\\b(?:because|but)`` - keeping their order (and so
    the same match wherever several could match). Typically two to three times faster.
    """
    groups: dict[str, list[str]] = {}
    for alternative in alternatives:
        first = alternative[:1]
        if not ("a" <= first <= "z") or alternative[1:2] in _QUANTIFIERS:
            raise ValueError(f"alternative must open with a literal letter: {alternative!r}")
        groups.setdefault(first, []).append(alternative[1:])
    parts = []
    for first, rests in groups.items():
        body = rests[0] if len(rests) == 1 else "(?:" + "|".join(rests) + ")"
        parts.append(rf"{first}(?<!\w{first}){body}")
    return "|".join(parts)


def find_starting_with(
    pattern: re.Pattern[str], text: str, words: tuple[str, ...]
) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)`` for a pattern whose every match starts with one of ``words``.

    The pattern is tried only where ``str.find`` sees one of the words, resuming after each
    match as ``finditer`` does, so the matches are the same - without the regex engine visiting
    every character of a long response (it cannot skip ahead on its own when the pattern opens
    with a group or a word boundary).
    """
    starts: set[int] = set()
    if len(words) > 1:
        # every occurrence of every word (overlapping ones too) in one Aho-Corasick pass
        found = _starts_automaton(words).find_matches_as_indexes(text, overlapping=True)
        starts = {start for _, start, _ in found}
    else:
        for word in words:
            pos = text.find(word)
            while pos >= 0:
                starts.add(pos)
                pos = text.find(word, pos + 1)
    cursor = 0
    for pos in sorted(starts):
        if pos < cursor:
            continue
        match = pattern.match(text, pos)
        if match is not None:
            yield match
            cursor = max(match.end(), pos + 1)


_AUTOMATA: dict[tuple[str, ...], AhoCorasick] = {}


def _starts_automaton(words: tuple[str, ...]) -> AhoCorasick:
    """An automaton finding each of ``words`` (kept per tuple of words; a few dozen at most)."""
    automaton = _AUTOMATA.get(words)
    if automaton is None:
        if len(_AUTOMATA) >= 256:
            _AUTOMATA.clear()
        automaton = _AUTOMATA[words] = AhoCorasick(list(words), matchkind=MatchKind.Standard)
    return automaton


def find_after(pattern: re.Pattern[str], text: str, mark: str) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)`` for a pattern whose every match starts right after ``mark``
    (it opens with a look-behind for it): tried only there, resuming after each match as
    ``finditer`` does, so the matches are the same."""
    cursor = 0
    pos = text.find(mark)
    while pos >= 0:
        start = pos + len(mark)
        if start >= cursor:
            match = pattern.match(text, start)
            if match is not None:
                yield match
                cursor = max(match.end(), start + 1)
        pos = text.find(mark, pos + 1)


def at_line_starts(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)`` for a pattern whose every match is non-empty and starts at a
    line start (it opens with ``^`` under ``re.MULTILINE``): tried only at the text's start and
    after each line break, resuming after each match as ``finditer`` does, so the matches are the
    same - the regex engine would otherwise test every character for a line start."""
    cursor = 0
    start = 0
    while start >= 0:
        if start >= cursor:
            match = pattern.match(text, start)
            if match is not None:
                yield match
                cursor = match.end()
        start = text.find("\n", start)
        if start >= 0:
            start += 1


def trie_pattern(words: list[str]) -> str:
    """A prefix-factored alternation ("a(?:pr|nnual)..."): the regex engine then rejects most
    positions after one character instead of trying every word in turn."""
    trie: dict[str, Any] = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict[str, Any]) -> str:
        branches = [re.escape(ch) + build(sub) for ch, sub in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return build(trie)


def trie_after(words: list[str], before: str) -> str:
    """``(?<!before)(?:trie_pattern(words))`` - the words where no character of the class
    ``before`` precedes them - written to scan fast: the look-behind follows each first
    character (``c(?<!{before}c)`` for ``(?<!{before})c``), so every top-level alternative opens
    with a literal and the regex engine skips ahead to the characters that can start a match.
    The same matches at every position: only the alternative of that position's character can
    match there, and it is the same sub-trie as ``trie_pattern``'s."""
    groups: dict[str, list[str]] = {}
    for word in words:
        if not word:
            raise ValueError("trie_after needs non-empty words")
        groups.setdefault(word[0], []).append(word[1:])
    parts = [
        f"{re.escape(c)}(?<!{before}{re.escape(c)}){trie_pattern(rests)}"
        for c, rests in sorted(groups.items())
    ]
    return "(?:" + "|".join(parts) + ")"
