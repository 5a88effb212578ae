"""SIGTERM stops an export like Ctrl-C: the worker pool is stopped and nothing is written.

Before, a SIGTERM killed the parent at once and left its busy worker processes running.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.signals_support import sigterm_midway

pytestmark = pytest.mark.slow  # builds two fresh-seed snapshots and starts dbt episodes


def test_sigterm_stops_the_workers_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "sft"
    args = ["export", "sft", "--oracle", "--family", "ecommerce.dbt_fix-v2", "--seeds", "3"]
    args += ["--variants", "1", "--workers", "2", "--no-cache", "--eval-fraction", "0"]
    args += ["--format", "trl", "--out", str(out)]
    stopped = sigterm_midway(args, workers=2, logs=tmp_path / "logs", settle_s=1.0)
    try:
        assert stopped.returncode == 130, stopped.stderr
        assert "nothing was written" in stopped.stderr, stopped.stderr
        assert "Traceback" not in stopped.stderr, stopped.stderr
        assert not out.exists()
        assert not stopped.survivors(), "processes outlived the export"
    finally:
        stopped.kill_survivors()
