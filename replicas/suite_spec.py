"""The recipe of a suite: ``SuiteEntry`` (one family's seeds and variants) and ``SuiteSpec``.

Kept apart from ``replicas.suite`` (which reads and writes published lists) so the plans of the
published suites (``replicas.suite_plans``) can be read on their own.
"""

from __future__ import annotations

from dataclasses import dataclass

from replicas.tasks.base import DEFAULT_SCALE, format_task_id

__all__ = ["SuiteEntry", "SuiteSpec"]


@dataclass(frozen=True)
class SuiteEntry:
    """One family's share of a suite: variants ``0..variants_per_seed-1`` on each seed.

    ``max_tasks`` keeps only the first tasks of that grid (seed-major order), for families whose
    episodes are expensive (dbt rebuilds) and need only the minimum count.
    """

    family: str
    seeds: tuple[int, ...]
    variants_per_seed: int
    max_tasks: int | None = None

    def __post_init__(self) -> None:
        # format_task_id validates the family name's shape; seed 0 / variant 0 are always valid.
        format_task_id(self.family, 0, 0)
        seeds = tuple(self.seeds)
        if not seeds or len(set(seeds)) != len(seeds):
            raise ValueError(f"{self.family}: seeds must be a non-empty tuple of distinct ints")
        if any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in seeds):
            raise ValueError(f"{self.family}: seeds must be ints >= 0, got {seeds}")
        object.__setattr__(self, "seeds", seeds)
        if not isinstance(self.variants_per_seed, int) or self.variants_per_seed < 1:
            raise ValueError(f"{self.family}: variants_per_seed must be an int >= 1")
        grid = len(seeds) * self.variants_per_seed
        if self.max_tasks is not None and not 1 <= self.max_tasks <= grid:
            raise ValueError(f"{self.family}: max_tasks must be in 1..{grid}, got {self.max_tasks}")

    @property
    def size(self) -> int:
        grid = len(self.seeds) * self.variants_per_seed
        return grid if self.max_tasks is None else self.max_tasks

    def task_ids(self, scale: float = DEFAULT_SCALE) -> list[str]:
        ids = [
            format_task_id(self.family, seed, variant, scale)
            for seed in self.seeds
            for variant in range(self.variants_per_seed)
        ]
        return ids[: self.size]


@dataclass(frozen=True)
class SuiteSpec:
    """The recipe of a suite (its families, seeds and variants); see the module docstring."""

    name: str
    description: str
    entries: tuple[SuiteEntry, ...]

    def __post_init__(self) -> None:
        if not self.name or not all(c.isalnum() or c in "-_." for c in self.name):
            raise ValueError(f"suite name must be [A-Za-z0-9._-]+, got {self.name!r}")
        entries = tuple(self.entries)
        families = [e.family for e in entries]
        if not entries or len(set(families)) != len(families):
            raise ValueError(f"suite {self.name}: entries must name distinct families")
        object.__setattr__(self, "entries", entries)
