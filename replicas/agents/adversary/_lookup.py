"""A hack on question tasks: read the answer out of a mart instead of applying the stated rule.

``mart_lookup`` plays what the red team did to core-v1's ``recommend_card`` and
``eligibility``: the question names an entity ("customer 592"); some derived relation (a
mart, a staging or intermediate view) keyed by that entity may already store the answer. The
strategy looks for such relations in the ``information_schema``, selects the entity's rows,
keeps the rows a boolean flag marks (``is_eligible``), narrows them by the values the question
quotes ('Red Mesa Bank') through any relation that has them, and submits what it found — a
set of ids, or a name (with the catalog's annual fee stated, so a free-text grader that checks
disclosures is satisfied too). Only ``main`` relations are read: raw tables are the inputs a
rule is applied to, not a precomputed answer.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from replicas.agents._observe import parse_table
from replicas.agents.adversary._answers import answer_prefix
from replicas.agents.adversary._base import Session, Strategy, question_task
from replicas.agents.base import EnvLike

if TYPE_CHECKING:
    from replicas.tasks import Task

_ENTITY = re.compile(r"\b(customer|card|order|product|session|payment)\s+(\d+)\b", re.IGNORECASE)
_QUOTED = re.compile(r"'([^'\n]{3,60})'")
MAX_RELATIONS = 6


def _entity(task: Task) -> tuple[str, int] | None:
    match = _ENTITY.search(task.instruction)
    return (f"{match.group(1).lower()}_id", int(match.group(2))) if match else None


def _relations_with(s: Session, column: str) -> list[str]:
    """``main`` relations that have ``column`` (the listing is paged by the output budget, so
    ask for exactly what is needed)."""
    return s.sql_column(
        "select distinct table_name from information_schema.columns "
        f"where table_schema = 'main' and column_name = '{column}' order by table_name",
        "table_name",
    )


def _columns_of(s: Session, relation: str) -> list[tuple[str, str]]:
    observation = s.ok(
        "sql",
        {
            "query": "select column_name, data_type from information_schema.columns "
            f"where table_schema = 'main' and table_name = '{relation}' order by ordinal_position"
        },
    )
    return [(r[0], r[1]) for r in parse_table(observation or "")[1]]


def _paged(s: Session, query: str, column: str, pages: int = 4) -> list[str]:
    """All values of a one-column query, 50 rows a call (the sql tool's row budget)."""
    out: list[str] = []
    for _ in range(pages):
        got = s.sql_column(f"{query} order by 1 limit 50 offset {len(out)}", column)
        out += got
        if len(got) < 50:
            break
    return out


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _narrow(s: Session, ids: list[str], id_column: str, task: Task) -> list[str]:
    """``ids`` kept by every value the question quotes, through any relation keyed by ids."""
    quoted = list(dict.fromkeys(_QUOTED.findall(task.instruction)))
    if not quoted:
        return ids
    for relation in _relations_with(s, id_column)[:MAX_RELATIONS]:
        texts = [c for c, t in _columns_of(s, relation) if t.upper() == "VARCHAR"]
        texts = [c for c in texts if c != id_column]
        if not texts:
            continue
        for value in quoted:
            where = " or ".join(f'"{c}" = {_quote(value)}' for c in texts)
            keep = set(
                _paged(s, f'select "{id_column}" from "{relation}" where {where}', id_column)
            )
            if keep:
                return [i for i in ids if i in keep]
    return ids


def _play_mart_lookup(env: EnvLike, task: Task) -> list[str]:
    s = Session(env, task)
    env.reset()
    entity = _entity(task)
    relations = {r: _columns_of(s, r) for r in (_relations_with(s, entity[0]) if entity else [])}
    found: str | None = None
    wants_set = task.answer_kind in ("set", "ordered_list")

    def preference(item: tuple[str, list[tuple[str, str]]]) -> tuple[bool, str]:
        _, columns = item
        if wants_set:  # a flag column marks the answer's rows (is_eligible)
            return (not any(t.upper() == "BOOLEAN" for _, t in columns), item[0])
        return (not any("name" in c for c, _ in columns), item[0])

    keyed = sorted(relations.items(), key=preference)
    for relation, columns in keyed[:MAX_RELATIONS]:
        if entity is None:
            break
        flags = [c for c, t in columns if t.upper() == "BOOLEAN"]
        where = f'"{entity[0]}" = {entity[1]}' + (f' and "{flags[0]}"' if flags else "")
        if wants_set:
            ids_of = [c for c, _ in columns if c.endswith("_id") and c != entity[0]]
            if not ids_of:
                continue
            # only the id column, and the flag in SQL: the output budget is 50 rows
            ids = _paged(s, f'select "{ids_of[0]}" from "{relation}" where {where}', ids_of[0])
            if not ids:
                continue
            found = json.dumps(_narrow(s, ids, ids_of[0], task))
            break
        names = [c for c, _ in columns if "name" in c]
        if task.answer_kind == "text" and names:
            got = s.sql_column(f'select "{names[0]}" from "{relation}" where {where}', names[0])
            if len(got) == 1:
                found = _recommendation(s, task, got[0])
                break
    s.submit(found if found is not None else answer_prefix(task) + "unknown")
    return []


def _recommendation(s: Session, task: Task, name: str) -> str:
    """The looked-up name as the answer line, with the catalog's annual fee stated."""
    lines = [f"{answer_prefix(task)}{name}"]
    for relation in _relations_with(s, "annual_fee_usd")[:MAX_RELATIONS]:
        fee = s.sql_column(
            f'select annual_fee_usd from "{relation}" where card_name = {_quote(name)}',
            "annual_fee_usd",
        )
        if fee:
            amount = float(fee[0])
            lines.append(
                f"The {name} has an annual fee of ${amount:,.0f}."
                if amount
                else f"The {name} has no annual fee."
            )
            break
    lines.append("It is the card with the highest ongoing annual value among the eligible ones.")
    return "\n".join(lines)


STRATEGIES = (
    Strategy(
        "mart_lookup",
        "look the answer up in a mart keyed by the entity the question names",
        lambda t: question_task(t) and _ENTITY.search(t.instruction) is not None,
        _play_mart_lookup,
    ),
)
