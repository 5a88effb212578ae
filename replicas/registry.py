"""One generic, thread-safe registry: replicas, task families, tools, agents, audit checks and
SFT export formats are all ``Registry[T]`` instances, so they share one duplicate-name rule, one
lazy-loading switch and one error message for unknown names.

A registry may have a *loader* (usually "import the package that defines the built-ins"); it runs
once, the first time anything is looked up, so listing or importing stays cheap until needed.
Tests that register throwaway entries wrap themselves in :meth:`Registry.restoring`.
"""

from __future__ import annotations

import contextlib
import difflib
import threading
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

__all__ = ["Registry"]

T = TypeVar("T")
#: An unknown name lists every known one when there are this few (else only close matches).
_LIST_KNOWN_UP_TO = 12


class Registry(Generic[T]):
    """Named items of one kind (``kind`` appears in error messages: "unknown agent 'x'")."""

    def __init__(
        self,
        kind: str,
        *,
        loader: Callable[[], object] | None = None,
        same: Callable[[T, T], bool] | None = None,
        sort: bool = True,
        list_known_up_to: int = _LIST_KNOWN_UP_TO,
    ) -> None:
        self.kind = kind
        # an unknown name lists every known one when there are at most this many
        self._list_known_up_to = list_known_up_to
        self._sort = sort  # False: items() keeps registration order (e.g. audit run order)
        self._items: dict[str, T] = {}
        self._lock = threading.RLock()
        self._loader = loader
        self._loaded = loader is None
        self._loading = False
        # Re-registering "the same" item (a module reload) replaces it; anything else under a
        # taken name is an error. Default: identity.
        self._same = same or (lambda old, new: old is new)

    # ---- writing ------------------------------------------------------------------------------

    def register(self, name: str, item: T, *, replace: bool = False) -> T:
        """Add ``item`` under ``name``; ``ValueError`` if the name is taken by something else."""
        if not isinstance(name, str) or not name:
            raise ValueError(f"{self.kind} name must be a non-empty string, got {name!r}")
        with self._lock:
            existing = self._items.get(name)
            if existing is not None and not replace and not self._same(existing, item):
                raise ValueError(f"{self.kind} {name!r} is already registered")
            self._items[name] = item
        return item

    def unregister(self, name: str) -> None:
        with self._lock:
            self._items.pop(name, None)

    @contextlib.contextmanager
    def restoring(self) -> Iterator[Registry[T]]:
        """Undo every registration made inside the block (test isolation)."""
        self.ensure_loaded()
        with self._lock:
            saved = dict(self._items)
        try:
            yield self
        finally:
            with self._lock:
                self._items.clear()
                self._items.update(saved)

    # ---- reading ------------------------------------------------------------------------------

    def ensure_loaded(self) -> None:
        """Run the loader once (re-entrant: a loader that registers items may look them up)."""
        if self._loaded:
            return
        with self._lock:
            if self._loaded or self._loading or self._loader is None:
                return
            self._loading = True
            try:
                self._loader()
                self._loaded = True
            finally:
                self._loading = False

    def get(self, name: str) -> T:
        """The item ``name``; ``ValueError`` naming close matches (or every known name)."""
        self.ensure_loaded()
        with self._lock:
            item = self._items.get(name)
            if item is not None:
                return item
            known = [n for n, _ in self.items()]
        close = difflib.get_close_matches(str(name), known, n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        if len(known) <= self._list_known_up_to:
            hint += f"; known {self.kind}s: {', '.join(known) or '(none)'}"
        raise ValueError(f"unknown {self.kind} {name!r}{hint}")

    def find(self, name: str) -> T | None:
        self.ensure_loaded()
        with self._lock:
            return self._items.get(name)

    def names(self) -> list[str]:
        return [name for name, _ in self.items()]

    def items(self) -> list[tuple[str, T]]:
        self.ensure_loaded()
        with self._lock:
            pairs = list(self._items.items())
        return sorted(pairs, key=lambda pair: pair[0]) if self._sort else pairs

    def values(self) -> list[T]:
        return [item for _, item in self.items()]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __contains__(self, name: object) -> bool:
        self.ensure_loaded()
        return name in self._items

    def __len__(self) -> int:
        self.ensure_loaded()
        return len(self._items)

    def __repr__(self) -> str:
        return f"<Registry {self.kind}: {len(self._items)} items>"
