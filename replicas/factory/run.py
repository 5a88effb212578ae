"""Run the factory over seeds: validate candidates, count the funnel, list the survivors' tasks.

``run_factory`` is what ``replicas factory`` calls. Per seed it validates the chosen candidates
(all of them, or only some operators', or the first ``max_per_model`` of every model) through
the seed's :class:`~replicas.factory.funnel.SeedFunnel` (or only its first ``max_candidates``, a
cheap smoke run), counts how many reached each stage
overall and per operator, and names the usable ones by their task ids (the family's numbering,
which counts every usable candidate of the seed, so the earlier candidates of a filtered run are
validated too — from the cache when they were before). Seeds run in parallel worker processes
or as Ray tasks (``replicas.factory.executor``); both give the same report but for its timings.

With ``combine=N`` each seed also walks its combinations of 2..N survivors in different layers
(``replicas.factory.combine``, the ``<replica>.mutant_fix_multi-v1`` family's draws), counted
separately under ``combined``. Per operator the report adds the validation seconds of its
candidates (whenever they were validated: cached outcomes keep theirs) and the rate they give.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from replicas.factory.combine import COMBO_STAGES, DEFAULT_SPEC, ComboFunnel, count_combo_stages
from replicas.factory.deployed import DEPLOYED_STAGES, DeployedComboFunnel, DeployedFunnel
from replicas.factory.executor import check_executor, map_jobs
from replicas.factory.funnel import STAGES, SeedFunnel, Survivor, count_stages
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
    op_seconds: dict[str, float] = field(default_factory=dict)  # validation s per operator
    combo_stages: list[tuple[int, str]] = field(default_factory=list)  # (size, stage)
    combo_task_ids: list[str] = field(default_factory=list)
    combo_caught: int = 0
    combo_validated: int = 0
    combo_validate_s: float = 0.0
    deployed_stages: list[str] = field(default_factory=list)  # per usable survivor chosen
    deployed_task_ids: list[str] = field(default_factory=list)
    deployed_caught: int = 0
    combo_deployed_stages: list[str] = field(default_factory=list)  # per usable combination
    combo_deployed_task_ids: list[str] = field(default_factory=list)


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
    combine: int = 0
    combo_family: str | None = None
    #: the ``-v2`` family whose tasks are the survivors under each seed's deployment (None: v1)
    deployed_family: str | None = None

    @property
    def task_ids(self) -> list[str]:
        return [t for s in self.per_seed for t in s.task_ids]

    @property
    def combo_task_ids(self) -> list[str]:
        return [t for s in self.per_seed for t in s.combo_task_ids]

    @property
    def deployed_task_ids(self) -> list[str]:
        return [t for s in self.per_seed for t in s.deployed_task_ids]

    @property
    def suite_ids(self) -> list[str]:
        """Every usable task: the single survivors' ids, then the combinations'; with a
        deployed family, its tasks instead (v1's fixes are the shipped files: memorisable)."""
        if self.deployed_family:
            combos = [t for s in self.per_seed for t in s.combo_deployed_task_ids]
            return self.deployed_task_ids + combos
        return self.task_ids + self.combo_task_ids

    def deployed(self) -> dict[str, Any] | None:
        """The deployment screen's funnel (None when the run made v1 tasks)."""
        if not self.deployed_family:
            return None
        return {
            "family": self.deployed_family,
            **count_deployed(st for s in self.per_seed for st in s.deployed_stages),
            "per_seed": {str(s.seed): count_deployed(s.deployed_stages) for s in self.per_seed},
            "caught_by_tests": sum(s.deployed_caught for s in self.per_seed),
            "task_ids": self.deployed_task_ids,
        }

    def counts(self) -> dict[str, int]:
        return count_stages(stage for s in self.per_seed for _, stage in s.stages)

    def per_operator(self) -> dict[str, dict[str, int]]:
        names = sorted({op for s in self.per_seed for op, _ in s.stages})
        out: dict[str, dict[str, Any]] = {}
        for name in names:
            counts: dict[str, Any] = count_stages(
                st for s in self.per_seed for op, st in s.stages if op == name
            )
            seconds = sum(s.op_seconds.get(name, 0.0) for s in self.per_seed)
            counts["validate_s"] = round(seconds, 2)
            counts["candidates_per_minute"] = (
                round(counts["candidates"] / seconds * 60, 1) if seconds else None
            )
            out[name] = counts
        return out

    def combined(self) -> dict[str, Any] | None:
        """The combinations' funnel (None when the run did not combine)."""
        if not self.combine:
            return None
        stages = [(size, st) for s in self.per_seed for size, st in s.combo_stages]
        validated = sum(s.combo_validated for s in self.per_seed)
        seconds = sum(s.combo_validate_s for s in self.per_seed)
        return {
            "family": self.combo_family,
            "sizes": list(range(2, self.combine + 1)),
            **count_combo_stages(st for _, st in stages),
            "per_size": {
                str(size): count_combo_stages(st for n, st in stages if n == size)
                for size in range(2, self.combine + 1)
            },
            "per_seed": {
                str(s.seed): count_combo_stages(st for _, st in s.combo_stages)
                for s in self.per_seed
            },
            "caught_by_tests": sum(s.combo_caught for s in self.per_seed),
            **(
                {
                    "deployed": {
                        **count_deployed(
                            st for s in self.per_seed for st in s.combo_deployed_stages
                        ),
                        "task_ids": [t for s in self.per_seed for t in s.combo_deployed_task_ids],
                    }
                }
                if self.deployed_family
                else {}
            ),
            "validated_now": validated,
            "validate_s": round(seconds, 2),
            "combinations_per_minute": round(validated / seconds * 60, 1) if seconds else None,
            "task_ids": self.combo_task_ids,
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
            **({"combined": self.combined()} if self.combine else {}),
            **({"deployed": self.deployed()} if self.deployed_family else {}),
            "usable_total": len(self.suite_ids),
        }


def _seed_report(
    replica: str,
    family: str,
    seed: int,
    scale: float,
    operators: Sequence[str],
    max_per_model: int | None,
    max_candidates: int | None,
    combine: int = 0,
    combo_family: str | None = None,
    cache: bool = True,
    deployed_family: str | None = None,
) -> SeedReport:
    started = time.perf_counter()
    report = SeedReport(seed)
    with SeedFunnel(replica, seed, scale, cache=cache) as funnel:
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
        for i in chosen:
            op = funnel.candidates[i].operator
            report.op_seconds[op] = report.op_seconds.get(op, 0.0) + funnel.outcome(i).wall_s
        usable = {i for i in chosen if stages[i] == "usable"}
        if usable:
            survivors = funnel.survivors(upto=max(usable))
            for survivor in survivors:
                if survivor.candidate.index in usable:
                    report.task_ids.append(format_task_id(family, seed, survivor.number, scale))
                    report.caught += bool(survivor.outcome.caught)
            if deployed_family:
                _deploy_seed(report, funnel, survivors, usable, deployed_family, cache)
        if combine and combo_family:
            _combine_seed(report, funnel, combine, combo_family, deployed=bool(deployed_family))
        report.validated = funnel.validated
        report.validate_s = funnel.validate_s
    report.wall_s = time.perf_counter() - started
    return report


def _deploy_seed(
    report: SeedReport,
    funnel: SeedFunnel,
    survivors: Sequence[Survivor],
    usable: set[int],
    family: str,
    cache: bool,
) -> None:
    """Screen the seed's survivors under its deployment; the chosen ones that pass get the
    deployed family's ids (its numbering counts every earlier survivor that passes, so the
    earlier ones are screened too)."""
    kept = 0
    with DeployedFunnel(funnel, cache=cache) as deployed:
        for survivor in survivors:
            outcome = deployed.outcome(survivor)
            if survivor.candidate.index in usable:
                report.deployed_stages.append(outcome.stage)
                if outcome.kept:
                    number = format_task_id(family, funnel.seed, kept, funnel.scale)
                    report.deployed_task_ids.append(number)
                    report.deployed_caught += bool(outcome.caught)
            kept += outcome.kept


def count_deployed(stages: Iterable[str]) -> dict[str, int]:
    """The deployment screen's counts: survivors reaching each stage (cumulative)."""
    reached = dict.fromkeys(DEPLOYED_STAGES, 0)
    for stage in stages:
        for name in DEPLOYED_STAGES[: DEPLOYED_STAGES.index(stage) + 1]:
            reached[name] += 1
    return reached


def _combine_seed(
    report: SeedReport, funnel: SeedFunnel, combine: int, family: str, *, deployed: bool = False
) -> None:
    """The seed's combinations; ``deployed``: ``family`` is the ``-v2`` combined family, whose
    tasks are the usable combinations that pass under the seed's deployment."""
    spec = replace(DEFAULT_SPEC, sizes=tuple(range(2, combine + 1)))
    with ComboFunnel(funnel, spec) as combos:
        for _, outcome, stage in combos.walk():
            report.combo_stages.append((outcome.size, stage))
            if stage == "usable" and not deployed:
                number = len(report.combo_task_ids)
                report.combo_task_ids.append(
                    format_task_id(family, funnel.seed, number, funnel.scale)
                )
                report.combo_caught += bool(outcome.caught)
        if deployed:
            with DeployedComboFunnel(combos) as screened:
                for _, result in screened.screened():
                    report.combo_deployed_stages.append(result.stage)
                    if result.kept:
                        number = len(report.combo_deployed_task_ids)
                        report.combo_deployed_task_ids.append(
                            format_task_id(family, funnel.seed, number, funnel.scale)
                        )
                        report.combo_caught += bool(result.caught)
        report.combo_validated = combos.validated
        report.combo_validate_s = combos.validate_s


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
    combine: int = 0,
    combo_family: str | None = None,
    executor: str = "local",
    ray_address: str | None = None,
    cache: bool = True,
    deployed_family: str | None = None,
) -> FactoryReport:
    """Validate ``replica``'s candidates on ``seeds`` (and, with ``combine`` 2 or 3, its
    combinations as ``combo_family``); ValueError on bad input. ``cache=False`` validates
    everything anew and writes no cache."""
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
    if combine not in (0, 2, 3):
        raise ValueError(f"--combine must be 2 or 3, got {combine}")
    if combine and not combo_family:
        raise ValueError("combining needs the combined family's name")
    check_executor(executor, ray_address)
    started = time.perf_counter()
    args = [
        (
            replica,
            family,
            seed,
            scale,
            chosen,
            max_per_model,
            max_candidates,
            combine,
            combo_family,
            cache,
            deployed_family,
        )
        for seed in seeds
    ]
    per_seed = map_jobs(
        _seed_report, args, workers=workers, executor=executor, ray_address=ray_address
    )
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
        combine=combine,
        combo_family=combo_family if combine else None,
        deployed_family=deployed_family,
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
    deployed = data.get("deployed")
    if deployed:
        lines += [
            f"## Under each seed's deployment ({deployed['family']})",
            "",
            "| " + " | ".join(DEPLOYED_STAGES) + " |",
            "|" + "---:|" * len(DEPLOYED_STAGES),
            "| " + " | ".join(str(deployed[s]) for s in DEPLOYED_STAGES) + " |",
            "",
            f"{deployed[DEPLOYED_STAGES[-1]]} usable {deployed['family']} tasks: suite.txt lists "
            "these (v1's fix is the shipped file, which an agent can write back from memory).",
            "",
        ]
    combined = data.get("combined")
    if combined:
        lines += [
            f"## Combined tasks ({combined['family']}): 2-{max(combined['sizes'])} survivors "
            "in different layers",
            "",
            "| size | " + " | ".join(COMBO_STAGES) + " |",
            "|---|" + "---:|" * len(COMBO_STAGES),
            *(
                f"| {size} | " + " | ".join(str(counts[s]) for s in COMBO_STAGES) + " |"
                for size, counts in combined["per_size"].items()
            ),
            "| **total** | " + " | ".join(f"**{combined[s]}**" for s in COMBO_STAGES) + " |",
            "",
        ]
        if "deployed" in combined:
            screened = combined["deployed"]
            lines += [
                "Under each seed's deployment: "
                + ", ".join(f"{s} {screened[s]}" for s in DEPLOYED_STAGES)
                + f"; {screened[DEPLOYED_STAGES[-1]]} usable {combined['family']} tasks; "
                f"{data['usable_total']} tasks in all.",
                "",
            ]
        else:
            lines += [
                f"{combined['usable']} usable combined tasks; {data['usable_total']} tasks in all.",
                "",
            ]
    return "\n".join(lines)


def _seed_text(seeds: Sequence[int]) -> str:
    if len(seeds) > 1 and list(seeds) == list(range(seeds[0], seeds[-1] + 1)):
        return f"{seeds[0]}-{seeds[-1]}"
    return ",".join(str(s) for s in seeds)
