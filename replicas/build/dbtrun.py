"""The dbt engine of a snapshot build: one dbt process started before the data exists, and the
project's data tests run in-process afterwards.

Where a real ``dbt build`` of a large replica spent its time (``ecommerce_enterprise`` at scale
1.0, 131 models, 273 data tests): ~6 s of CPU parsing the project, ~25 s building models, seeds
and snapshots, ~15 s running data tests — most of them on staging *views*, one dbt node each,
each paying dbt's materialisation overhead on top of a DuckDB query that re-runs the view. So:

* :class:`DbtProcess` starts dbt while the caller is still generating and loading the data. A
  driver (``python -c`` :data:`DRIVER`, in the OS sandbox like :func:`replicas.dbt.run_dbt`)
  parses the project, then waits until the caller says the warehouse is ready
  (:meth:`DbtProcess.release`), runs ``dbt build --exclude test_type:data`` (models, seeds,
  snapshots, unit tests, in dbt's DAG order) and then ``dbt compile --select test_type:data``
  with the same parse: the data tests' SQL compiled by dbt against the built warehouse, written
  into ``target/manifest.json`` beside the models' (the manifest differs from a ``dbt build``
  one only in each test's ``build_path`` and the execution macros in its ``depends_on``).
* :func:`run_data_tests` runs those compiled tests on one DuckDB connection exactly as dbt's test
  materialisation does (``get_limit_subquery_sql`` then ``get_test_sql``: ``fail_calc``,
  ``warn_if``, ``error_if``, ``limit``, ``severity``; ``where`` is already in the compiled SQL)
  and reports each with the status dbt would give it. Tests that need dbt itself (stored
  failures, ``sql_header``, project flags such as ``warn_error``), or a DuckDB error, raise
  :class:`DataTestsNeedDbt`: the caller then runs ``dbt test`` instead.

dbt's build order is kept for everything it builds; the tests run after the whole DAG rather
than interleaved with it. A passing build is identical either way (a test reads only its built
parents). A failing test fails the snapshot build either way; the difference is that models
downstream of it are built instead of skipped, so the failure summary may list more failures.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from replicas.build.plan import TestStep, _dag_order, _project_flag_problem, _test_problem
from replicas.build.replay import _run_tests
from replicas.dbt import (
    DbtResult,
    dbt_env,
    profiles_yaml,
    read_results,
    summarise,
)
from replicas.osbox import (
    Bind,
    OsSandboxUnavailable,
    ProcessLimits,
    SandboxedResult,
    isolation_mode,
    path_inside,
    probe,
    run_sandboxed,
)

__all__ = [
    "DATA_TESTS",
    "DRIVER",
    "DataTestsNeedDbt",
    "DbtOutcome",
    "DbtProcess",
    "as_dbt_build",
    "data_tests",
    "raw_written_by",
    "run_data_tests",
]

#: dbt's selector for data tests (generic and singular; unit tests are ``test_type:unit``).
DATA_TESTS = "test_type:data"
#: Where the driver leaves what it did (inside the project's ``target``).
DRIVER_REPORT = ".replicas-driver.json"
#: The build step's run_results (the compile step writes its own run_results.json after it).
BUILD_RESULTS = "build_run_results.json"
#: The file the caller writes beside the warehouse: ``go`` (the warehouse is loaded) or ``abort``.
GO_FILE = ".replicas-dbt-go"

#: Parse, wait for the warehouse, build, compile the data tests — in one process, one parse.
DRIVER = r"""
import json, os, shutil, sys, time
spec = json.loads(sys.argv[1])
report = {"stage": "parse"}
def write_report():
    tmp = os.path.join(spec["target"], spec["report"] + ".tmp")
    os.makedirs(spec["target"], exist_ok=True)
    with open(tmp, "w") as fh:
        json.dump(report, fh)
    os.replace(tmp, os.path.join(spec["target"], spec["report"]))
started = time.time()
from dbt.cli.main import dbtRunner
common = ["--project-dir", spec["project"], "--profiles-dir", spec["profiles"]]
parsed = dbtRunner().invoke(["parse", *common])
report["parse_s"] = time.time() - started
if not parsed.success or parsed.result is None:
    report["error"] = "parse failed: " + str(parsed.exception or "")[:2000]
    write_report()
    sys.exit(2)
report["stage"] = "wait"
write_report()
parent = os.getppid()
waited = time.time()
while not os.path.exists(spec["go"]):
    if os.getppid() != parent or time.time() - waited > spec["wait_s"]:
        sys.exit(3)
    time.sleep(0.02)
with open(spec["go"]) as fh:
    if fh.read().strip() != "go":
        sys.exit(3)
