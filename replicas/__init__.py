"""replica-kit: RL environments that replicate enterprise systems.

Public API::

    import replicas
    snap = replicas.ensure_snapshot("ecommerce", seed=7)       # cached build
    env = replicas.make("ecommerce.revenue_period-v1.s1.0")    # one episode's environment
    replicas.check_env(env)

Names are imported on first use (PEP 562), so ``import replicas`` — and every command-line call
that only lists things — stays cheap. Gymnasium ids (``replicas/<task id>``) are registered here
when Gymnasium is already imported, and always by ``replicas.env`` (see ``replicas.gym_ids``).
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

from replicas._version import __version__
from replicas.gym_ids import register_gym_envs

if "gymnasium" in sys.modules:  # importing Gymnasium just to register would cost ~0.3 s
    register_gym_envs()

if TYPE_CHECKING:
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

_EXPORTS: dict[str, str] = {
    "BuildError": "replicas.build",
    "BuildKey": "replicas.build",
    "Snapshot": "replicas.build",
    "ensure_snapshot": "replicas.build",
    "Env": "replicas.env",
    "EnvCheckError": "replicas.env",
    "check_env": "replicas.env",
    "make": "replicas.env",
    "ReplicaSpec": "replicas.replica",
    "all_replicas": "replicas.replica",
    "get_replica": "replicas.replica",
    "register_replica": "replicas.replica",
    "Task": "replicas.tasks",
    "TaskFamily": "replicas.tasks",
    "all_families": "replicas.tasks",
    "get_family": "replicas.tasks",
    "register_family": "replicas.tasks",
    "task_from_id": "replicas.tasks",
}

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


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'replicas' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
