"""Everything the checks of one task share: the task, its family and snapshot, and the episodes.

Episodes are the expensive part (a dbt task's grading rebuilds models with dbt), so each is
played at most once per task and reused by every check that needs it:

- the **oracle** episode is check 1 (oracle passes), the "fixed project passes" of the dbt
  check, and — its sandbox kept open until the context closes — the place where determinism
  re-grades the oracle answer and discrimination grades the wrong readings;
- the **null** episode is check 2 and the "broken project fails" of the dbt check;
- the **adversary** episodes (one per strategy of ``replicas.agents.adversary``) are check 3.

Grading of dbt tasks with the default grader depends only on the files of the agent's project
(the submitted text is ignored), so a verdict is memoised per (snapshot, task verifier, project
content): an adversary that leaves the broken project untouched costs no second dbt rebuild.
The determinism check re-grades without the memo, so the memo never hides a flaky grader.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from replicas.tasks import Task, TaskFamily, get_family
from replicas.tasks.grading import GradeContext
from replicas.verifiers.verdict import Verdict, fail

if TYPE_CHECKING:
    from replicas.env import Env
    from replicas.tasks._snapshot import SnapshotLike


@dataclass(frozen=True)
class AuditOptions:
    """How thoroughly to screen (shared by every task of one audit).

    ``extra_seeds``: other seeds the seed-sensitivity check builds the family on.
    ``seed_pool``: replica → seeds already in the audit (preferred as extra seeds: their
    snapshots are built anyway). ``grade_repeats``: how often the oracle answer is graded in
    total for the determinism check (``dbt_grade_repeats`` for dbt tasks, whose every grading is
    a dbt rebuild). ``reuse_dbt_grading``: memoise dbt verdicts by project content (see module).
    """

    extra_seeds: int = 2
    seed_pool: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    grade_repeats: int = 5
    dbt_grade_repeats: int = 2
    reuse_dbt_grading: bool = True

    def __post_init__(self) -> None:
        for name in ("extra_seeds",):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be an int >= 0, got {value!r}")
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
            "reuse_dbt_grading": self.reuse_dbt_grading,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AuditOptions:
        return cls(
            extra_seeds=int(data.get("extra_seeds", 2)),
            seed_pool={k: tuple(v) for k, v in dict(data.get("seed_pool", {})).items()},
            grade_repeats=int(data.get("grade_repeats", 5)),
            dbt_grade_repeats=int(data.get("dbt_grade_repeats", 2)),
            reuse_dbt_grading=bool(data.get("reuse_dbt_grading", True)),
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
    memo_hit: bool = False
    wall_s: float = 0.0

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
        extra = " (grading reused)" if self.memo_hit else ""
        return f"{self.label()}: score {self.score:g}, passed={self.passed}, reasons [{codes}]{extra}"


# --------------------------------------------------------------------------------------------
# grading: the family's own grader, optionally memoised for dbt tasks

_MEMO: dict[str, Verdict] = {}
_MEMO_LOCK = threading.Lock()
_MEMO_MAX = 2048


def _uses_default_grade(family: TaskFamily) -> bool:
    return type(family).grade is TaskFamily.grade


def project_fingerprint(project_dir: Path) -> str:
    """Content hash of what grading copies from a project (build output dirs excluded)."""
    from replicas.sandbox import SKIP_PROJECT_DIRS

    digest = hashlib.sha256()
    root = Path(project_dir)
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        rel_dir = Path(dirpath).relative_to(root)
        if rel_dir == Path("."):
            dirnames[:] = [d for d in dirnames if d not in SKIP_PROJECT_DIRS]
        dirnames.sort()
        for name in [*sorted(filenames), *[d for d in dirnames if (Path(dirpath) / d).is_symlink()]]:
            full = Path(dirpath) / name
            rel = (rel_dir / name).as_posix()
            digest.update(rel.encode() + b"\0")
            if full.is_symlink():
                digest.update(b"symlink:" + os.readlink(full).encode() + b"\0")
            elif full.is_file():
                digest.update(hashlib.sha256(full.read_bytes()).digest())
    return digest.hexdigest()


def _snapshot_identity(snapshot: SnapshotLike) -> str:
    manifest = json.dumps(snapshot.manifest, sort_keys=True, default=str)
    return hashlib.sha256(f"{Path(snapshot.warehouse).resolve()}\0{manifest}".encode()).hexdigest()


class GradingFamily:
    """Stands in for the task's family inside ``Env``: grades with the family's own grader,
    memoising default dbt grading by project content. Env only calls ``grade`` and reads
    ``name``."""

    def __init__(self, family: TaskFamily, snapshot: SnapshotLike, *, memo: bool) -> None:
        self.family = family
        self.name = family.name
        self._snapshot = snapshot
        self._memo = memo
        self.last_memo_hit = False

    def _memo_key(self, task: Task, ctx: GradeContext) -> str | None:
        if not self._memo or task.answer_kind != "dbt" or not _uses_default_grade(self.family):
            return None
        parts = [
            self.family.name,
            _snapshot_identity(self._snapshot),
            json.dumps(task.verifier.to_dict(), sort_keys=True),
            project_fingerprint(ctx.project_dir),
        ]
        return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()

    def grade(self, task: Task, answer: str, ctx: GradeContext) -> Verdict:
        self.last_memo_hit = False
        key = self._memo_key(task, ctx)
        if key is not None:
            with _MEMO_LOCK:
                cached = _MEMO.get(key)
            if cached is not None:
                self.last_memo_hit = True
                return cached
        verdict = self.family.grade(task, answer, ctx)
        if key is not None and isinstance(verdict, Verdict):
            with _MEMO_LOCK:
                if len(_MEMO) >= _MEMO_MAX:
                    _MEMO.clear()
                _MEMO[key] = verdict
        return verdict


def clear_grading_memo() -> None:
    with _MEMO_LOCK:
        _MEMO.clear()


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
        self._grader: GradingFamily | None = None
        self._episodes: dict[tuple[str, str | None], EpisodeRun] = {}
        self._oracle_env: Env | None = None
        self._adversary: list[EpisodeRun] | None = None

    # ---- basics --------------------------------------------------------------------------

    @property
    def snapshot(self) -> SnapshotLike:
        if self._snapshot is None:
            from replicas.tasks.loader import load_snapshot

            self._snapshot = load_snapshot(self.task.replica, self.task.seed, self.task.scale)
        return self._snapshot

    @property
    def grader(self) -> GradingFamily:
        if self._grader is None:
            self._grader = GradingFamily(
                self.family, self.snapshot, memo=self.options.reuse_dbt_grading
            )
        return self._grader

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

    def _play(self, agent_spec: str, strategy: str | None = None, *, keep: bool = False) -> EpisodeRun:
        from replicas.agents import get_agent
        from replicas.env import Env

        key = (agent_spec, strategy)
        if key in self._episodes:
            return self._episodes[key]
        agent = get_agent(agent_spec)
        env = Env.from_task(
            self.task,
            agent_name=f"audit-{agent_spec}",
            snapshot=self.snapshot,
            family=self.grader,  # type: ignore[arg-type]  # duck-typed: Env needs grade + name
        )
        started = time.perf_counter()
        self.grader.last_memo_hit = False
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
            breaches=breaches,
            error=error,
            memo_hit=self.grader.last_memo_hit,
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
            from replicas.agents import get_agent

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
        )
        try:
            yield ctx
        finally:
            ctx.close()

    def grade_on_oracle_sandbox(self, answer: str, *, memo: bool = False) -> Verdict:
        """Grade ``answer`` with the family's grader in the oracle's (finished) sandbox.

        Without ``memo`` this always runs the grader (determinism re-grades must)."""
        grader = self.grader if memo else self.family
        with self._oracle_grade_context() as ctx:
            try:
                verdict = grader.grade(self.task, answer, ctx)
            except Exception as exc:  # what Env does: a grader crash is a failed verdict
                return fail("grading_error", f"grading failed: {type(exc).__name__}: {exc}")
        if not isinstance(verdict, Verdict):
            return fail("grading_error", f"grade returned {type(verdict).__name__}")
        return verdict
