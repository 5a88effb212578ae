"""References to a card by something other than its name: "the Plus version", a short list label
("Plus:", "Standard:"), "the former" / "the latter".

Each resolves against the cards the response named before it; a label that could be several of
them is marked ambiguous, so the figures under it stay unverified rather than going to the card
named last.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.mentions import AMBIGUOUS, EXACT, NameMention, tokens_of
from replicas.verifiers.compliance.spans import SpanIndex
from replicas.verifiers.compliance.vocab import GENERIC_WORDS, PRODUCT_WORDS

if TYPE_CHECKING:  # the index calls these functions; they only read it
    from replicas.verifiers.compliance.names import NameIndex

# "the Plus version", "the 360 card": a tier of the product line named just before.
FORMER_LATTER = re.compile(r"\b[Tt]he[ \t]{1,3}(former|latter)\b")
REFERENCE_WORDS = ("card", "version", "tier", "variant", "edition")
REFERENCE = re.compile(
    r"\b[Tt]he[ \t]{1,3}([A-Z0-9][\w'-]{0,20}|base|basic|standard|original|regular)[ \t]{1,3}"
    r"(?:version|card|tier|variant|edition)\b"
)
# "the Plus has 0% on purchases": a capitalised tier word alone, not followed by another name word
BARE_TIER = re.compile(r"\b[Tt]he[ \t]{1,3}([A-Z0-9][\w'-]{0,20})(?![\w'-])(?![ \t]{1,3}[A-Z0-9])")
# A list item or line opening with a short capitalised label and a colon: "- **Plus:** ...".
# ("Plus:", "2. Base - ...", "| Elite = ..."; a dash or equals sign needs blanks around it)
LABEL = re.compile(
    r"(?m)^[ \t]{0,6}(?:[-*+>\u2022][ \t]{1,3}|\d{1,2}[.)][ \t]{1,3})?(?:\*\*|__|\()?[ \t]{0,2}"
    r"([A-Z0-9](?:[^\W_]|['-]){0,20}(?:[ \t][A-Z0-9](?:[^\W_]|['-]){0,20}){0,2})[ \t]{0,2}"
    r"(?:\*\*|__)?(?:[ \t]{0,2}:|[ \t]{1,2}(?:[-=]|\.{2,4})[ \t]|\)[ \t])"
)
BASE_WORDS = frozenset({"base", "basic", "standard", "original", "regular", "classic"})


# Where REFERENCE or BARE_TIER can match: "the"/"The" before a capital, a digit or a base word.
# (The pattern opens with a character class, so the regex engine skips to each "t"/"T" at C
# speed; the look-behind is the word boundary.)
_THE_CANDIDATE = re.compile(
    r"[Tt](?<![^\W_][Tt])(?<!_[Tt])he[ \t]{1,3}(?=[A-Z0-9]|(?:base|basic|standard|original|regular)\b)"
)


_BASE_AFTER_THE = ("base", "basic", "standard", "original", "regular")


def _the_candidates(text: str) -> list[int]:
    """The matches of ``_THE_CANDIDATE`` (their starts), found from ``_HE_BEFORE_NAME``: its
    literal "he" lets the regex engine skip ahead at C speed, and what follows "he" (blanks, then
    a capital, a digit or a base word) leaves a handful of places in an answer to check, instead
    of every "he" of "the", "they", "when", "there" visited in Python."""
    out = []
    for match in _HE_BEFORE_NAME.finditer(text, 1):
        start = match.start() - 1
        if (
            text[start] in "tT"
            and (start == 0 or not (text[start - 1].isalnum() or text[start - 1] == "_"))
            and _THE_CANDIDATE.match(text, start)
        ):
            out.append(start)
    return out


# "he" + what ``_THE_CANDIDATE`` wants after it; a match ends in that lookahead, so no later "he"
# can start inside one and ``finditer`` visits every "he" that could open a candidate.
_HE_BEFORE_NAME = re.compile(r"he[ \t]{1,3}(?=[A-Z0-9]|(?:base|basic|standard|original|regular)\b)")


def _matches_at(
    pattern: re.Pattern[str], text: str, positions: list[int]
) -> Iterator[re.Match[str]]:
    """``pattern``'s matches that start at ``positions`` (sorted), resuming after each match as
    ``finditer`` does: every match of REFERENCE / BARE_TIER starts at such a position, so these
    are exactly their ``finditer`` matches, found without trying every "the" of the text."""
    cursor = 0
    for pos in positions:
        if pos < cursor:
            continue
        match = pattern.match(text, pos)
        if match is not None:
            yield match
            cursor = max(match.end(), pos + 1)


def _label_lines(text: str) -> list[int]:
    """Starts of the lines holding a label separator (":", " - ", " = ", ".. ", ") "): the only
    lines where LABEL can match."""
    starts: set[int] = set()
    for separator in (":", " - ", " = ", ".. ", ") "):
        pos = text.find(separator)
        while pos >= 0:
            starts.add(text.rfind("\n", 0, pos) + 1)
            # the line is in: look for the separator again from the next line on
            line_end = text.find("\n", pos + 1)
            if line_end < 0:
                break
            pos = text.find(separator, line_end)
    return sorted(starts)


def with_former_latter(text: str, mentions: list[NameMention]) -> list[NameMention]:
    """ "the former" / "the latter": the first / second of the last two cards named."""
    out = list(mentions)
    # the cards named before each phrase, read once in one pass (each phrase read every mention
    # from the start: quadratic on a megabyte of "the latter", 140 s per MB)
    named: list[str] = []
    k = 0
    for match in FORMER_LATTER.finditer(text):
        while k < len(mentions) and mentions[k].end <= match.start():
            m = mentions[k]
            if m.card_id is not None and (not named or named[-1] != m.card_id):
                named.append(m.card_id)
            k += 1
        if len(named) < 2:
            continue
        card_id = named[-2] if match.group(1).lower() == "former" else named[-1]
        out.append(NameMention(match.start(), match.end(), EXACT, card_id, match.group(0)))
    out.sort(key=lambda m: m.start)
    return out


def with_labels(index: NameIndex, text: str, mentions: list[NameMention]) -> list[NameMention]:
    """ "- Plus: $95 annual fee" under "the Summit Cash Plus and the Summit Cash Preferred":
    a list label that is the tail of exactly one card named before it names that card; the
    tail of several is ambiguous."""
    out = list(mentions)
    labels = (LABEL.match(text, pos) for pos in _label_lines(text))
    # read in one pass over the mentions (each label scanned all of them: quadratic on an
    # answer of thousands of "Assistant:" lines, 90 s per MB)
    taken = SpanIndex((m.start, m.end) for m in mentions)
    by_end = sorted((m.end, m.card_id) for m in mentions if m.card_id is not None)
    named: set[str] = set()
    k = 0
    last = -1
    for match in (m for m in labels if m is not None):
        start, end = match.span(1)
        if taken.overlaps(start, end):
            continue
        label = tokens_of(match.group(1))
        if not label or (all(w in GENERIC_WORDS for w in label) and not set(label) <= BASE_WORDS):
            continue
        if start < last:  # labels come in text order; should one not, start over
            named, k = set(), 0
        last = start
        # the cards named (ending) before the label
        while k < len(by_end) and by_end[k][0] <= start:
            named.add(by_end[k][1])
            k += 1
        if len(label) == 1 and label[0] in BASE_WORDS:
            # "Standard:" next to "Plus:": the named card the others extend
            fits = sorted(
                c
                for c in named
                if any(
                    o != c
                    and index.words_by_card[o][: len(index.words_by_card[c])]
                    == index.words_by_card[c]
                    for o in named
                )
            )
        else:
            fits = sorted(
                c
                for c in named
                if len(index.words_by_card[c]) > len(label)
                and index.words_by_card[c][-len(label) :] == label
            )
        if len(fits) == 1:
            out.append(NameMention(start, end, EXACT, fits[0], text[start:end]))
        elif named and all(
            w in index.name_words or w in BASE_WORDS or w in PRODUCT_WORDS for w in label
        ):
            # a card's short name that names no single card here: its figures stay unverified
            # rather than going to the card named last
            out.append(NameMention(start, end, AMBIGUOUS, None, text[start:end]))
    out.sort(key=lambda m: m.start)
    return out


def with_references(index: NameIndex, text: str, mentions: list[NameMention]) -> list[NameMention]:
    """ "The Plus version", "the 360 card", "the base card", "the Plus has ...": a sibling of the
    card just named."""
    out = list(mentions)
    candidates = _the_candidates(text)
    found = [*_matches_at(REFERENCE, text, candidates)]
    found += [
        m for m in _matches_at(BARE_TIER, text, candidates) if m.group(1).lower() in index.tiers
    ]
    for match in found:
        start = match.start(1)
        if any(m.start < match.end() and start < m.end for m in mentions):
            continue
        previous = [m for m in mentions if m.end <= start and m.card_id is not None]
        if not previous:
            continue
        base = index.words_by_card[previous[-1].card_id or ""]
        if len(base) > 1 and base[-1] in index.tiers and base[:-1] in index.card_by_words:
            base = base[:-1]
        word = match.group(1).lower()
        target = base if word in BASE_WORDS else (*base, word)
        card_id = index.card_by_words.get(target)
        if card_id is not None:
            out.append(NameMention(start, match.end(), EXACT, card_id, text[start : match.end()]))
    out.sort(key=lambda m: m.start)
    return out
