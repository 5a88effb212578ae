"""What a report needs from a trajectory: a short excerpt of a failure and the agent's habits.

Trajectories can be large (full SQL results in observations); a report shows only the last few
steps, each field cut to a fixed length, so one bad episode cannot blow up ``summary.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from replicas.records import EpisodeRecord
from replicas.report._load import load_trajectory, trajectory_path

#: tools that inspect the world; steps spent on them before ``submit`` are "verification"
QUERY_TOOLS: frozenset[str] = frozenset({"sql", "read_file", "list_files", "dbt"})
SUBMIT_TOOL = "submit"
EXCERPT_STEPS = 3
FIELD_CHARS = 240
FEEDBACK_CHARS = 600


def truncate(text: str, limit: int = FIELD_CHARS) -> str:
    """Cut ``text`` to ``limit`` characters, marking the cut so readers know text is missing."""
    text = text.strip()
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)].rstrip() + "…"


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def _steps(trajectory: dict[str, Any]) -> list[dict[str, Any]]:
    steps = trajectory.get("steps")
    return [s for s in steps if isinstance(s, dict)] if isinstance(steps, list) else []


def _tool(step: dict[str, Any]) -> str:
    tool = step.get("tool", step.get("name"))
    return tool if isinstance(tool, str) else "?"


def _error_text(step: dict[str, Any]) -> str | None:
    """The runtime flags errors with a bool and puts the message in the observation."""
    error = step.get("error")
    if isinstance(error, bool) or error is None:
        return (truncate(_as_text(step.get("observation"))) or "error") if error else None
    return truncate(_as_text(error)) or None


def _relative(path: Path | None, run_dir: Path) -> str | None:
    if path is None:
        return None
    try:
        return path.resolve().relative_to(run_dir.resolve()).as_posix()
    except ValueError:
        return str(path)


def excerpt(run_dir: Path, episode: EpisodeRecord) -> dict[str, Any]:
    """The end of an episode (last steps + verdict feedback), truncated for a report."""
    path = trajectory_path(run_dir, episode)
    trajectory = load_trajectory(path)
    out: dict[str, Any] = {
        "task_id": episode.task_id,
        "agent": episode.agent,
        "attempt": episode.attempt,
        "strategy": episode.strategy,
        "trajectory": _relative(path, run_dir),
        "steps": [],
        "feedback": "",
        "reasons": [],
    }
    if trajectory is None:
        return out
    steps = _steps(trajectory)
    first = max(0, len(steps) - EXCERPT_STEPS)
    out["steps"] = [
        {
            "index": first + i,
            "tool": _tool(step),
            "arguments": truncate(_as_text(step.get("arguments"))),
            "observation": truncate(_as_text(step.get("observation"))),
            "error": _error_text(step),
        }
        for i, step in enumerate(steps[first:])
    ]
    verdict = trajectory.get("verdict")
    if isinstance(verdict, dict):
        out["feedback"] = truncate(_as_text(verdict.get("feedback")), FEEDBACK_CHARS)
        reasons = verdict.get("reasons")
        if isinstance(reasons, list):
            out["reasons"] = [
                {
                    "code": str(r.get("code", "?")),
                    "message": truncate(_as_text(r.get("message"))),
                }
                for r in reasons[:5]
                if isinstance(r, dict)
            ]
    return out


def query_steps_before_submit(trajectory: dict[str, Any]) -> tuple[int, bool]:
    """(inspection steps before the first submit, whether the episode submitted at all)."""
    count = 0
    for step in _steps(trajectory):
        tool = _tool(step)
        if tool == SUBMIT_TOOL:
            return count, True
        if tool in QUERY_TOOLS:
            count += 1
    return count, False


def verification_behaviour(run_dir: Path, episodes: tuple[EpisodeRecord, ...]) -> dict[str, Any]:
    """How much an agent looks before it answers, over the episodes whose trajectory is readable."""
    per_episode: list[int] = []
    submitted = 0
    blind = 0
    tool_counts: dict[str, int] = {}
    for episode in episodes:
        trajectory = load_trajectory(trajectory_path(run_dir, episode))
        if trajectory is None:
            continue
        count, did_submit = query_steps_before_submit(trajectory)
        per_episode.append(count)
        submitted += did_submit
        blind += did_submit and count == 0
        for step in _steps(trajectory):
            tool = _tool(step)
            tool_counts[tool] = tool_counts.get(tool, 0) + 1
    n = len(per_episode)
    return {
        "trajectories": n,
        "missing_trajectories": len(episodes) - n,
        "mean_query_steps_before_submit": sum(per_episode) / n if n else None,
        "submitted": submitted,
        "submitted_without_query": blind,
        "tool_calls": dict(sorted(tool_counts.items())),
    }
