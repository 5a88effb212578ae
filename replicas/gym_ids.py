"""Gymnasium ids for every task of every shipped suite: ``replicas/<task id>``.

    import gymnasium as gym
    import replicas                      # registers the ids (gymnasium imported first)
    env = gym.make("replicas/ecommerce.revenue_period-v1.s1.0")

Registration is cheap: the ids come from the published suite files (``replicas/suites/*.txt``,
package data) and each entry point is the string ``"replicas.env.core:make"``, so nothing is
built or even imported until ``gymnasium.make`` asks for one environment. ``import replicas``
registers them when Gymnasium is already imported (so a script that imports Gymnasium first
needs nothing else); importing ``replicas.env`` — which any use of an environment does —
always registers them. ``gym.make("replicas.env:replicas/<task id>")`` works in any order.

The task id's own ``-v<N>`` is the family's version; Gymnasium's id grammar reads the whole
task id as the environment *name* (no Gymnasium version), in the namespace ``replicas``.
"""

from __future__ import annotations

from importlib import resources

__all__ = ["ENTRY_POINT", "NAMESPACE", "gym_id", "register_gym_envs", "shipped_task_ids"]

NAMESPACE = "replicas"
ENTRY_POINT = "replicas.env.core:make"
_SUITES_DIR = "suites"


def gym_id(task_id: str) -> str:
    """The Gymnasium id of a task id."""
    return f"{NAMESPACE}/{task_id}"


def shipped_task_ids() -> list[str]:
    """Every task id of every published suite file, in file order, without duplicates.

    Read straight from the package data (not through ``replicas.suite``, which imports the task
    machinery): registering must stay as cheap as reading a few text files.
    """
    ids: dict[str, None] = {}
    folder = resources.files("replicas").joinpath(_SUITES_DIR)
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".txt"):
            continue
        for line in entry.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                ids[line] = None
    return list(ids)


def register_gym_envs() -> int:
    """Register ``replicas/<task id>`` for every shipped task (idempotent); returns the count."""
    import gymnasium  # only here: callers decide whether Gymnasium is worth importing

    registry = gymnasium.envs.registration.registry
    count = 0
    for task_id in shipped_task_ids():
        env_id = gym_id(task_id)
        count += 1
        if env_id in registry:
            continue
        gymnasium.register(
            id=env_id,
            entry_point=ENTRY_POINT,
            kwargs={"task_id": task_id},
            nondeterministic=False,
            disable_env_checker=False,
        )
    return count
