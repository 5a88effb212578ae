"""Build-time benchmark: compiled replay vs real ``dbt build``, in the same run.

Usage: ``python benchmarks/bench_build.py [--replicas ecommerce credit_cards] [--scales 0.01 1.0]
[--repeats 5] [--large-dbt] [--no-dbt] [--baseline DIR] [--json OUT]``, or
``python benchmarks/bench_build.py --enterprise [--scale 1.0] [--repeats 3] [--baseline DIR]``.

``--enterprise``: the ``ecommerce_enterprise`` build (dbt engine: replay refuses its snapshots,
seeds and unit tests) exactly as ``REPLICAS_HOME=$(mktemp -d) replicas build
ecommerce_enterprise --scale 1.0`` runs it — each build in a fresh subprocess with its own empty
``REPLICAS_HOME`` — ``--repeats`` times, interleaved with the ``--baseline`` code's builds when
given; prints the median wall and CPU time (the build process and its dbt child: dbt runs
without bubblewrap here so that its CPU is counted — the kit's own project runs so wherever
bubblewrap is missing), per-stage medians, the ratio to the baseline, whether every manifest is
byte-identical, the load averages, and the ≤ 60 s target as met or missed.

Every build runs in a fresh subprocess (so peak RSS is that build's alone, dbt's child included)
into a new directory with :func:`replicas.build.build_into` — no snapshot cache hit hides work —
against a private ``REPLICAS_HOME``. Per replica the compiled project is made first (the compiling
``dbt build``, timed and reported on its own line); then, for small scales (≤ 0.1), replay and dbt
builds alternate ``--repeats`` times and the medians and their ratio are reported. Large scales
build ecommerce with replay only (``--large-dbt`` adds one dbt build for the ratio). ``wall_s`` is
the build call itself; ``process_s`` adds interpreter start and imports. Targets are printed beside
the figures, never asserted. ``cpu_s`` (user + system seconds of the build, children included)
is a load-robust companion to wall time for replay; a dbt child run under bubblewrap does not
report its CPU back (PID namespace), so the dbt engine's ``cpu_s`` undercounts and no CPU ratio
is given.

``--baseline DIR`` also builds every replay with the kit checked out at ``DIR`` (e.g. ``git
worktree add /tmp/base HEAD~3``, with ``replicas/generators``, ``replicas/verifiers`` and
``replicas/dbt_projects`` linked to the tree's top-level folders so that ``PYTHONPATH=DIR``
imports all of it from there), interleaved with the current code's builds in the same run, and
reports both medians, their ratio, and whether both give the same table hashes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from replicas.build.integrity import make_writable

TARGET_SMALL_WALL_S = 2.5
TARGET_SPEEDUP = 4.0
TARGET_LARGE_WALL_S = 20.0
TARGET_RSS_GIB = 2.0
SMALL = 0.1

_CHILD = """
import json, resource, sys, time
t_start = time.perf_counter()
from replicas.build import build_info, build_into
replica, seed, scale, out, engine = sys.argv[1:6]
t0 = time.perf_counter()
before = resource.getrusage(resource.RUSAGE_SELF)
snap = build_into(replica, int(seed), float(scale), out, engine=engine)
wall = time.perf_counter() - t0
after = resource.getrusage(resource.RUSAGE_SELF)
children = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
       + children.ru_utime + children.ru_stime)
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
info = build_info(snap)
rows = sum(t["rows"] for t in snap.manifest["tables"]["raw"].values())
import replicas
print(json.dumps({"module": replicas.__file__, "wall_s": wall, "cpu_s": cpu, "imports_s": t0 - t_start, "rss_kib": max(rss, kids),
                  "raw_rows": rows, "engine": info["engine"], "timings": info["timings"],
                  "manifest": (snap.path / "manifest.json").read_text()}))
