"""``replicas compare A B``: two runs (usually two agents on one suite) side by side.

A task counts as *solved* by a run when at least one of its attempts passed (the run's pass@n);
the "only one solves" lists are the tasks to read first when asking why one agent beats the other.
Verification behaviour — how many inspection steps an agent takes before it submits — is the
habit that most often separates a careful agent from a lucky one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from replicas.report._load import LoadedRun
from replicas.report.format import ci, money, num, pct
from replicas.report.markdown import table
from replicas.report.summary import summarise

COMPARE_SCHEMA_VERSION = 1
MAX_LISTED_TASKS = 50


def _solved(run: LoadedRun) -> set[str]:
    return {e.task_id for e in run.episodes if e.passed}


def _side(run: LoadedRun, summary: dict[str, Any], label: str) -> dict[str, Any]:
    overall = summary["overall"]
    return {
        "label": label,
        "dir": str(run.run_dir),
        "agents": summary["run"]["agents"],
        "episodes": overall["episodes"],
        "tasks": overall["tasks"],
        "passed": overall["passed"],
        "success_rate": overall["success_rate"],
        "ci95": overall["ci95"],
        "tasks_solved": len(_solved(run)),
        "mean_tokens_in": overall["mean_tokens_in"],
        "mean_tokens_out": overall["mean_tokens_out"],
        "total_tokens": overall["total_tokens"],
        "mean_cost_usd": overall["mean_cost_usd"],
        "total_cost_usd": overall["total_cost_usd"],
        "mean_steps": overall["mean_steps"],
        "mean_wall_s": overall["mean_wall_s"],
        "agent_errors": overall["agent_errors"],
        "verification": summary["verification"],
        "warnings": summary["input"]["warnings"],
    }


def _labels(run_a: LoadedRun, run_b: LoadedRun) -> tuple[str, str]:
    a, b = run_a.label, run_b.label
    if a == b:
        a, b = f"{a} ({run_a.run_dir.name})", f"{b} ({run_b.run_dir.name})"
    if a == b:
        a, b = f"A: {a}", f"B: {b}"
    return a, b


def _family_row(name: str, a: dict[str, Any] | None, b: dict[str, Any] | None) -> dict[str, Any]:
    def cell(stats: dict[str, Any] | None) -> dict[str, Any] | None:
        if stats is None:
            return None
        return {
            "passed": stats["passed"],
            "episodes": stats["episodes"],
            "success_rate": stats["success_rate"],
            "ci95": stats["ci95"],
        }

    delta = b["success_rate"] - a["success_rate"] if a is not None and b is not None else None
    return {"family": name, "a": cell(a), "b": cell(b), "delta": delta}


def compare_runs(dir_a: Path | str, dir_b: Path | str) -> dict[str, Any]:
    """Load both runs (without writing into them) and build the comparison dict."""
    run_a, sum_a = summarise(dir_a)
    run_b, sum_b = summarise(dir_b)
    label_a, label_b = _labels(run_a, run_b)
    families = sorted(set(sum_a["by_family"]) | set(sum_b["by_family"]))
    tasks_a = {e.task_id for e in run_a.episodes}
    tasks_b = {e.task_id for e in run_b.episodes}
    common = tasks_a & tasks_b
    solved_a, solved_b = _solved(run_a) & common, _solved(run_b) & common
    only_a, only_b = sorted(solved_a - solved_b), sorted(solved_b - solved_a)
    return {
        "schema_version": COMPARE_SCHEMA_VERSION,
        "a": _side(run_a, sum_a, label_a),
        "b": _side(run_b, sum_b, label_b),
        "families": [
            _family_row(f, sum_a["by_family"].get(f), sum_b["by_family"].get(f)) for f in families
        ],
        "tasks": {
            "common": len(common),
            "only_in_a": len(tasks_a - tasks_b),
            "only_in_b": len(tasks_b - tasks_a),
            "solved_by_both": len(solved_a & solved_b),
            "solved_by_neither": len(common - solved_a - solved_b),
            "solved_only_by_a": only_a,
            "solved_only_by_b": only_b,
        },
    }


def _rate_cell(cell: dict[str, Any] | None) -> str:
    if cell is None:
        return "–"
    return f"{pct(cell['success_rate'])} {ci(cell['ci95'])} ({cell['passed']}/{cell['episodes']})"


def _delta(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:+.1f} pp"


def family_rows(comparison: dict[str, Any]) -> list[list[str]]:
    return [
        [f["family"], _rate_cell(f["a"]), _rate_cell(f["b"]), _delta(f["delta"])]
        for f in comparison["families"]
    ]


def _verification_value(side: dict[str, Any]) -> str:
    mean = side["verification"]["mean_query_steps_before_submit"]
    return "–" if mean is None else num(mean, 2)


#: the side-by-side metric rows: (label, formatter over one side)
METRIC_ROWS: tuple[tuple[str, Any], ...] = (
    ("success", lambda s: f"{pct(s['success_rate'])} {ci(s['ci95'])}"),
    ("episodes (passed)", lambda s: f"{s['episodes']} ({s['passed']})"),
    ("tasks solved", lambda s: f"{s['tasks_solved']} / {s['tasks']}"),
    (
        "tokens in / out per episode",
        lambda s: f"{num(s['mean_tokens_in'], 0)} / {num(s['mean_tokens_out'], 0)}",
    ),
    ("total tokens", lambda s: f"{s['total_tokens']:,}"),
    ("cost per episode $", lambda s: money(s["mean_cost_usd"])),
    ("total cost $", lambda s: money(s["total_cost_usd"])),
    ("mean steps", lambda s: num(s["mean_steps"])),
    ("inspection steps before submit", _verification_value),
    (
        "submitted without inspecting",
        lambda s: (
            f"{s['verification']['submitted_without_query']} / {s['verification']['submitted']}"
        ),
    ),
    ("mean wall s", lambda s: num(s["mean_wall_s"], 2)),
    ("agent errors", lambda s: str(s["agent_errors"])),
)


def metric_rows(comparison: dict[str, Any]) -> list[list[str]]:
    return [[name, fmt(comparison["a"]), fmt(comparison["b"])] for name, fmt in METRIC_ROWS]


def _task_list(ids: list[str]) -> str:
    if not ids:
        return "_none_"
    shown = ", ".join(f"`{t}`" for t in ids[:MAX_LISTED_TASKS])
    more = len(ids) - MAX_LISTED_TASKS
    return shown + (f" … and {more} more" if more > 0 else "")


def render_compare_markdown(comparison: dict[str, Any]) -> str:
    a, b, tasks = comparison["a"], comparison["b"], comparison["tasks"]
    lines = [
        f"# Compare — {a['label']} vs {b['label']}",
        "",
        f"- A: `{a['dir']}`",
        f"- B: `{b['dir']}`",
        "",
        "## Overall",
        "",
        table(["metric", a["label"], b["label"]], metric_rows(comparison)),
        "",
        "## Success by family (95% Wilson CI)",
        "",
        table(["family", a["label"], b["label"], "B − A"], family_rows(comparison)),
        "",
        "## Tasks only one of them solves",
        "",
        f"{tasks['common']} tasks in both runs; solved by both {tasks['solved_by_both']}, "
        f"by neither {tasks['solved_by_neither']}"
        + (
            f"; {tasks['only_in_a']} task(s) only in A and {tasks['only_in_b']} only in B "
            "(not compared)"
            if tasks["only_in_a"] or tasks["only_in_b"]
            else ""
        )
        + ".",
        "",
        f"**Only {a['label']}** ({len(tasks['solved_only_by_a'])}): "
        + _task_list(tasks["solved_only_by_a"]),
        "",
        f"**Only {b['label']}** ({len(tasks['solved_only_by_b'])}): "
        + _task_list(tasks["solved_only_by_b"]),
    ]
    warnings = [f"A: {w}" for w in a["warnings"]] + [f"B: {w}" for w in b["warnings"]]
    if warnings:
        lines += ["", "> **Input warnings**", *(f"> - {w}" for w in warnings)]
    return "\n".join(lines) + "\n"
