"""The run directory on disk: ``results.jsonl``, ``trajectories/``, ``run.json``.

Crash safety is the whole point of this module:

* a result line is appended with ONE ``write`` of the full line on an ``O_APPEND`` descriptor,
  under an exclusive ``flock`` and followed by ``fsync`` — concurrent writers never interleave
  and a line is either wholly on disk or (after a crash mid-write) a torn tail without ``\\n``;
* a torn tail is detected when the file is read and cut off before the next append, so a resumed
  run never glues a new line onto half an old one;
* a trajectory is written to a temp file and renamed *before* its result line is appended, so
  every recorded episode has its trajectory;
* ``run.json`` is replaced atomically.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from replicas.atomicio import write_json_atomic
from replicas.records import (
    RESULTS_SCHEMA_VERSION,
    EpisodeKey,
    EpisodeRecord,
    RunRecord,
    record_key,
)

RESULTS_FILE = "results.jsonl"
RUN_FILE = "run.json"
TRAJECTORIES_DIR = "trajectories"


@dataclass(frozen=True)
class ResultsRead:
    """What reading ``results.jsonl`` found.

    ``records`` are the valid lines in file order; ``torn_tail`` is True when the last line has no
    newline (a crash mid-append); ``bad_lines`` are 1-based numbers of complete lines that are not
    result records of a known schema (foreign or corrupted), skipped by every reader.
    """

    records: tuple[dict[str, Any], ...]
    torn_tail: bool
    bad_lines: tuple[int, ...]

    @property
    def keys(self) -> set[EpisodeKey]:
        return {record_key(r) for r in self.records}


def _parse_line(line: bytes) -> dict[str, Any] | None:
    try:
        data = json.loads(line)
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("schema_version") != RESULTS_SCHEMA_VERSION:
        return None
    try:
        EpisodeRecord.model_validate(data)
    except ValueError:
        return None
    return data


def read_results(run_dir: str | os.PathLike[str]) -> ResultsRead:
    """Parse ``run_dir/results.jsonl`` without modifying it (missing file → no records).

    Duplicated episode keys (possible only if someone concatenated files) keep the first line.
    """
    path = Path(run_dir) / RESULTS_FILE
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return ResultsRead((), False, ())
    torn = bool(raw) and not raw.endswith(b"\n")
    lines = raw.split(b"\n")
    if torn:
        lines = lines[:-1]
    records: list[dict[str, Any]] = []
    bad: list[int] = []
    seen: set[EpisodeKey] = set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        data = _parse_line(line)
        if data is None:
            bad.append(number)
            continue
        key = record_key(data)
        if key in seen:
            continue
        seen.add(key)
        records.append(data)
    return ResultsRead(tuple(records), torn, tuple(bad))


@contextlib.contextmanager
def _locked_fd(path: Path) -> Iterator[int]:
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield fd
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def repair_torn_tail(run_dir: str | os.PathLike[str]) -> int:
    """Cut a torn last line (no trailing newline) off ``results.jsonl``; return bytes removed."""
    path = Path(run_dir) / RESULTS_FILE
    if not path.exists():
        return 0
    with _locked_fd(path):
        raw = path.read_bytes()
        if not raw or raw.endswith(b"\n"):
            return 0
        keep = raw.rfind(b"\n") + 1
        os.truncate(path, keep)
        return len(raw) - keep


class ResultsStore:
    """Appends episodes to a run directory; the single writer of a run's result lines."""

    def __init__(self, run_dir: str | os.PathLike[str]) -> None:
        self.run_dir = Path(run_dir)
        self.results_path = self.run_dir / RESULTS_FILE

    def prepare(self) -> None:
        """Create the run directory (nothing is created before a run has passed validation)."""
        (self.run_dir / TRAJECTORIES_DIR).mkdir(parents=True, exist_ok=True)

    def read(self) -> ResultsRead:
        return read_results(self.run_dir)

    def repair(self) -> int:
        return repair_torn_tail(self.run_dir)

    def append(self, record: EpisodeRecord, trajectory: Mapping[str, Any] | None) -> None:
        """Persist one episode: trajectory first (atomic rename), then its result line."""
        self.prepare()
        if trajectory is not None:
            if not record.trajectory:
                raise ValueError(f"{record.task_id}: a recorded trajectory needs its path")
            write_json_atomic(self.run_dir / record.trajectory, trajectory, indent=1, default=str)
        line = (json.dumps(record.to_dict(), separators=(",", ":"), default=str) + "\n").encode()
        with _locked_fd(self.results_path) as fd:
            # Another process may have left a torn tail since we last looked: never glue onto it.
            size = os.fstat(fd).st_size
            if size:
                with open(self.results_path, "rb") as fh:
                    fh.seek(size - 1)
                    if fh.read(1) != b"\n":
                        keep = _last_newline_end(self.results_path, size)
                        os.truncate(self.results_path, keep)
            written = os.write(fd, line)
            while written < len(line):  # a regular file takes it in one write; be exact anyway
                written += os.write(fd, line[written:])
            os.fsync(fd)

    def read_run_config(self) -> dict[str, Any] | None:
        return read_run_config(self.run_dir)

    def write_run_config(self, config: Mapping[str, Any]) -> None:
        """Replace ``run.json`` with ``config``, validated as a :class:`RunRecord` first."""
        record = RunRecord.model_validate(dict(config))
        self.prepare()
        write_json_atomic(self.run_dir / RUN_FILE, record.to_dict(), indent=1, default=str)


def _last_newline_end(path: Path, size: int) -> int:
    with open(path, "rb") as fh:
        raw = fh.read(size)
    return raw.rfind(b"\n") + 1


def read_run_config(run_dir: str | os.PathLike[str]) -> dict[str, Any] | None:
    """``run.json`` of a run directory as written, or None when absent, unreadable or not a
    :class:`~replicas.records.RunRecord`."""
    try:
        data = json.loads((Path(run_dir) / RUN_FILE).read_text(encoding="utf-8"))
        return RunRecord.model_validate(data).to_dict()
    except (OSError, ValueError):
        return None


def read_trajectory(run_dir: str | os.PathLike[str], record: Mapping[str, Any]) -> dict[str, Any]:
    """The trajectory of a result record (FileNotFoundError / ValueError when missing/corrupt)."""
    rel = record.get("trajectory")
    if not isinstance(rel, str) or rel.startswith("/") or ".." in Path(rel).parts:
        raise ValueError(f"record has no usable trajectory path: {rel!r}")
    data = json.loads((Path(run_dir) / rel).read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"trajectory {rel} is not a JSON object")
    return data
