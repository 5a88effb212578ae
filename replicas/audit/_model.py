"""The audit's records: one check's result, one task's audit, the whole report.

Everything here is frozen data validated by pydantic on construction, whether built by a check
or read back from ``audit.json`` (see ``replicas/audit/__init__.py`` for the schema): one model
for the writer and every reader (the CLI, tests, users' own scripts). A bad field is a
``ValueError`` naming it.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, get_args

from pydantic import ConfigDict
from pydantic.dataclasses import dataclass

from replicas._version import __version__
from replicas.atomicio import write_text_atomic

Status = Literal["usable", "broken", "leaky", "hackable", "flaky", "ambiguous"]
Outcome = Literal["pass", "fail", "error", "skip"]

SCHEMA_VERSION = 1
AUDIT_FILE = "audit.json"

#: Every task status, best first; the failing ones in precedence order (the first that applies
#: wins when several checks fail): a broken task is reported as broken even if it also leaks.
STATUSES: tuple[str, ...] = get_args(Status)
PRECEDENCE: tuple[str, ...] = ("broken", "leaky", "hackable", "flaky", "ambiguous")
OUTCOMES: tuple[str, ...] = get_args(Outcome)

# Evidence and check data are free-form (checks write what they saw); the rest is typed.
_CONFIG = ConfigDict(arbitrary_types_allowed=True)
_MAX_EVIDENCE = 20
_MAX_EVIDENCE_CHARS = 500


def _short(text: str) -> str:
    text = str(text)
    return text if len(text) <= _MAX_EVIDENCE_CHARS else text[: _MAX_EVIDENCE_CHARS - 1] + "…"


def _jsonable(value: Any, what: str) -> Any:
    try:
        return json.loads(json.dumps(value, allow_nan=False, default=str))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what} must be JSON-serialisable: {exc}") from None


@dataclass(frozen=True, config=_CONFIG)
class CheckResult:
    """What one check found on one task.

    ``outcome`` is ``pass`` / ``fail`` / ``error`` (the check itself crashed — counted as a
    failure, because an unscreened task is not known to be usable) / ``skip`` (does not apply,
    e.g. the dbt check on a question task). ``status`` is the task status a failure implies
    (``None`` when passed or skipped); ``evidence`` says what was seen and where, one line each.
    """

    name: str
    outcome: Outcome
    status: str | None = None
    evidence: tuple[Any, ...] = ()  # made text (and shortened) on construction
    data: Mapping[str, Any] = field(default_factory=dict)
    wall_s: float = 0.0

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {OUTCOMES}, got {self.outcome!r}")
        failed = self.outcome in ("fail", "error")
        if failed and self.status not in PRECEDENCE:
            raise ValueError(
                f"a failed check names a status from {PRECEDENCE}, got {self.status!r}"
            )
        if not failed and self.status is not None:
            raise ValueError("only failed checks carry a status")
        if not math.isfinite(self.wall_s) or self.wall_s < 0:
            raise ValueError(f"wall_s must be a finite number >= 0, got {self.wall_s!r}")
        evidence = tuple(_short(e) for e in self.evidence)
        if len(evidence) > _MAX_EVIDENCE:
            evidence = (
                *evidence[: _MAX_EVIDENCE - 1],
                f"… and {len(evidence) - _MAX_EVIDENCE + 1} more",
            )
        object.__setattr__(self, "evidence", evidence)
        data = _jsonable(dict(self.data), f"data of check {self.name}")
        object.__setattr__(self, "data", MappingProxyType(data))

    @property
    def failed(self) -> bool:
        return self.outcome in ("fail", "error")

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "status": self.status,
            "evidence": list(self.evidence),
            "data": dict(self.data),
            "wall_s": round(self.wall_s, 4),
        }

    @classmethod
    def from_dict(cls, name: str, data: Mapping[str, Any]) -> CheckResult:
        _require_object(data, f"check {name}")
        outcome: Any = data.get("outcome")  # an unknown or absent outcome is pydantic's error
        return cls(
            name=name,
            outcome=outcome,
            status=data.get("status"),
            evidence=tuple(data.get("evidence") or ()),
            data=data.get("data") or {},
            wall_s=data.get("wall_s", 0.0),
        )


def _require_object(value: Any, what: str) -> None:
    if not isinstance(value, Mapping):
        raise ValueError(f"{what} must be a JSON object, got {type(value).__name__}")


def combine_status(checks: Iterable[CheckResult]) -> str:
    """The task's status: the highest-precedence status among failed checks, else usable."""
    found = {c.status for c in checks if c.failed}
    for status in PRECEDENCE:
        if status in found:
            return status
    return "usable"


