"""SIGTERM stops an export like Ctrl-C: the worker pool is stopped and nothing is written.

Before, a SIGTERM killed the parent at once and left its busy worker processes running.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # builds two fresh-seed snapshots and starts dbt episodes


def _processes() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, command line), read from /proc."""
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        ppid = next(
            int(line.split()[1]) for line in status.splitlines() if line.startswith("PPid:")
        )
        table[int(entry.name)] = (ppid, cmdline)
    return table


def _workers(parent: int) -> list[int]:
    """The spawned pool workers among ``parent``'s descendants."""
    table = _processes()
    family = {parent}
    changed = True
    while changed:
        changed = False
        for pid, (ppid, _) in table.items():
            if ppid in family and pid not in family:
                family.add(pid)
                changed = True
    return [pid for pid in family - {parent} if "spawn_main" in table[pid][1]]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "State:\tZ" not in state


def test_sigterm_stops_the_workers_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "sft"
    command = [sys.executable, "-m", "replicas.cli", "export", "sft", "--oracle"]
    command += ["--family", "ecommerce.dbt_fix-v2", "--seeds", "3", "--variants", "1"]
    command += ["--workers", "2", "--no-cache", "--eval-fraction", "0", "--format", "trl"]
    command += ["--out", str(out)]
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 300
    workers: list[int] = []
    while time.monotonic() < deadline and not workers:
        assert proc.poll() is None, proc.communicate()
        workers = _workers(proc.pid)
        time.sleep(0.2)
    assert workers, "the export never started its worker pool"
    time.sleep(1.0)  # let them pick up their episodes
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    assert "nothing was written" in stderr and "Traceback" not in stderr
    assert not out.exists()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(map(_alive, workers)):
        time.sleep(0.2)
    assert not [pid for pid in workers if _alive(pid)]
