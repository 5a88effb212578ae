"""``ecommerce.dbt_fix-v1``: find and fix a bug injected into the ``fct_orders`` mart.

Each variant injects one realistic bug into ``models/marts/fct_orders.sql`` of the sandbox copy
(``sandbox_patch``) and describes only its symptom. The sandbox warehouse has ``fct_orders`` and
everything downstream dropped, so there is no correct table to copy. Grading rebuilds
``fct_orders`` (with its upstream) from the agent's files on a fresh copy of the pristine raw
data and compares it, row by row on ``order_id``, with the pristine snapshot's ``fct_orders``.

The patch is derived from the pristine model text at build time; if the model no longer contains
the snippet a bug needs, building fails loudly rather than producing a task without a bug.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from replicas.tasks import (
    BuildContext,
    Task,
    TaskBuildError,
    TaskFamily,
    VerifierConfig,
    dbt,
    register_family,
    submit,
    write_file,
)

MODEL = "fct_orders"
MODEL_PATH = f"models/marts/{MODEL}.sql"


@dataclass(frozen=True)
class Bug:
    name: str
    find: str  # matched with flexible whitespace; must occur exactly once
    replace: str
    symptom: str
    evidence_sql: str  # > 0 on the pristine snapshot iff the bug changes fct_orders


BUGS: tuple[Bug, ...] = (
    Bug(
        name="refunds_not_subtracted",
        find="round(items_subtotal_usd - items_discount_usd - refunds_usd, 2)",
        replace="round(items_subtotal_usd - items_discount_usd, 2)",
        symptom=(
            "Finance reports that net_revenue_usd in fct_orders is too high for orders that "
            "were refunded."
        ),
        evidence_sql="select count(*) from main.fct_orders where is_revenue_order and refunds_usd > 0",
    ),
    Bug(
        name="test_accounts_included",
        find="select * from {{ ref('int_orders') }}\n    where not is_test_account",
        replace="select * from {{ ref('int_orders') }}",
        symptom=(
            "The QA team noticed orders of internal test accounts in fct_orders; its row count "
            "no longer matches the documented grain."
        ),
        evidence_sql="select count(*) from main.int_orders where is_test_account",
    ),
    Bug(
        name="cancelled_gross_revenue",
        find="case when is_revenue_order then items_subtotal_usd else 0 end as gross_revenue_usd",
        replace="items_subtotal_usd as gross_revenue_usd",
        symptom=(
            "Analysts see non-zero gross_revenue_usd on cancelled orders in fct_orders, which "
            "inflates every gross revenue report."
        ),
        evidence_sql=(
            "select count(*) from main.fct_orders where not is_revenue_order and items_subtotal_usd > 0"
        ),
    ),
    Bug(
        name="first_order_reversed",
        find="partition by orders.customer_id order by orders.created_at, orders.order_id",
        replace="partition by orders.customer_id order by orders.created_at desc, orders.order_id desc",
        symptom=(
            "Marketing says is_first_order in fct_orders flags customers' most recent order "
            "instead of their first one, and customer_order_number counts backwards."
        ),
        evidence_sql=(
            "select count(*) from (select customer_id from main.fct_orders group by 1 having count(*) > 1)"
        ),
    ),
)


def _flexible(snippet: str) -> re.Pattern[str]:
    tokens = snippet.split()
    return re.compile(r"\s+".join(re.escape(t) for t in tokens))


def inject(pristine: str, bug: Bug) -> str:
    """The model text with ``bug`` injected; TaskBuildError if the snippet is not there once."""
    pattern = _flexible(bug.find)
    matches = pattern.findall(pristine)
    if len(matches) != 1:
        raise TaskBuildError(
            f"{MODEL_PATH}: expected the snippet of bug {bug.name!r} exactly once, found "
            f"{len(matches)} (did the model change? update replicas/families/ecommerce/dbt_fix.py)"
        )
    return pattern.sub(lambda _: bug.replace, pristine, count=1)


def instruction(bug: Bug) -> str:
    return (
        f"{bug.symptom}\n"
        f"Find and fix the bug in the dbt project so that the {MODEL} model matches its "
        f"documented definition (models/marts/{MODEL}.yml and the staging/intermediate models "
        "it builds on). Keep its columns and grain. Build the model with the dbt tool to check "
        f"your fix: {MODEL} is currently missing from the warehouse. When you are done, submit "
        "a one-sentence summary of the fix."
    )


@register_family
class DbtFix(TaskFamily):
    name = "ecommerce.dbt_fix-v1"
    replica = "ecommerce"
    description = "Fix a bug injected into the fct_orders mart; graded by rebuild + equality."
    difficulty = "hard"
    n_variants = len(BUGS)

    def make(self, ctx: BuildContext) -> Task:
        bug = BUGS[ctx.variant]
        pristine = ctx.project_file(MODEL_PATH)
        buggy = inject(pristine, bug)
        if not ctx.scalar(bug.evidence_sql):
            raise TaskBuildError(f"bug {bug.name!r} would not change {MODEL} on seed {ctx.seed}")
        return ctx.task(
            instruction=instruction(bug),
            answer_kind="dbt",
            verifier=VerifierConfig(dbt_models=(MODEL,), key_columns=("order_id",), abs_tol=0.005),
            sandbox_patch={MODEL_PATH: buggy},
            oracle=(
                write_file(MODEL_PATH, pristine),
                dbt(f"run --select {MODEL}"),
                submit(f"Fixed the {bug.name.replace('_', ' ')} bug in {MODEL}."),
            ),
            metadata={"bug": bug.name, "model": MODEL},
        )
