"""Build a replica snapshot: generate → load (Arrow → DuckDB ``raw``) → ``dbt build`` → manifest.

A snapshot is keyed by (replica, seed, scale, kit version) and built at most once per cache: the
build happens in a private temporary directory and is renamed into place only after every step
succeeded, so an interrupted or failing build never leaves a half-written snapshot behind. A file
lock per key makes concurrent workers wait for one build instead of racing.

``manifest.json`` is deterministic (no paths, no timings) so two builds of one key are byte-identical;
timings go to ``build.json`` beside it.
"""

from __future__ import annotations

import ast
import contextlib
import fcntl
import hashlib
import importlib.util
import json
import math
import os
import platform
import shutil
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from replicas._version import __version__
from replicas.dbt import DbtResult, run_dbt
from replicas.paths import snapshots_dir
from replicas.replica import ReplicaSpec, get_replica
from replicas.warehouse import RAW_SCHEMA, fingerprint_tables, list_relations, load_raw_tables

MANIFEST_SCHEMA_VERSION = 1
MANIFEST = "manifest.json"
BUILD_INFO = "build.json"
WAREHOUSE = "warehouse.duckdb"
DBT_DIR = "dbt"
MART_SCHEMA = "main"
_STALE_TMP_S = 6 * 3600
_PROJECT_IGNORE = ("target", "logs", "dbt_packages", "__pycache__", "__init__.py", ".user.yml")


class BuildError(RuntimeError):
    """A build step failed; ``step`` names it (generate, load, dbt, fingerprint, publish)."""

    def __init__(self, step: str, detail: str) -> None:
        super().__init__(f"build failed at step '{step}': {detail}")
        self.step = step
        self.detail = detail


_FINGERPRINTS: dict[str, str] = {}
#: Distributions whose version can change generated data or built marts: part of the key.
DATA_DISTRIBUTIONS = ("faker", "numpy", "polars", "pyarrow", "duckdb", "dbt-core", "dbt-duckdb")


def _module_file(name: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, AttributeError, ValueError):  # ``from mod import attribute``
        return None
    return Path(spec.origin) if spec and spec.origin and spec.origin.endswith(".py") else None


def _first_party_imports(path: Path, module: str) -> set[str]:
    """Modules under ``replicas.`` that the source at ``path`` imports (statically)."""
    tree = ast.parse(path.read_bytes(), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            found.add(base)
            # ``from pkg import sub`` may name a submodule
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in found if name.startswith("replicas.")}


def source_closure(module: str) -> list[tuple[str, Path]]:
    """``module`` and every first-party module it imports, transitively, with their files.

    A replica's data depends on exactly these sources (its generator package, the shared
    vocabulary and seeding helpers), so editing another replica's generator leaves its key alone.
    """
    seen: dict[str, Path] = {}
    pending = [module]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        path = _module_file(name)
        if path is None:
            continue
        seen[name] = path
        # a package's submodules are part of it even when imported lazily
        if path.name == "__init__.py":
            pending += [
                f"{name}.{p.stem}" for p in path.parent.glob("*.py") if p.stem != "__init__"
            ]
        parents = name.split(".")
        pending += [".".join(parents[:i]) for i in range(2, len(parents))]
        pending += sorted(_first_party_imports(path, name))
    return sorted(seen.items())


def data_versions() -> dict[str, str]:
    """Installed versions of the distributions in :data:`DATA_DISTRIBUTIONS`."""
    out: dict[str, str] = {}
    for dist in DATA_DISTRIBUTIONS:
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "absent"
    return out


