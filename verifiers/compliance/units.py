"""Cutting a normalised response into units: prose sentences and markdown table cells.

Claims are typed within one unit. A table cell borrows the cue words of its column header (and,
in a row without a card name, of its row label) and the card of its row - or, in a transposed
table (cards as columns), the card of its column and the cue words of its row label. The cue
words themselves are tagged once per response by ``CueIndex``.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from replicas.verifiers.compliance import cue_words
from replicas.verifiers.compliance.mentions import NameMention

# A run of sentence marks before a blank, quote, bracket or the end; or a line break. Written to
# start with one character class so the regex engine skips to candidates at C speed; it matches
# exactly what "[.!?]+(?=[ \t\n\"')\]*]|$)|\n" matches.
_SENTENCE_END = re.compile(r"[.!?\n](?:(?<=\n)|[.!?]*(?=[ \t\n\"')\]*]|$))")
_NO_SPLIT_BEFORE_DOT = frozenset(
    [
        "vs",
        "e.g",
        "i.e",
        "u.s",
        "etc",
        "approx",
        "min",
        "max",
        "no",
        "mo",
        "mos",
        "yr",
        "inc",
        "est",
        "avg",
        "incl",
        "ca",
    ]
)
# Two or more consecutive lines with at least two "|" each: a markdown table.
_TABLE_BLOCK = re.compile(r"(?m)^[^\n|]*\|[^\n|]*\|[^\n]*(?:\n[^\n|]*\|[^\n|]*\|[^\n]*)+")
_TABLE_SEPARATOR = re.compile(r"^[\s|:\-]+$")
_CARD_HEADER = re.compile(r"\b(?:card|product|name)s?\b", re.I)


@dataclass(slots=True)
class Unit:
    """A sentence, list item, heading or table cell; claims are typed within one unit."""

    start: int
    end: int
    context_cues: Sequence[tuple[str, int]] = ()
    cards: tuple[str, ...] | None = None  # preset by a table row/column (None: use the text)
    is_cell: bool = False
    block: tuple[int, int] | None = None  # the whole table a cell belongs to


def _sentence_spans(text: str, start: int, end: int, out: list[tuple[int, int]]) -> None:
    """The sentences of ``text[start:end]``, line by line (a line break always ends one)."""
    pos = start
    while pos < end:
        stop = text.find("\n", pos, end)
        stop = end if stop < 0 else stop + 1
        split = line_sentences(text[pos:stop])
        if len(split) == 1:
            out.append((pos, stop))
        else:
            out += [(pos + lo, pos + hi) for lo, hi in split]
        pos = stop


_SPLITS: dict[str, tuple[tuple[int, int], ...]] = {}
_SPLITS_LIMIT = 50_000


def line_sentences(line: str) -> tuple[tuple[int, int], ...]:
    """``(start, end)`` of the sentences of one line (with its line break, if any); cached, as
    answers repeat their lines."""
    found = _SPLITS.get(line)
    if found is None:
        found = _split_line(line)
        if len(line) <= 2_000:
            if len(_SPLITS) >= _SPLITS_LIMIT:
                _SPLITS.clear()
            _SPLITS[line] = found
    return found


def _split_line(text: str) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    cursor = 0
    end = len(text)
    quotes = '"' in text
    for match in _SENTENCE_END.finditer(text):
        stop = match.start()
        mark = text[stop]
        if mark == "\n":
            out.append((cursor, match.end()))
            cursor = match.end()
            continue
        if quotes and text.count('"', cursor, stop) % 2 == 1:
            continue  # inside a quotation: "0% APR for 24 months!" is not a sentence end
        after_letter = stop > 0 and text[stop - 1].isalpha()
        if (
            not after_letter  # then the stretch cannot be a bare number
            and mark == "."
            and match.end() == stop + 1
            and text[cursor:stop].strip().isdigit()
        ):
            continue  # "1. Atlas Cash": a list number, not a sentence
        if (
            after_letter
            and match.end() - stop < 2  # "18 mo.." ends a sentence after the abbreviation
            and not (stop - 7 >= cursor and text[stop - 7 : stop].isalpha())
        ):
            # "vs." / "e.g." / "U.S." / "min." do not end a sentence (a word of seven letters or
            # more is none of them).
            head = text[max(cursor, stop - 8) : stop].lower()
            word = head.rsplit(None, 1)[-1].lstrip("(*[\"'") if head.strip() else ""
            if word in _NO_SPLIT_BEFORE_DOT or len(word) == 1:
                continue
        if match.end() > cursor:
            out.append((cursor, match.end()))
        cursor = match.end()
    if cursor < end:
        out.append((cursor, end))
    return tuple(out)


def _line_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    spans = []
    pos = start
    for line in text[start:end].split("\n"):
        spans.append((pos, pos + len(line)))
        pos += len(line) + 1
    return spans


def _cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Cell spans of one table row (outer pipes dropped, cell text trimmed)."""
    cells = []
    pos = start
    line = text[start:end]
    parts = line.split("|")
    for index, part in enumerate(parts):
        cell_start, cell_end = pos, pos + len(part)
        pos = cell_end + 1
        if (index == 0 or index == len(parts) - 1) and not part.strip():
            continue
        stripped_left = len(part) - len(part.lstrip())
        stripped_right = len(part) - len(part.rstrip())
        cells.append(
            (cell_start + stripped_left, max(cell_start + stripped_left, cell_end - stripped_right))
        )
    return cells


