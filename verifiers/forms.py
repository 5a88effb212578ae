"""The visible forms of an expected answer, and finding them in text.

Leakage is only meaningful for *distinctive* values: the number 3 or the word "none" appears in
every instruction and project, while 123456.78 appearing in one is no accident. A number is
distinctive when, at the precision the task asks for, it has at least 4 significant digits, or a
fractional part and at least 3. Its renderings are the ways a person or a file would write it:
raw, rounded, with thousands separators, as a percentage (0.1234 ↔ 12.34%) — each kept only if
it is itself distinctive. Integer renderings that look like a year (1900–2100) are dropped: the
instruction's dates would match them.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from replicas.verifiers.config import VerifierConfig

MAX_DECIMALS = 6
MIN_TEXT_CHARS = 6
_NUMBER_TEXT = re.compile(
    r"^\s*(?P<cur>\$)?\s*(?P<num>[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[-+]?\.\d+)\s*"
    r"(?P<unit>%|percent|usd|dollars?|months?)?\s*$",
    re.IGNORECASE,
)


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def repr_decimals(value: float) -> int:
    """Decimals of the shortest round-trip rendering of ``value`` (capped)."""
    text = repr(float(value))
    if "e" in text or "E" in text:
        mantissa, _, exponent = text.lower().partition("e")
        decimals = len(mantissa.partition(".")[2].rstrip("0")) - int(exponent)
        return max(0, min(MAX_DECIMALS, decimals))
    return min(MAX_DECIMALS, len(text.partition(".")[2].rstrip("0")))


def tolerance_decimals(config: VerifierConfig) -> int | None:
    """Decimals implied by an absolute tolerance (0.01 → 2, 0.005 → 3), if there is one."""
    if config.abs_tol <= 0:
        return None
    return max(0, min(MAX_DECIMALS, math.ceil(-math.log10(config.abs_tol) - 1e-9)))


def answer_decimals(value: float, config: VerifierConfig | None = None) -> int:
    """The precision an answer is asked at: the tolerance's, else the value's own."""
    own = repr_decimals(value)
    tol = tolerance_decimals(config) if config is not None else None
    return own if tol is None else min(own, tol)


def significant_digits(value: float, decimals: int) -> int:
    """Significant digits of ``value`` written at ``decimals`` (trailing fraction zeros dropped)."""
    text = f"{abs(round(value, decimals)):.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return len(text.replace(".", "").lstrip("0"))


def has_fraction(value: float, decimals: int) -> bool:
    return decimals > 0 and round(value, decimals) != round(value)


def is_distinctive(value: float, decimals: int) -> bool:
    sig = significant_digits(value, decimals)
    return sig >= 4 or (has_fraction(value, decimals) and sig >= 3)


def _looks_like_year(value: float, decimals: int) -> bool:
    return not has_fraction(value, decimals) and 1900 <= abs(round(value)) <= 2100


@dataclass(frozen=True)
class NumberForm:
    """A number at a precision: matched in text by its renderings, in tables by value."""

    value: float
    decimals: int
    note: str = ""

    def renderings(self) -> list[str]:
        out: list[str] = []
        v, d = self.value, self.decimals
        if not is_distinctive(v, d) or _looks_like_year(v, d):
            return out
        texts = {f"{v:.{d}f}"}
        short = f"{round(v, d):.{d}f}".rstrip("0").rstrip(".") if d else f"{v:.0f}"
        texts.add(short)
        if abs(v) >= 1000:
            texts.add(f"{v:,.{d}f}")
            texts.add(f"{round(v, d):,.{d}f}".rstrip("0").rstrip(".") if d else f"{v:,.0f}")
        out.extend(sorted(texts))
        return out


def number_forms(value: float, config: VerifierConfig | None = None) -> list[NumberForm]:
    """The number itself, coarser roundings, and its percentage reading (x100 / ÷100)."""
    d = answer_decimals(value, config)
    forms = [NumberForm(value, d, "as given")]
    for coarser in (d - 1, d - 2):
        if coarser >= 1:
            forms.append(NumberForm(round(value, coarser), coarser, f"rounded to {coarser} dp"))
    if abs(value) < 1 and d >= 2:
        forms.append(NumberForm(value * 100, d - 2, "as a percentage (x100)"))
    if 1 <= abs(value) <= 100 and has_fraction(value, d):
        forms.append(NumberForm(value / 100, min(MAX_DECIMALS, d + 2), "as a fraction (÷100)"))
    return [f for f in forms if is_distinctive(f.value, f.decimals)]


def parse_number_text(text: str) -> float | None:
    """A number written as text ("29.99%", "$1,234.50", "15 months"), else None."""
    match = _NUMBER_TEXT.match(text)
    if not match:
        return None
    try:
        return float(match["num"].replace(",", ""))
    except ValueError:
        return None


def _boundary_pattern(rendering: str, *, numeric: bool) -> re.Pattern[str]:
    body = re.escape(rendering)
    if numeric:
        return re.compile(rf"(?<![\w.,]){body}(?!\d|[.,]\d)")
    left = r"\b" if rendering[:1].isalnum() else ""
    right = r"\b" if rendering[-1:].isalnum() else ""
    return re.compile(rf"{left}{body}{right}", re.IGNORECASE)


def find_numbers(text: str, forms: Sequence[NumberForm]) -> list[str]:
    """Renderings of ``forms`` that occur in ``text`` (as whole numbers, not digit runs)."""
    found: list[str] = []
    for form in forms:
        for rendering in form.renderings():
            percent = form.note.startswith("as a percentage")
            target = rendering + "%" if percent else rendering
            if target in text and _boundary_pattern(target, numeric=True).search(text):
                found.append(f"{target} ({form.note})" if form.note != "as given" else target)
    return list(dict.fromkeys(found))


def number_in_text(text: str, value: float, decimals: int) -> bool:
    """Whether ``value`` is written in ``text`` at ``decimals`` (any rendering, distinctive or
    not: callers use it where another, distinctive cell already anchors the match)."""
    full = f"{value:.{decimals}f}"
    texts = {full, full.rstrip("0").rstrip(".") if decimals else full}
    if abs(value) >= 1000:
        texts.add(f"{value:,.{decimals}f}")
    return any(_boundary_pattern(t, numeric=True).search(text) for t in texts if t in text)


def distinctive_text(value: str) -> bool:
    return len(value.strip()) >= MIN_TEXT_CHARS


def find_text(text: str, value: str) -> bool:
    needle = value.strip()
    if not needle or needle.lower() not in text.lower():
        return False
    return bool(_boundary_pattern(needle, numeric=False).search(text))


def item_text(item: Any) -> str:
    if is_number(item):
        value = float(item)
        return str(int(value)) if value.is_integer() else repr(value)
    return str(item)


def collection_renderings(items: Sequence[Any]) -> list[str]:
    """Ways a whole list/set may be written out contiguously (both given and sorted order)."""
    texts = [item_text(i) for i in items]
    orders = [texts, sorted(texts, key=str.lower)]
    out: list[str] = []
    for order in orders:
        for sep in (", ", ",", "\n", "; ", " | ", "\t"):
            out.append(sep.join(order))
        out.append(json.dumps(order))
        if all(is_number(i) for i in items):
            out.append(
                json.dumps([float(i) if not float(i).is_integer() else int(i) for i in items])
            )
    return list(dict.fromkeys(o for o in out if o))


def find_collection(text: str, items: Sequence[Any]) -> str | None:
    """A contiguous rendering of the whole collection found in ``text`` (case-insensitive)."""
    lowered = text.lower()
    for rendering in collection_renderings(items):
        if rendering.lower() in lowered:
            return rendering
    return None


def normalise_cell(value: Any, decimals: int | None) -> Any:
    """A comparable form of one cell: rounded number, or case-folded trimmed text."""
    if value is None:
        return None
    if is_number(value):
        d = MAX_DECIMALS if decimals is None else decimals
        return ("n", round(float(value), d) + 0.0)
    return ("s", str(value).strip().lower())


def column_decimals(values: Iterable[Any], config: VerifierConfig, column: str) -> int:
    """The precision of an expected table column: its tolerance, else its values' own."""
    tol = config.tolerance_for(column)
    if tol > 0:
        return max(0, min(MAX_DECIMALS, math.ceil(-math.log10(tol) - 1e-9)))
    numbers = [float(v) for v in values if is_number(v)]
    return max((repr_decimals(v) for v in numbers), default=0)