report["wait_s"] = time.time() - waited
runner = dbtRunner(manifest=parsed.result)
report["stage"] = "build"
started = time.time()
built = runner.invoke(["build", *spec["build_args"], *common])
report["build_s"] = time.time() - started
results = os.path.join(spec["target"], "run_results.json")
if os.path.exists(results):
    shutil.copyfile(results, os.path.join(spec["target"], spec["build_results"]))
if not built.success:
    report["error"] = str(built.exception or "")[:2000]
    write_report()
    sys.exit(1)
if spec["compile_args"]:
    report["stage"] = "compile"
    started = time.time()
    compiled = runner.invoke(["compile", *spec["compile_args"], *common])
    report["compile_s"] = time.time() - started
    if not compiled.success:
        report["error"] = "compiling the data tests failed: " + str(compiled.exception or "")[:2000]
        write_report()
        sys.exit(1)
report["stage"] = "done"
write_report()
"""


class DataTestsNeedDbt(RuntimeError):
    """The data tests cannot be run in-process exactly as dbt would; ``dbt test`` must run them."""


@dataclass(frozen=True)
class DbtOutcome:
    """What the dbt process did: ``result`` (its build step's nodes) and the driver's timings."""

    result: DbtResult
    timings: dict[str, float] = field(default_factory=dict)
    tests_compiled: bool = False


class DbtProcess:
    """One dbt process for the project copied into ``project``, building ``warehouse``.

    ``start()`` launches it (it parses at once); ``release()`` once ``warehouse`` is loaded lets
    it build; ``finish()`` waits and returns a :class:`DbtOutcome`. ``abort()`` (or leaving a
    ``with`` block without ``release()``) stops it. ``split=False`` runs a plain ``dbt build``
    (data tests included) after the release.
    """

    def __init__(
        self,
        project: Path,
        warehouse: Path,
        *,
        split: bool = True,
        threads: int = 2,
        timeout_s: float = 1800.0,
        wait_s: float = 3600.0,
        limits: ProcessLimits | None = None,
    ) -> None:
        self.project = Path(project).resolve()
        self.warehouse = Path(warehouse).resolve()
        self.split = split
        self.threads = threads
        self.timeout_s = timeout_s
        self.wait_s = wait_s
        self.limits = limits or ProcessLimits()
        self._go = self.warehouse.parent / GO_FILE
        self._thread: threading.Thread | None = None
        self._sandboxed: SandboxedResult | None = None
        self._error: BaseException | None = None
        self._mode = "unavailable"
        self._scratch: Path | None = None
        self._started = 0.0
        self._released = 0.0

    # -- lifecycle ---------------------------------------------------------------------------

    def start(self) -> DbtProcess:
        if probe() is not None:
            self._mode = "trusted-none"  # the kit's own project on a machine without bubblewrap
        else:
            try:
                self._mode = isolation_mode()
            except OsSandboxUnavailable:
                self._mode = "trusted-none"
        self._go.unlink(missing_ok=True)
        scratch = self._scratch = Path(tempfile.mkdtemp(prefix="replicas-dbt-"))
        (scratch / "profiles").mkdir()
        (scratch / "home").mkdir()
        project = Bind(self.project, "/sandbox/project", writable=True)
        database = Bind(self.warehouse.parent, "/sandbox/db", writable=True)
        profiles = Bind(scratch / "profiles", "/profiles")
        mode = self._mode
        (scratch / "profiles" / "profiles.yml").write_text(
            profiles_yaml(
                path_inside(database, mode, self.warehouse.name),
                threads=self.threads,
                memory_limit=None,  # a build may use DuckDB's default memory at large scales
            )
        )
        target = self.project / "target"
        for name in ("run_results.json", BUILD_RESULTS, DRIVER_REPORT):
            (target / name).unlink(missing_ok=True)
        spec = {
            "project": path_inside(project, mode),
            "profiles": path_inside(profiles, mode),
            "target": path_inside(project, mode, "target"),
            "go": path_inside(database, mode, GO_FILE),
            "wait_s": self.wait_s,
            "report": DRIVER_REPORT,
            "build_results": BUILD_RESULTS,
            "build_args": ["--exclude", DATA_TESTS] if self.split else [],
            "compile_args": ["--select", DATA_TESTS] if self.split else [],
        }
        home = "/tmp" if mode == "bubblewrap" else str(scratch / "home")
        argv = [sys.executable, "-c", DRIVER, json.dumps(spec)]

        def run() -> None:
            try:
                self._sandboxed = run_sandboxed(
                    argv,
                    binds=[project, database, profiles],
                    workdir=path_inside(project, mode),
                    env=dbt_env(home),
                    limits=self.limits,
                    timeout_s=self.timeout_s + self.wait_s,
                    mode=mode,
                )
            except BaseException as exc:  # re-raised by finish()
                self._error = exc

        self._started = time.perf_counter()
        self._thread = threading.Thread(target=run, name="replicas-dbt", daemon=True)
        self._thread.start()
        return self

    def release(self) -> None:
        """The warehouse is loaded: let dbt build it."""
        self._released = time.perf_counter()
        self._signal("go")

    def abort(self) -> None:
        """Stop the process (it exits at once if still waiting) and wait for it."""
        self._signal("abort")
        if self._thread is not None:
            self._thread.join()
        self._cleanup()

    def __enter__(self) -> DbtProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._thread is not None and self._thread.is_alive():
            self.abort()
        self._cleanup()

    def _signal(self, word: str) -> None:
        tmp = self._go.with_name(GO_FILE + ".tmp")
        tmp.write_text(word + "\n")
        os.replace(tmp, self._go)

    def _cleanup(self) -> None:
        self._go.unlink(missing_ok=True)
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None

    # -- outcome -----------------------------------------------------------------------------

    def finish(self) -> DbtOutcome:
        """Wait for dbt; its build step's results (failures first in ``summary``)."""
        assert self._thread is not None, "start() first"
        self._thread.join()
        finished = time.perf_counter()
        self._cleanup()
        if self._error is not None:
            raise self._error
        sandboxed = self._sandboxed
        assert sandboxed is not None
        target = self.project / "target"
        report = _read_json(target / DRIVER_REPORT)
        timings = {
            k: float(v)
            for k, v in report.items()
            if k.endswith("_s") and isinstance(v, (int, float))
        }
        timings["after_release_s"] = finished - (self._released or finished)
        log = sandboxed.stdout + sandboxed.stderr
        results = read_results(target / (BUILD_RESULTS if self.split else "run_results.json"))
        (target / BUILD_RESULTS).unlink(missing_ok=True)
        (target / DRIVER_REPORT).unlink(missing_ok=True)
        wall = sandboxed.wall_s
        if sandboxed.timed_out or sandboxed.stopped is not None:
            why = (
                f"dbt timed out after {self.timeout_s + self.wait_s:.0f} s"
                if sandboxed.timed_out
                else f"dbt was stopped: {sandboxed.stopped}"
            )
            result = DbtResult(False, -1, why, log, results, sandboxed.timed_out, self._mode, wall)
            return DbtOutcome(result, timings)
        ok = sandboxed.returncode == 0 and report.get("stage") == "done"
        summary = summarise(results, log, 0 if ok else sandboxed.returncode or 1)
        if report.get("error") and not ok:
            summary += f"\n{' '.join(str(report['error']).split())[:1000]}"
        if sandboxed.killed_by is not None:
            summary += f"\ndbt was killed by {sandboxed.killed_by} (a resource limit was reached)"
        result = DbtResult(
            ok=ok,
            returncode=sandboxed.returncode,
            summary=summary,
            log=log,
            results=results,
            isolation=self._mode,
            wall_s=wall,
        )
        return DbtOutcome(result, timings, tests_compiled=ok and self.split)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text()) if path.stat().st_size < (1 << 20) else {}
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


