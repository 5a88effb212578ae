"""A suite as an Inspect AI task: samples are suite tasks, tools are the episode's tools, the
scorer is the kit's verifier.

    from inspect_ai import eval
    from replicas.integrations.inspect import suite_task

    eval(suite_task("core-v1", families=["ecommerce.revenue_period-v1"]), model="openai/gpt-4o")

or ``inspect eval replicas/integrations/inspect.py@core_v1 --model ...`` (the module also
exposes ``@task core_v1``). Each sample runs one episode (``replicas.make``) in its own sandbox;
no Inspect sandbox provider is needed, the kit's episode *is* the sandbox. The solver
(:func:`episode_solver`) hands the model the episode's tools — ``sql``, ``read_file``, …,
``submit`` with the kit's OpenAI schemas — and lets it call them until it stops; each call is one
``Env.step``. The scorer (:func:`verdict_scorer`) reports the verdict of ``submit``; a model that
never called ``submit`` has its final message graded as its answer. The score's ``value`` is
the verdict's score, ``answer`` what was submitted, ``explanation`` the verifier's feedback and
``metadata`` ``{"passed", "reasons", "objective_scores", "outcome", "task_id"}``.

Needs ``pip install "replica-kit[inspect]"``.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from typing import Any

try:
    from inspect_ai import Task, task
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.scorer import Score, Target, mean, scorer
    from inspect_ai.solver import Generate, Solver, TaskState, solver
    from inspect_ai.tool import ToolDef, ToolParams
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        'replicas.integrations.inspect needs Inspect AI: pip install "replica-kit[inspect]"'
    ) from exc

from replicas.env import Env, make
from replicas.suite import get_suite
from replicas.tasks import task_from_id
from replicas.tasks.base import TaskId

__all__ = ["core_v1", "episode_solver", "suite_dataset", "suite_task", "verdict_scorer"]

#: Episodes by sample uuid, from the solver that opens them to the scorer that closes them.
_EPISODES: dict[str, Env] = {}
_EPISODES_LOCK = threading.Lock()


def suite_dataset(
    suite: str = "core-v1",
    *,
    families: Sequence[str] | None = None,
    task_ids: Sequence[str] | None = None,
) -> MemoryDataset:
    """One sample per task: ``input`` the instruction, ``id`` the task id (``target`` is
    empty: the answer stays with the verifier, never in the log)."""
    ids = list(task_ids) if task_ids else list(get_suite(suite).task_ids)
    if families:
        wanted = set(families)
        unknown = wanted - {TaskId.parse(t).family for t in ids}
        if unknown:
            raise ValueError(f"families not in the suite: {', '.join(sorted(unknown))}")
        ids = [t for t in ids if TaskId.parse(t).family in wanted]
    samples = []
    for task_id in ids:
        built = task_from_id(task_id)
        samples.append(
            Sample(
                id=task_id,
                input=built.instruction,
                metadata={
                    "task_id": task_id,
                    "replica": built.replica,
                    "family": built.family,
                    "difficulty": built.difficulty,
                    "answer_kind": built.answer_kind,
                },
            )
        )
    return MemoryDataset(samples, name=suite)


def _episode_tools(env: Env) -> list[ToolDef]:
    tools = []
    for schema in env.tools:
        fn = schema["function"]
        tools.append(
            ToolDef(
                _tool_caller(env, fn["name"]),
                name=fn["name"],
                description=fn["description"],
                parameters=ToolParams.model_validate(fn["parameters"]),
            )
        )
    return tools


def _tool_caller(env: Env, name: str) -> Any:
    async def execute(**kwargs: Any) -> str:
        # Env is synchronous (a dbt call takes seconds): step it off the event loop.
        observation, *_ = await asyncio.to_thread(env.step, {"name": name, "arguments": kwargs})
        return str(observation)

    return execute


@solver
def episode_solver(agent_name: str = "inspect") -> Solver:
    """Open the sample's episode, give the model its tools, and let it call them until it stops."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        task_id = str(state.metadata.get("task_id") or state.sample_id)
        env = await asyncio.to_thread(make, task_id, agent_name=agent_name)
        await asyncio.to_thread(env.reset)
        with _EPISODES_LOCK:
            _EPISODES[state.uuid] = env
        state.tools = _episode_tools(env)
        return await generate(state, tool_calls="loop")

    return solve


@scorer(metrics=[mean()])
def verdict_scorer() -> Any:
    """The kit's verdict on the episode (see the module docstring)."""

    async def score(state: TaskState, target: Target) -> Score:
        with _EPISODES_LOCK:
            env = _EPISODES.pop(state.uuid, None)
        if env is None:
            return Score(value=0.0, explanation="no episode was opened for this sample")
        try:
            trajectory = env.trajectory()
            if trajectory["verdict"] is None:  # never submitted: the final message is the answer
                await asyncio.to_thread(
                    env.step, {"name": "submit", "arguments": {"answer": state.output.completion}}
                )
                trajectory = env.trajectory()
            verdict = trajectory["verdict"]
            submitted = [s for s in trajectory["steps"] if s["tool"] == "submit"]
            answer = submitted[-1]["arguments"].get("answer") if submitted else None
            return Score(
                value=float(verdict["score"]),
                answer=str(answer) if answer is not None else None,
                explanation=verdict["feedback"],
                metadata={
                    "passed": verdict["passed"],
                    "reasons": verdict["reasons"],
                    "objective_scores": verdict.get("objective_scores", {}),
                    "outcome": trajectory["outcome"],
                    "task_id": env.task_id,
                },
            )
        finally:
            await asyncio.to_thread(env.close)

    return score


def suite_task(
    suite: str = "core-v1",
    *,
    families: Sequence[str] | None = None,
    task_ids: Sequence[str] | None = None,
    message_limit: int | None = 60,
) -> Task:
    """An ``inspect_ai.Task`` over ``suite`` (optionally only some ``families`` or
    ``task_ids``), with :func:`episode_solver` and :func:`verdict_scorer`."""
    return Task(
        dataset=suite_dataset(suite, families=families, task_ids=task_ids),
        solver=episode_solver(),
        scorer=verdict_scorer(),
        message_limit=message_limit,
        name=suite,
    )


@task
def core_v1() -> Task:
    """The core-v1 suite (``inspect eval replicas/integrations/inspect.py@core_v1``)."""
    return suite_task("core-v1")
