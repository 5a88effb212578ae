"""Text normalisation for the compliance verifier, with a map back to the original characters.

Responses arrive as chat text, markdown or HTML, sometimes with full-width digits ("０%"), unicode
dashes ("19.99%–29.99%") or zero-width characters an adversary inserts to split a card name. The
extractor works on one canonical string, but every finding must point into the text the agent
actually wrote, so normalisation records which original range each normalised character came from.

The map is a list of segments. A verbatim stretch of text is one 1:1 segment however long it is; a
replacement (an HTML tag, an entity, a full-width character) is one segment mapping its
replacement onto the original range it replaced. Plain ASCII text without markup - the common
case - skips all of this and maps onto itself.
"""

from __future__ import annotations

import html
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from replicas.verifiers.verdict import Span

# Characters an adversary (or a copy-paste) inserts invisibly; removed before matching.
_INVISIBLE = frozenset("\u00ad\u200b\u200c\u200d\u2060\ufeff")
# Trademark marks are dropped so "Summit® Cash" matches "Summit Cash"; NFKC would turn ™ into "TM".
_MARKS = frozenset("®™℠")
_DASHES = frozenset("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d")
_QUOTES = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201a": "'",
    "\u201b": "'",
    "\u2032": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
    "\u2033": '"',
}

# Block-level tags become line breaks (they separate sentences and list items), table cells
# become markdown cell separators, every other tag disappears ("<b>19.99</b>%" -> "19.99%").
_BLOCK_TAGS = frozenset(
    [
        "p",
        "div",
        "br",
        "li",
        "ul",
        "ol",
        "tr",
        "table",
        "thead",
        "tbody",
        "tfoot",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "section",
        "article",
        "blockquote",
        "pre",
        "header",
        "footer",
        "main",
        "dl",
        "dt",
        "dd",
        "caption",
    ]
)
_CELL_TAGS = frozenset({"td", "th"})

# Bounded repetitions keep every pattern linear on adversarial input (1 MB of "<a" or "&").
_SPECIAL = re.compile(
    r"<\s{0,3}(/?)\s{0,3}([A-Za-z][A-Za-z0-9]{0,15})\b[^<>]{0,2000}>"  # an HTML tag
    r"|<![^<>]{0,2000}>"  # comment or doctype
    r"|&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,15});"  # an entity
    r"|[^\x00-\x7f]+"  # a run of non-ASCII characters
)


# Where a ``_SPECIAL`` match can start. The pattern opens with alternatives, so the regex engine
# would try it at every character; this one-class pattern skips to candidates at C speed.
_SPECIAL_START = re.compile("[<&\x80-\U0010ffff]")


def _special_matches(original: str) -> Iterator[re.Match[str]]:
    """``_SPECIAL.finditer(original)``, skipping at C speed to where a match can start.

    From a candidate the regex engine searches on by itself, so a stray "<" or "&" costs what
    it cost before rather than one Python step per character (1 MB of "<" stays fast).
    """
    pos = 0
    while True:
        candidate = _SPECIAL_START.search(original, pos)
        if candidate is None:
            return
        match = _SPECIAL.search(original, candidate.start())
        if match is None:
            return
        yield match
        pos = match.end()


def _normalise_char(ch: str) -> str:
    if ch in _INVISIBLE or ch in _MARKS:
        return ""
    if ch in _DASHES:
        return "-"
    quote = _QUOTES.get(ch)
    if quote is not None:
        return quote
    out = unicodedata.normalize("NFKC", ch)
    # NFKC maps U+00A0 and friends to a space already; fold the remaining space separators too.
    return " " if out.isspace() and out not in "\n\r\t" else out


_CHAR_CACHE: dict[str, str] = {}


def _replacement(ch: str) -> str:
    out = _CHAR_CACHE.get(ch)
    if out is None:
        out = _normalise_char(ch)
        if len(_CHAR_CACHE) < 4096:
            _CHAR_CACHE[ch] = out
    return out


def _emit_run(run: str, start: int, emit: Callable[[str, int, int], None]) -> None:
    """Emit a run of non-ASCII characters: 1:1 stretches as one segment, removed ones merged."""
    i = 0
    n = len(run)
    while i < n:
        rep = _replacement(run[i])
        j = i + 1
        if len(rep) == 1:
            parts = [rep]
            while j < n and len(nxt := _replacement(run[j])) == 1:
                parts.append(nxt)
                j += 1
            emit("".join(parts), start + i, j - i)
        elif not rep:
            while j < n and not _replacement(run[j]):
                j += 1
            emit("", start + i, j - i)
        else:
            emit(rep, start + i, 1)
        i = j


# Closing tags inside a table row add nothing: "<tr><td>A</td><td>B</td></tr>" becomes one line
# " | A | B", so the rows of an HTML table are consecutive pipe lines like a markdown table's.
_ROW_PARTS = frozenset({"tr", "td", "th", "thead", "tbody", "tfoot"})


