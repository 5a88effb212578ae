"""Task families: parameterised task templates that build :class:`Task` instances.

A family is one module under ``replicas/families/<replica>/``, registered where it is defined::

    from replicas.tasks import BuildContext, Task, TaskFamily, VerifierConfig, register_family, sql, submit

    @register_family
    class RevenuePeriod(TaskFamily):
        name = "ecommerce.revenue_period-v1"      # <replica>.<name>-v<N>; bump N on behaviour change
        replica = "ecommerce"
        description = "Net revenue in USD for one month or quarter, every definition stated."
        difficulty = "medium"
        n_variants = 4                            # variants 0..3 per seed

        def make(self, ctx: BuildContext) -> Task:
            year = int(ctx.rng("year").integers(2024, 2026))          # all randomness from ctx.rng
            truth = ctx.scalar(f"select round(sum(...), 2) from raw.orders where ...")
            gross = ctx.scalar("...")                                  # a plausible wrong reading
            return ctx.task(
                instruction=f"... Submit only the number.",
                answer_kind="number",
                expected=truth,
                verifier=VerifierConfig(abs_tol=0.01),
                oracle=(sql("select ..."), submit(f"{truth:.2f}")),
                wrong_readings={"gross_instead_of_net": gross},
            )

``build`` calls ``make`` with ``ctx.attempt = 0, 1, …`` (which reseeds ``ctx.rng``) until every
wrong reading FAILS the task's own verifier, so a task always discriminates the readings it names.
Grading defaults to the answer verifier of the task's ``answer_kind`` (``verifiers/answers.py``)
or, for ``dbt`` tasks, to rebuild-and-compare (``replicas/tasks/grading.py``); override
``grade`` for anything else (e.g. the compliance verifier).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from replicas.db import readonly_connection
from replicas.protocols import SnapshotLike
from replicas.seeding import table_rng
from replicas.tasks.base import (
    DBT_TOOLS,
    DEFAULT_SCALE,
    READ_ONLY_TOOLS,
    AnswerKind,
    Difficulty,
    Limits,
    Task,
    ToolCall,
    format_task_id,
)
from replicas.tasks.grading import default_grade
from replicas.tasks.values import json_value, table_value
from replicas.verifiers.answers import check_answer
from replicas.verifiers.config import VerifierConfig, tolerance_sentence

if TYPE_CHECKING:
    from replicas.tasks.grading import GradeContext
    from replicas.verifiers.verdict import Verdict


class TaskBuildError(RuntimeError):
    """A family could not produce a valid, discriminating task for (seed, variant)."""


@dataclass(frozen=True)
class BuildContext:
    """Everything ``TaskFamily.make`` may use: the pristine snapshot, seeded randomness, queries."""

    family: TaskFamily
    snapshot: SnapshotLike
    seed: int
    variant: int
    attempt: int = 0

    @property
    def scale(self) -> float:
        return float(self.snapshot.scale)

    def rng(self, *salt: str | int) -> np.random.Generator:
        """A random stream derived from (seed, family, variant, attempt, *salt) only."""
        return table_rng(self.seed, self.family.name, self.variant, self.attempt, *salt)

    def query(self, sql: str, params: Sequence[Any] | None = None) -> list[tuple[Any, ...]]:
        """Rows of ``sql`` on the pristine snapshot (read-only connection, JSON-native values)."""

        cur = readonly_connection(self.snapshot.warehouse).cursor()
        try:
            rows = cur.execute(sql, params or []).fetchall()
        finally:
            cur.close()
        return [tuple(json_value(v) for v in row) for row in rows]

    def scalar(self, sql: str, params: Sequence[Any] | None = None) -> Any:
        """The single value of a one-row, one-column query (ValueError otherwise)."""
        rows = self.query(sql, params)
        if len(rows) != 1 or len(rows[0]) != 1:
            raise ValueError(f"scalar query returned {len(rows)} rows: {sql[:200]}")
        return rows[0][0]

    def table(self, sql: str, params: Sequence[Any] | None = None) -> dict[str, Any]:
        """An expected table ``{"columns", "rows"}`` from a query on the pristine snapshot."""

        cur = readonly_connection(self.snapshot.warehouse).cursor()
        try:
            result = cur.execute(sql, params or [])
            columns = [d[0] for d in result.description or []]
            rows = result.fetchall()
        finally:
            cur.close()
        return table_value(columns, rows)

    def project_file(self, relpath: str) -> str:
        """Text of a file of the pristine dbt project (e.g. to derive a bug patch or an oracle)."""
        root = Path(self.snapshot.dbt_project).resolve()
        path = (root / relpath).resolve()
        if root not in path.parents:
            raise ValueError(f"{relpath!r} is not inside the dbt project")
        return path.read_text(encoding="utf-8")

    def task(
        self,
        *,
        instruction: str,
        answer_kind: AnswerKind,
        oracle: Sequence[ToolCall],
        expected: Any = None,
        verifier: VerifierConfig | None = None,
        wrong_readings: Mapping[str, Any] | None = None,
        tools: Sequence[str] | None = None,
        difficulty: Difficulty | None = None,
        writes_warehouse: bool | None = None,
        sandbox_patch: Mapping[str, str] | None = None,
        withheld: Sequence[str] = (),
        limits: Limits | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Task:
        """A :class:`Task` with id, replica, family, seed, scale and variant filled in.

        Defaults: tools = read-only set (``DBT_TOOLS`` for dbt tasks); difficulty = the family's;
        writes_warehouse = ``answer_kind == "dbt"``.
        """
        is_dbt = answer_kind == "dbt"
        return Task(
            id=format_task_id(self.family.name, self.seed, self.variant, self.scale),
            replica=self.family.replica,
            family=self.family.name,
            seed=self.seed,
            scale=self.scale,
            variant=self.variant,
            difficulty=difficulty or self.family.difficulty,
            instruction=instruction,
            tools=tuple(tools) if tools is not None else (DBT_TOOLS if is_dbt else READ_ONLY_TOOLS),
            answer_kind=answer_kind,
            verifier=verifier or VerifierConfig(),
            expected=expected,
            oracle=tuple(oracle),
            wrong_readings=dict(wrong_readings or {}),
            writes_warehouse=is_dbt if writes_warehouse is None else writes_warehouse,
            sandbox_patch=dict(sandbox_patch or {}),
            withheld=tuple(withheld),
            limits=limits or Limits(),
            metadata=dict(metadata or {}),
        )


def state_tolerance(
    task: Task, verifier: VerifierConfig | None = None, *, instruction: str | None = None
) -> Task:
    """``task`` graded with ``verifier`` (default: its own), whose instruction ends with the
    tolerance sentence rendered from that same config: the words and the grader cannot drift."""
    config = verifier or task.verifier
    text = task.instruction if instruction is None else instruction
    sentence = tolerance_sentence(task.answer_kind, config)
    return replace(task, instruction=f"{text.rstrip()}\n{sentence}", verifier=config)


def undiscriminated_readings(task: Task) -> list[str]:
    """Names of wrong readings that the task's verifier would accept (should be empty)."""
    if task.answer_kind == "dbt":
        return []

    return [
        name
        for name, value in task.wrong_readings.items()
        if check_answer(task.answer_kind, value, task.expected, task.verifier).passed
    ]


