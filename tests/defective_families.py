"""Deliberately defective task families: the audit must give each one the right status.

Test-only (never imported by the kit). Like a user's family module it registers its families on
import, which is what ``replicas audit --import`` and the audit's spawned workers rely on; tests
import it only inside the registry-restoring fixtures of ``tests/conftest.py`` and call
:func:`register_defective` there (a module imported earlier in the process registers nothing
again). Each family is a small, real ecommerce question whose one
defect is the thing named in its id; everything else about it is sound, so the status the audit
reports can only come from that defect:

==========================================  ===========  ======================================
family                                      status       defect
==========================================  ===========  ======================================
``ecommerce.defect_leaky_instruction-v1``   leaky        the instruction quotes the answer
``ecommerce.defect_candidates_verifier-v1`` hackable     the grader accepts a list of candidates
``ecommerce.defect_seed_independent-v1``    leaky        the answer is the same on every seed
``ecommerce.defect_ambiguous_reading-v1``   ambiguous    a wrong reading equals the answer
                                                         (``build`` skips the kit's own check)
``ecommerce.defect_wrong_oracle-v1``        broken       the oracle submits a wrong number
``ecommerce.defect_flaky_grader-v1``        flaky        the grader fails every second call
``ecommerce.defect_mart_lookup-v1``         leaky        a mart already stores the answer table
``ecommerce.defect_noop_patch-v1``          hackable     the dbt "bug" changes nothing
``ecommerce.sound_item_revenue-v1``         usable       none (the control)
==========================================  ===========  ======================================
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from replicas.tasks import (
    BuildContext,
    GradeContext,
    Task,
    TaskBuildError,
    TaskFamily,
    VerifierConfig,
    dbt,
    register_family,
    sql,
    submit,
    write_file,
)
from replicas.tasks.base import DBT_TOOLS
from replicas.tasks.family import undiscriminated_readings
from replicas.verifiers.verdict import Verdict, fail

MONTHS = 24  # 2024-01 .. 2025-12
REVENUE_STATUSES = "('placed', 'shipped', 'completed', 'returned')"
ALL_STATUSES = "('placed', 'shipped', 'completed', 'returned', 'cancelled')"


def _month(ctx: BuildContext) -> dt.date:
    offset = int(ctx.rng("month").integers(0, MONTHS))
    return dt.date(2024 + offset // 12, offset % 12 + 1, 1)


def _next_month(day: dt.date) -> dt.date:
    return dt.date(day.year + day.month // 12, day.month % 12 + 1, 1)


def item_revenue_sql(month: dt.date, statuses: str) -> str:
    """Item revenue (local currency, no conversion) of one month's orders in ``statuses``."""
    return (
        "select round(sum(round(i.quantity * i.unit_price, 2)), 2) as revenue "
        "from raw.order_items as i join raw.orders as o on o.order_id = i.order_id "
        f"where o.created_at >= timestamp '{month} 00:00:00' "
        f"and o.created_at < timestamp '{_next_month(month)} 00:00:00' "
        f"and o.status in {statuses}"
    )


def _item_revenue_instruction(month: dt.date) -> str:
    return (
        f"What was the item revenue of orders created in {month:%B %Y} (UTC, from {month} "
        f"inclusive to {_next_month(month)} exclusive)? Item revenue is the sum over order lines "
        "of quantity x unit_price, each line rounded to cents, in the order's own currency "
        "(no FX conversion), for orders with status placed, shipped, completed or returned "
        "(cancelled orders excluded). Submit only the number, rounded to cents."
    )


class _ItemRevenue(TaskFamily):
    """A sound month-revenue question; subclasses add exactly one defect."""

    replica = "ecommerce"
    description = "Item revenue of one month (test family)."
    difficulty = "easy"
    n_variants = 2

    def parts(self, ctx: BuildContext) -> tuple[dt.date, float, float, str]:
        month = _month(ctx)
        truth_sql = item_revenue_sql(month, REVENUE_STATUSES)
        truth = float(ctx.scalar(truth_sql))
        with_cancelled = float(ctx.scalar(item_revenue_sql(month, ALL_STATUSES)))
        return month, truth, with_cancelled, truth_sql

    def make(self, ctx: BuildContext) -> Task:
        month, truth, with_cancelled, truth_sql = self.parts(ctx)
        return ctx.task(
            instruction=_item_revenue_instruction(month),
            answer_kind="number",
            expected=truth,
            verifier=VerifierConfig(abs_tol=0.01, rel_tol=0.0),
            oracle=(sql(truth_sql), submit(f"{truth:.2f}")),
            wrong_readings={"cancelled_included": with_cancelled},
        )


