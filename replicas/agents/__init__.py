"""Agents and their registry: ``get_agent("oracle")``, ``get_agent("openai:gpt-4o-mini")``.

An agent spec is ``KIND`` or ``KIND:ARG``:

==============  ==========================================================================
``oracle``      replays each task's oracle tool calls (must score 1.0 everywhere)
``null``        submits an empty answer (must score 0 everywhere)
``random-sql``  a few schema-exploring queries, then a guess seeded by the task id
``adversary``   one episode per reward-hacking strategy (``replicas.agents.adversary``);
                ``adversary:S1,S2`` plays only the named strategies
``openai:M``    chat-completions tool-calling loop with model ``M`` on any OpenAI-compatible
                server (``--base-url``); see ``replicas.agents.openai_chat``
``cmd:COMMAND`` an external harness speaking the JSON-lines protocol on stdin/stdout;
                see ``replicas.agents.cmd``
==============  ==========================================================================

Agents register where they are defined (``@register_agent``); built-in modules are imported on
the first lookup, so adding an agent never means editing an if-chain here.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Callable
from dataclasses import dataclass

from replicas.agents.base import (
    Agent,
    AgentError,
    AgentOptions,
    EnvLike,
    EpisodeOutcome,
    StepResult,
    step,
)
from replicas.registry import Registry

AgentFactory = Callable[[str | None, AgentOptions], Agent]

_BUILTIN_MODULES: tuple[str, ...] = (
    "replicas.agents.oracle",
    "replicas.agents.null",
    "replicas.agents.random_sql",
    "replicas.agents.adversary",
    "replicas.agents.openai_chat",
    "replicas.agents.cmd",
)


@dataclass(frozen=True)
class AgentKind:
    """One registered kind of agent."""

    kind: str
    factory: AgentFactory
    needs_arg: bool
    description: str
    arg_name: str = ""
    #: The argument may be left out (``adversary`` vs ``adversary:scramble_rows``).
    optional_arg: bool = False


def _load_builtins() -> None:
    for module in _BUILTIN_MODULES:
        importlib.import_module(module)


AGENTS: Registry[AgentKind] = Registry(
    "agent",
    loader=_load_builtins,
    same=lambda old, new: old.factory.__qualname__ == new.factory.__qualname__,
)


def register_agent(
    kind: str,
    *,
    description: str,
    needs_arg: bool = False,
    arg_name: str = "",
    optional_arg: bool = False,
) -> Callable[[AgentFactory], AgentFactory]:
    """Decorator for a factory ``(arg, options) -> Agent`` registered under ``kind``.

    ``needs_arg``: the spec must be ``KIND:ARG``; ``optional_arg``: ``KIND`` or ``KIND:ARG``.
    """
    if not kind or ":" in kind or kind != kind.strip():
        raise ValueError(f"agent kind must be a non-empty name without ':', got {kind!r}")

    def decorate(factory: AgentFactory) -> AgentFactory:
        AGENTS.register(
            kind, AgentKind(kind, factory, needs_arg, description, arg_name, optional_arg)
        )
        return factory

    return decorate


def agent_kinds() -> list[AgentKind]:
    """Every registered agent kind, sorted by name."""
    return AGENTS.values()


def parse_agent_spec(spec: str) -> tuple[AgentKind, str | None]:
    """Split ``KIND[:ARG]`` and look the kind up; ValueError with close matches otherwise."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError("agent spec must be a non-empty string such as 'oracle' or 'openai:MODEL'")
    kind_name, sep, arg = spec.strip().partition(":")
    kind = AGENTS.find(kind_name)
    if kind is None:
        kinds = dict(AGENTS.items())
        known = sorted(kinds)
        close = difflib.get_close_matches(kind_name, known, n=2, cutoff=0.5)
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        shown = ", ".join(
            k + (":" + kinds[k].arg_name if kinds[k].needs_arg else "") for k in known
        )
        raise ValueError(f"unknown agent {spec!r}{hint} (known: {shown})")
    if kind.needs_arg and not arg.strip():
        raise ValueError(f"agent {kind_name!r} needs an argument: '{kind_name}:{kind.arg_name}'")
    if kind.optional_arg:
        if sep and not arg.strip():
            raise ValueError(
                f"agent {kind_name!r}: give '{kind_name}' or '{kind_name}:{kind.arg_name}'"
            )
        return kind, (arg.strip() or None)
    if not kind.needs_arg and sep:
        raise ValueError(f"agent {kind_name!r} takes no argument, got {spec!r}")
    return kind, (arg.strip() if kind.needs_arg else None)


def get_agent(spec: str, options: AgentOptions | None = None) -> Agent:
    """The agent named by ``spec`` (``oracle``, ``null``, ``random-sql``, ``adversary``,
    ``openai:MODEL``, ``cmd:COMMAND``); ValueError for an unknown or malformed spec."""
    kind, arg = parse_agent_spec(spec)
    agent = kind.factory(arg, options or AgentOptions())
    agent.name = spec.strip()
    return agent


__all__ = [
    "Agent",
    "AgentError",
    "AgentKind",
    "AgentOptions",
    "EnvLike",
    "EpisodeOutcome",
    "StepResult",
    "agent_kinds",
    "get_agent",
    "parse_agent_spec",
    "register_agent",
    "step",
]
