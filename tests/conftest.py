"""Shared fixtures: one build cache for the whole session (snapshots are built once), and
registry isolation for tests that register replicas, families, agents or audit checks."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

# Set before any test imports the kit so every snapshot lands in one cache. `make test` and CI
# point REPLICAS_HOME at the repository's .replicas-home; a bare `pytest` gets a temp dir.
if "REPLICAS_HOME" not in os.environ:
    os.environ["REPLICAS_HOME"] = tempfile.mkdtemp(prefix="replicas-test-home-")


@pytest.fixture(scope="session")
def replicas_home() -> Path:
    return Path(os.environ["REPLICAS_HOME"])


@contextlib.contextmanager
def _restored_registries() -> Iterator[None]:
    # Imported here, not at the top: REPLICAS_HOME must be set before the kit is first imported.
    from replicas.agents import AGENTS
    from replicas.audit import CHECKS
    from replicas.replica import REPLICAS
    from replicas.tasks.registry import FAMILIES

    with contextlib.ExitStack() as stack:
        for registry in (REPLICAS, FAMILIES, AGENTS, CHECKS):
            stack.enter_context(registry.restoring())
        yield


@pytest.fixture
def registries() -> Iterator[None]:
    """Every replica, family, agent and audit check registered during the test is undone after."""
    with _restored_registries():
        yield


@pytest.fixture(scope="module")
def module_registries() -> Iterator[None]:
    """``registries`` for a whole module (module-scoped fixtures that register depend on it)."""
    with _restored_registries():
        yield
