"""Hidden datasets: raw data of a replica's schema that the agent never sees, for grading dbt tasks.

A dbt task graded only on the data the agent can query rewards pasting that data's answer as
literal rows. Test-suite accuracy (Zhong et al., 2020) closes the hole: the agent's project is
also rebuilt on several *hidden* raw datasets of the same schema and compared there with the
reference. A model that hard-codes values, or only works on the visible data, fails.

The hidden datasets of a replica (``K = len(recipes)``, at least 3):

- other seeds' raw data, at small scales (the replica's own generator);
- edge-case datasets: small generated data mutated by the replica's registered edge cases
  (:func:`register_edge_case`; the ecommerce replica registers NULLs where the schema allows
  them, empty periods, duplicates, boundary timestamps, refunds after the period, FX rate
  jumps at day boundaries — ``replicas/families/ecommerce/_hidden_data.py``).

Each dataset is built like a snapshot: generated, loaded, and the *pristine* project built on it
by the build engine (compiled replay, or trusted dbt when replay cannot run it); its data tests
must pass, so an edge case never breaks the reference. A dataset keeps two files:
``warehouse.duckdb`` (raw + the pristine models: references are computed there) and
``raw.duckdb`` (raw only: the agent's project is rebuilt on a copy of it).

Cached per (replica, code fingerprint, edge-case sources, salt) under
``$REPLICAS_HOME/hidden/``: built in a temporary directory, renamed into place, read-only. The
hidden seeds derive from a per-installation random salt (``$REPLICAS_HOME/hidden/.salt``, or
``$REPLICAS_HIDDEN_SALT``): the kit is public, so seeds written in its source could be
generated and memorised offline. An honest model passes whatever the salt.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import secrets
import shutil
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import polars as pl

from replicas.atomicio import publish_dir, remove_tree, write_text_atomic
from replicas.build import code_fingerprint, source_closure
from replicas.build.compiled import load_compiled
from replicas.build.integrity import make_read_only
from replicas.build.replay import ReplayAbandoned, replay, replay_connection
from replicas.dbt import run_dbt
from replicas.paths import replicas_home
from replicas.replica import get_replica
from replicas.seeding import stream_key, table_rng
from replicas.warehouse import load_raw_tables

__all__ = [
    "HIDDEN_SCHEMA_VERSION",
    "MIN_HIDDEN_DATASETS",
    "RECIPES",
    "SALT_ENV",
    "HiddenDataError",
    "HiddenDataset",
    "Recipe",
    "edge_cases_for",
    "hidden_datasets",
    "hidden_key",
    "register_edge_case",
]

HIDDEN_SCHEMA_VERSION = 1
#: The issue's floor: fewer hidden datasets would let a model guess its way through.
MIN_HIDDEN_DATASETS = 3
SALT_ENV = "REPLICAS_HIDDEN_SALT"
WAREHOUSE_FILE = "warehouse.duckdb"
RAW_FILE = "raw.duckdb"
INDEX_FILE = "datasets.json"
_STALE_TMP_S = 6 * 3600

#: ``edge_case(tables, rng) -> tables``: mutate generated raw tables (pure; same rng ⇒ same data).
EdgeCase = Callable[[Mapping[str, pl.DataFrame], np.random.Generator], dict[str, pl.DataFrame]]


class HiddenDataError(RuntimeError):
    """A hidden dataset could not be built, or the pristine project fails its tests on it."""


@dataclass(frozen=True)
class Recipe:
    """One hidden dataset: generated at ``scale`` (its own seed), optionally mutated."""

    name: str
    scale: float
    edge_case: str | None = None

    def __post_init__(self) -> None:
        if not self.name.replace("-", "").isalnum():
            raise ValueError(f"recipe names are [a-z0-9-], got {self.name!r}")
        if not 0 < self.scale <= 1:
            raise ValueError(f"hidden datasets are small: scale in (0, 1], got {self.scale}")


#: Two other seeds and two edge-case datasets. Edge-case recipes fall back to a plain other seed
#: for a replica that registers no edge case of that name (a user's replica).
RECIPES: tuple[Recipe, ...] = (
    Recipe("seed-a", 0.004),
    Recipe("seed-b", 0.003),
    Recipe("edge-sparse", 0.003, "sparse"),
    Recipe("edge-boundary", 0.003, "boundary"),
)

_EDGE_CASES: dict[tuple[str, str], EdgeCase] = {}


def register_edge_case(replica: str, name: str, fn: EdgeCase) -> EdgeCase:
    """Make ``fn`` the ``name`` edge case of ``replica`` (recipes name it by ``edge_case``)."""
    if not name.isidentifier():
        raise ValueError(f"edge case names are identifiers, got {name!r}")
    _EDGE_CASES[(replica, name)] = fn
    return fn


def edge_cases_for(replica: str) -> dict[str, EdgeCase]:
    """The registered edge cases of ``replica`` (the built-in families register theirs when the
    family registry loads, so it is loaded first: the datasets' key must not depend on what
    happened to be imported)."""
    # Imported here: the registry imports the family base, which imports grading, which
    # imports this module — a top-level import would be circular.
    from replicas.tasks.registry import family_names

    family_names()
    return {name: fn for (rep, name), fn in sorted(_EDGE_CASES.items()) if rep == replica}


@dataclass(frozen=True)
class HiddenDataset:
    """A built hidden dataset: ``warehouse`` has raw + pristine models, ``raw`` only raw."""

    name: str
    seed: int
    scale: float
    edge_case: str | None
    warehouse: Path
    raw: Path


# ---- the cache key ---------------------------------------------------------------------------


def _hidden_root() -> Path:
    path = replicas_home() / "hidden"
    path.mkdir(parents=True, exist_ok=True)
    return path


def salt() -> str:
    """The installation's hidden-data salt (created once, atomically; never shown to agents)."""
    env = os.environ.get(SALT_ENV, "").strip()
    if env:
        return env
    path = _hidden_root() / ".salt"
    with contextlib.suppress(OSError):
        text = path.read_text(encoding="ascii").strip()
        if text:
            return text
    tmp = path.with_name(f".salt-{uuid.uuid4().hex}")
    tmp.write_text(secrets.token_hex(16), encoding="ascii")
    try:
        os.link(tmp, path)  # fails if another process won the race: theirs is kept
    except FileExistsError:
        pass
    finally:
        tmp.unlink(missing_ok=True)
    return path.read_text(encoding="ascii").strip()