# --------------------------------------------------------------------------------------------
# data tests in-process


def data_tests(manifest: dict[str, Any], project_yml: str | None) -> list[TestStep]:
    """Every data test of ``manifest`` (compiled) as a :class:`TestStep`, in unique_id order.

    Raises :class:`DataTestsNeedDbt` when one of them (or a project flag) needs dbt to run it.
    """
    problem = _project_flag_problem(project_yml)
    if problem:
        raise DataTestsNeedDbt(problem)
    steps = []
    for uid, node in sorted(manifest.get("nodes", {}).items()):
        if node.get("resource_type") != "test":
            continue
        problem = _test_problem(uid, node)
        if problem:
            raise DataTestsNeedDbt(problem)
        config = node.get("config", {})
        limit = config.get("limit")
        steps.append(
            TestStep(
                unique_id=uid,
                sql=str(node["compiled_code"]),
                parents=(),
                severity=str(config.get("severity") or "ERROR"),
                fail_calc=str(config.get("fail_calc") or "count(*)"),
                warn_if=str(config.get("warn_if") or "!= 0"),
                error_if=str(config.get("error_if") or "!= 0"),
                limit=None if limit is None else int(limit),
            )
        )
    return steps


def run_data_tests(
    con: duckdb.DuckDBPyConnection, project: Path
) -> tuple[list[dict[str, Any]], int]:
    """Run the data tests compiled into ``project/target/manifest.json`` through ``con``.

    Returns one result per test in :func:`replicas.dbt.read_results`' shape (``status`` pass,
    warn or fail, dbt's message, ``failures``) and the number of queries. Raises
    :class:`DataTestsNeedDbt` when dbt must run them instead.
    """
    manifest = json.loads((project / "target" / "manifest.json").read_text())
    project_yml = project / "dbt_project.yml"
    tests = data_tests(manifest, project_yml.read_text() if project_yml.is_file() else None)
    try:
        judged, queries = _run_tests(con, tuple(tests))
    except (duckdb.Error, RuntimeError) as exc:
        raise DataTestsNeedDbt(
            f"a data test query failed in-process: {type(exc).__name__}: {exc}"
        ) from exc
    return [judged[t.unique_id] for t in tests], queries


