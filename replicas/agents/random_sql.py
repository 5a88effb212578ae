"""The ``random-sql`` baseline: looks around like a novice, then guesses.

It lists the tables, describes one picked at random, aggregates one of its columns and submits
that value (or a few values / a few rows, shaped like the task's answer kind). Choices are seeded
by the task id, so the baseline is reproducible. It is meant to score ~0: a task this agent
passes is too easy to guess.
"""

from __future__ import annotations

import json

import numpy as np

from replicas.agents import register_agent
from replicas.agents._observe import column, is_numeric_type, parse_table, to_number
from replicas.agents.base import Agent, AgentOptions, EnvLike, EpisodeOutcome, step
from replicas.seeding import table_rng

_LIST_TABLES = (
    "select table_schema || '.' || table_name as table_name from information_schema.tables "
    "where table_schema in ('raw', 'main') order by 1"
)


class RandomSqlAgent(Agent):
    name = "random-sql"

    def run_episode(self, env: EnvLike, *, strategy: str | None = None) -> EpisodeOutcome:
        env.reset()
        task = env.task
        rng = table_rng(0, "random-sql", task.id)
        if "sql" not in task.tools:
            step(env, "submit", {"answer": "0"})
            return EpisodeOutcome()
        step(env, "sql", {"query": "SHOW TABLES"})
        tables = column(step(env, "sql", {"query": _LIST_TABLES}).observation, "table_name")
        if not tables:
            step(env, "submit", {"answer": "0"})
            return EpisodeOutcome()
        table = tables[int(rng.integers(len(tables)))]
        described = step(env, "sql", {"query": f"DESCRIBE {table}"}).observation
        names, types = column(described, "column_name"), column(described, "column_type")
        numeric = [n for n, t in zip(names, types, strict=False) if is_numeric_type(t)]
        text = [n for n, t in zip(names, types, strict=False) if not is_numeric_type(t)]
        answer = self._guess(env, task.answer_kind, table, numeric, text, rng)
        step(env, "submit", {"answer": answer})
        return EpisodeOutcome()

    def _guess(
        self,
        env: EnvLike,
        kind: str,
        table: str,
        numeric: list[str],
        text: list[str],
        rng: np.random.Generator,
    ) -> str:
        if kind == "number" and numeric:
            col = numeric[int(rng.integers(len(numeric)))]
            obs = step(env, "sql", {"query": f'select round(avg("{col}"), 2) as v from {table}'})
            cells = column(obs.observation, "v")
            value = to_number(cells[0]) if cells else None
            return f"{value if value is not None else 0:g}"
        if kind in ("set", "ordered_list", "text") and text:
            col = text[int(rng.integers(len(text)))]
            limit = 1 if kind == "text" else int(rng.integers(2, 6))
            obs = step(
                env, "sql", {"query": f'select distinct "{col}" as v from {table} limit {limit}'}
            )
            values = column(obs.observation, "v")
            return values[0] if kind == "text" and values else json.dumps(values)
        if kind == "table":
            obs = step(env, "sql", {"query": f"select * from {table} limit 3"})
            columns, rows = parse_table(obs.observation)
            return json.dumps({"columns": columns, "rows": rows})
        return "done" if kind == "dbt" else "0"


@register_agent("random-sql", description="explores the schema, then guesses (weak baseline)")
def _make(arg: str | None, options: AgentOptions) -> Agent:
    return RandomSqlAgent()
