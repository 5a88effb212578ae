"""SFT export benchmark: oracle-demonstration export throughput (records/s) at demo scale.

Usage: ``python benchmarks/bench_export.py [--tasks 1000] [--format openai] [--seed-start 1000]
[--json OUT]``, or ``python benchmarks/bench_export.py --suite core-v1 [--format trl]
[--workers 2] [--repeats 1] [--json OUT]``.

Families: the four read-only credit_cards families (``card_terms_qa``, ``eligibility``,
``recommend_card``, ``offer_audit``; 26 tasks per seed with every variant), on fresh seeds from
``--seed-start`` until at least ``--tasks`` tasks, scale 0.01. Read-only families make each
episode a handful of DuckDB queries; dbt families would measure dbt, not the export.

``--suite core-v1`` measures the command users run instead (each export a fresh ``replicas export
sft --oracle --suite core-v1`` subprocess with ``--workers``, default 2; setup builds the fresh
seeds' snapshots and tasks first, not counted): one format cold (empty episode cache) and warm
(the cache the cold run filled), then three formats in one call cold and warm. Medians over
``--repeats`` (default 1: a cold core-v1 export plays every dbt demonstration under bubblewrap).

Setup — building each seed's snapshot and each task (cached in ``$REPLICAS_HOME``) — is timed
separately and NOT counted: the export's own work is what is measured, i.e. one real episode per
task to record the demonstration, the grounding check, exact dedup, rendering + schema
validation, one more episode per record to re-grade it, near dedup, split, decontamination and
writing JSONL + Parquet + card + manifest. Stage times come from the export's progress events.
The first run builds ~40 snapshots (minutes); later runs reuse them.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

FAMILIES = (
    "credit_cards.card_terms_qa-v1",
    "credit_cards.eligibility-v1",
    "credit_cards.offer_audit-v1",
    "credit_cards.recommend_card-v1",
)
SCALE = 0.01


def plan(n_tasks: int, seed_start: int) -> tuple[int, ...]:
    from replicas.tasks import get_family

    per_seed = sum(get_family(f).variants(seed_start) for f in FAMILIES)
    return tuple(range(seed_start, seed_start + math.ceil(n_tasks / per_seed)))


def setup(seeds: tuple[int, ...]) -> tuple[int, float]:
    """Build (or load from cache) every snapshot and task; returns (tasks, seconds)."""
    from replicas.build import ensure_snapshot
    from replicas.export import OracleSpec
    from replicas.tasks import build_task

    started = time.perf_counter()
    spec = OracleSpec(families=FAMILIES, seeds=seeds, scale=SCALE)
    for i, seed in enumerate(seeds, start=1):
        ensure_snapshot("credit_cards", seed, SCALE)
        print(f"\rsetup: snapshot {i}/{len(seeds)}", end="", file=sys.stderr, flush=True)
    ids = spec.task_ids()
    for tid in ids:
        build_task(tid)
    print(file=sys.stderr)
    return len(ids), time.perf_counter() - started


def suite_setup(suite: str, seeds: int, seed_start: int) -> tuple[tuple[int, ...], int, float]:
    """Snapshots and tasks of the CLI's default oracle export of ``suite`` (not counted)."""
    from replicas.build import ensure_snapshot
    from replicas.export import OracleSpec, fresh_seeds
    from replicas.suite import get_suite
    from replicas.tasks import build_task, family_names, get_family
    from replicas.tasks.base import TaskId

    started = time.perf_counter()
    avoid = {TaskId.parse(t).seed for t in get_suite(suite).task_ids}
    chosen = fresh_seeds(seeds, seed_start, avoid)
    families = tuple(f for f in get_suite(suite).families() if f in set(family_names()))
    for seed in chosen:
        for replica in sorted({get_family(f).replica for f in families}):
            ensure_snapshot(replica, seed, SCALE)
    ids = OracleSpec(families=families, seeds=chosen, scale=SCALE).task_ids()
    for i, tid in enumerate(ids, 1):
        build_task(tid)
        print(f"\rsetup: task {i}/{len(ids)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return chosen, len(ids), time.perf_counter() - started


def timed_cli(args: list[str]) -> float:
    import subprocess

    cli = Path(sys.executable).parent / "replicas"
    started = time.perf_counter()
    done = subprocess.run([str(cli), *args], capture_output=True, text=True)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"replicas {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return wall


def records_written(manifest_path: Path) -> int:
    """Records of every split (and every format of a several-format export)."""
    manifest = json.loads(manifest_path.read_text())
    if "counts" in manifest:
        return int(sum(manifest["counts"]["written"].values()))
    return int(sum(sum(f["written"].values()) for f in manifest["formats"].values()))


def suite_main(args: argparse.Namespace) -> int:
    import statistics

    seeds, n_tasks, setup_s = suite_setup(args.suite, 3, 100)
    print(f"{args.suite}: {n_tasks} tasks on seeds {seeds}; setup {setup_s:.1f}s (not counted)")
    runs: dict[str, list[float]] = defaultdict(list)
    written: dict[str, int] = {}
    for repeat in range(args.repeats):
        for label, fmt in (("one_format", args.format), ("three_formats", "trl,openai,sharegpt")):
            with tempfile.TemporaryDirectory(prefix="bench-export-") as tmp:
                cache = Path(tmp) / "episodes"
                for phase in ("cold", "warm"):
                    out = Path(tmp) / phase
                    cmd = [
                        "export", "sft", "--oracle", "--suite", args.suite, "--format", fmt,
                        "--workers", str(args.workers), "--cache-dir", str(cache),
                        "--out", str(out),
                    ]  # fmt: skip
                    runs[f"{label}_{phase}"].append(timed_cli(cmd))
                    written[label] = records_written(out / "manifest.json")
                    print(
                        f"repeat {repeat + 1}: {label} {phase} {runs[f'{label}_{phase}'][-1]:.1f}s"
                    )
    report = {
        "suite": args.suite,
        "tasks": n_tasks,
        "seeds": list(seeds),
        "workers": args.workers,
        "one_format": args.format,
        "records_written": written,
        "setup_s": round(setup_s, 1),
        "seconds": {k: [round(x, 1) for x in v] for k, v in runs.items()},
        "median_s": {k: round(statistics.median(v), 1) for k, v in runs.items()},
    }
    print("median (s): " + ", ".join(f"{k} {v}" for k, v in report["median_s"].items()))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(report, indent=2) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tasks", type=int, default=1000)
    parser.add_argument("--format", default="openai")
    parser.add_argument("--seed-start", type=int, default=1000)
    parser.add_argument("--suite", help="measure `replicas export sft --oracle --suite SUITE`")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--json", dest="json_out")
    args = parser.parse_args(argv)
    if args.suite:
        return suite_main(args)

    from replicas.export import ExportConfig, OracleSpec, export_sft

    seeds = plan(args.tasks, args.seed_start)
    n_tasks, setup_s = setup(seeds)
    stage_s: dict[str, float] = defaultdict(float)
    current = {"stage": "start"}
    since = {"t": time.perf_counter()}

    def progress(stage: str, detail: str) -> None:
        now = time.perf_counter()
        stage_s[current["stage"]] += now - since["t"]
        current["stage"], since["t"] = stage, now

    with tempfile.TemporaryDirectory(prefix="bench-export-") as tmp:
        config = ExportConfig(
            out=Path(tmp) / "sft",
            format=args.format,
            oracle=OracleSpec(families=FAMILIES, seeds=seeds, scale=SCALE),
            split_by="seed",
            eval_fraction=0.1,
        )
        started = time.perf_counter()
        result = export_sft(config, progress)
        total_s = time.perf_counter() - started
        progress("end", "")
        size = sum(p.stat().st_size for p in config.out.rglob("*") if p.is_file())
    written = sum(result.written.values())
    report = {
        "families": list(FAMILIES),
        "seeds": [seeds[0], seeds[-1]],
        "scale": SCALE,
        "format": args.format,
        "tasks": n_tasks,
        "records_written": written,
        "written": result.written,
        "left_out": dict(result.skips.counts),
        "exact_duplicates": result.manifest["counts"]["exact_duplicates"],
        "near_duplicates": result.manifest["counts"]["near_duplicates"],
        "setup_s": round(setup_s, 2),
        "export_s": round(total_s, 2),
        "tasks_per_s": round(n_tasks / total_s, 1),
        "records_per_s": round(written / total_s, 1),
        "stage_s": {k: round(v, 2) for k, v in stage_s.items() if k not in ("start", "end")},
        "output_mib": round(size / 2**20, 2),
    }
    print(
        f"export {args.format}: {n_tasks} tasks on seeds {seeds[0]}-{seeds[-1]} -> {written} "
        f"records in {total_s:.1f}s = {report['records_per_s']} records/s "
        f"({report['tasks_per_s']} tasks/s); setup (snapshots + tasks, not counted) {setup_s:.1f}s"
    )
    print("stages (s): " + ", ".join(f"{k} {v}" for k, v in report["stage_s"].items()))
    if result.skips.counts:
        print(f"left out: {result.skips.summary()}")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
