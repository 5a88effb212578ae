"""A dbt model's SQL as text the factory can mutate without touching its Jinja.

Three pieces:

- :func:`mask` replaces every Jinja span of a model's raw SQL by SQL of *the same length* (an
  identifier placeholder where the span renders to SQL — ``{{ ref('x') }}`` becomes
  ``__jj0_________`` — blanks where it renders to nothing, such as ``{{ config(...) }}``), so
  sqlglot can parse it and every character offset in the masked text is an offset in the raw
  text. A mutation is a list of :class:`Edit` on those offsets; the Jinja stays as it was.
- :class:`Alignment` maps raw offsets onto the model's *compiled* SQL (what dbt rendered), so
  the same edit applied to the compiled SQL gives the mutant's compiled SQL without running dbt:
  the factory validates mutants by executing them in DuckDB.
- :class:`Parsed` is the masked SQL parsed by sqlglot plus its token stream; ``span`` finds the
  text of an AST node (sqlglot records positions of identifiers, literals and function names;
  the span is grown to balanced parentheses and the keywords that own the node).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from sqlglot import exp, parse_one
from sqlglot.dialects.duckdb import DuckDB
from sqlglot.errors import ParseError, TokenError
from sqlglot.tokens import Token, TokenType

if TYPE_CHECKING:
    # sqlglot 30 types AST nodes as Expr (Expression became one subclass of it); annotations
    # only, so older sqlglot (no Expr) still imports this module.
    from sqlglot.expressions import Expr as Node

__all__ = [
    "Alignment",
    "Edit",
    "JinjaSpan",
    "MaskedSql",
    "Parsed",
    "Unmutatable",
    "apply_edits",
    "mask",
]

_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.DOTALL)
_BLOCK_OPEN = re.compile(r"^\{%-?\s*(for|if|macro|call|filter|raw)\b")
_SET_BLOCK = re.compile(r"^\{%-?\s*set\s+[\w\s,]+-?%\}$")
_BLOCK_CLOSE = re.compile(r"^\{%-?\s*end(for|if|macro|call|filter|raw|set)\b")
_RELATION = re.compile(r"^\{\{-?\s*(ref|source)\s*\(")
_BLANK_EXPR = re.compile(r"^\{\{-?\s*config\s*\(")
_PLACEHOLDER = re.compile(r"^__jj(\d+)_*$")
_DIALECT = DuckDB()


class Unmutatable(ValueError):
    """The model cannot be mutated safely (unparseable, Jinja the factory cannot mask, …)."""


@dataclass(frozen=True)
class JinjaSpan:
    """One top-level Jinja construct of the raw SQL, ``[start, end)``, and how it was masked.

    ``kind``: ``relation`` (ref/source), ``expr`` (any other ``{{ }}``), ``block`` (a for/if/…
    block with its body), ``blank`` (renders no SQL: config, set, comments).
    """

    start: int
    end: int
    text: str
    kind: str

    @property
    def strips_before(self) -> bool:
        return self.text.startswith(("{{-", "{%-", "{#-"))

    @property
    def strips_after(self) -> bool:
        return self.text.endswith(("-}}", "-%}", "-#}"))


@dataclass(frozen=True)
class Edit:
    """Replace raw ``[start, end)`` by ``text`` (an insertion when start == end)."""

    start: int
    end: int
    text: str

    def __post_init__(self) -> None:
        if not 0 <= self.start <= self.end:
            raise ValueError(f"bad edit range [{self.start}, {self.end})")


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """``text`` with non-overlapping ``edits`` applied (ValueError when they overlap)."""
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    for before, after in itertools.pairwise(ordered):
        if after.start < before.end:
            raise ValueError("edits overlap")
    out = text
    for edit in reversed(ordered):
        out = out[: edit.start] + edit.text + out[edit.end :]
    return out


def _top_level_spans(raw: str) -> list[tuple[int, int, str]]:
    """Jinja tags grouped into top-level constructs (a block with its body is one span)."""
    spans: list[tuple[int, int, str]] = []
    depth = 0
    block_start = 0
    for match in _JINJA.finditer(raw):
        tag = match.group(0)
        opens = bool(_BLOCK_OPEN.match(tag) or _SET_BLOCK.match(tag))
        closes = bool(_BLOCK_CLOSE.match(tag))
        if depth == 0 and opens:
            block_start = match.start()
            depth = 1
            continue
        if depth > 0:
            if opens:
                depth += 1
            elif closes:
                depth -= 1
                if depth == 0:
                    spans.append((block_start, match.end(), "block"))
            continue
        if closes:
            raise Unmutatable(f"unbalanced Jinja block end at offset {match.start()}")
        if tag.startswith("{#") or tag.startswith("{%"):
            spans.append((match.start(), match.end(), "blank"))
        elif _RELATION.match(tag):
            spans.append((match.start(), match.end(), "relation"))
        elif _BLANK_EXPR.match(tag):
            spans.append((match.start(), match.end(), "blank"))
        else:
            spans.append((match.start(), match.end(), "expr"))
    if depth:
        raise Unmutatable("a Jinja block is never closed")
    return spans


def _blank(text: str) -> str:
    return "".join(c if c == "\n" else " " for c in text)


def _placeholder(index: int, length: int, trailing_comma: bool) -> str:
    stem = f"__jj{index}"
    room = length - (1 if trailing_comma else 0)
    if room < len(stem) + 1:
        raise Unmutatable(f"a Jinja span of {length} characters is too short to mask")
    return stem + "_" * (room - len(stem)) + ("," if trailing_comma else "")


@dataclass(frozen=True)
class MaskedSql:
    """Raw model SQL, its same-length masked form and the Jinja spans."""

    raw: str
    masked: str
    spans: tuple[JinjaSpan, ...]

    def span_of_placeholder(self, name: str) -> JinjaSpan | None:
        match = _PLACEHOLDER.match(name)
        if not match:
            return None
        index = int(match.group(1))
        return self.spans[index] if index < len(self.spans) else None

    def touches_jinja(self, start: int, end: int) -> bool:
        """Whether raw ``[start, end)`` overlaps a Jinja span without covering it whole."""
        for span in self.spans:
            overlaps = start < span.end and span.start < end
            covers = start <= span.start and span.end <= end
            if overlaps and not covers:
                return True
        return False

    def unmask(self, text: str) -> str:
        """Masked SQL text (e.g. a rendered sub-expression) with placeholders put back."""

        def back(match: re.Match[str]) -> str:
            span = self.span_of_placeholder(match.group(0))
            return span.text if span is not None and span.kind != "blank" else match.group(0)

        return re.sub(r"__jj\d+_*", back, text)


def mask(raw: str) -> MaskedSql:
    """Mask ``raw``'s Jinja with same-length SQL (see the module docstring)."""
    pieces: list[str] = []
    spans: list[JinjaSpan] = []
    cursor = 0
    for index, (start, end, kind) in enumerate(_top_level_spans(raw)):
        text = raw[start:end]
        spans.append(JinjaSpan(start, end, text, kind))
        pieces.append(raw[cursor:start])
        if kind == "blank":
            pieces.append(_blank(text))
        else:
            # A loop that emits "item," per iteration sits in a list: keep the comma visible.
            body = re.sub(r"\{%-?\s*end\w+\s*-?%\}$", "", text).rstrip()
            trailing = kind == "block" and body.endswith(",")
            pieces.append(_placeholder(index, end - start, trailing))
        cursor = end
    pieces.append(raw[cursor:])
    masked = "".join(pieces)
    if len(masked) != len(raw):
        raise Unmutatable("masking changed the length of the SQL")
    return MaskedSql(raw=raw, masked=masked, spans=tuple(spans))


