"""Scripted episodes played once per export — and once across exports — keyed by what decides them.

An export plays two kinds of episode: the oracle demonstration of a task, and the re-grade of a
record (the calls parsed back out of what was written). For an oracle record the re-grade plays
exactly the calls the demonstration played, on the same task and snapshot; with several formats
it plays them once per format. Episodes are deterministic (the audit's determinism check holds
every shipped task to it), so the second and later plays of the same calls can only repeat the
first outcome — but for a dbt family each one costs real dbt processes under bubblewrap (the
agent's ``dbt`` call and the grading rebuild, ~10 s each under load).

:class:`EpisodeCache` keeps the outcome of a *solved* play under a key of everything that
decides it:

- the task's whole definition (``Task.to_dict()``: instruction, expected answer, verifier
  config, oracle, sandbox patch, limits) — never its id alone;
- the pristine snapshot's manifest (data and project hashes) and, for tasks graded on hidden
  data, the hidden datasets' cache key;
- a fingerprint of the code that plays and grades the episode (every source file of the kit)
  and of the libraries that shape data;
- the exact calls (name + arguments, canonical JSON).

Only solved plays are kept (a failure may be a timeout under load: it is played again next
time). The memory level serves one export (re-grades, every format); the optional directory
(``$REPLICAS_HOME/export/episodes/``, one JSON file per key, written atomically) serves later
exports. ``directory=None`` keeps the cache in memory only.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from replicas._version import __version__
from replicas.atomicio import write_json_atomic
from replicas.export.replay import Replay, replay

if TYPE_CHECKING:
    from replicas.tasks import Task

CACHE_SCHEMA = 1
Calls = Sequence[tuple[str, Mapping[str, Any]]]

_CODE_PRINT: list[str] = []
_PRINT_LOCK = threading.Lock()
#: Packages whose sources decide an episode: the whole kit (env, tools, sandbox, dbt, OS
#: sandbox, families) and the verifiers and generators installed inside its namespace.
_CODE_PACKAGES = ("replicas", "replicas.verifiers", "replicas.generators")


def default_cache_dir() -> Path:
    from replicas.paths import replicas_home

    return replicas_home() / "export" / "episodes"


def code_fingerprint() -> str:
    """sha256 over every Python source of the kit (and the verifiers and generators installed in
    its namespace), plus the versions of the libraries that shape data: any code change is a new
    key. Reading the files takes milliseconds (no import analysis); memoised per process, and
    worker processes adopt the parent's (:func:`set_code_fingerprint`)."""
    with _PRINT_LOCK:
        if _CODE_PRINT:
            return _CODE_PRINT[0]
    import importlib.util

    from replicas.build import data_versions

    digest = hashlib.sha256(json.dumps(data_versions(), sort_keys=True).encode())
    files: dict[str, Path] = {}
    for package in _CODE_PACKAGES:
        spec = importlib.util.find_spec(package)
        for root in (spec.submodule_search_locations or []) if spec else []:
            for path in Path(root).rglob("*.py"):
                rel = path.relative_to(root).as_posix()
                files[f"{package}/{rel}"] = path
    for name, path in sorted(files.items()):
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return set_code_fingerprint(digest.hexdigest())


def set_code_fingerprint(value: str) -> str:
    """Adopt ``value`` (the parent process's :func:`code_fingerprint`) in this process."""
    with _PRINT_LOCK:
        _CODE_PRINT[:] = [value]
    return value


def canonical_calls(calls: Calls) -> list[list[Any]]:
    return [[str(name), json.loads(json.dumps(dict(args), sort_keys=True))] for name, args in calls]


def episode_key(task: Task, calls: Calls) -> str:
    """The cache key of playing ``calls`` on ``task`` (see the module docstring)."""
    from replicas.tasks.hidden import hidden_key
    from replicas.tasks.loader import load_snapshot

    snapshot = load_snapshot(task.replica, task.seed, task.scale)
    parts = {
        "schema": CACHE_SCHEMA,
        "kit": __version__,
        "task": task.to_dict(),
        "snapshot": snapshot.manifest,
        "hidden": hidden_key(task.replica) if task.verifier.hidden_data else None,
        "code": code_fingerprint(),
        "calls": canonical_calls(calls),
    }
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def replay_to_dict(result: Replay) -> dict[str, Any]:
    return {
        "observations": list(result.observations),
        "errors": list(result.errors),
        "score": result.score,
        "passed": result.passed,
        "terminated": result.terminated,
        "reasons": list(result.reasons),
        "tools": [json.loads(json.dumps(dict(t))) for t in result.tools],
    }


def replay_from_dict(data: Mapping[str, Any]) -> Replay:
    return Replay(
        observations=tuple(str(o) for o in data["observations"]),
        errors=tuple(bool(e) for e in data["errors"]),
        score=float(data["score"]),
        passed=bool(data["passed"]),
        terminated=bool(data["terminated"]),
        reasons=tuple(str(r) for r in data["reasons"]),
        tools=tuple(dict(t) for t in data["tools"]),
    )


@dataclass
class EpisodeCache:
    """Solved scripted episodes by key: in memory, and in ``directory`` when given."""

    directory: Path | None = None
    hits: int = 0
    plays: int = 0
    _memory: dict[str, Replay] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def _path(self, key: str) -> Path | None:
        return None if self.directory is None else self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> Replay | None:
        with self._lock:
            found = self._memory.get(key)
        if found is not None:
            return found
        path = self._path(key)
        if path is None:
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("schema_version") != CACHE_SCHEMA or data.get("key") != key:
                return None
            found = replay_from_dict(data["replay"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
        with self._lock:
            self._memory[key] = found
        return found

    def put(self, key: str, result: Replay, *, persist: bool = True) -> None:
        """Keep ``result`` when it is a solved play (anything else is played again)."""
        if not result.solved:
            return
        with self._lock:
            self._memory[key] = result
        path = self._path(key)
        if path is None or not persist:
            return
        payload = {"schema_version": CACHE_SCHEMA, "key": key, "replay": replay_to_dict(result)}
        try:
            # key order kept: tool schemas are exported as the env gave them
            write_json_atomic(path, payload, indent=None, sort_keys=False)
        except OSError:
            return  # a cache that cannot be written only costs a replay next time

    def replay(self, task: Task, calls: Calls, *, agent_name: str) -> Replay:
        """``replay(task, calls)``, or the outcome of an identical earlier play."""
        key = episode_key(task, calls)
        found = self.get(key)
        if found is not None:
            with self._lock:
                self.hits += 1
            return found
        result = replay(task, calls, agent_name=agent_name)
        with self._lock:
            self.plays += 1
        self.put(key, result)
        return result


__all__ = [
    "CACHE_SCHEMA",
    "EpisodeCache",
    "canonical_calls",
    "code_fingerprint",
    "default_cache_dir",
    "episode_key",
    "replay_from_dict",
    "replay_to_dict",
    "set_code_fingerprint",
]
