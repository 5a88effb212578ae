"""The family registry: families register where they are defined (``@register_family``).

Lookups import ``replicas.families`` first, so the built-in families are always present without
the caller knowing which modules define them.
"""

from __future__ import annotations

import difflib
import importlib
import threading
from typing import TypeVar

from replicas.tasks.family import TaskFamily

_FAMILIES: dict[str, TaskFamily] = {}
_LOCK = threading.Lock()
_BUILTINS_LOADED = False

F = TypeVar("F", bound=type[TaskFamily])


def register_family(cls: F) -> F:
    """Class decorator: validate and register one family under its versioned ``name``.

    Re-registering the same class (a module reload) replaces it; another class under a name that
    is already taken is an error, because task ids must mean one thing.
    """
    if not isinstance(cls, type) or not issubclass(cls, TaskFamily):
        raise ValueError("@register_family decorates TaskFamily subclasses")
    name = getattr(cls, "name", None)
    replica = getattr(cls, "replica", None)
    if not isinstance(name, str) or not isinstance(replica, str):
        raise ValueError(f"{cls.__qualname__} must set class attributes 'name' and 'replica'")
    from replicas.tasks.base import _FAMILY_RE

    if not _FAMILY_RE.match(name) or not name.startswith(replica + "."):
        raise ValueError(f"family name must be '{replica}.<name>-v<N>', got {name!r}")
    if not isinstance(cls.n_variants, int) or cls.n_variants < 1:
        raise ValueError(f"{name}: n_variants must be an int >= 1")
    if cls.make is TaskFamily.make:
        raise ValueError(f"{name}: family must implement make(ctx)")
    with _LOCK:
        existing = _FAMILIES.get(name)
        if existing is not None and _qualname(type(existing)) != _qualname(cls):
            raise ValueError(
                f"family {name!r} already registered by {_qualname(type(existing))}; bump the version"
            )
        _FAMILIES[name] = cls()
    return cls


def unregister_family(name: str) -> None:
    """Remove a family (tests that register throwaway families clean up with this)."""
    with _LOCK:
        _FAMILIES.pop(name, None)


def _qualname(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _load_builtins() -> None:
    global _BUILTINS_LOADED
    if not _BUILTINS_LOADED:
        importlib.import_module("replicas.families")
        _BUILTINS_LOADED = True


def get_family(name: str) -> TaskFamily:
    """The registered family ``name``; ValueError naming close matches otherwise."""
    _load_builtins()
    family = _FAMILIES.get(name)
    if family is None:
        close = difflib.get_close_matches(name, list(_FAMILIES), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise ValueError(f"unknown task family {name!r}{hint}")
    return family


def all_families(replica: str | None = None) -> list[TaskFamily]:
    """Every registered family (optionally of one replica), sorted by name."""
    _load_builtins()
    return [f for n, f in sorted(_FAMILIES.items()) if replica is None or f.replica == replica]


def family_names() -> list[str]:
    _load_builtins()
    return sorted(_FAMILIES)