"""


def run_once(
    replica: str, seed: int, scale: float, engine: str, home: str, code: str | None = None
) -> dict[str, Any]:
    """One build in a fresh subprocess; ``code``: a checkout to import the kit from instead."""
    env = {**os.environ, "REPLICAS_HOME": home}
    if code is not None:
        env["PYTHONPATH"] = os.pathsep.join(p for p in [code, os.environ.get("PYTHONPATH")] if p)
    out = Path(tempfile.mkdtemp(prefix="out-", dir=home)) / "snap"
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, replica, str(seed), str(scale), str(out), engine],
        capture_output=True,
        text=True,
        env=env,
        # ``-c`` puts the working directory first on sys.path: run the baseline from its own
        cwd=code,
    )
    if proc.returncode != 0:
        raise SystemExit(f"{replica} {engine} build failed:\n{proc.stderr[-3000:]}")
    row = dict(json.loads(proc.stdout.strip().splitlines()[-1]))
    row["process_s"] = time.perf_counter() - t0
    row["code"] = code or "current"
    if code is not None and not row["module"].startswith(str(Path(code).resolve())):
        raise SystemExit(f"the baseline build imported {row['module']}, not the code in {code}")
    make_writable(out.parent)  # published snapshots are read-only
    return row


def _differing_tables(runs: list[dict[str, Any]]) -> dict[str, dict[str, list[str]]]:
    """Tables whose hash is not the same in every run: {layer.table: {engine: [sha256 prefixes]}}."""
    seen: dict[str, dict[str, set[str]]] = {}
    for run in runs:
        tables = json.loads(run["manifest"])["tables"]
        for layer, entries in tables.items():
            for name, fp in entries.items():
                by_engine = seen.setdefault(f"{layer}.{name}", {})
                by_engine.setdefault(run["engine"], set()).add(fp["sha256"][:12])
    return {
        table: {engine: sorted(h) for engine, h in by_engine.items()}
        for table, by_engine in seen.items()
        if len(set().union(*by_engine.values())) > 1
    }


def _median(runs: list[dict[str, Any]], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def _transform_s(run: dict[str, Any]) -> float:
    return float(run["timings"].get("replay_s", run["timings"].get("dbt_s", 0.0)))


def _summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "repeats": len(runs),
        "median_wall_s": _median(runs, "wall_s"),
        "median_process_s": _median(runs, "process_s"),
        "median_cpu_s": _median(runs, "cpu_s"),
        "median_transform_s": statistics.median(_transform_s(r) for r in runs),
        "median_steps_s": {
            k: statistics.median(r["timings"][k] for r in runs) for k in runs[0]["timings"]
        },
        "peak_rss_gib": max(r["rss_kib"] for r in runs) / 2**20,
        "engines": sorted({r["engine"] for r in runs}),
    }


def _steps(summary: dict[str, Any]) -> str:
    return " / ".join(
        f"{k.removesuffix('_s')} {v:.2f}" for k, v in summary["median_steps_s"].items()
    )


def _compile(replica: str, seed: int, home: str, baseline: str | None) -> float:
    """The first build of each code's fingerprint (dbt compiles the project for replays)."""
    wall = run_once(replica, seed, 0.01, "replay", home)["wall_s"]
    if baseline is not None:
        run_once(replica, seed, 0.01, "replay", home, baseline)
    return float(wall)


_ENTERPRISE_CHILD = """
import hashlib, json, os, resource, sys, time
import replicas.dbt
def _no_bwrap():
    return "benchmark: dbt unsandboxed so that its CPU time is counted"
replicas.dbt.probe = _no_bwrap
from replicas.build import build_info, ensure_snapshot
replica, seed, scale = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
load = os.getloadavg()
t0 = time.perf_counter()
snap = ensure_snapshot(replica, seed, scale)
wall = time.perf_counter() - t0
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
print(json.dumps({"module": replicas.__file__, "wall_s": wall, "cpu_s": cpu,
                  "rss_kib": max(me.ru_maxrss, kids.ru_maxrss), "info": build_info(snap),
                  "load_before": load, "load_after": os.getloadavg(),
                  "manifest_sha256": hashlib.sha256((snap.path / "manifest.json").read_bytes()).hexdigest()}))
"""
TARGET_ENTERPRISE_WALL_S = 60.0


