"""Seed-farm benchmark: seeds built per minute by ``build_many`` on a cold cache.

Usage: ``python benchmarks/bench_farm.py [--replica ecommerce] [--seeds 100] [--scale 0.01]
[--workers 2] [--executor local|ray] [--json OUT]``.

Builds seeds ``1..N`` into a private, empty ``REPLICAS_HOME``, so the figure includes everything a
first farm pays: worker start-up and the one compiling ``dbt build`` of the first seed (reported
on its own) before the other seeds replay. A second farm over the same seeds must then find every
seed cached (resumability), and its wall time is reported too. The target is printed, never
asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from replicas.build import build_many
from replicas.build.integrity import make_writable

TARGET_SEEDS_PER_MIN = 40.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--replica", default="ecommerce")
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--scale", type=float, default=0.01)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--executor", default="local", choices=["local", "ray"])
    parser.add_argument("--json", dest="json_out")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-farm-") as home:
        os.environ["REPLICAS_HOME"] = home
        try:
            seeds = list(range(1, args.seeds + 1))
            report = build_many(
                args.replica, seeds, args.scale, workers=args.workers, executor=args.executor
            )
            again = build_many(
                args.replica, seeds, args.scale, workers=args.workers, executor=args.executor
            )
        finally:
            make_writable(Path(home))  # snapshots are read-only
    built = [o for o in report.outcomes if o.status == "built"]
    compiling = [o for o in built if o.engine == "dbt"]
    replayed = sorted(o.seconds for o in built if o.engine == "replay")
    met = report.seeds_per_min >= TARGET_SEEDS_PER_MIN
    print(
        f"{args.replica} x{args.scale:g} {args.seeds} seeds, {args.workers} workers "
        f"({args.executor}): {report.wall_s:.1f}s, {report.seeds_per_min:.1f} seeds/min "
        f"[target >= {TARGET_SEEDS_PER_MIN:g}: {'met' if met else 'MISSED'}]; "
        f"failed {report.failed}; compiling dbt builds {len(compiling)} "
        f"({', '.join(f'{o.seconds:.1f}s' for o in compiling)}); median replayed seed "
        f"{replayed[len(replayed) // 2] if replayed else float('nan'):.2f}s; "
        f"resumed farm: {again.cached} cached, {again.built} built in {again.wall_s:.1f}s",
        flush=True,
    )
    if args.json_out:
        doc = {
            "schema_version": 1,
            "bench": "farm",
            "farm": {k: v for k, v in report.to_dict().items() if k != "outcomes"},
            "compiling_builds_s": [o.seconds for o in compiling],
            "median_replayed_seed_s": replayed[len(replayed) // 2] if replayed else None,
            "resumed": {"cached": again.cached, "built": again.built, "wall_s": again.wall_s},
            "target_seeds_per_min": TARGET_SEEDS_PER_MIN,
            "time": time.strftime("%Y-%m-%d"),
            "load_average": os.getloadavg(),
        }
        with open(args.json_out, "w") as fh:
            json.dump(doc, fh, indent=2)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
