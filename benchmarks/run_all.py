"""``make bench``: run every benchmark once and collect their JSON into ``bench-results/``.

Each benchmark is its own script (runnable alone, with ``--help``); this driver only sequences them
so one command reproduces every figure in the README. Targets are reported, never asserted.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

# (script, extra arguments): the configurations the README figures come from.
BENCHMARKS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("bench_generate.py", ("--scale", "1.0", "--repeats", "3")),
    ("bench_build.py", ("--scales", "0.01", "1.0", "--repeats", "5")),
    ("bench_runtime.py", ()),
    ("bench_compliance.py", ()),
    ("bench_runner.py", ()),
    ("bench_export.py", ()),
    ("bench_factory.py", ()),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("bench-results"))
    parser.add_argument("--only", nargs="*", help="script names to run (default: all)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    failures = 0
    for script, extra in BENCHMARKS:
        if args.only and script not in args.only:
            continue
        out = args.out / script.replace(".py", ".json")
        print(f"== {script} {' '.join(extra)}", flush=True)
        started = time.perf_counter()
        code = subprocess.call([sys.executable, str(HERE / script), *extra, "--json", str(out)])
        print(f"   ({time.perf_counter() - started:.0f} s, exit {code})", flush=True)
        failures += code != 0
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