def _tag_replacement(name: str, closing: bool = False) -> str:
    lowered = name.lower()
    if closing and lowered in _ROW_PARTS:
        return ""
    if lowered in _CELL_TAGS:
        return " | "
    if lowered in _BLOCK_TAGS:
        return "\n"
    return ""


@dataclass(frozen=True)
class NormalizedText:
    """The canonical text the extractor reads and the way back to the original.

    ``segments`` holds ``(norm_start, orig_start, norm_len, orig_len)`` tuples in order; a
    segment with ``norm_len == orig_len`` maps character by character, any other maps as a
    whole. An empty ``segments`` means the identity map.
    """

    original: str
    text: str
    lower: str
    segments: tuple[tuple[int, int, int, int], ...] = ()

    def __post_init__(self) -> None:
        if len(self.lower) != len(self.text):
            raise ValueError("lower-cased text must have the length of the normalised text")
        if not self.segments and self.text != self.original:
            raise ValueError("a normalised text that differs from the original needs segments")

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """The original ``[start, end)`` a normalised range came from (widened to whole replacements)."""
        if not self.segments:
            return start, end
        n_start, o_start, n_len, o_len = self._locate(start)
        orig_start = o_start + min(start - n_start, o_len) if n_len == o_len else o_start
        if end <= start:
            return orig_start, orig_start
        n_start, o_start, n_len, o_len = self._locate(end - 1)
        orig_end = o_start + (end - n_start) if n_len == o_len else o_start + o_len
        return orig_start, max(orig_end, orig_start)

    def _locate(self, pos: int) -> tuple[int, int, int, int]:
        # bisect_right lands past zero-length segments (a removed tag) that share a start with
        # the segment holding ``pos``.
        index = bisect_right(_SegmentKeys(self.segments), pos) - 1
        return self.segments[max(index, 0)]

    def span(self, start: int, end: int) -> Span:
        """A verdict ``Span`` over the original text for the normalised range ``[start, end)``."""
        o_start, o_end = self.to_original(start, end)
        return Span(o_start, o_end, self.original[o_start:o_end])


class _SegmentKeys:
    """A read-only sequence view of segment start positions, so ``bisect`` needs no copy."""

    __slots__ = ("_segments",)

    def __init__(self, segments: tuple[tuple[int, int, int, int], ...]) -> None:
        self._segments = segments

    def __len__(self) -> int:
        return len(self._segments)

    def __getitem__(self, index: int) -> int:
        return self._segments[index][0]


def _lower_same_length(text: str) -> str:
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    # A handful of characters ("İ") lower-case to two; keep one so positions stay aligned.
    return "".join(ch.lower()[:1] or ch for ch in text)


def normalize(original: str) -> NormalizedText:
    """Canonicalise ``original``: HTML stripped, entities decoded, NFKC, dashes and quotes folded.

    Markdown is kept as is (tables stay ``|``-separated so the table reader can use their
    structure); only what would hide a name or a number from the extractor is rewritten.
    """
    if not isinstance(original, str):
        raise ValueError(f"response text must be a string, got {type(original).__name__}")
    if original.isascii() and "<" not in original and "&" not in original:
        return NormalizedText(original, original, original.lower())
    pieces: list[str] = []
    segments: list[tuple[int, int, int, int]] = []
    norm_pos = 0
    orig_pos = 0

    def emit(replacement: str, o_start: int, o_len: int) -> None:
        nonlocal norm_pos
        if segments:
            n0, o0, nl, ol = segments[-1]
            # Merge adjacent 1:1 segments so the map stays small for mostly-verbatim text.
            if (
                nl == ol
                and len(replacement) == o_len
                and n0 + nl == norm_pos
                and o0 + ol == o_start
            ):
                segments[-1] = (n0, o0, nl + o_len, ol + o_len)
                pieces.append(replacement)
                norm_pos += len(replacement)
                return
        segments.append((norm_pos, o_start, len(replacement), o_len))
        pieces.append(replacement)
        norm_pos += len(replacement)

    for match in _special_matches(original):
        start, end = match.span()
        if start > orig_pos:
            emit(original[orig_pos:start], orig_pos, start - orig_pos)
        token = match.group(0)
        if token[0] == "<":
            emit(_tag_replacement(match.group(2) or "", match.group(1) == "/"), start, end - start)
        elif token[0] == "&":
            decoded = html.unescape(token)
            emit(
                "".join(_normalise_char(c) if not c.isascii() else c for c in decoded),
                start,
                end - start,
            )
        else:
            _emit_run(token, start, emit)
        orig_pos = end
    if orig_pos < len(original):
        emit(original[orig_pos:], orig_pos, len(original) - orig_pos)
    if not segments:
        segments.append((0, 0, 0, len(original)))
    text = "".join(pieces)
    return NormalizedText(original, text, _lower_same_length(text), tuple(segments))