# --------------------------------------------------------------------------------------------
# raw ↔ compiled


@dataclass(frozen=True)
class _Segment:
    raw_start: int
    raw_end: int
    compiled_start: int


class Alignment:
    """Where each literal (non-Jinja) stretch of the raw SQL sits in the compiled SQL."""

    def __init__(self, masked: MaskedSql, compiled: str) -> None:
        self.masked = masked
        self.compiled = compiled
        self.segments = self._align()

    def _align(self) -> list[_Segment]:
        raw, spans = self.masked.raw, self.masked.spans
        bounds = [0]
        for span in spans:
            bounds.extend((span.start, span.end))
        bounds.append(len(raw))
        segments: list[_Segment] = []
        cursor = 0
        n_literals = len(spans) + 1
        for i in range(n_literals):
            start, end = bounds[2 * i], bounds[2 * i + 1]
            text = raw[start:end]
            if i > 0 and spans[i - 1].strips_after:
                start += len(text) - len(text.lstrip())
            if i < len(spans) and spans[i].strips_before:
                end = max(start, end - (len(text) - len(text.rstrip())))
            piece = raw[start:end]
            if not piece:
                segments.append(_Segment(start, end, cursor))
                continue
            found = self.compiled.find(piece, cursor)
            while found < 0 and i == n_literals - 1 and piece.endswith("\n"):
                # Jinja drops one trailing newline of a template
                piece, end = piece[:-1], end - 1
                found = self.compiled.find(piece, cursor) if piece else cursor
            if found < 0:
                raise Unmutatable("the compiled SQL does not line up with the raw SQL")
            if i > 0:
                gap = self.compiled[cursor:found]
                self._check_gap(spans[i - 1], gap)
            segments.append(_Segment(start, end, found))
            cursor = found + len(piece)
        return segments

    @staticmethod
    def _check_gap(span: JinjaSpan, rendered: str) -> None:
        if span.kind == "blank" and rendered.strip():
            raise Unmutatable(f"{span.text[:40]!r} rendered SQL where none was expected")
        if span.kind == "relation" and not re.fullmatch(r'\s*"[^"]+"(\."[^"]+"){1,2}\s*', rendered):
            raise Unmutatable(f"{span.text[:40]!r} did not render to a relation name")

    def rendered(self, span_index: int) -> str:
        """What Jinja span ``span_index`` rendered to (whitespace stripped)."""
        before = self.segments[span_index]
        after = self.segments[span_index + 1]
        start = before.compiled_start + (before.raw_end - before.raw_start)
        return self.compiled[start : after.compiled_start].strip()

    def to_compiled(self, pos: int) -> int | None:
        """The compiled offset of raw offset ``pos`` (None inside a Jinja span)."""
        spans = self.masked.spans
        for i, seg in enumerate(self.segments):
            if seg.raw_start <= pos <= seg.raw_end:
                return seg.compiled_start + (pos - seg.raw_start)
            nxt = spans[i] if i < len(spans) else None
            if nxt is not None and seg.raw_end < pos <= nxt.start:
                return seg.compiled_start + (seg.raw_end - seg.raw_start)
            if i > 0 and spans[i - 1].end <= pos < seg.raw_start:
                return seg.compiled_start
        return None

    def compile_edits(self, edits: Iterable[Edit]) -> list[Edit]:
        """``edits`` on the raw SQL as edits on the compiled SQL (Unmutatable if impossible)."""
        out = []
        for edit in edits:
            if self.masked.touches_jinja(edit.start, edit.end):
                raise Unmutatable("an edit cuts through a Jinja span")
            start, end = self.to_compiled(edit.start), self.to_compiled(edit.end)
            if start is None or end is None or end < start:
                raise Unmutatable("an edit does not map onto the compiled SQL")
            text = edit.text
            if "__jj" in text:
                text = self._render_placeholders(text)
            out.append(Edit(start, end, text))
        return out

    def _render_placeholders(self, text: str) -> str:
        def back(match: re.Match[str]) -> str:
            span = self.masked.span_of_placeholder(match.group(0))
            if span is None:
                raise Unmutatable(f"unknown placeholder {match.group(0)}")
            return self.rendered(self.masked.spans.index(span))

        return re.sub(r"__jj\d+_*", back, text)


