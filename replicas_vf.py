"""The ``verifiers.v1`` plugin id of replica-kit: ``--env.taskset.id replicas_vf``.

v1's loaders import a taskset by a top-level module name and take the one ``Taskset`` and the
one ``Env`` subclass it exports; the implementation is ``replicas.integrations.verifiers``.
"""

from replicas.integrations.verifiers import ReplicaEnv, ReplicaTaskset

__all__ = ["ReplicaEnv", "ReplicaTaskset"]
