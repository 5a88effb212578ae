"""Send SIGTERM to a real ``replicas`` command mid-run and see what it leaves behind.

A job command (``build --seeds``, ``factory``, ``run``, ``audit``) started as a subprocess; once
its worker processes exist it gets SIGTERM, and the caller checks the exit code, stderr, that
every process it had started is gone and that no partial artifact is left.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path


def _parents() -> dict[int, int]:
    """pid -> parent pid, read from /proc."""
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("PPid:"):
                table[int(entry.name)] = int(line.split()[1])
                break
    return table


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (workers, and their dbt or bubblewrap children)."""
    table = _parents()
    family = {pid}
    changed = True
    while changed:
        changed = False
        for child, parent in table.items():
            if parent in family and child not in family:
                family.add(child)
                changed = True
    return family - {pid}


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "State:\tZ" not in state


@dataclass
class Stopped:
    """What a SIGTERMed command did: its exit code, stderr, and the processes it had started."""

    returncode: int
    stderr: str
    started: set[int]

    def survivors(self, within_s: float = 30.0) -> list[int]:
        """The started processes still running after ``within_s`` seconds."""
        deadline = time.monotonic() + within_s
        while time.monotonic() < deadline and any(map(alive, self.started)):
            time.sleep(0.2)
        return sorted(pid for pid in self.started if alive(pid))

    def kill_survivors(self) -> None:
        """SIGKILL whatever of it is left (a failed test must not leave workers behind)."""
        for pid in self.started:
            if alive(pid):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)


def sigterm_midway(
    args: Sequence[str],
    *,
    workers: int,
    logs: Path,
    env: Mapping[str, str] | None = None,
    settle_s: float = 2.0,
    start_timeout_s: float = 300.0,
) -> Stopped:
    """Run ``python -m replicas.cli ARGS``; once it has ``workers`` child processes, wait
    ``settle_s`` (they pick up jobs), send SIGTERM and wait for it to exit.

    Output goes to files under ``logs``, not pipes: an orphaned worker would hold a pipe open
    and hang the test instead of failing it. Processes still running once the assertions are
    done are killed (:meth:`Stopped.kill_survivors`)."""
    logs.mkdir(parents=True, exist_ok=True)
    with open(logs / "stdout", "wb") as out, open(logs / "stderr", "wb") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "replicas.cli", *args],
            stdout=out,
            stderr=err,
            env={**os.environ, **(env or {})},
        )
    deadline = time.monotonic() + start_timeout_s
    started: set[int] = set()
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(
                f"finished before it was stopped ({proc.returncode}): "
                + (logs / "stderr").read_text()
            )
        started = descendants(proc.pid)
        if len({p for p in started if _is_python(p)}) >= workers:
            break
        time.sleep(0.2)
    else:
        proc.kill()
        raise AssertionError(f"never started {workers} workers")
    time.sleep(settle_s)
    started |= descendants(proc.pid)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=180)
    return Stopped(proc.returncode, (logs / "stderr").read_text(), started)


def _is_python(pid: int) -> bool:
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    # a spawn pool also starts multiprocessing's resource tracker: not a worker
    return b"python" in cmdline.split(b"\0", 1)[0] and b"resource_tracker" not in cmdline
