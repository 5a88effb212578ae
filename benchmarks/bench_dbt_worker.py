"""An agent's dbt calls in one episode: the episode's dbt process (``replicas.dbt_worker``) against
a fresh ``dbt`` process per call (``REPLICAS_DBT_WORKER=0``, the runtime before it).

Usage: ``python benchmarks/bench_dbt_worker.py [--task ecommerce.dbt_fix-v2.s1.0] [--repeats 3]
[--json OUT]``.

Each repeat plays the same episode twice, once per mode, alternating which goes first so machine
load hits both alike: ``dbt run`` (the whole project), ``dbt ls``, the oracle's fix written with
``write_file``, ``dbt run --select <model>``, ``dbt build --select <model>+`` and ``dbt show
--inline``; then the episode is closed without grading (grading never uses the worker). Printed:
the median wall time of each call in each mode and their ratio, and of the calls after the first
(the first pays dbt's start-up in both modes). Nothing is asserted.
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


def _episode(task_id: str, worker: bool) -> list[tuple[str, float]]:
    import replicas
    from replicas.tasks import build_task

    os.environ["REPLICAS_DBT_WORKER"] = "1" if worker else "0"
    task = build_task(task_id)
    fix = next(c for c in task.oracle if c.name == "write_file")
    model = Path(str(fix.arguments["path"])).stem
    calls: list[tuple[str, dict[str, Any]]] = [
        ("dbt", {"command": "run"}),
        ("dbt", {"command": f"ls --select {model}"}),
        ("write_file", dict(fix.arguments)),
        ("dbt", {"command": f"run --select {model}"}),
        ("dbt", {"command": f"build --select {model}+"}),
        ("dbt", {"command": "show --inline 'select 1 as x' --limit 1"}),
    ]
    env = replicas.make(task_id, agent_name="bench")
    out = []
    try:
        env.reset()
        for name, arguments in calls:
            started = time.perf_counter()
            _obs, _r, _term, _trunc, info = env.step({"name": name, "arguments": arguments})
            wall = time.perf_counter() - started
            if info.get("error"):
                raise RuntimeError(f"{name} {arguments} failed: {_obs}")
            if name == "dbt":
                out.append((arguments["command"].split()[0], wall))
    finally:
        env.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="ecommerce.dbt_fix-v2.s1.0")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    walls: dict[str, list[list[float]]] = {"worker": [], "process": []}
    labels: list[str] = []
    for repeat in range(args.repeats):
        order = ("worker", "process") if repeat % 2 == 0 else ("process", "worker")
        for mode in order:
            calls = _episode(args.task, mode == "worker")
            labels = [label for label, _ in calls]
            walls[mode].append([wall for _, wall in calls])
            print(f"repeat {repeat} {mode:7s} " + " ".join(f"{w:6.2f}" for _, w in calls))
    report: dict[str, Any] = {"task": args.task, "repeats": args.repeats, "calls": []}
    print(f"\n{'call':8s} {'worker s':>9s} {'process s':>10s} {'ratio':>6s}")
    for i, label in enumerate(labels):
        w = statistics.median(r[i] for r in walls["worker"])
        p = statistics.median(r[i] for r in walls["process"])
        report["calls"].append({"call": label, "worker_s": w, "process_s": p, "ratio": p / w})
        print(f"{label:8s} {w:9.2f} {p:10.2f} {p / w:6.2f}")
    later_w = statistics.median(sum(r[1:]) for r in walls["worker"])
    later_p = statistics.median(sum(r[1:]) for r in walls["process"])
    report["after_first"] = {"worker_s": later_w, "process_s": later_p, "ratio": later_p / later_w}
    print(f"{'after 1st':8s} {later_w:9.2f} {later_p:10.2f} {later_p / later_w:6.2f}")
    with open("/proc/loadavg") as fh:
        report["loadavg_end"] = fh.read().split()[:3]
    print(f"load average at the end: {' '.join(report['loadavg_end'])}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
