"""Check 4 — no leakage: the expected answer appears nowhere the agent can see.

Surfaces scanned: the instruction, the tool schemas, every file of a fresh sandbox's project
(with the task's patch applied), and every cell of every table and view the ``sql`` tool can
read in that sandbox's warehouse. What counts as a leak, by answer kind (see ``_forms`` for the
distinctiveness rules that keep "3" and "none" from matching everywhere):

- number: a distinctive rendering (raw, rounded, thousands separators, percentage) in a text
  surface; or — for values with at least ``DB_MIN_SIGNIFICANT`` significant digits — a cell
  equal to the answer at its precision in a column so sparse around it that a chance match is
  improbable: (other distinct values within ±50 % + 1) per precision step ≤ ``DENSITY_MAX``.
  A dense column (ids, order amounts) holds any value by chance; 30 monthly totals matching a
  revenue figure to the cent do not;
- text: the text (or, when it is a number such as "29.99%", its number renderings) in a text
  surface. Warehouse cells are not scanned for text answers: they are lookups by design (a
  card's APR lives in the card catalog the agent must query);
- set / ordered_list: the whole collection written out contiguously in a text surface, or one
  column whose distinct values are exactly the expected set. A single-item answer is treated
  as a number; a single text item is not searched (instructions list the possible values —
  "reason codes: wrong_apr, wrong_fee, …" — so its presence proves nothing);
- table: one file line, or one relation row, per expected row holding all its cells (only rows
  with a distinctive number count — a catalog listing product names is not a leak);
- dbt: a file of the sandbox holding what the oracle writes (the fixed model), the target model
  present in the sandbox warehouse, or any relation equal to the reference table.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from replicas.audit._context import AuditContext
from replicas.audit._model import CheckResult
from replicas.audit._registry import Check, failed, passed, register_check
from replicas.audit._warehouse_index import ColumnIndex, WarehouseIndex, warehouse_index
from replicas.db import open_readonly, readonly_connection
from replicas.sandbox import Sandbox
from replicas.tasks import Task
from replicas.tasks.values import json_value
from replicas.tools import tool_schemas
from replicas.verifiers.forms import (
    NumberForm,
    answer_in_text,
    column_decimals,
    is_number,
    normalise_cell,
    number_forms,
    significant_digits,
    table_parts,
)

NAME = "leakage"
DENSITY_MAX = 0.001
WINDOW_REL = 0.5
WINDOW_STEPS = 1000
DB_MIN_SIGNIFICANT = 4
MAX_FILE_BYTES = 1_000_000
MIN_ORACLE_CHARS = 40
_DB_FORMS = ("as given", "as a percentage (x100)", "as a fraction (÷100)")


@dataclass(frozen=True)
class Surface:
    """A text the agent can read, and where it is."""

    where: str
    text: str


def _text_surfaces(task: Task, project_dir: Path) -> list[Surface]:

    surfaces = [
        Surface("the instruction", task.instruction),
        Surface("the tool schemas", json.dumps(tool_schemas(task.tools))),
    ]
    for path in sorted(p for p in project_dir.rglob("*") if p.is_file() and not p.is_symlink()):
        if path.stat().st_size > MAX_FILE_BYTES:
            continue
        rel = path.relative_to(project_dir).as_posix()
        surfaces.append(Surface(f"file {rel}", path.read_text(encoding="utf-8", errors="replace")))
    return surfaces


# ---- numbers -----------------------------------------------------------------------------


def _number_in_warehouse(forms: Sequence[NumberForm], index: WarehouseIndex) -> list[str]:
    out = []
    for form in forms:
        if form.note not in _DB_FORMS:
            continue
        if significant_digits(form.value, form.decimals) < DB_MIN_SIGNIFICANT:
            continue
        step = 10.0**-form.decimals
        window = max(abs(form.value) * WINDOW_REL, WINDOW_STEPS * step)
        for hit in index.number_hits(form.value, form.decimals, window):
            if (hit.others_nearby + 1) / hit.steps <= DENSITY_MAX:
                note = "" if form.note == "as given" else f" ({form.note})"
                out.append(
                    f"{hit.column.where} holds {hit.cell:.{form.decimals}f}{note}; only "
                    f"{hit.others_nearby} other values within ±{window:g} — not a chance match"
                )
    return out


# ---- collections -------------------------------------------------------------------------


def _set_in_warehouse(items: Sequence[Any], index: WarehouseIndex, decimals: int) -> list[str]:
    out = []
    if all(is_number(i) for i in items):
        want = np.unique(np.round(np.array([float(i) for i in items]), decimals))
        for col in index.numeric():
            if col.numbers is None or col.n_distinct != len(want):
                continue
            got = np.unique(np.round(col.numbers, decimals))
            if len(got) == len(want) and np.allclose(got, want, rtol=0, atol=10.0**-decimals / 2):
                out.append(f"{col.where} holds exactly the expected set of {len(want)} values")
        return out
    wanted = {str(i).strip().lower() for i in items}
    for col in index.textual():
        if col.strings is not None and col.n_distinct == len(wanted) and col.strings == wanted:
            out.append(f"{col.where} holds exactly the expected set of {len(wanted)} values")
    return out


# ---- tables ------------------------------------------------------------------------------


def _contains_all(
    index: WarehouseIndex, col: ColumnIndex, values: list[Any], decimals: int
) -> bool:
    if not values:
        return False
    if all(is_number(v) for v in values):
        return all(index.contains_number(col, float(v), decimals) for v in values)
    if col.strings is None:
        return False
    return all(str(v).strip().lower() in col.strings for v in values)


def _table_in_warehouse(task: Task, index: WarehouseIndex, warehouse: Path) -> list[str]:
    columns = [str(c) for c in task.expected["columns"]]
    decimals, rows = table_parts(task.expected, task.verifier)
    if not rows:
        return []
    by_relation: dict[str, list[ColumnIndex]] = defaultdict(list)
    for col in index.columns:
        by_relation[col.relation].append(col)
    out = []
    for relation, rel_cols in by_relation.items():
        mapping: list[list[ColumnIndex]] = []
        for i in range(len(columns)):
            values = [r[i] for r in rows if r[i] is not None]
            candidates = [c for c in rel_cols if _contains_all(index, c, values, decimals[i])]
            if not candidates:
                break
            mapping.append(candidates[:3])
        else:
            names = list(dict.fromkeys(c.column for cands in mapping for c in cands))
            schema, _, table = relation.partition(".")
            select = ", ".join(f'"{n}"' for n in names)
            cur = readonly_connection(warehouse).cursor()
            try:
                data = cur.execute(f'select {select} from "{schema}"."{table}"').fetchall()
            finally:
                cur.close()
            position = {n: k for k, n in enumerate(names)}
            want = {tuple(normalise_cell(v, decimals[i]) for i, v in enumerate(r)) for r in rows}
            for combo in itertools.islice(itertools.product(*mapping), 27):
                idx = [position[c.column] for c in combo]
                have = {
                    tuple(normalise_cell(_plain(row[j]), decimals[i]) for i, j in enumerate(idx))
                    for row in data
                }
                if want <= have:
                    cols = ", ".join(c.column for c in combo)
                    out.append(f"{relation} ({cols}) holds every expected row ({len(rows)} rows)")
                    break
    return out


def _plain(value: Any) -> Any:

    return json_value(value)


# ---- dbt ---------------------------------------------------------------------------------


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _dbt_leaks(ctx: AuditContext, project_dir: Path, warehouse: Path) -> list[str]:
    task = ctx.task
    out = []
    files = {
        p.relative_to(project_dir).as_posix(): p
        for p in project_dir.rglob("*")
        if p.is_file() and not p.is_symlink() and p.stat().st_size <= MAX_FILE_BYTES
    }
    texts = {
        rel: _squash(p.read_text(encoding="utf-8", errors="replace")) for rel, p in files.items()
    }
    for call in task.oracle:
        if call.name != "write_file":
            continue
        path, content = (
            str(call.arguments.get("path", "")),
            _squash(str(call.arguments.get("content", ""))),
        )
        if len(content) < MIN_ORACLE_CHARS:
            continue
        for rel, text in texts.items():
            if rel == path and text == content:
                continue  # the oracle rewrites a file unchanged: nothing to leak
            if content in text:
                out.append(f"file {rel} holds the oracle's version of {path}")
    out.extend(_reference_in_warehouse(ctx, warehouse))
    return out


def _relation_rows(
    warehouse: Path, relation: tuple[str, str]
) -> tuple[list[str], list[tuple[Any, ...]]]:

    con = open_readonly(warehouse)
    try:
        result = con.execute(f'select * from "{relation[0]}"."{relation[1]}"')
        cols = [d[0] for d in result.description or []]
        return cols, result.fetchall()
    finally:
        con.close()


def _reference_in_warehouse(ctx: AuditContext, warehouse: Path) -> list[str]:

    task = ctx.task
    con = open_readonly(warehouse)
    try:
        relations = [
            (str(s), str(t), int(con.execute(f'select count(*) from "{s}"."{t}"').fetchone()[0]))  # type: ignore[index]
            for s, t in con.execute(
                "select table_schema, table_name from information_schema.tables "
                "where table_catalog = current_database() and table_schema not in "
                "('information_schema', 'pg_catalog')"
            ).fetchall()
        ]
    finally:
        con.close()
    out = []
    models = {m.lower() for m in task.verifier.dbt_models}
    for schema, name, _ in relations:
        if schema == "main" and name.lower() in models:
            out.append(f"the target model {schema}.{name} is present in the sandbox warehouse")
    for model in task.verifier.dbt_models:
        sql = task.verifier.reference_sql.get(model, f'select * from main."{model}"')
        cur = readonly_connection(ctx.snapshot.warehouse).cursor()
        try:
            result = cur.execute(sql)
            ref_cols = [str(d[0]).lower() for d in result.description or []]
            ref_rows = result.fetchall()
        finally:
            cur.close()
        wanted_cols = task.verifier.compare_columns.get(model)
        if wanted_cols:
            keep = [ref_cols.index(c.lower()) for c in wanted_cols if c.lower() in ref_cols]
            ref_cols = [ref_cols[k] for k in keep]
            ref_rows = [tuple(r[k] for k in keep) for r in ref_rows]
        want = Counter(tuple(normalise_cell(_plain(v), 6) for v in r) for r in ref_rows)
        for schema, name, count in relations:
            if count != len(ref_rows) or not ref_rows:
                continue
            cols, rows = _relation_rows(warehouse, (schema, name))
            lower = [c.lower() for c in cols]
            if not set(ref_cols) <= set(lower):
                continue
            idx = [lower.index(c) for c in ref_cols]
            have = Counter(tuple(normalise_cell(_plain(r[k]), 6) for k in idx) for r in rows)
            if have == want:
                out.append(
                    f"{schema}.{name} in the sandbox warehouse equals the reference of {model}"
                )
    return out


# ---- the check ---------------------------------------------------------------------------


def _text_leaks(ctx: AuditContext, surfaces: Sequence[Surface]) -> list[str]:
    task = ctx.task
    out = []
    for surface in surfaces:
        found = answer_in_text(task.answer_kind, task.expected, task.verifier, surface.text)
        if found:
            out.append(f"{surface.where} contains {', '.join(found)}")
    return out


def _answer_leaks(ctx: AuditContext, surfaces: Sequence[Surface], warehouse: Path) -> list[str]:
    task = ctx.task
    kind, expected = task.answer_kind, task.expected
    leaks = _text_leaks(ctx, surfaces)
    if kind == "number" and is_number(expected):
        forms = number_forms(float(expected), task.verifier)
        return [*leaks, *_number_in_warehouse(forms, warehouse_index(warehouse))]
    if kind in ("set", "ordered_list") and isinstance(expected, list) and expected:
        if len(expected) == 1:
            item = expected[0]
            if not is_number(item):
                return leaks
            forms = number_forms(float(item), task.verifier)
            return [*leaks, *_number_in_warehouse(forms, warehouse_index(warehouse))]
        decimals = column_decimals(expected, task.verifier, "")
        return [*leaks, *_set_in_warehouse(expected, warehouse_index(warehouse), decimals)]
    if kind == "table" and isinstance(expected, dict):
        return [*leaks, *_table_in_warehouse(task, warehouse_index(warehouse), warehouse)]
    return leaks


def run(ctx: AuditContext) -> CheckResult:

    task = ctx.task
    sandbox = Sandbox.create(task.sandbox_spec(), ctx.snapshot)
    try:
        project_dir = sandbox.project_dir
        surfaces = _text_surfaces(task, project_dir)
        warehouse = sandbox.warehouse
        sandbox.release_connection()
        if ctx.is_dbt:
            leaks = _dbt_leaks(ctx, project_dir, warehouse)
        else:
            leaks = _answer_leaks(ctx, surfaces, Path(warehouse))
    finally:
        sandbox.close()
    data = {"surfaces": len(surfaces), "leaks": leaks}
    scanned = f"scanned {len(surfaces)} text surfaces and the sandbox warehouse"
    if leaks:
        return failed(NAME, "leaky", leaks, data)
    return passed(NAME, [scanned], data)


CHECK = register_check(
    Check(
        name=NAME,
        status="leaky",
        title="the expected answer appears nowhere the agent can see",
        fix_hint=(
            "Keep the answer out of the instruction (state definitions, never results or worked "
            "examples equal to the answer), out of the dbt project (no fixed copy of a model, "
            "no README with the result) and out of every table/view: do not ask for a value a "
            "mart already stores — ask for a period, filter or grain no relation precomputes, "
            "and compute the ground truth from raw tables."
        ),
        run=run,
    )
)
