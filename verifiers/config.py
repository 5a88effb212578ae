"""The frozen grading configuration a task carries (``Task.verifier``).

One flat dataclass serves every answer kind so that a family author fills in only the fields
that matter for the kind at hand and the whole task stays JSON-serialisable (the on-disk task
cache stores it). Unused fields are simply ignored by the graders of other kinds.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

#: Units a tolerance can be stated in (the empty unit: plain numbers).
UNITS: dict[str, str] = {"": "", "usd": "$", "percentage_points": "", "months": ""}
_UNIT_AFTER = {"percentage_points": " percentage points", "months": " months"}
#: Relative tolerances at or below this are floating-point noise, not a stated allowance.
NOISE_REL_TOL = 1e-9


def _freeze_mapping(value: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return MappingProxyType(dict(value or {}))


@dataclass(frozen=True)
class VerifierConfig:
    """How a submitted answer is compared with the hidden expected answer.

    Numbers (kind ``number``; also numeric table cells and numeric list items):
      ``abs_tol`` / ``rel_tol`` — a value passes when ``|got - want| <= abs_tol`` OR
      ``|got - want| <= rel_tol * |want|`` (so ``want == 0`` needs ``abs_tol``; signs count).
      ``allow_suffixes`` — accept "1.2k", "3.4M", "2 billion" (off by default: an exact figure
      was asked for).
    Tables (kind ``table``):
      ``key_columns`` — rows are matched on these (case-insensitive names); without keys the
      whole row is the identity and rows are compared as a multiset.
      ``column_tolerances`` — per-column absolute tolerance overriding ``abs_tol``.
      ``allow_extra_columns`` — extra submitted columns are ignored instead of failing.
      ``row_order_matters`` — rows must come in the expected order (e.g. "top 10 by revenue").
    Sets / ordered lists / text:
      ``case_sensitive`` — compare items exactly instead of case-folded.
      ``accepted_texts`` — extra spellings accepted for kind ``text``.
    dbt tasks (kind ``dbt``):
      ``dbt_models`` — the models grading rebuilds from the agent's project (with their
      upstream) on a fresh copy of pristine raw data and compares with the reference.
      ``reference_sql`` — model → SQL run on the pristine snapshot giving the reference table;
      a model absent here is compared with the same-named relation of the pristine snapshot.
      ``compare_columns`` — model → columns to compare (default: all reference columns).
      ``hidden_data`` — also rebuild and compare on every hidden dataset of the replica (other
      seeds and edge cases the agent never sees; ``replicas.tasks.hidden``), so pasted rows
      or a model that only works on the visible data fail.
    Wording:
      ``unit`` — what the numbers are (``usd``, ``percentage_points``, ``months`` or empty), so
      :func:`tolerance_sentence` can state the tolerance in the instruction's words.
    """

    abs_tol: float = 0.0
    rel_tol: float = 1e-9
    allow_suffixes: bool = False
    key_columns: tuple[str, ...] = ()
    column_tolerances: Mapping[str, float] = field(default_factory=dict)
    allow_extra_columns: bool = False
    row_order_matters: bool = False
    case_sensitive: bool = False
    accepted_texts: tuple[str, ...] = ()
    dbt_models: tuple[str, ...] = ()
    reference_sql: Mapping[str, str] = field(default_factory=dict)
    compare_columns: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    hidden_data: bool = False
    unit: str = ""

    def __post_init__(self) -> None:
        for name in ("abs_tol", "rel_tol"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
        tolerances = {str(k).lower(): float(v) for k, v in dict(self.column_tolerances).items()}
        for col, tol in tolerances.items():
            if not math.isfinite(tol) or tol < 0:
                raise ValueError(f"column tolerance for {col!r} must be >= 0, got {tol!r}")
        object.__setattr__(self, "column_tolerances", _freeze_mapping(tolerances))
        object.__setattr__(self, "key_columns", tuple(str(c) for c in self.key_columns))
        object.__setattr__(self, "accepted_texts", tuple(str(t) for t in self.accepted_texts))
        object.__setattr__(self, "dbt_models", tuple(str(m) for m in self.dbt_models))
        for model in self.dbt_models:
            if not model.replace("_", "").isalnum():
                raise ValueError(f"dbt model names are identifiers, got {model!r}")
        object.__setattr__(self, "reference_sql", _freeze_mapping(self.reference_sql))
        unknown = set(self.reference_sql) - set(self.dbt_models)
        if unknown:
            raise ValueError(f"reference_sql names models not in dbt_models: {sorted(unknown)}")
        compare = {str(k): tuple(str(c) for c in v) for k, v in dict(self.compare_columns).items()}
        object.__setattr__(self, "compare_columns", _freeze_mapping(compare))
        if not isinstance(self.hidden_data, bool):
            raise ValueError(f"hidden_data must be a bool, got {self.hidden_data!r}")
        if self.unit not in UNITS:
            raise ValueError(f"unit must be one of {sorted(UNITS)}, got {self.unit!r}")

    def tolerance_for(self, column: str) -> float:
        """Absolute tolerance of one table column (falls back to ``abs_tol``)."""
        return float(self.column_tolerances.get(column.lower(), self.abs_tol))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Mapping):
                value = {k: list(v) if isinstance(v, tuple) else v for k, v in value.items()}
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> VerifierConfig:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown verifier config fields: {sorted(unknown)}")
        kwargs: dict[str, Any] = {}
        for name, value in data.items():
            if isinstance(value, list):
                value = tuple(value)
            if name == "compare_columns":
                value = {k: tuple(v) for k, v in value.items()}
            kwargs[name] = value
        return cls(**kwargs)


# ---- the one wording of a tolerance ---------------------------------------------------------


def _amount(value: float, unit: str) -> str:
    return f"{UNITS[unit]}{value:g}{_UNIT_AFTER.get(unit, '')}"


def _precision(value: float, unit: str) -> str:
    """'to the cent' / 'to 2 decimals' when the tolerance is half a unit of a rounding."""
    for decimals in range(0, 7):
        if math.isclose(value, 0.5 * 10**-decimals, rel_tol=1e-9):
            if unit == "usd" and decimals == 2:
                return "to the cent"
            if decimals == 0:
                return "to the unit"
            return f"to {decimals} decimal{'s' if decimals > 1 else ''}"
    return ""


def tolerance_phrase(config: VerifierConfig, abs_tol: float | None = None) -> str:
    """How far a number may be from the exact value, e.g. ``'±$0.005 (to the cent)'``."""
    tol = config.abs_tol if abs_tol is None else abs_tol
    rel = config.rel_tol if config.rel_tol > NOISE_REL_TOL else 0.0
    if tol == 0 and rel == 0:
        return "exact (no difference is accepted)"
    parts = []
    if tol > 0:
        precision = _precision(tol, config.unit)
        parts.append(f"±{_amount(tol, config.unit)}" + (f" ({precision})" if precision else ""))
    if rel > 0:
        parts.append(f"±{rel * 100:g} % of the exact value")
    return " or ".join(parts) + (", whichever is larger" if len(parts) > 1 else "")


def tolerance_sentence(kind: str, config: VerifierConfig) -> str:
    """The sentence every instruction states its grading tolerance with.

    Built from the same :class:`VerifierConfig` the grader uses, so the words and the grading
    cannot drift apart (a test checks the pair for every shipped family).
    """
    if kind == "set":
        return "Tolerance: none: exactly the expected items, each once, in any order."
    if kind == "ordered_list":
        return "Tolerance: none: exactly the expected items, each once, in the expected order."
    if kind in ("table", "dbt"):
        columns = "; ".join(
            f"column {name} within {tolerance_phrase(config, tol)}"
            for name, tol in sorted(config.column_tolerances.items())
        )
        if config.abs_tol == 0 and config.rel_tol <= NOISE_REL_TOL:
            numbers = "every cell must match exactly"
        else:
            numbers = f"numbers within {tolerance_phrase(config)}, every other cell exactly"
        return f"Tolerance: {numbers}" + (f"; {columns}" if columns else "") + "."
    return f"Tolerance: {tolerance_phrase(config)}."
