"""replica-kit: RL environments that replicate enterprise systems.

Public API: build snapshots (``ensure_snapshot``), list replicas, and (as the runtime lands)
make episodes with ``replicas.make(task_id)``.
"""

from __future__ import annotations

from replicas._version import __version__
from replicas.build import BuildError, BuildKey, Snapshot, ensure_snapshot
from replicas.env import Env, EnvCheckError, check_env, make
from replicas.replica import ReplicaSpec, all_replicas, get_replica, register_replica
from replicas.tasks import (
    Task,
    TaskFamily,
    all_families,
    get_family,
    register_family,
    task_from_id,
)

__all__ = [
    "BuildError",
    "BuildKey",
    "Env",
    "EnvCheckError",
    "ReplicaSpec",
    "Snapshot",
    "Task",
    "TaskFamily",
    "__version__",
    "all_families",
    "all_replicas",
    "check_env",
    "ensure_snapshot",
    "get_family",
    "get_replica",
    "make",
    "register_family",
    "register_replica",
    "task_from_id",
]
