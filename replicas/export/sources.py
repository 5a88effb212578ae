"""Where exported conversations come from: oracle demonstrations and verified run trajectories.

- :func:`oracle_conversations` — for each family × seed × variant, the task's oracle tool calls
  are played in a real episode (:mod:`replicas.export.replay`): every observation is what the
  tool actually answered, and the demonstration is kept only when the episode scores 1.0. The
  natural-language final answer (:mod:`replicas.export.phrasing`) must pass the replica's
  grounding check (the compliance verifier for credit_cards) or the task is skipped.
- :func:`run_conversations` — rejection sampling over run directories (``replicas run``): an
  episode is kept when its recorded score is at least ``min_score`` and its trajectory is whole,
  of the current schema, for the current task, free of malformed calls and not an adversary's.

Nothing is dropped silently: every skip lands in a :class:`~replicas.export.skips.SkipLog`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from replicas.agents.openai_chat import SYSTEM_PROMPT
from replicas.export.conversation import SUBMIT, Conversation, ToolTurn
from replicas.export.episodes import EpisodeCache
from replicas.export.phrasing import final_answer_text, grounding_problem
from replicas.export.replay import replay
from replicas.export.skips import SkipLog
from replicas.records.trajectory import SCHEMA_VERSION, validate_trajectory
from replicas.runner import RESULTS_FILE, read_results, read_trajectory
from replicas.tasks import get_family, task_from_id
from replicas.tasks.base import DEFAULT_SCALE, TaskId
from replicas.tools import get_tool, tool_schemas, validate_arguments

if TYPE_CHECKING:
    from replicas.tasks import Task

Progress = Callable[[str], None]


def default_system_prompt() -> str:
    """The system prompt of the kit's chat agent, so a tuned model is prompted as it was trained."""

    return SYSTEM_PROMPT


def _call_id(index: int) -> str:
    return f"call_{index}"


def _final_content(task: Task, answer: str, skips: SkipLog) -> str | None:
    """The phrased final answer, or None (and a skip) when it is not grounded."""
    content = final_answer_text(task, answer)
    problem = grounding_problem(task, content)
    if problem is not None:
        skips.add("ungrounded_answer", f"{task.id}: {problem}")
        return None
    return content


# --------------------------------------------------------------------------------------------
# oracle demonstrations


@dataclass(frozen=True)
class OracleSpec:
    """Which demonstrations to make: families × seeds × variants (all, or the first N)."""

    families: tuple[str, ...]
    seeds: tuple[int, ...]
    variants_per_seed: int | None = None
    scale: float = DEFAULT_SCALE

    def __post_init__(self) -> None:
        if not self.families:
            raise ValueError("oracle demonstrations need at least one family")
        if not self.seeds or len(set(self.seeds)) != len(self.seeds):
            raise ValueError("oracle demonstrations need distinct seeds")
        if any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in self.seeds):
            raise ValueError(f"seeds must be ints >= 0, got {self.seeds}")
        if self.variants_per_seed is not None and self.variants_per_seed < 1:
            raise ValueError("variants_per_seed must be >= 1")
        if self.scale <= 0:
            raise ValueError("scale must be positive")

    def task_ids(self) -> list[TaskId]:
        """Every task id of the spec (families must be registered)."""

        ids: list[TaskId] = []
        for seed in self.seeds:
            for name in self.families:
                n = get_family(name).variants(seed)
                if self.variants_per_seed is not None:
                    n = min(n, self.variants_per_seed)
                ids.extend(TaskId(name, seed, v, self.scale) for v in range(n))
        return ids


def fresh_seeds(count: int, start: int, avoid: set[int]) -> tuple[int, ...]:
    """The first ``count`` seeds >= ``start`` not in ``avoid`` (e.g. a suite's own seeds)."""
    if count < 1:
        raise ValueError(f"--seeds must be >= 1, got {count}")
    if start < 0:
        raise ValueError(f"the first seed must be >= 0, got {start}")
    seeds: list[int] = []
    seed = start
    while len(seeds) < count:
        if seed not in avoid:
            seeds.append(seed)
        seed += 1
    return tuple(seeds)


