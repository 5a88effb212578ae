"""``report.md``: the summary as GitHub-flavoured markdown (for PRs, issues and terminals)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from replicas.report.format import (
    ADVERSARY_HEADERS,
    GROUP_SECTIONS,
    adversary_rows,
    example_lines,
    group_cells,
    group_headers,
    num,
    pass_k_rows,
    pct,
)

REPORT_MD = "report.md"


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = [
        "| " + " | ".join(_cell(h) for h in headers) + " |",
        "|" + "|".join("---" for _ in headers) + "|",
    ]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _fenced(text: str) -> str:
    return "```text\n" + text.replace("```", "ʼʼʼ") + "\n```"


def render_example(example: dict[str, Any]) -> str:
    """A failure excerpt: which episode, its last steps, the verifier's feedback."""
    head = f"`{example['task_id']}` attempt {example['attempt']}"
    if example.get("strategy"):
        head += f", strategy `{example['strategy']}`"
    if example.get("trajectory"):
        head += f" — `{example['trajectory']}`"
    lines = example_lines(example)
    body = _fenced("\n".join(lines)) if lines else "_(trajectory not available)_"
    return f"{head}\n\n{body}"


def _overview(summary: dict[str, Any]) -> list[str]:
    run, overall = summary["run"], summary["overall"]
    low, high = overall["ci95"]
    out = [
        f"# Run report — {run['label']}",
        "",
        f"- suite: `{run.get('suite') or '?'}`; agents: "
        + ", ".join(f"`{a}`" for a in run["agents"])
        + f"; attempts per task: {run.get('attempts')}",
        f"- episodes: {overall['episodes']} over {overall['tasks']} tasks; "
        f"**success {pct(overall['success_rate'])}** (95% Wilson CI {pct(low)}–{pct(high)})",
        f"- mean steps {num(overall['mean_steps'])}, error steps {num(overall['mean_error_steps'])}, "
        f"tokens in/out {num(overall['mean_tokens_in'], 0)}/{num(overall['mean_tokens_out'], 0)} per "
        f"episode, cost ${overall['total_cost_usd']:.4f}, wall {num(overall['total_wall_s'])} s",
        f"- agent errors: {summary['agent_errors']['count']}",
    ]
    warnings = summary["input"]["warnings"]
    if warnings:
        out += ["", "> **Input warnings**", *(f"> - {w}" for w in warnings)]
    return out


def _groups(summary: dict[str, Any]) -> list[str]:
    out: list[str] = []
    sections = list(GROUP_SECTIONS)
    if len(summary["by_agent"]) > 1:
        sections.insert(0, ("by_agent", "By agent", "agent"))
    for key, title, first in sections:
        rows = [[name, *group_cells(stats)] for name, stats in summary[key].items()]
        out += ["", f"## {title}", "", table(group_headers(first), rows)]
    return out


def _pass_k(summary: dict[str, Any]) -> list[str]:
    pass_k = summary["overall"]["pass_k"]
    if not pass_k:
        return []
    out = [
        "",
        "## pass@k and pass^k",
        "",
        "pass@k: chance at least one of k attempts passes; pass^k: chance all k pass "
        f"(τ-bench), averaged over {pass_k['tasks']} tasks.",
        "",
        table(["k", "pass@k", "pass^k"], pass_k_rows(pass_k)),
    ]
    fam_rows = []
    for family, stats in summary["by_family"].items():
        if stats["pass_k"]:
            k = stats["pass_k"]["k"][-1]
            fam_rows.append(
                [
                    family,
                    str(k),
                    pct(stats["pass_k"]["pass_at_k"][str(k)]),
                    pct(stats["pass_k"]["pass_hat_k"][str(k)]),
                ]
            )
    if fam_rows:
        out += ["", table(["family", "k", "pass@k", "pass^k"], fam_rows)]
    return out


def _failures(summary: dict[str, Any]) -> list[str]:
    modes = summary["failure_modes"]
    out = ["", "## Failure modes", ""]
    if not modes["failed_episodes"]:
        return [*out, "No episode was rejected by a verifier."]
    out.append(
        f"{modes['failed_episodes']} failed episodes (agent errors excluded), by reason code:"
    )
    rows = [[m["code"], str(m["episodes"]), pct(m["share"])] for m in modes["codes"]]
    out += ["", table(["reason code", "episodes", "share of failures"], rows)]
    for family, block in modes["by_family"].items():
        out += ["", f"### {family} — {block['failed']} failed"]
        for item in block["top"]:
            out += ["", f"**{item['code']}** ({item['episodes']} episode(s))", ""]
            out.append(render_example(item["example"]))
    return out


def _adversary(summary: dict[str, Any]) -> list[str]:
    adv = summary["adversary"]
    if not adv:
        return []
    verdict = (
        "no strategy earned a pass"
        if adv["passed"] == 0
        else f"**{adv['passed']} hacked episode(s) passed**"
    )
    rows = adversary_rows(adv)
    return [
        "",
        "## Adversary strategies",
        "",
        f"{adv['episodes']} adversarial episodes: {verdict}.",
        "",
        table(ADVERSARY_HEADERS, rows),
    ]


def _errors(summary: dict[str, Any]) -> list[str]:
    errors = summary["agent_errors"]
    if not errors["count"]:
        return []
    rows = [[e["task_id"], str(e["attempt"]), e["error"]] for e in errors["examples"]]
    by_family = ", ".join(f"{k}: {v}" for k, v in errors["by_family"].items())
    return [
        "",
        "## Agent errors",
        "",
        f"{errors['count']} episode(s) ended in an agent error ({pct(errors['rate'])}); {by_family}.",
        "",
        table(["task", "attempt", "error"], rows),
    ]


def _verification(summary: dict[str, Any]) -> list[str]:
    v = summary["verification"]
    if not v["trajectories"]:
        return []
    mean = v["mean_query_steps_before_submit"]
    tools = ", ".join(f"{k}: {n}" for k, n in v["tool_calls"].items())
    return [
        "",
        "## Verification behaviour",
        "",
        f"- mean inspection steps (sql/read_file/list_files/dbt) before submit: {num(mean, 2)}",
        f"- submitted without inspecting anything: {v['submitted_without_query']} of "
        f"{v['submitted']} submitting episodes",
        f"- tool calls: {tools}",
    ]


def render_markdown(summary: dict[str, Any]) -> str:
    parts = [
        *_overview(summary),
        *_adversary(summary),
        *_groups(summary),
        *_pass_k(summary),
        *_failures(summary),
        *_errors(summary),
        *_verification(summary),
    ]
    return "\n".join(parts) + "\n"