@register_family
class SoundItemRevenue(_ItemRevenue):
    name = "ecommerce.sound_item_revenue-v1"


@register_family
class LeakyInstruction(_ItemRevenue):
    name = "ecommerce.defect_leaky_instruction-v1"

    def make(self, ctx: BuildContext) -> Task:
        month, truth, with_cancelled, truth_sql = self.parts(ctx)
        return ctx.task(
            instruction=_item_revenue_instruction(month)
            + f"\n(For reference, last quarter's audit arrived at {truth:,.2f}.)",
            answer_kind="number",
            expected=truth,
            verifier=VerifierConfig(abs_tol=0.01, rel_tol=0.0),
            oracle=(sql(truth_sql), submit(f"{truth:.2f}")),
            wrong_readings={"cancelled_included": with_cancelled},
        )


@register_family
class WrongOracle(_ItemRevenue):
    name = "ecommerce.defect_wrong_oracle-v1"

    def make(self, ctx: BuildContext) -> Task:
        month, truth, with_cancelled, truth_sql = self.parts(ctx)
        return ctx.task(
            instruction=_item_revenue_instruction(month),
            answer_kind="number",
            expected=truth,
            verifier=VerifierConfig(abs_tol=0.01, rel_tol=0.0),
            oracle=(sql(truth_sql), submit(f"{truth + 100:.2f}")),  # the defect
            wrong_readings={"cancelled_included": with_cancelled},
        )


@register_family
class AmbiguousReading(_ItemRevenue):
    name = "ecommerce.defect_ambiguous_reading-v1"

    def make(self, ctx: BuildContext) -> Task:
        month, truth, with_cancelled, truth_sql = self.parts(ctx)
        return ctx.task(
            instruction=_item_revenue_instruction(month),
            answer_kind="number",
            expected=truth,
            verifier=VerifierConfig(abs_tol=0.01, rel_tol=0.0),
            oracle=(sql(truth_sql), submit(f"{truth:.2f}")),
            # the defect: "refunds ignored" gives the same figure, since refunds never enter
            wrong_readings={"cancelled_included": with_cancelled, "refunds_ignored": truth},
        )

    def build(self, snapshot: Any, seed: int, variant: int) -> Task:
        """Skips the kit's discrimination retry loop, so the defect survives the build."""
        task = self.make(BuildContext(self, snapshot, seed, variant, 0))
        if not undiscriminated_readings(task):
            raise TaskBuildError("the defect must survive: a reading must equal the answer")
        return task


@register_family
class FlakyGrader(_ItemRevenue):
    name = "ecommerce.defect_flaky_grader-v1"

    def __init__(self) -> None:
        self.calls = 0

    def grade(self, task: Task, answer: str, ctx: GradeContext) -> Verdict:
        """The defect: state. Every second grading fails, whatever the answer."""
        self.calls += 1
        verdict = super().grade(task, answer, ctx)
        if self.calls % 2 == 0:
            return fail("wrong_value", "the grader had a bad day")
        return verdict


_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


@register_family
class CandidatesVerifier(TaskFamily):
    name = "ecommerce.defect_candidates_verifier-v1"
    replica = "ecommerce"
    description = "Average lifetime net revenue per customer (test family)."
    difficulty = "easy"
    n_variants = 1

    def make(self, ctx: BuildContext) -> Task:
        # The answer is a "plausible magnitude" the adversary's candidate_numbers strategy lists
        # (it includes round(avg(col), 2) of the first revenue-like columns of the warehouse,
        # dim_customers' among them), so a grader that accepts candidates is caught.
        truth_sql = "select round(avg(lifetime_net_revenue_usd), 2) from main.dim_customers"
        truth = float(ctx.scalar(truth_sql))
        gross = float(
            ctx.scalar("select round(avg(lifetime_gross_revenue_usd), 2) from main.dim_customers")
        )
        return ctx.task(
            instruction=(
                "What is the average lifetime net revenue in USD per customer, over every row of "
                "the dim_customers mart (lifetime_net_revenue_usd)? Submit only the number, "
                "rounded to cents."
            ),
            answer_kind="number",
            expected=truth,
            verifier=VerifierConfig(abs_tol=0.01, rel_tol=0.0),
            oracle=(sql(truth_sql), submit(f"{truth:.2f}")),
            wrong_readings={"gross_instead_of_net": gross},
        )

    def grade(self, task: Task, answer: str, ctx: GradeContext) -> Verdict:
        """The defect: any number in the answer may be the one — a list of candidates passes."""
        for token in _NUMBER.findall(answer):
            try:
                value = float(token.replace(",", ""))
            except ValueError:
                continue
            if abs(value - float(task.expected)) <= task.verifier.abs_tol:
                return Verdict(score=1.0, passed=True, feedback="Correct.")
        return fail("wrong_value", "no candidate matches")