def _edge_sources(replica: str) -> str:
    digest = hashlib.sha256()
    modules = sorted({fn.__module__ for fn in edge_cases_for(replica).values()})
    for module in modules:
        for name, path in source_closure(module):
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def hidden_key(replica: str) -> str:
    """What the hidden datasets of ``replica`` depend on: its code, edge cases, recipes, salt."""
    spec = get_replica(replica)
    own = Path(__file__).read_bytes()
    parts = [
        str(HIDDEN_SCHEMA_VERSION),
        code_fingerprint(spec),
        _edge_sources(replica),
        json.dumps([r.__dict__ for r in RECIPES], sort_keys=True),
        hashlib.sha256(own).hexdigest(),
        salt(),
    ]
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:20]


def _hidden_seed(replica: str, recipe: Recipe) -> int:
    # Far from every seed a suite or an export uses (0 … a few thousand).
    word = stream_key("hidden", salt(), replica, recipe.name)[0]
    return 1_000_000 + word % 1_000_000_000


# ---- building one dataset ----------------------------------------------------------------------


def _generate(replica: str, recipe: Recipe, seed: int) -> dict[str, pl.DataFrame]:
    spec = get_replica(replica)
    tables = dict(spec.load_generator()(seed, recipe.scale))
    if recipe.edge_case is not None:
        edge = edge_cases_for(replica).get(recipe.edge_case)
        if edge is not None:
            tables = dict(edge(tables, table_rng(seed, "hidden-edge-case", recipe.edge_case)))
    return tables


def _transform(replica: str, directory: Path) -> str:
    """Build the pristine project on ``directory/warehouse.duckdb``; its tests must pass."""
    spec = get_replica(replica)
    warehouse = directory / WAREHOUSE_FILE
    compiled = load_compiled(spec)
    if compiled is not None and compiled.plan is not None:
        con = replay_connection(warehouse)
        try:
            outcome = replay(compiled.plan, con)
        except ReplayAbandoned as exc:
            reason = f"replay abandoned ({exc})"
        else:
            if not outcome.ok:
                raise HiddenDataError(outcome.summary)
            return "replay"
        finally:
            con.close()
    else:
        reason = "no compiled project for replay"
    project = directory / "dbt"
    shutil.copytree(
        spec.dbt_project, project, ignore=shutil.ignore_patterns("target", "logs", "dbt_packages")
    )
    result = run_dbt(project, warehouse, ["build"], timeout_s=1800, trusted=True)
    shutil.rmtree(project, ignore_errors=True)
    if not result.ok:
        raise HiddenDataError(f"{reason}; dbt build failed:\n{result.summary}")
    return "dbt"


