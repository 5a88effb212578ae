"""One episode as an MCP server: the task's tools plus ``submit``, over stdio.

    replicas serve mcp ecommerce.revenue_period-v1.s1.0      # an MCP client spawns this

Any MCP client (Claude Desktop, an agent framework, the MCP SDK's own ``ClientSession``) then
lists the episode's tools — the kit's OpenAI schemas served unchanged as MCP ``inputSchema`` —
and calls them. Each call is one ``Env.step``: the observation comes back as text content,
``is_error`` marks error observations, and ``structured_content`` carries
``{"step", "error", "reward", "terminated", "truncated", "verdict"}`` (``verdict`` is the
verifier's verdict once ``submit`` — or a limit — ends the episode, else null; without the
reasons' ``expected`` answers, see :func:`replicas.integrations.agent_verdict`). The server
instructions are the task instruction. A call after the episode ended answers with an error.

Built on the SDK's low-level ``mcp.server.lowlevel.Server`` (mcp 2.x; ``FastMCP`` is gone
there). Needs the ``mcp`` extra: ``pip install "replica-kit[mcp]"``.
"""

from __future__ import annotations

from typing import Any

try:
    import anyio
    import mcp.types as mcp_types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        'replicas.integrations.mcp needs the MCP SDK: pip install "replica-kit[mcp]"'
    ) from exc

from replicas.env import Env, make
from replicas.integrations import agent_verdict

__all__ = ["SERVER_NAME", "build_server", "mcp_tools", "serve_stdio", "step_result"]

SERVER_NAME = "replicas"


def mcp_tools(env: Env) -> list[mcp_types.Tool]:
    """The episode's tools as MCP tools (the OpenAI function schema's parameters unchanged)."""
    tools = []
    for schema in env.tools:
        fn = schema["function"]
        tools.append(
            mcp_types.Tool(
                name=fn["name"], description=fn["description"], input_schema=fn["parameters"]
            )
        )
    return tools


def step_result(
    observation: str, reward: float, terminated: bool, truncated: bool, info: dict[str, Any]
) -> mcp_types.CallToolResult:
    """One ``Env.step`` outcome as an MCP tool result (see the module docstring)."""
    error = bool(info.get("error"))
    return mcp_types.CallToolResult(
        content=[mcp_types.TextContent(type="text", text=observation)],
        structured_content={
            "step": info.get("step"),
            "error": error,
            "reward": float(reward),
            "terminated": bool(terminated),
            "truncated": bool(truncated),
            "verdict": agent_verdict(info.get("verdict")),
        },
        is_error=error,
    )


def build_server(env: Env, *, name: str = SERVER_NAME) -> Server[Any]:
    """An MCP server over ``env``, whose episode must already be reset.

    Calls run one at a time in a worker thread (``Env`` is synchronous and not thread-safe;
    a dbt call takes seconds and must not block the protocol loop).
    """
    lock = anyio.Lock()

    async def list_tools(
        ctx: Any, params: mcp_types.PaginatedRequestParams | None
    ) -> mcp_types.ListToolsResult:
        return mcp_types.ListToolsResult(tools=mcp_tools(env))

    async def call_tool(ctx: Any, params: mcp_types.CallToolRequestParams) -> Any:
        action = {"name": params.name, "arguments": dict(params.arguments or {})}
        async with lock:
            outcome = await anyio.to_thread.run_sync(env.step, action)
        return step_result(*outcome)

    return Server(
        name,
        instructions=env.task.instruction,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def serve_stdio(task_id: str, *, agent_name: str = "mcp-client") -> None:
    """Serve one episode of ``task_id`` over stdin/stdout until the client disconnects."""
    with make(task_id, agent_name=agent_name) as env:
        env.reset()
        server = build_server(env)
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
