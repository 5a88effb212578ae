"""Toy task families on the toy replica, shared by the runtime, env and security tests.

A plain helper module (test modules import it; a subprocess in the snapshot/restore test imports
it too, so the families live at module level and register through :func:`register_toy`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from replicas.env import Env
from replicas.sandbox import Sandbox
from replicas.tasks import (
    BuildContext,
    Limits,
    Task,
    TaskFamily,
    VerifierConfig,
    build_task,
    dbt,
    register_family,
    sql,
    submit,
    unregister_family,
    write_file,
)
from tests.toy_replica import ensure_registered

TOY_MODEL = "models/thing_totals.sql"
BUGGY_MODEL = (
    "select kind, count(*) as n, sum(value) * 2 as total\n"
    "from {{ source('raw', 'things') }}\ngroup by kind\n"
)


class ToyTotal(TaskFamily):
    """Numeric question: the total value of one kind (wrong reading: all kinds)."""

    name = "toy.total-v1"
    replica = "toy"
    description = "Total value of one kind of thing."
    difficulty = "easy"
    n_variants = 3

    def make(self, ctx: BuildContext) -> Task:
        kind = ["a", "b", "c"][ctx.variant]
        query = f"select round(sum(value), 2) from raw.things where kind = '{kind}'"
        truth = ctx.scalar(query)
        every_kind = ctx.scalar("select round(sum(value), 2) from raw.things")
        return ctx.task(
            instruction=(
                f"What is the total `value` of things of kind '{kind}' (table raw.things)? "
                "Round to cents. Submit only the number."
            ),
            answer_kind="number",
            expected=truth,
            verifier=VerifierConfig(abs_tol=0.005),
            oracle=(sql(query), submit(f"{truth:.2f}")),
            wrong_readings={"all_kinds": every_kind},
            limits=Limits(max_steps=8),
        )


class ToyFix(TaskFamily):
    """dbt task: ``thing_totals.total`` is doubled by an injected bug."""

    name = "toy.fix-v1"
    replica = "toy"
    description = "Fix the doubled total in thing_totals."
    difficulty = "medium"

    def make(self, ctx: BuildContext) -> Task:
        return ctx.task(
            instruction=(
                "The dbt model thing_totals is wrong: `total` must be the sum of `value` per kind. "
                "Fix models/thing_totals.sql and build it."
            ),
            answer_kind="dbt",
            verifier=VerifierConfig(
                dbt_models=("thing_totals",), key_columns=("kind",), abs_tol=1e-6
            ),
            sandbox_patch={TOY_MODEL: BUGGY_MODEL},
            oracle=(
                write_file(TOY_MODEL, ctx.project_file(TOY_MODEL)),
                dbt("build --select thing_totals"),
                submit("Removed the factor 2 from total."),
            ),
        )


TOY_FAMILIES: tuple[type[TaskFamily], ...] = (ToyTotal, ToyFix)


def register_toy() -> None:
    ensure_registered()
    for cls in TOY_FAMILIES:
        register_family(cls)


def toy_families_registered() -> Iterator[None]:
    """The body of a module fixture: the toy families registered for the module, unregistered
    after it (``_toy = pytest.fixture(scope="module", autouse=True)(toy_families_registered)``)."""
    register_toy()
    yield
    for cls in TOY_FAMILIES:
        unregister_family(cls.name)


def sandbox_of(env: Env) -> Sandbox:
    """The episode's sandbox (the env must have been reset into a task that has one)."""
    assert env.sandbox is not None, "the episode has no sandbox yet"
    return env.sandbox


def fix_episode() -> Iterator[Env]:
    """A reset episode of ``toy.fix-v1.s1.0`` with room for 40 steps, closed afterwards (the body
    of the modules' ``env`` fixtures)."""
    task = build_task("toy.fix-v1.s1.0")
    env = Env.from_task(replace(task, limits=replace(task.limits, max_steps=40)))
    env.reset()
    yield env
    env.close()
