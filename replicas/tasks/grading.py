"""Grading: the context a family grades in, and the default graders by answer kind.

Question tasks compare the submitted text with the hidden expected answer
(``replicas.verifiers.answers``). dbt tasks never trust the sandbox warehouse: grading copies the
agent's project files into a private grading directory, rebuilds the target models against a
fresh copy of the pristine RAW data, and compares the result with the reference computed on the
pristine snapshot. Editing tests, the reference or leaving a stale table therefore cannot pass.

With ``VerifierConfig.hidden_data`` (every ``-v2`` dbt family) a project that passes on the
visible data is rebuilt again on each hidden dataset of the replica (``replicas.tasks.hidden``:
other seeds and edge cases the agent never sees) — all of them in one sandboxed dbt process —
and compared there with the reference computed on that dataset. Pasted rows, or a model that
only works on the visible data, fail. Feedback on a hidden dataset names the dataset and what
kind of difference it found, never its values.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from replicas.db import open_readonly, readonly_connection
from replicas.dbt import DatasetRun, run_dbt, run_dbt_datasets
from replicas.protocols import SnapshotLike
from replicas.sandbox import SKIP_PROJECT_DIRS, copy_project_safely, raw_only_warehouse
from replicas.sandbox.parse_seed import seed_for_grading
from replicas.tasks.base import Task
from replicas.tasks.hidden import HiddenDataset, hidden_datasets, hidden_key
from replicas.tasks.values import json_value, table_value
from replicas.verifiers.answers import check_answer, compare_tables
from replicas.verifiers.config import VerifierConfig
from replicas.verifiers.verdict import Reason, Verdict, fail


@dataclass(frozen=True)
class RebuildResult:
    """Outcome of rebuilding models from the agent's project on pristine raw data."""

    ok: bool
    summary: str
    warehouse: Path | None
    grading_dir: Path


@dataclass(frozen=True)
class HiddenRebuild:
    """The agent's project rebuilt on every hidden dataset (one sandboxed dbt process)."""

    ok: bool
    summary: str
    datasets: tuple[HiddenDataset, ...]
    runs: tuple[DatasetRun, ...]
    warehouses: tuple[Path, ...]
    wall_s: float = 0.0


