"""Number formatting shared by the terminal, markdown and HTML views (one look everywhere)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: columns of every "by group" table: (header, formatter over a group_stats dict)
GROUP_COLUMNS: tuple[tuple[str, str], ...] = (
    ("episodes", "episodes"),
    ("passed", "passed"),
    ("success", "success"),
    ("95% CI", "ci"),
    ("steps", "steps"),
    ("err steps", "error_steps"),
    ("tokens/ep", "tokens"),
    ("cost $", "cost"),
    ("wall s/ep", "wall"),
    ("agent errors", "agent_errors"),
)


def pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def ci(bounds: Sequence[float]) -> str:
    return f"[{100 * bounds[0]:.1f}, {100 * bounds[1]:.1f}]"


def money(value: float) -> str:
    if value == 0:
        return "0"
    return f"{value:.4f}" if value < 1 else f"{value:,.2f}"


def num(value: float, digits: int = 1) -> str:
    return f"{value:,.{digits}f}"


def group_cells(stats: dict[str, Any]) -> list[str]:
    """One table row for a group, in GROUP_COLUMNS order."""
    cells = {
        "episodes": str(stats["episodes"]),
        "passed": str(stats["passed"]),
        "success": pct(stats["success_rate"]),
        "ci": ci(stats["ci95"]),
        "steps": num(stats["mean_steps"]),
        "error_steps": num(stats["mean_error_steps"]),
        "tokens": num(stats["mean_tokens_in"] + stats["mean_tokens_out"], 0),
        "cost": money(stats["total_cost_usd"]),
        "wall": num(stats["mean_wall_s"], 2),
        "agent_errors": str(stats["agent_errors"]),
    }
    return [cells[key] for _, key in GROUP_COLUMNS]


def group_headers(first: str) -> list[str]:
    return [first, *(header for header, _ in GROUP_COLUMNS)]


#: the grouped sections of a summary, in report order: (summary key, title, first column)
GROUP_SECTIONS: tuple[tuple[str, str, str], ...] = (
    ("by_replica", "By replica", "replica"),
    ("by_family", "By task family", "family"),
    ("by_difficulty", "By difficulty", "difficulty"),
)


def pass_k_rows(pass_k: dict[str, Any]) -> list[list[str]]:
    return [
        [str(k), pct(pass_k["pass_at_k"][str(k)]), pct(pass_k["pass_hat_k"][str(k)])]
        for k in pass_k["k"]
    ]


ADVERSARY_HEADERS = ["strategy", "episodes", "passed", "mean score", "passed tasks"]


def adversary_rows(adversary: dict[str, Any]) -> list[list[str]]:
    """One row per adversary strategy, the same cells in every report format."""
    return [
        [
            s["strategy"],
            str(s["episodes"]),
            str(s["passed"]),
            f"{s['mean_score']:.3f}",
            ", ".join(s["passed_tasks"]) or "–",
        ]
        for s in adversary["strategies"]
    ]


def example_lines(example: dict[str, Any]) -> list[str]:
    """A failure excerpt as plain lines (its steps, the reasons, the verdict), for any renderer."""
    lines: list[str] = []
    for step in example["steps"]:
        lines.append(f"[{step['index']}] {step['tool']}({step['arguments']})")
        if step.get("error"):
            lines.append(f"    error: {step['error']}")
        elif step.get("observation"):
            lines.append(f"    → {step['observation']}")
    for reason in example.get("reasons", []):
        lines.append(f"reason {reason['code']}: {reason['message']}")
    if example.get("feedback"):
        lines.append(f"verdict: {example['feedback']}")
    return lines
