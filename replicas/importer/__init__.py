"""Bring your own dbt project: ``replicas import dbt PATH --name NAME``.

Public API: :func:`import_dbt_project`, :class:`ImportRefused`, :class:`ImportResult`,
:class:`ImportSpec`, :func:`load_spec`, :func:`imported_names`, :func:`remove_import`. Loaded
lazily: the replica registry reads ``replicas.importer.store`` on every process start, and must
not pay for dbt, sqlglot and polars to do so.
"""

from __future__ import annotations

import importlib
from typing import Any

_PUBLIC = {
    "ImportRefused": "replicas.importer.steps.project",
    "ImportResult": "replicas.importer.steps.install",
    "ImportSpec": "replicas.importer.schema",
    "import_dbt_project": "replicas.importer.steps.install",
    "imported_names": "replicas.importer.store",
    "load_spec": "replicas.importer.store",
    "remove_import": "replicas.importer.steps.install",
}
__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
