"""What a build produces and is keyed by: :class:`BuildKey`, :class:`Snapshot`, :class:`BuildError`.

A snapshot directory holds ``warehouse.duckdb``, the dbt project (``dbt/``, with the
``target/manifest.json`` dbt wrote), ``manifest.json`` (deterministic: no paths, no timings, no
engine), ``build.json`` (timings, which engine ran and why) and ``integrity.json`` (sha256 of every
other file). It is read-only on disk once published.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from replicas._version import __version__
from replicas.build.fingerprint import code_fingerprint
from replicas.build.integrity import verify_tree
from replicas.replica import ReplicaSpec, get_replica

__all__ = [
    "BUILD_INFO",
    "DBT_DIR",
    "MANIFEST",
    "MANIFEST_SCHEMA_VERSION",
    "MART_SCHEMA",
    "WAREHOUSE",
    "BuildError",
    "BuildKey",
    "Snapshot",
    "build_info",
    "build_timings",
]

#: 2: table hashes in :data:`replicas.warehouse.TABLE_HASH_FORMAT` (column bytes; was a CSV
#: rendering), named by the manifest's ``table_hash``. A snapshot of another version is rebuilt.
MANIFEST_SCHEMA_VERSION = 2
MANIFEST = "manifest.json"
BUILD_INFO = "build.json"
WAREHOUSE = "warehouse.duckdb"
DBT_DIR = "dbt"
MART_SCHEMA = "main"


class BuildError(RuntimeError):
    """A build step failed; ``step`` names it (generate, load, dbt, fingerprint, publish)."""

    def __init__(self, step: str, detail: str) -> None:
        super().__init__(f"build failed at step '{step}': {detail}")
        self.step = step
        self.detail = detail


@dataclass(frozen=True)
class BuildKey:
    """The only inputs of a build. Validated here so every entry point rejects bad input alike."""

    replica: str
    seed: int
    scale: float

    def __post_init__(self) -> None:
        spec = get_replica(self.replica)  # raises ValueError listing the known replicas
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {self.seed!r}")
        if self.seed >= 2**63:
            raise ValueError(f"seed must be below 2**63, got {self.seed}")
        scale = float(self.scale)
        if not math.isfinite(scale) or scale <= 0:
            raise ValueError(f"scale must be a positive number, got {self.scale!r}")
        if scale > spec.max_scale:
            raise ValueError(
                f"scale {scale:g} is too large for {self.replica} (max {spec.max_scale:g})"
            )
        object.__setattr__(self, "scale", scale)

    @property
    def spec(self) -> ReplicaSpec:
        return get_replica(self.replica)

    @property
    def slug(self) -> str:
        return (
            f"{self.replica}-s{self.seed}-x{self.scale:g}-v{__version__}"
            f"-c{code_fingerprint(self.spec)[:10]}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {"replica": self.replica, "seed": self.seed, "scale": self.scale}


@dataclass(frozen=True)
class Snapshot:
    """A built replica on disk. Read-only: episodes copy what they may change."""

    path: Path
    replica: str
    seed: int
    scale: float
    manifest: dict[str, Any] = field(compare=False, repr=False)

    @property
    def warehouse(self) -> Path:
        return self.path / WAREHOUSE

    @property
    def dbt_project(self) -> Path:
        return self.path / DBT_DIR

    @property
    def key(self) -> BuildKey:
        return BuildKey(self.replica, self.seed, self.scale)

    @classmethod
    def load(cls, path: Path) -> Snapshot:
        """Open the snapshot at ``path``; ``ValueError`` when it is not a complete snapshot."""
        path = Path(path)
        try:
            manifest = json.loads((path / MANIFEST).read_text())
        except (OSError, ValueError) as exc:
            raise ValueError(f"{path} is not a replica snapshot (no readable {MANIFEST})") from exc
        if manifest.get("schema_version") != MANIFEST_SCHEMA_VERSION:
            raise ValueError(f"{path}: unsupported manifest schema_version")
        if not (path / WAREHOUSE).is_file() or not (path / DBT_DIR).is_dir():
            raise ValueError(f"{path} is an incomplete snapshot")
        return cls(
            path=path,
            replica=manifest["replica"],
            seed=int(manifest["seed"]),
            scale=float(manifest["scale"]),
            manifest=manifest,
        )

    def verify(self) -> list[str]:
        """What differs from the files recorded at publish time (empty list: intact).

        Compares the sha256 of every file (the warehouse, the dbt project and its
        ``target/manifest.json``, ``manifest.json``) with ``integrity.json``; files added or
        removed since count too. Memoised per process on every file's inode, size, mtime and
        ctime, so checking an untouched snapshot again costs only stats.
        """
        return verify_tree(self.path)


def build_info(snapshot: Snapshot) -> dict[str, Any]:
    """The snapshot's ``build.json`` (engine, fallback reason, timings); empty when absent."""
    try:
        data = json.loads((snapshot.path / BUILD_INFO).read_text())
    except (OSError, ValueError):
        return {}
    return dict(data) if isinstance(data, dict) else {}


def build_timings(snapshot: Snapshot) -> dict[str, float]:
    """Seconds per build step (``generate_s``, ``load_s``, ``replay_s`` or ``dbt_s``, …)."""
    return dict(build_info(snapshot).get("timings", {}))
