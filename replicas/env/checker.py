"""The kit's environment checker: Gymnasium's ``check_env`` idea, plus what an RL environment
for agents must also guarantee (errors as observations, a null answer earning nothing, no
answer in sight).

It is a chain of small named checks; each takes a :class:`Probe` (the environment after a first
reset) and returns the problems it found. ``check_env`` runs them all and raises one
:class:`EnvCheckError` listing every problem, so a family author sees everything at once.
What "the answer appears in sight" means is :func:`replicas.verifiers.forms.answer_in_text`,
the same definition the audit's leakage check uses.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from replicas.env.core import Env
from replicas.records.trajectory import validate_trajectory
from replicas.tools.schema import tool_list_problems
from replicas.verifiers.forms import answer_in_text

__all__ = ["CHECKS", "EnvCheckError", "Probe", "check_env"]


class EnvCheckError(ValueError):
    """``check_env`` found problems; the message lists every one."""


@dataclass(frozen=True)
class Probe:
    """What the checks look at: the env and the results of two resets."""

    env: Env
    first: tuple[str, dict[str, Any]]
    second: tuple[str, dict[str, Any]]


Check = Callable[[Probe], list[str]]


def resets_are_reproducible(probe: Probe) -> list[str]:
    (obs1, info1), (obs2, info2) = probe.first, probe.second
    problems = []
    if obs1 != obs2:
        problems.append("two resets gave different observations")
    if json.dumps(info1, sort_keys=True, default=str) != json.dumps(
        info2, sort_keys=True, default=str
    ):
        problems.append("two resets gave different info")
    return problems


def observation_is_the_instruction(probe: Probe) -> list[str]:
    obs, info = probe.first
    problems = []
    if not isinstance(obs, str) or not obs.strip():
        problems.append("the observation after reset must be the (non-empty) instruction")
    if info.get("task_id") != probe.env.task_id:
        problems.append("info['task_id'] does not name the task")
    return problems


def tools_are_valid(probe: Probe) -> list[str]:
    names, problems = tool_list_problems(probe.first[1].get("tools"), "info['tools']")
    if not problems and "submit" not in names:
        problems.append("the tools must include submit")
    return problems


def answer_not_in_sight(probe: Probe) -> list[str]:
    task = probe.env.task
    obs, info = probe.first
    visible = obs + "\n" + json.dumps(info.get("tools"))
    found = answer_in_text(task.answer_kind, task.expected, task.verifier, visible)
    return [f"the expected answer appears in the instruction or tools: {f}" for f in found]


def unknown_tool_is_an_error_observation(probe: Probe) -> list[str]:
    obs, reward, terminated, truncated, info = probe.env.step(
        {"name": "no_such_tool", "arguments": {}}
    )
    ok = info.get("error") and not (terminated or truncated) and reward == 0.0
    if ok and obs.startswith("ERROR"):
        return []
    return ["an unknown tool must give an error observation and keep the episode going"]


def malformed_arguments_are_an_error_observation(probe: Probe) -> list[str]:
    _, _, terminated, _, info = probe.env.step({"name": "submit", "arguments": "{not json"})
    if info.get("error") and not terminated:
        return []
    return ["non-JSON arguments must give an error observation"]


def empty_submission_earns_nothing(probe: Probe) -> list[str]:
    _, reward, terminated, _, _ = probe.env.step({"name": "submit", "arguments": {"answer": ""}})
    if terminated and reward == 0.0:
        return []
    return [f"an empty submission must end the episode with reward 0 (got {reward})"]


def trajectory_is_valid(probe: Probe) -> list[str]:
    return [f"trajectory: {p}" for p in validate_trajectory(probe.env.trajectory())]


#: In order: the static checks first, then the ones that step the episode (the last of those
#: submits, so the trajectory check sees a finished episode).
CHECKS: tuple[Check, ...] = (
    resets_are_reproducible,
    observation_is_the_instruction,
    tools_are_valid,
    answer_not_in_sight,
    unknown_tool_is_an_error_observation,
    malformed_arguments_are_an_error_observation,
    empty_submission_earns_nothing,
    trajectory_is_valid,
)


def check_env(env: Env, checks: tuple[Check, ...] = CHECKS) -> None:
    """Run ``checks`` on ``env``; raise :class:`EnvCheckError` listing every problem found.

    Leaves the environment freshly reset.
    """
    probe = Probe(env, env.reset(), env.reset())
    problems = [f"{check.__name__}: {p}" for check in checks for p in check(probe)]
    env.reset()
    if problems:
        raise EnvCheckError(f"{env.task_id}: " + "; ".join(problems))
