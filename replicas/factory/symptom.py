"""The stakeholder's report of a surviving mutant: what looks wrong, never where the bug is.

Written from the facts validation measured on the seed's visible data (``Outcome.symptom``):
row counts, duplicated keys, a month whose total moved, one example row, a column total that
moved, and the project's own data tests that now fail. It names the graded mart (that is what
the stakeholder looks at) but never the mutated model, file, line or operator; a failing test
attached to the mutated model is left out unless that model is the graded mart itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["describe"]

#: At most this many observations: a report, not a diff.
_MAX_FACTS = 3


def _fmt(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return str(value).lower() if value is not None else "NULL"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return f"{int(value):,}"
        return f"{value:,.2f}"
    return str(value)


def _pct(expected: float, found: float) -> str:
    if expected == 0:
        return "where 0 was expected"
    change = (found - expected) / abs(expected) * 100
    direction = "higher" if change > 0 else "lower"
    return f"{abs(change):.1f} % {direction}"


def _rows(facts: Mapping[str, Any]) -> str | None:
    mart = facts["mart"]
    expected, found = int(facts["rows_expected"]), int(facts["rows_found"])
    if found == 0 and expected:
        return f"{mart} comes out empty; it should have {_fmt(expected)} rows."
    parts = []
    if expected != found:
        parts.append(f"{mart} has {_fmt(found)} rows where {_fmt(expected)} are expected")
    dup = int(facts.get("duplicate_keys") or 0)
    keys = facts.get("keys") or []
    if dup:
        parts.append(f"{_fmt(dup)} {'/'.join(keys)} values appear more than once")
    missing, extra = int(facts.get("missing_rows") or 0), int(facts.get("extra_rows") or 0)
    if missing and expected != found:
        parts.append(f"{_fmt(missing)} expected {'/'.join(keys)} values are missing")
    if extra and expected != found:
        parts.append(f"{_fmt(extra)} unexpected ones are there")
    if not parts:
        return None
    return "; ".join(parts) + "."


def _period(facts: Mapping[str, Any]) -> str | None:
    period = facts.get("period")
    if not period or period.get("expected") is None or period.get("found") is None:
        return None
    expected, found = float(period["expected"]), float(period["found"])
    return (
        f"For {period['month']} (by {period['column']}), {facts['mart']}.{period['measure']} "
        f"adds up to {_fmt(found)}; the reconciled figure is {_fmt(expected)} "
        f"({_pct(expected, found)})."
    )


def _example(facts: Mapping[str, Any]) -> str | None:
    example = facts.get("example")
    if not example:
        return None
    key = ", ".join(f"{k} = {_fmt(v)}" for k, v in example["key"].items())
    changed = [c for c in facts.get("columns", []) if c.get("changed_rows")]
    n = max((int(c["changed_rows"]) for c in changed), default=0)
    return (
        f"{facts['mart']}.{example['column']} is wrong on {_fmt(n)} rows; e.g. for {key} it "
        f"shows {_fmt(example['found'])} but should be {_fmt(example['expected'])}."
    )


def _total(facts: Mapping[str, Any]) -> str | None:
    moved = [
        c
        for c in facts.get("columns", [])
        if c.get("total_expected") is not None
        and c.get("total_found") is not None
        and abs(float(c["total_expected"]) - float(c["total_found"])) > 0.005
    ]
    if not moved:
        return None
    column = max(
        moved,
        key=lambda c: (
            abs(c["total_expected"] - c["total_found"]) / max(abs(c["total_expected"]), 1.0),
            c["column"],
        ),
    )
    expected, found = float(column["total_expected"]), float(column["total_found"])
    return (
        f"The column total of {facts['mart']}.{column['column']} is {_fmt(found)} instead of "
        f"{_fmt(expected)} ({_pct(expected, found)})."
    )


def _tests(caught: Sequence[Mapping[str, Any]], hide: str | None) -> str | None:
    shown = [t for t in caught if not hide or hide not in str(t.get("test", ""))]
    if not shown:
        return None
    names = ", ".join(str(t["test"]) for t in shown[:2])
    more = f" and {len(shown) - 2} more" if len(shown) > 2 else ""
    return f"`dbt test` now fails: {names}{more}."


def describe(
    facts: Mapping[str, Any], caught: Sequence[Mapping[str, Any]], mutated_model: str
) -> str | None:
    """The symptom as a stakeholder would report it, or None when the facts say nothing
    specific (such a survivor makes no fair task: the agent could not tell what is wrong)."""
    if not facts or "mart" not in facts:
        return None
    observations = [
        text
        for text in (_rows(facts), _period(facts), _example(facts), _total(facts))
        if text is not None
    ][:_MAX_FACTS]
    if not observations:
        return None
    hide = None if facts["mart"] == mutated_model else mutated_model
    failing = _tests(caught, hide)
    if failing:
        observations.append(failing)
    return " ".join(observations)
