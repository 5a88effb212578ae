"""``ecommerce_enterprise.category_revenue_asof-v1``: a category's net revenue in a calendar
quarter, attributed the way Merchandising does (an SCD2 as-of question).

Products move between categories; Merchandising attributes each sale to the category the
product had when the order was placed (``category_attribution`` docs page,
``dim_products_history``: valid_from inclusive, valid_to exclusive). The current category in
``dim_products`` (or the dbt snapshot, which only holds the current version) is the recorded
naive reading; gross lines, cancelled orders and test accounts are the others.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from replicas.families.ecommerce_enterprise._common import (
    CALENDAR_QUARTERS,
    REPLICA,
    Definition,
    as_family,
    definitions_metadata,
    distinct_pick,
    quarter_bounds,
)
from replicas.protocols import SnapshotLike
from replicas.sandbox import Sandbox
from replicas.tasks import (
    BuildContext,
    Task,
    TaskBuildError,
    TaskFamily,
    ToolCall,
    VerifierConfig,
    register_family,
    sql,
    submit,
    undiscriminated_readings,
)

DOCS = "models/docs/category_attribution.md"
DEFINITIONS = (
    Definition("category at order time (SCD2 as-of)", "file", DOCS, "when the order was placed"),
    Definition("product versions", "relation", "dim_products_history", "valid_to"),
    Definition("category revenue = net line revenue of revenue orders", "file", DOCS,
               "line_net_usd"),
    Definition("line net revenue in USD", "relation", "fct_order_items", "line_net_usd"),
)  # fmt: skip


def _sql(category: str, start: str, end: str, *, amount: str, asof: bool, where: str) -> str:
    if asof:
        join = (
            "join main.stg_shop__orders o on o.order_id = i.order_id "
            "join main.dim_products_history h on h.product_id = i.product_id "
            "and o.created_at >= h.valid_from and o.created_at < h.valid_to "
        )
        cat = "h.category_name"
    else:
        join = "join main.dim_products p on p.product_id = i.product_id "
        cat = "p.category_name"
    return (
        f"select round(coalesce(sum(i.{amount}), 0), 2) from {{items}} i {join}"
        f"where {cat} = '{category}' and i.order_date between date '{start}' and date '{end}'"
        f"{where}"
    )


def truth_sql(category: str, start: str, end: str) -> str:
    return _sql(
        category, start, end, amount="line_net_usd", asof=True, where=" and i.is_revenue_order"
    ).format(items="main.fct_order_items")


@register_family
class CategoryRevenueAsOf(TaskFamily):
    name = "ecommerce_enterprise.category_revenue_asof-v1"
    replica = REPLICA
    description = "A category's quarterly net revenue with the category as of each order (SCD2)."
    difficulty = "hard"
    n_variants = 4

    def make(self, ctx: BuildContext) -> Task:
        categories = [r[0] for r in ctx.query("select category_name from main.dim_categories")]
        category, (year, quarter) = distinct_pick(
            ctx, [(c, q) for c in sorted(categories) for q in CALENDAR_QUARTERS]
        )
        start, end = quarter_bounds(year, quarter)
        truth_q = truth_sql(category, start, end)
        truth = float(ctx.scalar(truth_q))

        def reading(amount: str, asof: bool, where: str, items: str) -> float:
            q = _sql(category, start, end, amount=amount, asof=asof, where=where)
            return float(ctx.scalar(q.format(items=items)))

        revenue = " and i.is_revenue_order"
        # int_order_items_usd keeps every order's lines (test accounts and cancellations too)
        all_orders = "main.int_order_items_usd"
        wrong = {
            "current_category": reading("line_net_usd", False, revenue, "main.fct_order_items"),
            "gross_lines": reading("line_gross_usd", True, revenue, "main.fct_order_items"),
            "cancelled_included": reading("line_net_usd", True, "", "main.fct_order_items"),
            "test_accounts_included": reading("line_net_usd", True, "", all_orders),
        }
        instruction = (
            f"Merchandising asks: how much net revenue did the '{category}' category bring in "
            f"for orders placed in {year}-Q{quarter} (UTC order dates {start} to {end})? "
            "Attribute sales to categories the way Merchandising does. Submit one number: "
            "US dollars, rounded to cents."
        )
        return ctx.task(
            instruction=instruction,
            answer_kind="number",
            expected=truth,
            verifier=VerifierConfig(abs_tol=0.01, unit="usd"),
            oracle=(
                ToolCall("read_file", {"path": DOCS}),
                sql(truth_q),
                submit(f"{truth:.2f}"),
            ),
            wrong_readings=wrong,
            metadata={
                "category": category,
                "quarter": f"{year}-Q{quarter}",
                **definitions_metadata(DEFINITIONS, naive_reading="current_category"),
            },
        )


#: Discriminating draws rejected by the one-lookup search before a task gives up.
MAX_TRIVIAL_REDRAWS = 8


def one_lookup_hits(task: Task, snapshot: SnapshotLike) -> list[str]:
    """The audit's ``trivial`` search for ``task``: lookups over a *derived* relation (keyed by
    what the instruction names) that return the answer.

    It is the audit check's own search (``replicas.audit.check_trivial``), run on the
    warehouse the task's episode reads, imported here at call time: the audit sits above the
    families in the import graph, and only building a -v2 task needs it. The check removes
    anchors that sibling instructions share (boilerplate); none are given here, so the anchors
    — and the hits — are a superset of what the audit finds, and any derived hit counts (the
    audit lets a raw-table "fact" lookup excuse a task; a revenue total is never one).
    """
    from replicas.audit._warehouse_index import warehouse_index
    from replicas.audit.check_trivial import _search

    sandbox = Sandbox.create(task.sandbox_spec(), snapshot)
    try:
        warehouse = Path(sandbox.warehouse)
        hits = _search(task, warehouse, warehouse_index(warehouse), ())
        sandbox.release_connection()
    finally:
        sandbox.close()
    # sorted: the search walks sets of strings, whose order varies between processes
    return sorted({h.describe() for h in hits if not h.source_only})


@register_family
class CategoryRevenueAsOfV2(CategoryRevenueAsOf):
    """``ecommerce_enterprise.category_revenue_asof-v2``: no variant is answered by one lookup.

    What changed from v1, and why: the hard-v1 audit's ``trivial`` check found
    ``category_revenue_asof-v1.s12.2`` answerable by one lookup — the ``tax_usd`` of one
    ``fct_orders`` row created on 2024-03-01 (a day the search reads from the question's
    "2024-03-31"), for a non-EU customer, equalled the category's quarterly revenue. A
    coincidence, but the check is right that a lookup returns it.

    v2 walks v1's draws in v1's order (attempt 0, 1, …: v1's randomness) and returns the first
    one that v1 would accept (every wrong reading fails) *and* that the same search
    (:func:`one_lookup_hits`) cannot answer; the draws the search rejected are recorded in
    ``metadata["trivial_redraws"]``. So a v1 task without such a hit is unchanged under its
    v2 id, and one with a hit is replaced by the next acceptable draw.
    """

    name = "ecommerce_enterprise.category_revenue_asof-v2"
    description = (
        "A category's quarterly net revenue with the category as of each order (SCD2); no "
        "variant whose answer one lookup returns."
    )

    def make(self, ctx: BuildContext) -> Task:
        v1 = CategoryRevenueAsOf()
        rejected: list[dict[str, Any]] = []
        # v1's own attempts first; each rejected draw allows one more
        for attempt in range(ctx.attempt, ctx.attempt + self.max_attempts + MAX_TRIVIAL_REDRAWS):
            task = super().make(BuildContext(v1, ctx.snapshot, ctx.seed, ctx.variant, attempt))
            if undiscriminated_readings(task):
                continue  # v1's own rule (``TaskFamily.build``): draw again
            hits = one_lookup_hits(task, ctx.snapshot)
            if not hits:
                task = as_family(task, self.name)
                if rejected:
                    metadata = {**task.metadata, "trivial_redraws": rejected}
                    task = replace(task, metadata=metadata)
                return task
            rejected.append(
                {
                    "category": task.metadata["category"],
                    "quarter": task.metadata["quarter"],
                    "lookup": hits[0],
                }
            )
            if len(rejected) >= MAX_TRIVIAL_REDRAWS:
                break
        raise TaskBuildError(
            f"{self.name} seed {ctx.seed} variant {ctx.variant}: {len(rejected)} draws are "
            f"answered by one lookup (last: {rejected[-1]['lookup'] if rejected else None})"
        )