def _table_blocks(text: str) -> Iterator[re.Match[str]]:
    """``_TABLE_BLOCK.finditer(text)``, tried only at the start of lines holding a "|".

    A block starts at a line start (the pattern's ``^``) on a line with two pipes, so trying the
    pattern there - resuming after each block, as ``finditer`` does - finds the same blocks
    without the regex engine testing every character for a line start.
    """
    cursor = 0
    pipe = text.find("|")
    while pipe >= 0:
        line_start = text.rfind("\n", 0, pipe) + 1
        if line_start >= cursor:
            block = _TABLE_BLOCK.match(text, line_start)
            if block is not None:
                yield block
                cursor = max(block.end(), line_start + 1)
                pipe = text.find("|", cursor)
                continue
        line_end = text.find("\n", pipe)
        if line_end < 0:
            return
        pipe = text.find("|", line_end)


def build_units(text: str, cues: CueIndex, mentions: MentionIndex) -> list[Unit]:
    """Prose sentences and table cells, in document order, covering the whole text."""
    spans, cells = unit_spans(text, cues, mentions)
    return [cells.get(k) or Unit(start, end) for k, (start, end) in enumerate(spans)]


def unit_spans(
    text: str, cues: CueIndex, mentions: MentionIndex
) -> tuple[list[tuple[int, int]], dict[int, Unit]]:
    """``build_units`` as spans, with ``Unit``s only for table cells (index -> cell): most units
    are sentences, which need nothing but their span until they turn out to hold a figure."""
    spans: list[tuple[int, int]] = []
    cells: dict[int, Unit] = {}
    cursor = 0
    if "|" in text:
        for block in _table_blocks(text):
            if block.start() > cursor:
                _sentence_spans(text, cursor, block.start(), spans)
            table: list[Unit] = []
            _table_units(text, cues, _line_spans(text, *block.span()), mentions, table)
            for unit in table:
                cells[len(spans)] = unit
                spans.append((unit.start, unit.end))
            cursor = block.end()
    if cursor < len(text):
        _sentence_spans(text, cursor, len(text), spans)
    return spans, cells


_NEGATABLE = frozenset({cue_words.VARIABLE, cue_words.FIXED})
_NEGATED_BEFORE = re.compile(
    r"(?:\bnot|\brather[ \t]than|\binstead[ \t]of|\bnor)[ \t]{1,3}(?:a[ \t]{1,3})?$"
)


_CUE_SCANS: dict[tuple[str, int, bool], tuple[tuple[str, int], ...]] = {}
_CUE_SCANS_LIMIT = 50_000


