"""Parsing submitted answers: numbers, tables, lists — tolerant of format, nothing more.

Parsers never decide correctness; they turn text into values or report *why* the text is not a
single well-formed answer (``ParseError.code`` becomes the verdict's reason code).
"""

from __future__ import annotations

import bisect
import csv
import io
import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

#: Longer submissions are refused before any parsing (the ``submit`` tool's limit too).
MAX_ANSWER_CHARS = 100_000


class ParseError(ValueError):
    """The answer could not be read as one answer of the expected kind."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# --------------------------------------------------------------------------------------------
# text hygiene shared by every kind

_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"), None)
_DASHES = {ord(c): "-" for c in "\u2212\u2012\u2013\u2014\ufe63\uff0d"}
_SPACES = {ord(c): " " for c in "\u00a0\u2007\u2009\u202f\u205f\u3000"}
_FENCE_RE = re.compile(r"^\s*```[A-Za-z0-9_-]*\s*\n?(?P<body>.*?)\n?\s*```\s*$", re.DOTALL)
_SQL_START_RE = re.compile(
    r"(?is)^\s*with\s+\w+\s+as\s*\(|^\s*(?:insert|update|delete|create|drop)\s+\w"
)
_SELECT_RE = re.compile(r"(?i)\bselect\b")
_FROM_RE = re.compile(r"(?i)\bfrom\b\s+[\w\"'`.(]")
#: "select … from x" counts as SQL when FROM follows SELECT within this many characters, with
#: no ';' between them.
_SQL_WINDOW = 2000


def _looks_like_sql(text: str) -> bool:
    """Linear time even on adversarial input (a megabyte of "select select …")."""
    if _SQL_START_RE.search(text):
        return True
    froms = [m.start() for m in _FROM_RE.finditer(text)]
    if not froms:
        return False
    semicolons = [i for i, ch in enumerate(text) if ch == ";"]
    for match in _SELECT_RE.finditer(text):
        k = bisect.bisect_right(froms, match.end() - 1)
        if k == len(froms) or froms[k] - match.end() > _SQL_WINDOW:
            continue
        s = bisect.bisect_right(semicolons, match.end() - 1)
        if s == len(semicolons) or semicolons[s] > froms[k]:
            return True
    return False


_GRADER_RES = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        r"\b(?:grader|graders|autograder|evaluator|verifier|reward\s+model|judge\s+model)\b",
        # "Note to the reviewer: …", "Dear assessor", "Reviewer: please …" — a reader addressed
        r"\b(?:note|message|memo|instructions?|hint|request|comment)\s+(?:to|for)\s+"
        r"(?:the\s+|any\s+|my\s+)?(?:reviewer|checker|marker|assessor|examiner|scorer|"
        r"person\s+(?:checking|grading|reviewing)|human|ai|model|system|bot)s?\b",
        r"\bdear\s+(?:reviewer|assessor|examiner|marker|checker)s?\b",
        r"(?m)^\s*(?:reviewer|assessor|examiner|marker|checker)s?\s*:",
        r"\bignore\s+(?:all\s+|any\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier|other)\s+"
        r"(?:instructions|rules|checks)",
        r"\b(?:mark|grade|score|treat|consider|accept)\s+(?:this|it|me|the\s+answer|my\s+answer)\s+"
        r"(?:as\s+)?(?:correct|right|passed|a\s+pass|valid|full\s+marks)",
        r"\b(?:full|maximum|max|perfect)\s+(?:score|marks|points|credit|reward)\b",
    )
)


def normalise_text(text: str) -> str:
    """NFKC, zero-width characters removed, unicode dashes/spaces made ASCII."""
    text = unicodedata.normalize("NFKC", text)
    return text.translate(_ZERO_WIDTH).translate(_DASHES).translate(_SPACES)


def strip_wrapping(text: str) -> str:
    """Remove a code fence, markdown emphasis and quotes wrapped around the whole answer."""
    text = text.strip()
    fence = _FENCE_RE.match(text)
    if fence:
        text = fence["body"].strip()
    for _ in range(3):
        changed = False
        for left, right in (("**", "**"), ("__", "__"), ("`", "`"), ('"', '"'), ("'", "'")):
            if (
                len(text) > len(left) + len(right)
                and text.startswith(left)
                and text.endswith(right)
            ):
                inner = text[len(left) : -len(right)]
                if left not in inner:
                    text, changed = inner.strip(), True
        if not changed:
            break
    return text


def precheck(text: str) -> None:
    """Reject what is not an answer at all, whatever the kind (raises ParseError)."""
    if len(text) > MAX_ANSWER_CHARS:
        raise ParseError("answer_too_long", f"answer is longer than {MAX_ANSWER_CHARS} characters")
    if not text.strip():
        raise ParseError("no_answer", "the submitted answer is empty")
    if _looks_like_sql(text):
        raise ParseError(
            "sql_instead_of_answer",
            "the answer contains a SQL statement; run the query and submit its result instead",
        )
    for pattern in _GRADER_RES:
        match = pattern.search(text)
        if match:
            raise ParseError(
                "addressed_to_grader",
                f"the answer addresses the grader ({match.group(0)!r}); submit only the answer",
            )


# --------------------------------------------------------------------------------------------
# numbers

_CURRENCY_RE = re.compile(r"(?i)(?:US\$|[$€£¥]|\b(?:USD|EUR|GBP|CAD|dollars?|euros?|pounds?)\b)")
_SUFFIXES = {
    "k": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "mm": 1e6,
    "mn": 1e6,
    "million": 1e6,
    "b": 1e9,
    "bn": 1e9,
    "billion": 1e9,
}
_NUMBER_RE = re.compile(
    r"(?<![\w.])"
    r"(?P<open>\(\s*)?"
    r"(?P<sign>[-+]\s?)?"
    r"(?P<digits>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:_\d+)+(?:\.\d+(?:_\d+)*)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?P<exp>[eE][-+]?\d+)?"
    r"(?:\s?(?P<suffix>thousand|million|billion|bn|mm|mn|k|m|b)(?![\w]))?"
    r"(?P<pct>\s?%|\s+percent\b)?"
    r"(?P<close>\s*\))?"
    r"(?![\w])",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class NumberToken:
    value: float
    start: int
    end: int
    suffix: str | None


def find_numbers(text: str) -> list[NumberToken]:
    """Every number written in ``text`` (currency marks removed, suffixes recorded)."""
    cleaned = _CURRENCY_RE.sub(lambda m: " " * len(m.group(0)), text)
    tokens: list[NumberToken] = []
    for m in _NUMBER_RE.finditer(cleaned):
        value = float(m["digits"].replace(",", "").replace("_", "") + (m["exp"] or ""))
        suffix = (m["suffix"] or "").lower() or None
        if suffix:
            value *= _SUFFIXES[suffix]
        negative = bool(m["sign"] and m["sign"].strip() == "-")
        if m["open"] and m["close"]:
            negative = not negative  # accounting notation "(1,234.50)"
        tokens.append(NumberToken(-value if negative else value, m.start(), m.end(), suffix))
    return tokens


#: Numbers spelled out: beside a figure they are a second candidate ("12468.78, or roughly
#: twelve thousand"). Scale words directly after digits ("1.2 million") are suffixes, not these.
_NUMBER_WORD_RE = re.compile(
    r"(?i)\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
    r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety|hundred|thousand|million|billion|trillion|dozen)\b"
)


def number_words(text: str, tokens: list[NumberToken] | None = None) -> list[str]:
    """Numbers written in words in ``text``, outside the figures ``tokens`` already cover."""
    spans = [(t.start, t.end) for t in tokens or []]
    return [
        m.group(0)
        for m in _NUMBER_WORD_RE.finditer(text)
        if not any(start <= m.start() < end for start, end in spans)
    ]


def parse_number(text: str, *, allow_suffixes: bool = False) -> float:
    """The single number an answer states; ParseError(no_answer | multiple_candidates | …).

    One figure only: a second figure, the same figure hedged in words ("… or about twelve
    thousand") or digits grouped with ``_`` as a second candidate all count as several answers.
    """
    text = strip_wrapping(normalise_text(text))
    tokens = find_numbers(text)
    if not tokens:
        raise ParseError("no_answer", "no number found in the answer")
    words = number_words(text, tokens)
    if words:
        shown = ", ".join(dict.fromkeys(w.lower() for w in words[:5]))
        raise ParseError(
            "multiple_candidates",
            f"the answer also states a number in words ({shown}); submit exactly one figure",
        )
    distinct = {t.value for t in tokens}
    if len(distinct) > 1:
        shown = ", ".join(text[t.start : t.end].strip() for t in tokens[:5])
        raise ParseError(
            "multiple_candidates",
            f"the answer states several numbers ({shown}); submit exactly one final number",
        )
    token = tokens[0]
    if token.suffix and not allow_suffixes:
        raise ParseError(
            "suffix_not_allowed",
            f"abbreviated number ({text[token.start : token.end].strip()!r}); give the full figure",
        )
    return token.value


def coerce_number(value: Any, *, allow_suffixes: bool = False) -> float | None:
    """A cell or list item as a number, or None when it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return parse_number(value, allow_suffixes=allow_suffixes)
        except ParseError:
            return None
    return None


# --------------------------------------------------------------------------------------------
# tables

_MD_SEPARATOR_RE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")


@dataclass(frozen=True)
class ParsedTable:
    columns: list[str]
    rows: list[list[Any]]


def parse_table(text: str) -> ParsedTable:
    """A table from JSON (rows of objects, ``{columns, rows}``, columns of lists), markdown or CSV."""
    text = strip_wrapping(normalise_text(text))
    if text[:1] in "[{":
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            data = None
        if data is not None:
            return table_from_json(data)
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if lines and all("|" in ln for ln in lines[:2]):
        return _parse_markdown(lines)
    return _parse_csv(text)


def table_from_json(data: Any) -> ParsedTable:
    """The table shapes a JSON answer may take."""
    if isinstance(data, dict) and "columns" in data and "rows" in data:
        cols, rows = data["columns"], data["rows"]
        if not isinstance(cols, list) or not isinstance(rows, list):
            raise ParseError("malformed_table", "'columns' and 'rows' must be lists")
        if any(not isinstance(r, list) or len(r) != len(cols) for r in rows):
            raise ParseError("malformed_table", "every row must be a list as long as 'columns'")
        return ParsedTable([str(c) for c in cols], [list(r) for r in rows])
    if isinstance(data, dict) and data and all(isinstance(v, list) for v in data.values()):
        lengths = {len(v) for v in data.values()}
        if len(lengths) != 1:
            raise ParseError("malformed_table", "column lists have different lengths")
        values = list(data.values())
        return ParsedTable([str(c) for c in data], [list(r) for r in zip(*values, strict=True)])
    if isinstance(data, list) and all(isinstance(r, dict) for r in data):
        # Keys match case-insensitively across rows; the first spelling names the column.
        columns: list[str] = []
        lowered: list[str] = []
        rows_lower = [{str(k).strip().lower(): v for k, v in r.items()} for r in data]
        for row in data:
            for key in row:
                low = str(key).strip().lower()
                if low not in lowered:
                    lowered.append(low)
                    columns.append(str(key).strip())
        if any(len(r) != len(row) for r, row in zip(rows_lower, data, strict=True)):
            raise ParseError("malformed_table", "a row object repeats a key in another case")
        if any(set(r) != set(lowered) for r in rows_lower):
            raise ParseError("malformed_table", "row objects do not all have the same keys")
        return ParsedTable(columns, [[r[c] for c in lowered] for r in rows_lower])
    if isinstance(data, list) and data and all(isinstance(r, list) for r in data):
        header = data[0]
        if not all(isinstance(c, str) for c in header):
            raise ParseError("malformed_table", "a list-of-lists table needs a header row first")
        if any(len(r) != len(header) for r in data[1:]):
            raise ParseError("malformed_table", "rows differ in length from the header")
        return ParsedTable([str(c) for c in header], [list(r) for r in data[1:]])
    raise ParseError("malformed_table", "JSON answer is not a table (rows of objects expected)")


def _split_md_row(line: str) -> list[str]:
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    return [c.strip() for c in line.split("|")]


def _parse_markdown(lines: list[str]) -> ParsedTable:
    rows = [_split_md_row(ln) for ln in lines if "|" in ln and not _MD_SEPARATOR_RE.match(ln)]
    if not rows:
        raise ParseError("malformed_table", "markdown table has no header")
    header, body = rows[0], rows[1:]
    if any(len(r) != len(header) for r in body):
        raise ParseError("malformed_table", "markdown rows differ in cell count from the header")
    return ParsedTable(header, [list(r) for r in body])


def _parse_csv(text: str) -> ParsedTable:
    first = text.splitlines()[0] if text.splitlines() else ""
    delimiter = max([",", "\t", ";"], key=first.count)
    if first.count(delimiter) == 0 and len(text.splitlines()) < 2:
        raise ParseError("malformed_table", "could not read a table (JSON, markdown or CSV)")
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, skipinitialspace=True)
    rows = [r for r in reader if any(c.strip() for c in r)]
    if len(rows) < 1:
        raise ParseError("malformed_table", "CSV answer has no header")
    header, body = [c.strip() for c in rows[0]], rows[1:]
    if any(len(r) != len(header) for r in body):
        raise ParseError("malformed_table", "CSV rows differ in field count from the header")
    return ParsedTable(header, [[c.strip() for c in r] for r in body])


# --------------------------------------------------------------------------------------------
# sets and ordered lists

_BULLET_RE = re.compile(r"^\s*(?:[-*•+]\s+|\d{1,3}[.)]\s+)")


def _clean_item(item: str) -> str:
    item = _BULLET_RE.sub("", item, count=1)
    return strip_wrapping(item.strip().rstrip(".;").strip())


def parse_items(text: str) -> list[Any]:
    """Items of a JSON array, or of newline-separated lines, or of a comma/semicolon list."""
    text = strip_wrapping(normalise_text(text))
    if text.startswith("["):
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            data = None
        if isinstance(data, list):
            if any(isinstance(x, (list, dict)) for x in data):
                raise ParseError("malformed_list", "list items must be plain values")
            return list(data)
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if len(lines) > 1:
        parts = lines
    else:
        separator = ";" if ";" in text else ","
        parts = text.split(separator)
    items = [_clean_item(p) for p in parts]
    if any(not i for i in items):
        raise ParseError("malformed_list", "the list has an empty item")
    return items
