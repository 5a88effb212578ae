"""``report.html``: one self-contained page (inline CSS + inline SVG, no script, no network).

It must open from a laptop's downloads folder or a CI artifact viewer with no internet, so nothing
is fetched: charts are drawn by :mod:`replicas.report._svg`, styles are inline, and every string
that came from the run directory is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from replicas.report._svg import IntervalBar, ScatterPoint, count_bars, interval_bars, scatter
from replicas.report.format import (
    ADVERSARY_HEADERS,
    GROUP_SECTIONS,
    adversary_rows,
    example_lines,
    group_cells,
    group_headers,
    money,
    num,
    pass_k_rows,
    pct,
)

REPORT_HTML = "report.html"
MAX_FAILURE_BARS = 12

CSS = """
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; background: #f5f6fa; color: #1f2937;
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1080px; margin: 0 auto; padding: 28px 28px 60px; }
header h1 { margin: 0 0 4px; font-size: 26px; letter-spacing: -0.01em; }
header p { margin: 0; color: #6b7280; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(128px, 1fr)); gap: 12px;
  margin: 20px 0 8px; }
.card { background: #fff; border-radius: 10px; padding: 12px 16px;
  box-shadow: 0 1px 2px rgba(0,0,0,.06), 0 0 0 1px rgba(0,0,0,.04); }
