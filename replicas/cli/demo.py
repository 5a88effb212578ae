"""``replicas demo`` (what ``make demo`` runs): the kit's main job on small built-in defaults.

It builds both shipped replicas at demo scale (cached after the first run), then runs the
oracle and null agents over the default suite (core-v22) and the adversary over one task per
family (every strategy on all 130 tasks is ~1,000 episodes, ~25 min on 2 cores; the full screen is
``replicas run --agent adversary --suite core-v22``, and the audit runs it), and writes their
reports. These three scripted agents are the suite's own quality screen: the oracle must pass
every task, the null agent none, and no reward-hacking strategy may earn a pass. Runs resume, so a
second ``make demo`` only re-renders the reports.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from replicas import osbox, runner
from replicas.atomicio import write_text_atomic
from replicas.build import build_timings, ensure_snapshot
from replicas.cli.common import UnsafeNoOsSandbox, allow_unsandboxed, err_console, fail, out_console
from replicas.paths import replicas_home
from replicas.replica import get_replica
from replicas.report import compare_runs, render_compare_markdown, write_report
from replicas.report.format import pct
from replicas.runner.progress import RichProgress
from replicas.suite import DEFAULT_SUITE, get_suite
from replicas.tasks import TaskId

DEMO_SUITE = DEFAULT_SUITE
DEMO_AGENTS: tuple[str, ...] = ("oracle", "null", "adversary")
DEMO_WORKERS = 2
DEMO_SEED = 7
DEMO_SCALE = 0.01
# Agents run on a sample of the suite in the demo: one task per family (the first in suite order).
DEMO_SAMPLED_AGENTS: frozenset[str] = frozenset({"adversary"})


@dataclass(frozen=True)
class AgentRun:
    """One demo agent's finished run and where its report landed."""

    agent: str
    run_dir: Path
    summary: dict[str, Any]
    html: Path


def demo_runs_dir() -> Path:
    return replicas_home() / "demo-runs"


def demo_replicas(suite: str = DEMO_SUITE) -> list[str]:
    """The replicas the demo suite's tasks run on (the enterprise replica is hard-v1's only)."""
    return sorted({task_id.split(".", 1)[0] for task_id in get_suite(suite).task_ids})


def build_stage() -> None:
    """Build (or find cached) every replica of the demo suite at the demo seed and scale."""
    table = Table(title=f"replicas built at seed={DEMO_SEED} scale={DEMO_SCALE}")
    for col in ("replica", "raw rows", "mart rows", "dbt nodes", "build s", "snapshot"):
        table.add_column(col, overflow="fold")
    for spec in (get_replica(name) for name in demo_replicas()):
        snap = ensure_snapshot(spec.name, DEMO_SEED, DEMO_SCALE)
        tables = snap.manifest["tables"]
        timings = build_timings(snap)
        table.add_row(
            spec.name,
            f"{sum(t['rows'] for t in tables['raw'].values()):,}",
            f"{sum(t['rows'] for t in tables['marts'].values()):,}",
            str(sum(snap.manifest["dbt"]["node_counts"].values())),
            f"{sum(timings.values()):.1f}" if timings else "-",
            str(snap.path),
        )
    out_console().print(table)


def one_task_per_family(suite: str) -> tuple[str, ...]:
    """The first task of each family of ``suite``, in suite order."""
    seen: dict[str, str] = {}
    for task_id in get_suite(suite).task_ids:
        seen.setdefault(TaskId.parse(task_id).family, task_id)
    return tuple(seen.values())


def _run_agent(agent: str, suite: str, out: Path) -> AgentRun:
    progress = RichProgress(f"{agent:>9}", err_console) if sys.stderr.isatty() else None
    sample = one_task_per_family(suite) if agent in DEMO_SAMPLED_AGENTS else None
    config = runner.RunConfig(
        out=out, agent=agent, suite=suite, task_ids=sample, workers=DEMO_WORKERS, resume=True
    )
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
    out_console().print(table)
    adversary = next((r for r in runs if r.summary["adversary"]), None)
    if adversary is not None:
        rows = adversary.summary["adversary"]["strategies"]
        strat = Table(title="adversary strategies", title_justify="left")
        for col in ("strategy", "episodes", "passed"):
            strat.add_column(col, justify="left" if col == "strategy" else "right")
        for row in rows:
            strat.add_row(row["strategy"], str(row["episodes"]), str(row["passed"]))
        out_console().print(strat)


def _run_name(suite: str, agent: str) -> str:
    # A sampled run gets its own directory: resuming a full run's directory with a different
    # task selection would mix the two.
    return f"{suite}-{agent}-per-family" if agent in DEMO_SAMPLED_AGENTS else f"{suite}-{agent}"


def run_stage(suite: str = DEMO_SUITE, agents: tuple[str, ...] = DEMO_AGENTS) -> list[AgentRun]:
    """Run each agent on ``suite`` (resuming cached runs), write reports, print the summary."""
    root = demo_runs_dir()
    runs = [_run_agent(agent, suite, root / _run_name(suite, agent)) for agent in agents]
    print_table(runs, suite)
    by_agent = {r.agent: r for r in runs}
    if "oracle" in by_agent and "null" in by_agent:
        comparison = compare_runs(by_agent["oracle"].run_dir, by_agent["null"].run_dir)
        compare_md = root / f"{suite}-oracle-vs-null.md"
        write_text_atomic(compare_md, render_compare_markdown(comparison))
        out_console().print(
            f"comparison oracle vs null: {compare_md}", highlight=False, soft_wrap=True
        )
    if DEMO_SAMPLED_AGENTS & set(agents):
        out_console().print(
            f"{', '.join(sorted(DEMO_SAMPLED_AGENTS & set(agents)))}: one task per family here; "
            f"every task: replicas run --agent adversary --suite {suite} --out DIR",
            highlight=False,
            soft_wrap=True,
        )
    for run in runs:
        uri = run.html.resolve().as_uri()
        out_console().print(f"report ({run.agent}): {uri}", highlight=False, soft_wrap=True)
    return runs


def demo(unsafe_no_os_sandbox: UnsafeNoOsSandbox = False) -> None:
    """Build both replicas at demo scale, run the scripted agents on the default suite, write reports."""
    allow_unsandboxed(unsafe_no_os_sandbox)
    reason = osbox.probe()
    if reason is not None and not osbox.unsafe_opt_out():
        raise fail(
            f"the demo runs dbt tasks, which need an OS sandbox: {reason}. "
            "Install bubblewrap, or pass --unsafe-no-os-sandbox to run them without one."
        )
    started = time.perf_counter()
    build_stage()
    run_stage()
    out_console().print(f"demo finished in {time.perf_counter() - started:.1f} s")


def register(app: typer.Typer) -> None:
    app.command("demo")(demo)
