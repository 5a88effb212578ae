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