def _raw_only(source: Path, target: Path) -> None:
    shutil.copyfile(source, target)
    con = duckdb.connect(str(target))
    try:
        rows = con.execute(
            "select table_schema, table_name, table_type from information_schema.tables "
            "where table_schema <> 'raw' and table_catalog = current_database()"
        ).fetchall()
        for schema, name, kind in sorted(rows, key=lambda r: r[2] != "VIEW"):
            what = "VIEW" if kind == "VIEW" else "TABLE"
            con.execute(f'DROP {what} IF EXISTS "{schema}"."{name}" CASCADE')
        con.execute("CHECKPOINT")
    finally:
        con.close()


def _build_one(replica: str, recipe: Recipe, seed: int, directory: Path) -> dict[str, Any]:
    started = time.perf_counter()
    directory.mkdir()
    try:
        tables = _generate(replica, recipe, seed)
    except Exception as exc:
        raise HiddenDataError(
            f"{replica} hidden dataset {recipe.name}: {type(exc).__name__}: {exc}"
        ) from exc
    counts = load_raw_tables(directory / WAREHOUSE_FILE, tables)
    del tables
    try:
        engine = _transform(replica, directory)
    except HiddenDataError as exc:
        raise HiddenDataError(
            f"{replica} hidden dataset {recipe.name}: the pristine project fails on it: {exc}"
        ) from exc
    _raw_only(directory / WAREHOUSE_FILE, directory / RAW_FILE)
    return {
        "name": recipe.name,
        "seed": seed,
        "scale": recipe.scale,
        "edge_case": recipe.edge_case if recipe.edge_case in edge_cases_for(replica) else None,
        "rows": counts,
        "engine": engine,
        "build_s": round(time.perf_counter() - started, 3),
    }


# ---- the cache -------------------------------------------------------------------------------


@contextlib.contextmanager
def _lock(parent: Path, name: str) -> Iterator[None]:
    with open(parent / f".{name}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _load(directory: Path) -> tuple[HiddenDataset, ...] | None:
    try:
        index = json.loads((directory / INDEX_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(index, dict) or index.get("schema_version") != HIDDEN_SCHEMA_VERSION:
        return None
    out = []
    for entry in index.get("datasets", []):
        root = directory / str(entry["name"])
        if not (root / WAREHOUSE_FILE).is_file() or not (root / RAW_FILE).is_file():
            return None
        out.append(
            HiddenDataset(
                name=str(entry["name"]),
                seed=int(entry["seed"]),
                scale=float(entry["scale"]),
                edge_case=entry.get("edge_case"),
                warehouse=root / WAREHOUSE_FILE,
                raw=root / RAW_FILE,
            )
        )
    return tuple(out) if len(out) >= MIN_HIDDEN_DATASETS else None


_MEMO: dict[str, tuple[HiddenDataset, ...]] = {}
_MEMO_LOCK = threading.Lock()


def hidden_datasets(replica: str) -> tuple[HiddenDataset, ...]:
    """The hidden datasets of ``replica``, built (once per cache key) when absent.

    Raises :class:`HiddenDataError` when one cannot be built or the pristine project's tests
    fail on it (an edge case must never make the reference fail).
    """
    key = f"{replica}-{hidden_key(replica)}"
    with _MEMO_LOCK:
        cached = _MEMO.get(key)
    if cached is not None:
        return cached
    parent = _hidden_root()
    final = parent / key
    datasets = _load(final)
    if datasets is None:
        with _lock(parent, key):
            datasets = _load(final)
            if datasets is None:
                _sweep(parent)
                work = parent / f".tmp-{key}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
                work.mkdir()
                try:
                    entries = [
                        _build_one(replica, r, _hidden_seed(replica, r), work / r.name)
                        for r in RECIPES
                    ]
                    index = {
                        "schema_version": HIDDEN_SCHEMA_VERSION,
                        "replica": replica,
                        "key": key,
                        "datasets": entries,
                    }
                    write_text_atomic(work / INDEX_FILE, json.dumps(index, indent=2) + "\n")
                    make_read_only(work)
                    publish_dir(work, final)
                finally:
                    remove_tree(work)
                datasets = _load(final)
                if datasets is None:
                    raise HiddenDataError(f"the hidden datasets of {replica} did not publish")
    with _MEMO_LOCK:
        _MEMO[key] = datasets
    return datasets


def _sweep(parent: Path) -> None:
    now = time.time()
    for child in parent.glob(".tmp-*"):
        with contextlib.suppress(OSError):
            if now - child.stat().st_mtime > _STALE_TMP_S:
                remove_tree(child)
