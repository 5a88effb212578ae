"""The episode runtime: a Gymnasium-shaped environment around one task, and its checker."""

from replicas.env.checker import CHECKS, EnvCheckError, check_env
from replicas.env.core import EPISODE_FILE, Env, make
from replicas.gym_ids import register_gym_envs

register_gym_envs()  # gymnasium.make("replicas/<task id>") works once environments are importable

__all__ = ["CHECKS", "EPISODE_FILE", "Env", "EnvCheckError", "check_env", "make"]