def demonstrate(
    task: Task, system: str, skips: SkipLog, episodes: EpisodeCache | None = None
) -> Conversation | None:
    """The oracle demonstration of ``task`` from a real episode, or None (skip recorded).

    With ``episodes``, an identical solved play already made (this export, or an earlier one
    when the cache has a directory) is reused instead of played again.
    """
    calls = [(c.name, dict(c.arguments)) for c in task.oracle]
    try:
        if episodes is None:
            result = replay(task, calls, agent_name="oracle")
        else:
            result = episodes.replay(task, calls, agent_name="oracle")
    except Exception as exc:  # an environment that cannot be set up costs this task only
        skips.add("episode_failed", f"{task.id}: {type(exc).__name__}: {exc}")
        return None
    if not result.solved or result.score < 1.0 or len(result.observations) != len(calls):
        why = ", ".join(result.reasons) or f"score {result.score}"
        skips.add("oracle_not_solved", f"{task.id}: {why}")
        return None
    content = _final_content(task, str(calls[-1][1].get("answer", "")), skips)
    if content is None:
        return None
    turns = [
        ToolTurn(_call_id(i), name, args, result.observations[i])
        for i, (name, args) in enumerate(calls[:-1])
    ]
    turns.append(ToolTurn(_call_id(len(calls) - 1), calls[-1][0], calls[-1][1], None, content))
    return Conversation.of_task(
        task,
        source="oracle",
        agent="oracle",
        score=float(result.score),
        system=system,
        tools=result.tools,
        turns=tuple(turns),
        origin="oracle",
    )


def oracle_conversations(
    spec: OracleSpec,
    system: str,
    skips: SkipLog,
    progress: Progress | None = None,
    *,
    episodes: EpisodeCache | None = None,
    workers: int = 1,
) -> Iterator[Conversation]:
    """Demonstrations for every task of ``spec`` (tasks that cannot be built are skipped).

    ``workers > 1`` plays them in that many processes (``replicas.export.workers``); the
    conversations and skips come out in task order either way.
    """
    from replicas.export.workers import demonstrations, from_wire, replay_events

    cache = episodes if episodes is not None else EpisodeCache()
    ids = [str(tid) for tid in spec.task_ids()]
    for result in demonstrations(ids, system, cache, workers, progress):
        replay_events(result.events, skips)
        if result.value is not None:
            yield from_wire(result.value)


# --------------------------------------------------------------------------------------------
# run directories


class RunSourceError(ValueError):
    """A --run argument that is not a run directory at all (a usage error, not a skip)."""


def check_run_dir(run_dir: Path) -> None:
    """RunSourceError unless ``run_dir`` is an existing run directory with results.jsonl."""

    if not run_dir.exists():
        raise RunSourceError(f"run directory {run_dir} does not exist")
    if not run_dir.is_dir():
        raise RunSourceError(f"{run_dir} is not a directory")
    if not (run_dir / RESULTS_FILE).is_file():
        raise RunSourceError(f"{run_dir} is not a run directory: it has no {RESULTS_FILE}")


def _steps_to_turns(
    steps: Sequence[Mapping[str, Any]], offered: Sequence[str]
) -> tuple[list[tuple[str, dict[str, Any], str]], str | None]:
    """(name, arguments, observation) per step, or a reason the trajectory is unusable.

    A call the tool's schema rejects (unknown tool, arguments that did not parse or do not fit)
    would teach the model a malformed call, so such trajectories are not exported; a valid call
    whose tool answered with an error (a failing query) is kept: recovering from it is useful.
    """

    out: list[tuple[str, dict[str, Any], str]] = []
    for i, step in enumerate(steps):
        name, args = str(step.get("tool", "")), step.get("arguments")
        tool = get_tool(name)
        if name not in offered or tool is None:
            return [], f"step {i} calls {name!r}, which the task does not offer"
        if not isinstance(args, dict) or "_truncated" in args:
            return [], f"step {i} has arguments that are not a JSON object"
        _, problem = validate_arguments(tool, args)
        if problem is not None:
            return [], f"step {i}: {problem}"
        if name == SUBMIT and i != len(steps) - 1:
            return [], f"step {i} submits before the last step"
        out.append((name, args, str(step.get("observation", ""))))
    if not out or out[-1][0] != SUBMIT:
        return [], "the episode does not end with submit"
    return out, None