@dataclass
class GradeContext:
    """What a family's ``grade`` may look at: pristine snapshot + the episode's sandbox."""

    snapshot: SnapshotLike
    sandbox_root: Path
    project_dir: Path
    warehouse: Path | None = None
    dbt_timeout_s: float = 300.0
    #: ``time.monotonic()`` by which grading must be done: the episode's remaining wall budget.
    deadline: float | None = None
    #: The project the episode started from (``Sandbox.start_template``): its parse seeds a
    #: rebuild whose project differs from it only in model SQL (``replicas.sandbox.parse_seed``).
    start_project: Path | None = None
    #: Set when a rebuild was cut short by the time limit (or had no time left): the verdict then
    #: says more about the machine's load than about the answer, so it is not cached.
    ran_out_of_time: bool = False
    _cleanup: list[Path] = field(default_factory=list, repr=False)

    def time_left(self) -> float:
        """Seconds a rebuild may take: the dbt timeout, capped by the episode's deadline."""
        if self.deadline is None:
            return self.dbt_timeout_s
        return min(self.dbt_timeout_s, self.deadline - time.monotonic())

    def pristine_query(self, sql: str) -> list[tuple[Any, ...]]:
        cur = readonly_connection(self.snapshot.warehouse).cursor()
        try:
            return [tuple(json_value(v) for v in r) for r in cur.execute(sql).fetchall()]
        finally:
            cur.close()

    def pristine_table(self, sql: str) -> dict[str, Any]:
        cur = readonly_connection(self.snapshot.warehouse).cursor()
        try:
            result = cur.execute(sql)
            cols = [d[0] for d in result.description or []]
            return table_value(cols, result.fetchall())
        finally:
            cur.close()

    def rebuild(self, models: Sequence[str]) -> RebuildResult:
        """Rebuild ``models`` (and their upstream) from the agent's project on pristine raw data.

        The rebuild runs in the OS sandbox with the episode's limits, within the time the
        episode has left; its directory is named like an episode's sandbox and mounted at the
        same paths, so nothing inside can tell grading from an ordinary ``dbt run``.
        """
        grading_dir = Path(tempfile.mkdtemp(prefix="replicas-sbx-"))
        self._cleanup.append(grading_dir)
        project = grading_dir / "project"
        refused = copy_project_safely(self.project_dir, project)
        if refused:
            return RebuildResult(
                False, "refused project files: " + ", ".join(refused), None, grading_dir
            )
        timeout_s = self.time_left()
        if timeout_s <= 1.0:
            self.ran_out_of_time = True
            return RebuildResult(
                False, "no time was left in the episode to rebuild the project", None, grading_dir
            )
        seed_for_grading(project, self.start_project)
        warehouse = grading_dir / "warehouse.duckdb"
        shutil.copyfile(raw_only_warehouse(self.snapshot), warehouse)
        select = " ".join(f"+{m}" for m in models)
        result = run_dbt(project, warehouse, ["run", "--select", select], timeout_s=timeout_s)
        summary = str(result.summary)
        if result.timed_out:
            self.ran_out_of_time = True
            summary = f"the rebuild did not finish within the {timeout_s:.0f} s left\n" + summary
        return RebuildResult(bool(result.ok), summary, warehouse, grading_dir)

    def rebuild_hidden(self, models: Sequence[str]) -> HiddenRebuild:
        """Rebuild ``models`` (and their upstream) from the agent's project on every hidden
        dataset of the replica, in one sandboxed dbt process, within the time left."""
        datasets = hidden_datasets(self.snapshot.replica)
        grading_dir = Path(tempfile.mkdtemp(prefix="replicas-sbx-"))
        self._cleanup.append(grading_dir)
        project = grading_dir / "project"
        refused = copy_project_safely(self.project_dir, project)
        if refused:
            return HiddenRebuild(
                False, "refused project files: " + ", ".join(refused), datasets, (), ()
            )
        timeout_s = self.time_left()
        if timeout_s <= 1.0:
            self.ran_out_of_time = True
            message = "no time was left in the episode to rebuild on the hidden datasets"
            return HiddenRebuild(False, message, datasets, (), ())
        seed_for_grading(project, self.start_project)
        db = grading_dir / "db"
        db.mkdir()
        names = [f".hidden-{i}.duckdb" for i in range(len(datasets))]
        for name, dataset in zip(names, datasets, strict=True):
            shutil.copyfile(dataset.raw, db / name)
            os.chmod(db / name, 0o644)
        select = " ".join(f"+{m}" for m in models)
        started = time.perf_counter()
        result, runs = run_dbt_datasets(
            project, db, names, ["run", "--select", select], timeout_s=timeout_s
        )
        summary = result.summary
        if result.timed_out:
            self.ran_out_of_time = True
            summary = f"the hidden-data rebuild did not finish within the {timeout_s:.0f} s left"
        return HiddenRebuild(
            ok=result.ok,
            summary=summary,
            datasets=datasets,
            runs=tuple(runs),
            warehouses=tuple(db / n for n in names),
            wall_s=time.perf_counter() - started,
        )

    def close(self) -> None:
        for path in self._cleanup:
            shutil.rmtree(path, ignore_errors=True)
        self._cleanup.clear()


class ReadTimeLimit(Exception):
    """Reading a model the agent's project built did not finish within the time grading had."""


class TooManyRows(Exception):
    """A model the agent's project built holds far more rows than grading will load."""

    def __init__(self, relation: str, rows: int) -> None:
        super().__init__(f"{relation} holds {rows} rows")
        self.rows = rows


