"""Runner throughput: oracle episodes per minute with 1 and 2 local workers (and in-process).

Usage: ``python benchmarks/bench_runner.py [--tasks GLOB] [--workers 0 1 2] [--repeats 3]
[--json OUT]``. Each repeat is a fresh run directory; tasks and snapshots are built (cached)
before timing. Two rates per configuration, medians over repeats:

* ``episodes_per_min``: episodes / whole ``run()`` wall time (planning, pool start-up, writes);
* ``steady_per_min``: episodes between the first and the last result / that span — what a long
  run approaches once workers are warm.

``--workers 0`` (episodes in this process, no pool) is the baseline the pool's ratio is taken
against. The default subset is question tasks (dbt tasks cost a dbt subprocess each and would
measure dbt instead of the runner; add them with ``--tasks``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from replicas.records import EpisodeRecord
from replicas.runner import RunConfig, load_tasks, run, select_task_ids

DEFAULT_TASKS = "ecommerce.revenue_period-v1.*,ecommerce.top_n-v1.*,credit_cards.eligibility-v1.*"


class _Stamps:
    """A progress sink that only records when each result arrived."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def note(self, message: str) -> None:
        pass

    def start(self, total: int, already_done: int) -> None:
        self.times.clear()

    def advance(self, record: EpisodeRecord) -> None:
        self.times.append(time.perf_counter())

    def stop(self) -> None:
        pass


def measure(
    task_ids: list[str], workers: int, base: Path, index: int, attempts: int
) -> dict[str, float]:
    stamps = _Stamps()
    out = base / f"w{workers}-r{index}"
    started = time.perf_counter()
    outcome = run(
        RunConfig(
            out=out, agent="oracle", task_ids=tuple(task_ids), workers=workers, attempts=attempts
        ),
        progress=stamps,
    )
    wall = time.perf_counter() - started
    if outcome.passed != outcome.ran:
        raise SystemExit(f"oracle failed {outcome.ran - outcome.passed} episodes in {out}")
    span = stamps.times[-1] - stamps.times[0] if len(stamps.times) > 1 else float("nan")
    return {
        "wall_s": wall,
        "episodes": outcome.ran,
        "episodes_per_min": 60.0 * outcome.ran / wall,
        "steady_per_min": 60.0 * (len(stamps.times) - 1) / span if span > 0 else float("nan"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--suite", default="core-v1")
    parser.add_argument("--tasks", default=DEFAULT_TASKS)
    parser.add_argument("--workers", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--attempts", type=int, default=2, help="episodes per task per run")
    parser.add_argument("--json", dest="json_out")
    args = parser.parse_args(argv)

    task_ids = select_task_ids(args.suite, args.tasks)
    load_tasks(task_ids)  # build snapshots and tasks before any timing
    report: dict[str, Any] = {
        "tasks": len(task_ids),
        "attempts": args.attempts,
        "glob": args.tasks,
        "results": {},
    }
    with tempfile.TemporaryDirectory(prefix="bench-runner-") as tmp:
        for workers in args.workers:
            runs = [
                measure(task_ids, workers, Path(tmp), i, args.attempts) for i in range(args.repeats)
            ]
            medians = {
                key: statistics.median(r[key] for r in runs)
                for key in ("wall_s", "episodes_per_min", "steady_per_min")
            }
            report["results"][str(workers)] = {"median": medians, "runs": runs}
            label = "in-process" if workers == 0 else f"{workers} worker(s)"
            print(
                f"{label:>12}: {medians['episodes_per_min']:7.0f} episodes/min overall, "
                f"{medians['steady_per_min']:7.0f} steady  (median wall {medians['wall_s']:.2f}s, "
                f"{len(task_ids) * args.attempts} episodes)"
            )
    results = report["results"]
    if "0" in results:
        base = results["0"]["median"]["steady_per_min"]
        for data in results.values():
            data["steady_ratio_vs_inline"] = data["median"]["steady_per_min"] / base
        print(
            "steady-state ratio vs in-process: "
            + ", ".join(f"{w}: {d['steady_ratio_vs_inline']:.2f}x" for w, d in results.items())
        )
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
