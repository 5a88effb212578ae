"""Where the kit keeps its build cache (``REPLICAS_HOME``, default: the user cache dir)."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_cache_dir


def replicas_home() -> Path:
    """The cache root; created on first use. Tests and CI point it at a temporary directory."""
    env = os.environ.get("REPLICAS_HOME")
    home = Path(env).expanduser() if env else Path(user_cache_dir("replica-kit"))
    home.mkdir(parents=True, exist_ok=True)
    return home


def snapshots_dir() -> Path:
    path = replicas_home() / "snapshots"
    path.mkdir(parents=True, exist_ok=True)
    return path
