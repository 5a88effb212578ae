"""The null agent: submits an empty answer straight away. Every task must give it 0 — a task
an empty answer passes does not measure anything."""

from __future__ import annotations

from replicas.agents import register_agent
from replicas.agents.base import Agent, AgentOptions, EnvLike, EpisodeOutcome, step


class NullAgent(Agent):
    name = "null"

    def run_episode(self, env: EnvLike, *, strategy: str | None = None) -> EpisodeOutcome:
        env.reset()
        step(env, "submit", {"answer": ""})
        return EpisodeOutcome()


@register_agent("null", description="submits an empty answer (scores 0)")
def _make(arg: str | None, options: AgentOptions) -> Agent:
    return NullAgent()
