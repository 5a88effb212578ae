"""``replicas serve``: episodes behind a framework's own protocol.

    replicas serve openenv --port 8000 --suite core-v1     # OpenEnv server, one session per /ws
    replicas serve mcp ecommerce.revenue_period-v1.s1.0    # one episode as an MCP stdio server

Each needs its integration's extra (``pip install "replica-kit[openenv]"``, ``[mcp]``); a
missing extra, an unknown task or suite is one line on stderr and exit code 2. ``serve mcp``
writes nothing but the protocol on stdout.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Annotated

import typer

from replicas.cli.common import UnsafeNoOsSandbox, allow_unsandboxed, err_console, fail
from replicas.suite import get_suite
from replicas.tasks import task_from_id

serve_app = typer.Typer(
    help="Serve episodes over a framework's protocol (OpenEnv, MCP).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _integration(name: str) -> ModuleType:
    """The integration module, imported only now: its framework is an optional extra."""
    try:
        return importlib.import_module(f"replicas.integrations.{name}")
    except ImportError as exc:
        raise fail(str(exc)) from None


@serve_app.command("openenv")
def openenv(
    port: Annotated[int, typer.Option("--port", help="TCP port to listen on.")] = 8000,
    host: Annotated[str, typer.Option("--host", help="Address to bind.")] = "127.0.0.1",
    suite: Annotated[
        str | None, typer.Option("--suite", help="Offer every task of this suite.")
    ] = None,
    task: Annotated[
        list[str] | None, typer.Option("--task", help="Offer this task (repeatable).")
    ] = None,
    max_sessions: Annotated[
        int, typer.Option("--max-sessions", help="Concurrent WebSocket sessions.")
    ] = 4,
    unsafe_no_os_sandbox: UnsafeNoOsSandbox = False,
) -> None:
    """Run an OpenEnv environment server (sessions over WebSocket /ws)."""
    allow_unsandboxed(unsafe_no_os_sandbox)
    if not 0 < port < 65536:
        raise fail(f"--port must be in 1..65535, got {port}")
    try:
        ids = list(task or [])
        for task_id in ids:
            task_from_id(task_id)  # ValueError naming close families
        if suite or not ids:
            ids.extend(get_suite(suite or "core-v1").task_ids)
        module = _integration("openenv")
        app = module.create_server_app(ids, max_sessions=max_sessions)
    except ValueError as exc:
        raise fail(str(exc)) from None
    import uvicorn  # the openenv extra brings it; imported only when serving

    err_console.print(
        f"OpenEnv server on http://{host}:{port} ({len(set(ids))} tasks, WebSocket /ws)",
        highlight=False,
    )
    uvicorn.run(app, host=host, port=port, log_level="warning")


@serve_app.command("mcp")
def mcp(
    task_id: Annotated[str, typer.Argument(help="The task whose episode to serve.")],
    unsafe_no_os_sandbox: UnsafeNoOsSandbox = False,
) -> None:
    """Serve one episode of TASK_ID as an MCP server over stdio (its tools plus submit)."""
    allow_unsandboxed(unsafe_no_os_sandbox)
    try:
        task_from_id(task_id)
    except ValueError as exc:
        raise fail(str(exc)) from None
    module = _integration("mcp")
    import anyio  # the mcp extra brings it

    anyio.run(module.serve_stdio, task_id)


def register(app: typer.Typer) -> None:
    app.add_typer(serve_app, name="serve")
