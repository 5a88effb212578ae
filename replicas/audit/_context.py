"""Everything the checks of one task share: the task, its family and snapshot, and the episodes.

Episodes are the expensive part (a dbt task's grading rebuilds models with dbt), so each is
played at most once per task and reused by every check that needs it:

- the **oracle** episode is check 1 (oracle passes), the "fixed project passes" of the dbt
  check, and — its sandbox kept open until the context closes — the place where determinism
  re-grades the oracle answer and discrimination grades the wrong readings;
- the **null** episode is check 2 and the "broken project fails" of the dbt check;
- the **adversary** episodes (one per strategy of ``replicas.agents.adversary``) are check 3.

The runtime memoises dbt verdicts by project content (``replicas.tasks.grading.grade_dbt``), so an
adversary that leaves the broken project untouched costs no second dbt rebuild; the determinism
check re-grades past that cache, so it never hides a flaky grader.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from replicas.agents import get_agent
from replicas.env import Env
from replicas.tasks import Task, TaskFamily, get_family, grading
from replicas.tasks.grading import GradeContext
from replicas.tasks.loader import load_snapshot
from replicas.verifiers.verdict import Verdict, fail

if TYPE_CHECKING:
    from replicas.env import Env
    from replicas.protocols import SnapshotLike


@dataclass(frozen=True)
class AuditOptions:
    """How thoroughly to screen (shared by every task of one audit).

    ``extra_seeds``: other seeds the seed-sensitivity check builds the family on.
    ``seed_pool``: replica → seeds already in the audit (preferred as extra seeds: their
    snapshots are built anyway). ``grade_repeats``: how often the oracle answer is graded in
    total for the determinism check (``dbt_grade_repeats`` for dbt tasks, whose every grading is
    a dbt rebuild).
    """

    extra_seeds: int = 2
    seed_pool: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    grade_repeats: int = 5
    dbt_grade_repeats: int = 2

    def __post_init__(self) -> None:
        seeds = self.extra_seeds
        if isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 0:
            raise ValueError(f"extra_seeds must be an int >= 0, got {seeds!r}")
        for name in ("grade_repeats", "dbt_grade_repeats"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 2:
                raise ValueError(f"{name} must be an int >= 2 (a repeat needs two), got {value!r}")
        pool = {str(k): tuple(sorted({int(s) for s in v})) for k, v in dict(self.seed_pool).items()}
        object.__setattr__(self, "seed_pool", pool)

    def to_dict(self) -> dict[str, Any]:
        return {
            "extra_seeds": self.extra_seeds,
            "seed_pool": {k: list(v) for k, v in self.seed_pool.items()},
            "grade_repeats": self.grade_repeats,
            "dbt_grade_repeats": self.dbt_grade_repeats,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AuditOptions:
        return cls(
            extra_seeds=int(data.get("extra_seeds", 2)),
            seed_pool={k: tuple(v) for k, v in dict(data.get("seed_pool", {})).items()},
            grade_repeats=int(data.get("grade_repeats", 5)),
            dbt_grade_repeats=int(data.get("dbt_grade_repeats", 2)),
        )


@dataclass(frozen=True)
class EpisodeRun:
    """One played episode, reduced to what checks judge."""

    agent: str
    strategy: str | None
    verdict: Verdict | None
    outcome: str
    answer: str | None
    steps: int
    breaches: tuple[str, ...] = ()
    error: str | None = None
    wall_s: float = 0.0
    #: (tool, arguments, observation) of every step, in order (what the conversation showed).
    calls: tuple[tuple[str, Any, str], ...] = ()

    @property
    def score(self) -> float:
        return float(self.verdict.score) if self.verdict is not None else 0.0

    @property
    def passed(self) -> bool:
        return bool(self.verdict.passed) if self.verdict is not None else False

    @property
    def reason_codes(self) -> list[str]:
        return [r.code for r in self.verdict.reasons] if self.verdict is not None else []

    def label(self) -> str:
        return self.agent + (f":{self.strategy}" if self.strategy else "")

    def describe(self) -> str:
        codes = ",".join(self.reason_codes) or "-"
        return f"{self.label()}: score {self.score:g}, passed={self.passed}, reasons [{codes}]"


# --------------------------------------------------------------------------------------------
# grading outside an episode


def _forget_cached_dbt_verdicts() -> None:
    """Empty the runtime's dbt verdict cache (``replicas.tasks.grading``), if it has one.

    There is no public switch for it yet; the names are looked up defensively so a change on the
    runtime side degrades to "re-grade may be served from cache", never to a crash.
    """

    cache = getattr(grading, "_VERDICT_CACHE", None)
    lock = getattr(grading, "_CACHE_LOCK", None)
    if cache is None or not hasattr(cache, "clear"):
        return
    if lock is not None:
        with lock:
            cache.clear()
    else:
        cache.clear()


def grade_uncached(family: TaskFamily, task: Task, answer: str, ctx: GradeContext) -> Verdict:
    """Run the family's grader for real, past the runtime's dbt verdict cache.

    ``replicas.tasks.grading.grade_dbt`` memoises verdicts by project content (so the audit's
    null and adversary episodes that leave the broken project untouched cost no extra dbt
    rebuild); a determinism re-grade must not be served from that cache.
    """
    if task.answer_kind == "dbt" or task.writes_warehouse:
        _forget_cached_dbt_verdicts()
    return family.grade(task, answer, ctx)


# --------------------------------------------------------------------------------------------
# the context


def _submitted_answer(trajectory: Mapping[str, Any]) -> str | None:
    for step in reversed(trajectory.get("steps", [])):
        if step.get("tool") == "submit" and not step.get("error"):
            args = step.get("arguments")
            if isinstance(args, Mapping) and isinstance(args.get("answer"), str):
                return str(args["answer"])
    return None


def oracle_answer(task: Task) -> str:
    """The answer text the oracle submits (its last call is always ``submit``)."""
    return str(task.oracle[-1].arguments.get("answer", ""))


class AuditContext:
    """One task under audit. Close it (or use ``with``) to release the oracle's sandbox."""

    def __init__(
        self,
        task: Task,
        options: AuditOptions | None = None,
        *,
        family: TaskFamily | None = None,
        snapshot: SnapshotLike | None = None,
    ) -> None:
        self.task = task
        self.options = options or AuditOptions()
        self.family = family or get_family(task.family)
        self._snapshot = snapshot
        self._episodes: dict[tuple[str, str | None], EpisodeRun] = {}
        self._oracle_env: Env | None = None
        self._adversary: list[EpisodeRun] | None = None

    # ---- basics --------------------------------------------------------------------------

    @property
    def snapshot(self) -> SnapshotLike:
        if self._snapshot is None:
            self._snapshot = load_snapshot(self.task.replica, self.task.seed, self.task.scale)
        return self._snapshot

    @property
    def is_dbt(self) -> bool:
        return self.task.answer_kind == "dbt"

    def close(self) -> None:
        env, self._oracle_env = self._oracle_env, None
        if env is not None:
            env.close()

    def __enter__(self) -> AuditContext:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- episodes ------------------------------------------------------------------------

    def _play(
        self, agent_spec: str, strategy: str | None = None, *, keep: bool = False
    ) -> EpisodeRun:

        key = (agent_spec, strategy)
        if key in self._episodes:
            return self._episodes[key]
        agent = get_agent(agent_spec)
        env = Env.from_task(
            self.task,
            agent_name=f"audit-{agent_spec}",
            snapshot=self.snapshot,
            family=self.family,
        )
        started = time.perf_counter()
        breaches: tuple[str, ...] = ()
        error: str | None = None
        try:
            try:
                outcome = agent.run_episode(env, strategy=strategy)
                breaches = tuple(str(b) for b in outcome.extra.get("breach", ()) or ())
                error = outcome.error
            except Exception as exc:  # a crashing agent is evidence, not an audit crash
                error = f"{type(exc).__name__}: {exc}"
            trajectory = env.trajectory()
        finally:
            if not keep:
                env.close()
        if keep:
            self._oracle_env = env
        verdict_data = trajectory.get("verdict")
        run = EpisodeRun(
            agent=agent_spec,
            strategy=strategy,
            verdict=Verdict.from_dict(verdict_data) if isinstance(verdict_data, dict) else None,
            outcome=str(trajectory.get("outcome", "")),
            answer=_submitted_answer(trajectory),
            steps=len(trajectory.get("steps", [])),
            calls=tuple(
                (str(st.get("tool", "")), st.get("arguments"), str(st.get("observation", "")))
                for st in trajectory.get("steps", [])
            ),
            breaches=breaches,
            error=error,
            wall_s=time.perf_counter() - started,
        )
        self._episodes[key] = run
        return run

    def oracle(self) -> EpisodeRun:
        """The oracle's episode; its sandbox stays open for :meth:`grade_on_oracle_sandbox`."""
        return self._play("oracle", keep=True)

    def null(self) -> EpisodeRun:
        return self._play("null")

    def adversary(self) -> list[EpisodeRun]:
        """One episode per adversary strategy that applies to the task."""
        if self._adversary is None:
            plan = [s for s in get_agent("adversary").plan(self.task) if s]
            self._adversary = [self._play("adversary", s) for s in plan]
        return self._adversary

    # ---- extra gradings ------------------------------------------------------------------

    @contextlib.contextmanager
    def _oracle_grade_context(self) -> Iterator[GradeContext]:
        self.oracle()
        env = self._oracle_env
        if env is None or env.sandbox is None:
            raise RuntimeError("the oracle episode's sandbox is gone")
        sandbox = env.sandbox
        sandbox.release_connection()
        ctx = GradeContext(
            snapshot=self.snapshot,
            sandbox_root=sandbox.root,
            project_dir=sandbox.project_dir,
            warehouse=sandbox.warehouse if sandbox.writes else None,
            dbt_timeout_s=max(self.task.limits.dbt_timeout_s, 300.0),
            start_project=sandbox.start_template if sandbox.writes else None,
        )
        try:
            yield ctx
        finally:
            ctx.close()

    def grade_on_oracle_sandbox(self, answer: str, *, cached: bool = True) -> Verdict:
        """Grade ``answer`` with the family's grader in the oracle's (finished) sandbox.

        ``cached=False`` bypasses the runtime's dbt verdict cache (determinism re-grades)."""
        with self._oracle_grade_context() as ctx:
            try:
                if cached:
                    verdict = self.family.grade(self.task, answer, ctx)
                else:
                    verdict = grade_uncached(self.family, self.task, answer, ctx)
            except Exception as exc:  # what Env does: a grader crash is a failed verdict
                return fail("grading_error", f"grading failed: {type(exc).__name__}: {exc}")
        if not isinstance(verdict, Verdict):
            return fail("grading_error", f"grade returned {type(verdict).__name__}")
        return verdict
