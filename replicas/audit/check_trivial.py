"""Check — no one-query answer: nothing the agent can query hands over the answer by one lookup.

A task whose answer a mart already stores, keyed by what the question names, is solved by one
``select … where <key named in the question>`` — the "hard" formula or rule it states is never
applied (core-v1's ``best_card`` and ``card_eligibility`` marts did exactly that). The leakage
check finds answers that sit in a cell by chance of sparsity; this one finds them by *lookup*:

- **anchors**: values of the sandbox warehouse's columns that the instruction names (a customer
  id, an issuer or card name, a category, a month such as ``2024-07`` for a first-of-month
  date);
- **lookups**: for every relation the ``sql`` tool can read, the rows selected by one anchor
  (``where col = value``), widened with the columns of every relation keyed uniquely on one
  of its ``*_id`` columns (a join that adds columns, never rows), then narrowed by up to one
  more anchor and one boolean flag (``and is_eligible``);
- **a hit**: one projected column whose values are exactly the answer — one value for a number
  (also read as a percentage or a fraction) or a text, the whole set for a set or list, every
  row of the expected table for a table.

Stored facts are not precomputed answers: a question about a card's late fee is answered by
the card catalog by design. So a lookup that works on the *source* (``raw``) tables alone marks
the question as a fact lookup and passes; a hit that needs a derived relation (a staging view,
an intermediate model, a mart) makes the task ``leaky``. Only equality lookups are searched
(a period filter over a flag column is not); numbers must be distinctive (see
``replicas.verifiers.forms``), texts at least 4 characters, sets at least two items.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from replicas.audit._context import AuditContext
from replicas.audit._model import CheckResult
from replicas.audit._registry import Check, failed, passed, register_check, skipped
from replicas.audit._warehouse_index import WarehouseIndex, warehouse_index
from replicas.db import readonly_connection
from replicas.sandbox import Sandbox
from replicas.tasks import Task, TaskId, build_task
from replicas.tasks.values import json_value
from replicas.verifiers.answers import numbers_match
from replicas.verifiers.config import VerifierConfig
from replicas.verifiers.forms import answer_decimals, is_distinctive, is_number, parse_number_text

NAME = "trivial"
#: A first lookup selecting more rows than this is no lookup (and would be slow to scan).
MAX_LOOKUP_ROWS = 2000
MAX_JOINS = 8
MIN_TEXT_CHARS = 4
_KINDS = frozenset({"number", "text", "set", "ordered_list", "table"})
_WORD = re.compile(r"[a-z0-9][a-z0-9_'-]*")
_INT = re.compile(r"(?<![\w.])\d+(?![\w.]\d)")
_MONTH = re.compile(r"\b(\d{4})-(\d{2})\b")


@dataclass(frozen=True)
class Anchor:
    """``relation.column = value``, a value the instruction names (``kind``: int, text, date)."""

    relation: str
    column: str
    value: Any
    kind: str

    def describe(self) -> str:
        return f"{self.column} = {self.value!r}"

    def condition(self, alias: str) -> str:
        column = f"{alias}.{_q(self.column)}"
        if self.kind == "text":
            return f"lower(trim(cast({column} as varchar))) = ?"
        if self.kind == "date":
            return f"cast({column} as date) = cast(? as date)"
        return f"{column} = ?"

    def parameter(self) -> Any:
        return self.value[:10] if self.kind == "date" else self.value

    def holds(self, cell: Any) -> bool:
        if cell is None:
            return False
        if self.kind == "int":
            return is_number(json_value(cell)) and float(json_value(cell)) == float(self.value)
        text = str(json_value(cell)).strip().lower()
        return text[:10] == self.value[:10] if self.kind == "date" else text == self.value


@dataclass(frozen=True)
class Hit:
    relation: str
    joined: tuple[str, ...]
    predicates: tuple[str, ...]
    column: str
    source_only: bool

    def describe(self) -> str:
        where = " and ".join(self.predicates)
        via = f" (joined with {', '.join(self.joined)})" if self.joined else ""
        return f"select {self.column} from {self.relation}{via} where {where}"


# ---- the instruction's anchors ----------------------------------------------------------------


def _ints(text: str) -> set[int]:
    return {int(m.group(0)) for m in _INT.finditer(text) if len(m.group(0)) <= 12}


class Instruction:
    """The instruction, tokenised once for anchor lookups.

    Only what the question *names* anchors a lookup: a value written in this instruction that
    is not boilerplate — boilerplate being what every sibling instruction of the family (other
    variants or seeds) also writes ("24 months", "30 days", the definitions' statuses). So
    "customer 777" anchors, the rule's "months_since_bankruptcy <= 24" does not.
    """

    def __init__(self, text: str, siblings: Sequence[str] = ()) -> None:
        self.lower = text.lower()
        self.siblings = [s.lower() for s in siblings]
        self.words = set(_WORD.findall(self.lower))
        shared_ints = set.intersection(*(_ints(s) for s in siblings)) if siblings else set()
        self.ints = _ints(text) - shared_ints
        self.months = {f"{y}-{m}-01" for y, m in _MONTH.findall(text)}

    def _boilerplate(self, needle: str) -> bool:
        return bool(self.siblings) and all(
            re.search(rf"(?<![\w]){re.escape(needle)}(?![\w])", s) for s in self.siblings
        )

    def names_text(self, value: str) -> bool:
        if len(value) < 3:
            return False
        first = _WORD.findall(value)
        if not first or first[0] not in self.words:
            return False
        named = re.search(rf"(?<![\w]){re.escape(value)}(?![\w])", self.lower) is not None
        return named and not self._boilerplate(value)

    def names_id(self, column: str, value: int) -> bool:
        """Whether the instruction names ``value`` *as* this id column ("customer 777",
        "customer_id = 777", "application #12"): a bare number ("top 4", "2025") anchors no
        id, which keeps the lookups to what the question is about."""
        name = column.lower()
        if name != "id" and not name.endswith("_id"):
            return False
        entity = name[:-3].replace("_", "[ _]") if name != "id" else "id"
        pattern = rf"(?<![\w]){entity}s?(?:[ _]?id)?\s*(?:no\.?|number|#|=|:)?\s*{value}(?![\w])"
        return re.search(pattern, self.lower) is not None

    def names_date(self, value: str) -> bool:
        day = value[:10]
        if day in self.lower:
            return not self._boilerplate(day)
        month = day[:7]
        return value[8:10] == "01" and day in self.months and not self._boilerplate(month)


def _anchors(index: WarehouseIndex, instruction: Instruction) -> dict[str, list[Anchor]]:
    out: dict[str, list[Anchor]] = {}
    ints = np.array(sorted(instruction.ints), dtype=np.float64)
    for col in index.columns:
        found: list[tuple[Any, str]] = []
        if col.numbers is not None and len(ints):
            values = np.unique(col.numbers[np.isin(col.numbers, ints)])
            for v in values:
                count = int(
                    np.searchsorted(col.numbers, v, side="right")
                    - np.searchsorted(col.numbers, v, side="left")
                )
                if (
                    float(v).is_integer()
                    and count <= MAX_LOOKUP_ROWS
                    and count < col.rows
                    and instruction.names_id(col.column, int(v))
                ):
                    found.append((int(v), "int"))
        elif col.strings is not None:
            for value in col.strings:
                if _is_date(value):
                    if instruction.names_date(value):
                        # a lookup is by day: the day's thousand timestamps are one anchor
                        found.append((value[:10], "date"))
                elif instruction.names_text(value):
                    found.append((value, "text"))
        for value, kind in dict.fromkeys(found):
            out.setdefault(col.relation, []).append(Anchor(col.relation, col.column, value, kind))
    return out


def _is_date(value: str) -> bool:
    return len(value) >= 10 and value[4] == "-" and value[7] == "-" and value[:4].isdigit()


# ---- the answer -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """What a projected column must hold to be the answer."""

    kind: str
    numbers: tuple[float, ...] = ()
    text: str | None = None
    items: frozenset[Any] = frozenset()
    table: dict[str, Any] | None = None


def _answer(task: Task) -> Answer | None:
    """The searchable form of the expected answer, or None when it is not distinctive."""
    kind, expected, config = task.answer_kind, task.expected, task.verifier
    if kind == "number" and is_number(expected):
        value = float(expected)
        if not is_distinctive(value, answer_decimals(value, config)):
            return None
        return Answer("number", numbers=(value, value / 100, value * 100))
    if kind == "text" and isinstance(expected, str):
        number = parse_number_text(expected)
        if number is not None:
            if not is_distinctive(number, answer_decimals(number)):
                return None
            return Answer("number", numbers=(number,))
        text = expected.strip().lower()
        return Answer("text", text=text) if len(text) >= MIN_TEXT_CHARS else None
    if kind in ("set", "ordered_list") and isinstance(expected, list) and len(expected) >= 2:
        return Answer("set", items=frozenset(_norm(v) for v in expected))
    if kind == "table" and isinstance(expected, dict) and expected.get("rows"):
        return Answer("table", table=expected)
    return None


def _norm(value: Any) -> Any:
    value = json_value(value)
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, (int, float)):
        return ("n", round(float(value), 6))
    if value is None:
        return None
    return ("s", str(value).strip().lower())


def _column_is_answer(values: Sequence[Any], answer: Answer, config: VerifierConfig) -> bool:
    if not values:
        return False
    if answer.kind == "number":
        distinct = {json_value(v) for v in values}
        if len(distinct) != 1:
            return False
        (cell,) = distinct
        if not is_number(cell):
            return False
        return any(numbers_match(float(cell), want, config) for want in answer.numbers)
    if answer.kind == "text":
        distinct = {str(json_value(v)).strip().lower() for v in values if v is not None}
        return distinct == {answer.text}
    if answer.kind == "set":
        got = {_norm(v) for v in values}
        return got == answer.items and len(values) == len(got)
    return False


def _table_is_answer(
    columns: Sequence[str], rows: Sequence[Sequence[Any]], answer: Answer, config: VerifierConfig
) -> str | None:
    """The columns (one per expected column) whose rows are the expected table, if any."""
    table = answer.table or {}
    want_rows = [list(r) for r in table["rows"]]
    if len(rows) != len(want_rows):
        return None
    mapping: list[list[int]] = []
    for i, name in enumerate(table["columns"]):
        want = sorted((_norm(r[i]) for r in want_rows), key=repr)
        tol = config.tolerance_for(str(name))
        candidates = []
        for j in range(len(columns)):
            got = [_norm(r[j]) for r in rows]
            if _same_multiset(got, want, tol):
                candidates.append(j)
        if not candidates:
            return None
        mapping.append(candidates[:3])
    for combo in _product(mapping, 27):
        got_rows = sorted((tuple(_norm(r[j]) for j in combo) for r in rows), key=repr)
        want_sorted = sorted((tuple(_norm(v) for v in r) for r in want_rows), key=repr)
        if all(
            _same_multiset(list(g), list(w), max(config.abs_tol, 1e-6))
            for g, w in zip(got_rows, want_sorted, strict=True)
        ):
            return ", ".join(columns[j] for j in combo)
    return None


def _same_multiset(got: list[Any], want: list[Any], tol: float) -> bool:
    got_sorted, want_sorted = sorted(got, key=repr), sorted(want, key=repr)
    if len(got_sorted) != len(want_sorted):
        return False
    for g, w in zip(got_sorted, want_sorted, strict=True):
        if g == w:
            continue
        if g is None or w is None or g[0] != "n" or w[0] != "n" or abs(g[1] - w[1]) > tol + 1e-9:
            return False
    return True


def _product(options: list[list[int]], cap: int) -> Iterable[tuple[int, ...]]:
    import itertools  # stdlib; only tables need it

    return itertools.islice(itertools.product(*options), cap)


# ---- lookups ----------------------------------------------------------------------------------


def _unique_keys(index: WarehouseIndex) -> dict[str, list[str]]:
    """``key column`` → relations unique on it (a join on it adds columns, never rows)."""
    out: dict[str, list[str]] = {}
    for col in index.columns:
        name = col.column.lower()
        if not (name == "id" or name.endswith("_id")):
            continue
        nonnull = len(col.numbers) if col.numbers is not None else None
        if col.n_distinct == col.rows and (nonnull is None or nonnull == col.rows):
            out.setdefault(name, []).append(col.relation)
    return out


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _relation_sql(relation: str) -> str:
    schema, _, table = relation.partition(".")
    return f"{_q(schema)}.{_q(table)}"


def _columns(warehouse: Path) -> dict[str, list[str]]:
    """Every readable relation's columns, in order (booleans included: flags filter lookups)."""
    cur = readonly_connection(warehouse).cursor()
    try:
        rows = cur.execute(
            "select table_schema, table_name, column_name from information_schema.columns "
            "where table_catalog = current_database() "
            "and table_schema not in ('information_schema', 'pg_catalog') "
            "order by table_schema, table_name, ordinal_position"
        ).fetchall()
    finally:
        cur.close()
    out: dict[str, list[str]] = {}
    for schema, table, column in rows:
        out.setdefault(f"{schema}.{table}", []).append(str(column))
    return out


def _lookup(
    warehouse: Path,
    anchor: Anchor,
    columns: dict[str, list[str]],
    joins: Sequence[tuple[str, str]],
) -> tuple[list[str], list[tuple[Any, ...]], list[str]] | None:
    """Rows of ``anchor.relation`` where the anchor holds, with the joined relations' columns
    (labels ``relation.column`` for joined ones) and which relation each column comes from."""
    own = columns.get(anchor.relation, [])
    select = [f"r.{_q(c)}" for c in own]
    labels = list(own)
    sources = [anchor.relation] * len(own)
    froms = [f"{_relation_sql(anchor.relation)} r"]
    for k, (relation, key) in enumerate(joins):
        alias = f"j{k}"
        froms.append(
            f"left join {_relation_sql(relation)} {alias} on {alias}.{_q(key)} = r.{_q(key)}"
        )
        for c in columns.get(relation, []):
            if c.lower() == key:
                continue
            select.append(f"{alias}.{_q(c)}")
            labels.append(f"{relation}.{c}")
            sources.append(relation)
    sql = (
        f"select {', '.join(select)} from {' '.join(froms)} "
        f"where {anchor.condition('r')} limit {MAX_LOOKUP_ROWS + 1}"
    )
    cur = readonly_connection(warehouse).cursor()
    try:
        rows = cur.execute(sql, [anchor.parameter()]).fetchall()
    except Exception:  # a cast the column cannot take: no lookup on it
        return None
    finally:
        cur.close()
    if len(rows) > MAX_LOOKUP_ROWS:
        return None
    return labels, rows, sources


def _search(
    task: Task, warehouse: Path, index: WarehouseIndex, siblings: Sequence[str] = ()
) -> list[Hit]:
    answer = _answer(task)
    if answer is None:
        return []
    anchors = _anchors(index, Instruction(task.instruction, siblings))
    columns = _columns(warehouse)
    keys = _unique_keys(index)
    hits: list[Hit] = []
    for relation, relation_anchors in sorted(anchors.items()):
        names = {c.lower() for c in columns.get(relation, [])}
        joins = [
            (other, key)
            for key, others in sorted(keys.items())
            if key in names
            for other in others
            if other != relation
        ][:MAX_JOINS]
        for anchor in relation_anchors:
            found = _lookup(warehouse, anchor, columns, joins)
            if found is None:
                continue
            labels, rows, sources = found
            hits.extend(_hits_in(task, answer, anchor, labels, rows, sources, anchors))
    return hits


def _could_be(values: Sequence[Any], answer: Answer, config: VerifierConfig) -> bool:
    """Whether a column's values (before narrowing) can hold the answer at all (cheap)."""
    if answer.kind == "number":
        return any(
            is_number(json_value(v))
            and any(numbers_match(float(json_value(v)), want, config) for want in answer.numbers)
            for v in set(values)
            if v is not None
        )
    if answer.kind == "text":
        return any(str(json_value(v)).strip().lower() == answer.text for v in set(values) if v)
    if answer.kind == "set":
        return answer.items <= {_norm(v) for v in values}
    return True


def _hits_in(
    task: Task,
    answer: Answer,
    anchor: Anchor,
    labels: list[str],
    rows: list[tuple[Any, ...]],
    sources: list[str],
    anchors: dict[str, list[Anchor]],
) -> list[Hit]:
    """Hits among ``rows`` (one anchor applied), narrowed by ≤ 1 more anchor and ≤ 1 flag."""
    if not rows:
        return []
    own = _own(labels, anchor)
    columns = list(zip(*rows, strict=True))
    candidates = [
        j
        for j, label in enumerate(labels)
        if label != anchor.column
        and (answer.kind == "table" or _could_be(columns[j], answer, task.verifier))
    ]
    if not candidates:
        return []
    # Narrowings: (predicate text, selected rows); the anchor alone first.
    narrowings: list[tuple[tuple[str, ...], set[str], list[tuple[Any, ...]]]] = [
        ((anchor.describe(),), set(), rows)
    ]
    for j, label in enumerate(labels):
        if j < own:
            relation, column = anchor.relation, label
        else:
            relation, _, column = label.rpartition(".")
        for other in anchors.get(relation, []):
            if other.column == column and other != anchor:
                selected = [r for r in rows if other.holds(r[j])]
                if 0 < len(selected) < len(rows):
                    narrowings.append(
                        ((anchor.describe(), other.describe()), {sources[j]}, selected)
                    )
    flags = [
        j
        for j in range(len(labels))
        if {v for v in columns[j]} <= {True, False, None} and len(set(columns[j])) > 1
    ]
    out: list[Hit] = []
    for predicates, used, selected in list(narrowings):
        for j in flags:
            for flag in (True, False):
                chosen = [r for r in selected if r[j] is flag]
                if 0 < len(chosen) < len(selected):
                    text = labels[j] if flag else f"not {labels[j]}"
                    narrowings.append(((*predicates, text), used | {sources[j]}, chosen))
    for predicates, used, selected in narrowings:
        involved = used | {anchor.relation}
        if answer.kind == "table":
            cols = _table_is_answer(labels, selected, answer, task.verifier)
            if cols is not None:
                extra = {sources[labels.index(c)] for c in cols.split(", ")}
                out.append(_hit(anchor, involved | extra, predicates, cols))
            continue
        for j in candidates:
            if _column_is_answer([r[j] for r in selected], answer, task.verifier):
                out.append(_hit(anchor, involved | {sources[j]}, predicates, labels[j]))
    return out


def _own(labels: list[str], anchor: Anchor) -> int:
    """How many leading labels are the anchor relation's own columns (joined ones follow)."""
    for j, label in enumerate(labels):
        if "." in label and label.rpartition(".")[0].count(".") == 1:
            return j
    return len(labels)


def _hit(anchor: Anchor, involved: set[str], predicates: tuple[str, ...], column: str) -> Hit:
    joined = tuple(sorted(involved - {anchor.relation}))
    source_only = all(r.startswith("raw.") for r in involved)
    return Hit(anchor.relation, joined, predicates, column, source_only)


# ---- the check --------------------------------------------------------------------------------

MAX_SIBLINGS = 3


def sibling_instructions(ctx: AuditContext) -> list[str]:
    """Instructions of up to 3 other tasks of the family: other variants of this seed, then the
    same variant on the audit's other seeds (built through the task cache)."""
    task = ctx.task
    tid = TaskId.parse(task.id)
    ids = [
        TaskId(tid.family, tid.seed, v, tid.scale)
        for v in range(ctx.family.variants(tid.seed))
        if v != tid.variant
    ]
    pool = ctx.options.seed_pool.get(task.replica, ())
    ids += [TaskId(tid.family, s, 0, tid.scale) for s in pool if s != tid.seed]
    out: list[str] = []
    for other in ids[:MAX_SIBLINGS]:
        try:
            out.append(build_task(other).instruction)
        except Exception:  # a sibling that does not build only weakens the boilerplate filter
            continue
    return out


def run(ctx: AuditContext) -> CheckResult:
    task = ctx.task
    if task.answer_kind not in _KINDS:
        return skipped(NAME, "a dbt task: the leakage check compares relations with the reference")
    if _answer(task) is None:
        return passed(NAME, ["the answer is not distinctive enough to search for by lookup"])
    siblings = sibling_instructions(ctx)
    sandbox = Sandbox.create(task.sandbox_spec(), ctx.snapshot)
    try:
        warehouse = Path(sandbox.warehouse)
        hits = _search(task, warehouse, warehouse_index(warehouse), siblings)
        sandbox.release_connection()
    finally:
        sandbox.close()
    derived = [h for h in hits if not h.source_only]
    facts = [h for h in hits if h.source_only]
    data = {
        "hits": [h.describe() for h in derived[:20]],
        "source_lookups": [h.describe() for h in facts[:5]],
        "withheld": list(task.withheld),
    }
    if facts:
        return passed(
            NAME,
            [
                "the answer is a stored source fact, found by one lookup in the raw tables (a "
                f"lookup question by design): {facts[0].describe()}"
            ],
            data,
        )
    if derived:
        evidence = [
            f"one query over a derived relation returns the answer: {h.describe()}"
            for h in derived[:5]
        ]
        return failed(NAME, "leaky", evidence, data)
    return passed(NAME, ["no single lookup over a visible relation returns the answer"], data)


CHECK = register_check(
    Check(
        name=NAME,
        status="leaky",
        title="no visible relation returns the answer by one lookup on what the question names",
        fix_hint=(
            "Do not ask for what a mart (or staging/intermediate view) already stores, keyed by "
            "the entity the question names: withhold those models from the episode's warehouse "
            "(Task.withheld, ctx.task(withheld=...)) or ask about an entity/profile the "
            "warehouse does not precompute, so the stated rule must be applied."
        ),
        run=run,
    )
)