def code_fingerprint(spec: ReplicaSpec) -> str:
    """sha256 over every input of a build but (seed, scale): the generator's source closure, the
    dbt project files, and the versions of the libraries that shape the data.

    Part of the cache key, so editing a generator or a model never serves a stale snapshot (the
    kit version alone only changes at release), while editing another replica's generator does
    not invalidate this one. Memoised per process: sources do not change under a running build.
    """
    cached = _FINGERPRINTS.get(spec.name)
    if cached is not None:
        return cached
    digest = hashlib.sha256(spec.name.encode())
    digest.update(json.dumps(data_versions(), sort_keys=True).encode())
    module_name = spec.generator.partition(":")[0]
    files: list[tuple[str, Path]] = [
        (f"py/{name}", path) for name, path in source_closure(module_name)
    ]
    if spec.dbt_project.is_dir():
        for path in sorted(spec.dbt_project.rglob("*")):
            rel = path.relative_to(spec.dbt_project)
            if path.is_file() and not set(rel.parts) & set(_PROJECT_IGNORE):
                files.append((f"dbt/{rel.as_posix()}", path))
    for label, path in files:
        digest.update(label.encode() + b"\0" + path.read_bytes() + b"\0")
    _FINGERPRINTS[spec.name] = digest.hexdigest()
    return _FINGERPRINTS[spec.name]


