"""``replicas run``: play a suite with an agent into a run directory.

Mount in ``replicas.cli`` by adding ``("replicas.cli_run", "run_app", "run")`` to ``SUBAPPS``
(``run_app`` is a Typer app whose callback is the command, so it reads ``replicas run --agent …``).
Also runnable alone: ``python -m replicas.cli_run --agent oracle …``.

Exit codes: 0 done; 1 the executor failed (a worker died, Ray unreachable); 2 bad input (unknown
agent, suite, executor, a glob matching nothing, an occupied --out); 130 interrupted (everything
recorded so far is valid; rerun with ``--resume --out DIR``).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from replicas.agents import AgentOptions
from replicas.agents.prices import load_prices
from replicas.cli.common import (
    FAILED,
    INTERRUPTED,
    UnsafeNoOsSandbox,
    allow_unsandboxed,
    default_workers,
    err_console,
    fail,
    out_console,
    sigterm_as_interrupt,
)
from replicas.runner import ExecutorError, RunConfig, agent_slug, read_results, run
from replicas.runner.progress import NullProgress, Progress, RichProgress

run_app = typer.Typer(
    help="Run an agent on a suite.",
    add_completion=False,
    pretty_exceptions_enable=False,
    invoke_without_command=True,
)


def _default_out(suite: str, agent: str) -> Path:

    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path("runs") / f"{suite}-{agent_slug(agent)}-{stamp}"


def _print_summary(run_dir: Path) -> None:

    read = read_results(run_dir)
    records = read.records
    if not records:
        out_console().print("no episodes recorded")
        return
    by_family: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        by_family[record["family"]].append(record)
    table = Table("family", "episodes", "passed", "pass rate", "errors", title=str(run_dir))
    for family, rows in sorted(by_family.items()):
        passed = sum(bool(r["passed"]) for r in rows)
        errors = sum(bool(r.get("error")) for r in rows)
        table.add_row(family, str(len(rows)), str(passed), f"{passed / len(rows):.0%}", str(errors))
    passed = sum(bool(r["passed"]) for r in records)
    errors = sum(bool(r.get("error")) for r in records)
    table.add_row(
        "[bold]all", str(len(records)), str(passed), f"{passed / len(records):.0%}", str(errors)
    )
    out_console().print(table)
    strategies = Counter(r["strategy"] for r in records if r.get("strategy"))
    if strategies:
        wins = Counter(r["strategy"] for r in records if r.get("strategy") and r["passed"])
        breaches = Counter(r["strategy"] for r in records if r.get("breach"))
        st = Table("strategy", "episodes", "passed", "breaches", title="adversary strategies")
        for name, count in sorted(strategies.items()):
            st.add_row(name, str(count), str(wins[name]), str(breaches[name]))
        out_console().print(st)
    if read.bad_lines:
        out_console().print(f"[yellow]skipped {len(read.bad_lines)} unreadable result lines")


@run_app.callback(invoke_without_command=True)
def run_command(
    agent: Annotated[
        str,
        typer.Option(
            help="oracle | null | random-sql | adversary | openai:MODEL | cmd:'COMMAND'",
            show_default=False,
        ),
    ],
    suite: Annotated[str, typer.Option(help="Suite name.")] = "core-v1",
    tasks: Annotated[
        str | None,
        typer.Option(help="Glob(s) over task ids, comma-separated, e.g. 'ecommerce.top_n-v1.*'."),
    ] = None,
    attempts: Annotated[int, typer.Option(help="Attempts per task.")] = 1,
    workers: Annotated[
        int | None,
        typer.Option(help="Parallel workers (0 = in this process). Default: cores, max 4."),
    ] = None,
    executor: Annotated[str, typer.Option(help="local (process pool) or ray.")] = "local",
    ray_address: Annotated[
        str | None, typer.Option(help="Join this Ray cluster (default: start Ray locally).")
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="Run directory. Default: runs/<suite>-<agent>-<time>.")
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the run in --out; run only missing episodes.")
    ] = False,
    base_url: Annotated[
        str, typer.Option(help="OpenAI-compatible endpoint for openai:MODEL agents.")
    ] = "https://api.openai.com/v1",
    prices: Annotated[
        Path | None,
        typer.Option(help="JSON price table overriding the defaults (USD per 1M tokens)."),
    ] = None,
    max_episodes: Annotated[
        int | None, typer.Option(help="Run at most N episodes in this invocation.")
    ] = None,
    episode_timeout: Annotated[
        float, typer.Option(help="Seconds a cmd: harness may take per episode.")
    ] = 600.0,
    max_retries: Annotated[int, typer.Option(help="HTTP retries per model request.")] = 5,
    temperature: Annotated[float | None, typer.Option(help="Sampling temperature.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
    unsafe_no_os_sandbox: UnsafeNoOsSandbox = False,
) -> None:
    """Run AGENT on the tasks of SUITE; write results.jsonl, trajectories/ and run.json."""
    allow_unsandboxed(unsafe_no_os_sandbox)

    if resume and out is None:
        raise fail("--resume needs --out DIR (the run directory to continue)")
    try:
        options = AgentOptions(
            base_url=base_url,
            prices=load_prices(prices) if prices is not None else {},
            episode_timeout_s=episode_timeout,
            max_retries=max_retries,
            temperature=temperature,
        )
        config = RunConfig(
            out=out if out is not None else _default_out(suite, agent),
            agent=agent,
            suite=suite,
            tasks=tasks,
            attempts=attempts,
            workers=default_workers() if workers is None else workers,
            executor=executor,
            ray_address=ray_address,
            resume=resume,
            max_episodes=max_episodes,
            options=options,
        )
    except ValueError as exc:
        raise fail(str(exc)) from None
    progress: Progress = (
        RichProgress(f"{agent} on {suite}", console=err_console)
        if err_console.is_terminal and not as_json
        else NullProgress()
    )
    try:
        with sigterm_as_interrupt():
            outcome = run(config, progress=progress)
    except (ValueError, FileNotFoundError) as exc:
        raise fail(str(exc)) from None
    except ExecutorError as exc:
        raise fail(str(exc), FAILED) from None
    except KeyboardInterrupt:
        raise fail(
            f"interrupted; recorded episodes are in {config.out}. "
            f"Finish with: replicas run --agent {agent!r} --suite {suite} --out {config.out} --resume"
            + (f" --tasks {tasks!r}" if tasks else ""),
            INTERRUPTED,
        ) from None
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "run_dir": str(outcome.run_dir),
                    "planned": outcome.planned,
                    "already_done": outcome.already_done,
                    "ran": outcome.ran,
                    "passed": outcome.passed,
                    "errors": outcome.errors,
                    "complete": outcome.complete,
                    "wall_s": round(outcome.wall_s, 3),
                }
            )
        )
        return
    _print_summary(outcome.run_dir)
    note = "" if outcome.complete else " (incomplete: rerun with --resume)"
    out_console().print(
        f"ran {outcome.ran} episodes in {outcome.wall_s:.1f}s "
        f"({outcome.already_done} already recorded){note}; results: {outcome.run_dir}/results.jsonl"
    )
    if outcome.summary_error:
        err_console.print(f"[yellow]warning:[/yellow] summary not written: {outcome.summary_error}")


def register(app: typer.Typer) -> None:
    app.add_typer(run_app, name="run")