def read_built_table(
    warehouse: Path,
    relation: str,
    time_left_s: float | None = None,
    max_rows: int | None = None,
) -> dict[str, Any] | None:
    """``main.<relation>`` of a warehouse the agent's project built, or ``None`` if absent.

    Why bounded: a model materialised as a view is the agent's SQL, and reading it runs that SQL
    here, in the grading process. The connection is the kit's locked-down one (no file access,
    a memory limit) and is interrupted after ``time_left_s`` (:class:`ReadTimeLimit`), so a view
    over ``range(10**6) × range(10**6)`` costs what the grading budget allows, not hours. Rows
    are counted before they are loaded: above ``max_rows`` (:class:`TooManyRows`) nothing is
    fetched, so a 60-million-row mart (a few megabytes on disk) cannot fill this process's memory.
    """
    con = open_readonly(warehouse)
    timer = None
    if time_left_s is not None:
        timer = threading.Timer(max(time_left_s, 0.0), con.interrupt)
        timer.daemon = True
        timer.start()
    try:
        found = con.execute(
            "select count(*) from information_schema.tables where table_schema = 'main' "
            "and lower(table_name) = lower(?)",
            [relation],
        ).fetchone()
        if not found or not found[0]:
            return None
        # A generated column is an expression DuckDB evaluates when its table is read - here, on
        # grading's connection (``current_setting('secret_directory')`` names a host path), also
        # through a view over the table. dbt never makes one, so a warehouse holding one is not
        # read at all.
        generated = con.execute(
            "select count(*) from duckdb_tables() where upper(sql) like '%GENERATED ALWAYS AS%'"
        ).fetchone()
        if generated and generated[0]:
            raise duckdb.InvalidInputException(
                "the warehouse holds a table with generated columns, which grading does not read"
            )
        query = f'select * from main."{relation}"'
        if max_rows is not None:
            counted = con.execute(f'select count(*) from main."{relation}"').fetchone()
            rows = int(counted[0]) if counted else 0
            if rows > max_rows:
                raise TooManyRows(relation, rows)
            # The count is a second query: a view can answer it differently from the fetch
            # (``range(case when current_query() ilike '%count(%' then 0 else 10**8 end)``), so
            # the fetch itself stops one row past the bound.
            query += f" limit {max_rows + 1}"
        result = con.execute(query)
        cols = [d[0] for d in result.description or []]
        fetched = result.fetchall()
        if max_rows is not None and len(fetched) > max_rows:
            raise TooManyRows(relation, len(fetched))
        return table_value(cols, fetched)
    except duckdb.InterruptException as exc:
        raise ReadTimeLimit(f"reading {relation} did not finish in the time grading had") from exc
    finally:
        if timer is not None:
            timer.cancel()
        con.close()


#: A built model with more rows than FACTOR × the reference's + SLACK is not loaded (and fails).
_MAX_ROWS_FACTOR = 10
_MAX_ROWS_SLACK = 1000

_CACHE_LOCK = threading.Lock()
_VERDICT_CACHE: OrderedDict[str, Verdict] = OrderedDict()
_VERDICT_CACHE_SIZE = 256


def _project_fingerprint(project_dir: Path) -> str:
    """Hash of every file (path + bytes) of the agent's project, symlinks included as links.

    Each entry is length-prefixed: without lengths a file holding NUL bytes could spell the next
    file's entry, and two different projects would share one cached verdict.
    """

    digest = hashlib.sha256()
    root = Path(project_dir)
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames.sort()
        rel_dir = Path(dirpath).relative_to(root)
        if rel_dir.parts and rel_dir.parts[0] in SKIP_PROJECT_DIRS:
            continue
        for name in sorted(filenames):
            full = Path(dirpath) / name
            if full.is_symlink():
                data = b"link:" + os.readlink(full).encode()
            elif full.is_file():
                data = full.read_bytes()
            else:
                data = b"other"
            path = (rel_dir / name).as_posix().encode()
            digest.update(b"%d:%s%d:" % (len(path), path, len(data)) + data)
    return digest.hexdigest()


