"""replica-kit: RL environments that replicate enterprise systems.

Public API: build snapshots (``ensure_snapshot``), list replicas, and (as the runtime lands)
make episodes with ``replicas.make(task_id)``.
"""

from __future__ import annotations

from replicas._version import __version__
from replicas.build import BuildError, BuildKey, Snapshot, ensure_snapshot
from replicas.replica import ReplicaSpec, all_replicas, get_replica, register_replica

__all__ = [
    "BuildError",
    "BuildKey",
    "ReplicaSpec",
    "Snapshot",
    "__version__",
    "all_replicas",
    "ensure_snapshot",
    "get_replica",
    "register_replica",
]