# ---- the one definition of "the answer appears in this text" -------------------------------


def table_parts(expected: Any, config: VerifierConfig) -> tuple[list[int], list[list[Any]]]:
    """Per-column decimals of an expected table, and its rows holding a distinctive number."""
    columns = [str(c) for c in expected["columns"]]
    rows = [list(r) for r in expected["rows"]]
    decimals = [column_decimals([r[i] for r in rows], config, c) for i, c in enumerate(columns)]
    distinct_rows = [
        r
        for r in rows
        if any(is_number(v) and is_distinctive(float(v), decimals[i]) for i, v in enumerate(r))
    ]
    return decimals, distinct_rows


def _cell_in_line(value: Any, decimals: int, line: str) -> bool:
    if value is None:
        return True
    if is_number(value):
        return number_in_text(line, float(value), decimals)
    return str(value).strip().lower() in line


def answer_in_text(kind: str, expected: Any, config: VerifierConfig, text: str) -> list[str]:
    """How the expected answer of a task of ``kind`` shows in ``text`` (empty: it does not).

    Shared by the environment checker (instruction and tool schemas) and the audit's leakage
    check (every file and text surface of the sandbox), so both mean the same by a leak.
    """
    if kind == "number" and is_number(expected):
        return find_numbers(text, number_forms(float(expected), config))
    if kind == "text" and isinstance(expected, str):
        number = parse_number_text(expected)
        if number is not None:
            return find_numbers(text, number_forms(number, config))
        return [repr(expected)] if distinctive_text(expected) and find_text(text, expected) else []
    if kind in ("set", "ordered_list") and isinstance(expected, list) and expected:
        if len(expected) == 1:
            item = expected[0]
            return find_numbers(text, number_forms(float(item), config)) if is_number(item) else []
        found = find_collection(text, expected)
        return [f"the whole answer: {found[:120]!r}"] if found is not None else []
    if kind == "table" and isinstance(expected, dict):
        decimals, rows = table_parts(expected, config)
        lines = text.lower().splitlines()
        if rows and all(
            any(
                all(_cell_in_line(v, decimals[i], line) for i, v in enumerate(row))
                for line in lines
            )
            for row in rows
        ):
            return [f"every expected row ({len(rows)} rows)"]
    return []