def run_enterprise(seed: int, scale: float, code: str | None) -> dict[str, Any]:
    """One ``ecommerce_enterprise`` build in a fresh subprocess and an empty ``REPLICAS_HOME``."""
    home = tempfile.mkdtemp(prefix="bench-enterprise-")
    env = {**os.environ, "REPLICAS_HOME": home}
    if code is not None:
        env["PYTHONPATH"] = os.pathsep.join(p for p in [code, os.environ.get("PYTHONPATH")] if p)
    try:
        proc = subprocess.run(
            [
                sys.executable,
                "-c",
                _ENTERPRISE_CHILD,
                "ecommerce_enterprise",
                str(seed),
                str(scale),
            ],
            capture_output=True,
            text=True,
            env=env,
            cwd=code,
        )
        if proc.returncode != 0:
            raise SystemExit(f"enterprise build failed:\n{proc.stderr[-3000:]}")
        row = dict(json.loads(proc.stdout.strip().splitlines()[-1]))
    finally:
        make_writable(Path(home))
        shutil.rmtree(home, ignore_errors=True)
    if code is not None and not row["module"].startswith(str(Path(code).resolve())):
        raise SystemExit(f"the baseline build imported {row['module']}, not the code in {code}")
    row["code"] = code or "current"
    return row


def _enterprise_summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    timings = [r["info"]["timings"] for r in runs]
    return {
        "repeats": len(runs),
        "walls_s": [round(r["wall_s"], 1) for r in runs],
        "median_wall_s": _median(runs, "wall_s"),
        "median_cpu_s": _median(runs, "cpu_s"),
        "median_steps_s": {
            k: statistics.median(t.get(k, 0.0) for t in timings) for k in timings[0]
        },
        "peak_rss_gib": max(r["rss_kib"] for r in runs) / 2**20,
        "load_averages": [r["load_before"] + r["load_after"] for r in runs],
        "runs": [
            {k: r[k] for k in ("wall_s", "cpu_s", "load_before", "load_after")}
            | {"timings": r["info"]["timings"]}
            for r in runs
        ],
    }


def bench_enterprise(
    scale: float, repeats: int, seed: int, baseline: str | None = None
) -> dict[str, Any]:
    runs: list[dict[str, Any]] = []
    base_runs: list[dict[str, Any]] = []
    for _ in range(repeats):  # interleaved, so a load spike hits both codes alike
        if baseline is not None:
            base_runs.append(run_enterprise(seed, scale, baseline))
        runs.append(run_enterprise(seed, scale, None))
    shas = {r["manifest_sha256"] for r in runs + base_runs}
    current = _enterprise_summary(runs)
    row: dict[str, Any] = {
        "replica": "ecommerce_enterprise",
        "scale": scale,
        "seed": seed,
        "current": current,
        "identical_manifests": len(shas) == 1,
        "target_wall_s": TARGET_ENTERPRISE_WALL_S,
        "met": current["median_wall_s"] <= TARGET_ENTERPRISE_WALL_S,
    }
    line = (
        f"ecommerce_enterprise scale={scale:g} seed={seed}: median wall "
        f"{current['median_wall_s']:.1f}s {current['walls_s']} cpu {current['median_cpu_s']:.1f}s "
        f"({_steps(current)}) peak RSS {current['peak_rss_gib']:.2f} GiB "
        f"[target <= {TARGET_ENTERPRISE_WALL_S:g}s: {'met' if row['met'] else 'MISSED'}]"
    )
    if base_runs:
        base = _enterprise_summary(base_runs)
        row["baseline"] = base
        row["wall_ratio"] = base["median_wall_s"] / current["median_wall_s"]
        row["cpu_ratio"] = base["median_cpu_s"] / current["median_cpu_s"]
        line += (
            f"\n  baseline: median wall {base['median_wall_s']:.1f}s {base['walls_s']} cpu "
            f"{base['median_cpu_s']:.1f}s ({_steps(base)}) -> current x{row['wall_ratio']:.2f} "
            f"wall, x{row['cpu_ratio']:.2f} cpu"
        )
    line += f"\n  manifests byte-identical across all builds: {row['identical_manifests']}"
    line += f"\n  load averages (1/5/15 min before, after): {current['load_averages']}"
    print(line, flush=True)
    return row


def _table_hash_format(run: dict[str, Any]) -> str:
    # manifests before schema 2 hashed a CSV rendering and did not name the format
    return str(json.loads(run["manifest"]).get("table_hash", "csv (manifest schema 1)"))


def _tables(runs: list[dict[str, Any]], *, rows_only: bool = False) -> set[str]:
    out = set()
    for run in runs:
        tables = json.loads(run["manifest"])["tables"]
        if rows_only:
            tables = {
                layer: {name: fp["rows"] for name, fp in entries.items()}
                for layer, entries in tables.items()
            }
        out.add(json.dumps(tables, sort_keys=True))
    return out