# --------------------------------------------------------------------------------------------
# may dbt have written to the raw schema?

#: Jinja that can run statements of its own while dbt builds (beyond the materialisations).
_RUNS_STATEMENTS = re.compile(
    r"\b(run_query|statement|execute|load_result)\b"
    r"|\badapter\s*\.\s*(?!dispatch\b|quote\b|quote_as_configured\b|type\b)\w+"
)
_JINJA_BLOCK = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.DOTALL)


def raw_written_by(manifest: dict[str, Any], raw_schema: str) -> str | None:
    """Why the dbt build of ``manifest`` might have changed schema ``raw_schema``, or ``None``.

    dbt only writes the relations of its nodes, so the raw tables are as loaded unless a node
    lands in ``raw_schema``, a hook or operation runs SQL, or project Jinja runs statements of
    its own (``run_query``, ``statement``, ``adapter.execute`` …; a conservative text match).
    """
    builtin = {"dbt", f"dbt_{manifest.get('metadata', {}).get('adapter_type', 'duckdb')}"}
    for uid, node in sorted(manifest.get("nodes", {}).items()):
        kind = node.get("resource_type")
        if kind == "operation":
            return f"{uid} is a hook"
        config = node.get("config", {})
        if config.get("pre-hook") or config.get("post-hook"):
            return f"{uid} has pre-/post-hooks"
        if kind != "test" and str(node.get("schema", "")).lower() == raw_schema.lower():
            return f"{uid} is built in schema {raw_schema}"
        if _RUNS_STATEMENTS.search("\n".join(_JINJA_BLOCK.findall(node.get("raw_code") or ""))):
            return f"{uid} runs statements from Jinja"
    for uid, macro in sorted(manifest.get("macros", {}).items()):
        if macro.get("package_name") in builtin:
            continue
        jinja = "\n".join(_JINJA_BLOCK.findall(macro.get("macro_sql") or ""))
        if _RUNS_STATEMENTS.search(jinja):
            return f"{uid} runs statements from Jinja"
    return None


def as_dbt_build(
    manifest: dict[str, Any], built: list[dict[str, Any]], tested: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """``built`` (dbt's results for everything but the data tests) and ``tested`` (the data
    tests, run after the whole DAG) reported the way one ``dbt build`` reports them.

    Nothing changes when every test passes. When a test fails, ``dbt build`` skips each node that
    descends from *all* of the test's parents, and the tests of skipped nodes; the replay engine
    reports it so (:func:`replicas.build.replay._apply_skips`) and so does this, with seeds,
    snapshots and incremental models in the DAG too.
    """
    if not any(r["status"] == "fail" for r in tested):
        return [*built, *tested]
    nodes = manifest.get("nodes", {})
    buildable = {
        uid
        for uid, n in nodes.items()
        if n.get("resource_type") in {"model", "seed", "snapshot"}
        and n.get("config", {}).get("materialized") != "ephemeral"
    }
    graph = {
        u: n for u, n in nodes.items() if n.get("resource_type") in {"model", "seed", "snapshot"}
    }

    def parents(uid: str) -> tuple[str, ...]:
        found = nodes.get(uid, {}).get("depends_on", {}).get("nodes", [])
        return tuple(sorted({p for p in found if p in graph}))

    order = _dag_order({uid: parents(uid) for uid in graph})
    position = {uid: i for i, uid in enumerate(order)}
    ancestors: dict[str, set[str]] = {}
    for uid in order:
        found: set[str] = set()
        for parent in parents(uid):
            found.add(parent)
            found |= ancestors[parent]
        ancestors[uid] = found
    skipped: set[str] = set()
    by_id = {r["unique_id"]: r for r in tested}
    test_order = sorted(
        by_id, key=lambda t: (max((position[p] for p in parents(t)), default=-1), t)
    )
    out_tests: dict[str, dict[str, Any]] = {}
    for uid in test_order:
        result = by_id[uid]
        tested_parents = set(parents(uid))
        if tested_parents & skipped:
            result = {**result, "status": "skipped", "message": "", "failures": None}
        elif result["status"] == "fail":
            skipped |= {
                m
                for m, anc in ancestors.items()
                if m in buildable and tested_parents and tested_parents <= anc
            }
        out_tests[uid] = result
    out = [
        {**r, "status": "skipped", "message": "", "failures": None}
        if r["unique_id"] in skipped
        else r
        for r in built
    ]
    return [*out, *(out_tests[r["unique_id"]] for r in tested)]