@dataclass(frozen=True)
class BuildKey:
    """The only inputs of a build. Validated here so every entry point rejects bad input alike."""

    replica: str
    seed: int
    scale: float

    def __post_init__(self) -> None:
        spec = get_replica(self.replica)  # raises ValueError listing the known replicas
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {self.seed!r}")
        if self.seed >= 2**63:
            raise ValueError(f"seed must be below 2**63, got {self.seed}")
        scale = float(self.scale)
        if not math.isfinite(scale) or scale <= 0:
            raise ValueError(f"scale must be a positive number, got {self.scale!r}")
        if scale > spec.max_scale:
            raise ValueError(
                f"scale {scale:g} is too large for {self.replica} (max {spec.max_scale:g})"
            )
        object.__setattr__(self, "scale", scale)

    @property
    def spec(self) -> ReplicaSpec:
        return get_replica(self.replica)

    @property
    def slug(self) -> str:
        return (
            f"{self.replica}-s{self.seed}-x{self.scale:g}-v{__version__}"
            f"-c{code_fingerprint(self.spec)[:10]}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {"replica": self.replica, "seed": self.seed, "scale": self.scale}


@dataclass(frozen=True)
class Snapshot:
    """A built replica on disk. Read-only by convention: episodes copy what they may change."""

    path: Path
    replica: str
    seed: int
    scale: float
    manifest: dict[str, Any] = field(compare=False, repr=False)

    @property
    def warehouse(self) -> Path:
        return self.path / WAREHOUSE

    @property
    def dbt_project(self) -> Path:
        return self.path / DBT_DIR

    @property
    def key(self) -> BuildKey:
        return BuildKey(self.replica, self.seed, self.scale)

    @classmethod
    def load(cls, path: Path) -> Snapshot:
        """Open the snapshot at ``path``; ``ValueError`` when it is not a complete snapshot."""
        path = Path(path)
        try:
            manifest = json.loads((path / MANIFEST).read_text())
        except (OSError, ValueError) as exc:
            raise ValueError(f"{path} is not a replica snapshot (no readable {MANIFEST})") from exc
        if manifest.get("schema_version") != MANIFEST_SCHEMA_VERSION:
            raise ValueError(f"{path}: unsupported manifest schema_version")
        if not (path / WAREHOUSE).is_file() or not (path / DBT_DIR).is_dir():
            raise ValueError(f"{path} is an incomplete snapshot")
        return cls(
            path=path,
            replica=manifest["replica"],
            seed=int(manifest["seed"]),
            scale=float(manifest["scale"]),
            manifest=manifest,
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


def _build_into(key: BuildKey, work: Path, step: StepHook) -> dict[str, float]:
    """Run every build step into the empty directory ``work``; return per-step timings."""
    spec = key.spec
    timings: dict[str, float] = {}

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

    t0 = time.perf_counter()
    with step("dbt build"):
        if not spec.dbt_project.is_dir():
            raise BuildError("dbt", f"dbt project not found at {spec.dbt_project}")
        project = work / DBT_DIR
        shutil.copytree(spec.dbt_project, project, ignore=shutil.ignore_patterns(*_PROJECT_IGNORE))
        result = run_dbt(project, work / WAREHOUSE, ["build"], timeout_s=1800)
        if not result.ok:
            raise BuildError("dbt", result.summary)
        shutil.rmtree(project / "logs", ignore_errors=True)
        target = project / "target"
        if target.is_dir():
            for child in target.iterdir():
                if child.name != "manifest.json":
                    shutil.rmtree(child) if child.is_dir() else child.unlink()
    timings["dbt_s"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    with step("fingerprint"):
        marts = [
            name for name in list_relations(work / WAREHOUSE, MART_SCHEMA, table_type="BASE TABLE")
        ]
        raw = list_relations(work / WAREHOUSE, RAW_SCHEMA)
        prints = fingerprint_tables(work / WAREHOUSE, {RAW_SCHEMA: raw, MART_SCHEMA: marts})
    timings["fingerprint_s"] = time.perf_counter() - t0

    manifest = {
        "schema_version": MANIFEST_SCHEMA_VERSION,
        **key.to_dict(),
        "kit_version": __version__,
        "code_fingerprint": code_fingerprint(spec),
        "versions": _versions(),
        "tables": {"raw": prints[RAW_SCHEMA], "marts": prints[MART_SCHEMA]},
        "dbt": _dbt_summary(result),
    }
    (work / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    (work / BUILD_INFO).write_text(json.dumps({"timings": timings}, indent=2) + "\n")
    return timings


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
                shutil.rmtree(child, ignore_errors=True)


def ensure_snapshot(
    replica: str,
    seed: int,
    scale: float | None = None,
    *,
    force: bool = False,
    step: StepHook | None = None,
) -> Snapshot:
    """The cached snapshot for the key, building it first when absent (or when ``force``)."""
    spec = get_replica(replica)
    key = BuildKey(replica, seed, spec.default_scale if scale is None else scale)
    parent = snapshots_dir()
    final = parent / key.slug
    if not force:
        with contextlib.suppress(ValueError):
            return Snapshot.load(final)
    with _key_lock(parent, key.slug):
        if not force:  # another process may have finished it while we waited
            with contextlib.suppress(ValueError):
                return Snapshot.load(final)
        _sweep_stale_tmp(parent)
        work = parent / f".tmp-{key.slug}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        work.mkdir()
        try:
            _build_into(key, work, step or _quiet_step)
            _publish(work, final)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return Snapshot.load(final)


def _publish(work: Path, final: Path) -> None:
    """Atomically replace ``final`` with ``work`` (rename aside, rename in, delete old)."""
    old = None
    if final.exists():
        old = final.with_name(f".old-{final.name}-{uuid.uuid4().hex[:8]}")
        final.rename(old)
    try:
        work.rename(final)
    except OSError as exc:
        if old is not None:
            old.rename(final)
        raise BuildError("publish", str(exc)) from exc
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def is_cached(replica: str, seed: int, scale: float | None = None) -> bool:
    spec = get_replica(replica)
    key = BuildKey(replica, seed, spec.default_scale if scale is None else scale)
    try:
        Snapshot.load(snapshots_dir() / key.slug)
    except ValueError:
        return False
    return True


def export_snapshot(snapshot: Snapshot, out: Path, *, force: bool = False) -> Snapshot:
    """Copy ``snapshot`` to ``out`` atomically.

    An ``out`` that already holds a snapshot of the same key is left as is; anything else there is
    refused unless ``force`` (then replaced whole, never merged).
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
        shutil.copytree(snapshot.path, tmp)
        _publish(tmp, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return Snapshot.load(out)


def build_timings(snapshot: Snapshot) -> dict[str, float]:
    try:
        data = json.loads((snapshot.path / BUILD_INFO).read_text())
    except (OSError, ValueError):
        return {}
    return dict(data.get("timings", {}))
