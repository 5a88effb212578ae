"""Dump built tasks of a published suite, bypassing every task cache, and diff two dumps.

A change to shared task code must leave every published task's behaviour byte-identical. This
tool makes that checkable: build a suite's tasks before and after the change and diff::

    python -m replicas.devtools.task_dump dump --suite core-v3 --replica ecommerce --out before.jsonl
    # ... change the code ...
    python -m replicas.devtools.task_dump dump --suite core-v3 --replica ecommerce --out after.jsonl
    python -m replicas.devtools.task_dump diff before.jsonl after.jsonl

``dump`` calls ``family.build`` on the pristine snapshot for every task id (never the in-process
or on-disk task cache: a cached task would hide the change) and writes one JSON line per task:
its id and the fields of ``Task.to_dict()`` (expected answer, wrong readings, metadata,
instruction, oracle, verifier …). ``--threads N`` opens the snapshots with DuckDB ``threads=N``
(default: DuckDB's, the machine's core count), to see whether a build depends on it.
``--family-prefix`` keeps only the families whose name starts with one of the given prefixes.
Each record names the snapshot it was built on (``snapshot``); ``--snapshots-of BEFORE`` builds
on the very snapshots an earlier dump used, so an edit to a generator made meanwhile (a new
snapshot key) cannot pass for a change of the tasks.

``diff`` prints, per task, the fields that differ and the first differing text of each; exit 1
when any task differs (``--ignore FIELD`` leaves a field out, e.g. ``oracle`` when only the
oracle's SQL text was meant to change).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from replicas import db
from replicas.build.snapshot import Snapshot
from replicas.protocols import SnapshotLike
from replicas.suite import get_suite
from replicas.tasks.base import TaskId
from replicas.tasks.loader import load_snapshot
from replicas.tasks.registry import get_family


def _task_ids(suites: Iterable[str], replica: str | None, prefixes: Sequence[str]) -> list[str]:
    ids: list[str] = []
    for name in suites:
        for tid in get_suite(name).task_ids:
            parsed = TaskId.parse(tid)
            if replica and parsed.family.split(".", 1)[0] != replica:
                continue
            if prefixes and not any(parsed.family.startswith(p) for p in prefixes):
                continue
            if tid not in ids:
                ids.append(tid)
    return ids


def dump(
    ids: Sequence[str],
    out: Path,
    threads: int | None = None,
    snapshots: dict[str, str] | None = None,
) -> int:
    """Build every task in ``ids`` without caches; one JSON line each. Returns the count.

    ``snapshots`` maps a task id to the snapshot directory to build it on (default: the
    snapshot cache's current one for the task's key).
    """
    if threads is not None:
        db.close_readonly_connections()
        db.SAFE_DUCKDB_CONFIG["threads"] = threads
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:
        for tid in ids:
            parsed = TaskId.parse(tid)
            family = get_family(parsed.family)
            snapshot: SnapshotLike
            if snapshots and tid in snapshots:
                snapshot = Snapshot.load(Path(snapshots[tid]))
            else:
                snapshot = load_snapshot(family.replica, parsed.seed, parsed.scale)
            started = time.monotonic()
            task = family.build(snapshot, parsed.seed, parsed.variant)
            record = {"id": tid, "snapshot": str(snapshot.path), **task.to_dict()}
            fh.write(json.dumps(record, sort_keys=True) + "\n")
            fh.flush()
            print(f"{tid}  {time.monotonic() - started:.1f}s", file=sys.stderr)
    return len(ids)


def _load(path: Path) -> dict[str, dict[str, Any]]:
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return {r["id"]: r for r in records}


def _first_difference(a: str, b: str, width: int = 80) -> str:
    at = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    lo = max(0, at - width)
    return f"at {at}: …{a[lo : at + width]}… | …{b[lo : at + width]}…"


def diff(before: Path, after: Path, ignore: Sequence[str] = ()) -> int:
    """Print the differing fields per task; the number of tasks that differ."""
    old, new = _load(before), _load(after)
    differing = 0
    for tid in sorted(set(old) | set(new)):
        if tid not in old or tid not in new:
            print(f"{tid}: only in {'after' if tid not in old else 'before'}")
            differing += 1
            continue
        fields = sorted((set(old[tid]) | set(new[tid])) - set(ignore))
        changed = []
        for f in fields:
            a = json.dumps(old[tid].get(f), sort_keys=True)
            b = json.dumps(new[tid].get(f), sort_keys=True)
            if a != b:
                changed.append(f"  {f} {_first_difference(a, b)}")
        if changed:
            differing += 1
            print(f"{tid}:")
            print("\n".join(changed))
    print(f"{len(set(old) | set(new))} tasks, {differing} differ (ignored: {list(ignore)})")
    return differing


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m replicas.devtools.task_dump")
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump", help="build a suite's tasks without caches, one JSON line each")
    d.add_argument("--suite", action="append", required=True, help="suite name (repeatable)")
    d.add_argument("--replica", default=None, help="only this replica's tasks")
    d.add_argument("--family-prefix", action="append", default=[], help="only these families")
    d.add_argument("--threads", type=int, default=None, help="DuckDB threads for the builds")
    d.add_argument("--snapshots-of", type=Path, default=None, help="reuse a dump's snapshots")
    d.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("diff", help="fields that differ between two dumps (exit 1 if any)")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    c.add_argument("--ignore", action="append", default=[], help="a field not to compare")
    args = parser.parse_args(argv)
    if args.command == "dump":
        ids = _task_ids(args.suite, args.replica, args.family_prefix)
        snapshots = None
        if args.snapshots_of is not None:
            snapshots = {tid: r["snapshot"] for tid, r in _load(args.snapshots_of).items()}
        n = dump(ids, args.out, args.threads, snapshots)
        print(f"{n} tasks -> {args.out}", file=sys.stderr)
        return 0
    return 1 if diff(args.before, args.after, args.ignore) else 0


if __name__ == "__main__":
    sys.exit(main())
