"""The ``dbt`` tool: run a restricted dbt command on the sandbox's project and warehouse.

Only ``build | run | test | compile | ls | show`` with node selection flags are accepted; dbt runs
in the OS sandbox with a scrubbed environment, a generated profile outside the project with
DuckDB external access disabled, and the task's timeout — in the episode's own dbt process
(``replicas.dbt_worker``: started on the first call, kept for the next), or with
``REPLICAS_DBT_WORKER=0`` as a fresh process per call (``replicas.dbt.run_dbt``).
"""

from __future__ import annotations

import re
import shlex
import time
from collections.abc import Mapping
from typing import Any

from replicas.dbt import run_dbt
from replicas.dbt_worker import STOPPED, worker_enabled
from replicas.sandbox import prepare_for_dbt
from replicas.sandbox.parse_seed import seed_for_episode
from replicas.tools.base import Tool, ToolContext, ToolResult, register_tool, truncate

SUBCOMMANDS = ("build", "run", "test", "compile", "ls", "list", "show")
_VALUE_FLAGS = {
    "--select": "--select",
    "-s": "--select",
    "--models": "--select",
    "-m": "--select",
    "--exclude": "--exclude",
    "--inline": "--inline",
    "--limit": "--limit",
    "--resource-type": "--resource-type",
}
_BARE_FLAGS = {"--full-refresh", "--fail-fast", "-x"}
_SHOW_ONLY = {"--inline", "--limit"}
#: Time an episode must have left before its first dbt call may spend a few seconds making the
#: starting project's parse seed (once per task and cache; later calls and episodes reuse it).
_SEED_MIN_TIME_S = 60.0
_TIMESTAMP_RE = re.compile(r"^\d{2}:\d{2}:\d{2}\s+")


class CommandRefused(ValueError):
    pass


def parse_command(command: str) -> list[str]:
    """The dbt argv for ``command`` (leading ``dbt`` optional); CommandRefused if not allowed."""
    try:
        tokens = shlex.split(command)
    except ValueError as exc:
        raise CommandRefused(f"could not parse the command: {exc}") from None
    if tokens and tokens[0] == "dbt":
        tokens = tokens[1:]
    if not tokens:
        raise CommandRefused(f"give a dbt command: one of {', '.join(SUBCOMMANDS)}")
    sub, rest = tokens[0], tokens[1:]
    if sub not in SUBCOMMANDS:
        raise CommandRefused(f"dbt {sub!r} is not available; use one of {', '.join(SUBCOMMANDS)}")
    argv = [sub]
    i = 0
    while i < len(rest):
        token = rest[i]
        flag, _, inline_value = token.partition("=")
        if flag in _BARE_FLAGS and not inline_value:
            argv.append(flag)
            i += 1
            continue
        if flag not in _VALUE_FLAGS:
            raise CommandRefused(
                f"flag {token!r} is not allowed; use --select/-s, --exclude"
                + (", --inline, --limit" if sub == "show" else "")
            )
        canonical = _VALUE_FLAGS[flag]
        if canonical in _SHOW_ONLY and sub != "show":
            raise CommandRefused(f"{flag} only works with dbt show")
        values: list[str] = []
        if inline_value:
            values.append(inline_value)
            i += 1
        else:
            i += 1
            while i < len(rest) and not rest[i].startswith("-"):
                values.append(rest[i])
                i += 1
        if not values:
            raise CommandRefused(f"{flag} needs a value")
        if canonical == "--inline":
            argv += [canonical, " ".join(values)]
        else:
            argv += [canonical, *values]
    return argv


_LOG_NOISE = ("Running with dbt=", "Registered adapter:", "Found ", "Concurrency:")


def _strip_log(log: str) -> str:
    """dbt's console output without timestamps and start-up chatter (results stay)."""
    lines = [_TIMESTAMP_RE.sub("", ln).rstrip() for ln in log.splitlines()]
    kept = [ln for ln in lines if not ln.strip().startswith(_LOG_NOISE)]
    return "\n".join(kept).strip()


def _run(arguments: Mapping[str, Any], ctx: ToolContext) -> ToolResult:

    sandbox = ctx.sandbox
    if not sandbox.writes:
        return ToolResult.fail("dbt is not available in this task")
    try:
        argv = parse_command(str(arguments.get("command", "")))
    except CommandRefused as exc:
        return ToolResult.fail(str(exc))
    violations = prepare_for_dbt(sandbox.project_dir)
    if violations:
        return ToolResult.fail(
            "the project contains files dbt may not run: " + "; ".join(violations[:5])
        )
    timeout_s = ctx.limits.dbt_timeout_s
    if ctx.deadline is not None:
        timeout_s = min(timeout_s, ctx.deadline - time.monotonic())
        if timeout_s <= 1.0:
            return ToolResult.fail("no time is left in this episode for a dbt run")
    sandbox.release_connection()
    if timeout_s > _SEED_MIN_TIME_S:
        seed_for_episode(sandbox.project_dir, sandbox.start_template)
    if worker_enabled():
        # the quota is watched while dbt runs: one call can write gigabytes before it ends
        def over_quota() -> str | None:
            used = sandbox.disk_usage()
            quota = sandbox.spec.disk_quota_bytes
            return (
                f"the sandbox went over its disk quota ({used} > {quota} bytes)"
                if used > quota
                else None
            )

        result = sandbox.dbt_worker().run(argv, timeout_s=timeout_s, watch=over_quota)
    else:
        result = run_dbt(sandbox.project_dir, sandbox.warehouse, argv, timeout_s=timeout_s)
    used = sandbox.disk_usage()
    if used > sandbox.spec.disk_quota_bytes:
        stopped = " (dbt was stopped while it ran)" if result.summary.startswith(STOPPED) else ""
        return ToolResult(
            text=(
                f"ERROR: the sandbox holds {used} bytes, over its disk quota of "
                f"{sandbox.spec.disk_quota_bytes}{stopped}; the episode ends here"
            ),
            error=True,
            data={"end_episode": "disk_quota"},
        )
    if result.timed_out:
        return ToolResult.fail(f"dbt timed out after {timeout_s:g} s")
    text = result.summary
    if argv[0] in {"show", "ls", "list", "compile"} or not result.results:
        detail = _strip_log(result.log)
        if detail:
            text = detail + "\n\n" + text
    text = truncate(text, ctx.limits.max_output_chars)
    return ToolResult(text=text, error=not result.ok)


DBT_TOOL = register_tool(
    Tool(
        name="dbt",
        description=(
            "Run dbt on the sandbox project: 'build', 'run', 'test', 'compile', 'ls' or 'show', "
            "optionally with --select/-s and --exclude (show also takes --inline 'SQL' and "
            "--limit N). Example: 'build --select fct_orders'."
        ),
        parameters={
            "type": "object",
            "properties": {
                "command": {"type": "string", "description": "e.g. 'build --select fct_orders+'"}
            },
            "required": ["command"],
            "additionalProperties": False,
        },
        run=_run,
    )
)
