"""The oracle agent: replays the task's own oracle tool calls. It must score 1.0 on every task;
a failure means a broken task (or a broken runtime), which is what audits look for."""

from __future__ import annotations

from replicas.agents import register_agent
from replicas.agents.base import Agent, AgentOptions, EnvLike, EpisodeOutcome, step


class OracleAgent(Agent):
    name = "oracle"

    def run_episode(self, env: EnvLike, *, strategy: str | None = None) -> EpisodeOutcome:
        env.reset()
        for call in env.task.oracle:
            if step(env, call.name, dict(call.arguments)).done:
                break
        return EpisodeOutcome()


@register_agent("oracle", description="replays each task's oracle tool calls (scores 1.0)")
def _make(arg: str | None, options: AgentOptions) -> Agent:
    return OracleAgent()
