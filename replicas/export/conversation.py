"""The format-neutral record every exported example starts as: one solved episode as a chat.

Sources (oracle demonstrations, verified run trajectories) produce :class:`Conversation` objects;
hygiene (dedup, split, decontamination) works on them; each output format renders them. Keeping
one neutral shape means a format is a pure function of it, and dedup/decontamination decisions do
not depend on which format is written.

A conversation is: a system prompt, the task instruction as the user turn, then one assistant
tool call per :class:`ToolTurn` with the tool's observation, ending with the ``submit`` call
(whose observation — the grader's feedback — is never exported: it would teach the model to
expect a grade it cannot see at inference time).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from replicas.tasks.base import format_task_id

if TYPE_CHECKING:
    from replicas.tasks import Task

SourceKind = Literal["oracle", "run"]
SOURCE_KINDS: tuple[str, ...] = ("oracle", "run")
SUBMIT = "submit"

_WORD = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*", re.IGNORECASE)


def canonical_json(value: Any) -> str:
    """Sorted-key, compact JSON: equal values give byte-equal text (the dedup and hash basis)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _plain(value: Any) -> Any:
    """A deep copy of JSON-native data with mappings as plain dicts (MappingProxy-safe)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True)
class ToolTurn:
    """One assistant tool call and what the tool answered.

    ``observation`` is None only for the final ``submit``; ``content`` is assistant text sent
    with the call (the natural-language final answer rides on the submit turn).
    """

    call_id: str
    name: str
    arguments: Mapping[str, Any]
    observation: str | None
    content: str | None = None

    def __post_init__(self) -> None:
        if not self.call_id or not self.name:
            raise ValueError("a tool turn needs a call id and a tool name")
        if not isinstance(self.arguments, Mapping):
            raise ValueError(f"{self.name}: arguments must be a JSON object")
        try:
            args = json.loads(json.dumps(_plain(self.arguments), allow_nan=False))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{self.name}: arguments are not JSON: {exc}") from None
        object.__setattr__(self, "arguments", MappingProxyType(args))
        if self.observation is not None and not isinstance(self.observation, str):
            raise ValueError(f"{self.name}: observation must be text or None")
        if self.content is not None and not isinstance(self.content, str):
            raise ValueError(f"{self.name}: content must be text or None")

    def to_dict(self) -> dict[str, Any]:
        return {
            "call_id": self.call_id,
            "name": self.name,
            "arguments": _plain(self.arguments),
            "observation": self.observation,
            "content": self.content,
        }


@dataclass(frozen=True)
class Conversation:
    """One exportable, solved episode (see the module docstring)."""

    task_id: str
    replica: str
    family: str
    seed: int
    variant: int
    scale: float
    difficulty: str
    answer_kind: str
    source: SourceKind
    agent: str
    score: float
    system: str
    instruction: str
    tools: tuple[Mapping[str, Any], ...]
    turns: tuple[ToolTurn, ...]
    origin: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of_task(cls, task: Task, **fields: Any) -> Conversation:
        """A conversation about ``task``: its identity fields come from the task itself."""
        return cls(
            task_id=task.id,
            replica=task.replica,
            family=task.family,
            seed=task.seed,
            variant=task.variant,
            scale=task.scale,
            difficulty=task.difficulty,
            answer_kind=task.answer_kind,
            instruction=task.instruction,
            **fields,
        )

    def __post_init__(self) -> None:
        if self.source not in SOURCE_KINDS:
            raise ValueError(f"source must be one of {SOURCE_KINDS}, got {self.source!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed must be an int >= 0, got {self.seed!r}")
        if not (isinstance(self.score, (int, float)) and 0.0 <= self.score <= 1.0):
            raise ValueError(f"score must lie in [0, 1], got {self.score!r}")
        if not math.isfinite(float(self.scale)) or self.scale <= 0:
            raise ValueError(f"scale must be positive, got {self.scale!r}")
        if not self.instruction.strip():
            raise ValueError(f"{self.task_id}: empty instruction")
        tools = tuple(MappingProxyType(_plain(t)) for t in self.tools)
        object.__setattr__(self, "tools", tools)
        names = [str(t.get("function", {}).get("name", "")) for t in tools]
        turns = tuple(self.turns)
        object.__setattr__(self, "turns", turns)
        if not turns or turns[-1].name != SUBMIT:
            raise ValueError(f"{self.task_id}: a conversation must end with a submit call")
        for i, turn in enumerate(turns):
            if turn.name not in names:
                raise ValueError(f"{self.task_id}: turn {i} calls {turn.name!r}, not offered")
            last = i == len(turns) - 1
            if last != (turn.observation is None):
                raise ValueError(
                    f"{self.task_id}: only the final submit has no observation (turn {i})"
                )
            if not last and turn.name == SUBMIT:
                raise ValueError(f"{self.task_id}: submit before the last turn")
        if len({t.call_id for t in turns}) != len(turns):
            raise ValueError(f"{self.task_id}: tool call ids must be unique")
        object.__setattr__(self, "extra", MappingProxyType(_plain(dict(self.extra))))

    # ---- identity ----------------------------------------------------------------------------

    @property
    def final_answer(self) -> str:
        """The submitted answer text (what the grader saw)."""
        return str(self.turns[-1].arguments.get("answer", ""))

    @property
    def instance(self) -> tuple[str, int]:
        """(family, seed): variants of one family on one seed share their data instance."""
        return (self.family, self.seed)

    @property
    def snapshot_key(self) -> tuple[str, int]:
        """(replica, seed): the built snapshot the episode ran on."""
        return (self.replica, self.seed)

    def content_dict(self) -> dict[str, Any]:
        """What the model sees and says — no provenance — the basis of exact dedup."""
        return {
            "system": self.system,
            "instruction": self.instruction,
            "tools": [_plain(t) for t in self.tools],
            "turns": [{k: v for k, v in t.to_dict().items() if k != "call_id"} for t in self.turns],
        }

    def content_hash(self) -> str:
        return self._content_hash

    @cached_property
    def _content_hash(self) -> str:
        return hashlib.sha256(canonical_json(self.content_dict()).encode()).hexdigest()

    @property
    def canonical_task_id(self) -> str:
        """The task id at the default scale: the same task built bigger is still the same task."""

        return format_task_id(self.family, self.seed, self.variant)

    @property
    def record_id(self) -> str:
        """Stable id: task, source, agent and a content-hash prefix (unique after dedup)."""
        return f"{self.task_id}:{self.source}:{self.content_hash()[:12]}"

    def text(self) -> str:
        """The instance-specific text (instruction, calls, observations, answers) for n-grams.

        The system prompt and tool schemas are left out: they are the same in every record.
        """
        return self._text

    @cached_property
    def _text(self) -> str:
        parts = [self.instruction]
        for turn in self.turns:
            if turn.content:
                parts.append(turn.content)
            parts.append(canonical_json(_plain(turn.arguments)))
            if turn.observation:
                parts.append(turn.observation)
        return "\n".join(parts)

    def metadata(self) -> dict[str, Any]:
        """Provenance columns written next to each record in Parquet and the manifest."""
        return {
            "id": self.record_id,
            "task_id": self.task_id,
            "replica": self.replica,
            "family": self.family,
            "seed": self.seed,
            "variant": self.variant,
            "scale": float(self.scale),
            "difficulty": self.difficulty,
            "answer_kind": self.answer_kind,
            "source": self.source,
            "agent": self.agent,
            "score": float(self.score),
            "n_tool_calls": len(self.turns),
        }


def words(text: str) -> list[str]:
    """Lower-cased word tokens (numbers keep their separators: '1,234.50' is one token)."""
    return [w.lower() for w in _WORD.findall(text)]


def ngrams(tokens: Sequence[str], n: int) -> set[str]:
    """Space-joined word n-grams; a text shorter than ``n`` gives itself as one gram."""
    if n < 1:
        raise ValueError("n must be >= 1")
    if len(tokens) < n:
        return {" ".join(tokens)} if tokens else set()
    return {" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1)}
