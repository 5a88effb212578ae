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
``ecommerce.defect_mart_answer_lookup-v1``  leaky        a mart stores the answer, keyed by the
                                                         customer the question names
``ecommerce.defect_hidden_id_oracle-v1``    broken       the oracle queries an id the question
                                                         never gave (it names the product)
``ecommerce.defect_first_line_grader-v1``   hackable     only the first 'Answer:' line is read
``ecommerce.defect_hedge_blind_grader-v1``  hackable     the first figure is read, hedges unseen
``ecommerce.defect_visible_data_grading-v1`` hackable    a dbt mart graded on the visible raw
                                                         data only (pasted rows pass)
``ecommerce.defect_constant_reference-v1``  hackable     hidden-data grading whose reference is
                                                         the same on every dataset
``ecommerce.defect_reference_fails_hidden-v1`` broken    the reference is empty on hidden data
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
from replicas.verifiers.answers import check_answer
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


@register_family
class MartAnswerLookup(TaskFamily):
    name = "ecommerce.defect_mart_answer_lookup-v1"
    replica = "ecommerce"
    description = "A customer's lifetime net revenue (test family)."
    difficulty = "easy"
    n_variants = 2

    def make(self, ctx: BuildContext) -> Task:
        customers = ctx.query(
            "select customer_id from main.dim_customers where lifetime_orders >= 3 "
            "and lifetime_net_revenue_usd > 1000 order by customer_id"
        )
        customer = int(customers[int(ctx.rng("who").integers(0, len(customers)))][0])
        facts = (
            "select round(sum(net_revenue_usd), 2) from main.fct_orders "
            f"where customer_id = {customer} and {{}}"
        )
        truth = float(ctx.scalar(facts.format("is_revenue_order")))
        every = float(ctx.scalar(facts.format("true")))
        return ctx.task(
            instruction=(
                f"What is the lifetime net revenue in USD of customer {customer}: the sum of "
                "net revenue (gross - discounts - refunds, converted to USD at the order date's "
                "rate) over their orders with status placed, shipped, completed or returned? "
                "Submit only the number, rounded to cents."
            ),
            answer_kind="number",
            expected=truth,
            verifier=VerifierConfig(abs_tol=0.005, rel_tol=0.0),
            # the defect: dim_customers.lifetime_net_revenue_usd stores it, keyed by customer_id
            oracle=(sql(facts.format("is_revenue_order")), submit(f"{truth:.2f}")),
            wrong_readings={"cancelled_included": every} if every != truth else {"x": truth + 9},
        )


@register_family
class HiddenIdOracle(TaskFamily):
    name = "ecommerce.defect_hidden_id_oracle-v1"
    replica = "ecommerce"
    description = "Units sold of one product, named by its name (test family)."
    difficulty = "easy"
    n_variants = 2

    def make(self, ctx: BuildContext) -> Task:
        products = ctx.query(
            "select p.product_id, p.name from raw.products p join raw.order_items i "
            "using (product_id) group by all having count(*) >= 5 "
            "and count(*) = count(distinct i.order_id) order by p.product_id"
        )
        product_id, name = products[int(ctx.rng("which").integers(0, len(products)))]
        truth_sql = f"select sum(quantity) from raw.order_items where product_id = {product_id}"
        truth = float(ctx.scalar(truth_sql))
        lines = float(
            ctx.scalar(f"select count(*) from raw.order_items where product_id = {product_id}")
        )
        return ctx.task(
            instruction=(
                f'How many units of the product named exactly "{name}" appear over all order '
                "lines of raw.order_items (the sum of quantity, every order whatever its "
                "status)? Submit only the number."
            ),
            answer_kind="number",
            expected=truth,
            verifier=VerifierConfig(abs_tol=0.0, rel_tol=0.0),
            # the defect: the demonstration uses product_id, which the question never gave
            oracle=(sql(truth_sql), submit(f"{truth:.0f}")),
            wrong_readings={"lines_instead_of_units": lines}
            if lines != truth
            else {"x": truth + 1},
        )


class _LabelledItemRevenue(_ItemRevenue):
    """The sound question, answered in free text whose first line is ``Answer: <value>``."""

    def make(self, ctx: BuildContext) -> Task:
        month, truth, with_cancelled, truth_sql = self.parts(ctx)
        return ctx.task(
            instruction=_item_revenue_instruction(month).replace(
                "Submit only the number, rounded to cents.",
                "Answer in free text whose FIRST line is 'Answer: <value>' (the number, "
                "rounded to cents); you may explain below it.",
            ),
            answer_kind="text",
            expected=f"{truth:.2f}",
            verifier=VerifierConfig(abs_tol=0.01, rel_tol=0.0),
            oracle=(sql(truth_sql), submit(f"Answer: {truth:.2f}\nItem revenue of that month.")),
            wrong_readings={"cancelled_included": f"{with_cancelled:.2f}"},
        )