# --------------------------------------------------------------------------------------------
# parsed SQL with token positions

_OPEN = {TokenType.L_PAREN}
_CLOSE = {TokenType.R_PAREN}


class Parsed:
    """The masked SQL parsed by sqlglot (DuckDB dialect) with its token stream."""

    def __init__(self, masked: MaskedSql) -> None:
        self.masked = masked
        self.text = masked.masked
        try:
            self.tokens: list[Token] = list(_DIALECT.tokenize(self.text))
            self.tree = parse_one(self.text, read="duckdb")
        except (ParseError, TokenError, ValueError) as exc:
            raise Unmutatable(f"sqlglot cannot parse the model: {str(exc)[:200]}") from None
        if self.tree is None:
            raise Unmutatable("the model parses to nothing")
        self._by_start = {t.start: i for i, t in enumerate(self.tokens)}
        self._by_end = {t.end: i for i, t in enumerate(self.tokens)}

    # ---- tokens ------------------------------------------------------------------------------

    def token_at(self, start: int) -> int | None:
        return self._by_start.get(start)

    def token_ending(self, end_inclusive: int) -> int | None:
        return self._by_end.get(end_inclusive)

    def word(self, index: int) -> str:
        return self.tokens[index].text.lower() if 0 <= index < len(self.tokens) else ""

    def kind(self, index: int) -> TokenType | None:
        return self.tokens[index].token_type if 0 <= index < len(self.tokens) else None

    def tok_range(self, first: int, last: int) -> tuple[int, int]:
        """Character range ``[start, end)`` of tokens ``first..last`` (inclusive)."""
        return self.tokens[first].start, self.tokens[last].end + 1

    def matching_close(self, open_index: int) -> int | None:
        depth = 0
        for i in range(open_index, len(self.tokens)):
            kind = self.tokens[i].token_type
            if kind in _OPEN:
                depth += 1
            elif kind in _CLOSE:
                depth -= 1
                if depth == 0:
                    return i
        return None

    def depth_at(self, index: int) -> int:
        depth = 0
        for token in self.tokens[:index]:
            if token.token_type in _OPEN:
                depth += 1
            elif token.token_type in _CLOSE:
                depth -= 1
        return depth

    # ---- spans of AST nodes -------------------------------------------------------------------

    @cached_property
    def _positions(self) -> dict[int, tuple[int, int]]:
        out: dict[int, tuple[int, int]] = {}
        for node in self.tree.walk():
            meta = node.meta
            if "start" in meta and "end" in meta:
                out[id(node)] = (int(meta["start"]), int(meta["end"]))
        return out

    def leaf_tokens(self, node: Node) -> tuple[int, int] | None:
        """First and last token index of the positioned nodes inside ``node``."""
        starts: list[int] = []
        ends: list[int] = []
        for sub in node.walk():
            pos = self._positions.get(id(sub))
            if pos is not None:
                starts.append(pos[0])
                ends.append(pos[1])
        if not starts:
            return None
        first, last = self.token_at(min(starts)), self.token_ending(max(ends))
        if first is None or last is None:
            return None
        if self.kind(first) == TokenType.STRING or self.kind(last) == TokenType.STRING:
            # string literal meta covers the quotes; tokens may report the same bounds
            pass
        return first, last

    def node_tokens(self, node: Node) -> tuple[int, int] | None:
        """Token range of ``node``: positioned leaves, grown to balanced parentheses and the
        keywords owning the node (CAST(…), CASE … END, … OVER (…), NOT …, INTERVAL …)."""
        leaves = self.leaf_tokens(node)
        if leaves is None:
            return None
        first, last = leaves
        first, last = self._balance(first, last)
        if isinstance(node, exp.Case):
            first, last = self._grow_case(first, last)
        if isinstance(node, (exp.Window,)) and self.word(last + 1) == "over":
            close = self.matching_close(last + 2) if self.word(last + 2) == "(" else None
            if close is not None:
                last = close
        if isinstance(node, exp.Window):
            while self.word(last + 1) == "over" or self.word(last) == "over":
                break
        if isinstance(node, exp.Cast) and not self._is_dcolon_cast(first, last):
            first, last = self._grow_call(first, last, ("cast", "try_cast"))
        if isinstance(node, exp.Cast) and self.word(last + 1) == "::":
            last += 2
        if isinstance(node, exp.Not) and self.word(first - 1) == "not":
            first -= 1
        if (
            isinstance(node, exp.Paren)
            and self.word(first - 1) == "("
            and self.word(last + 1) == ")"
        ):
            first, last = first - 1, last + 1
        if isinstance(node, exp.Interval) and self.word(first - 1) == "interval":
            first -= 1
            if node.args.get("unit") is not None and self.kind(last + 1) == TokenType.VAR:
                last += 1
        if isinstance(node, exp.Distinct) and self.word(first - 1) == "distinct":
            first -= 1
        return first, last

    def _is_dcolon_cast(self, first: int, last: int) -> bool:
        return self.word(last + 1) == "::"

    def _balance(self, first: int, last: int) -> tuple[int, int]:
        while True:
            depth = 0
            low = 0
            for token in self.tokens[first : last + 1]:
                if token.token_type in _OPEN:
                    depth += 1
                elif token.token_type in _CLOSE:
                    depth -= 1
                    low = min(low, depth)
            if low < 0:
                # a ")" closes something opened before: take in the opener and its callee name
                first -= 1
                while first >= 0 and self.kind(first) not in _OPEN:
                    first -= 1
                if first < 0:
                    return 0, last
                if self.kind(first - 1) in (TokenType.VAR,) or self.word(first - 1) in (
                    "cast",
                    "try_cast",
                    "filter",
                    "over",
                ):
                    first -= 1
                continue
            if depth > 0:
                close = None
                for i in range(last + 1, len(self.tokens)):
                    if self.kind(i) in _OPEN:
                        depth += 1
                    elif self.kind(i) in _CLOSE:
                        depth -= 1
                        if depth == 0:
                            close = i
                            break
                if close is None:
                    return first, last
                last = close
                continue
            return first, last

    def _grow_call(self, first: int, last: int, names: tuple[str, ...]) -> tuple[int, int]:
        i = first - 1
        depth = 0
        while i > 0:
            kind = self.kind(i)
            if kind in _CLOSE:
                depth += 1
            elif kind in _OPEN:
                if depth == 0:
                    if self.word(i - 1) in names:
                        close = self.matching_close(i)
                        if close is not None and close >= last:
                            return i - 1, close
                    return first, last
                depth -= 1
            i -= 1
        return first, last

    def _grow_case(self, first: int, last: int) -> tuple[int, int]:
        depth = 0
        i = first
        while i >= 0:
            word = self.word(i)
            if word == "end" and i != first:
                depth += 1
            elif word == "case":
                if depth == 0:
                    break
                depth -= 1
            i -= 1
        if i < 0:
            return first, last
        start = i
        depth = 0
        for j in range(start, len(self.tokens)):
            word = self.word(j)
            if word == "case":
                depth += 1
            elif word == "end":
                depth -= 1
                if depth == 0:
                    return start, max(j, last)
        return first, last

    def span(self, node: Node) -> tuple[int, int] | None:
        """Character range ``[start, end)`` of ``node`` in the masked (= raw) SQL, checked by
        re-parsing that text: None when it does not give the same expression back."""
        tokens = self.node_tokens(node)
        if tokens is None:
            return None
        start, end = self.tok_range(*tokens)
        try:
            again = parse_one(self.text[start:end], read="duckdb")
        except (ParseError, TokenError, ValueError):
            return None
        if again is None or again.sql("duckdb") != node.sql("duckdb"):
            return None
        return start, end

    def source_text(self, node: Node) -> str | None:
        span = self.span(node)
        return None if span is None else self.text[span[0] : span[1]]
