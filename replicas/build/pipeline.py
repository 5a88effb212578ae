"""Build a replica snapshot: generate → load (Arrow → DuckDB ``raw``) → transform → manifest → seal.

The transform step has two engines that must give identical tables:

- ``replay`` (default): execute the project's compiled models and batched data tests straight
  in DuckDB from the cached compiled project (:mod:`replicas.build.compiled`). The first build of
  a code fingerprint, projects replay cannot reproduce, and replays that hit any DuckDB error run
  real ``dbt build`` instead; ``build.json`` says which engine ran and why.
- ``dbt``: run ``dbt build`` in a subprocess (:func:`replicas.dbt.run_dbt`).

A snapshot is keyed by (replica, seed, scale, kit version, code fingerprint) — never by engine —
and built at most once per cache: the build happens in a private temporary directory and is renamed
into place only after every step succeeded, so an interrupted or failing build never leaves a
half-written snapshot behind. A file lock per key makes concurrent workers wait for one build
instead of racing. Published snapshots are read-only and carry ``integrity.json``; a cached
snapshot that fails verification is rebuilt, never served.

``manifest.json`` is deterministic (no paths, no timings, no engine) so two builds of one key are
byte-identical; timings and the engine go to ``build.json`` beside it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import platform
import shutil
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import duckdb

from replicas._version import __version__
from replicas.atomicio import publish_dir, remove_tree
from replicas.build.compiled import (
    PARSE_STATE,
    CompiledProject,
    compile_lock,
    copy_tree_bytes,
    load_compiled,
    publish_compiled,
)
from replicas.build.fingerprint import PROJECT_IGNORE, code_fingerprint, data_versions
from replicas.build.integrity import make_read_only, write_integrity
from replicas.build.replay import ReplayAbandoned, replay, replay_connection
from replicas.build.snapshot import (
    BUILD_INFO,
    DBT_DIR,
    MANIFEST,
    MANIFEST_SCHEMA_VERSION,
    MART_SCHEMA,
    WAREHOUSE,
    BuildError,
    BuildKey,
    Snapshot,
)
from replicas.build.tables import fingerprint_schemas
from replicas.dbt import DbtResult, run_dbt
from replicas.osbox import ProcessLimits
from replicas.paths import snapshots_dir
from replicas.replica import ReplicaSpec, get_replica
from replicas.warehouse import RAW_SCHEMA, TABLE_HASH_FORMAT, load_raw_tables

__all__ = [
    "BUILD_INFO_SCHEMA_VERSION",
    "ENGINES",
    "StepHook",
    "build_into",
    "ensure_snapshot",
    "export_snapshot",
    "is_cached",
    "rich_steps",
]

ENGINES = ("replay", "dbt")
BUILD_INFO_SCHEMA_VERSION = 1
_STALE_TMP_S = 6 * 3600
_DBT_TIMEOUT_S = 1800
#: dbt threads of a build: one per core (DuckDB parallelises each query over the cores too).
_DBT_THREADS = max(2, os.cpu_count() or 2)
#: A replica's own project is trusted: the OS sandbox still applies where available, but with
#: limits sized for a build at max_scale rather than for an agent's episode.
_BUILD_LIMITS = ProcessLimits(
    address_space_bytes=64 << 30,
    file_size_bytes=256 << 30,
    cpu_seconds=4 * _DBT_TIMEOUT_S,
)
FIRST_BUILD_REASON = (
    "first build of this code fingerprint: dbt build compiles the project for later replays"
)


# --------------------------------------------------------------------------------------------
# progress reporting


StepHook = Callable[[str], contextlib.AbstractContextManager[None]]


@contextlib.contextmanager
def _quiet_step(_name: str) -> Iterator[None]:
    yield


def rich_steps() -> tuple[StepHook, Callable[[], None]]:
    """A spinner per build step on a terminal; the second item stops the display."""
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    progress = Progress(
        SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), transient=False
    )
    progress.start()

    @contextlib.contextmanager
    def step(name: str) -> Iterator[None]:
        task = progress.add_task(name, total=1)
        try:
            yield
        finally:
            progress.update(task, completed=1)

    return step, progress.stop


# --------------------------------------------------------------------------------------------
# the transform step


def _check_engine(engine: str) -> None:
    if engine not in ENGINES:
        raise ValueError(f"unknown build engine {engine!r}; choose one of {', '.join(ENGINES)}")


def _dbt_build(spec: ReplicaSpec, work: Path, compiled: CompiledProject | None = None) -> DbtResult:
    """Copy the project into ``work/dbt`` and run real ``dbt build``; keep only its manifest
    (and its parse, as ``work/PARSE_STATE``, for the compiled cache).

    With ``compiled`` (this code's cache entry) dbt starts from the compiling build's parse:
    dbt's own partial parsing, which checks every file's hash, the profile, vars and versions
    and parses in full when anything differs (e.g. without bubblewrap the project's path
    changes per build). The threads are the machine's cores.
    """
    if not spec.dbt_project.is_dir():
        raise BuildError("dbt", f"dbt project not found at {spec.dbt_project}")
    project = work / DBT_DIR
    remove_tree(project)
    shutil.copytree(spec.dbt_project, project, ignore=shutil.ignore_patterns(*PROJECT_IGNORE))
    if compiled is not None and compiled.parse_state is not None:
        (project / "target").mkdir(exist_ok=True)
        shutil.copyfile(compiled.parse_state, project / "target" / PARSE_STATE)
    result = run_dbt(
        project,
        work / WAREHOUSE,
        ["build"],
        timeout_s=_DBT_TIMEOUT_S,
        threads=_DBT_THREADS,
        trusted=True,
        limits=_BUILD_LIMITS,
    )
    if not result.ok:
        raise BuildError("dbt", result.summary)
    shutil.rmtree(project / "logs", ignore_errors=True)
    target = project / "target"
    if target.is_dir():
        for child in target.iterdir():
            if child.name == PARSE_STATE:
                os.replace(child, work / PARSE_STATE)
            elif child.name != "manifest.json":
                shutil.rmtree(child) if child.is_dir() else child.unlink()
    return result


def _seed_compiled_cache(key: BuildKey, work: Path, info: dict[str, Any]) -> None:
    """After a real dbt build, cache its project as the compiled one if nobody has yet.

    Best effort: the snapshot dbt just built is good whether or not the cache can be written.
    """
    try:
        with compile_lock(key.spec, blocking=False) as acquired:
            if acquired and load_compiled(key.spec) is None:
                publish_compiled(
                    key.spec, work / DBT_DIR, source=_source(key), parse_state=work / PARSE_STATE
                )
                info["compiled"] = "created"
    except (OSError, ValueError) as exc:
        info["compiled"] = f"not cached: {type(exc).__name__}: {exc}"


def _source(key: BuildKey) -> str:
    return f"dbt build of {key.replica} seed={key.seed} scale={key.scale:g}"


def _transform(
    key: BuildKey, work: Path, engine: str, info: dict[str, Any], stack: contextlib.ExitStack
) -> tuple[DbtResult, duckdb.DuckDBPyConnection | None]:
    """Build the project's models and run its tests in ``work``; fill ``info`` (build.json).

    Returns dbt's (or replay's) results and, after a replay, its still open connection to the
    warehouse (closed by ``stack``), so fingerprinting need not reopen the file.
    """
    spec = key.spec
    if engine == "dbt":
        result = _dbt_build(spec, work, load_compiled(spec))
        info["engine"] = "dbt"
        _seed_compiled_cache(key, work, info)
        return result, None
    compiled = load_compiled(spec)
    if compiled is None:
        # One process compiles (by building its seed with dbt); the others wait, then replay.
        with compile_lock(spec):
            compiled = load_compiled(spec)
            if compiled is None:
                result = _dbt_build(spec, work)
                info.update(engine="dbt", fallback_reason=FIRST_BUILD_REASON)
                try:
                    compiled = publish_compiled(
                        spec, work / DBT_DIR, source=_source(key), parse_state=work / PARSE_STATE
                    )
                except (OSError, ValueError) as exc:  # dbt built the snapshot all the same
                    info["compiled"] = f"not cached: {type(exc).__name__}: {exc}"
                    return result, None
                info["compiled"] = "created"
                if compiled.unsupported:
                    info["replay_unsupported"] = compiled.unsupported
                return result, None
    info["compiled"] = "cached"
    if compiled.plan is None:
        info.update(engine="dbt", fallback_reason=f"replay unsupported: {compiled.unsupported}")
        return _dbt_build(spec, work, compiled), None
    copy_tree_bytes(compiled.project, work / DBT_DIR)
    con = replay_connection(work / WAREHOUSE)
    try:
        outcome = replay(compiled.plan, con)
    except ReplayAbandoned as exc:
        # Nothing of the replay was committed: dbt, the source of truth, decides.
        con.close()
        info.update(engine="dbt", fallback_reason=f"replay abandoned ({exc}); dbt build decided")
        return _dbt_build(spec, work, compiled), None
    except BaseException:
        con.close()
        raise
    stack.callback(con.close)
    if not outcome.ok:
        raise BuildError("dbt", outcome.summary)
    info.update(
        engine="replay",
        replay={
            "models": sum(1 for m in compiled.plan.models if m.materialized != "ephemeral"),
            "tests": len(compiled.plan.tests),
            "test_queries": outcome.test_queries,
            "models_s": round(outcome.models_s, 4),
            "tests_s": round(outcome.tests_s, 4),
        },
    )
    result = DbtResult(
        ok=True, returncode=0, summary=outcome.summary, log="", results=outcome.results
    )
    return result, con


# --------------------------------------------------------------------------------------------
# build


def _versions() -> dict[str, str]:
    return {"replica-kit": __version__, "python": platform.python_version(), **data_versions()}


def _dbt_summary(result: DbtResult) -> dict[str, Any]:
    counts: dict[str, int] = {}
    kinds: dict[str, int] = {}
    for r in result.results:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
        kind = r["unique_id"].split(".", 1)[0]
        kinds[kind] = kinds.get(kind, 0) + 1
    return {"ok": result.ok, "status_counts": counts, "node_counts": kinds}


def _build_into(
    key: BuildKey,
    work: Path,
    step: StepHook,
    engine: str,
    rebuilt_because: str | None = None,
) -> dict[str, Any]:
    """Run every build step into the empty directory ``work`` and seal it; return build.json."""
    spec = key.spec
    timings: dict[str, float] = {}
    info: dict[str, Any] = {
        "schema_version": BUILD_INFO_SCHEMA_VERSION,
        "engine_requested": engine,
        "engine": None,
        "fallback_reason": None,
        "code_fingerprint": code_fingerprint(spec),
    }
    if rebuilt_because:
        info["rebuilt_because"] = rebuilt_because

    t0 = time.perf_counter()
    with step("generate"):
        try:
            tables = dict(spec.load_generator()(key.seed, key.scale))
        except Exception as exc:  # a generator bug must still name the step
            raise BuildError("generate", f"{type(exc).__name__}: {exc}") from exc
    timings["generate_s"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    with step("load"):
        try:
            load_raw_tables(work / WAREHOUSE, tables)
        except Exception as exc:
            raise BuildError("load", f"{type(exc).__name__}: {exc}") from exc
    del tables
    timings["load_s"] = time.perf_counter() - t0

    with contextlib.ExitStack() as stack:
        t0 = time.perf_counter()
        with step("dbt build" if engine == "dbt" else "dbt build (compiled replay)"):
            try:
                result, con = _transform(key, work, engine, info, stack)
            finally:
                (work / PARSE_STATE).unlink(missing_ok=True)  # the compiled cache's, not ours
        timings["replay_s" if info["engine"] == "replay" else "dbt_s"] = time.perf_counter() - t0

        t0 = time.perf_counter()
        with step("fingerprint"):
            schemas = {RAW_SCHEMA: None, MART_SCHEMA: "BASE TABLE"}
            prints = fingerprint_schemas(work / WAREHOUSE, schemas, con)
        timings["fingerprint_s"] = time.perf_counter() - t0

    manifest = {
        "schema_version": MANIFEST_SCHEMA_VERSION,
        **key.to_dict(),
        "kit_version": __version__,
        "code_fingerprint": code_fingerprint(spec),
        "versions": _versions(),
        "table_hash": TABLE_HASH_FORMAT,
        "tables": {"raw": prints[RAW_SCHEMA], "marts": prints[MART_SCHEMA]},
        "dbt": _dbt_summary(result),
    }
    info["timings"] = timings
    (work / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    (work / BUILD_INFO).write_text(json.dumps(info, indent=2) + "\n")
    write_integrity(work)
    make_read_only(work)
    return info


@contextlib.contextmanager
def _key_lock(parent: Path, slug: str) -> Iterator[None]:
    lock_path = parent / f".{slug}.lock"
    with open(lock_path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _sweep_stale_tmp(parent: Path) -> None:
    """Remove temporary build dirs left by killed processes (never a live build's)."""
    now = time.time()
    for child in parent.glob(".tmp-*"):
        with contextlib.suppress(OSError):
            if now - child.stat().st_mtime > _STALE_TMP_S:
                remove_tree(child)


def _publish(work: Path, final: Path) -> None:
    """Atomically replace ``final`` with ``work`` (the old tree, read-only or not, is deleted)."""
    try:
        publish_dir(work, final)
    except OSError as exc:
        raise BuildError("publish", str(exc)) from exc


def _serveable(path: Path) -> tuple[Snapshot | None, str | None]:
    """The snapshot at ``path`` if complete and intact; else why it must be (re)built."""
    try:
        snapshot = Snapshot.load(path)
    except ValueError as exc:
        return None, (str(exc) if path.exists() else None)
    problems = snapshot.verify()
    if problems:
        shown = "; ".join(problems[:5]) + (
            f" (+{len(problems) - 5} more)" if len(problems) > 5 else ""
        )
        return None, f"integrity check failed: {shown}"
    return snapshot, None


def _key(replica: str, seed: int, scale: float | None) -> BuildKey:
    spec = get_replica(replica)
    return BuildKey(replica, seed, spec.default_scale if scale is None else scale)


def ensure_snapshot(
    replica: str,
    seed: int,
    scale: float | None = None,
    *,
    force: bool = False,
    step: StepHook | None = None,
    engine: str = "replay",
) -> Snapshot:
    """The cached snapshot for the key, building it first when absent, damaged or ``force``d.

    ``engine`` picks how the dbt project is built (``replay`` or ``dbt``); it never changes the
    cache key or the manifest, so a cached snapshot is served whichever engine built it.
    """
    _check_engine(engine)
    key = _key(replica, seed, scale)
    parent = snapshots_dir()
    final = parent / key.slug
    if not force:
        snapshot, _ = _serveable(final)
        if snapshot is not None:
            return snapshot
    with _key_lock(parent, key.slug):
        reason = "forced" if force else None
        if not force:  # another process may have finished it while we waited
            snapshot, reason = _serveable(final)
            if snapshot is not None:
                return snapshot
        _sweep_stale_tmp(parent)
        work = parent / f".tmp-{key.slug}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        work.mkdir()
        try:
            _build_into(key, work, step or _quiet_step, engine, rebuilt_because=reason)
            _publish(work, final)
        finally:
            remove_tree(work)
    return Snapshot.load(final)


def build_into(
    replica: str,
    seed: int,
    scale: float | None,
    out: Path,
    *,
    engine: str = "replay",
    step: StepHook | None = None,
) -> Snapshot:
    """Build the key straight into the new directory ``out``, bypassing the snapshot cache.

    For comparing engines and for one-off builds; the compiled-project cache is still used.
    """
    _check_engine(engine)
    key = _key(replica, seed, scale)
    out = Path(out)
    if out.exists():
        raise FileExistsError(f"{out} exists; build_into needs a new directory")
    out.parent.mkdir(parents=True, exist_ok=True)
    work = out.with_name(f".tmp-{out.name}-{uuid.uuid4().hex[:8]}")
    work.mkdir()
    try:
        _build_into(key, work, step or _quiet_step, engine)
        _publish(work, out)
    finally:
        remove_tree(work)
    return Snapshot.load(out)


def is_cached(replica: str, seed: int, scale: float | None = None) -> bool:
    """True when the key's snapshot is in the cache and intact (a build would be a no-op)."""
    key = _key(replica, seed, scale)
    return _serveable(snapshots_dir() / key.slug)[0] is not None


def export_snapshot(snapshot: Snapshot, out: Path, *, force: bool = False) -> Snapshot:
    """Copy ``snapshot`` to ``out`` atomically, as an ordinary writable directory.

    An ``out`` that already holds a snapshot of the same key is left as is; anything else there is
    refused unless ``force`` (then replaced whole, never merged). The copy keeps
    ``integrity.json``, so ``Snapshot.load(out).verify()`` still checks it.
    """
    out = Path(out)
    if out.exists():
        try:
            existing = Snapshot.load(out)
        except ValueError:
            existing = None
        if existing is not None and existing.key == snapshot.key and not force:
            return existing
        if not force:
            what = "a snapshot of another key" if existing else "not a snapshot"
            raise FileExistsError(f"--out {out} exists and is {what}; pass --force to replace it")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".tmp-{out.name}-{uuid.uuid4().hex[:8]}")
    try:
        copy_tree_bytes(snapshot.path, tmp)
        _publish(tmp, out)
    finally:
        remove_tree(tmp)
    return Snapshot.load(out)
