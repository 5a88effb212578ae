"""Synthetic run directories for the report tests (shapes of `replicas run` output).

A plain helper module (not a test module): the report tests import ``make_run_dir`` from here.

The generator writes what the runner writes — ``results.jsonl`` lines, one trajectory per episode,
``run.json`` — from a seeded numpy Generator, and also returns the raw records so tests compute
their expectations from the records, never from the code under test.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

#: (replica, family, difficulty, failure codes the family's verifier emits)
FAMILIES: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("ecommerce", "ecommerce.revenue_period-v1", "easy", ("wrong_value", "no_answer")),
    ("ecommerce", "ecommerce.fix_fct_orders-v1", "hard", ("wrong_values", "missing_rows")),
    ("credit_cards", "credit_cards.card_terms-v1", "easy", ("wrong_value", "unknown_card")),
    ("credit_cards", "credit_cards.recommend-v1", "medium", ("ineligible_card", "no_answer")),
)
QUERY_TOOLS = ("sql", "read_file", "list_files", "dbt")


@dataclass(frozen=True)
class SyntheticRun:
    path: Path
    records: list[dict[str, Any]]
    trajectories: dict[str, dict[str, Any]]


def _safe(agent: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", agent).strip("-.")


def _trajectory(
    rng: np.random.Generator, record: dict[str, Any], n_queries: int, submits: bool
) -> dict[str, Any]:
    steps: list[dict[str, Any]] = []
    for i in range(n_queries):
        tool = QUERY_TOOLS[int(rng.integers(len(QUERY_TOOLS)))]
        failed = i < record["error_steps"]
        steps.append(
            {
                "index": i,
                "tool": tool,
                "arguments": {"query": f"select count(*) from orders where id > {i}" + " x" * 200},
                "observation": "Binder Error: column x not found"
                if failed
                else "count\n" + str(int(rng.integers(1000))) * 90,
                "error": failed,
                "wall_ms": float(rng.uniform(1, 50)),
            }
        )
    if submits:
        steps.append(
            {
                "index": n_queries,
                "tool": "submit",
                "arguments": {"answer": str(round(float(rng.uniform(0, 1e5)), 2))},
                "observation": "submitted",
                "error": False,
                "wall_ms": 1.0,
            }
        )
    return {
        "schema_version": 1,
        "task_id": record["task_id"],
        "agent": record["agent"],
        "attempt": record["attempt"],
        "steps": steps,
        "verdict": {
            "score": record["score"],
            "passed": record["passed"],
            "reasons": [
                {"code": c, "message": f"{c}: expected 12.5, got 13"} for c in record["reasons"]
            ],
            "feedback": "The submitted value differs from the expected net revenue. " * 20,
        },
    }


def make_run_dir(
    root: Path,
    *,
    agent: str = "openai:gpt-test",
    attempts: int = 3,
    tasks_per_family: int = 4,
    pass_prob: dict[str, float] | None = None,
    error_rate: float = 0.08,
    cost_per_1k_tokens: float = 0.002,
    strategies: tuple[str, ...] = (),
    hacked: frozenset[tuple[str, str]] = frozenset(),
    queries: tuple[int, int] = (0, 6),
    trajectory_field: bool = True,
    seed: int = 0,
) -> SyntheticRun:
    """Write a run directory under ``root`` and return it with the records it holds.

    With ``strategies`` the run looks like an adversary run: one attempt per strategy per task,
    each failing unless ``(strategy, task_id)`` is in ``hacked``. Without ``trajectory_field`` the
    records omit their trajectory path and the reader must find files by the runner's naming.
    """
    rng = np.random.default_rng(seed)
    run_dir = root
    (run_dir / "trajectories").mkdir(parents=True, exist_ok=True)
    probs = pass_prob or {f[1]: p for f, p in zip(FAMILIES, (0.9, 0.3, 0.7, 0.5), strict=True)}
    records: list[dict[str, Any]] = []
    trajectories: dict[str, dict[str, Any]] = {}
    for replica, family, difficulty, codes in FAMILIES:
        for t in range(tasks_per_family):
            task_id = f"{family}.s7.{t}"
            labels: list[tuple[int, str | None]] = (
                [(0, s) for s in strategies] if strategies else [(a, None) for a in range(attempts)]
            )
            for attempt, strategy in labels:
                is_error = not strategies and float(rng.random()) < error_rate
                if strategy is not None:
                    passed = (strategy, task_id) in hacked
                else:
                    passed = not is_error and float(rng.random()) < probs[family]
                n_q = int(rng.integers(queries[0], queries[1] + 1))
                reasons: list[str] = []
                if not passed and not is_error:
                    k = int(rng.integers(1, len(codes) + 1))
                    reasons = list(rng.choice(codes, size=k, replace=False))
                tokens_in = 0 if agent in ("oracle", "null") else int(rng.integers(500, 5000))
                tokens_out = 0 if agent in ("oracle", "null") else int(rng.integers(50, 800))
                record: dict[str, Any] = {
                    "schema_version": 1,
                    "task_id": task_id,
                    "replica": replica,
                    "family": family,
                    "difficulty": difficulty,
                    "agent": agent,
                    "attempt": attempt,
                    "score": 1.0 if passed else float(rng.choice([0.0, 0.0, 0.5])),
                    "passed": passed,
                    "reasons": [str(r) for r in reasons],
                    "steps": n_q + (0 if is_error else 1),
                    "error_steps": int(rng.integers(0, n_q + 1)) if n_q else 0,
                    "tokens_in": tokens_in,
                    "tokens_out": tokens_out,
                    "cost_usd": round((tokens_in + tokens_out) / 1000 * cost_per_1k_tokens, 6),
                    "wall_s": round(float(rng.uniform(0.1, 4.0)), 3),
                }
                if strategy is not None:
                    record["strategy"] = strategy
                if is_error:
                    record["error"] = "agent timed out after 60 s <script>alert(1)</script>"
                    record["score"] = 0.0
                records.append(record)
                name = f"{task_id}__{_safe(agent)}__a{attempt}"
                name += f"__{strategy}.json" if strategy else ".json"
                if trajectory_field:
                    record["trajectory"] = f"trajectories/{name}"
                traj = _trajectory(rng, record, n_q, submits=not is_error)
                trajectories[name] = traj
                (run_dir / "trajectories" / name).write_text(json.dumps(traj), encoding="utf-8")
    with (run_dir / "results.jsonl").open("w", encoding="utf-8") as fh:
        for record in records:
            fh.write(json.dumps(record) + "\n")
    config = {
        "schema_version": 1,
        "suite": "core-v1",
        "agent": agent,
        "attempts": 1 if strategies else attempts,
        "tasks": None,
        "kit_version": "0.1.0",
    }
    (run_dir / "run.json").write_text(json.dumps(config), encoding="utf-8")
    return SyntheticRun(run_dir, records, trajectories)