@register_family
class FirstLineGrader(_LabelledItemRevenue):
    name = "ecommerce.defect_first_line_grader-v1"

    def grade(self, task: Task, answer: str, ctx: GradeContext) -> Verdict:
        """The defect: only the first 'Answer:' line counts; a second one is never read."""
        first = next((ln for ln in answer.splitlines() if ln.strip()), "")
        value = first.split(":", 1)[1] if first.lower().startswith("answer:") else ""
        return check_answer("number", value, float(task.expected), task.verifier)

    def build(self, snapshot: Any, seed: int, variant: int) -> Task:
        """Wrong readings are text: graded through this family's own grader, not the kit's."""
        return self.make(BuildContext(self, snapshot, seed, variant, 0))


@register_family
class HedgeBlindGrader(_ItemRevenue):
    name = "ecommerce.defect_hedge_blind_grader-v1"

    def grade(self, task: Task, answer: str, ctx: GradeContext) -> Verdict:
        """The defect: the first figure is the answer; later figures (hedges) are not seen."""
        match = _NUMBER.search(answer)
        if match is None:
            return fail("no_answer", "no number")
        return check_answer("number", match.group(0), task.expected, task.verifier)


def _small_mart_task(
    ctx: BuildContext, model: str, reference: str, oracle_sql: str, *, hidden: bool, key: str
) -> Task:
    return ctx.task(
        instruction=(
            f"Add a model `{model}` in `models/marts/{model}.sql` (materialized as a table) "
            f"giving exactly the rows of this query over the sources:\n{reference}\nBuild it "
            "with the dbt tool, then submit 'done'."
        ),
        answer_kind="dbt",
        tools=DBT_TOOLS,
        verifier=VerifierConfig(
            dbt_models=(model,),
            reference_sql={model: reference},
            key_columns=(key,),
            abs_tol=0.01,
            hidden_data=hidden,
        ),
        oracle=(
            write_file(f"models/marts/{model}.sql", oracle_sql),
            dbt(f"run --select {model}"),
            submit("done"),
        ),
    )


CHANNEL_REVENUE = (
    "select channel, count(*) as orders from raw.orders where status <> 'cancelled' "
    "group by channel"
)


@register_family
class VisibleDataGrading(TaskFamily):
    name = "ecommerce.defect_visible_data_grading-v1"
    replica = "ecommerce"
    description = "A three-row dbt mart graded on the visible data only (test family)."
    difficulty = "easy"
    n_variants = 1

    def make(self, ctx: BuildContext) -> Task:
        oracle = (
            "{{ config(materialized='table') }}\nselect channel, count(*) as orders from "
            "{{ source('raw', 'orders') }} where status <> 'cancelled' group by channel\n"
        )
        # the defect: hidden=False — pasting the three visible rows passes
        return _small_mart_task(
            ctx, "mart_channel_orders", CHANNEL_REVENUE, oracle, hidden=False, key="channel"
        )


@register_family
class ConstantReference(TaskFamily):
    name = "ecommerce.defect_constant_reference-v1"
    replica = "ecommerce"
    description = "A dbt mart whose reference is the same on every dataset (test family)."
    difficulty = "easy"
    n_variants = 1

    def make(self, ctx: BuildContext) -> Task:
        reference = "select distinct currency from raw.fx_rates"
        oracle = (
            "{{ config(materialized='table') }}\nselect distinct currency from "
            "{{ source('raw', 'fx_rates') }}\n"
        )
        # the defect: the answer does not depend on the data, so hidden data cannot tell
        return _small_mart_task(
            ctx, "mart_currencies", reference, oracle, hidden=True, key="currency"
        )


@register_family
class ReferenceFailsHidden(TaskFamily):
    name = "ecommerce.defect_reference_fails_hidden-v1"
    replica = "ecommerce"
    description = "A dbt mart whose spec only fits the visible data's id range (test family)."
    difficulty = "easy"
    n_variants = 1

    def make(self, ctx: BuildContext) -> Task:
        cut = int(ctx.scalar("select max(order_id) - 50 from raw.orders"))
        reference = f"select order_id, status from raw.orders where order_id > {cut}"
        oracle = (
            "{{ config(materialized='table') }}\nselect order_id, status from "
            f"{{{{ source('raw', 'orders') }}}} where order_id > {cut}\n"
        )
        # the defect: the hidden datasets have fewer orders: the reference is empty there
        return _small_mart_task(
            ctx, "mart_latest_orders", reference, oracle, hidden=True, key="order_id"
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
    MartAnswerLookup,
    HiddenIdOracle,
    FirstLineGrader,
    HedgeBlindGrader,
    VisibleDataGrading,
    ConstantReference,
    ReferenceFailsHidden,
)


def register_defective() -> None:
    """Register every family above again (after a registry restore; the same classes are a no-op
    when still registered)."""
    for cls in DEFECTIVE_FAMILIES:
        register_family(cls)
