"""The run stage of ``make demo``: oracle, null and adversary agents on core-v1, then reports.

These three scripted agents are the suite's own quality screen: the oracle must pass every task,
the null agent none, and no reward-hacking strategy may earn a pass. The stage runs them with two
workers (results are cached: a second ``make demo`` resumes the finished runs and only re-renders
the reports), prints one summary table and says where the HTML reports are.
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from rich.console import Console
from rich.table import Table

from replicas.paths import replicas_home
from replicas.report import compare_runs, render_compare_markdown, write_report
from replicas.report._format import pct
from replicas.report.summary import write_text_atomic

DEMO_SUITE = "core-v1"
DEMO_AGENTS: tuple[str, ...] = ("oracle", "null", "adversary")
DEMO_WORKERS = 2
console = Console()


@dataclass(frozen=True)
class AgentRun:
    """One demo agent's finished run and where its report landed."""

    agent: str
    run_dir: Path
    summary: dict[str, Any]
    html: Path


def _runner() -> ModuleType | None:
    """The runner package, or None while it is not part of this install."""
    try:
        return importlib.import_module("replicas.runner")
    except ModuleNotFoundError as exc:
        if exc.name != "replicas.runner":
            raise
        return None


def demo_runs_dir() -> Path:
    return replicas_home() / "demo-runs"


def _run_agent(runner: ModuleType, agent: str, suite: str, out: Path) -> AgentRun:
    progress = None
    if sys.stderr.isatty():
        progress_module = importlib.import_module("replicas.runner.progress")
        progress = progress_module.RichProgress(f"{agent:>9}", Console(stderr=True))
    config = runner.RunConfig(out=out, agent=agent, suite=suite, workers=DEMO_WORKERS, resume=True)
    runner.run(config, progress=progress)
    files = write_report(out)
    return AgentRun(agent, out, files.summary, files.html)


def _expectation(agent: str, summary: dict[str, Any]) -> str:
    """Whether the quality screen holds for this agent (oracle all pass, others none)."""
    overall = summary["overall"]
    ok = overall["passed"] == (overall["episodes"] if agent == "oracle" else 0)
    return "[green]as expected[/green]" if ok else "[red]UNEXPECTED[/red]"


def print_table(runs: list[AgentRun], suite: str) -> None:
    table = Table(title=f"{suite}: scripted agents (quality screen)", title_justify="left")
    for col in ("agent", "episodes", "passed", "success (95% CI)", "agent errors", "screen"):
        table.add_column(
            col, justify="left" if col in ("agent", "screen") else "right", no_wrap=True
        )
    for run in runs:
        overall = run.summary["overall"]
        low, high = overall["ci95"]
        table.add_row(
            run.agent,
            str(overall["episodes"]),
            str(overall["passed"]),
            f"{pct(overall['success_rate'])} [{100 * low:.0f}–{100 * high:.0f}]",
            str(overall["agent_errors"]),
            _expectation(run.agent, run.summary),
        )
    console.print(table)
    adversary = next((r for r in runs if r.summary["adversary"]), None)
    if adversary is not None:
        rows = adversary.summary["adversary"]["strategies"]
        strat = Table(title="adversary strategies", title_justify="left")
        for col in ("strategy", "episodes", "passed"):
            strat.add_column(col, justify="left" if col == "strategy" else "right")
        for row in rows:
            strat.add_row(row["strategy"], str(row["episodes"]), str(row["passed"]))
        console.print(strat)


def run_stage(suite: str = DEMO_SUITE, agents: tuple[str, ...] = DEMO_AGENTS) -> list[AgentRun]:
    """Run each agent on ``suite`` (resuming cached runs), write reports, print the summary."""
    runner = _runner()
    if runner is None:
        console.print("[yellow]run stage skipped:[/yellow] the runner is not installed")
        return []
    try:
        runner.select_task_ids(suite)
    except ValueError as exc:
        console.print(f"[yellow]run stage skipped:[/yellow] {exc}", highlight=False)
        return []
    root = demo_runs_dir()
    runs = [_run_agent(runner, agent, suite, root / f"{suite}-{agent}") for agent in agents]
    print_table(runs, suite)
    by_agent = {r.agent: r for r in runs}
    if "oracle" in by_agent and "null" in by_agent:
        comparison = compare_runs(by_agent["oracle"].run_dir, by_agent["null"].run_dir)
        compare_md = root / f"{suite}-oracle-vs-null.md"
        write_text_atomic(compare_md, render_compare_markdown(comparison))
        console.print(f"comparison oracle vs null: {compare_md}", highlight=False, soft_wrap=True)
    for run in runs:
        uri = run.html.resolve().as_uri()
        console.print(f"report ({run.agent}): {uri}", highlight=False, soft_wrap=True)
    return runs
