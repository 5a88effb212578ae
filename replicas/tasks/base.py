"""The task model: what one task instance is, independent of how it was built or graded.

A :class:`Task` is plain, frozen, JSON-serialisable data. Families (``replicas/families/…``)
build tasks from a pristine snapshot; the runtime (``replicas.env``) runs episodes on them;
suites and audits only ever list and compare them. Keeping the task free of behaviour is what
lets the on-disk task cache and the audit treat every family the same way.

Example (what a family's ``make`` returns through ``ctx.task(...)``)::

    Task(
        id="ecommerce.revenue_period-v1.s7.3",
        replica="ecommerce", family="ecommerce.revenue_period-v1", seed=7, scale=0.01, variant=3,
        difficulty="medium",
        instruction="What was net revenue in USD for 2025-Q1? ... Submit only the number.",
        tools=("sql", "list_files", "read_file", "submit"),
        answer_kind="number",
        verifier=VerifierConfig(abs_tol=0.01),
        expected=123456.78,
        oracle=(ToolCall("sql", {"query": "select ..."}), ToolCall("submit", {"answer": "123456.78"})),
        wrong_readings={"gross_instead_of_net": 130001.02, "cancelled_included": 125000.0},
    )
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from types import MappingProxyType
from typing import Any, Literal, cast, get_args

from replicas.sandbox import SandboxSpec
from replicas.verifiers.config import VerifierConfig

AnswerKind = Literal["number", "table", "set", "ordered_list", "text", "dbt"]
Difficulty = Literal["easy", "medium", "hard"]

ANSWER_KINDS: tuple[str, ...] = get_args(AnswerKind)
DIFFICULTIES: tuple[str, ...] = get_args(Difficulty)
TOOL_NAMES: tuple[str, ...] = ("sql", "list_files", "read_file", "write_file", "dbt", "submit")
DEFAULT_SCALE = 0.01

#: Tools offered by default: question tasks may inspect the project, dbt tasks may edit and run it.
READ_ONLY_TOOLS: tuple[str, ...] = ("sql", "list_files", "read_file", "submit")
DBT_TOOLS: tuple[str, ...] = ("sql", "list_files", "read_file", "write_file", "dbt", "submit")

FAMILY_RE = re.compile(r"^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*-v[1-9][0-9]*$")
_PATCH_PATH_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_./-]*$")


def _json_roundtrip(value: Any, what: str) -> Any:
    """Reject values the task cache could not store; return them as JSON would give them back."""
    try:
        return json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"{what} must be JSON-serialisable (str/int/float/bool/None/list/dict): {exc}"
        ) from None


@dataclass(frozen=True)
class ToolCall:
    """One tool invocation in OpenAI function-calling shape (used by oracles and hack probes)."""

    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.name not in TOOL_NAMES:
            raise ValueError(f"unknown tool {self.name!r}; tools are {TOOL_NAMES}")
        args = _json_roundtrip(dict(self.arguments), f"arguments of {self.name}")
        object.__setattr__(self, "arguments", MappingProxyType(args))

    def to_action(self) -> dict[str, Any]:
        """The action dict ``Env.step`` accepts."""
        return {"name": self.name, "arguments": dict(self.arguments)}

    def to_dict(self) -> dict[str, Any]:
        return self.to_action()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ToolCall:
        return cls(name=str(data["name"]), arguments=dict(data.get("arguments", {})))


def submit(answer: Any) -> ToolCall:
    """Shorthand for the final oracle step; non-string answers are JSON-encoded."""
    text = answer if isinstance(answer, str) else json.dumps(answer)
    return ToolCall("submit", {"answer": text})


def sql(query: str, dialect: str = "duckdb") -> ToolCall:
    """Shorthand for an oracle SQL step."""
    args: dict[str, Any] = {"query": query}
    if dialect != "duckdb":
        args["dialect"] = dialect
    return ToolCall("sql", args)


def write_file(path: str, content: str) -> ToolCall:
    """Shorthand for an oracle file edit (path relative to the dbt project)."""
    return ToolCall("write_file", {"path": path, "content": content})


def dbt(command: str) -> ToolCall:
    """Shorthand for an oracle dbt step, e.g. ``dbt("build --select fct_orders")``."""
    return ToolCall("dbt", {"command": command})


@dataclass(frozen=True)
class Limits:
    """Per-episode budget; exceeding ``max_steps`` or ``wall_s`` truncates the episode.

    ``grading_wall_s`` (opt-in, ``None`` by default) gives grading its own deadline, counted
    from the ``submit`` call: without it grading runs in whatever is left of the agent's
    ``wall_s`` (the published v1 behaviour), so on a loaded machine a slow hidden-data rebuild
    could fail a correct answer. It is left out of :meth:`to_dict` when unset, so tasks that
    do not opt in serialise (and cache, and hash) exactly as before.
    """

    max_steps: int = 30
    wall_s: float = 300.0
    sql_timeout_s: float = 10.0
    dbt_timeout_s: float = 120.0
    max_output_chars: int = 8000
    max_output_rows: int = 50
    grading_wall_s: float | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.max_steps, int) or self.max_steps < 1:
            raise ValueError(f"max_steps must be an int >= 1, got {self.max_steps!r}")
        for name in ("wall_s", "sql_timeout_s", "dbt_timeout_s"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
                raise ValueError(f"{name} must be a positive number, got {value!r}")
        grading = self.grading_wall_s
        if grading is not None and (
            isinstance(grading, bool)
            or not isinstance(grading, (int, float))
            or not math.isfinite(grading)
            or grading <= 0
        ):
            raise ValueError(f"grading_wall_s must be None or a positive number, got {grading!r}")
        if self.max_output_chars < 200 or self.max_output_rows < 1:
            raise ValueError("output caps must allow at least 200 characters and 1 row")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "max_steps": self.max_steps,
            "wall_s": self.wall_s,
            "sql_timeout_s": self.sql_timeout_s,
            "dbt_timeout_s": self.dbt_timeout_s,
            "max_output_chars": self.max_output_chars,
            "max_output_rows": self.max_output_rows,
        }
        if self.grading_wall_s is not None:
            out["grading_wall_s"] = self.grading_wall_s
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Limits:
        return cls(**dict(data))


def format_task_id(family: str, seed: int, variant: int, scale: float = DEFAULT_SCALE) -> str:
    """``<family>.s<seed>.<variant>`` plus ``.x<scale>`` when the scale is not the default.

    Only ``[a-z0-9_.-]`` appear, so ids are safe as file names and URL path segments.
    """
    if not FAMILY_RE.match(family):
        raise ValueError(f"family name must look like 'replica.name-v1', got {family!r}")
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be an int >= 0, got {seed!r}")
    if not isinstance(variant, int) or variant < 0:
        raise ValueError(f"variant must be an int >= 0, got {variant!r}")
    base = f"{family}.s{seed}.{variant}"
    if not math.isclose(scale, DEFAULT_SCALE, rel_tol=0, abs_tol=1e-12):
        base += f".x{_format_scale(scale)}"
    return base


def _format_scale(scale: float) -> str:
    if not isinstance(scale, (int, float)) or not math.isfinite(scale) or scale <= 0:
        raise ValueError(f"scale must be a positive number, got {scale!r}")
    return repr(float(scale)) if float(scale) != int(scale) else str(int(scale))


_TASK_ID_RE = re.compile(
    r"^(?P<family>[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*-v[1-9][0-9]*)"
    r"\.s(?P<seed>0|[1-9][0-9]*)\.(?P<variant>0|[1-9][0-9]*)"
    r"(?:\.x(?P<scale>[0-9]+(?:\.[0-9]+)?(?:e-?[0-9]+)?))?$"
)


@dataclass(frozen=True)
class TaskId:
    """The parsed parts of a task id."""

    family: str
    seed: int
    variant: int
    scale: float = DEFAULT_SCALE

    @property
    def replica(self) -> str:
        return self.family.split(".", 1)[0]

    def __str__(self) -> str:
        return format_task_id(self.family, self.seed, self.variant, self.scale)

    @classmethod
    def parse(cls, task_id: str) -> TaskId:
        """Parse ``ecommerce.revenue_period-v1.s7.3[.x0.1]``; ValueError on anything else."""
        match = _TASK_ID_RE.match(task_id.strip()) if isinstance(task_id, str) else None
        if not match:
            raise ValueError(
                f"malformed task id {task_id!r}; expected '<replica>.<family>-v<N>.s<seed>.<variant>'"
                " optionally followed by '.x<scale>'"
            )
        scale = float(match["scale"]) if match["scale"] else DEFAULT_SCALE
        if scale <= 0:
            raise ValueError(f"scale in task id must be positive: {task_id!r}")
        return cls(match["family"], int(match["seed"]), int(match["variant"]), scale)


@dataclass(frozen=True)
class Task:
    """One task instance. ``expected`` is hidden (never in repr, instruction, tools or sandbox).

    ``expected`` by ``answer_kind``:
      number → float; table → ``{"columns": [...], "rows": [[...], ...]}``; set / ordered_list →
      list of str or numbers; text → str; dbt → ``None`` (the reference is recomputed from the
      pristine snapshot at grading time, see ``VerifierConfig.dbt_models``).
    ``oracle`` is a tool-call script ending with ``submit`` that must score 1.0.
    ``wrong_readings`` maps a plausible misreading ("gross_instead_of_net") to the answer it gives;
    every one must fail the verifier (checked when the family builds the task).
    ``sandbox_patch`` maps a path relative to the dbt project to the new file content written into
    the episode's sandbox copy at reset (e.g. the injected bug of a "fix the model" task).
    ``withheld`` names models (schema ``main``) the agent's warehouse does not contain, with
    everything downstream of them: marts that precompute the answer, so that the task needs the
    stated rule applied, not one lookup. The episode then reads a private copy without them.
    """

    id: str
    replica: str
    family: str
    seed: int
    scale: float
    variant: int
    difficulty: Difficulty
    instruction: str
    tools: tuple[str, ...]
    answer_kind: AnswerKind
    verifier: VerifierConfig = field(default_factory=VerifierConfig)
    expected: Any = field(default=None, repr=False)
    oracle: tuple[ToolCall, ...] = ()
    wrong_readings: Mapping[str, Any] = field(default_factory=dict, repr=False)
    writes_warehouse: bool = False
    sandbox_patch: Mapping[str, str] = field(default_factory=dict, repr=False)
    withheld: tuple[str, ...] = ()
    limits: Limits = field(default_factory=Limits)
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        parsed = TaskId.parse(self.id)
        if (parsed.family, parsed.seed, parsed.variant) != (self.family, self.seed, self.variant):
            raise ValueError(f"task id {self.id!r} disagrees with family/seed/variant fields")
        if not math.isclose(parsed.scale, self.scale, rel_tol=1e-9):
            raise ValueError(f"task id {self.id!r} disagrees with scale {self.scale}")
        if parsed.replica != self.replica:
            raise ValueError(f"family {self.family!r} does not belong to replica {self.replica!r}")
        if self.difficulty not in DIFFICULTIES:
            raise ValueError(f"difficulty must be one of {DIFFICULTIES}, got {self.difficulty!r}")
        if self.answer_kind not in ANSWER_KINDS:
            raise ValueError(f"answer_kind must be one of {ANSWER_KINDS}, got {self.answer_kind!r}")
        if not self.instruction.strip():
            raise ValueError("instruction must not be empty")
        tools = tuple(self.tools)
        unknown = [t for t in tools if t not in TOOL_NAMES]
        if unknown or len(set(tools)) != len(tools) or "submit" not in tools:
            raise ValueError(
                f"tools must be distinct names from {TOOL_NAMES} incl. submit: {tools}"
            )
        object.__setattr__(self, "tools", tools)
        oracle = tuple(self.oracle)
        if not oracle or oracle[-1].name != "submit":
            raise ValueError("oracle must be a non-empty tool-call script ending with submit")
        missing = {c.name for c in oracle} - set(tools)
        if missing:
            raise ValueError(f"oracle uses tools the task does not offer: {sorted(missing)}")
        object.__setattr__(self, "oracle", oracle)
        if "dbt" in tools and not self.writes_warehouse:
            raise ValueError("a task offering the dbt tool must set writes_warehouse=True")
        if self.answer_kind == "dbt":
            if not self.verifier.dbt_models:
                raise ValueError("a dbt task must name the models grading rebuilds (dbt_models)")
            if not self.writes_warehouse:
                raise ValueError("a dbt task writes its sandbox warehouse (writes_warehouse=True)")
        elif self.expected is None:
            raise ValueError(f"a {self.answer_kind} task needs an expected answer")
        object.__setattr__(self, "expected", _json_roundtrip(self.expected, "expected"))
        readings = _json_roundtrip(dict(self.wrong_readings), "wrong_readings")
        object.__setattr__(self, "wrong_readings", MappingProxyType(readings))
        patch = {str(k): str(v) for k, v in dict(self.sandbox_patch).items()}
        for path in patch:
            if not _PATCH_PATH_RE.match(path) or ".." in path.split("/"):
                raise ValueError(
                    f"sandbox_patch path must be relative inside the project: {path!r}"
                )
        object.__setattr__(self, "sandbox_patch", MappingProxyType(patch))
        withheld = tuple(str(m) for m in self.withheld)
        for model in withheld:
            if not model.replace("_", "").isalnum():
                raise ValueError(f"withheld models are identifiers, got {model!r}")
        object.__setattr__(self, "withheld", tuple(sorted(set(withheld))))
        metadata = _json_roundtrip(dict(self.metadata), "metadata")
        object.__setattr__(self, "metadata", MappingProxyType(metadata))

    def sandbox_spec(self) -> SandboxSpec:
        """The sandbox an episode of this task runs in.

        A writable sandbox drops the graded models and every model whose file the task patches:
        a DuckDB view keeps its defining SQL, so a pristine view of a patched model would show
        the agent the unpatched code (the sandbox adds everything downstream of these).
        """
        patched = [
            PurePosixPath(rel).stem
            for rel in self.sandbox_patch
            if rel.startswith("models/") and rel.endswith(".sql")
        ]
        dropped = (*self.verifier.dbt_models, *patched) if self.writes_warehouse else ()
        return SandboxSpec(
            writes_warehouse=self.writes_warehouse,
            drop_models=(*dropped, *self.withheld),
            patch=self.sandbox_patch,
        )

    def to_dict(self, *, include_hidden: bool = True) -> dict[str, Any]:
        """JSON form; ``include_hidden=False`` drops the expected answer, oracle and wrong readings
        (what a public task listing may show)."""
        out: dict[str, Any] = {
            "id": self.id,
            "replica": self.replica,
            "family": self.family,
            "seed": self.seed,
            "scale": self.scale,
            "variant": self.variant,
            "difficulty": self.difficulty,
            "instruction": self.instruction,
            "tools": list(self.tools),
            "answer_kind": self.answer_kind,
            "verifier": self.verifier.to_dict(),
            "writes_warehouse": self.writes_warehouse,
            "withheld": list(self.withheld),
            "limits": self.limits.to_dict(),
            "metadata": dict(self.metadata),
        }
        if include_hidden:
            out["expected"] = self.expected
            out["oracle"] = [c.to_dict() for c in self.oracle]
            out["wrong_readings"] = dict(self.wrong_readings)
            out["sandbox_patch"] = dict(self.sandbox_patch)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Task:
        return cls(
            id=str(data["id"]),
            replica=str(data["replica"]),
            family=str(data["family"]),
            seed=int(data["seed"]),
            scale=float(data["scale"]),
            variant=int(data["variant"]),
            difficulty=cast(Difficulty, data["difficulty"]),
            instruction=str(data["instruction"]),
            tools=tuple(data["tools"]),
            answer_kind=cast(AnswerKind, data["answer_kind"]),
            verifier=VerifierConfig.from_dict(data.get("verifier", {})),
            expected=data.get("expected"),
            oracle=tuple(ToolCall.from_dict(c) for c in data.get("oracle", [])),
            wrong_readings=dict(data.get("wrong_readings", {})),
            writes_warehouse=bool(data.get("writes_warehouse", False)),
            sandbox_patch=dict(data.get("sandbox_patch", {})),
            withheld=tuple(data.get("withheld", ())),
            limits=Limits.from_dict(data.get("limits", {})),
            metadata=dict(data.get("metadata", {})),
        )
