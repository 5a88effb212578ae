"""Build-time benchmark: generate / load / dbt split, whole-build wall time, peak RSS.

Usage: ``python benchmarks/bench_build.py [--replica ecommerce] [--scales 0.01 1.0] [--repeats 5]
[--json OUT]``. Each repeat is a forced rebuild into a private cache (``REPLICAS_HOME`` under a temp
dir) in a fresh subprocess, so peak RSS is that build's alone and no cache hit hides work.
Reports medians; targets are printed beside the figures, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

TARGET_WALL_S = {0.01: 6.0, 1.0: 60.0}
TARGET_RSS_GIB = 2.0

_CHILD = """
import json, resource, sys, time
from replicas.build import ensure_snapshot, build_timings
t0 = time.perf_counter()
snap = ensure_snapshot(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), force=True)
wall = time.perf_counter() - t0
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
rows = sum(t["rows"] for t in snap.manifest["tables"]["raw"].values())
print(json.dumps({"wall_s": wall, "rss_kib": max(rss, kids), "raw_rows": rows, **build_timings(snap)}))
"""


def run_once(replica: str, seed: int, scale: float, home: str) -> dict[str, float]:
    env = {**os.environ, "REPLICAS_HOME": home}
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, replica, str(seed), str(scale)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    ).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--replica", default="ecommerce")
    parser.add_argument("--scales", type=float, nargs="+", default=[0.01, 1.0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", dest="json_out")
    args = parser.parse_args(argv)
    report = []
    with tempfile.TemporaryDirectory(prefix="bench-build-") as home:
        for scale in args.scales:
            repeats = args.repeats if scale <= 0.1 else max(1, min(args.repeats, 2))
            runs = [run_once(args.replica, args.seed, scale, home) for _ in range(repeats)]
            row = {
                "replica": args.replica,
                "scale": scale,
                "repeats": repeats,
                "raw_rows": runs[0]["raw_rows"],
                **{
                    f"median_{k}": statistics.median(r[k] for r in runs)
                    for k in ("wall_s", "generate_s", "load_s", "dbt_s", "fingerprint_s")
                },
                "peak_rss_gib": max(r["rss_kib"] for r in runs) / 2**20,
                "target_wall_s": TARGET_WALL_S.get(scale),
            }
            report.append(row)
            target = row["target_wall_s"]
            verdict = (
                ""
                if target is None
                else ("  (met)" if row["median_wall_s"] < target else "  (MISSED)")
            )
            print(
                f"{args.replica} scale={scale:g} rows={row['raw_rows']:,} "
                f"wall={row['median_wall_s']:.2f}s (gen {row['median_generate_s']:.2f} / load "
                f"{row['median_load_s']:.2f} / dbt {row['median_dbt_s']:.2f} / hash "
                f"{row['median_fingerprint_s']:.2f}) target<{target}s{verdict} "
                f"peak RSS {row['peak_rss_gib']:.2f} GiB (target<{TARGET_RSS_GIB})",
                flush=True,
            )
    if args.json_out:
        with open(args.json_out, "w") as fh:
            json.dump(
                {
                    "schema_version": 1,
                    "bench": "build",
                    "results": report,
                    "time": time.strftime("%Y-%m-%d"),
                },
                fh,
                indent=2,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