def _against_baseline(
    row: dict[str, Any], runs: list[dict[str, Any]], base_runs: list[dict[str, Any]]
) -> str:
    """Add the baseline's figures to ``row``; the line that prints them."""
    if not base_runs:
        return ""
    base = _summary(base_runs)
    row["baseline"] = base
    row["baseline_ratio"] = base["median_wall_s"] / row["replay"]["median_wall_s"]
    formats = {_table_hash_format(r) for r in runs}
    base_formats = {_table_hash_format(r) for r in base_runs}
    if formats == base_formats:
        tables, base_tables = _tables(runs), _tables(base_runs)
        row["same_tables_as_baseline"] = tables == base_tables and len(tables) == 1
        same = f"table hashes identical to the baseline's: {row['same_tables_as_baseline']}"
    else:  # another hash of the same tables: only the row counts can be compared
        tables, base_tables = _tables(runs, rows_only=True), _tables(base_runs, rows_only=True)
        row["same_tables_as_baseline"] = None
        row["same_row_counts_as_baseline"] = tables == base_tables and len(tables) == 1
        same = (
            f"table hash formats differ ({', '.join(sorted(formats))} vs "
            f"{', '.join(sorted(base_formats))}): row counts identical to the baseline's: "
            f"{row['same_row_counts_as_baseline']}"
        )
    return (
        f"\n  baseline code: replay={base['median_wall_s']:.2f}s ({_steps(base)}; cpu "
        f"{base['median_cpu_s']:.2f}s) -> current x{row['baseline_ratio']:.2f} faster; {same}"
    )


def bench_small(
    replica: str,
    scale: float,
    repeats: int,
    seed: int,
    home: str,
    *,
    with_dbt: bool = True,
    baseline: str | None = None,
) -> dict[str, Any]:
    compile_wall = _compile(replica, seed, home, baseline)
    print(f"{replica}: compiling build {compile_wall:.2f}s", flush=True)
    replay_runs: list[dict[str, Any]] = []
    dbt_runs: list[dict[str, Any]] = []
    base_runs: list[dict[str, Any]] = []
    for _ in range(repeats):  # interleaved, so a load spike hits every variant alike
        replay_runs.append(run_once(replica, seed, scale, "replay", home))
        if baseline is not None:
            base_runs.append(run_once(replica, seed, scale, "replay", home, baseline))
        if with_dbt:
            dbt_runs.append(run_once(replica, seed, scale, "dbt", home))
    manifests = {r["manifest"] for r in replay_runs + dbt_runs}
    differing = _differing_tables(replay_runs + dbt_runs)
    replay = _summary(replay_runs)
    row: dict[str, Any] = {
        "replica": replica,
        "scale": scale,
        "raw_rows": replay_runs[0]["raw_rows"],
        "compile_wall_s": compile_wall,
        "replay": replay,
        "identical_manifests": len(manifests) == 1,
        "differing_tables": differing,
        "target_wall_s": TARGET_SMALL_WALL_S,
        "target_speedup": TARGET_SPEEDUP,
    }
    met_wall = replay["median_wall_s"] <= TARGET_SMALL_WALL_S
    versus_dbt = ""
    if dbt_runs:
        dbt = _summary(dbt_runs)
        speedup = dbt["median_wall_s"] / replay["median_wall_s"]
        row.update(dbt=dbt, speedup=speedup)
        met_ratio = speedup >= TARGET_SPEEDUP
        versus_dbt = (
            f"dbt={dbt['median_wall_s']:.2f}s (dbt step {dbt['median_transform_s']:.2f}s) "
            f"speedup x{speedup:.1f} [target >= x{TARGET_SPEEDUP:g}: "
            f"{'met' if met_ratio else 'MISSED'}] "
        )
    print(
        f"{replica} scale={scale:g} rows={row['raw_rows']:,} replay={replay['median_wall_s']:.2f}s "
        f"({_steps(replay)}; cpu {replay['median_cpu_s']:.2f}s; process "
        f"{replay['median_process_s']:.2f}s) "
        f"[target <= {TARGET_SMALL_WALL_S}s: {'met' if met_wall else 'MISSED'}] "
        f"{versus_dbt}manifests identical: {row['identical_manifests']}"
        f"{f' (differing: {differing})' if differing else ''} (median of {repeats})"
        + _against_baseline(row, replay_runs, base_runs),
        flush=True,
    )
    return row