def grade_dbt(task: Task, ctx: GradeContext) -> Verdict:
    """Rebuild the task's models from the agent's files and compare with the reference.

    The verdict depends only on the agent's project files, the pristine snapshot and the task, so
    it is cached in-process under their fingerprint (re-grading an unchanged project — a null
    agent, an audit re-run — costs no dbt run).
    """
    key = hashlib.sha256(
        json.dumps(
            [
                task.to_dict(),
                str(ctx.snapshot.path),
                ctx.snapshot.manifest,
                _project_fingerprint(ctx.project_dir),
                hidden_key(ctx.snapshot.replica) if task.verifier.hidden_data else None,
            ],
            sort_keys=True,
            default=str,
        ).encode()
    ).hexdigest()
    with _CACHE_LOCK:
        cached = _VERDICT_CACHE.get(key)
        if cached is not None:
            _VERDICT_CACHE.move_to_end(key)
            return cached
    verdict = _grade_dbt_uncached(task, ctx)
    if ctx.ran_out_of_time:
        return verdict  # a time-out depends on the load: the next grading may finish
    with _CACHE_LOCK:
        _VERDICT_CACHE[key] = verdict
        while len(_VERDICT_CACHE) > _VERDICT_CACHE_SIZE:
            _VERDICT_CACHE.popitem(last=False)
    return verdict


def _reference(
    config: VerifierConfig, model: str, query: Callable[[str], dict[str, Any]]
) -> dict[str, Any]:
    """The reference table of ``model``: its reference SQL (or the pristine model), projected
    on the compared columns, from the warehouse ``query`` reads."""
    want = query(config.reference_sql.get(model, f'select * from main."{model}"'))
    columns = config.compare_columns.get(model)
    return _project(want, columns) if columns else want


def _compare_models(
    config: VerifierConfig,
    warehouse: Path,
    query: Callable[[str], dict[str, Any]],
    ctx: GradeContext | None = None,
) -> tuple[list[Reason], dict[str, float]]:
    reasons: list[Reason] = []
    objective: dict[str, float] = {}
    for model in config.dbt_models:
        want = _reference(config, model, query)
        bound = _MAX_ROWS_FACTOR * len(want.get("rows", [])) + _MAX_ROWS_SLACK
        try:
            got = read_built_table(
                warehouse, model, None if ctx is None else ctx.time_left(), max_rows=bound
            )
        except ReadTimeLimit as exc:
            if ctx is not None:
                ctx.ran_out_of_time = True
            reasons.append(Reason("grading_time_limit", f"{model}: {exc}"))
            objective[model] = 0.0
            continue
        except duckdb.Error as exc:
            # a view failing when read (``error(...)``, a bad cast): the agent's SQL failed, not
            # grading; on a hidden dataset only the code reaches the agent (_grade_hidden)
            reasons.append(Reason("unreadable_model", f"{model}: reading it failed: {exc}"))
            objective[model] = 0.0
            continue
        except TooManyRows as exc:
            reasons.append(
                Reason(
                    "too_many_rows",
                    f"{model}: {exc.rows} rows built, the reference has "
                    f"{len(want.get('rows', []))} (grading loads at most {bound})",
                    found=exc.rows,
                )
            )
            objective[model] = 0.0
            continue
        if got is None:
            reasons.append(Reason("missing_model", f"model {model} was not built"))
            objective[model] = 0.0
            continue
        verdict = compare_tables(got, want, config)
        objective[model] = verdict.score
        reasons.extend(
            Reason(r.code, f"{model}: {r.message}", expected=r.expected, found=r.found)
            for r in verdict.reasons
        )
    return reasons, objective


def reference_on(config: VerifierConfig, model: str, warehouse: Path) -> dict[str, Any]:
    """The reference table of ``model`` computed on ``warehouse`` (a hidden dataset's, with the
    pristine models built; the audit checks every one gives a usable reference)."""
    return _reference(config, model, _hidden_table(warehouse))


def _hidden_table(warehouse: Path) -> Callable[[str], dict[str, Any]]:
    def query(sql: str) -> dict[str, Any]:
        cur = readonly_connection(warehouse).cursor()
        try:
            result = cur.execute(sql)
            cols = [d[0] for d in result.description or []]
            return table_value(cols, result.fetchall())
        finally:
            cur.close()

    return query


