"""SFT export benchmark: oracle-demonstration export throughput (records/s) at demo scale.

Usage: ``python benchmarks/bench_export.py [--tasks 1000] [--format openai] [--seed-start 1000]
[--json OUT]``.

Families: the four read-only credit_cards families (``card_terms_qa``, ``eligibility``,
``recommend_card``, ``offer_audit``; 26 tasks per seed with every variant), on fresh seeds from
``--seed-start`` until at least ``--tasks`` tasks, scale 0.01. Read-only families make each
episode a handful of DuckDB queries; dbt families would measure dbt, not the export.

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tasks", type=int, default=1000)
    parser.add_argument("--format", default="openai")
    parser.add_argument("--seed-start", type=int, default=1000)
    parser.add_argument("--json", dest="json_out")
    args = parser.parse_args(argv)

    from replicas.export import ExportConfig, OracleSpec, export_sft

    seeds = plan(args.tasks, args.seed_start)
    n_tasks, setup_s = setup(seeds)
    stage_s: dict[str, float] = defaultdict(float)
    clock = {"stage": "start", "t": time.perf_counter()}

    def progress(stage: str, detail: str) -> None:
        now = time.perf_counter()
        stage_s[clock["stage"]] += now - float(clock["t"])
        clock["stage"], clock["t"] = stage, now

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