@dataclass(frozen=True, config=_CONFIG)
class TaskAudit:
    """The audit of one task: its status and every check's result (in registry order)."""

    task_id: str
    replica: str
    family: str
    answer_kind: str
    difficulty: str
    checks: tuple[CheckResult, ...]
    wall_s: float = 0.0
    status: str = field(default="")

    def __post_init__(self) -> None:
        checks = tuple(self.checks)
        object.__setattr__(self, "checks", checks)
        status = combine_status(checks)
        if self.status and self.status != status:
            raise ValueError(
                f"{self.task_id}: status {self.status!r} contradicts checks ({status})"
            )
        object.__setattr__(self, "status", status)

    @property
    def usable(self) -> bool:
        return self.status == "usable"

    @property
    def failed_checks(self) -> tuple[CheckResult, ...]:
        return tuple(c for c in self.checks if c.failed)

    def check(self, name: str) -> CheckResult:
        for result in self.checks:
            if result.name == name:
                return result
        raise KeyError(f"{self.task_id}: no check {name!r} was run")

    def to_dict(self) -> dict[str, Any]:
        return {
            "task_id": self.task_id,
            "replica": self.replica,
            "family": self.family,
            "answer_kind": self.answer_kind,
            "difficulty": self.difficulty,
            "status": self.status,
            "failed_checks": [c.name for c in self.failed_checks],
            "checks": {c.name: c.to_dict() for c in self.checks},
            "wall_s": round(self.wall_s, 4),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TaskAudit:
        _require_object(data, "a task audit")
        checks = data.get("checks")
        if not isinstance(checks, Mapping):
            raise ValueError(f"checks of {data.get('task_id')!r} must be a JSON object")
        # absent or mistyped identity fields are pydantic's errors, naming the field
        identity: dict[str, Any] = {
            name: data.get(name)
            for name in ("task_id", "replica", "family", "answer_kind", "difficulty")
        }
        return cls(
            **identity,
            checks=tuple(CheckResult.from_dict(n, c) for n, c in checks.items()),
            wall_s=data.get("wall_s", 0.0),
            status=data.get("status", ""),
        )


@dataclass(frozen=True, config=_CONFIG)
class AuditReport:
    """The audit of a set of tasks. ``config`` records how it was run (suite, seeds, workers)."""

    tasks: tuple[TaskAudit, ...]
    config: Mapping[str, Any] = field(default_factory=dict)
    wall_s: float = 0.0
    kit_version: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "tasks", tuple(self.tasks))
        ids = [t.task_id for t in self.tasks]
        if len(set(ids)) != len(ids):
            raise ValueError("an audit report lists a task twice")
        object.__setattr__(self, "config", MappingProxyType(_jsonable(dict(self.config), "config")))
        if not self.kit_version:
            object.__setattr__(self, "kit_version", __version__)

    # ---- queries -------------------------------------------------------------------------

    @property
    def all_usable(self) -> bool:
        return all(t.usable for t in self.tasks)

    def not_usable(self) -> list[TaskAudit]:
        return [t for t in self.tasks if not t.usable]

    def task(self, task_id: str) -> TaskAudit:
        for audit in self.tasks:
            if audit.task_id == task_id:
                return audit
        raise KeyError(f"task {task_id!r} is not in this audit")

    def status_counts(self) -> dict[str, int]:
        counts = Counter(t.status for t in self.tasks)
        return {s: counts.get(s, 0) for s in STATUSES}

    def family_counts(self) -> dict[str, dict[str, int]]:
        out: dict[str, Counter[str]] = {}
        for audit in self.tasks:
            out.setdefault(audit.family, Counter())[audit.status] += 1
        return {f: {s: c.get(s, 0) for s in STATUSES} for f, c in sorted(out.items())}

    def check_timings(self) -> dict[str, float]:
        totals: dict[str, float] = {}
        for audit in self.tasks:
            for check in audit.checks:
                totals[check.name] = totals.get(check.name, 0.0) + check.wall_s
        return {name: round(total, 3) for name, total in totals.items()}

    # ---- serialisation -------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "kind": "replicas.audit",
            "kit_version": self.kit_version,
            "config": dict(self.config),
            "summary": {
                "tasks": len(self.tasks),
                "usable": sum(t.usable for t in self.tasks),
                "all_usable": self.all_usable,
                "statuses": self.status_counts(),
                "families": self.family_counts(),
            },
            "timings": {"wall_s": round(self.wall_s, 3), "checks_s": self.check_timings()},
            "tasks": [t.to_dict() for t in self.tasks],
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, sort_keys=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AuditReport:
        _require_object(data, "an audit report")
        if data.get("schema_version") != SCHEMA_VERSION:
            raise ValueError(f"unsupported audit schema_version {data.get('schema_version')!r}")
        tasks = data.get("tasks", [])
        if not isinstance(tasks, list):
            raise ValueError(f"tasks must be a list, got {type(tasks).__name__}")
        timings = data.get("timings") or {}
        _require_object(timings, "timings")
        return cls(
            tasks=tuple(TaskAudit.from_dict(t) for t in tasks),
            config=data.get("config") or {},
            wall_s=timings.get("wall_s", 0.0),
            kit_version=data.get("kit_version", ""),
        )

    def write(self, out_dir: str | Path) -> Path:
        """Write ``<out_dir>/audit.json`` atomically (temp file, then rename); returns its path."""
        directory = Path(out_dir)
        directory.mkdir(parents=True, exist_ok=True)
        target = directory / AUDIT_FILE
        return write_text_atomic(target, self.to_json() + "\n")


def read_report(path: str | Path) -> AuditReport:
    """Load an ``audit.json`` (or the directory holding one)."""
    p = Path(path)
    if p.is_dir():
        p = p / AUDIT_FILE
    return AuditReport.from_dict(json.loads(p.read_text(encoding="utf-8")))
