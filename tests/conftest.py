"""Shared fixtures: one build cache for the whole session (snapshots are built once)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

# Set before any test imports the kit so every snapshot lands in one cache. `make test` and CI
# point REPLICAS_HOME at the repository's .replicas-home; a bare `pytest` gets a temp dir.
if "REPLICAS_HOME" not in os.environ:
    os.environ["REPLICAS_HOME"] = tempfile.mkdtemp(prefix="replicas-test-home-")

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def replicas_home() -> Path:
    return Path(os.environ["REPLICAS_HOME"])