def bench_large(
    scale: float,
    repeats: int,
    seed: int,
    home: str,
    with_dbt: bool,
    baseline: str | None = None,
) -> dict[str, Any]:
    replica = "ecommerce"
    compile_wall = _compile(replica, seed, home, baseline)  # compiled cache is per code
    runs: list[dict[str, Any]] = []
    base_runs: list[dict[str, Any]] = []
    for _ in range(repeats):
        runs.append(run_once(replica, seed, scale, "replay", home))
        if baseline is not None:
            base_runs.append(run_once(replica, seed, scale, "replay", home, baseline))
    replay = _summary(runs)
    row: dict[str, Any] = {
        "replica": replica,
        "scale": scale,
        "raw_rows": runs[0]["raw_rows"],
        "compile_wall_s": compile_wall,
        "replay": replay,
        "target_wall_s": TARGET_LARGE_WALL_S,
        "target_rss_gib": TARGET_RSS_GIB,
    }
    ratio = ""
    if with_dbt:
        dbt = _summary([run_once(replica, seed, scale, "dbt", home)])
        row["dbt"] = dbt
        row["speedup"] = dbt["median_wall_s"] / replay["median_wall_s"]
        ratio = f" dbt={dbt['median_wall_s']:.2f}s speedup x{row['speedup']:.1f}"
    met_wall = replay["median_wall_s"] <= TARGET_LARGE_WALL_S
    met_rss = replay["peak_rss_gib"] < TARGET_RSS_GIB
    print(
        f"{replica} scale={scale:g} rows={row['raw_rows']:,} replay={replay['median_wall_s']:.2f}s "
        f"({_steps(replay)}; cpu {replay['median_cpu_s']:.2f}s) "
        f"[target <= {TARGET_LARGE_WALL_S}s: {'met' if met_wall else 'MISSED'}] "
        f"peak RSS {replay['peak_rss_gib']:.2f} GiB [target < {TARGET_RSS_GIB}: "
        f"{'met' if met_rss else 'MISSED'}]{ratio} (median of {repeats})"
        + _against_baseline(row, runs, base_runs),
        flush=True,
    )
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--replicas", nargs="+", default=["ecommerce", "credit_cards"])
    parser.add_argument("--scales", type=float, nargs="+", default=[0.01, 1.0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--large-repeats", type=int, default=2)
    parser.add_argument("--large-dbt", action="store_true", help="one dbt build at large scales")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-dbt", action="store_true", help="skip the dbt builds at small scales")
    parser.add_argument(
        "--baseline", metavar="DIR", help="also build with the kit checked out at DIR (see above)"
    )
    parser.add_argument("--json", dest="json_out")
    parser.add_argument(
        "--enterprise", action="store_true", help="the ecommerce_enterprise build (see above)"
    )
    parser.add_argument("--scale", type=float, default=1.0, help="--enterprise's scale")
    args = parser.parse_args(argv)
    report = []
    if args.enterprise:
        seed = 11 if args.seed == 1 else args.seed  # the README's enterprise rows use seed 11
        report.append(bench_enterprise(args.scale, args.repeats, seed, args.baseline))
        if args.json_out:
            with open(args.json_out, "w") as fh:
                json.dump(
                    {
                        "schema_version": 3,
                        "bench": "build-enterprise",
                        "results": report,
                        "time": time.strftime("%Y-%m-%d"),
                    },
                    fh,
                    indent=2,
                )
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-build-") as home:
        try:
            for scale in args.scales:
                if scale <= SMALL:
                    for replica in args.replicas:
                        report.append(
                            bench_small(
                                replica,
                                scale,
                                args.repeats,
                                args.seed,
                                home,
                                with_dbt=not args.no_dbt,
                                baseline=args.baseline,
                            )
                        )
                else:
                    report.append(
                        bench_large(
                            scale,
                            args.large_repeats,
                            args.seed,
                            home,
                            args.large_dbt,
                            args.baseline,
                        )
                    )
        finally:
            make_writable(Path(home))  # the compiled-project cache is read-only
    if args.json_out:
        with open(args.json_out, "w") as fh:
            json.dump(
                {
                    "schema_version": 3,
                    "bench": "build",
                    "results": report,
                    "time": time.strftime("%Y-%m-%d"),
                    "load_average": os.getloadavg(),
                },
                fh,
                indent=2,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
