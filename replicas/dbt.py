"""Run dbt against one DuckDB file — in the OS sandbox when the project is the agent's.

Why a subprocess: an in-process dbt run keeps the DuckDB file locked and imports ~1 s of modules
into the caller; a child process isolates both, can be killed on timeout, and sees a scrubbed
environment (so a model's ``env_var()`` reveals nothing of the host).

Why an OS sandbox (``replicas.osbox``): an agent's project is code. The child sees the project
at ``/sandbox/project`` and the warehouse's directory at ``/sandbox/db`` (the only writable
places), its profile read-only at ``/profiles``, and nothing else of the host. Paths are the
same in every episode and in grading, so a model cannot tell the two apart or learn where the
snapshot cache is. Resource limits bound memory, file sizes, CPU and wall time; the profile
caps DuckDB's own memory, threads and temp-file space, and disables external file access and
locks the configuration, so ``read_csv('/etc/passwd')`` or ``ATTACH`` inside a model fail just
as they do in the ``sql`` tool.

The kit's own projects (snapshot builds) are trusted: ``trusted=True`` runs them in the
sandbox when one is available and without it otherwise.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from replicas.osbox import (
    Bind,
    OsSandboxUnavailable,
    ProcessLimits,
    isolation_mode,
    path_inside,
    probe,
    run_sandboxed,
)

__all__ = [
    "DBT_LIMITS",
    "PROFILE_NAME",
    "DatasetRun",
    "DbtResult",
    "dbt_env",
    "profiles_yaml",
    "read_results",
    "run_dbt",
    "run_dbt_datasets",
    "summarise",
]

PROFILE_NAME = "replica"
#: Where the child sees things (identical in episodes and grading).
PROJECT_MOUNT = "/sandbox/project"
DB_MOUNT = "/sandbox/db"
PROFILES_MOUNT = "/profiles"
#: Default limits of one dbt process tree; DuckDB inside gets ``duckdb_memory`` of it.
DBT_LIMITS = ProcessLimits()
#: How much an agent project's dbt run (grading, a replay, a one-shot episode call) may write
#: before it is stopped: an episode's disk quota (1 GiB) for each of up to four datasets.
AGENT_RUN_DISK_BYTES = 4 << 30
DUCKDB_MEMORY = "1GB"
DUCKDB_TEMP = "1GB"

# Only what dbt needs to run; everything else of the host environment stays out of the child.
_PASSTHROUGH_ENV = ("LANG", "LC_ALL", "TZ")


@dataclass(frozen=True)
class DbtResult:
    """Outcome of one dbt invocation; ``summary`` lists failures first, then the counts."""

    ok: bool
    returncode: int
    summary: str
    log: str
    results: list[dict[str, Any]] = field(default_factory=list)
    timed_out: bool = False
    isolation: str = "bubblewrap"
    wall_s: float = 0.0
    # CPU-seconds the persistent worker's process had used when the call returned (its whole
    # life, as RLIMIT_CPU counts it); 0.0 where no worker ran
    cpu_s: float = 0.0

    @property
    def failed_nodes(self) -> list[dict[str, Any]]:
        return [r for r in self.results if r.get("status") in {"error", "fail", "runtime error"}]


def profiles_yaml(
    warehouse_path: str, *, threads: int = 2, memory_limit: str | None = DUCKDB_MEMORY
) -> str:
    """The profiles.yml text pointing dbt at ``warehouse_path`` (as the child sees it)."""
    return (
        f"{PROFILE_NAME}:\n"
        "  target: dev\n"
        "  outputs:\n"
        "    dev:\n"
        "      type: duckdb\n"
        f"      path: {json.dumps(warehouse_path)}\n"
        f"      threads: {threads}\n"
        "      config_options:\n"
        "        enable_external_access: false\n"
        "        lock_configuration: true\n"
        "        autoinstall_known_extensions: false\n"
        "        autoload_known_extensions: false\n"
        f"        max_temp_directory_size: {DUCKDB_TEMP}\n"
        + (f"        memory_limit: {memory_limit}\n" if memory_limit is not None else "")
    )


def dbt_env(home: Path | str) -> dict[str, str]:
    """The child's whole environment: a few locale variables and dbt's quiet switches."""
    env = {k: os.environ[k] for k in _PASSTHROUGH_ENV if k in os.environ}
    env.update(
        PATH="/usr/local/bin:/usr/bin:/bin",
        HOME=str(home),
        DBT_SEND_ANONYMOUS_USAGE_STATS="false",
        DO_NOT_TRACK="1",
        DBT_USE_COLORS="false",
        DBT_PRINTER_WIDTH="100",
        PYTHONDONTWRITEBYTECODE="1",
        PYTHONNOUSERSITE="1",
    )
    return env


def run_dbt(
    project_dir: Path,
    warehouse: Path,
    args: list[str],
    *,
    timeout_s: float = 300.0,
    threads: int = 2,
    trusted: bool = False,
    limits: ProcessLimits = DBT_LIMITS,
    mode: str | None = None,
    disk_limit_bytes: int | None = None,
) -> DbtResult:
    """Run ``dbt <args>`` for ``project_dir`` against ``warehouse``; never raises on dbt failure.

    ``disk_limit_bytes`` (default for an agent's project: :data:`AGENT_RUN_DISK_BYTES`): the
    run is stopped once the project and warehouse directories grew by more than that.

    ``trusted=False`` (an agent's project) requires the OS sandbox or the user's explicit
    opt-out; without either the result is a failure saying so, and dbt does not run.
    ``mode`` forces an isolation mode (benchmarks compare ``"bubblewrap"`` with
    ``"trusted-none"`` on one machine).
    """
    project_dir = Path(project_dir).resolve()
    warehouse = Path(warehouse).resolve()
    if mode is not None:
        pass
    elif trusted and probe() is not None:
        mode = "trusted-none"  # the kit's own project on a machine without bubblewrap
    else:
        try:
            mode = isolation_mode()
        except OsSandboxUnavailable as exc:
            return DbtResult(False, -1, str(exc), "", isolation="unavailable")
    scratch = Path(tempfile.mkdtemp(prefix="replicas-dbt-"))
    try:
        project = Bind(project_dir, PROJECT_MOUNT, writable=True)
        database = Bind(warehouse.parent, DB_MOUNT, writable=True)
        profiles = Bind(scratch / "profiles", PROFILES_MOUNT)
        (scratch / "profiles").mkdir()
        (scratch / "home").mkdir()
        inside_warehouse = path_inside(database, mode, warehouse.name)
        (scratch / "profiles" / "profiles.yml").write_text(
            # the kit's own builds may use DuckDB's default memory (80 % of RAM) at large scales
            profiles_yaml(
                inside_warehouse, threads=threads, memory_limit=None if trusted else DUCKDB_MEMORY
            )
        )
        run_results = project_dir / "target" / "run_results.json"
        run_results.unlink(missing_ok=True)
        cmd = [
            sys.executable,
            "-m",
            "dbt.cli.main",
            *args,
            "--project-dir",
            path_inside(project, mode),
            "--profiles-dir",
            path_inside(profiles, mode),
        ]
        home = "/tmp" if mode == "bubblewrap" else str(scratch / "home")
        if disk_limit_bytes is None and not trusted:
            disk_limit_bytes = AGENT_RUN_DISK_BYTES
        result = run_sandboxed(
            cmd,
            binds=[project, database, profiles],
            workdir=path_inside(project, mode),
            env=dbt_env(home),
            limits=limits,
            timeout_s=timeout_s,
            mode=mode,
            disk_limit_bytes=disk_limit_bytes,
        )
        log = result.stdout + result.stderr
        if result.stopped is not None:
            return DbtResult(
                ok=False,
                returncode=-1,
                summary=f"dbt was stopped: {result.stopped}",
                log=log,
                isolation=mode,
                wall_s=result.wall_s,
            )
        if result.timed_out:
            return DbtResult(
                ok=False,
                returncode=-1,
                summary=f"dbt timed out after {timeout_s:.0f} s",
                log=log,
                timed_out=True,
                isolation=mode,
                wall_s=result.wall_s,
            )
        results = read_results(run_results)
        summary = summarise(results, log, result.returncode)
        if result.killed_by is not None:
            summary += f"\ndbt was killed by {result.killed_by} (a resource limit was reached)"
        return DbtResult(
            ok=result.returncode == 0,
            returncode=result.returncode,
            summary=summary,
            log=log,
            results=results,
            isolation=mode,
            wall_s=result.wall_s,
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def read_results(path: Path) -> list[dict[str, Any]]:
    try:
        if path.stat().st_size > 50 * (1 << 20):
            return []
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return []
    out = []
    for r in data.get("results", []) if isinstance(data, dict) else []:
        if not isinstance(r, dict):
            continue
        out.append(
            {
                "unique_id": str(r.get("unique_id", "")),
                "status": str(r.get("status", "")),
                "message": str(r.get("message") or "")[:2000],
                "failures": r.get("failures"),
                "execution_time": r.get("execution_time"),
            }
        )
    return out


def summarise(results: list[dict[str, Any]], log: str, returncode: int) -> str:
    """Failures first (what the reader must act on), then one line of counts."""
    bad = [r for r in results if r["status"] in {"error", "fail", "runtime error"}]
    warn = [r for r in results if r["status"] == "warn"]
    lines: list[str] = []
    for r in bad:
        msg = " ".join(str(r["message"]).split())[:400]
        lines.append(f"FAIL {r['unique_id']}: {msg}")
    for r in warn:
        lines.append(f"WARN {r['unique_id']}: {' '.join(str(r['message']).split())[:200]}")
    if results:
        counts: dict[str, int] = {}
        for r in results:
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        lines.append("counts: " + ", ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    elif returncode != 0:
        # Compile/parse errors produce no run_results: surface the error lines of the log.
        err = [ln for ln in log.splitlines() if "rror" in ln or "not found" in ln]
        lines.extend(ln.strip()[:400] for ln in err[-15:])
        if not err:
            lines.extend(ln.strip()[:400] for ln in log.splitlines()[-15:])
    lines.append("dbt " + ("succeeded" if returncode == 0 else f"failed (exit {returncode})"))
    return "\n".join(lines)


# ---- one sandboxed process, several warehouses ------------------------------------------------

#: The driver a sandboxed Python runs (``python -c``; the kit itself is masked inside the sandbox):
#: import dbt once, parse the project once, then for each dataset swap its file in as
#: ``warehouse.duckdb`` (the one path every episode uses), run, close dbt-duckdb's cached DuckDB
#: instance (it is keyed by the unchanged path and would serve the previous file), swap it back.
#: Results go to a JSON file beside the warehouses: only statuses and messages for feedback —
#: the verdict is read from the tables themselves.
#: Driver code shared by the sandboxed drivers (spliced in after dbt is imported): close
#: dbt-duckdb's cached DuckDB instance. It is keyed by the warehouse path, so it would serve the
#: previous file to the next run, and it holds the file's lock between runs.
DRIVER_RELEASE_DUCKDB = r"""
from dbt.adapters.duckdb.connections import DuckDBConnectionManager as _manager
def release_duckdb():
    env = _manager._ENV
    if env is not None:
        try:
            env.close()
        except Exception:
            pass
    _manager._ENV = None
"""

_DATASETS_DRIVER = (
    r"""
import json, os, sys, time
spec = json.loads(sys.argv[1])
db = spec["db"]
active = os.path.join(db, spec["active"])
from dbt.cli.main import dbtRunner
"""
    + DRIVER_RELEASE_DUCKDB
    + r"""common = ["--project-dir", spec["project"], "--profiles-dir", spec["profiles"], "--quiet"]
runner = dbtRunner()
parsed = runner.invoke(["parse", *common])
if parsed.success and parsed.result is not None:
    runner = dbtRunner(manifest=parsed.result)
out = []
for name in spec["datasets"]:
    started = time.time()
    os.replace(os.path.join(db, name), active)
    nodes, ok, error = [], False, None
    try:
        res = runner.invoke([*spec["args"], *common])
        ok = bool(res.success)
        error = None if res.exception is None else str(res.exception)[:2000]
        for r in getattr(res.result, "results", None) or []:
            nodes.append({"unique_id": str(r.node.unique_id), "status": str(r.status),
                          "message": str(r.message or "")[:2000], "failures": r.failures,
                          "execution_time": r.execution_time})
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"[:2000]
    finally:
        release_duckdb()
        os.replace(active, os.path.join(db, name))
    out.append({"name": name, "ok": ok, "error": error, "results": nodes,
                "wall_s": time.time() - started})
    with open(os.path.join(db, spec["results"] + ".tmp"), "w") as fh:
        json.dump(out, fh)
    os.replace(os.path.join(db, spec["results"] + ".tmp"), os.path.join(db, spec["results"]))
"""
)
_DATASET_RESULTS = ".replicas-datasets.json"
_ACTIVE_WAREHOUSE = "warehouse.duckdb"


@dataclass(frozen=True)
class DatasetRun:
    """What one dataset's dbt run did inside :func:`run_dbt_datasets`."""

    name: str
    ok: bool
    summary: str
    results: list[dict[str, Any]] = field(default_factory=list)
    wall_s: float = 0.0


def run_dbt_datasets(
    project_dir: Path,
    directory: Path,
    datasets: list[str],
    args: list[str],
    *,
    timeout_s: float = 300.0,
    threads: int = 2,
    limits: ProcessLimits = DBT_LIMITS,
    disk_limit_bytes: int = AGENT_RUN_DISK_BYTES,
) -> tuple[DbtResult, list[DatasetRun]]:
    """Run ``dbt <args>`` once per DuckDB file ``directory/<dataset>``, in ONE sandboxed process.

    dbt's import and the project's parse are paid once instead of once per dataset. Every run
    sees its file at the path an episode's warehouse has (``/sandbox/db/warehouse.duckdb``), so a
    model cannot tell the datasets (or grading) apart by path. The project is the agent's:
    the OS sandbox (or the user's explicit opt-out) is required. Each file is left in place
    with what the run built in it. Datasets the process did not reach (timeout, crash) are
    reported as not ok.
    """
    project_dir = Path(project_dir).resolve()
    directory = Path(directory).resolve()
    for name in datasets:
        if "/" in name or name in (_ACTIVE_WAREHOUSE, _DATASET_RESULTS) or not name:
            raise ValueError(f"bad dataset file name {name!r}")
        if not (directory / name).is_file():
            raise FileNotFoundError(directory / name)
    try:
        mode = isolation_mode()
    except OsSandboxUnavailable as exc:
        failed = [DatasetRun(n, False, str(exc)) for n in datasets]
        return DbtResult(False, -1, str(exc), "", isolation="unavailable"), failed
    scratch = Path(tempfile.mkdtemp(prefix="replicas-dbt-"))
    try:
        project = Bind(project_dir, PROJECT_MOUNT, writable=True)
        database = Bind(directory, DB_MOUNT, writable=True)
        profiles = Bind(scratch / "profiles", PROFILES_MOUNT)
        (scratch / "profiles").mkdir()
        (scratch / "home").mkdir()
        (scratch / "profiles" / "profiles.yml").write_text(
            profiles_yaml(path_inside(database, mode, _ACTIVE_WAREHOUSE), threads=threads)
        )
        (directory / _DATASET_RESULTS).unlink(missing_ok=True)
        spec = {
            "db": path_inside(database, mode),
            "active": _ACTIVE_WAREHOUSE,
            "project": path_inside(project, mode),
            "profiles": path_inside(profiles, mode),
            "datasets": list(datasets),
            "args": list(args),
            "results": _DATASET_RESULTS,
        }
        home = "/tmp" if mode == "bubblewrap" else str(scratch / "home")
        result = run_sandboxed(
            [sys.executable, "-c", _DATASETS_DRIVER, json.dumps(spec)],
            binds=[project, database, profiles],
            workdir=path_inside(project, mode),
            env=dbt_env(home),
            limits=limits,
            timeout_s=timeout_s,
            mode=mode,
            disk_limit_bytes=disk_limit_bytes,
        )
        log = result.stdout + result.stderr
        runs = _read_dataset_runs(directory / _DATASET_RESULTS, datasets)
        # A killed process may leave the active file in place: it belongs to the next dataset
        # the driver had swapped in, which then counts as not reached.
        (directory / _ACTIVE_WAREHOUSE).unlink(missing_ok=True)
        (directory / _DATASET_RESULTS).unlink(missing_ok=True)
        if result.timed_out:
            summary = f"dbt timed out after {timeout_s:.0f} s"
        elif result.stopped is not None:
            summary = f"dbt was stopped: {result.stopped}"
        else:
            summary = "\n".join(f"{r.name}: {'ok' if r.ok else 'failed'}" for r in runs)
            if result.killed_by is not None:
                summary += f"\ndbt was killed by {result.killed_by} (a resource limit was reached)"
        ok = (
            result.returncode == 0
            and not result.timed_out
            and result.stopped is None
            and all(r.ok for r in runs)
        )
        overall = DbtResult(
            ok=ok,
            returncode=-1 if result.timed_out else result.returncode,
            summary=summary,
            log=log,
            timed_out=result.timed_out,
            isolation=mode,
            wall_s=result.wall_s,
        )
        return overall, runs
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _read_dataset_runs(path: Path, datasets: list[str]) -> list[DatasetRun]:
    """The driver's per-dataset report (untrusted bytes from a sandboxed process: bounded,
    shape-checked); a dataset it does not mention was not reached."""
    reported: dict[str, DatasetRun] = {}
    try:
        data = json.loads(path.read_text()) if path.stat().st_size <= 20 * (1 << 20) else []
    except (OSError, ValueError):
        data = []
    for entry in data if isinstance(data, list) else []:
        if not isinstance(entry, dict) or entry.get("name") not in datasets:
            continue
        results = []
        for r in entry.get("results") or []:
            if isinstance(r, dict):
                results.append(
                    {
                        "unique_id": str(r.get("unique_id", "")),
                        "status": str(r.get("status", "")).rsplit(".", 1)[-1].lower(),
                        "message": str(r.get("message") or "")[:2000],
                        "failures": r.get("failures"),
                        "execution_time": r.get("execution_time"),
                    }
                )
        ok = entry.get("ok") is True
        summary = summarise(results, str(entry.get("error") or ""), 0 if ok else 1)
        wall = entry.get("wall_s")
        reported[str(entry["name"])] = DatasetRun(
            str(entry["name"]),
            ok,
            summary,
            results,
            float(wall) if isinstance(wall, (int, float)) else 0.0,
        )
    return [
        reported.get(n) or DatasetRun(n, False, "dbt did not reach this dataset") for n in datasets
    ]