@register_family
class SeedIndependent(TaskFamily):
    name = "ecommerce.defect_seed_independent-v1"
    replica = "ecommerce"
    description = "How many order statuses exist (test family)."
    difficulty = "easy"
    n_variants = 1

    def make(self, ctx: BuildContext) -> Task:
        truth_sql = "select count(distinct status) from raw.orders"
        truth = float(ctx.scalar(truth_sql))
        open_only = float(
            ctx.scalar("select count(distinct status) from raw.orders where status <> 'cancelled'")
        )
        return ctx.task(
            instruction=(
                "How many distinct order statuses appear in the orders table? Count every "
                "status, including cancelled. Submit only the number."
            ),
            answer_kind="number",
            expected=truth,
            verifier=VerifierConfig(abs_tol=0.0, rel_tol=0.0),
            oracle=(sql(truth_sql), submit(f"{truth:.0f}")),
            wrong_readings={"cancelled_excluded": open_only},
        )


@register_family
class MartLookup(TaskFamily):
    name = "ecommerce.defect_mart_lookup-v1"
    replica = "ecommerce"
    description = "Top products by net item sales (test family)."
    difficulty = "easy"
    n_variants = 1

    def make(self, ctx: BuildContext) -> Task:
        n = int(ctx.rng("n").integers(4, 7))
        truth_sql = (
            "select product_id, net_sales_usd from main.dim_products "
            f"order by net_sales_usd desc, product_id limit {n}"
        )
        gross_sql = (
            "select product_id, gross_revenue_usd as net_sales_usd from main.dim_products "
            f"order by gross_revenue_usd desc, product_id limit {n}"
        )
        return ctx.task(
            instruction=(
                f"List the {n} products with the highest net item sales in USD (quantity x "
                "unit_price minus line discounts, converted at the order date's FX rate, over "
                "non-cancelled orders of real customers). Submit a table with columns "
                "product_id and net_sales_usd (rounded to cents)."
            ),
            answer_kind="table",
            expected=ctx.table(truth_sql),
            # the defect: the dim_products mart stores exactly this table
            verifier=VerifierConfig(key_columns=("product_id",), abs_tol=0.01),
            oracle=(sql(truth_sql), submit(ctx.table(truth_sql))),
            wrong_readings={"gross_instead_of_net": ctx.table(gross_sql)},
        )


MODEL_PATH = "models/marts/fct_orders.sql"


@register_family
class NoopPatch(TaskFamily):
    name = "ecommerce.defect_noop_patch-v1"
    replica = "ecommerce"
    description = "A dbt 'fix the model' task whose injected bug changes nothing (test family)."
    difficulty = "hard"
    n_variants = 1

    def make(self, ctx: BuildContext) -> Task:
        pristine = ctx.project_file(MODEL_PATH)
        return ctx.task(
            instruction=(
                "Finance says fct_orders is wrong. Find and fix the bug in models/marts/"
                "fct_orders.sql, build it with the dbt tool, then submit a one-line summary."
            ),
            answer_kind="dbt",
            tools=DBT_TOOLS,
            verifier=VerifierConfig(
                dbt_models=("fct_orders",), key_columns=("order_id",), abs_tol=0.005
            ),
            sandbox_patch={MODEL_PATH: "-- the defect: this 'bug' is only a comment\n" + pristine},
            oracle=(
                write_file(MODEL_PATH, pristine),
                dbt("run --select fct_orders"),
                submit("fixed"),
            ),
        )


#: Every family of this module, the control included.
DEFECTIVE_FAMILIES: tuple[type[TaskFamily], ...] = (
    SoundItemRevenue,
    LeakyInstruction,
    WrongOracle,
    AmbiguousReading,
    FlakyGrader,
    CandidatesVerifier,
    SeedIndependent,
    MartLookup,
    NoopPatch,
)


def register_defective() -> None:
    """Register every family above again (after a registry restore; the same classes are a no-op
    when still registered)."""
    for cls in DEFECTIVE_FAMILIES:
        register_family(cls)
