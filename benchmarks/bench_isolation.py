"""Isolation benchmark: what the OS sandbox costs a dbt call, and a dbt task's reset.

Usage: ``python benchmarks/bench_isolation.py [--seed 1] [--repeats 5] [--json OUT]``.

* ``dbt_call`` — the same ``dbt run --select <model>`` on a copy of the ecommerce project, once
  under bubblewrap (what an agent's call costs now) and once as a plain subprocess (the 0.1
  runtime), alternating A/B so machine load hits both alike; medians and their ratio (target:
  sandboxed ≤ 1.10 × unsandboxed).
* ``reset_dbt_task`` — ``Env.reset`` of ``ecommerce.dbt_fix-v1`` (a private copy of the project
  and of the warehouse per episode, no hard links); median (target ≤ 50 ms).
Targets are printed beside the numbers, never asserted.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TARGET_RATIO = 1.10
TARGET_RESET_MS = 50.0
MODEL = "stg_orders"


def _dbt_call(seed: int, repeats: int) -> dict[str, Any]:
    from replicas.build import ensure_snapshot
    from replicas.dbt import run_dbt

    snap = ensure_snapshot("ecommerce", seed=seed)
    work = Path(tempfile.mkdtemp(prefix="bench-isolation-"))
    try:
        shutil.copytree(snap.dbt_project, work / "project", ignore=shutil.ignore_patterns("target"))
        shutil.copyfile(snap.warehouse, work / "warehouse.duckdb")
        for path in [work / "project", *(work / "project").rglob("*"), work / "warehouse.duckdb"]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        args = ["run", "--select", MODEL]
        samples: dict[str, list[float]] = {"bubblewrap": [], "trusted-none": []}
        run_dbt(work / "project", work / "warehouse.duckdb", args, mode="trusted-none")  # warm
        for _ in range(repeats):
            for mode in ("bubblewrap", "trusted-none"):
                t0 = time.perf_counter()
                result = run_dbt(work / "project", work / "warehouse.duckdb", args, mode=mode)
                samples[mode].append(time.perf_counter() - t0)
                if not result.ok:
                    raise RuntimeError(f"dbt failed in mode {mode}: {result.summary}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    sandboxed = statistics.median(samples["bubblewrap"])
    plain = statistics.median(samples["trusted-none"])
    return {
        "sandboxed_p50_s": sandboxed,
        "unsandboxed_p50_s": plain,
        "ratio": sandboxed / plain,
        "target_ratio": TARGET_RATIO,
        "samples_s": samples,
    }


def _reset(seed: int, repeats: int) -> dict[str, Any]:
    from replicas.env import Env
    from replicas.tasks import build_task

    env = Env.from_task(build_task(f"ecommerce.dbt_fix-v1.s{seed}.0"))
    times = []
    try:
        for i in range(repeats + 3):
            t0 = time.perf_counter()
            env.reset()
            if i >= 3:
                times.append((time.perf_counter() - t0) * 1000)
    finally:
        env.close()
    return {"p50_ms": statistics.median(times), "target_ms": TARGET_RESET_MS, "n": len(times)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    results = {
        "reset_dbt_task": _reset(args.seed, max(20, args.repeats * 4)),
        "dbt_call": _dbt_call(args.seed, args.repeats),
    }
    call = results["dbt_call"]
    print(
        f"dbt call: sandboxed {call['sandboxed_p50_s']:.2f} s, unsandboxed "
        f"{call['unsandboxed_p50_s']:.2f} s, ratio {call['ratio']:.3f} (target ≤ {TARGET_RATIO})"
    )
    reset = results["reset_dbt_task"]
    print(f"reset of a dbt task: p50 {reset['p50_ms']:.1f} ms (target ≤ {TARGET_RESET_MS:g} ms)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