class CueIndex:
    """The cue words of the text, tagged on demand per unit, minus those inside card names.

    "Atlas Business Rewards", "Harbor Sky Miles" and "Prism Low Rate" contain reward and rate
    words that say nothing about the value next to them.

    Only units with a figure (and table header and label cells) need their cues, typically a
    fifth of a response, so each requested range is scanned once when first asked for and
    memoised. Ranges are always whole units or cells: their edges sit next to punctuation, a line
    break, a cell separator or blanks, which no cue contains, so scanning a unit alone finds
    exactly the cues a scan of the whole text would find inside it.
    """

    def __init__(self, lower: str, mentions: Sequence[NameMention]) -> None:
        self._lower = lower
        self._spans = [(m.start, m.end) for m in mentions]
        self._starts = [m.start for m in mentions]
        self._after = "after" in lower
        self._memo: dict[tuple[int, int], list[tuple[str, int]]] = {}

    def within(self, start: int, end: int) -> list[tuple[str, int]]:
        """The ``(cue, position)`` pairs in the unit ``[start, end)``, in text order (shared: do
        not mutate)."""
        key = (start, end)
        cues = self._memo.get(key)
        if cues is None:
            cues = self._memo[key] = (
                self._scan_cached(start, end) if not self._starts else (self._scan(start, end))
            )
        return cues

    def _scan_cached(self, start: int, end: int) -> list[tuple[str, int]]:
        """``_scan(start, end)`` (no mentions to drop), kept per text across responses.

        The scan reads ``lower[start - 15 : end]`` and nothing else (the character before a cue,
        the 14 before a negatable one and the word boundary before those), plus whether "after"
        occurs in the text; so that stretch, the offset of ``start`` in it and the flag are the
        key, and the cues found there - positions relative to ``start`` - are the same in every
        text holding the stretch."""
        lo = max(0, start - 15)
        key = (self._lower[lo:end], start - lo, self._after)
        found = _CUE_SCANS.get(key)
        if found is None:
            found = tuple((cue, pos - start) for cue, pos in self._scan(start, end))
            if end - lo <= 2_000:
                if len(_CUE_SCANS) >= _CUE_SCANS_LIMIT:
                    _CUE_SCANS.clear()
                _CUE_SCANS[key] = found
        return [(cue, pos + start) for cue, pos in found]

    def prefetch(self, start: int, end: int, ranges: Sequence[tuple[int, int]]) -> None:
        """Memoise the cues of several units inside ``[start, end)`` with one scan of it.

        Used for the cells of a table row: a cue never spans a "|", so the row's cues split
        by cell are exactly what scanning each cell would find, at one scan's overhead.
        """
        todo = [r for r in ranges if r not in self._memo]
        if not todo:
            return
        cues = self._scan(start, end)
        positions = [pos for _, pos in cues]
        for lo, hi in todo:
            self._memo[(lo, hi)] = cues[bisect_left(positions, lo) : bisect_left(positions, hi)]

    def _scan(self, start: int, end: int) -> list[tuple[str, int]]:
        lower = self._lower
        found: list[tuple[int, str]] = []
        for match in cue_words.CUE_SCAN.finditer(lower, start, end):
            pos = match.start()
            if pos and (lower[pos - 1].isalnum() or lower[pos - 1] in "'-"):
                continue  # inside a word ("separate" is not "rate")
            cue = cue_words.CUE_TYPES[match.group(0)]
            if cue in _NEGATABLE and _NEGATED_BEFORE.search(lower, max(0, pos - 14), pos):
                continue  # "fixed, not variable", "fixed rather than variable"
            if cue == "slash_year":
                if not pos or lower[pos - 1] != "/":
                    continue
                cue = cue_words.ANNUAL  # "$95/year"
            elif cue == cue_words.ANNUAL_FEE:
                found.append((pos, cue_words.ANNUAL))
                cue = cue_words.FEE
            found.append((pos, cue))
        if self._after:
            found.extend(
                (m.start(), cue_words.AFTER)
                for m in cue_words.AFTER_MONTHS.finditer(lower, start, end)
            )
            found.sort()
        if not self._starts:
            return [(cue, pos) for pos, cue in found]
        starts, spans = self._starts, self._spans
        cues: list[tuple[str, int]] = []
        for pos, cue in found:
            k = bisect_right(starts, pos) - 1
            if not (k >= 0 and spans[k][0] <= pos < spans[k][1]):
                cues.append((cue, pos))
        return cues


class MentionIndex:
    """Card mentions in text order with their start positions, for range look-ups."""

    def __init__(self, mentions: Sequence[NameMention]) -> None:
        self.all = list(mentions)
        self.starts = [m.start for m in self.all]
        self._by_card: dict[str, list[int]] | None = None

    def within(self, start: int, end: int) -> list[NameMention]:
        return self.all[bisect_left(self.starts, start) : bisect_left(self.starts, end)]

    def recent_cards(self, upto: int) -> tuple[str, ...]:
        """The cards named by ``all[:upto]``, the one named last first: what
        ``cards_of(reversed(all[:upto]))`` gives, in time bounded by the number of cards rather
        than of mentions (a long text names a few cards thousands of times)."""
        if self._by_card is None:
            self._by_card = {}
            for i, m in enumerate(self.all):
                if m.card_id is not None:
                    self._by_card.setdefault(m.card_id, []).append(i)
        last = []
        for card, where in self._by_card.items():
            k = bisect_left(where, upto)
            if k:
                last.append((where[k - 1], card))
        last.sort(reverse=True)
        return tuple(card for _, card in last)


