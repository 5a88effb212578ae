"""A value computed once per catalog object: catalogs are immutable once built, and a ruleset that
derives something from the whole catalog (ruleset 23's bounds, ruleset 27's fee values) should
not derive it again for every response."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from replicas.verifiers.compliance.catalog import Catalog

T = TypeVar("T")


class PerCatalog(Generic[T]):
    """``compute(catalog)``, remembered per catalog object until the catalog is collected."""

    def __init__(self, compute: Callable[[Catalog], T]) -> None:
        self._compute = compute
        self._held: dict[int, tuple[weakref.ref[Catalog], T]] = {}

    def __call__(self, catalog: Catalog) -> T:
        held = self._held.get(id(catalog))
        if held is not None and held[0]() is catalog:
            return held[1]
        value = self._compute(catalog)
        key = id(catalog)
        self._held[key] = (weakref.ref(catalog, lambda _: self._held.pop(key, None)), value)
        return value


__all__ = ["PerCatalog"]
