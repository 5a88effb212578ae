"""Families of the replicas imported with ``replicas import dbt``: ``NAME.mutant_fix-v1`` and
``NAME.mart_metric-v1`` per import (defined in ``replicas.importer.steps.families``; an import
made in a running process registers its own)."""

from __future__ import annotations

from replicas.importer.steps.families import register_families
from replicas.importer.store import imported_names

for _name in imported_names():
    register_families(_name)
