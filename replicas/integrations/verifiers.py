"""Suite tasks as a Prime Intellect ``verifiers.v1`` taskset, the kit's verdict as the reward.

    import verifiers.v1 as vf
    from replicas.integrations.verifiers import load_taskset

    taskset = load_taskset(suite="core-v1", families=["credit_cards.card_terms_qa-v1"])
    task = next(iter(taskset))            # a ReplicaTask: prompt = the instruction

or as a plugin: ``--env.taskset.id replicas_vf`` (v1 imports plugins by a top-level module
name; ``replicas_vf`` exports exactly one ``Taskset`` and one ``Env``, as its loaders require).
``load_environment(...)`` gives the :class:`ReplicaEnv` over that taskset, built through v1's
own loader.

How an episode runs (``ReplicaEnv.run``, the pattern of v1's own OpenEnv and TextArena
tasksets: the engine plays the user, host-side): the model sees the instruction and the
episode's tools (the kit's OpenAI schemas) in the system prompt, and answers each turn with one
tool call as JSON, ``{"name": "sql", "arguments": {...}}``; the engine steps the kit's
environment with it (:class:`EpisodeDriver`) and sends the observation back as the next user
turn, until ``submit`` (or a limit) ends the episode. The verdict lands in
``trace.info["replicas_verdict"]`` and :meth:`ReplicaTask.verdict` — the task's ``@vf.reward`` —
reports its score. Under any other env (a plain ``SingleAgentEnv`` run), the reward grades the
model's final reply as its answer.

Needs ``pip install "replica-kit[verifiers]"`` (verifiers 0.4, the ``v1`` API).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator, Sequence
from typing import Any

try:
    import verifiers.v1 as vf
    from verifiers.v1.utils.loaders import load_environment as _vf_load_environment
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        'replicas.integrations.verifiers needs verifiers: pip install "replica-kit[verifiers]"'
    ) from exc

from pydantic import Field

from replicas.env import Env, make
from replicas.suite import get_suite
from replicas.tasks import task_from_id
from replicas.tasks.base import TaskId
from replicas.tools import tool_schemas

__all__ = [
    "TASKSET_ID",
    "VERDICT_INFO_KEY",
    "EpisodeDriver",
    "ReplicaData",
    "ReplicaEnv",
    "ReplicaEnvConfig",
    "ReplicaTask",
    "ReplicaTaskset",
    "ReplicaTasksetConfig",
    "load_environment",
    "load_taskset",
]

TASKSET_ID = "replicas_vf"  # a top-level shim module: v1 imports plugins by that name
VERDICT_INFO_KEY = "replicas_verdict"

SYSTEM_PROMPT = (
    "You work in a sandboxed copy of a company's data warehouse (DuckDB) and its dbt project. "
    "Act by calling one tool per turn. Reply with ONLY a JSON object "
    '{{"name": "<tool>", "arguments": {{...}}}} and nothing else; the result comes back as the '
    "next message. Finish with the submit tool.\n\nTools (OpenAI function schemas):\n{tools}"
)


class ReplicaData(vf.TaskData):
    task_id: str
    family: str
    replica: str


class ReplicaTasksetConfig(vf.TasksetConfig):
    id: str = TASKSET_ID
    suite: str = "core-v1"
    families: list[str] = Field(default_factory=list)
    task_ids: list[str] = Field(default_factory=list)


def _grade(task_id: str, answer: str) -> dict[str, Any]:
    """The kit's verdict on ``answer`` as the final submission of a fresh episode."""
    with make(task_id, agent_name="verifiers") as env:
        env.reset()
        *_, info = env.step({"name": "submit", "arguments": {"answer": answer}})
    return dict(info["verdict"])


class ReplicaTask(vf.Task[ReplicaData]):
    @vf.reward
    async def verdict(self, trace: vf.Trace) -> float:
        """The kit's verdict score (the engine's, or the final reply graded as the answer)."""
        verdict = trace.info.get(VERDICT_INFO_KEY)
        if verdict is None:
            verdict = await asyncio.to_thread(_grade, self.data.task_id, trace.last_reply)
            trace.info[VERDICT_INFO_KEY] = verdict
        return float(verdict["score"])

    @property
    def key(self) -> str:
        return self.data.task_id


