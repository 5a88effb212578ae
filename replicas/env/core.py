"""The episode runtime: a ``gymnasium.Env`` around one task.

    env = make("ecommerce.revenue_period-v1.s7.3", agent_name="my-agent")
    obs, info = env.reset()                     # obs = instruction; info["tools"] = OpenAI schemas
    obs, reward, terminated, truncated, info = env.step(
        {"name": "sql", "arguments": {"query": "select count(*) from raw.orders"}}
    )
    ...
    obs, reward, terminated, truncated, info = env.step({"name": "submit", "arguments": {"answer": "42"}})
    info["verdict"]                             # Verdict.to_dict(); reward == verdict score
    env.trajectory()                            # the recorded episode (replicas.records.trajectory)
    env.close()

The same environment through Gymnasium: ``gymnasium.make("replicas/<task id>")`` (every task
of a shipped suite is registered, see ``replicas.gym_ids``). The spaces are text
(``replicas.env.spaces``): an action may also be the JSON text of a tool call, which is what
``action_space.sample()`` draws. ``reset(seed=)`` seeds ``np_random`` as Gymnasium specifies; the
episode itself is fully determined by the task id. ``info`` holds nothing wall-clock (timings
are in the trajectory), so two resets give equal infos.

Every episode runs in its own sandbox (``replicas.sandbox``). Bad agent input — an unknown tool,
arguments that are not JSON or do not fit the schema, a failing query — is answered with an
error observation and the episode goes on; only ``submit`` or the task's limits end it.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import shutil
import tempfile
import time
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

import gymnasium

from replicas import osbox
from replicas.atomicio import write_json_atomic
from replicas.env.spaces import action_space, observation_space
from replicas.protocols import SnapshotLike
from replicas.records.trajectory import (
    SCHEMA_VERSION,
    StepRecord,
    totals,
)
from replicas.sandbox import Sandbox
from replicas.tasks import Task, TaskFamily, TaskId, build_task, family_names, get_family
from replicas.tasks.grading import GradeContext
from replicas.tasks.loader import load_snapshot
from replicas.tools import ToolContext, call_tool, get_tool, tool_schemas, validate_arguments
from replicas.tools.base import ToolResult
from replicas.verifiers.tables import redact_expected
from replicas.verifiers.verdict import Verdict, fail

EPISODE_FILE = "episode.json"
#: A rebuild does not start with this little time left (``GradeContext.rebuild``), so a
#: grading that ends this close to its own deadline was cut short.
_GRADING_MARGIN_S = 1.0
_MAX_RECORDED_ARG_CHARS = 20_000

__all__ = ["Env", "make"]


class Env(gymnasium.Env[str, Any]):
    """One task's environment. Not thread-safe: one episode at a time per instance."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012  (Gymnasium's attribute)

    def __init__(
        self,
        task: Task,
        *,
        agent_name: str = "unknown",
        snapshot: SnapshotLike | None = None,
        family: TaskFamily | None = None,
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None:
            raise ValueError(f"replica environments do not render (render_mode={render_mode!r})")
        self.render_mode = None
        self.observation_space = observation_space()
        self.action_space = action_space()
        self._task = task
        self._family = family or get_family(task.family)
        self._snapshot = snapshot or load_snapshot(task.replica, task.seed, task.scale)
        self.agent_name = str(agent_name)
        self._tools = tuple(task.tools)
        self._schemas = tool_schemas(self._tools)
        self._schemas_json = json.dumps(self._schemas)
        self._sandbox: Sandbox | None = None
        self._steps: list[StepRecord] = []
        self._started = 0.0
        self._elapsed_offset = 0.0
        self._done = False
        self._outcome = "running"
        self._verdict: Verdict | None = None
        self._pending_usage: tuple[int | None, int | None] = (None, None)
        self._grading_s: float | None = None

    # ---- construction --------------------------------------------------------------------

    @classmethod
    def from_task(
        cls,
        task: Task,
        *,
        agent_name: str = "unknown",
        snapshot: SnapshotLike | None = None,
        family: TaskFamily | None = None,
    ) -> Env:
        """An environment for a task object (e.g. a family under test that no suite lists)."""
        return cls(task, agent_name=agent_name, snapshot=snapshot, family=family)

    @classmethod
    def restore_from(cls, path: str | Path, *, agent_name: str | None = None) -> Env:
        """Rebuild an environment from an episode snapshot directory (any process) and resume."""
        data = _read_episode(Path(path))
        env = make(data["task_id"], agent_name=agent_name or data.get("agent", "unknown"))
        env.restore(path)
        return env

    # ---- properties ----------------------------------------------------------------------

    @property
    def task(self) -> Task:
        return self._task

    @property
    def task_id(self) -> str:
        return self._task.id

    @property
    def tools(self) -> list[dict[str, Any]]:
        return list(json.loads(self._schemas_json))  # a fresh copy the caller may mutate

    @property
    def sandbox(self) -> Sandbox | None:
        return self._sandbox

    @property
    def done(self) -> bool:
        return self._done

    # ---- Gymnasium API -------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]]:
        """Start a fresh episode in a new sandbox. ``seed`` seeds ``np_random`` (Gymnasium's
        contract); the task, and so the episode, is fully determined by the task id."""
        super().reset(seed=seed)
        self._close_sandbox(wait=False)
        self._sandbox = Sandbox.create(self._task.sandbox_spec(), self._snapshot)
        self._steps = []
        self._started = time.monotonic()
        self._elapsed_offset = 0.0
        self._done = False
        self._outcome = "running"
        self._verdict = None
        self._grading_s = None
        return self._task.instruction, self._reset_info()

    def record_usage(self, *, tokens_in: int | None = None, tokens_out: int | None = None) -> None:
        """Token usage of the model call that produced the *next* action (a side channel).

        The action itself is a pure tool call (the Gymnasium contract); an agent wrapper that
        knows its model's usage reports it here before ``step`` and it lands on that step's
        record in the trajectory. Negative or non-integer counts are ignored.
        """
        self._pending_usage = (_int_or_none(tokens_in), _int_or_none(tokens_out))

    def step(
        self, action: Mapping[str, Any] | Any
    ) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Run one tool call. Returns ``(observation, reward, terminated, truncated, info)``."""
        tokens_in, tokens_out = self._pending_usage
        self._pending_usage = (None, None)
        if self._sandbox is None:
            raise RuntimeError("call reset() before step()")
        t0 = time.perf_counter()
        if self._done:
            obs = "ERROR: the episode is over; call reset() to start a new one"
            return (
                obs,
                0.0,
                self._outcome == "submitted",
                self._outcome == "truncated",
                {**self._base_info(), "error": True, "verdict": self._verdict_dict()},
            )
        if self.elapsed_s() > self._task.limits.wall_s:
            return self._truncate(
                "time_limit", "the episode exceeded its wall-time limit", t0, tokens_in, tokens_out
            )

        name, raw_args = _unpack_action(action)
        reward = 0.0
        terminated = False
        tool = get_tool(name) if name in self._tools else None
        arguments: Any = raw_args
        if tool is None:
            available = ", ".join(self._tools)
            unknown = NOT_A_TOOL_CALL if not name else f"unknown tool {name!r}"
            result = ToolResult.fail(f"{unknown}; available tools: {available}")
        else:
            if name == "submit":
                raw_args = _stringify_answer(raw_args)
            parsed, problem = validate_arguments(tool, raw_args)
            if problem is not None or parsed is None:
                result = ToolResult.fail(problem or "invalid arguments")
            else:
                arguments = parsed
                if name == "submit":
                    verdict = self._grade(str(parsed.get("answer", "")))
                    self._verdict = verdict
                    self._done = True
                    self._outcome = "submitted"
                    terminated = True
                    reward = float(verdict.score)
                    result = ToolResult(
                        text="Answer submitted. " + redact_expected(verdict.feedback)
                    )
                else:
                    ctx = ToolContext(self._sandbox, self._task.limits, self._deadline())
                    result = call_tool(tool, parsed, ctx)
        self._record(name, arguments, result, t0, tokens_in, tokens_out)
        info = {**self._base_info(), "tool": name, "error": result.error}
        ended_by = result.data.get("end_episode") if result.data else None
        if ended_by:
            self._finish_truncated(str(ended_by), result.text.removeprefix("ERROR: "))
            info["verdict"] = self._verdict_dict()
            return result.text, 0.0, False, True, info
        if terminated:
            info["verdict"] = self._verdict_dict()
            return result.text, reward, True, False, info
        if len(self._steps) >= self._task.limits.max_steps:
            self._finish_truncated(
                "step_limit", f"the episode used all {self._task.limits.max_steps} steps"
            )
            info["verdict"] = self._verdict_dict()
            return result.text, 0.0, False, True, info
        return result.text, 0.0, False, False, info

    def __exit__(self, *args: object) -> Literal[False]:
        # Literal[False], not gymnasium's bool: the type checker then knows errors propagate.
        self.close()
        return False

    def close(self) -> None:
        self._close_sandbox()

    def render(self) -> None:
        """Nothing to render (``render_mode`` is always None): the observation is the text."""
        return None

    def __del__(self) -> None:  # best effort: never leave sandboxes behind
        with contextlib.suppress(Exception):
            self._close_sandbox()

    # ---- recording -----------------------------------------------------------------------

    def elapsed_s(self) -> float:
        return self._elapsed_offset + (time.monotonic() - self._started if self._started else 0.0)

    def trajectory(self) -> dict[str, Any]:
        """The episode so far as a JSON-ready dict (see ``replicas.records.trajectory``)."""
        task = self._task
        return _utf8_safe(
            {
                "schema_version": SCHEMA_VERSION,
                "task_id": task.id,
                "replica": task.replica,
                "family": task.family,
                "seed": task.seed,
                "scale": task.scale,
                "variant": task.variant,
                "difficulty": task.difficulty,
                "agent": self.agent_name,
                "instruction": task.instruction,
                "tools": list(self._tools),
                "steps": [s.to_dict() for s in self._steps],
                "verdict": self._verdict_dict(),
                "outcome": self._outcome,
                "totals": totals(self._steps, self.elapsed_s()),
                "grading_s": self._grading_s,
                "isolation": _isolation(task),
            }
        )

    def write_trajectory(self, path: str | Path) -> Path:
        """Write the trajectory as one JSON object, atomically."""
        return write_json_atomic(Path(path), self.trajectory(), indent=None)

    # ---- snapshot / restore --------------------------------------------------------------

    def snapshot(self, path: str | Path | None = None) -> Path:
        """Capture the live episode (sandbox files, writable warehouse, step history) on disk."""
        if self._sandbox is None:
            raise RuntimeError("nothing to snapshot: call reset() first")
        final = (
            Path(path) if path is not None else Path(tempfile.mkdtemp(prefix="replicas-episode-"))
        )
        if final.exists() and any(final.iterdir()):
            raise FileExistsError(f"episode snapshot target {final} is not empty")
        final.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".tmp-episode-", dir=final.parent))
        try:
            self._sandbox.save_state(work)
            state = {
                "schema_version": SCHEMA_VERSION,
                "task_id": self._task.id,
                "agent": self.agent_name,
                "elapsed_s": self.elapsed_s(),
                "done": self._done,
                "outcome": self._outcome,
                "verdict": self._verdict_dict(),
                "steps": [s.to_dict() for s in self._steps],
            }
            write_json_atomic(work / EPISODE_FILE, state, indent=None)
            if final.exists():
                final.rmdir()
            work.rename(final)
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
        return final

    def restore(self, handle: str | Path) -> None:
        """Continue the episode captured by :meth:`snapshot` (from this or another process)."""
        path = Path(handle)
        data = _read_episode(path)
        if data["task_id"] != self._task.id:
            raise ValueError(f"episode snapshot is for {data['task_id']!r}, not {self._task.id!r}")
        self._close_sandbox()
        self._sandbox = Sandbox.create(self._task.sandbox_spec(), self._snapshot)
        self._sandbox.load_state(path)
        self._steps = [StepRecord.from_dict(s) for s in data.get("steps", [])]
        self._elapsed_offset = float(data.get("elapsed_s", 0.0))
        self._started = time.monotonic()
        self._done = bool(data.get("done", False))
        self._outcome = str(data.get("outcome", "running"))
        verdict = data.get("verdict")
        self._verdict = Verdict.from_dict(verdict) if isinstance(verdict, dict) else None

    # ---- internals -----------------------------------------------------------------------

    def _reset_info(self) -> dict[str, Any]:
        task = self._task
        return {
            **self._base_info(),
            "tools": self.tools,
            "replica": task.replica,
            "family": task.family,
            "difficulty": task.difficulty,
            "answer_kind": task.answer_kind,
            "max_steps": task.limits.max_steps,
            "wall_s": task.limits.wall_s,
        }

    def _base_info(self) -> dict[str, Any]:
        # Nothing wall-clock here: two resets must give equal info (timings live in the trajectory).
        return {"task_id": self._task.id, "step": len(self._steps)}

    def _verdict_dict(self) -> dict[str, Any] | None:
        return self._verdict.to_dict() if self._verdict is not None else None

    def _deadline(self) -> float:
        """``time.monotonic()`` at which the episode's wall budget runs out."""
        return time.monotonic() + (self._task.limits.wall_s - self.elapsed_s())

    def _grade(self, answer: str) -> Verdict:
        """The verdict on ``answer``; its wall time is recorded apart from the steps'."""
        started = time.perf_counter()
        try:
            return self._grade_timed(answer)
        finally:
            self._grading_s = time.perf_counter() - started

    def _grade_timed(self, answer: str) -> Verdict:
        assert self._sandbox is not None  # reset() ran (checked in step)
        problems = _integrity_problems(self._snapshot)
        if problems:
            return fail(
                "snapshot_tampered",
                "the pristine snapshot failed its integrity check, so nothing was graded "
                "against it (rebuild it with `replicas build`): " + "; ".join(problems[:3]),
            )
        sandbox = self._sandbox
        sandbox.release_connection()
        # An untouched, unpatched project is the pristine one: no need to copy it for grading.
        untouched = not sandbox.project_materialised and not self._task.sandbox_patch
        budget = self._task.limits.grading_wall_s
        if budget is None:
            # v1 semantics (published): grading runs in what is left of the agent's budget.
            dbt_timeout_s, deadline = max(self._task.limits.dbt_timeout_s, 300.0), self._deadline()
        else:
            # Opt-in: grading gets its own deadline from now, so the agent's time is the agent's.
            dbt_timeout_s, deadline = budget, time.monotonic() + budget
        ctx = GradeContext(
            snapshot=self._snapshot,
            sandbox_root=sandbox.root,
            project_dir=Path(self._snapshot.dbt_project) if untouched else sandbox.project_dir,
            warehouse=sandbox.warehouse if sandbox.writes else None,
            dbt_timeout_s=dbt_timeout_s,
            deadline=deadline,
            start_project=sandbox.start_template if sandbox.writes else None,
        )
        try:
            verdict = self._family.grade(self._task, answer, ctx)
            if not isinstance(verdict, Verdict):
                raise TypeError(f"{self._family.name}.grade returned {type(verdict).__name__}")
        except Exception as exc:  # a grader bug must not crash the agent loop
            verdict = fail("grading_error", f"grading failed: {type(exc).__name__}: {exc}")
        finally:
            ctx.close()
        if budget is not None and time.monotonic() >= deadline - _GRADING_MARGIN_S:
            # Rebuilds stop at the deadline (a dbt run is killed, none starts in the last
            # second), so whatever grading concluded was cut short: it scores 0, saying why.
            return fail(
                "grading_time_limit",
                f"grading did not finish within the task's grading budget of {budget:g} s, so "
                "the answer scores 0 (what grading saw before it stopped: "
                f"{verdict.feedback[:600]})",
            )
        return verdict

    def _record(
        self,
        name: str,
        arguments: Any,
        result: ToolResult,
        t0: float,
        tokens_in: int | None,
        tokens_out: int | None,
    ) -> None:
        self._steps.append(
            StepRecord(
                index=len(self._steps),
                tool=str(name),
                arguments=_recordable(arguments),
                observation=result.text,
                error=result.error,
                wall_ms=(time.perf_counter() - t0) * 1000.0,
                tokens_in=tokens_in,
                tokens_out=tokens_out,
            )
        )

    def _finish_truncated(self, code: str, message: str) -> None:
        self._verdict = fail(code, message)
        self._done = True
        self._outcome = "truncated"

    def _truncate(
        self, code: str, message: str, t0: float, tokens_in: int | None, tokens_out: int | None
    ) -> tuple[str, float, bool, bool, dict[str, Any]]:
        self._finish_truncated(code, message)
        result = ToolResult.fail(message)
        self._record("(limit)", None, result, t0, tokens_in, tokens_out)
        info = {**self._base_info(), "error": True, "verdict": self._verdict_dict()}
        return result.text, 0.0, False, True, info

    def _close_sandbox(self, *, wait: bool = True) -> None:
        sandbox = getattr(self, "_sandbox", None)
        if sandbox is not None:
            sandbox.close(wait=wait)
            self._sandbox = None


# --------------------------------------------------------------------------------------------
# helpers


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


NOT_A_TOOL_CALL = (
    'the action is not a tool call: send {"name": "<tool>", "arguments": {...}} '
    "as an object or as JSON text"
)


def _unpack_action(action: Any) -> tuple[str, Any]:
    """Name and raw arguments of an action (plain dict, OpenAI tool_call dict, its JSON text,
    or an object with ``name``/``arguments``). A text that is not a JSON object has no name."""
    if isinstance(action, str):
        try:
            action = json.loads(action)
        except (ValueError, RecursionError):
            return "", None
        if not isinstance(action, Mapping):
            return "", None
    if isinstance(action, Mapping):
        if "function" in action and isinstance(action["function"], Mapping):
            action = action["function"]
        name = action.get("name")
        return (str(name) if name is not None else ""), action.get("arguments", {})
    name = getattr(action, "name", None)
    if name is not None:
        return str(name), getattr(action, "arguments", {})
    return "", None


def _stringify_answer(raw_args: Any) -> Any:
    """Let ``submit`` accept a structured answer (number, list, table) by JSON-encoding it."""
    if isinstance(raw_args, str):
        try:
            raw_args = json.loads(raw_args)
        except (ValueError, RecursionError):
            return raw_args
    if (
        isinstance(raw_args, Mapping)
        and "answer" in raw_args
        and not isinstance(raw_args["answer"], str)
    ):
        value = raw_args["answer"]
        try:
            text = json.dumps(value, allow_nan=False)
        except (TypeError, ValueError, RecursionError):
            # not one JSON value (or nested past the interpreter's limit): graded as the
            # malformed text it is, never an exception in the grader
            text = "<an answer that is not a JSON value>"
        return {**raw_args, "answer": text}
    return raw_args


def _utf8_safe(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with every lone surrogate replaced by "?". JSON's ``"\\ud800"`` escape puts
    one in an action's arguments, and from there in observations (an error quoting a path, a
    file name); the run's store, the export and the report write UTF-8, which cannot hold it."""
    text = json.dumps(record, ensure_ascii=False, default=str)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return dict(json.loads(text.encode("utf-8", "replace").decode("utf-8")))
    return record


def _recordable(arguments: Any) -> Any:
    try:
        text = json.dumps(arguments, allow_nan=False)
    except (TypeError, ValueError):
        try:
            return repr(arguments)[:_MAX_RECORDED_ARG_CHARS]
        except RecursionError:
            return "<arguments nested too deeply to record>"
    except RecursionError:
        return "<arguments nested too deeply to record>"
    if len(text) > _MAX_RECORDED_ARG_CHARS:
        return {"_truncated": True, "prefix": text[:_MAX_RECORDED_ARG_CHARS]}
    return arguments


def _read_episode(path: Path) -> dict[str, Any]:
    try:
        data = json.loads((path / EPISODE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path} is not an episode snapshot ({EPISODE_FILE} unreadable)") from exc
    if data.get("schema_version") != SCHEMA_VERSION or "task_id" not in data:
        raise ValueError(f"{path}: unsupported episode snapshot")
    return dict(data)


def make(
    task_id: str,
    *,
    scale: float | None = None,
    agent_name: str = "unknown",
    render_mode: str | None = None,
) -> Env:
    """The environment for ``task_id``; ``scale`` overrides the id's scale.

    Unknown or malformed ids raise ``ValueError`` naming the closest known families.
    ``render_mode`` exists for ``gymnasium.make``; only None is accepted.
    """
    if render_mode is not None:
        raise ValueError(f"replica environments do not render (render_mode={render_mode!r})")
    try:
        tid = TaskId.parse(task_id)
    except ValueError as exc:
        guess = str(task_id).split(".s", 1)[0] if isinstance(task_id, str) else ""
        close = difflib.get_close_matches(guess, family_names(), n=3, cutoff=0.4)
        hint = f"; close families: {', '.join(close)}" if close else ""
        raise ValueError(f"{exc}{hint}") from None
    if scale is not None:
        tid = replace(tid, scale=float(scale))
    task = build_task(tid)
    return Env(task, agent_name=agent_name)


def _integrity_problems(snapshot: SnapshotLike) -> list[str]:
    """What :meth:`replicas.build.Snapshot.verify` finds wrong (snapshots of other kinds — a
    test double, a user's object — have no integrity record and are taken as they are)."""
    verify = getattr(snapshot, "verify", None)
    return list(verify()) if callable(verify) else []


def _isolation(task: Task) -> str:
    """How agent-controlled processes of this task run: ``bubblewrap``, ``unsafe-none`` (the
    user's explicit opt-out), ``unavailable``, or ``none-needed`` (no dbt tool)."""
    if "dbt" not in task.tools:
        return "none-needed"
    try:
        return osbox.isolation_mode()
    except osbox.OsSandboxUnavailable:
        return "unavailable"
