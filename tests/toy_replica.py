"""A tiny replica used to test the build pipeline independently of the shipped replicas."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from replicas.replica import ReplicaSpec, get_replica, register_replica
from replicas.seeding import table_rng

TOY_PROJECT = Path(__file__).parent / "fixtures" / "toy_dbt"


def generate(seed: int, scale: float) -> dict[str, pl.DataFrame]:
    if scale <= 0:
        raise ValueError("scale must be positive")
    rng = table_rng(seed, "things")
    n = max(10, int(1000 * scale))
    return {
        "things": pl.DataFrame(
            {
                "thing_id": range(n),
                "kind": rng.choice(["a", "b", "c"], size=n),
                "value": rng.normal(10, 2, size=n).round(2),
            }
        )
    }


def generate_broken(seed: int, scale: float) -> dict[str, pl.DataFrame]:
    """Duplicates a kind so the project's ``unique`` test fails (via a clashing raw layout)."""
    raise RuntimeError("generator exploded on purpose")


def ensure_registered() -> None:
    try:
        get_replica("toy")
    except ValueError:
        register_replica(
            ReplicaSpec(
                name="toy",
                description="test-only toy replica",
                generator="tests.toy_replica:generate",
                dbt_project=TOY_PROJECT,
                default_scale=0.01,
            )
        )
        register_replica(
            ReplicaSpec(
                name="toy_broken",
                description="test-only replica whose generator fails",
                generator="tests.toy_replica:generate_broken",
                dbt_project=TOY_PROJECT,
            )
        )
