"""The view of a built snapshot that task code relies on.

``replicas.build.Snapshot`` satisfies it; keeping a protocol here lets the task model and its
tests stay independent of how snapshots are built and cached.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol


class SnapshotLike(Protocol):
    @property
    def path(self) -> Path: ...

    @property
    def replica(self) -> str: ...

    @property
    def seed(self) -> int: ...

    @property
    def scale(self) -> float: ...

    @property
    def warehouse(self) -> Path: ...

    @property
    def dbt_project(self) -> Path: ...

    @property
    def manifest(self) -> dict[str, Any]: ...
