"""SIGTERM stops ``replicas build --seeds``, ``factory``, ``run`` and ``audit`` like Ctrl-C.

Before, a SIGTERM (a scheduler's, ``kill``, a CI timeout) killed the parent at once and left its
busy worker processes running. Now each command turns it into ``KeyboardInterrupt``: the workers
are stopped, the command exits 130 with its interrupt message, and nothing half-written is left.
Each test runs the real command in a subprocess and signals it once its workers are busy.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replicas.build import Snapshot
from tests.signals_support import Stopped, sigterm_midway

# each starts a real command with two workers (dbt builds or episodes) and stops it
pytestmark = pytest.mark.slow


def _assert_stopped(stopped: Stopped, message: str) -> None:
    try:
        assert stopped.returncode == 130, stopped.stderr
        assert message in stopped.stderr and "Traceback" not in stopped.stderr, stopped.stderr
        assert stopped.started, "the command started no process"
        assert not stopped.survivors(), "processes outlived the command"
    finally:
        stopped.kill_survivors()


def _assert_no_partial_snapshot(home: Path) -> None:
    """Only complete, intact snapshots (and compiled projects) in the cache; no staging dirs."""
    for parent in (home / "snapshots", home / "compiled"):
        if parent.is_dir():
            assert not [p.name for p in parent.glob(".tmp-*")], f"staging left in {parent}"
    snapshots = home / "snapshots"
    for path in snapshots.iterdir() if snapshots.is_dir() else ():
        if path.is_dir() and not path.name.startswith("."):
            assert Snapshot.load(path).verify() == [], path


def test_sigterm_stops_a_seed_farm(tmp_path: Path) -> None:
    home = tmp_path / "home"  # empty: the first seed compiles with dbt while the other waits
    args = ["build", "ecommerce", "--seeds", "1-4", "--workers", "2"]
    stopped = sigterm_midway(
        args, workers=2, logs=tmp_path / "logs", env={"REPLICAS_HOME": str(home)}
    )
    _assert_stopped(stopped, "interrupted; finished seeds are cached")
    _assert_no_partial_snapshot(home)


def test_sigterm_stops_the_factory(tmp_path: Path) -> None:
    home = tmp_path / "home"
    out = tmp_path / "factory"
    args = ["factory", "ecommerce", "--seeds", "1-2", "--workers", "2", "--out", str(out)]
    stopped = sigterm_midway(
        args, workers=2, logs=tmp_path / "logs", env={"REPLICAS_HOME": str(home)}
    )
    _assert_stopped(stopped, "interrupted; nothing was written")
    assert not out.exists()
    _assert_no_partial_snapshot(home)


def test_sigterm_stops_a_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["run", "--suite", "core-v1", "--agent", "oracle", "--tasks", "ecommerce.dbt_fix-v1.*"]
    args += ["--workers", "2", "--out", str(out)]
    stopped = sigterm_midway(args, workers=2, logs=tmp_path / "logs")
    _assert_stopped(stopped, "--resume")
    # what is recorded is whole: every line a complete record, no temporary file beside them
    results = out / "results.jsonl"
    lines = results.read_text().splitlines() if results.exists() else []
    assert all(isinstance(json.loads(line), dict) for line in lines)
    assert not [p.name for p in out.rglob("*") if ".tmp" in p.name]


def test_sigterm_stops_an_audit(tmp_path: Path) -> None:
    out = tmp_path / "audit"
    args = ["audit", "--tasks", "ecommerce.dbt_fix-v1.s1.0,ecommerce.dbt_fix-v1.s2.0"]
    args += ["--checks", "oracle", "--seeds", "0", "--workers", "2", "--out", str(out)]
    stopped = sigterm_midway(args, workers=2, logs=tmp_path / "logs")
    _assert_stopped(stopped, "interrupted; nothing was written")
    assert not (out / "audit.json").exists()
