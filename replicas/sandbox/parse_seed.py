"""dbt's parse of a task's *starting* project, made once by the kit, so the agent's first dbt call
and every grading rebuild re-parse only what the agent changed.

Why: dbt re-parses a whole project unless ``target/partial_parse.msgpack`` holds a parse of that
project made with the same profile, vars and dbt version. The kit never copies ``target/`` into
an episode or a grading directory (the snapshot's holds the pristine models: the answer to a fix
task), so every episode's first dbt call and every grading rebuild paid a full parse — about 4 s
of a 10-s ``dbt run`` on the ecommerce project, 7 s of 13 s on the enterprise one.

What the seed is, and why it is safe to hand to the agent:

* It is dbt's own parse of the **starting project** — the pristine project plus the task's patch,
  i.e. exactly the files the agent receives — never of the pristine snapshot's project (a fix
  task's patch replaces a pristine model; a parse of the pristine project would hold it). It
  contains nothing the agent cannot already read.
* The kit makes it in the OS sandbox, at the paths and with the profile every agent run uses
  (``/sandbox/project``, ``/sandbox/db/warehouse.duckdb``, the untrusted profile), so dbt's state
  check accepts it in an episode and in grading. Without bubblewrap the paths differ per episode
  and a seed could never match: nothing is seeded (dbt parses in full, as before).
* It is cached under ``REPLICAS_HOME/parse-seeds`` keyed by the files' bytes, dbt's and the
  adapter's versions, Python's version and the profile text. Only the kit writes there, through
  a temp file and a rename; a seed is **copied** into a project, so whatever the agent's dbt later
  writes to its own ``target/`` never reaches the cache or another episode.

Grading is conservative (:func:`seed_for_grading`): a rebuild gets the seed only when the agent
changed nothing but ``.sql`` files under the project's model paths — edited, added or deleted
models, the change dbt's partial parser handles most simply (it drops the file's nodes and parses
the file again). A change to YAML, macros, tests, seeds or ``dbt_project.yml`` gets dbt's full
parse, so no corner of partial parsing can make a verdict differ from a full parse's.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import tempfile
import threading
import zlib
from importlib import metadata
from pathlib import Path

import yaml

from replicas.atomicio import write_bytes_atomic
from replicas.dbt import DB_MOUNT, DUCKDB_MEMORY, profiles_yaml, run_dbt
from replicas.osbox import OsSandboxUnavailable, isolation_mode
from replicas.paths import replicas_home
from replicas.sandbox.project import SKIP_PROJECT_DIRS

__all__ = [
    "SEED_FILE",
    "parse_seed",
    "seed_for_episode",
    "seed_for_grading",
    "seed_key",
]

#: Where dbt looks for its previous parse, relative to the project.
SEED_FILE = Path("target") / "partial_parse.msgpack"
_FORMAT = 1
#: Time the kit's own parse of a starting project may take (a 140-model project: ~15 s loaded).
_PARSE_TIMEOUT_S = 300.0
_LOCK = threading.Lock()
#: template path -> its seed's cache file, or None (no seed): a process looks a template up once.
_SEEDS: dict[str, Path | None] = {}


def _project_files(project: Path) -> dict[str, bytes]:
    """Every regular file of a project (relative path -> bytes), build output excluded.
    (Not :func:`pristine_listing`: that caches per path, and grading copies are many.)"""
    files: dict[str, bytes] = {}
    for dirpath, dirnames, filenames in os.walk(project, followlinks=False):
        rel_dir = Path(dirpath).relative_to(project)
        dirnames[:] = [
            d
            for d in dirnames
            if d != "__pycache__" and not (rel_dir == Path(".") and d in SKIP_PROJECT_DIRS)
        ]
        for name in filenames:
            full = Path(dirpath) / name
            if not full.is_symlink() and full.is_file():
                files[(rel_dir / name).as_posix()] = full.read_bytes()
    return files


def _files_digest(files: dict[str, bytes]) -> str:
    digest = hashlib.sha256()
    for rel in sorted(files):
        data = files[rel]
        digest.update(f"{rel}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "absent"


def seed_key(files_digest: str) -> str:
    """Cache key of a starting project's seed: its files and everything dbt's state check reads
    that the kit controls (dbt and adapter versions, Python, the agent runs' profile)."""
    material = {
        "format": _FORMAT,
        "files": files_digest,
        "dbt-core": _version("dbt-core"),
        "dbt-duckdb": _version("dbt-duckdb"),
        "python": list(sys.version_info[:2]),
        "profile": profiles_yaml(f"{DB_MOUNT}/warehouse.duckdb", memory_limit=DUCKDB_MEMORY),
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()


def _cache_path(key: str) -> Path:
    return replicas_home() / "parse-seeds" / key[:2] / f"{key}.msgpack.z"


def parse_seed(template: Path) -> bytes | None:
    """dbt's partial-parse state for the starting project ``template`` (a kit-made directory:
    pristine project + task patch), from the cache or made now; None where no seed can help
    (no OS sandbox) or dbt could not parse the project."""
    try:
        if isolation_mode() != "bubblewrap":
            return None
    except OsSandboxUnavailable:
        return None
    template = Path(template)
    with _LOCK:
        looked_up = str(template) in _SEEDS
        known = _SEEDS.get(str(template))
    if looked_up and known is None:
        return None
    if known is not None:
        with contextlib.suppress(OSError, zlib.error):
            return zlib.decompress(known.read_bytes())
    path = _cache_path(seed_key(_files_digest(_project_files(template))))
    failed = path.with_name(path.name + ".failed")
    seed: bytes | None = None
    stored: Path | None = None
    try:
        seed = zlib.decompress(path.read_bytes())
        stored = path
    except (OSError, zlib.error):
        if not failed.exists():  # a starting project dbt cannot parse is not retried
            seed = _make_seed(template)
            with contextlib.suppress(OSError):  # a read-only or full cache only costs speed
                if seed is None:
                    write_bytes_atomic(failed, b"")
                else:
                    stored = write_bytes_atomic(path, zlib.compress(seed, 6))
    with _LOCK:
        # the path, not the bytes: a worker meets thousands of tasks and a seed is 1-2 MB
        _SEEDS[str(template)] = stored
    return seed


def _make_seed(template: Path) -> bytes | None:
    """Run ``dbt parse`` on a copy of ``template`` in the sandbox, as an agent's run would."""
    with tempfile.TemporaryDirectory(prefix="replicas-parse-") as tmp:
        project = Path(tmp) / "project"
        for rel, data in _project_files(template).items():  # plain, writable files
            (project / rel).parent.mkdir(parents=True, exist_ok=True)
            (project / rel).write_bytes(data)
        db = Path(tmp) / "db"
        db.mkdir()
        result = run_dbt(project, db / "warehouse.duckdb", ["parse"], timeout_s=_PARSE_TIMEOUT_S)
        seed = project / SEED_FILE
        if not result.ok or not seed.is_file():
            return None
        return seed.read_bytes()


def seed_for_episode(project: Path, template: Path) -> bool:
    """Before an episode's dbt call: give the agent's project the starting project's parse if it
    has none yet (its later calls reuse what dbt itself writes). True if a seed was placed."""
    project = Path(project)
    target = project / SEED_FILE.parent
    # Written from the host: never through a link or into something that is not a plain
    # directory (only dbt writes target/ and it makes neither, but the write must not rely on it).
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        return False
    if (project / SEED_FILE).exists() or (project / SEED_FILE).is_symlink():
        return False
    seed = parse_seed(template)
    if seed is None:
        return False
    write_bytes_atomic(project / SEED_FILE, seed)
    return True


def _model_paths(files: dict[str, bytes]) -> tuple[str, ...]:
    try:
        data = yaml.safe_load(files.get("dbt_project.yml", b"") or b"{}")
    except yaml.YAMLError:
        return ()
    paths = data.get("model-paths", ["models"]) if isinstance(data, dict) else ()
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        return ()
    return tuple(p.strip("/") for p in paths if p.strip("/") and ".." not in p)


def sql_model_changes_only(project: Path, template: Path) -> bool:
    """True when ``project`` differs from ``template`` only in ``.sql`` files under the model
    paths (added, edited or deleted); everything else byte-identical."""
    mine, start = _project_files(Path(project)), _project_files(Path(template))
    if mine.get("dbt_project.yml") != start.get("dbt_project.yml"):
        return False
    roots = _model_paths(start)
    for rel in set(mine) | set(start):
        if mine.get(rel) == start.get(rel):
            continue
        if not rel.endswith(".sql") or not any(rel.startswith(root + "/") for root in roots):
            return False
    return True


def seed_for_grading(project: Path, template: Path | None) -> bool:
    """Before a grading rebuild of ``project`` (a fresh copy of the agent's files): seed it when
    the agent changed only model SQL (see the module docstring). True if a seed was placed."""
    if template is None or (Path(project) / SEED_FILE).exists():
        return False
    if not sql_model_changes_only(project, template):
        return False
    seed = parse_seed(template)
    if seed is None:
        return False
    write_bytes_atomic(Path(project) / SEED_FILE, seed)
    return True