def _table_units(
    text: str,
    cues: CueIndex,
    rows: Sequence[tuple[int, int]],
    mentions: MentionIndex,
    out: list[Unit],
) -> None:
    """The cells of one table as units: each cell takes its term from its header (the column
    header, or in a transposed table - cards as columns - the row label) and its card from its
    row (or column) only, never from the text around the table."""
    block = (rows[0][0], rows[-1][1])
    header = _cells(text, *rows[0])
    body = [r for r in rows[1:] if not _TABLE_SEPARATOR.match(text[r[0] : r[1]])]
    header_cards = [_cell_cards(mentions, cell) for cell in header]
    column_cues = [
        [] if _CARD_HEADER.search(text[cell[0] : cell[1]]) else _header_cues(text, cues, cell)
        for cell in header
    ]
    ranked_columns = [ranked(cues) for cues in column_cues]
    transposed = any(cards is not None for cards in header_cards[1:])
    # Header cells are units of their own so the names in them are seen, but carry no claims.
    for cell in header:
        out.append(Unit(cell[0], cell[1], is_cell=True, cards=None, block=block))
    body_cells = [_cells(text, *row) for row in body]
    # A table naming no card anywhere (one card's terms under its heading) takes its card from
    # the text around it, like a list would.
    cardless = not transposed and not any(
        _cell_cards(mentions, cell) is not None for cells in body_cells for cell in cells
    )
    # (a cell reads its own words; only header and label cells lend theirs)
    for cells in body_cells:
        if transposed:
            row_label = ranked(_header_cues(text, cues, cells[0])) if cells else ()
            for column, cell in enumerate(cells):
                if column == 0:
                    out.append(Unit(cell[0], cell[1], is_cell=True, cards=(), block=block))
                    continue
                cards = header_cards[column] if column < len(header_cards) else None
                out.append(Unit(cell[0], cell[1], row_label, cards or (), True, block))
            continue
        named = [_cell_cards(mentions, cell) for cell in cells]
        row_cards = next((cards for cards in named if cards is not None), None)
        first_is_label = bool(cells) and named[0] is None
        label_cues = cues.within(*cells[0]) if first_is_label and row_cards is None else []
        for column, cell in enumerate(cells):
            if named[column] is not None:
                # the cell naming the row's card holds no term
                out.append(Unit(cell[0], cell[1], is_cell=True, cards=(), block=block))
                continue
            header_cues = column_cues[column] if column < len(column_cues) else []
            cards = None if cardless else row_cards or ()
            if label_cues:
                lent = ranked(header_cues + label_cues)
            else:
                lent = ranked_columns[column] if column < len(ranked_columns) else ()
            out.append(Unit(cell[0], cell[1], lent, cards, True, block))


# "0% transfers?", "0% APR period": a zero rate in a header names an intro offer column.
_ZERO_RATE = re.compile(r"(?<![\d.])0[ \t]?%|\bzero[ \t-]?(?:percent|%)")


def _header_cues(text: str, cues: CueIndex, cell: tuple[int, int]) -> list[tuple[str, int]]:
    found = cues.within(*cell)
    zero = _ZERO_RATE.search(text, *cell)
    if zero is None:
        return found
    return [*found, (cue_words.INTRO, zero.start())]


def ranked(cues: Sequence[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    """Lent cue words (a header's, a row label's, a question's), in order, at fixed negative
    positions: before the unit and further away than any of its own words. A unit's reading
    then depends on which words it is lent, not on how far away they stand."""
    return tuple((cue, i - 1000) for i, (cue, _) in enumerate(cues))


def _cell_cards(mentions: MentionIndex, cell: tuple[int, int]) -> tuple[str, ...] | None:
    """The card(s) a cell names (``()`` for an unknown product), or None when it names none."""
    found = mentions.within(*cell)
    if not found:
        return None
    return tuple(m.card_id for m in found if m.card_id is not None)
