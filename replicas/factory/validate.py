"""Validation by execution: does a candidate mutant build, and does it change a graded mart?

The funnel of one candidate, each stage executed in DuckDB from compiled SQL (no dbt):

1. **built** — the mutant model and every model downstream of it that feeds a graded mart run
   on the seed's visible warehouse (the pristine snapshot attached read-only, the rebuilt models
   in an in-memory schema);
2. **changed_output** — at least one graded mart differs from the pristine one by the grader's
   own comparison (``compare_tables`` with the mart's key and the task's tolerance, so a pure
   reordering or float noise is no difference) on the visible data, *and* on at least one hidden
   grading dataset (``replicas.tasks.hidden``);
3. the project's own data tests on the rebuilt models are run too: a mutant the tests catch
   makes a "tests fail, fix it" task, one they miss a "numbers are wrong, find why" task.

The result also carries the facts a stakeholder would report (which mart, which column, which
month, by how much), from which the task's instruction is written, and a signature of the
graded mart's output used to deduplicate equivalent mutants.

The mutants are the factory's own (trusted); compiled SQL still runs with external access
disabled, as the replay engine runs it.
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from replicas.build import ensure_snapshot
from replicas.build.plan import ModelStep, TestStep
from replicas.factory.candidates import Candidate
from replicas.factory.project import ProjectInfo, load_project
from replicas.tasks.hidden import hidden_datasets
from replicas.tasks.values import table_value
from replicas.verifiers.answers import compare_tables
from replicas.verifiers.config import VerifierConfig

__all__ = ["ABS_TOL", "Evaluator", "Outcome", "grading_config"]

#: The tolerance factory tasks are graded with (money to the cent).
ABS_TOL = 0.005
_MUT = "factory_mut"
#: Beyond this many differing rows a difference is real, not float noise below tolerance.
_MAX_TOLERANCE_ROWS = 2000
#: Tests per UNION ALL query (as replay batches them).
_TEST_BATCH = 32
_NUMERIC = re.compile(
    r"^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|U\w*INT|FLOAT|DOUBLE|REAL|DECIMAL.*)$"
)
_TEMPORAL = re.compile(r"^(DATE|TIMESTAMP.*)$")


def grading_config(project: ProjectInfo, mart: str) -> VerifierConfig:
    """How a task graded on ``mart`` compares tables (keys from the mart's tests)."""
    return VerifierConfig(
        dbt_models=(mart,),
        key_columns=project.key_columns(mart),
        abs_tol=ABS_TOL,
        rel_tol=0.0,
        hidden_data=True,
    )


@dataclass
class Outcome:
    """What validation found for one candidate (JSON-serialisable, cached per seed)."""

    key: str
    seed: int
    index: int
    operator: str
    model: str
    layer: str
    built: bool = False
    changed_output: bool = False
    error: str | None = None
    visible_marts: list[str] = field(default_factory=list)
    hidden_diff: dict[str, list[str]] = field(default_factory=dict)
    graded: str | None = None
    signature: str | None = None
    caught: list[dict[str, Any]] = field(default_factory=list)
    symptom: dict[str, Any] = field(default_factory=dict)
    wall_s: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        return cls(**data)


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _rel(step: ModelStep) -> str:
    return f"{_q(step.database)}.{_q(step.schema)}.{_q(step.identifier)}"


class Evaluator:
    """Validates candidates of one (replica, seed): one in-memory DuckDB per dataset."""

    def __init__(self, replica: str, seed: int, scale: float | None = None) -> None:
        self.replica = replica
        self.seed = seed
        self.project = load_project(replica)
        snapshot = ensure_snapshot(replica, seed, scale)
        self.scale = snapshot.scale
        self.datasets: list[tuple[str, Path]] = [("visible", snapshot.warehouse)]
        self.datasets += [(h.name, h.warehouse) for h in hidden_datasets(replica)]
        self._cons: dict[str, duckdb.DuckDBPyConnection] = {}
        self._steps = {s.unique_id.rsplit(".", 1)[-1]: s for s in self.project.plan.models}

    # ---- connections -------------------------------------------------------------------------

    def _con(self, name: str) -> duckdb.DuckDBPyConnection:
        con = self._cons.get(name)
        if con is None:
            path = dict(self.datasets)[name]
            con = duckdb.connect(config={"threads": 1})
            con.execute("set enable_progress_bar = false")
            con.execute(f"attach '{path}' as {_q(self.project.database)} (read_only)")
            con.execute("set enable_external_access = false")
            con.execute("set autoinstall_known_extensions = false")
            con.execute("set autoload_known_extensions = false")
            self._cons[name] = con
        return con

    def close(self) -> None:
        for con in self._cons.values():
            con.close()
        self._cons.clear()

    def __enter__(self) -> Evaluator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- rebuilding --------------------------------------------------------------------------

    def chain(self, model: str) -> list[str]:
        """``model`` and the models downstream of it that feed a graded mart, in DAG order."""
        down = self.project.downstream(model)
        needed: set[str] = set()
        for name in reversed(down):
            if name in self.project.marts or any(
                name in self.project.models[c].parents for c in needed
            ):
                needed.add(name)
        return [m for m in down if m in needed]

    def _rewrite(self, sql: str, rebuilt: Sequence[str]) -> str:
        for name in rebuilt:
            step = self._steps[name]
            sql = sql.replace(_rel(step), f"memory.{_MUT}.{_q(step.identifier)}")
        return sql

    def _rebuild(
        self, con: duckdb.DuckDBPyConnection, candidate: Candidate, chain: Sequence[str]
    ) -> None:
        self.rebuild_with(con, {candidate.model: candidate.compiled_mutant}, chain)

    def connection(self, dataset: str) -> duckdb.DuckDBPyConnection:
        """The connection of ``dataset`` (``visible`` or a hidden dataset's name)."""
        return self._con(dataset)

    def keep(self, con: duckdb.DuckDBPyConnection, model: str, schema: str) -> str:
        """Copy the rebuilt ``model`` to ``memory.<schema>`` (it survives the next rebuild);
        the copy's relation name."""
        step = self._steps[model]
        con.execute(f"create schema if not exists memory.{_q(schema)}")
        target = f"memory.{_q(schema)}.{_q(step.identifier)}"
        con.execute(
            f"create or replace table {target} as select * from memory.{_MUT}.{_q(step.identifier)}"
        )
        return target

    def rebuild_with(
        self, con: duckdb.DuckDBPyConnection, mutants: Mapping[str, str], chain: Sequence[str]
    ) -> None:
        """Rebuild ``chain`` with ``mutants`` (model → compiled SQL) in place of the pristine
        models (the others of the chain are rebuilt from their pristine SQL)."""
        con.execute(f"drop schema if exists memory.{_MUT} cascade")
        con.execute(f"create schema memory.{_MUT}")
        for name in chain:
            step = self._steps[name]
            if step.materialized == "ephemeral":
                continue
            sql = mutants.get(name, step.sql)
            con.execute(
                f"create table memory.{_MUT}.{_q(step.identifier)} as (\n"
                f"{self._rewrite(sql, chain)}\n)"
            )

    # ---- comparing ---------------------------------------------------------------------------

    def _table(self, con: duckdb.DuckDBPyConnection, sql: str) -> dict[str, Any]:
        result = con.execute(sql)
        cols = [d[0] for d in result.description or []]
        return table_value(cols, result.fetchall())

    def differs(
        self,
        con: duckdb.DuckDBPyConnection,
        mart: str,
        *,
        got: str | None = None,
        want: str | None = None,
    ) -> bool:
        """Whether the rebuilt ``mart`` fails the grader's comparison with the pristine one
        (``got`` / ``want`` name other relations to compare instead)."""
        step = self._steps[mart]
        got = got or f"memory.{_MUT}.{_q(step.identifier)}"
        want = want or _rel(step)
        columns = self._columns(con, want)
        got_cols = self._columns(con, got)
        if [c.lower() for c in columns] != [c.lower() for c in got_cols]:
            return True
        listed = ", ".join(_q(c) for c in columns)
        counts = con.execute(
            f"select (select count(*) from (select {listed} from {got} except all "
            f"select {listed} from {want})), (select count(*) from (select {listed} from {want} "
            f"except all select {listed} from {got}))"
        ).fetchall()[0]
        extra_n, missing_n = int(counts[0]), int(counts[1])
        if extra_n == missing_n == 0:
            return False
        if extra_n != missing_n:
            return True
        # Only the rows outside the common multiset can differ: compare those the way grading
        # compares whole tables (keys, tolerance), which ignores float noise below tolerance.
        keys = [
            k for k in self.project.key_columns(mart) if k.lower() in {c.lower() for c in columns}
        ]
        if keys:
            return self._keyed_differs(con, got, want, columns, keys)
        if extra_n > _MAX_TOLERANCE_ROWS:
            return True
        extra = self._table(
            con, f"select {listed} from {got} except all select {listed} from {want}"
        )
        missing = self._table(
            con, f"select {listed} from {want} except all select {listed} from {got}"
        )
        verdict = compare_tables(extra, missing, grading_config(self.project, mart))
        return not verdict.passed

    def _keyed_differs(
        self,
        con: duckdb.DuckDBPyConnection,
        got: str,
        want: str,
        columns: Sequence[str],
        keys: Sequence[str],
    ) -> bool:
        """The keyed comparison of grading, in SQL, on the rows outside the common multiset."""
        types = {
            str(r[0]): str(r[1]) for r in con.execute(f"describe select * from {want}").fetchall()
        }
        listed = ", ".join(_q(c) for c in columns)
        on = " and ".join(f"e.{_q(k)} is not distinct from m.{_q(k)}" for k in keys)
        conds = [f"e.{_q(keys[0])} is null and m.{_q(keys[0])} is null"] if False else []
        for column in columns:
            if column in keys:
                continue
            c = _q(column)
            if _NUMERIC.match(types.get(column, "")):
                conds.append(
                    f"abs(e.{c}::double - m.{c}::double) > {ABS_TOL} or (e.{c} is null) <> (m.{c} is null)"
                )
            else:
                conds.append(f"e.{c} is distinct from m.{c}")
        key_list = ", ".join(_q(k) for k in keys)
        mismatch = " or ".join(f"({c})" for c in conds) or "false"
        row = con.execute(
            f"with e as (select {listed} from {got} except all select {listed} from {want}), "
            f"m as (select {listed} from {want} except all select {listed} from {got}) "
            f"select (select count(*) - count(distinct ({key_list})) from e), "
            f"(select count(*) - count(distinct ({key_list})) from m), "
            f"(select count(*) from e full join m on {on} "
            f"where e.{_q(keys[0])} is null and e.{_q(keys[0])} is distinct from m.{_q(keys[0])} "
            f"or m.{_q(keys[0])} is null and m.{_q(keys[0])} is distinct from e.{_q(keys[0])} "
            f"or {mismatch})"
        ).fetchall()[0]
        return any(int(v) for v in row)

    def _columns(self, con: duckdb.DuckDBPyConnection, relation: str) -> list[str]:
        return [d[0] for d in con.execute(f"select * from {relation} limit 0").description or []]

    def signature(self, con: duckdb.DuckDBPyConnection, mart: str) -> str:
        step = self._steps[mart]
        row = con.execute(
            f"select count(*), coalesce(sum(hash(t)::hugeint), 0) "
            f"from memory.{_MUT}.{_q(step.identifier)} t"
        ).fetchall()[0]
        return hashlib.sha256(f"{mart}:{row[0]}:{row[1]}".encode()).hexdigest()[:16]

    # ---- tests -------------------------------------------------------------------------------

    def failing_tests(
        self, con: duckdb.DuckDBPyConnection, chain: Sequence[str]
    ) -> list[dict[str, Any]]:
        """The project's data tests on the rebuilt models that fail (error severity)."""
        uids = {self._steps[m].unique_id for m in chain}
        tests = [t for t in self.project.plan.tests if set(t.parents) & uids]
        out: list[dict[str, Any]] = []
        for start in range(0, len(tests), _TEST_BATCH):
            batch = tests[start : start + _TEST_BATCH]
            sql = "\nunion all\n".join(
                f"select {i} as i, * from (\n{self._rewrite(_wrapped_test(t), chain)}\n)"
                for i, t in enumerate(batch)
            )
            try:
                rows = con.execute(sql).fetchall()
            except duckdb.Error:
                rows = []
                for i, test in enumerate(batch):
                    try:
                        rows += [
                            (i, *r)
                            for r in con.execute(
                                self._rewrite(_wrapped_test(test), chain)
                            ).fetchall()
                        ]
                    except duckdb.Error as exc:
                        out.append(
                            {"test": _test_name(test), "failures": None, "error": str(exc)[:200]}
                        )
            for i, failures, _, should_error in rows:
                test = batch[i]
                if should_error and test.severity.upper() == "ERROR":
                    out.append({"test": _test_name(test), "failures": _count(failures)})
        return sorted(out, key=lambda r: r["test"])

    # ---- the funnel --------------------------------------------------------------------------

    def evaluate(self, candidate: Candidate) -> Outcome:
        started = time.perf_counter()
        outcome = Outcome(
            key=candidate.key,
            seed=candidate.seed,
            index=candidate.index,
            operator=candidate.operator,
            model=candidate.model,
            layer=candidate.layer,
        )
        chain = self.chain(candidate.model)
        marts = [m for m in chain if m in self.project.marts]
        visible = self._con("visible")
        try:
            self._rebuild(visible, candidate, chain)
        except duckdb.Error as exc:
            outcome.error = " ".join(str(exc).split())[:300]
            outcome.wall_s = time.perf_counter() - started
            return outcome
        outcome.built = True
        outcome.visible_marts = [m for m in marts if self.differs(visible, m)]
        if not outcome.visible_marts:
            outcome.wall_s = time.perf_counter() - started
            return outcome
        built: dict[str, set[str]] = {}
        for mart in self._preference(candidate, outcome.visible_marts):
            sub_chain = self._ancestors_in(chain, [mart])
            hits = []
            for name, _ in self.datasets[1:]:
                con = self._con(name)
                if not set(sub_chain) <= built.get(name, set()):
                    try:
                        self._rebuild(con, candidate, sub_chain)
                    except duckdb.Error as exc:
                        outcome.hidden_diff[name] = [f"error: {' '.join(str(exc).split())[:120]}"]
                        built[name] = set()
                        continue
                    built[name] = set(sub_chain)
                if self.differs(con, mart):
                    hits.append(name)
                    outcome.hidden_diff.setdefault(name, []).append(mart)
            if hits:
                outcome.graded = mart
                break
        if outcome.graded is None:
            outcome.wall_s = time.perf_counter() - started
            return outcome
        # each dataset has its own connection: the visible rebuild is still in place
        outcome.changed_output = True
        outcome.signature = self.signature(visible, outcome.graded)
        outcome.caught = self.failing_tests(visible, chain)
        outcome.symptom = self.symptom(visible, outcome.graded)
        outcome.wall_s = time.perf_counter() - started
        return outcome

    def _preference(self, candidate: Candidate, marts: Sequence[str]) -> list[str]:
        """Marts a task could grade, best first: the mutated model itself when it is one, then
        the nearest downstream (fewest models in between)."""
        chain = self.chain(candidate.model)
        return sorted(marts, key=lambda m: (m != candidate.model, chain.index(m), m))

    def _ancestors_in(self, chain: Sequence[str], targets: Sequence[str]) -> list[str]:
        needed = set(targets)
        for name in reversed(chain):
            if name in needed:
                needed.update(p for p in self.project.models[name].parents if p in chain)
        return [m for m in chain if m in needed]

    # ---- the stakeholder's view --------------------------------------------------------------

    def symptom(
        self, con: duckdb.DuckDBPyConnection, mart: str, *, want: str | None = None
    ) -> dict[str, Any]:
        """Facts about how the rebuilt ``mart`` differs from the pristine one (visible data), or
        from the relation ``want``."""
        step = self._steps[mart]
        got = f"memory.{_MUT}.{_q(step.identifier)}"
        want = want or _rel(step)
        types = dict(
            (str(r[0]), str(r[1])) for r in con.execute(f"describe select * from {want}").fetchall()
        )
        keys = [k for k in self.project.key_columns(mart) if k in types]
        n_want = con.execute(f"select count(*) from {want}").fetchall()[0][0]
        n_got = con.execute(f"select count(*) from {got}").fetchall()[0][0]
        facts: dict[str, Any] = {
            "mart": mart,
            "keys": keys,
            "rows_expected": int(n_want),
            "rows_found": int(n_got),
        }
        numeric = [c for c, t in types.items() if _NUMERIC.match(t) and c not in keys]
        got_cols = {d[0] for d in con.execute(f"select * from {got} limit 0").description or []}
        compared = [c for c in types if c not in keys and c in got_cols]
        totals: dict[str, tuple[Any, Any]] = {}
        if [c for c in compared if c in numeric]:
            sums = [c for c in compared if c in numeric]
            row = con.execute(
                "select "
                + ", ".join(f"(select sum({_q(c)})::double from {want})" for c in sums)
                + ", "
                + ", ".join(f"(select sum({_q(c)})::double from {got})" for c in sums)
            ).fetchall()[0]
            totals = {c: (row[i], row[len(sums) + i]) for i, c in enumerate(sums)}
        changed: dict[str, int] = {}
        if keys and compared:
            on = " and ".join(f"w.{_q(k)} = g.{_q(k)}" for k in keys)
            filters = []
            for c in compared:
                if c in numeric:
                    cond = (
                        f"abs(coalesce(w.{_q(c)}, 0)::double - coalesce(g.{_q(c)}, 0)::double) "
                        f"> {ABS_TOL} or (w.{_q(c)} is null) <> (g.{_q(c)} is null)"
                    )
                else:
                    cond = f"w.{_q(c)} is distinct from g.{_q(c)}"
                filters.append(f"count(*) filter (where {cond})")
            row = con.execute(
                f"select {', '.join(filters)} from {want} w join {got} g on {on}"
            ).fetchall()[0]
            changed = {c: int(row[i]) for i, c in enumerate(compared)}
        columns = []
        for column in compared:
            entry: dict[str, Any] = {"column": column, "numeric": column in numeric}
            if column in totals:
                entry["total_expected"] = _num(totals[column][0])
                entry["total_found"] = _num(totals[column][1])
            if keys:
                entry["changed_rows"] = changed.get(column, 0)
            columns.append(entry)
        facts["columns"] = columns
        if keys:
            on = " and ".join(f"w.{_q(k)} = g.{_q(k)}" for k in keys)
            facts["missing_rows"] = int(
                con.execute(
                    f"select count(*) from {want} w where not exists (select 1 from {got} g where {on})"
                ).fetchall()[0][0]
            )
            facts["extra_rows"] = int(
                con.execute(
                    f"select count(*) from {got} g where not exists (select 1 from {want} w where {on})"
                ).fetchall()[0][0]
            )
            listed = ", ".join(_q(k) for k in keys)
            facts["duplicate_keys"] = int(
                con.execute(f"select count(*) - count(distinct ({listed})) from {got}").fetchall()[
                    0
                ][0]
            )
            example = self._example(con, want, got, keys, columns, types)
            if example:
                facts["example"] = example
        period = self._period(con, want, got, types, columns)
        if period:
            facts["period"] = period
        return facts

    def _example(
        self,
        con: duckdb.DuckDBPyConnection,
        want: str,
        got: str,
        keys: list[str],
        columns: list[dict[str, Any]],
        types: dict[str, str],
    ) -> dict[str, Any] | None:
        changed = [c for c in columns if c.get("changed_rows")]
        if not changed:
            return None
        column = max(changed, key=lambda c: (c["changed_rows"], c["column"]))["column"]
        on = " and ".join(f"w.{_q(k)} = g.{_q(k)}" for k in keys)
        order = ", ".join(f"w.{_q(k)}" for k in keys)
        rows = con.execute(
            f"select {', '.join(f'w.{_q(k)}::varchar' for k in keys)}, "
            f"w.{_q(column)}::varchar, g.{_q(column)}::varchar "
            f"from {want} w join {got} g on {on} "
            f"where w.{_q(column)} is distinct from g.{_q(column)} order by {order} limit 1"
        ).fetchall()
        if not rows:
            return None
        row = rows[0]
        return {
            "key": dict(zip(keys, row[: len(keys)], strict=True)),
            "column": column,
            "expected": row[len(keys)],
            "found": row[len(keys) + 1],
        }

    def _period(
        self,
        con: duckdb.DuckDBPyConnection,
        want: str,
        got: str,
        types: dict[str, str],
        columns: list[dict[str, Any]],
    ) -> dict[str, Any] | None:
        temporal = [c for c, t in types.items() if _TEMPORAL.match(t)]
        moved = [
            c
            for c in columns
            if c.get("numeric")
            and c.get("total_expected") is not None
            and c.get("total_found") is not None
            and abs(c["total_expected"] - c["total_found"]) > ABS_TOL
        ]
        if not temporal or not moved:
            return None
        measure = max(
            moved,
            key=lambda c: (
                abs(c["total_expected"] - c["total_found"]) / max(abs(c["total_expected"]), 1.0),
                c["column"],
            ),
        )["column"]
        when = temporal[0]
        rows = con.execute(
            f"with w as (select date_trunc('month', {_q(when)})::date as m, sum({_q(measure)})::double as v "
            f"from {want} group by 1), g as (select date_trunc('month', {_q(when)})::date as m, "
            f"sum({_q(measure)})::double as v from {got} group by 1) "
            f"select coalesce(w.m, g.m) as m, w.v, g.v from w full join g on w.m = g.m "
            f"where coalesce(w.m, g.m) is not null "
            f"order by abs(coalesce(w.v, 0) - coalesce(g.v, 0)) desc, 1 limit 1"
        ).fetchall()
        if not rows or rows[0][0] is None:
            return None
        month, expected, found = rows[0]
        if abs((expected or 0.0) - (found or 0.0)) <= ABS_TOL:
            return None
        return {
            "column": when,
            "month": month.strftime("%Y-%m"),
            "measure": measure,
            "expected": _num(expected),
            "found": _num(found),
        }


def _num(value: Any) -> float | None:
    if value is None:
        return None
    number = float(value)
    return None if not math.isfinite(number) else round(number, 6)


def _count(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _test_name(test: TestStep) -> str:
    return test.unique_id.split(".", 2)[-1].rsplit(".", 1)[0]


def _wrapped_test(test: TestStep) -> str:
    main = test.sql if test.limit is None else f"{test.sql}\n  limit {test.limit}"
    return (
        f"select {test.fail_calc} as failures, {test.fail_calc} {test.warn_if} as should_warn, "
        f"{test.fail_calc} {test.error_if} as should_error from (\n{main}\n) dbt_internal_test"
    )
