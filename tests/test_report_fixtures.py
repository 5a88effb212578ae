"""The synthetic run directories the report tests use are what the reader accepts."""

from __future__ import annotations

from pathlib import Path

from replicas.report import load_run
from tests.report_runs import make_run_dir


def test_synthetic_run_round_trips_through_the_reader(tmp_path: Path) -> None:
    run = make_run_dir(tmp_path / "run", seed=3)
    loaded = load_run(run.path)
    assert len(loaded.episodes) == len(run.records) == 4 * 4 * 3
    assert loaded.skipped == {"torn": 0, "foreign": 0, "duplicate": 0}
    assert loaded.config["suite"] == "core-v1"
    errors = [r for r in run.records if "error" in r]
    assert sum(e.agent_error for e in loaded.episodes) == len(errors) > 0
