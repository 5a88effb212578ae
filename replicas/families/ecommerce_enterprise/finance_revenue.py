"""``ecommerce_enterprise.finance_revenue-v1``: a region's net revenue in a fiscal quarter, "the
way Finance reports it".

The instruction is a stakeholder's one-line ask. Every definition it depends on lives in the
project: what Finance's net revenue is (recognised on delivery, net of every refund, test
accounts out, Treasury FX as of the recognition date: the ``revenue_recognition`` and
``fx_policy`` docs pages and the governed metric ``finance_net_revenue``), what a fiscal quarter
is (``fiscal_calendar`` page, ``dim_date``), and what "the EU business" covers (``sales_region``
in the data dictionary). Wrong readings — the trading dashboard's order-date revenue, the
calendar quarter, the deprecated ``revenue_old``, gross revenue, test accounts kept, an
exact-date FX join, the UK counted in the EU — are recorded and must all fail.
"""

from __future__ import annotations

from replicas.families.ecommerce_enterprise._common import (
    FISCAL_QUARTERS,
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

REGIONS = {"EU": "the EU business", "NA": "North America", "UK": "the UK business"}
DOCS = "models/docs/revenue_recognition.md"

DEFINITIONS = (
    Definition("Finance's net revenue (basis, refunds, test accounts)", "file", DOCS,
               "recognised net revenue"),
    Definition("governed metric finance_net_revenue", "file", "models/semantic/_metrics.yml",
               "finance_net_revenue"),
    Definition("fiscal quarters", "file", "models/docs/fiscal_calendar.md", "1 February"),
    Definition("fiscal quarter of each day", "relation", "dim_date", "fiscal_quarter_label"),
    Definition("FX as of the recognition date", "file", "models/docs/fx_policy.md", "as of"),
    Definition("sales regions", "relation", "fct_revenue_recognized", "sales_region"),
)  # fmt: skip


def _recognized(region: str, quarter: str, amount: str = "r.net_revenue_usd") -> str:
    return (
        f"select round(coalesce(sum({amount}), 0), 2) from main.fct_revenue_recognized r "
        "join main.dim_date d on d.date_day = r.recognized_date "
        f"where r.sales_region = '{region}' and d.fiscal_quarter_label = '{quarter}'"
    )


def _readings(ctx: BuildContext, region: str, quarter: str) -> dict[str, float]:
    fiscal_year, q = int(quarter[2:6]), int(quarter[-1])
    # the calendar quarter a reader who ignores the fiscal calendar would take
    cal = (
        "select round(coalesce(sum(r.net_revenue_usd), 0), 2) from main.fct_revenue_recognized r "
        "join main.dim_date d on d.date_day = r.recognized_date "
        f"where r.sales_region = '{region}' and d.calendar_year = {fiscal_year} "
        f"and d.calendar_quarter = {q}"
    )
    in_quarter = f"d.fiscal_quarter_label = '{quarter}'"
    recognised_all = f"""
        select round(coalesce(sum(round((a.items_subtotal - a.items_discount - a.refunds_amount)
                                        * fx.rate_to_usd, 2)), 0), 2)
        from main.int_orders o
        join main.int_order_amounts_local a on a.order_id = o.order_id
        join main.int_fx_rates_daily fx
          on fx.rate_date = o.delivered_date and fx.currency_code = o.currency_code
        join main.dim_date d on d.date_day = o.delivered_date
        where o.is_revenue_order and o.delivered_at is not null
          and o.sales_region = '{region}' and {in_quarter}"""
    exact_fx = f"""
        select round(coalesce(sum(round((a.items_subtotal - a.items_discount - a.refunds_amount)
                                        * fx.rate_to_usd, 2)), 0), 2)
        from main.fct_revenue_recognized r
        join main.int_order_amounts_local a on a.order_id = r.order_id
        join main.stg_fin__fx_rates fx
          on fx.rate_date = r.recognized_date and fx.currency_code = r.currency_code
        join main.dim_date d on d.date_day = r.recognized_date
        where r.sales_region = '{region}' and {in_quarter}"""
    revenue_old = f"""
        select round(coalesce(sum(v.revenue_old), 0), 2)
        from main.fct_orders_v1 v
        join main.int_orders o on o.order_id = v.order_id
        join main.dim_date d on d.date_day = v.order_date
        where o.sales_region = '{region}' and {in_quarter}"""
    commercial = f"""
        select round(coalesce(sum(f.net_revenue_usd), 0), 2)
        from main.fct_orders f join main.dim_date d on d.date_day = f.order_date
        where f.sales_region = '{region}' and {in_quarter}"""
    naive = (
        "select round(coalesce(sum(f.net_revenue_usd), 0), 2) from main.fct_orders f "
        "join main.dim_date d on d.date_day = f.order_date "
        f"where f.sales_region = '{region}' and d.calendar_year = {fiscal_year} "
        f"and d.calendar_quarter = {q}"
    )
    readings = {
        "naive_calendar_quarter_order_date": float(ctx.scalar(naive)),
        "order_date_basis": float(ctx.scalar(commercial)),
        "calendar_quarter": float(ctx.scalar(cal)),
        "deprecated_revenue_old": float(ctx.scalar(revenue_old)),
        "gross_not_net": float(ctx.scalar(_recognized(region, quarter, "r.gross_revenue_usd"))),
        "test_accounts_included": float(ctx.scalar(recognised_all)),
        "exact_date_fx_join": float(ctx.scalar(exact_fx)),
    }
    if region == "EU":
        readings["uk_counted_in_eu"] = readings_sum(ctx, ("EU", "UK"), quarter)
    return readings


def readings_sum(ctx: BuildContext, regions: tuple[str, ...], quarter: str) -> float:
    listed = ", ".join(f"'{r}'" for r in regions)
    return float(
        ctx.scalar(
            "select round(coalesce(sum(r.net_revenue_usd), 0), 2) "
            "from main.fct_revenue_recognized r "
            "join main.dim_date d on d.date_day = r.recognized_date "
            f"where r.sales_region in ({listed}) and d.fiscal_quarter_label = '{quarter}'"
        )
    )


@register_family
class FinanceRevenue(TaskFamily):
    name = "ecommerce_enterprise.finance_revenue-v1"
    replica = REPLICA
    description = "A region's net revenue in a fiscal quarter the way Finance reports it."
    difficulty = "hard"
    n_variants = 4

    def make(self, ctx: BuildContext) -> Task:
        region, quarter = distinct_pick(
            ctx, [(r, q) for r in sorted(REGIONS) for q in FISCAL_QUARTERS]
        )
        truth_sql = _recognized(region, quarter)
        truth = float(ctx.scalar(truth_sql))
        instruction = (
            f"The CFO's office asks: what was net revenue for {REGIONS[region]} in "
            f"{quarter[:6]} {quarter[-2:]}, the way Finance reports it? Submit one number: the "
            "amount in US dollars, rounded to cents."
        )
        return ctx.task(
            instruction=instruction,
            answer_kind="number",
            expected=truth,
            verifier=VerifierConfig(abs_tol=0.01, unit="usd"),
            oracle=(
                ToolCall("read_file", {"path": DOCS}),
                ToolCall("read_file", {"path": "models/docs/fiscal_calendar.md"}),
                sql(truth_sql),
                submit(f"{truth:.2f}"),
            ),
            wrong_readings=_readings(ctx, region, quarter),
            metadata={
                "region": region,
                "fiscal_quarter": quarter,
                **definitions_metadata(
                    DEFINITIONS, naive_reading="naive_calendar_quarter_order_date"
                ),
            },
        )