def _run_conversation(
    run_dir: Path, record: Mapping[str, Any], min_score: float, system: str, skips: SkipLog
) -> Conversation | None:

    where = f"{run_dir.name}/{record.get('trajectory', '?')}"
    if record.get("strategy"):
        skips.add("adversary_episode", where)  # a passing hack is exactly what not to teach
        return None
    if record.get("error"):
        skips.add("agent_error", where)
        return None
    if float(record.get("score", 0.0)) < min_score:
        skips.add("below_min_score", where)
        return None
    try:
        traj = read_trajectory(run_dir, record)
    except (OSError, ValueError) as exc:
        skips.add("missing_trajectory", f"{where}: {exc}")
        return None
    if traj.get("schema_version") != SCHEMA_VERSION:
        found = traj.get("schema_version")
        skips.add("old_schema_version", f"{where}: schema_version {found}, need {SCHEMA_VERSION}")
        return None
    problems = validate_trajectory(traj)
    if problems:
        skips.add("invalid_trajectory", f"{where}: {problems[0]}")
        return None
    if traj["task_id"] != record.get("task_id") or traj.get("outcome") != "submitted":
        skips.add("invalid_trajectory", f"{where}: task id or outcome does not match its record")
        return None
    verdict_score = float((traj.get("verdict") or {}).get("score", 0.0))
    if verdict_score < min_score:
        skips.add("below_min_score", where)
        return None
    try:
        task = task_from_id(str(traj["task_id"]))
    except Exception as exc:  # an unknown or unbuildable task must not stop the export
        skips.add("task_unavailable", f"{where}: {type(exc).__name__}: {exc}")
        return None
    if traj.get("instruction") != task.instruction:
        skips.add("stale_task", f"{where}: the task's instruction changed since the run")
        return None
    steps, problem = _steps_to_turns(traj["steps"], task.tools)
    if problem is not None:
        skips.add("malformed_call", f"{where}: {problem}")
        return None
    answer = str(steps[-1][1].get("answer", ""))
    content = _final_content(task, answer, skips)
    if content is None:
        return None

    turns = [ToolTurn(_call_id(i), n, a, o) for i, (n, a, o) in enumerate(steps[:-1])]
    turns.append(ToolTurn(_call_id(len(steps) - 1), SUBMIT, steps[-1][1], None, content))
    return Conversation.of_task(
        task,
        source="run",
        agent=str(record.get("agent", traj.get("agent", "unknown"))),
        score=min(float(record.get("score", 0.0)), verdict_score),
        system=system,
        tools=tuple(tool_schemas(task.tools)),
        turns=tuple(turns),
        origin=where,
    )


def run_conversations(
    run_dirs: Sequence[Path],
    min_score: float,
    system: str,
    skips: SkipLog,
    progress: Progress | None = None,
) -> Iterator[Conversation]:
    """Kept episodes of every run directory, in directory then file order.

    Raises :class:`RunSourceError` up front for a path that is not a run directory; torn and
    foreign result lines are counted as skips (``read_results`` already sets them aside).
    """

    dirs = [Path(d) for d in run_dirs]
    for run_dir in dirs:
        check_run_dir(run_dir)
    for run_dir in dirs:
        read = read_results(run_dir)
        if read.torn_tail:
            skips.add("torn_result_line", f"{run_dir.name}: last line of results.jsonl is torn")
        skips.add(
            "foreign_result_line",
            f"{run_dir.name}: lines {list(read.bad_lines)[:10]}",
            n=len(read.bad_lines),
        )
        for record in read.records:
            if progress is not None:
                progress(str(record.get("task_id")))
            conversation = _run_conversation(run_dir, record, min_score, system, skips)
            if conversation is not None:
                yield conversation
