"""Environment-factory throughput: mutation candidates validated per minute, on a cold outcome cache.

Usage: ``python benchmarks/bench_factory.py [--replica ecommerce] [--seeds 1-4] [--candidates 40]
[--workers 2] [--repeats 3] [--deployed] [--json OUT]``.

Each repeat runs ``run_factory`` over the seeds with ``cache=False`` (every candidate is executed
anew: built, compared with the pristine marts on the visible data and the hidden datasets, its
project tests run; nothing read from or written to ``$REPLICAS_HOME/factory``), first with one
worker and then with ``--workers`` workers, so the two run on the same machine under the same load
and their ratio is the scaling of the executor. The seeds' snapshots and hidden datasets are
inputs, not work of the factory: they are built (or found in the cache) once before timing, by a
warm-up funnel per seed.

Reported per configuration, as the median over repeats:

* ``per_min_wall`` - candidates validated per minute of the run's wall time (the figure the issue's
  target, >= 30/min on 2 cores at scale 0.01, is stated for);
* ``per_min_validation`` - candidates per minute of validation time summed over workers (what one
  worker sustains);
* with ``--deployed``, the run also screens the survivors under each seed's deployment (family
  ``-v2``, the default output) and reports that stage's share of the wall time.

The target is printed, never asserted. ``os.getloadavg()`` is printed before and after: other work
on the machine slows both configurations, which is why the ratio is the comparable figure.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

TARGET_PER_MIN = 30.0


def _seeds(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def _warm(replica: str, seeds: list[int]) -> float:
    """Build (or find) each seed's snapshot and hidden datasets; seconds taken."""
    from replicas.factory.funnel import SeedFunnel

    started = time.perf_counter()
    for seed in seeds:
        with SeedFunnel(replica, seed, cache=False) as funnel:
            funnel.outcome(0)
    return time.perf_counter() - started


def _one_run(
    replica: str, seeds: list[int], candidates: int, workers: int, deployed: str | None
) -> dict[str, Any]:
    from replicas.factory.run import run_factory

    family = f"{replica}.mutant_fix-v1"
    report = run_factory(
        replica,
        family,
        seeds,
        max_candidates=candidates,
        workers=workers,
        cache=False,
        deployed_family=deployed,
    )
    validated = sum(s.validated for s in report.per_seed)
    validate_s = sum(s.validate_s for s in report.per_seed)
    return {
        "workers": workers,
        "wall_s": report.wall_s,
        "validated": validated,
        "validate_s": validate_s,
        "usable": len(report.task_ids),
        "deployed_usable": len(report.deployed_task_ids) if deployed else None,
        "per_min_wall": 60.0 * validated / report.wall_s,
        "per_min_validation": 60.0 * validated / validate_s if validate_s else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--replica", default="ecommerce")
    parser.add_argument("--seeds", default="1-4", help="e.g. 1-4 or 1,3,5")
    parser.add_argument("--candidates", type=int, default=40, help="first N of each seed's order")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--deployed", action="store_true", help="also screen survivors under the deployments"
    )
    parser.add_argument("--json", dest="json_out")
    args = parser.parse_args(argv)
    try:
        seeds = _seeds(args.seeds)
    except ValueError:
        parser.error(f"--seeds must look like 1-4 or 1,3,5, got {args.seeds!r}")
    if not seeds or args.candidates < 1 or args.workers < 1 or args.repeats < 1:
        parser.error("--seeds, --candidates, --workers and --repeats must be positive")
    deployed = f"{args.replica}.mutant_fix-v2" if args.deployed else None
    load_before = os.getloadavg()
    warm_s = _warm(args.replica, seeds)
    print(
        f"factory {args.replica}: seeds {args.seeds}, first {args.candidates} candidates each, "
        f"cold outcome cache; warm-up (snapshots, hidden data) {warm_s:.1f} s"
    )
    configs = sorted({1, args.workers})
    runs: dict[int, list[dict[str, Any]]] = {w: [] for w in configs}
    for repeat in range(args.repeats):
        for workers in configs:  # interleaved, so load hits both alike
            row = _one_run(args.replica, seeds, args.candidates, workers, deployed)
            runs[workers].append(row)
            print(
                f"  repeat {repeat + 1} workers {workers}: {row['validated']} validated in "
                f"{row['wall_s']:.1f} s wall ({row['per_min_wall']:.1f}/min), "
                f"{row['usable']} usable",
                flush=True,
            )
    result: dict[str, Any] = {
        "replica": args.replica,
        "seeds": seeds,
        "candidates_per_seed": args.candidates,
        "deployed": bool(deployed),
        "repeats": args.repeats,
        "target_per_min": TARGET_PER_MIN,
        "loadavg_before": load_before,
        "loadavg_after": os.getloadavg(),
        "configs": {},
    }
    for workers in configs:
        rows = runs[workers]
        med = {
            key: statistics.median(r[key] for r in rows)
            for key in ("wall_s", "per_min_wall", "per_min_validation")
        }
        result["configs"][str(workers)] = {**med, "runs": rows}
        met = "met" if med["per_min_wall"] >= TARGET_PER_MIN else "MISSED"
        print(
            f"workers {workers}: median {med['per_min_wall']:.1f} candidates/min wall, "
            f"{med['per_min_validation']:.1f}/min per worker (target {TARGET_PER_MIN:.0f}/min "
            f"on {args.workers} workers: {met if workers == args.workers else 'baseline'})"
        )
    if args.workers != 1:
        ratio = (
            result["configs"][str(args.workers)]["per_min_wall"]
            / result["configs"]["1"]["per_min_wall"]
        )
        result["scaling_ratio"] = ratio
        print(f"scaling: {args.workers} workers / 1 worker = {ratio:.2f}x (medians, same run)")
    print(f"load average before {load_before}, after {result['loadavg_after']}")
    if args.json_out:
        out = Path(args.json_out)
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(json.dumps(result, indent=2, sort_keys=True))
        tmp.replace(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
