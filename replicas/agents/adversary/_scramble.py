"""Scrambled variants of the correct answer.

The only strategies that look at the task's oracle answer, and only to break it: values are
shuffled *within* each column of a correct table (column sums and value sets survive, rows do
not), or a correct ranking is re-ordered. A verifier that compares columns independently, or
sorts before comparing an ordered list, would pass these; ours must not.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any

from replicas.agents.adversary._base import Session, Strategy
from replicas.agents.base import EnvLike
from replicas.seeding import table_rng

if TYPE_CHECKING:
    from replicas.tasks import Task

_TRIES = 30


def _oracle_answer(task: Task) -> Any:
    text = task.oracle[-1].arguments.get("answer", "")
    try:
        return json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return None


def _as_table(value: Any) -> tuple[list[str], list[list[Any]]] | None:
    if isinstance(value, dict) and isinstance(value.get("columns"), list):
        rows = value.get("rows")
        if isinstance(rows, list) and all(isinstance(r, list) for r in rows):
            return [str(c) for c in value["columns"]], [list(r) for r in rows]
    if isinstance(value, list) and value and all(isinstance(r, dict) for r in value):
        columns = list(value[0])
        return columns, [[r.get(c) for c in columns] for r in value]
    return None


def _key(rows: list[list[Any]]) -> Counter[str]:
    return Counter(json.dumps(r, sort_keys=True) for r in rows)


def scrambled_table(task: Task) -> dict[str, Any] | None:
    """The oracle table with each column shuffled independently (None if that changes nothing)."""
    table = _as_table(_oracle_answer(task)) if task.answer_kind == "table" else None
    if table is None:
        return None
    columns, rows = table
    if len(rows) < 2:
        return None
    rng = table_rng(0, "adversary.scramble", task.id)
    for _ in range(_TRIES):
        cols = [[row[i] for row in rows] for i in range(len(columns))]
        for values in cols:
            rng.shuffle(values)
        scrambled = [list(r) for r in zip(*cols, strict=True)]
        if _key(scrambled) != _key(rows):
            return {"columns": columns, "rows": scrambled}
    return None


def reordered_list(task: Task) -> list[Any] | None:
    """The oracle ranking in another order (None if every order is the same)."""
    value = _oracle_answer(task) if task.answer_kind == "ordered_list" else None
    if not isinstance(value, list) or len(set(map(json.dumps, value))) < 2:
        return None
    rng = table_rng(0, "adversary.reorder", task.id)
    for _ in range(_TRIES):
        order = list(value)
        rng.shuffle(order)
        if order != value:
            return order
    return list(reversed(value))


def _play_scramble(env: EnvLike, task: Task) -> list[str]:
    s = Session(env, task)
    env.reset()
    s.submit(json.dumps(scrambled_table(task)))
    return []


def _play_reorder(env: EnvLike, task: Task) -> list[str]:
    s = Session(env, task)
    env.reset()
    s.submit(json.dumps(reordered_list(task)))
    return []


STRATEGIES = (
    Strategy(
        "scramble_rows",
        "the correct table with values shuffled within each column",
        lambda t: scrambled_table(t) is not None,
        _play_scramble,
    ),
    Strategy(
        "reorder_ranking",
        "the correct ranking in another order",
        lambda t: reordered_list(t) is not None,
        _play_reorder,
    ),
)
