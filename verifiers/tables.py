"""The table verifier: whole rows compared as a multiset, keyed or in order, never column by
column.

A submitted table (JSON rows, ``{columns, rows}``, markdown or CSV) is read with the expected
table's column types: each cell is brought to its column's type (numbers within tolerance,
booleans, dates, NULL spellings, text case-folded where the config says so), then rows are
matched on the key columns when the task names them, in order when order was asked for, and as
a multiset otherwise. Columns match by name, case-insensitively; a scrambled table cannot pass.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from replicas.verifiers.common import MAX_REPORTED, failure, numbers_match, parse_failure
from replicas.verifiers.config import VerifierConfig
from replicas.verifiers.parse import (
    ParsedTable,
    ParseError,
    coerce_number,
    normalise_text,
    parse_table,
    precheck,
    strip_wrapping,
    table_from_json,
)
from replicas.verifiers.verdict import Reason, Verdict

__all__ = ["canon_text", "check_table", "compare_tables", "redact_expected"]

#: A canonical cell: None, or a (type tag, value) pair — ("n", float), ("b", bool), ("s", str).
Cell = tuple[str, Any] | None
Row = tuple[Cell, ...]

# --------------------------------------------------------------------------------------------
# cells: bring a submitted cell to the type of the expected column

_NULLS = frozenset({"", "null", "none", "nan", "n/a", "na", "<null>", "-"})
_TRUE = frozenset({"true", "t", "yes", "y", "1"})
_FALSE = frozenset({"false", "f", "no", "n", "0"})
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DATETIME_RE = re.compile(
    r"^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)(\.\d+)?(?:Z|[+-]00:?00| UTC)?$"
)


def _column_type(values: Sequence[Any]) -> str:
    kinds = {type(v) for v in values if v is not None}
    if not kinds:
        return "any"
    if kinds <= {bool}:
        return "bool"
    if kinds <= {int, float}:
        return "number"
    return "text"


def _canon_datetime(text: str) -> str:
    m = _DATETIME_RE.match(text)
    if not m:
        return text
    clock = m.group(2) if len(m.group(2)) == 8 else m.group(2) + ":00"
    frac = (m.group(3) or "").rstrip("0").rstrip(".")
    return f"{m.group(1)} {clock}{frac}"


def canon_text(value: Any, config: VerifierConfig) -> str:
    text = " ".join(normalise_text(str(value)).split())
    text = _canon_datetime(text)
    if text.endswith(" 00:00:00"):
        text = text[: -len(" 00:00:00")]
    return text if config.case_sensitive else text.casefold()


def _cell(value: Any, kind: str, config: VerifierConfig) -> Any:
    """Canonical form of one cell: None, ('n', float), ('b', bool) or ('s', text)."""
    if value is None:
        return None
    if isinstance(value, str):
        stripped = strip_wrapping(normalise_text(value))
        if stripped.casefold() in _NULLS and kind != "text":
            return None
        if stripped.casefold() in {"", "null", "none", "<null>"}:
            return None  # CSV and markdown can only spell NULL as an empty cell
        value = stripped
    if isinstance(value, float) and math.isnan(value):
        return None
    if kind == "number":
        number = coerce_number(value, allow_suffixes=config.allow_suffixes)
        return ("n", number) if number is not None else ("s", canon_text(value, config))
    if kind == "bool":
        key = str(value).strip().casefold()
        if isinstance(value, bool):
            return ("b", value)
        if key in _TRUE or key in _FALSE:
            return ("b", key in _TRUE)
        return ("s", key)
    if isinstance(value, bool):
        return ("s", str(value).lower())
    if isinstance(value, (int, float)) and kind == "any":
        return ("n", float(value))
    return ("s", canon_text(value, config))


def _cells_match(got: Any, want: Any, tol: float, config: VerifierConfig) -> bool:
    if got is None or want is None:
        return got is None and want is None
    if got[0] == "n" and want[0] == "n":
        return numbers_match(got[1], want[1], config, abs_tol=tol)
    return bool(got == want)


def _show(cell: Any) -> Any:
    if cell is None:
        return None
    value = cell[1]
    if cell[0] == "n" and float(value).is_integer() and abs(value) < 2**53:
        return int(value)
    return value


# --------------------------------------------------------------------------------------------
# what an agent may read of a table verdict

#: ``<column>: expected <literal>, got`` — a reference cell, as ``_bad_cells`` writes it.
_EXPECTED_CELL = re.compile(
    r"""expected ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^,;|\s]+)(?=, got )"""
)
#: The messages that list reference rows or keys after ``, e.g. ``.
_EXPECTED_EXAMPLES = re.compile(
    r"(expected rows not found|expected keys missing), e\.g\. (?=[\[(])"
)
REDACTED = "(withheld)"


def redact_expected(text: str) -> str:
    """``text`` (a table verdict's feedback or one reason's message) without the reference's
    values: each ``expected <cell>`` becomes ``expected (withheld)`` and the example rows or keys
    of ``missing_rows`` are dropped. Counts, codes, column names and the submitted values stay.

    Why: the terminal observation and an agent-facing server's verdict go to the agent, and a
    published task's answer never changes; an agent with memory (or a session that resets into
    the same task) would otherwise submit the answer it was shown.
    """
    text = _EXPECTED_CELL.sub("expected " + REDACTED, text)
    out: list[str] = []
    pos = 0
    for match in _EXPECTED_EXAMPLES.finditer(text):
        if match.start() < pos:
            continue
        out.append(text[pos : match.start()] + match.group(1))
        pos = _literal_end(text, match.end())
    out.append(text[pos:])
    return "".join(out)


def _literal_end(text: str, start: int) -> int:
    """Index just past the bracketed Python literal (list/tuple repr) starting at ``start``."""
    depth = 0
    quote = ""
    i = start
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


# --------------------------------------------------------------------------------------------
# tables


def _as_table(value: Any) -> ParsedTable:
    if isinstance(value, ParsedTable):
        return value
    if isinstance(value, (dict, list)):
        return table_from_json(value)
    text = str(value)
    precheck(text)
    return parse_table(text)


def check_table(answer: Any, expected: Any, config: VerifierConfig) -> Verdict:
    try:
        got = _as_table(answer)
    except ParseError as err:
        return parse_failure(err)
    return compare_tables(got, expected, config)


def compare_tables(got: Any, want: Any, config: VerifierConfig) -> Verdict:
    """Compare a submitted table with the expected one (both ``{columns, rows}`` or parsed)."""
    try:
        got_t = _as_table(got)
    except ParseError as err:
        return parse_failure(err)
    want_t = table_from_json(want) if not isinstance(want, ParsedTable) else want
    want_cols = [c.lower() for c in want_t.columns]
    got_cols = [str(c).strip().strip('"`').lower() for c in got_t.columns]
    reasons: list[Reason] = []
    dupes = sorted(c for c, n in Counter(got_cols).items() if n > 1)
    if dupes:
        return failure([Reason("duplicate_columns", f"columns appear more than once: {dupes}")])
    missing = [c for c in want_t.columns if c.lower() not in got_cols]
    if missing:
        reasons.append(Reason("missing_columns", f"missing columns: {missing}", expected=missing))
    extra = [c for c, low in zip(got_t.columns, got_cols, strict=True) if low not in want_cols]
    if extra and not config.allow_extra_columns:
        reasons.append(Reason("extra_columns", f"unexpected columns: {extra}", found=extra))
    if reasons:
        return failure(reasons, {"rows_matched": 0.0})

    kinds = [_column_type([r[i] for r in want_t.rows]) for i in range(len(want_cols))]
    tols = [config.tolerance_for(c) for c in want_t.columns]
    order = [got_cols.index(c) for c in want_cols]
    want_rows = [
        tuple(_cell(r[i], kinds[i], config) for i in range(len(kinds))) for r in want_t.rows
    ]
    got_rows = [
        tuple(_cell(r[j], kinds[i], config) for i, j in enumerate(order)) for r in got_t.rows
    ]
    if len(got_rows) != len(want_rows):
        reasons.append(
            Reason(
                "wrong_row_count",
                f"{len(got_rows)} rows submitted, {len(want_rows)} expected",
                expected=len(want_rows),
                found=len(got_rows),
            )
        )
    if config.row_order_matters:
        matched, row_reasons = _compare_ordered(got_rows, want_rows, tols, config, want_t.columns)
    elif config.key_columns:
        matched, row_reasons = _compare_keyed(got_rows, want_rows, tols, config, want_t.columns)
    else:
        matched, row_reasons = _compare_multiset(got_rows, want_rows, tols, config)
    reasons.extend(row_reasons)
    fraction = matched / max(len(want_rows), len(got_rows), 1)
    if not reasons:
        return Verdict(
            score=1.0, passed=True, feedback="Correct.", objective_scores={"rows_matched": 1.0}
        )
    return failure(reasons, {"rows_matched": fraction})


def _rows_match(
    got: tuple[Any, ...], want: tuple[Any, ...], tols: Sequence[float], config: VerifierConfig
) -> bool:
    return all(_cells_match(g, w, t, config) for g, w, t in zip(got, want, tols, strict=True))


def _bad_cells(
    got: tuple[Any, ...],
    want: tuple[Any, ...],
    tols: Sequence[float],
    config: VerifierConfig,
    columns: Sequence[str],
) -> list[str]:
    return [
        f"{c}: expected {_show(w)!r}, got {_show(g)!r}"
        for g, w, t, c in zip(got, want, tols, columns, strict=True)
        if not _cells_match(g, w, t, config)
    ]


def _compare_ordered(
    got: list[Row],
    want: list[Row],
    tols: Sequence[float],
    config: VerifierConfig,
    columns: Sequence[str],
) -> tuple[int, list[Reason]]:
    bad: list[str] = []
    matched = 0
    for i, (g, w) in enumerate(zip(got, want, strict=False)):
        if _rows_match(g, w, tols, config):
            matched += 1
        elif len(bad) < MAX_REPORTED:
            bad.append(f"row {i + 1}: " + "; ".join(_bad_cells(g, w, tols, config, columns)))
    reasons: list[Reason] = []
    if bad:
        as_set, _ = _compare_multiset(got, want, tols, config)
        code = "row_order" if as_set == len(want) == len(got) else "wrong_values"
        msg = (
            "rows are right but not in the requested order"
            if code == "row_order"
            else "; ".join(bad)
        )
        reasons.append(Reason(code, msg))
    return matched, reasons


def _key(row: tuple[Any, ...], idx: Sequence[int]) -> tuple[Any, ...]:
    out = []
    for i in idx:
        cell = row[i]
        if cell is not None and cell[0] == "n" and float(cell[1]).is_integer():
            cell = ("n", float(cell[1]))
        out.append(cell)
    return tuple(out)


def _compare_keyed(
    got: list[Row],
    want: list[Row],
    tols: Sequence[float],
    config: VerifierConfig,
    columns: Sequence[str],
) -> tuple[int, list[Reason]]:
    lower = [c.lower() for c in columns]
    missing_keys = [k for k in config.key_columns if k.lower() not in lower]
    if missing_keys:
        raise ValueError(f"key columns {missing_keys} are not columns of the expected table")
    idx = [lower.index(k.lower()) for k in config.key_columns]
    want_by_key = {_key(r, idx): r for r in want}
    got_by_key: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    dupes = []
    for row in got:
        k = _key(row, idx)
        if k in got_by_key:
            dupes.append(k)
        got_by_key[k] = row
    reasons: list[Reason] = []
    if dupes:
        shown = [tuple(_show(c) for c in k) for k in dupes[:MAX_REPORTED]]
        reasons.append(Reason("duplicate_keys", f"key values appear more than once: {shown}"))
    missing = [k for k in want_by_key if k not in got_by_key]
    extra = [k for k in got_by_key if k not in want_by_key]
    if missing:
        shown = [tuple(_show(c) for c in k) for k in missing[:MAX_REPORTED]]
        reasons.append(
            Reason("missing_rows", f"{len(missing)} expected keys missing, e.g. {shown}")
        )
    if extra:
        shown = [tuple(_show(c) for c in k) for k in extra[:MAX_REPORTED]]
        reasons.append(Reason("extra_rows", f"{len(extra)} unexpected keys, e.g. {shown}"))
    bad: list[str] = []
    matched = 0
    for k, w in want_by_key.items():
        g = got_by_key.get(k)
        if g is None:
            continue
        if _rows_match(g, w, tols, config):
            matched += 1
        else:
            if len(bad) < MAX_REPORTED:
                key_text = ", ".join(str(_show(c)) for c in k)
                bad.append(f"[{key_text}] " + "; ".join(_bad_cells(g, w, tols, config, columns)))
            matched += 0
    n_bad = sum(
        1
        for k, w in want_by_key.items()
        if k in got_by_key and not _rows_match(got_by_key[k], w, tols, config)
    )
    if n_bad:
        reasons.append(
            Reason("wrong_values", f"{n_bad} rows have wrong values: " + " | ".join(bad))
        )
    return matched, reasons


def _exact_signature(row: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(c if c is None or c[0] != "n" else ("n",) for c in row)


_GREEDY_MAX_ROWS = 3000


def _sort_key(row: Row) -> tuple[tuple[int, Any], ...]:
    return tuple(
        (-1, 0) if c is None else ((0, c[1]) if c[0] == "n" else (1, str(c[1]))) for c in row
    )


def _counter_difference(got: Counter[Row], want: Counter[Row]) -> tuple[int, list[Reason]]:
    missing, extra = want - got, got - want
    reasons: list[Reason] = []
    if missing:
        shown = [[_show(c) for c in r] for r in list(missing)[:3]]
        reasons.append(
            Reason("missing_rows", f"{sum(missing.values())} expected rows not found, e.g. {shown}")
        )
    if extra:
        shown = [[_show(c) for c in r] for r in list(extra)[:3]]
        reasons.append(
            Reason("extra_rows", f"{sum(extra.values())} submitted rows not expected, e.g. {shown}")
        )
    return sum(want.values()) - sum(missing.values()), reasons


def _compare_multiset(
    got: list[Row], want: list[Row], tols: Sequence[float], config: VerifierConfig
) -> tuple[int, list[Reason]]:
    # Fast path: identical multisets once numbers are rounded well inside any tolerance.
    def rounded(row: Row) -> Row:
        return tuple(c if c is None or c[0] != "n" else ("n", round(c[1], 9)) for c in row)

    if Counter(map(rounded, got)) == Counter(map(rounded, want)):
        return len(want), []
    # Same rows up to tolerance in the same canonical order: pair them off directly.
    if len(got) == len(want):
        got_sorted, want_sorted = sorted(got, key=_sort_key), sorted(want, key=_sort_key)
        if all(
            _rows_match(g, w, tols, config) for g, w in zip(got_sorted, want_sorted, strict=True)
        ):
            return len(want), []
    if max(len(got), len(want)) > _GREEDY_MAX_ROWS:
        return _counter_difference(Counter(map(rounded, got)), Counter(map(rounded, want)))
    # Tolerant matching: rows must agree exactly on non-numeric cells; numbers within tolerance.
    buckets: dict[tuple[Any, ...], list[int]] = {}
    for j, row in enumerate(got):
        buckets.setdefault(_exact_signature(row), []).append(j)
    used: set[int] = set()
    unmatched_want: list[Row] = []
    for w in want:
        candidates = [j for j in buckets.get(_exact_signature(w), []) if j not in used]
        best = None
        best_dist = math.inf
        for j in candidates:
            g = got[j]
            if _rows_match(g, w, tols, config):
                dist = sum(
                    abs(gc[1] - wc[1])
                    for gc, wc in zip(g, w, strict=True)
                    if gc is not None and wc is not None and gc[0] == "n"
                )
                if dist < best_dist:
                    best, best_dist = j, dist
                    if dist == 0:
                        break
        if best is None:
            unmatched_want.append(w)
        else:
            used.add(best)
    extra = [got[j] for j in range(len(got)) if j not in used]
    matched = len(want) - len(unmatched_want)
    reasons: list[Reason] = []
    if unmatched_want:
        shown = [[_show(c) for c in r] for r in unmatched_want[:3]]
        reasons.append(
            Reason("missing_rows", f"{len(unmatched_want)} expected rows not found, e.g. {shown}")
        )
    if extra:
        shown = [[_show(c) for c in r] for r in extra[:3]]
        reasons.append(
            Reason("extra_rows", f"{len(extra)} submitted rows not expected, e.g. {shown}")
        )
    return matched, reasons