class TaskFamily:
    """Base class of every task family; subclasses set the class attributes and ``make``."""

    name: ClassVar[str]
    replica: ClassVar[str]
    description: ClassVar[str] = ""
    difficulty: ClassVar[Difficulty] = "medium"
    n_variants: ClassVar[int] = 1
    max_attempts: ClassVar[int] = 25

    def variants(self, seed: int) -> int:
        """How many variants (0..n-1) this family offers for ``seed``."""
        return self.n_variants

    def has_variant(self, seed: int, variant: int) -> bool:
        """Whether ``variant`` exists for ``seed``: ``0 <= variant < variants(seed)``.

        A family whose count is expensive (the factory's: every candidate of the seed is
        validated to count its survivors) answers for one variant from a prefix instead.
        """
        return 0 <= variant < self.variants(seed)

    def make(self, ctx: BuildContext) -> Task:
        """Build one task; called again with a higher ``ctx.attempt`` if it did not discriminate."""
        raise NotImplementedError

    def build(self, snapshot: SnapshotLike, seed: int, variant: int) -> Task:
        """A valid task for (seed, variant) on ``snapshot`` whose wrong readings all fail."""
        if snapshot.replica != self.replica:
            raise ValueError(
                f"{self.name} needs a {self.replica!r} snapshot, got {snapshot.replica!r}"
            )
        if int(snapshot.seed) != seed:
            raise ValueError(f"snapshot seed {snapshot.seed} does not match task seed {seed}")
        if not self.has_variant(seed, variant):
            n = self.variants(seed)
            raise ValueError(f"{self.name} has variants 0..{n - 1} for seed {seed}, got {variant}")
        failures: list[str] = []
        for attempt in range(self.max_attempts):
            task = self.make(BuildContext(self, snapshot, seed, variant, attempt))
            if task.family != self.name or task.variant != variant or task.seed != seed:
                raise TaskBuildError(f"{self.name}.make returned a task for another id: {task.id}")
            if not math.isclose(task.scale, float(snapshot.scale)):
                raise TaskBuildError(f"{self.name}.make returned a task for another scale")
            bad = undiscriminated_readings(task)
            if not bad:
                return task
            failures.append(f"attempt {attempt}: {bad}")
        raise TaskBuildError(
            f"{self.name} seed {seed} variant {variant}: wrong readings match the answer within "
            f"tolerance after {self.max_attempts} attempts ({failures[-1]})"
        )

    def grade(self, task: Task, answer: str, ctx: GradeContext) -> Verdict:
        """Default grading by ``answer_kind``; families override for custom verifiers."""

        return default_grade(task, answer, ctx)

    def __repr__(self) -> str:
        return f"<TaskFamily {self.name}>"


__all__ = [
    "DEFAULT_SCALE",
    "BuildContext",
    "TaskBuildError",
    "TaskFamily",
    "state_tolerance",
    "undiscriminated_readings",
]
