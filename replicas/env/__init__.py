"""The episode runtime: a Gymnasium-shaped environment around one task, and its checker."""

from replicas.env.checker import CHECKS, EnvCheckError, check_env
from replicas.env.core import EPISODE_FILE, Env, make

__all__ = ["CHECKS", "EPISODE_FILE", "Env", "EnvCheckError", "check_env", "make"]
