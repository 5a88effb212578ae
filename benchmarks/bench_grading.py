"""dbt grading rebuild benchmark: one sandboxed dbt process over several datasets vs a fresh
``dbt run`` subprocess per dataset.

Usage: ``python benchmarks/bench_grading.py [--replica ecommerce] [--seed 1] [--repeats 3]
[--task ecommerce.dbt_fix-v2.s1.0] [--json OUT]``.

Grading a hidden-data dbt task (every ``-v2`` dbt family) rebuilds the agent's project on the
visible raw data and on K hidden datasets. Three ways of doing those K+1 rebuilds are timed on
the same machine, interleaved within each repeat so load affects them alike (medians reported):

- ``one_process``: ``run_dbt_datasets`` over the visible + K hidden raw files — dbt is imported
  and the project parsed once, then ``dbt run`` is invoked once per dataset in the same
  bubblewrap-sandboxed process;
- ``per_dataset_subprocess`` (the baseline): K+1 separate ``run_dbt`` calls, each a fresh
  sandboxed ``python -m dbt.cli.main run`` subprocess (import, parse and run every time);
- ``grade_dbt``: the grader end to end (``_grade_dbt_uncached`` of the task: the visible
  rebuild in one subprocess, then the K hidden rebuilds in one process, plus the comparisons),
  on the task's fixed project, without a parse seed (as before ``replicas.sandbox.parse_seed``);
  its verdict must pass;
- ``grade_dbt_seeded``: the same, as the kit grades now: both rebuilds start from the parse of
  the task's starting project (made once, before the repeats, and reused from the cache), so dbt
  parses only the fixed model.

The selection is the task's ``+model`` selection (what grading runs). Every rebuilt warehouse is
checked for the task's models, so a fast failure cannot pass for a fast rebuild.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any


def _fresh_project(src: Path, where: Path) -> Path:
    from replicas.sandbox import copy_project_safely

    project = where / "project"
    refused = copy_project_safely(src, project)
    if refused:
        raise RuntimeError(f"refused project files: {refused}")
    return project


def _has_models(warehouse: Path, models: tuple[str, ...]) -> bool:
    from replicas.db import open_readonly

    con = open_readonly(warehouse)
    try:
        for model in models:
            row = con.execute(
                "select count(*) from information_schema.tables where table_schema = 'main' "
                "and lower(table_name) = lower(?)",
                [model],
            ).fetchone()
            if not row or not row[0]:
                return False
        return True
    finally:
        con.close()


def one_process(
    project_src: Path, raws: list[Path], select: list[str], models: tuple[str, ...]
) -> float:
    from replicas.dbt import run_dbt_datasets

    with tempfile.TemporaryDirectory(prefix="replicas-sbx-") as tmp:
        where = Path(tmp)
        project = _fresh_project(project_src, where)
        db = where / "db"
        db.mkdir()
        names = [f".d{i}.duckdb" for i in range(len(raws))]
        for name, raw in zip(names, raws, strict=True):
            shutil.copyfile(raw, db / name)
        started = time.perf_counter()
        result, runs = run_dbt_datasets(project, db, names, ["run", "--select", *select])
        wall = time.perf_counter() - started
        if not result.ok or not all(r.ok for r in runs):
            raise RuntimeError(f"one-process rebuild failed: {result.summary[:500]}")
        if not all(_has_models(db / n, models) for n in names):
            raise RuntimeError("one-process rebuild did not build the models")
    return wall


def per_dataset_subprocess(
    project_src: Path, raws: list[Path], select: list[str], models: tuple[str, ...]
) -> float:
    from replicas.dbt import run_dbt

    total = 0.0
    for raw in raws:
        with tempfile.TemporaryDirectory(prefix="replicas-sbx-") as tmp:
            where = Path(tmp)
            project = _fresh_project(project_src, where)
            warehouse = where / "warehouse.duckdb"
            shutil.copyfile(raw, warehouse)
            started = time.perf_counter()
            result = run_dbt(project, warehouse, ["run", "--select", *select])
            total += time.perf_counter() - started
            if not result.ok or not _has_models(warehouse, models):
                raise RuntimeError(f"subprocess rebuild failed: {result.summary[:500]}")
    return total


def grade_end_to_end(
    task: Any, snapshot: Any, project_src: Path, start_project: Path | None = None
) -> float:
    from replicas.tasks.grading import GradeContext, _grade_dbt_uncached

    with tempfile.TemporaryDirectory(prefix="replicas-bench-") as tmp:
        project = _fresh_project(project_src, Path(tmp))
        ctx = GradeContext(
            snapshot=snapshot,
            sandbox_root=Path(tmp),
            project_dir=project,
            start_project=start_project,
        )
        started = time.perf_counter()
        try:
            verdict = _grade_dbt_uncached(task, ctx)
        finally:
            ctx.close()
        wall = time.perf_counter() - started
    if not verdict.passed:
        raise RuntimeError(f"the fixed project did not grade: {verdict.feedback[:500]}")
    return wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--task", default="ecommerce.dbt_fix-v2.s1.0")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", dest="json_out")
    args = parser.parse_args(argv)

    from replicas.osbox import isolation_mode
    from replicas.sandbox import raw_only_warehouse
    from replicas.sandbox.parse_seed import parse_seed
    from replicas.sandbox.templates import project_template
    from replicas.tasks import build_task
    from replicas.tasks.hidden import hidden_datasets
    from replicas.tasks.loader import load_snapshot

    task = build_task(args.task)
    if not task.verifier.hidden_data:
        raise SystemExit(f"{args.task} does not grade on hidden data")
    snapshot = load_snapshot(task.replica, task.seed, task.scale)
    models = tuple(task.verifier.dbt_models)
    select = [f"+{m}" for m in models]
    hidden = hidden_datasets(task.replica)
    raws = [raw_only_warehouse(snapshot), *(d.raw for d in hidden)]
    # the pristine project is the fixed one (dbt_fix's oracle writes the pristine file back)
    project_src = snapshot.dbt_project
    start_project = project_template(snapshot, task.sandbox_patch)
    if parse_seed(start_project) is None:
        raise SystemExit("no parse seed could be made (is bubblewrap available?)")
    print(
        f"{args.task}: select {' '.join(select)}; visible + {len(hidden)} hidden datasets; "
        f"isolation {isolation_mode()}; {args.repeats} repeats"
    )
    times: dict[str, list[float]] = {
        "one_process": [],
        "per_dataset_subprocess": [],
        "grade_dbt": [],
        "grade_dbt_seeded": [],
    }
    for i in range(args.repeats):
        times["one_process"].append(one_process(project_src, raws, select, models))
        times["per_dataset_subprocess"].append(
            per_dataset_subprocess(project_src, raws, select, models)
        )
        times["grade_dbt"].append(grade_end_to_end(task, snapshot, project_src))
        times["grade_dbt_seeded"].append(
            grade_end_to_end(task, snapshot, project_src, start_project)
        )
        print(f"repeat {i + 1}: " + ", ".join(f"{k} {v[-1]:.1f}s" for k, v in times.items()))
    med = {k: statistics.median(v) for k, v in times.items()}
    report = {
        "task": args.task,
        "datasets": 1 + len(hidden),
        "isolation": isolation_mode(),
        "repeats": args.repeats,
        "seconds": {k: [round(x, 2) for x in v] for k, v in times.items()},
        "median_s": {k: round(v, 2) for k, v in med.items()},
        "ratio_subprocess_over_one_process": round(
            med["per_dataset_subprocess"] / med["one_process"], 2
        ),
        "ratio_subprocess_over_grade_dbt": round(
            med["per_dataset_subprocess"] / med["grade_dbt"], 2
        ),
        "ratio_grade_dbt_over_seeded": round(med["grade_dbt"] / med["grade_dbt_seeded"], 2),
        "ratio_subprocess_over_grade_dbt_seeded": round(
            med["per_dataset_subprocess"] / med["grade_dbt_seeded"], 2
        ),
    }
    print(
        f"median: one process {med['one_process']:.1f}s, {1 + len(hidden)} subprocesses "
        f"{med['per_dataset_subprocess']:.1f}s, grade_dbt {med['grade_dbt']:.1f}s -> "
        f"{report['ratio_subprocess_over_one_process']}x (one process), "
        f"{report['ratio_subprocess_over_grade_dbt']}x (grade_dbt end to end); "
        f"seeded grade_dbt {med['grade_dbt_seeded']:.1f}s -> "
        f"{report['ratio_grade_dbt_over_seeded']}x over unseeded, "
        f"{report['ratio_subprocess_over_grade_dbt_seeded']}x over the subprocesses"
    )
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
