"""``make demo``: the kit's main job on small built-in defaults.

Builds both shipped replicas at demo scale (cached after the first run) and prints what was built.
Each later stage (suite run, report) is added to ``STAGES`` as it exists; the demo never branches
on which features are installed beyond that list.
"""

from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

from replicas.build import build_timings, ensure_snapshot
from replicas.replica import all_replicas

DEMO_SEED = 7
DEMO_SCALE = 0.01
console = Console()


def build_stage() -> None:
    table = Table(title=f"replicas built at seed={DEMO_SEED} scale={DEMO_SCALE}")
    for col in ("replica", "raw rows", "mart rows", "dbt nodes", "build s", "snapshot"):
        table.add_column(col, overflow="fold")
    for spec in all_replicas():
        snap = ensure_snapshot(spec.name, DEMO_SEED, DEMO_SCALE)
        tables = snap.manifest["tables"]
        timings = build_timings(snap)
        table.add_row(
            spec.name,
            f"{sum(t['rows'] for t in tables['raw'].values()):,}",
            f"{sum(t['rows'] for t in tables['marts'].values()):,}",
            str(sum(snap.manifest["dbt"]["node_counts"].values())),
            f"{sum(timings.values()):.1f}" if timings else "-",
            str(snap.path),
        )
    console.print(table)


# (module, function): later stages that run when their module exists.
STAGES: tuple[tuple[str, str], ...] = (("replicas.demo_run", "run_stage"),)


def main() -> int:
    started = time.perf_counter()
    build_stage()
    for module_name, attr in STAGES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        stage: Callable[[], None] = getattr(module, attr)
        stage()
    console.print(f"demo finished in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