.card .v { font-size: 24px; font-weight: 650; }
.card .k { color: #6b7280; font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.card .s { color: #6b7280; font-size: 12px; }
section { background: #fff; border-radius: 12px; padding: 18px 22px; margin-top: 18px;
  box-shadow: 0 1px 2px rgba(0,0,0,.06), 0 0 0 1px rgba(0,0,0,.04); }
section h2 { margin: 0 0 12px; font-size: 18px; }
section h3 { margin: 18px 0 6px; font-size: 15px; }
.charts { display: grid; grid-template-columns: 1fr; gap: 22px; }
svg.chart { display: block; max-width: 100%; height: auto; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { padding: 6px 9px; border-bottom: 1px solid #eef0f4; text-align: right;
  white-space: nowrap; }
th { background: #f8f9fc; color: #4b5563; font-weight: 600; white-space: normal;
  vertical-align: bottom; }
.scroll { overflow-x: auto; }
table.narrow { width: auto; min-width: 45%; }
th:first-child, td:first-child { text-align: left; white-space: normal; }
td.text, th.text { text-align: left; white-space: normal; }
tr:hover td { background: #fafbff; }
.warn { background: #fff7e6; border: 1px solid #f5d48a; border-radius: 8px; padding: 10px 14px;
  margin-top: 14px; }
.bad { color: #b42318; font-weight: 600; }
.good { color: #067647; font-weight: 600; }
details { margin: 6px 0 10px; }
summary { cursor: pointer; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
pre { background: #0f172a; color: #e2e8f0; padding: 10px 12px; border-radius: 8px;
  white-space: pre-wrap; word-break: break-word; margin: 6px 0; }
.tag { display: inline-block; background: #eef2ff; color: #3730a3; border-radius: 999px;
  padding: 1px 8px; font-size: 12px; margin-right: 6px; }
.muted { color: #6b7280; }
footer { color: #9ca3af; font-size: 12px; margin-top: 24px; text-align: center; }
"""


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], text_cols: int = 1) -> str:
    """A scrollable table; tables of three columns or fewer stay narrow instead of stretching."""

    def cls(i: int) -> str:
        return " class='text'" if i < text_cols else ""

    head = "".join(f"<th{cls(i)}>{escape(h)}</th>" for i, h in enumerate(headers))
    body = "".join(
        "<tr>" + "".join(f"<td{cls(i)}>{escape(c)}</td>" for i, c in enumerate(row)) + "</tr>"
        for row in rows
    )
    narrow = " class='narrow'" if len(headers) <= 3 else ""
    return (
        f"<div class='scroll'><table{narrow}><thead><tr>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table></div>"
    )


def _card(key: str, value: str, sub: str = "") -> str:
    return (
        f"<div class='card'><div class='k'>{escape(key)}</div><div class='v'>{escape(value)}</div>"
        f"<div class='s'>{escape(sub)}</div></div>"
    )


def _header(summary: dict[str, Any]) -> str:
    run, overall = summary["run"], summary["overall"]
    agents = ", ".join(run["agents"])
    cards = [
        _card(
            "success",
            pct(overall["success_rate"]),
            f"95% CI {100 * overall['ci95'][0]:.0f}–{100 * overall['ci95'][1]:.0f}%",
        ),
        _card("episodes", str(overall["episodes"]), f"{overall['tasks']} tasks"),
        _card(
            "mean steps", num(overall["mean_steps"]), f"{num(overall['mean_error_steps'])} errors"
        ),
        _card(
            "tokens / episode",
            num(overall["mean_tokens_in"] + overall["mean_tokens_out"], 0),
            f"{overall['total_tokens']:,} total",
        ),
        _card(
            "cost", "$" + money(overall["total_cost_usd"]), f"${money(overall['mean_cost_usd'])}/ep"
        ),
        _card(
            "agent errors",
            str(summary["agent_errors"]["count"]),
            pct(summary["agent_errors"]["rate"]),
        ),
    ]
    adversary = summary["adversary"]
    if adversary:
        cards.append(
            _card("hacks passed", str(adversary["passed"]), f"of {adversary['episodes']} attempts")
        )
    pass_k = overall["pass_k"]
    if pass_k:
        k = pass_k["k"][-1]
        cards.append(
            _card(
                f"pass^{k}",
                pct(pass_k["pass_hat_k"][str(k)]),
                f"pass@{k} " + pct(pass_k["pass_at_k"][str(k)]),
            )
        )
    warnings = summary["input"]["warnings"]
    warn = (
        "<div class='warn'><strong>Input warnings</strong><ul>"
        + "".join(f"<li>{escape(w)}</li>" for w in warnings)
        + "</ul></div>"
        if warnings
        else ""
    )
    return (
        f"<header><h1>Run report — {escape(run['label'])}</h1>"
        f"<p>suite <span class='tag'>{escape(str(run.get('suite') or '?'))}</span>"
        f"agents <span class='tag'>{escape(agents)}</span>"
        f"attempts per task <span class='tag'>{escape(str(run.get('attempts')))}</span></p></header>"
        f"<div class='cards'>{''.join(cards)}</div>{warn}"
    )


def _cost_axis(by_family: dict[str, Any]) -> tuple[str, str, str]:
    """Cost if any was recorded, else tokens, else steps: scripted agents cost nothing."""
    if any(s["mean_cost_usd"] > 0 for s in by_family.values()):
        return "mean_cost_usd", "cost per episode (USD)", "${:g}"
    if any(s["mean_tokens_in"] + s["mean_tokens_out"] > 0 for s in by_family.values()):
        return "tokens", "tokens per episode", "{:,.0f}"
    return "mean_steps", "steps per episode (no cost or tokens recorded)", "{:g}"


def charts(summary: dict[str, Any]) -> str:
    by_family = summary["by_family"]
    bars = [
        IntervalBar(
            name, s["success_rate"], s["ci95"][0], s["ci95"][1], f"{s['passed']}/{s['episodes']}"
        )
        for name, s in by_family.items()
    ]
    metric, x_label, x_format = _cost_axis(by_family)
    points = [
        ScatterPoint(
            name,
            s["mean_tokens_in"] + s["mean_tokens_out"] if metric == "tokens" else s[metric],
            s["success_rate"],
            s["ci95"][0],
            s["ci95"][1],
        )
        for name, s in by_family.items()
    ]
    codes = summary["failure_modes"]["codes"][:MAX_FAILURE_BARS]
    parts = [
        interval_bars(
            bars, "Success by task family (bars: rate, whiskers: 95% Wilson CI)", "chart-success"
        ),
        scatter(points, "Cost vs success by task family", x_label, "chart-cost", x_format),
    ]
    if codes:
        parts.append(
            count_bars(
                [(c["code"], c["episodes"]) for c in codes],
                "Failure modes (failed episodes per verdict reason code)",
                "chart-failures",
            )
        )
    else:
        parts.append("<p class='muted'>No verifier rejections: no failure-mode chart.</p>")
    return "<section><h2>Charts</h2><div class='charts'>" + "".join(parts) + "</div></section>"


def _groups(summary: dict[str, Any]) -> str:
    sections = list(GROUP_SECTIONS)
    if len(summary["by_agent"]) > 1:
        sections.insert(0, ("by_agent", "By agent", "agent"))
    out = []
    for key, title, first in sections:
        rows = [[name, *group_cells(stats)] for name, stats in summary[key].items()]
        out.append(
            f"<section><h2>{escape(title)}</h2>{_table(group_headers(first), rows)}</section>"
        )
    pass_k = summary["overall"]["pass_k"]
    if pass_k:
        out.append(
            "<section><h2>pass@k and pass^k</h2><p class='muted'>pass@k: at least one of k attempts "
            "passes; pass^k: all k attempts pass (τ-bench). Mean over "
            f"{pass_k['tasks']} tasks.</p>{_table(['k', 'pass@k', 'pass^k'], pass_k_rows(pass_k))}"
            "</section>"
        )
    return "".join(out)


def _example(example: dict[str, Any]) -> str:
    lines = example_lines(example)
    where = f"{example['task_id']} · attempt {example['attempt']}"
    if example.get("strategy"):
        where += f" · strategy {example['strategy']}"
    if example.get("trajectory"):
        where += f" · {example['trajectory']}"
    body = escape("\n".join(lines)) if lines else "(trajectory not available)"
    return f"<div class='muted'>{escape(where)}</div><pre>{body}</pre>"


def _failures(summary: dict[str, Any]) -> str:
    modes = summary["failure_modes"]
    if not modes["failed_episodes"]:
        return (
            "<section><h2>Failure modes</h2><p>No episode was rejected by a verifier.</p></section>"
        )
    rows = [[m["code"], str(m["episodes"]), pct(m["share"])] for m in modes["codes"]]
    out = [
        "<section><h2>Failure modes</h2>",
        f"<p class='muted'>{modes['failed_episodes']} failed episodes (agent errors excluded).</p>",
        _table(["reason code", "episodes", "share of failures"], rows),
    ]
    for family, block in modes["by_family"].items():
        out.append(
            f"<h3>{escape(family)} <span class='muted'>— {block['failed']} failed</span></h3>"
        )
        for i, item in enumerate(block["top"]):
            opened = " open" if i == 0 else ""
            out.append(
                f"<details{opened}><summary><code>{escape(item['code'])}</code> · {item['episodes']} "
                f"episode(s)</summary>{_example(item['example'])}</details>"
            )
    out.append("</section>")
    return "".join(out)


def _adversary(summary: dict[str, Any]) -> str:
    adv = summary["adversary"]
    if not adv:
        return ""
    status = (
        "<span class='good'>no strategy earned a pass</span>"
        if adv["passed"] == 0
        else f"<span class='bad'>{adv['passed']} hacked episode(s) passed</span>"
    )
    rows = adversary_rows(adv)
    table = _table(ADVERSARY_HEADERS, rows)
    return f"<section><h2>Adversary strategies</h2><p>{adv['episodes']} episodes: {status}.</p>{table}</section>"


def _errors(summary: dict[str, Any]) -> str:
    errors = summary["agent_errors"]
    if not errors["count"]:
        return ""
    rows = [[e["task_id"], str(e["attempt"]), e["error"]] for e in errors["examples"]]
    fams = ", ".join(f"{k}: {v}" for k, v in errors["by_family"].items())
    return (
        f"<section><h2>Agent errors</h2><p>{errors['count']} episode(s) "
        f"({pct(errors['rate'])}) ended in an agent error — {escape(fams)}.</p>"
        f"{_table(['task', 'attempt', 'error'], rows, text_cols=3)}</section>"
    )


def _verification(summary: dict[str, Any]) -> str:
    v = summary["verification"]
    if not v["trajectories"]:
        return ""
    rows = [[tool, str(n)] for tool, n in v["tool_calls"].items()]
    return (
        "<section><h2>Verification behaviour</h2>"
        f"<p>Mean inspection steps (sql / read_file / list_files / dbt) before submitting: "
        f"<strong>{num(v['mean_query_steps_before_submit'], 2)}</strong>; submitted without "
        f"inspecting anything: {v['submitted_without_query']} of {v['submitted']}.</p>"
        f"{_table(['tool', 'calls'], rows)}</section>"
    )


def render_html(summary: dict[str, Any]) -> str:
    title = f"replica-kit run report — {summary['run']['label']}"
    body = "".join(
        [
            _header(summary),
            charts(summary),
            _adversary(summary),
            _groups(summary),
            _failures(summary),
            _errors(summary),
            _verification(summary),
        ]
    )
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body><main>{body}"
        f"<footer>{escape(summary['generated_by'])} · summary schema "
        f"{summary['schema_version']}</footer></main></body></html>\n"
    )
