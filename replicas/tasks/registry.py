"""The family registry: families register where they are defined (``@register_family``).

Lookups import ``replicas.families`` first, so the built-in families are always present without
the caller knowing which modules define them.
"""

from __future__ import annotations

import importlib
from typing import TypeVar

from replicas.registry import Registry
from replicas.tasks.base import FAMILY_RE
from replicas.tasks.family import TaskFamily


def _qualname(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


#: Built-in families register when ``replicas.families`` is imported (on first lookup). A family
#: re-registered by the same class (a module reload) replaces itself; another class under a
#: taken name is an error, because task ids must mean one thing.
FAMILIES: Registry[TaskFamily] = Registry(
    "task family",
    loader=lambda: importlib.import_module("replicas.families"),
    same=lambda old, new: _qualname(type(old)) == _qualname(type(new)),
)

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

    if not FAMILY_RE.match(name) or not name.startswith(replica + "."):
        raise ValueError(f"family name must be '{replica}.<name>-v<N>', got {name!r}")
    if not isinstance(cls.n_variants, int) or cls.n_variants < 1:
        raise ValueError(f"{name}: n_variants must be an int >= 1")
    if cls.make is TaskFamily.make:
        raise ValueError(f"{name}: family must implement make(ctx)")
    try:
        FAMILIES.register(name, cls())
    except ValueError:
        owner = _qualname(type(FAMILIES.get(name)))
        raise ValueError(
            f"family {name!r} already registered by {owner}; bump the version"
        ) from None
    return cls


def unregister_family(name: str) -> None:
    """Remove a family (tests that register throwaway families clean up with this)."""
    FAMILIES.unregister(name)


def get_family(name: str) -> TaskFamily:
    """The registered family ``name``; ValueError naming close matches otherwise."""
    return FAMILIES.get(name)


def all_families(replica: str | None = None) -> list[TaskFamily]:
    """Every registered family (optionally of one replica), sorted by name."""
    return [f for f in FAMILIES.values() if replica is None or f.replica == replica]


def family_names() -> list[str]:
    return FAMILIES.names()
