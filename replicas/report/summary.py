"""``summary.json``: every number the report, the compare view and users read about a run.

The summary is computed once from the validated episodes and written atomically next to the
results, so the markdown, HTML and terminal views are renderings of one dict and cannot disagree.
Agent errors (the agent crashed, hung or spoke garbage) count as failed episodes in the success
rate — that is what the agent achieved — but are reported in their own section and kept out of the
failure-mode table, which is about what the *verifier* rejected.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from replicas._version import __version__
from replicas.atomicio import write_json_atomic
from replicas.metrics import Rate, mean_pass_at_k, mean_pass_hat_k
from replicas.records import EpisodeRecord
from replicas.report._load import LoadedRun, load_run
from replicas.report._trajectory import excerpt, truncate, verification_behaviour

SUMMARY_SCHEMA_VERSION = 1
SUMMARY_FILE = "summary.json"
TOP_CODES_PER_FAMILY = 3
ERROR_EXAMPLES = 5
NO_REASON = "no_reason"


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _pass_k(episodes: Iterable[EpisodeRecord]) -> dict[str, Any] | None:
    """pass@k / pass^k over tasks, k = 1 .. the smallest attempt count; None with one attempt."""
    counts: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for e in episodes:
        slot = counts[(e.agent, e.task_id, e.strategy or "")]
        slot[0] += 1
        slot[1] += e.passed
    per_task = [(n, c) for n, c in counts.values()]
    if not per_task or max(n for n, _ in per_task) < 2:
        return None
    k_max = min(n for n, _ in per_task)
    return {
        "tasks": len(per_task),
        "k": list(range(1, k_max + 1)),
        "pass_at_k": {str(k): mean_pass_at_k(per_task, k) for k in range(1, k_max + 1)},
        "pass_hat_k": {str(k): mean_pass_hat_k(per_task, k) for k in range(1, k_max + 1)},
    }


def group_stats(episodes: list[EpisodeRecord]) -> dict[str, Any]:
    """Success with its Wilson interval plus the cost side of the same episodes."""
    passed = sum(e.passed for e in episodes)
    rate = Rate(passed, len(episodes)).to_dict()
    return {
        "episodes": len(episodes),
        "tasks": len({e.task_id for e in episodes}),
        "passed": passed,
        "success_rate": rate["rate"],
        "ci95": [rate["ci95_low"], rate["ci95_high"]],
        "mean_score": _mean([e.score for e in episodes]),
        "mean_steps": _mean([e.steps for e in episodes]),
        "mean_error_steps": _mean([e.error_steps for e in episodes]),
        "mean_tokens_in": _mean([e.tokens_in for e in episodes]),
        "mean_tokens_out": _mean([e.tokens_out for e in episodes]),
        "total_tokens": sum(e.total_tokens for e in episodes),
        "mean_cost_usd": _mean([e.cost_usd for e in episodes]),
        "total_cost_usd": sum(e.cost_usd for e in episodes),
        "mean_wall_s": _mean([e.wall_s for e in episodes]),
        "total_wall_s": sum(e.wall_s for e in episodes),
        "agent_errors": sum(e.agent_error for e in episodes),
        "pass_k": _pass_k(episodes),
    }


def _grouped(
    episodes: tuple[EpisodeRecord, ...], key: Callable[[EpisodeRecord], str]
) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[EpisodeRecord]] = defaultdict(list)
    for e in episodes:
        groups[key(e)].append(e)
    return {name: group_stats(groups[name]) for name in sorted(groups)}


def _codes(episode: EpisodeRecord) -> list[str]:
    """Distinct reason codes of one failed episode, in first-seen order."""
    return list(dict.fromkeys(episode.reasons)) or [NO_REASON]


def _examples(failed: list[EpisodeRecord], top: list[tuple[str, int]]) -> list[EpisodeRecord]:
    """One episode per code, a different one for each code whenever the run has one."""
    used: set[tuple[str, str, int, str]] = set()
    chosen = []
    for code, _ in top:
        candidates = [e for e in failed if code in _codes(e)]
        pick = next((e for e in candidates if e.key not in used), candidates[0])
        used.add(pick.key)
        chosen.append(pick)
    return chosen


def failure_modes(run: LoadedRun) -> dict[str, Any]:
    """Failed (non-error) episodes grouped by verdict reason code, overall and per family."""
    failed = [e for e in run.episodes if not e.passed and not e.agent_error]
    overall: Counter[str] = Counter(code for e in failed for code in _codes(e))
    by_family: dict[str, dict[str, Any]] = {}
    for family in sorted({e.family for e in failed}):
        fam_failed = [e for e in failed if e.family == family]
        counts: Counter[str] = Counter(code for e in fam_failed for code in _codes(e))
        top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_CODES_PER_FAMILY]
        by_family[family] = {
            "failed": len(fam_failed),
            "top": [
                {"code": code, "episodes": count, "example": excerpt(run.run_dir, example)}
                for (code, count), example in zip(top, _examples(fam_failed, top), strict=True)
            ],
        }
    return {
        "failed_episodes": len(failed),
        "codes": [
            {"code": code, "episodes": count, "share": count / len(failed)}
            for code, count in sorted(overall.items(), key=lambda kv: (-kv[1], kv[0]))
        ],
        "by_family": by_family,
    }


def adversary_section(episodes: tuple[EpisodeRecord, ...]) -> dict[str, Any] | None:
    """Per-strategy pass counts; any pass is a reward hack the verifier let through."""
    labelled = [e for e in episodes if e.strategy]
    if not labelled:
        return None
    strategies: dict[str, list[EpisodeRecord]] = defaultdict(list)
    for e in labelled:
        strategies[e.strategy or ""].append(e)
    rows = []
    for name in sorted(strategies):
        eps = strategies[name]
        passes = sorted({e.task_id for e in eps if e.passed})
        rows.append(
            {
                "strategy": name,
                "episodes": len(eps),
                "tasks": len({e.task_id for e in eps}),
                "passed": sum(e.passed for e in eps),
                "mean_score": _mean([e.score for e in eps]),
                "agent_errors": sum(e.agent_error for e in eps),
                "passed_tasks": passes[:20],
            }
        )
    return {
        "episodes": len(labelled),
        "passed": sum(e.passed for e in labelled),
        "strategies": rows,
    }


def agent_errors_section(episodes: tuple[EpisodeRecord, ...]) -> dict[str, Any]:
    errors = [e for e in episodes if e.agent_error]
    return {
        "count": len(errors),
        "rate": len(errors) / len(episodes) if episodes else 0.0,
        "by_family": dict(sorted(Counter(e.family for e in errors).items())),
        "examples": [
            {
                "task_id": e.task_id,
                "agent": e.agent,
                "attempt": e.attempt,
                "strategy": e.strategy,
                "error": truncate(e.error or ""),
            }
            for e in errors[:ERROR_EXAMPLES]
        ],
    }


def _run_section(run: LoadedRun) -> dict[str, Any]:
    config = run.config
    attempts = sorted({e.attempt for e in run.episodes})
    return {
        "dir_name": run.run_dir.name,
        "label": run.label,
        "suite": config.get("suite"),
        "agents": sorted({e.agent for e in run.episodes}),
        "attempts": config.get("attempts", len(attempts)),
        "tasks_glob": config.get("tasks") or config.get("tasks_glob"),
        "kit_version": config.get("kit_version"),
        # the task id list can run to hundreds of lines; run.json keeps it, the summary counts it
        "config": {k: v for k, v in config.items() if k != "task_ids"},
    }


def build_summary(run: LoadedRun) -> dict[str, Any]:
    """The summary dict of a loaded run (pure apart from reading trajectory files)."""
    eps = run.episodes
    return {
        "schema_version": SUMMARY_SCHEMA_VERSION,
        "generated_by": f"replica-kit {__version__}",
        "run": _run_section(run),
        "input": {
            "lines": run.lines,
            "episodes": len(eps),
            "skipped": dict(run.skipped),
            "warnings": list(run.warnings),
        },
        "overall": group_stats(list(eps)),
        "by_agent": _grouped(eps, lambda e: e.agent),
        "by_replica": _grouped(eps, lambda e: e.replica),
        "by_family": _grouped(eps, lambda e: e.family),
        "by_difficulty": _grouped(eps, lambda e: e.difficulty),
        "failure_modes": failure_modes(run),
        "adversary": adversary_section(eps),
        "agent_errors": agent_errors_section(eps),
        "verification": verification_behaviour(run.run_dir, eps),
    }


def summarise(run_dir: Path | str) -> tuple[LoadedRun, dict[str, Any]]:
    """Load and summarise without writing anything (compare uses this on foreign run dirs)."""
    run = load_run(run_dir)
    return run, build_summary(run)


def write_summary(run_dir: Path | str) -> dict[str, Any]:
    """Compute the run's summary and write ``DIR/summary.json``; returns the summary dict.

    The runner calls this at the end of every run; ``replicas report`` calls it again so a report
    always reflects the results file as it is now (for instance after a ``--resume``).
    """
    run, summary = summarise(run_dir)
    write_json_atomic(run.run_dir / SUMMARY_FILE, summary)
    return summary
