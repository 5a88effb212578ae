"""Read a run directory (``results.jsonl``, ``run.json``, ``trajectories/``) for reporting.

The runner appends one JSON line per episode and may be killed mid-write, other tools may have
appended lines of their own, and a run may be resumed twice. Reporting must still work, so lines
are classified instead of trusted: a line that is not JSON is *torn*, a JSON value that is not an
episode record is *foreign*, a repeat of an already-seen episode key is a *duplicate*; each class
is counted and skipped with a warning. A schema version this code does not know is a hard error:
guessing at a future format would print confident wrong numbers.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from replicas.records import RESULTS_SCHEMA_VERSION, EpisodeKey, EpisodeRecord, RunRecord
from replicas.records.fields import problems

RESULTS_FILE = "results.jsonl"
RUN_FILE = "run.json"
TRAJECTORIES_DIR = "trajectories"

#: results.jsonl schema versions this reader understands
SUPPORTED_RESULT_SCHEMAS: frozenset[int] = frozenset({RESULTS_SCHEMA_VERSION})


class ReportInputError(ValueError):
    """The run directory cannot be reported on (missing, empty, or an unknown format)."""


@dataclass(frozen=True)
class LoadedRun:
    """A run directory after validation; ``skipped`` counts the lines that were not used."""

    run_dir: Path
    config: dict[str, Any]
    episodes: tuple[EpisodeRecord, ...]
    lines: int
    skipped: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """Short display name: the run's agent(s), or the directory name when mixed."""
        agents = sorted({e.agent for e in self.episodes})
        return agents[0] if len(agents) == 1 else self.run_dir.name


def parse_episode(record: Any) -> EpisodeRecord:
    """Validate one decoded results line; raises ``ValueError`` when it is not an episode."""
    if not isinstance(record, dict):
        raise ValueError(f"not an object but {type(record).__name__}")
    try:
        return EpisodeRecord.model_validate(record)
    except ValidationError as exc:
        raise ValueError("; ".join(problems(exc))) from None


def _schema_version(record: Any) -> Any:
    return record.get("schema_version") if isinstance(record, dict) else None


def _read_config(run_dir: Path, warnings: list[str]) -> dict[str, Any]:
    path = run_dir / RUN_FILE
    if not path.is_file():
        return {}
    try:
        config = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        warnings.append(f"{RUN_FILE} is unreadable ({exc}); run configuration omitted")
        return {}
    if not isinstance(config, dict):
        warnings.append(f"{RUN_FILE} is not a JSON object; run configuration omitted")
        return {}
    try:
        return RunRecord.model_validate(config).to_dict()
    except ValidationError as exc:
        warnings.append(
            f"{RUN_FILE} is not a run record ({'; '.join(problems(exc))}); "
            "run configuration omitted"
        )
        return {}


def load_run(run_dir: Path | str) -> LoadedRun:
    """Read and validate a run directory; raises :class:`ReportInputError` when it is unusable."""
    run_dir = Path(run_dir)
    if not run_dir.exists():
        raise ReportInputError(f"run directory {run_dir} does not exist")
    if not run_dir.is_dir():
        raise ReportInputError(f"{run_dir} is not a directory")
    results = run_dir / RESULTS_FILE
    if not results.is_file():
        raise ReportInputError(f"{run_dir} has no {RESULTS_FILE}: not a run directory")
    warnings: list[str] = []
    config = _read_config(run_dir, warnings)
    skipped = {"torn": 0, "foreign": 0, "duplicate": 0}
    first_problem: dict[str, str] = {}
    episodes: dict[EpisodeKey, EpisodeRecord] = {}
    lines = 0
    raw = results.read_bytes().decode("utf-8", errors="replace")
    for number, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        lines += 1
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            skipped["torn"] += 1
            first_problem.setdefault("torn", f"line {number}")
            continue
        version = _schema_version(record)
        if version is not None and version not in SUPPORTED_RESULT_SCHEMAS:
            raise ReportInputError(
                f"{results} line {number} has schema_version {version!r}; this kit reads "
                f"{sorted(SUPPORTED_RESULT_SCHEMAS)} (upgrade replica-kit to report on this run)"
            )
        try:
            if version is None:
                raise ValueError("no schema_version")
            episode = parse_episode(record)
        except ValueError as exc:
            skipped["foreign"] += 1
            first_problem.setdefault("foreign", f"line {number}: {exc}")
            continue
        if episode.key in episodes:
            skipped["duplicate"] += 1
            first_problem.setdefault("duplicate", f"line {number}: {episode.key}")
            continue
        episodes[episode.key] = episode
    for kind, count in skipped.items():
        if count:
            warnings.append(
                f"skipped {count} {kind} line(s) in {RESULTS_FILE} (first: {first_problem[kind]})"
            )
    if not episodes:
        raise ReportInputError(
            f"{results} holds no valid episode records ({lines} non-empty line(s); "
            + ", ".join(f"{k}={v}" for k, v in skipped.items())
            + ")"
        )
    ordered = tuple(sorted(episodes.values(), key=lambda e: e.key))
    return LoadedRun(run_dir, config, ordered, lines, skipped, tuple(warnings))


_UNSAFE = re.compile(r"[^A-Za-z0-9._\-]+")


def trajectory_path(run_dir: Path, episode: EpisodeRecord) -> Path | None:
    """Locate an episode's trajectory file, tolerating agent names the runner had to sanitise.

    The runner names files ``<task_id>__<agent>__a<attempt>.json``; adversary attempts may carry
    their strategy in the name too, so a file naming the episode's strategy wins when present.
    """
    folder = run_dir / TRAJECTORIES_DIR
    if episode.trajectory:
        candidate = run_dir / episode.trajectory
        inside = candidate.resolve().is_relative_to(run_dir.resolve())
        if inside and candidate.is_file():
            return candidate
    if not folder.is_dir():
        return None
    if episode.strategy:
        pattern = f"{_glob_escape(episode.task_id)}__*.json"
        tagged = sorted(
            m
            for m in folder.glob(pattern)
            if episode.strategy in m.name and f"a{episode.attempt}" in m.name
        )
        if tagged:
            return tagged[0]
    slugs = (
        episode.agent,
        _UNSAFE.sub("-", episode.agent).strip("-."),
        _UNSAFE.sub("_", episode.agent),
    )
    for agent in dict.fromkeys(slugs):
        candidate = folder / f"{episode.task_id}__{agent}__a{episode.attempt}.json"
        if candidate.is_file():
            return candidate
    return None


def _glob_escape(text: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", text)


def load_trajectory(path: Path | None) -> dict[str, Any] | None:
    """Decode a trajectory file; ``None`` when absent or unreadable (reports degrade, never crash)."""
    if path is None:
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return data if isinstance(data, dict) else None
