"""What an agent is: something that plays one episode on an :class:`~replicas.env.Env`.

The runner makes the env, hands it to ``agent.run_episode(env, strategy=...)`` and reads the
verdict and step counts from the env's trajectory afterwards; the agent only reports what the
env cannot know (tokens, cost, and its own failure). Agents never raise into the runner for
expected trouble (a crashed harness, a model server that keeps failing): they return an
:class:`EpisodeOutcome` with ``error`` set, and the episode is recorded with score 0.

Most agents play one episode per (task, attempt). The adversary plays one per reward-hacking
strategy; ``plan(task)`` says which strategies apply, and the runner records each one separately.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from replicas.tasks import Task


class AgentError(RuntimeError):
    """An agent could not play its episode (recorded as the episode's ``error``)."""


@dataclass(frozen=True)
class EpisodeOutcome:
    """What the agent reports about an episode it played; the verdict lives in the env."""

    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    error: str | None = None
    #: Extra JSON fields for the result record (the adversary's ``breach`` list).
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("tokens_in", "tokens_out"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be an int >= 0, got {value!r}")
        if not isinstance(self.cost_usd, (int, float)) or not math.isfinite(self.cost_usd):
            raise ValueError(f"cost_usd must be a finite number, got {self.cost_usd!r}")
        if self.cost_usd < 0:
            raise ValueError("cost_usd must be >= 0")


@dataclass(frozen=True)
class AgentOptions:
    """Settings shared by all agents; each agent reads the ones it needs.

    ``api_key`` is never written to disk (``to_public_dict`` leaves it out).
    """

    base_url: str = "https://api.openai.com/v1"
    api_key: str | None = None
    prices: Mapping[str, Any] = field(default_factory=dict)
    request_timeout_s: float = 120.0
    max_retries: int = 5
    retry_base_s: float = 1.0
    retry_max_s: float = 30.0
    temperature: float | None = None
    max_tokens: int | None = None
    episode_timeout_s: float = 600.0

    def __post_init__(self) -> None:
        if not self.base_url.startswith(("http://", "https://")):
            raise ValueError(f"base URL must start with http:// or https://, got {self.base_url!r}")
        if not isinstance(self.max_retries, int) or self.max_retries < 0:
            raise ValueError(f"max_retries must be an int >= 0, got {self.max_retries!r}")
        for name in ("request_timeout_s", "episode_timeout_s", "retry_max_s"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
                raise ValueError(f"{name} must be a positive number, got {value!r}")
        if not isinstance(self.retry_base_s, (int, float)) or self.retry_base_s < 0:
            raise ValueError(f"retry_base_s must be >= 0, got {self.retry_base_s!r}")
        object.__setattr__(self, "prices", dict(self.prices))

    def to_public_dict(self) -> dict[str, Any]:
        """Options as recorded in ``run.json`` (no secrets)."""
        return {
            "base_url": self.base_url,
            "request_timeout_s": self.request_timeout_s,
            "max_retries": self.max_retries,
            "retry_base_s": self.retry_base_s,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "episode_timeout_s": self.episode_timeout_s,
            "custom_prices": bool(self.prices),
        }


@runtime_checkable
class EnvLike(Protocol):
    """The part of ``replicas.env.Env`` agents use (Gymnasium-shaped)."""

    @property
    def task(self) -> Task: ...

    def reset(self) -> tuple[str, dict[str, Any]]: ...

    def record_usage(
        self, *, tokens_in: int | None = None, tokens_out: int | None = None
    ) -> None: ...

    def step(
        self, action: Mapping[str, Any] | Any
    ) -> tuple[str, float, bool, bool, dict[str, Any]]: ...


class Agent:
    """Base class: ``name`` is the agent spec (``oracle``, ``openai:gpt-4o``, ``cmd:…``)."""

    name: str = "agent"

    def plan(self, task: Task) -> tuple[str | None, ...]:
        """The episodes this agent plays per (task, attempt): one unlabelled episode by default."""
        return (None,)

    def run_episode(self, env: EnvLike, *, strategy: str | None = None) -> EpisodeOutcome:
        """Reset ``env`` and play until it terminates or truncates."""
        raise NotImplementedError

    def close(self) -> None:
        """Release resources (HTTP clients); the runner calls it when a worker finishes."""

    def __repr__(self) -> str:
        return f"<Agent {self.name}>"


@dataclass(frozen=True)
class StepResult:
    """One env step, unpacked (``done`` = terminated or truncated)."""

    observation: str
    reward: float
    terminated: bool
    truncated: bool
    info: dict[str, Any]

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated


def step(
    env: EnvLike,
    name: str,
    arguments: Mapping[str, Any] | str,
    *,
    tokens_in: int | None = None,
    tokens_out: int | None = None,
) -> StepResult:
    """One tool call on ``env`` (arguments may be a JSON string, as models send them); the token
    counts, when given, are recorded on the step in the trajectory."""
    args: Any = arguments if isinstance(arguments, str) else dict(arguments)
    if tokens_in is not None or tokens_out is not None:
        env.record_usage(tokens_in=tokens_in, tokens_out=tokens_out)
    obs, reward, terminated, truncated, info = env.step({"name": name, "arguments": args})
    return StepResult(str(obs), float(reward), bool(terminated), bool(truncated), dict(info))
