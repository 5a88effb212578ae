"""``ecommerce_enterprise.people_count-v1``: how many customers bought in a period, counted the
way the company counts customers (people, not accounts).

Some people hold two shop accounts; the ``identity_resolution`` docs page says a customer is a
person (accounts sharing a normalized email, or merged by Customer Care, are one person) and
``person_id`` carries it. Counting ``customer_id`` (the naive reading), resolving by email only
(ignoring Customer Care's merges), keeping internal QA accounts, or counting cancelled orders
as purchases are recorded wrong readings.
"""

from __future__ import annotations

from replicas.families.ecommerce_enterprise._common import (
    REPLICA,
    Definition,
    definitions_metadata,
    distinct_pick,
)
from replicas.tasks import (
    BuildContext,
    Task,
    TaskFamily,
    ToolCall,
    VerifierConfig,
    register_family,
    sql,
    submit,
)

DOCS = "models/docs/identity_resolution.md"
PERIODS = (
    ("calendar year 2024", "2024-01-01", "2024-12-31"),
    ("calendar year 2025", "2025-01-01", "2025-12-31"),
    ("the first half of 2026", "2026-01-01", "2026-06-30"),
    ("the second half of 2024", "2024-07-01", "2024-12-31"),
    ("the second half of 2025", "2025-07-01", "2025-12-31"),
)
CHANNELS = (None, "web", "app", "marketplace")
DEFINITIONS = (
    Definition("customers are people (person_id)", "file", DOCS, "count `person_id`"),
    Definition("person of each order", "relation", "fct_orders", "person_id"),
    Definition("revenue orders", "relation", "fct_orders", "is_revenue_order"),
)


def _count(expr: str, table: str, start: str, end: str, channel: str | None, revenue: bool) -> str:
    where = f"o.order_date between date '{start}' and date '{end}'"
    if channel:
        where += f" and o.channel = '{channel}'"
    if revenue:
        where += " and o.is_revenue_order"
    return f"select count(distinct {expr}) from {table} where {where}"


@register_family
class PeopleCount(TaskFamily):
    name = "ecommerce_enterprise.people_count-v1"
    replica = REPLICA
    description = "Distinct customers (identity-resolved people) who bought in a period."
    difficulty = "hard"
    n_variants = 4

    def make(self, ctx: BuildContext) -> Task:
        (label, start, end), channel = distinct_pick(
            ctx, [(p, c) for p in PERIODS for c in CHANNELS]
        )
        truth_q = _count("o.person_id", "main.fct_orders o", start, end, channel, True)
        truth = int(ctx.scalar(truth_q))
        email_only = (
            "(select o2.*, min(c.customer_id) over (partition by c.email_normalized) as email_pid "
            "from main.fct_orders o2 join main.stg_shop__customers c "
            "on c.customer_id = o2.customer_id) o"
        )
        wrong = {
            "accounts_not_people": float(
                ctx.scalar(_count("o.customer_id", "main.fct_orders o", start, end, channel, True))
            ),
            "email_only_resolution": float(
                ctx.scalar(_count("o.email_pid", email_only, start, end, channel, True))
            ),
            "test_accounts_included": float(
                ctx.scalar(_count("o.person_id", "main.int_orders o", start, end, channel, True))
            ),
            "cancelled_orders_counted": float(
                ctx.scalar(_count("o.person_id", "main.fct_orders o", start, end, channel, False))
            ),
        }
        where = f" through the {channel} channel" if channel else ""
        instruction = (
            f"Growth asks: how many customers bought from us{where} in {label} (orders placed "
            f"{start} to {end}, UTC dates, cancelled orders are not purchases)? Count customers "
            "the way the company counts customers. Submit one whole number."
        )
        return ctx.task(
            instruction=instruction,
            answer_kind="number",
            expected=float(truth),
            verifier=VerifierConfig(abs_tol=0.0),
            oracle=(ToolCall("read_file", {"path": DOCS}), sql(truth_q), submit(str(truth))),
            wrong_readings=wrong,
            metadata={
                "period": [start, end],
                "channel": channel,
                **definitions_metadata(DEFINITIONS, naive_reading="accounts_not_people"),
            },
        )
