"""Run the factory over seeds: validate candidates, count the funnel, list the survivors' tasks.

``run_factory`` is what ``replicas factory`` calls. Per seed it validates the chosen candidates
(all of them, or only some operators', or the first ``max_per_model`` of every model) through
the seed's :class:`~replicas.factory.funnel.SeedFunnel` (or only its first ``max_candidates``, a
cheap smoke run), counts how many reached each stage
overall and per operator, and names the usable ones by their task ids (the family's numbering,
which counts every usable candidate of the seed, so the earlier candidates of a filtered run are
validated too — from the cache when they were before). Seeds run in parallel worker processes.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from replicas.factory.funnel import STAGES, SeedFunnel, count_stages
from replicas.factory.operators import OPERATORS
from replicas.replica import get_replica
from replicas.tasks.base import DEFAULT_SCALE, format_task_id

__all__ = ["FactoryReport", "SeedReport", "render_markdown", "run_factory"]


@dataclass
class SeedReport:
    """One seed's part of the run (JSON-serialisable, returned from worker processes)."""

    seed: int
    stages: list[tuple[str, str]] = field(default_factory=list)  # (operator, stage) per candidate
    task_ids: list[str] = field(default_factory=list)
    caught: int = 0
    validated: int = 0
    validate_s: float = 0.0
    wall_s: float = 0.0


@dataclass
class FactoryReport:
    replica: str
    family: str
    scale: float
    seeds: list[int]
    operators: list[str]
    max_per_model: int | None
    max_candidates: int | None
    per_seed: list[SeedReport]
    wall_s: float

    @property
    def task_ids(self) -> list[str]:
        return [t for s in self.per_seed for t in s.task_ids]

    def counts(self) -> dict[str, int]:
        return count_stages(stage for s in self.per_seed for _, stage in s.stages)

    def per_operator(self) -> dict[str, dict[str, int]]:
        names = sorted({op for s in self.per_seed for op, _ in s.stages})
        return {
            name: count_stages(st for s in self.per_seed for op, st in s.stages if op == name)
            for name in names
        }

    def to_dict(self) -> dict[str, Any]:
        validated = sum(s.validated for s in self.per_seed)
        validate_s = sum(s.validate_s for s in self.per_seed)
        return {
            "replica": self.replica,
            "family": self.family,
            "scale": self.scale,
            "seeds": self.seeds,
            "operators": self.operators,
            "max_per_model": self.max_per_model,
            "max_candidates": self.max_candidates,
            **self.counts(),
            "caught_by_tests": sum(s.caught for s in self.per_seed),
            "per_operator": self.per_operator(),
            "per_seed": {
                str(s.seed): {
                    **count_stages(st for _, st in s.stages),
                    "wall_s": round(s.wall_s, 2),
                }
                for s in self.per_seed
            },
            "validated_now": validated,
            "validate_s": round(validate_s, 2),
            "candidates_per_minute": round(validated / validate_s * 60, 1) if validate_s else None,
            "candidates_per_minute_wall": (
                round(validated / self.wall_s * 60, 1) if validated and self.wall_s else None
            ),
            "wall_s": round(self.wall_s, 2),
            "task_ids": self.task_ids,
        }


def _seed_report(
    replica: str,
    family: str,
    seed: int,
    scale: float,
    operators: Sequence[str],
    max_per_model: int | None,
    max_candidates: int | None,
) -> SeedReport:
    started = time.perf_counter()
    report = SeedReport(seed)
    with SeedFunnel(replica, seed, scale) as funnel:
        per_model: dict[str, int] = {}
        chosen: list[int] = []
        for candidate in funnel.candidates[:max_candidates]:
            if candidate.operator not in operators:
                continue
            taken = per_model.get(candidate.model, 0)
            if max_per_model is not None and taken >= max_per_model:
                continue
            per_model[candidate.model] = taken + 1
            chosen.append(candidate.index)
        stages = funnel.walk(chosen)
        report.stages = [(funnel.candidates[i].operator, stages[i]) for i in chosen]
        usable = {i for i in chosen if stages[i] == "usable"}
        if usable:
            for survivor in funnel.survivors(upto=max(usable)):
                if survivor.candidate.index in usable:
                    report.task_ids.append(format_task_id(family, seed, survivor.number, scale))
                    report.caught += bool(survivor.outcome.caught)
        report.validated = funnel.validated
        report.validate_s = funnel.validate_s
    report.wall_s = time.perf_counter() - started
    return report


def run_factory(
    replica: str,
    family: str,
    seeds: Sequence[int],
    *,
    operators: Sequence[str] | None = None,
    max_per_model: int | None = None,
    max_candidates: int | None = None,
    workers: int = 1,
    scale: float = DEFAULT_SCALE,
) -> FactoryReport:
    """Validate ``replica``'s candidates on ``seeds``; ValueError on bad input."""
    get_replica(replica)  # ValueError naming the known replicas
    known = OPERATORS.names()
    chosen = list(operators) if operators else list(known)
    unknown = [o for o in chosen if o not in known]
    if unknown:
        raise ValueError(f"unknown operator(s) {', '.join(unknown)}; known: {', '.join(known)}")
    if not seeds:
        raise ValueError("no seeds given")
    if max_per_model is not None and max_per_model < 1:
        raise ValueError(f"--max-per-model must be >= 1, got {max_per_model}")
    if max_candidates is not None and max_candidates < 1:
        raise ValueError(f"--max-candidates must be >= 1, got {max_candidates}")
    if workers < 1:
        raise ValueError(f"--workers must be >= 1, got {workers}")
    started = time.perf_counter()
    args = [(replica, family, seed, scale, chosen, max_per_model, max_candidates) for seed in seeds]
    if workers == 1 or len(seeds) == 1:
        per_seed = [_seed_report(*a) for a in args]
    else:
        with ProcessPoolExecutor(max_workers=min(workers, len(seeds))) as pool:
            per_seed = list(pool.map(_seed_report, *zip(*args, strict=True)))
    return FactoryReport(
        replica=replica,
        family=family,
        scale=scale,
        seeds=list(seeds),
        operators=chosen,
        max_per_model=max_per_model,
        max_candidates=max_candidates,
        per_seed=per_seed,
        wall_s=time.perf_counter() - started,
    )


def render_markdown(report: FactoryReport) -> str:
    """A short markdown funnel: one row per operator and a total row."""
    data = report.to_dict()
    head = "| operator | " + " | ".join(STAGES) + " |"
    rule = "|---|" + "---:|" * len(STAGES)
    rows = [
        f"| {name} | " + " | ".join(str(counts[s]) for s in STAGES) + " |"
        for name, counts in data["per_operator"].items()
    ]
    total = "| **total** | " + " | ".join(f"**{data[s]}**" for s in STAGES) + " |"
    rate = data["candidates_per_minute"]
    lines = [
        f"# Factory funnel: {report.replica}, seeds {_seed_text(report.seeds)}, "
        f"scale {report.scale:g}",
        "",
        head,
        rule,
        *rows,
        total,
        "",
        f"{data['usable']} usable tasks ({data['caught_by_tests']} of them caught by the "
        f"project's own dbt tests); {data['validated_now']} candidates validated in this run"
        + (f" at {rate} per minute." if rate else " (all from the cache)."),
        "",
    ]
    return "\n".join(lines)


def _seed_text(seeds: Sequence[int]) -> str:
    if len(seeds) > 1 and list(seeds) == list(range(seeds[0], seeds[-1] + 1)):
        return f"{seeds[0]}-{seeds[-1]}"
    return ",".join(str(s) for s in seeds)
