"""The check registry: each check lives in its own module and registers itself here.

A check is a function of one task's :class:`~replicas.audit._context.AuditContext` returning a
:class:`~replicas.audit._model.CheckResult`. It names the task status a failure implies and a
fix hint (what to change in the family), so the CLI's ``--fix-hints`` and the JSON need no
per-check if-chain. Checks share expensive work (the oracle and null episodes, the adversary's
episodes) through the context, never by calling each other.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from replicas.audit._model import PRECEDENCE, CheckResult
from replicas.registry import Registry

if TYPE_CHECKING:
    from replicas.audit._context import AuditContext
    from replicas.tasks import Task

RunFn = Callable[["AuditContext"], CheckResult]
AppliesFn = Callable[["Task"], bool]

#: Built-in check modules, imported on first lookup; their order is the order checks run and
#: appear in reports (cheap, shared episodes first, so later checks reuse them).
_BUILTIN_MODULES: tuple[str, ...] = (
    "replicas.audit.check_oracle",
    "replicas.audit.check_demonstration",
    "replicas.audit.check_null",
    "replicas.audit.check_adversary",
    "replicas.audit.check_leakage",
    "replicas.audit.check_trivial",
    "replicas.audit.check_determinism",
    "replicas.audit.check_seeds",
    "replicas.audit.check_discrimination",
    "replicas.audit.check_dbt",
    "replicas.audit.check_definitions",
)


def _always(task: Task) -> bool:
    return True


@dataclass(frozen=True)
class Check:
    """One registered check.

    ``status`` is what a failure makes the task (a check may name another one of
    :data:`PRECEDENCE` on a specific failure); ``fix_hint`` tells a family author what to
    change; ``applies`` skips the check on tasks it does not fit (recorded as ``skip``).
    """

    name: str
    status: str
    title: str
    fix_hint: str
    run: RunFn
    applies: AppliesFn = field(default=_always)

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[a-z][a-z0-9_]*", self.name):
            raise ValueError(f"check name must be snake_case, got {self.name!r}")
        if self.status not in PRECEDENCE:
            raise ValueError(f"check {self.name}: status must be one of {PRECEDENCE}")
        if not self.title.strip() or not self.fix_hint.strip():
            raise ValueError(f"check {self.name}: title and fix_hint must not be empty")


def _load_builtins() -> None:
    for module in _BUILTIN_MODULES:
        importlib.import_module(module)


#: Checks in run order (registration order); a check re-registered from a reloaded module
#: replaces itself.
CHECKS: Registry[Check] = Registry(
    "audit check",
    loader=_load_builtins,
    same=lambda old, new: old.run.__module__ == new.run.__module__,
    sort=False,
)


def register_check(check: Check) -> Check:
    """Add ``check`` (re-registering the same name from a reloaded module replaces it)."""
    return CHECKS.register(check.name, check)


def all_checks() -> list[Check]:
    """Every registered check, in run order."""
    return CHECKS.values()


def check_names() -> list[str]:
    return [c.name for c in all_checks()]


def get_check(name: str) -> Check:
    return CHECKS.get(name)


def select_checks(names: Iterable[str] | None) -> list[Check]:
    """The checks named (in run order), or all of them; ValueError on an unknown name."""
    if names is None:
        return all_checks()
    wanted = {get_check(n).name for n in names}
    return [c for c in all_checks() if c.name in wanted]


# ---- result constructors used by the check modules ---------------------------------------


def passed(
    name: str, evidence: Sequence[str] = (), data: Mapping[str, Any] | None = None
) -> CheckResult:
    return CheckResult(name, "pass", None, tuple(evidence), dict(data or {}))


def failed(
    name: str,
    status: str,
    evidence: Sequence[str],
    data: Mapping[str, Any] | None = None,
) -> CheckResult:
    return CheckResult(name, "fail", status, tuple(evidence), dict(data or {}))


def skipped(name: str, why: str, data: Mapping[str, Any] | None = None) -> CheckResult:
    return CheckResult(name, "skip", None, (why,), dict(data or {}))