class ReplicaTaskset(vf.Taskset[ReplicaTask, ReplicaTasksetConfig]):
    def load(self) -> Iterator[ReplicaTask]:
        config = self.config
        ids = list(config.task_ids) or list(get_suite(config.suite).task_ids)
        if config.families:
            wanted = set(config.families)
            ids = [t for t in ids if TaskId.parse(t).family in wanted]
        for task_id in ids:
            task = task_from_id(task_id)
            prompt = SYSTEM_PROMPT.format(tools=json.dumps(tool_schemas(task.tools), indent=1))
            yield ReplicaTask(
                ReplicaData(
                    id=task_id,
                    name=task_id,
                    prompt=task.instruction,
                    system_prompt=prompt,
                    task_id=task_id,
                    family=task.family,
                    replica=task.replica,
                ),
                config.task,
            )


class EpisodeDriver:
    """One kit episode driven by the model's replies (each the JSON text of one tool call)."""

    def __init__(self, task_id: str, *, agent_name: str = "verifiers") -> None:
        self.env: Env = make(task_id, agent_name=agent_name)
        self.done = False
        self.reward = 0.0
        self.verdict: dict[str, Any] | None = None

    def reset(self) -> str:
        text, _ = self.env.reset()
        return text

    def act(self, reply: str) -> str:
        """Step the episode with ``reply``; the observation for the model's next turn."""
        text = reply.strip()
        if text.startswith("```") and text.endswith("```"):  # a fenced JSON reply
            text = "\n".join(text.splitlines()[1:-1])
        observation, reward, terminated, truncated, info = self.env.step(text)
        if terminated or truncated:
            self.done = True
            self.reward = float(reward)
            self.verdict = info.get("verdict")
        return observation

    def close(self) -> None:
        self.env.close()


class ReplicaEnvConfig(vf.EnvConfig):
    player: vf.AgentConfig = vf.AgentConfig()


class ReplicaEnv(vf.Env[ReplicaEnvConfig]):
    """The engine: steps the kit's episode with each of the player's replies (module doc)."""

    async def run(self, task: vf.Task, agents: vf.Agents) -> None:
        driver = await asyncio.to_thread(EpisodeDriver, task.data.task_id)
        try:
            await asyncio.to_thread(driver.reset)
            async with agents.player.interaction(task) as interaction:
                segment = await interaction.turn()
                while not segment.terminated:
                    observation = await asyncio.to_thread(driver.act, segment.last_reply)
                    if driver.done:
                        break
                    segment = await interaction.turn(observation)
            trace = interaction.trace
            if driver.verdict is not None:
                trace.info[VERDICT_INFO_KEY] = driver.verdict
        finally:
            await asyncio.to_thread(driver.close)


def load_taskset(
    suite: str = "core-v1",
    *,
    families: Sequence[str] = (),
    task_ids: Sequence[str] = (),
) -> ReplicaTaskset:
    """The suite (or some of its families / tasks) as a ``verifiers.v1`` taskset."""
    config = ReplicaTasksetConfig(suite=suite, families=list(families), task_ids=list(task_ids))
    return ReplicaTaskset(config)


def load_environment(
    suite: str = "core-v1",
    *,
    families: Sequence[str] = (),
    task_ids: Sequence[str] = (),
) -> ReplicaEnv:
    """:class:`ReplicaEnv` over :func:`load_taskset`'s tasks, built through v1's loader."""
    taskset = ReplicaTasksetConfig(suite=suite, families=list(families), task_ids=list(task_ids))
    env = _vf_load_environment(ReplicaEnvConfig(taskset=taskset))
    if not isinstance(env, ReplicaEnv):
        raise TypeError(f"verifiers resolved {type(env).__name__}, not ReplicaEnv")
    return env
