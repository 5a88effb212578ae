"""Build replica snapshots: generate → load → transform (compiled replay or ``dbt build``) → seal.

Public API (everything else in this package is an implementation module):

- :func:`ensure_snapshot` — the cached, verified snapshot of (replica, seed, scale), built when
  absent or damaged; :func:`is_cached`, :func:`export_snapshot`, :func:`build_into`.
- :class:`Snapshot` (with :meth:`Snapshot.verify`), :class:`BuildKey`, :class:`BuildError`,
  :func:`build_info`, :func:`build_timings`, :func:`rich_steps`.
- :func:`build_many` — a seed farm over a process pool or Ray, with a :class:`FarmReport`.
- :func:`code_fingerprint`, :func:`source_closure`, :func:`data_versions` — the code half of the
  cache key.
"""

from __future__ import annotations

from replicas.build.farm import (
    EXECUTORS,
    FarmReport,
    SeedOutcome,
    build_many,
    parse_seeds,
    rich_farm_progress,
)
from replicas.build.fingerprint import (
    DATA_DISTRIBUTIONS,
    code_fingerprint,
    data_versions,
    forget_fingerprints,
    source_closure,
)
from replicas.build.integrity import INTEGRITY
from replicas.build.pipeline import (
    ENGINES,
    StepHook,
    build_into,
    ensure_snapshot,
    export_snapshot,
    is_cached,
    rich_steps,
)
from replicas.build.snapshot import (
    BUILD_INFO,
    DBT_DIR,
    MANIFEST,
    MANIFEST_SCHEMA_VERSION,
    MART_SCHEMA,
    WAREHOUSE,
    BuildError,
    BuildKey,
    Snapshot,
    build_info,
    build_timings,
)

__all__ = [
    "BUILD_INFO",
    "DATA_DISTRIBUTIONS",
    "DBT_DIR",
    "ENGINES",
    "EXECUTORS",
    "INTEGRITY",
    "MANIFEST",
    "MANIFEST_SCHEMA_VERSION",
    "MART_SCHEMA",
    "WAREHOUSE",
    "BuildError",
    "BuildKey",
    "FarmReport",
    "SeedOutcome",
    "Snapshot",
    "StepHook",
    "build_info",
    "build_into",
    "build_many",
    "build_timings",
    "code_fingerprint",
    "data_versions",
    "ensure_snapshot",
    "export_snapshot",
    "forget_fingerprints",
    "is_cached",
    "parse_seeds",
    "rich_farm_progress",
    "rich_steps",
    "source_closure",
]
