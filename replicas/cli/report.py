"""``replicas report DIR`` and ``replicas compare DIR_A DIR_B``.

Both are plain command functions so the main CLI can mount them at the top level
(``app.command("report")(report)``); :data:`app` bundles them for ``python -m replicas.cli_report``
and for tests. Exit codes follow the main CLI: 0 ok, 2 bad input (no run directory, no valid
results, unknown schema version), 1 when the report files cannot be written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from replicas.atomicio import write_text_atomic
from replicas.cli.common import FAILED, err_console, fail, out_console
from replicas.report import ReportInputError, compare_runs, render_compare_markdown, write_report
from replicas.report.compare import family_rows, metric_rows
from replicas.report.format import GROUP_SECTIONS, money, num, pass_k_rows, pct

TOP_FAILURE_CODES = 8


app = typer.Typer(
    help="Run reports and comparisons.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _warn(warnings: list[str]) -> None:
    for warning in warnings:
        err_console.print(f"[yellow]warning:[/yellow] {escape(warning)}", highlight=False)


def _rich_table(title: str, headers: list[str], rows: list[list[str]]) -> Table:
    table = Table(title=title, title_justify="left", header_style="bold")
    for i, header in enumerate(headers):
        if i == 0:
            table.add_column(header, justify="left", overflow="fold", ratio=1)
        else:
            table.add_column(header, justify="right", no_wrap=True)
    for row in rows:
        table.add_row(*row)
    return table


TERMINAL_HEADERS = ("eps", "pass", "success (95% CI)", "steps", "tok/ep", "cost $", "errors")


def terminal_cells(stats: dict[str, Any]) -> list[str]:
    """A narrower row than the file reports: the terminal is often 80 columns wide."""
    low, high = stats["ci95"]
    return [
        str(stats["episodes"]),
        str(stats["passed"]),
        f"{pct(stats['success_rate'])} [{100 * low:.0f}–{100 * high:.0f}]",
        num(stats["mean_steps"]),
        num(stats["mean_tokens_in"] + stats["mean_tokens_out"], 0),
        money(stats["total_cost_usd"]),
        str(stats["agent_errors"]),
    ]


def print_summary(summary: dict[str, Any]) -> None:
    """The terminal view of a summary: headline, group tables, failure modes, adversary."""
    overall, run = summary["overall"], summary["run"]
    low, high = overall["ci95"]
    out_console().print(
        f"[bold]{run['label']}[/bold] on {run.get('suite') or '?'}: "
        f"[bold]{pct(overall['success_rate'])}[/bold] success "
        f"(95% CI {pct(low)}–{pct(high)}), {overall['passed']}/{overall['episodes']} episodes, "
        f"{overall['tasks']} tasks, agent errors {summary['agent_errors']['count']}",
        highlight=False,
    )
    sections = list(GROUP_SECTIONS)
    if len(summary["by_agent"]) > 1:
        sections.insert(0, ("by_agent", "By agent", "agent"))
    for key, title, first in sections:
        rows = [[name, *terminal_cells(stats)] for name, stats in summary[key].items()]
        out_console().print(_rich_table(title, [first, *TERMINAL_HEADERS], rows))
    if overall["pass_k"]:
        out_console().print(
            _rich_table(
                "pass@k / pass^k", ["k", "pass@k", "pass^k"], pass_k_rows(overall["pass_k"])
            )
        )
    codes = summary["failure_modes"]["codes"][:TOP_FAILURE_CODES]
    if codes:
        rows = [[c["code"], str(c["episodes"]), pct(c["share"])] for c in codes]
        out_console().print(
            _rich_table("Failure modes", ["reason code", "episodes", "share"], rows)
        )
    adversary = summary["adversary"]
    if adversary:
        rows = [
            [s["strategy"], str(s["episodes"]), str(s["passed"])] for s in adversary["strategies"]
        ]
        out_console().print(
            _rich_table("Adversary strategies", ["strategy", "episodes", "passed"], rows)
        )


def report(
    run_dir: Annotated[Path, typer.Argument(help="A run directory written by `replicas run`.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print summary.json instead of tables.")
    ] = False,
) -> None:
    """Summarise a run: terminal tables + DIR/summary.json, DIR/report.md, DIR/report.html."""
    try:
        files = write_report(run_dir)
    except ReportInputError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(f"cannot write the report into {run_dir}: {exc}", FAILED) from None
    _warn(files.summary["input"]["warnings"])
    if as_json:
        typer.echo(json.dumps(files.summary, indent=2, ensure_ascii=False))
        return
    print_summary(files.summary)
    out_console().print(f"summary:  {files.summary_json}", highlight=False, markup=False)
    out_console().print(f"markdown: {files.markdown}", highlight=False, markup=False)
    out_console().print(f"html:     {files.html}", highlight=False, markup=False)


def compare(
    dir_a: Annotated[Path, typer.Argument(help="First run directory (A).")],
    dir_b: Annotated[Path, typer.Argument(help="Second run directory (B).")],
    out: Annotated[
        Path | None, typer.Option("--out", help="Also write the comparison as markdown here.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the comparison as JSON.")] = False,
) -> None:
    """Compare two runs side by side: success per family, solved tasks, tokens, cost, habits."""
    try:
        comparison = compare_runs(dir_a, dir_b)
    except ReportInputError as exc:
        raise fail(str(exc)) from None
    _warn([f"A: {w}" for w in comparison["a"]["warnings"]])
    _warn([f"B: {w}" for w in comparison["b"]["warnings"]])
    if out is not None:
        if out.is_dir():
            raise fail(f"--out {out} is a directory; give a file name such as compare.md")
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            write_text_atomic(out, render_compare_markdown(comparison))
        except OSError as exc:
            raise fail(f"cannot write {out}: {exc}", FAILED) from None
    if as_json:
        typer.echo(json.dumps(comparison, indent=2, ensure_ascii=False))
        return
    a, b, tasks = comparison["a"], comparison["b"], comparison["tasks"]
    out_console().print(
        _rich_table("Overall", ["metric", a["label"], b["label"]], metric_rows(comparison))
    )
    out_console().print(
        _rich_table(
            "Success by family (95% Wilson CI)",
            ["family", a["label"], b["label"], "B − A"],
            family_rows(comparison),
        )
    )
    for side, key in ((a, "solved_only_by_a"), (b, "solved_only_by_b")):
        ids = tasks[key]
        shown = ", ".join(ids[:20]) + (f" … (+{len(ids) - 20})" if len(ids) > 20 else "")
        out_console().print(
            f"solved only by {side['label']} ({len(ids)}): {shown or '-'}", highlight=False
        )
    if out is not None:
        out_console().print(f"written: {out}", highlight=False, markup=False)


def register(target: typer.Typer) -> None:
    """Mount ``report`` and ``compare`` as top-level commands of ``target``."""
    target.command("report")(report)
    target.command("compare")(compare)


register(app)
