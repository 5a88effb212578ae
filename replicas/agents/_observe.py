"""Reading the text observations of the ``sql`` tool back into rows (for scripted agents).

The sql tool prints ``col | col`` / ``---+---`` / rows / ``(n rows)``. Scripted baselines and the
adversary explore the warehouse through the same text a model sees, so they parse it here.
"""

from __future__ import annotations

import re

_FOOTER = re.compile(r"^\((\d+) rows?\)$|^… \[result truncated")
_NUMERIC_TYPES = ("INT", "DECIMAL", "DOUBLE", "FLOAT", "REAL", "NUMERIC", "HUGEINT", "BIGINT")


def is_error(observation: str) -> bool:
    return observation.lstrip().startswith("ERROR")


def parse_table(observation: str) -> tuple[list[str], list[list[str]]]:
    """Columns and rows (cell text) of a sql observation; ``([], [])`` if it is not a table."""
    if is_error(observation):
        return [], []
    lines = observation.splitlines()
    if len(lines) < 2 or not set(lines[1].replace("+", "").replace(" ", "")) <= {"-"}:
        return [], []
    columns = [c.strip() for c in lines[0].split(" | ")]
    rows: list[list[str]] = []
    for line in lines[2:]:
        if _FOOTER.match(line.strip()):
            break
        cells = [c.strip() for c in line.split(" | ")]
        cells += [""] * (len(columns) - len(cells))
        rows.append(cells[: len(columns)])
    return columns, rows


def column(observation: str, name: str) -> list[str]:
    """One column's cells by (case-insensitive) name; empty when absent."""
    columns, rows = parse_table(observation)
    lowered = [c.lower() for c in columns]
    if name.lower() not in lowered:
        return []
    index = lowered.index(name.lower())
    return [row[index] for row in rows]


def is_numeric_type(type_name: str) -> bool:
    upper = type_name.upper()
    return any(t in upper for t in _NUMERIC_TYPES)


def to_number(cell: str) -> float | None:
    try:
        return float(cell)
    except ValueError:
        return None