def _grade_hidden(task: Task, ctx: GradeContext) -> tuple[list[Reason], dict[str, float]]:
    """The visible-data pass confirmed on every hidden dataset (reasons without values)."""
    config = task.verifier
    rebuild = ctx.rebuild_hidden(config.dbt_models)
    reasons: list[Reason] = []
    passed = 0
    total = len(rebuild.datasets)
    if not rebuild.runs:
        return [Reason("hidden_build_failed", rebuild.summary[:2000])], {"hidden_data": 0.0}
    for index, (dataset, run, warehouse) in enumerate(
        zip(rebuild.datasets, rebuild.runs, rebuild.warehouses, strict=True), 1
    ):
        label = f"hidden dataset {index} of {total} ({_describe(dataset)})"
        if not run.ok:
            why = (
                rebuild.summary
                if rebuild.summary.startswith(("the hidden", "dbt was stopped"))
                else _failed_nodes(run.results)
            )
            reasons.append(
                Reason("hidden_build_failed", f"your project did not build on {label}: {why[:600]}")
            )
            continue
        try:
            found, _ = _compare_models(config, warehouse, _hidden_table(dataset.warehouse), ctx)
        except Exception as exc:  # its text could quote the hidden data (a column named by it)
            found = [Reason("grading_error", f"{config.dbt_models[0]}: {type(exc).__name__}")]
        if found:
            codes = sorted({r.code for r in found})
            models = sorted({r.message.split(":", 1)[0] for r in found})
            reasons.append(
                Reason(
                    "hidden_data_mismatch",
                    f"{', '.join(models)} differs from the reference on {label} "
                    f"({', '.join(codes)}): the model must compute the spec from the data, "
                    "not reproduce the visible data's result",
                )
            )
        else:
            passed += 1
    return reasons, {"hidden_data": passed / total if total else 0.0}


def _failed_nodes(results: Sequence[dict[str, Any]]) -> str:
    """That dbt failed on a hidden dataset, naming no node and quoting no message: a message can
    quote the data (``error((select string_agg(email, ',') ...))``), and so can the *names* of
    the nodes that failed, since the agent names its nodes and can make each fail on purpose
    (one model per digit and position spells a hidden row count)."""
    ran = any(r.get("status") in {"error", "fail", "runtime error"} for r in results)
    what = "a node failed" if ran else "dbt failed before any model ran"
    return f"{what} (which nodes, and dbt's messages, are withheld on hidden data)"


def _describe(dataset: HiddenDataset) -> str:
    if dataset.edge_case is None:
        return "another seed's data"
    return f"edge cases: {dataset.edge_case}"


def _grade_dbt_uncached(task: Task, ctx: GradeContext) -> Verdict:

    config = task.verifier
    rebuild = ctx.rebuild(config.dbt_models)
    try:
        if not rebuild.ok or rebuild.warehouse is None:
            return fail(
                "dbt_build_failed",
                "Rebuilding your project from pristine raw data failed:\n" + rebuild.summary[:2000],
            )
        reasons, objective = _compare_models(config, rebuild.warehouse, ctx.pristine_table, ctx)
    finally:
        shutil.rmtree(rebuild.grading_dir, ignore_errors=True)
    if not reasons and config.hidden_data:
        hidden_reasons, hidden_objective = _grade_hidden(task, ctx)
        reasons.extend(hidden_reasons)
        objective.update(hidden_objective)
    passed = not reasons
    feedback = (
        "All rebuilt models match the reference."
        if passed
        else " ".join(r.message for r in reasons[:5])
    )
    return Verdict(
        score=1.0 if passed else 0.0,
        passed=passed,
        reasons=tuple(reasons),
        feedback=feedback,
        objective_scores=objective,
    )


def _project(table: dict[str, Any], columns: Sequence[str]) -> dict[str, Any]:
    lower = [c.lower() for c in table["columns"]]
    idx = []
    for col in columns:
        if col.lower() not in lower:
            raise ValueError(f"reference has no column {col!r}")
        idx.append(lower.index(col.lower()))
    return {
        "columns": [table["columns"][i] for i in idx],
        "rows": [[row[i] for i in idx] for row in table["rows"]],
    }


def default_grade(task: Task, answer: str, ctx: GradeContext) -> Verdict:
    """Grade by ``answer_kind``: the answer verifiers, or rebuild-and-compare for dbt tasks."""
    if task.answer_kind == "dbt":
        return grade_dbt(task, ctx)

    return check_answer(task.answer_kind, answer, task.expected, task.verifier)
