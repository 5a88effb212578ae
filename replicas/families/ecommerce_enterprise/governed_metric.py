"""``ecommerce_enterprise.governed_metric-v1``: a governed metric of the semantic layer over a
stated period, exactly as its YAML defines it (filters, time dimension, ratio).

The instruction names the metric by its business label only. Its definition — which rows the
metric's ``filter`` keeps, which time dimension the period applies to, what the ratio divides —
lives in ``models/semantic/_metrics.yml`` and ``_semantic_models.yml``. Each variant draws one
metric (paid media spend, first-response SLA attainment, chargeback losses, average order
value) and one period; the wrong readings are the ungoverned shortcuts (filter dropped, other
time dimension, restated rows double counted, unanswered tickets left out, ...).
"""

from __future__ import annotations

from dataclasses import dataclass

from replicas.families.ecommerce_enterprise._common import (
    CALENDAR_QUARTERS,
    REPLICA,
    Definition,
    definitions_metadata,
    pick,
    quarter_bounds,
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

METRICS_YML = "models/semantic/_metrics.yml"
SEMANTIC_YML = "models/semantic/_semantic_models.yml"
HALF_YEARS = (("2024-01-01", "2024-06-30"), ("2024-07-01", "2024-12-31"),
              ("2025-01-01", "2025-06-30"), ("2025-07-01", "2025-12-31"),
              ("2026-01-01", "2026-06-30"))  # fmt: skip


@dataclass(frozen=True)
class Metric:
    name: str
    label: str
    unit: str  # "usd" or "ratio"
    truth: str
    wrong: tuple[tuple[str, str], ...]
    naive: str
    long_periods: bool = False


def _between(column: str) -> str:
    return f"cast({column} as date) between date '{{start}}' and date '{{end}}'"


_SPEND_USD = f"select round(coalesce(sum(spend_usd), 0), 2) from main.fct_ad_spend_daily where {_between('spend_date')}"
_SLA = (
    "select round(sum(case when {ok} then 1 else 0 end)::double / nullif(count(*), 0), 4) "
    "from main.fct_tickets where {scope} " + f"and {_between('created_at')}"
)
_LOSS = (
    "select round(coalesce(sum(chargeback_amount_usd), 0), 2) from main.fct_chargebacks "
    "where {outcome} and {period}"
)
_AOV = (
    "select round(sum({amount}) / nullif({count}, 0), 2) from main.fct_orders "
    f"where {_between('order_date')}"
)

METRICS: tuple[Metric, ...] = (
    Metric(
        "paid_media_spend",
        "paid media spend",
        "usd",
        _SPEND_USD + " and campaign_channel <> 'email'",
        (
            ("email_included", _SPEND_USD),
            (
                "restated_days_double_counted",
                "select round(coalesce(sum(round(s.spend_amount * fx.rate_to_usd, 2)), 0), 2) "
                "from main.stg_mkt__ad_spend s "
                "join main.stg_mkt__campaigns c on c.campaign_id = s.campaign_id "
                "join main.int_fx_rates_daily fx on fx.rate_date = s.spend_date "
                "and fx.currency_code = s.currency_code "
                f"where c.campaign_channel <> 'email' and {_between('s.spend_date')}",
            ),
            (
                "billing_currency_not_converted",
                "select round(coalesce(sum(spend_amount), 0), 2) from main.fct_ad_spend_daily "
                f"where campaign_channel <> 'email' and {_between('spend_date')}",
            ),
        ),
        "email_included",
    ),
    Metric(
        "first_response_sla_attainment",
        "first-response SLA attainment",
        "ratio",
        _SLA.replace("{ok}", "is_first_response_within_sla").replace(
            "{scope}", "priority <> 'low'"
        ),
        (
            (
                "low_priority_included",
                _SLA.replace("{ok}", "is_first_response_within_sla").replace("{scope}", "true"),
            ),
            (
                "unanswered_tickets_dropped",
                _SLA.replace("{ok}", "is_first_response_within_sla").replace(
                    "{scope}", "priority <> 'low' and first_response_at is not null"
                ),
            ),
            (
                "uniform_24h_sla",
                _SLA.replace("{ok}", "first_response_hours <= 24").replace(
                    "{scope}", "priority <> 'low'"
                ),
            ),
        ),
        "low_priority_included",
    ),
    Metric(
        "chargeback_losses",
        "chargeback losses",
        "usd",
        _LOSS.replace("{outcome}", "outcome in ('lost', 'accepted')").replace(
            "{period}", _between("resolved_at")
        ),
        (
            (
                "opened_date_basis",
                _LOSS.replace("{outcome}", "outcome in ('lost', 'accepted')").replace(
                    "{period}", _between("opened_at")
                ),
            ),
            (
                "every_outcome",
                _LOSS.replace("{outcome}", "true").replace("{period}", _between("opened_at")),
            ),
        ),
        "every_outcome",
        long_periods=True,
    ),
    Metric(
        "average_order_value",
        "average order value",
        "usd",
        _AOV.replace("{amount}", "net_revenue_usd").replace(
            "{count}", "count(*) filter (where is_revenue_order)"
        ),
        (
            (
                "gross_revenue",
                _AOV.replace("{amount}", "gross_revenue_usd").replace(
                    "{count}", "count(*) filter (where is_revenue_order)"
                ),
            ),
            (
                "cancelled_orders_counted",
                _AOV.replace("{amount}", "net_revenue_usd").replace("{count}", "count(*)"),
            ),
        ),
        "gross_revenue",
    ),
)

DEFINITIONS = (
    Definition("the governed metric (filter, ratio)", "file", METRICS_YML, "filter:"),
    Definition("the metric's measures and time dimension", "file", SEMANTIC_YML,
               "agg_time_dimension"),
)  # fmt: skip


@register_family
class GovernedMetric(TaskFamily):
    name = "ecommerce_enterprise.governed_metric-v1"
    replica = REPLICA
    description = "A semantic-layer metric over a period, with its governed filters and time grain."
    difficulty = "hard"
    n_variants = 4

    def make(self, ctx: BuildContext) -> Task:
        metric = METRICS[(ctx.variant + ctx.seed) % len(METRICS)]
        if metric.long_periods:
            start, end = pick(ctx, "half", HALF_YEARS)
            period = f"the half-year from {start} to {end}"
        else:
            year, quarter = pick(ctx, "quarter", CALENDAR_QUARTERS)
            start, end = quarter_bounds(year, quarter)
            period = f"{year}-Q{quarter} ({start} to {end})"
        truth_q = metric.truth.format(start=start, end=end)
        truth = ctx.scalar(truth_q)
        if truth is None:
            truth = 0.0
        wrong = {
            name: float(ctx.scalar(q.format(start=start, end=end)) or 0.0)
            for name, q in metric.wrong
        }
        if metric.unit == "usd":
            answer = "one number: US dollars, rounded to cents"
            verifier = VerifierConfig(abs_tol=0.01, unit="usd")
            shown = f"{float(truth):.2f}"
        else:
            answer = "one number: a fraction between 0 and 1, rounded to 4 decimals"
            verifier = VerifierConfig(abs_tol=0.0001)
            shown = f"{float(truth):.4f}"
        instruction = (
            f"For the quarterly business review: what was {metric.label} for {period}, UTC "
            f"dates inclusive? Use the company's governed definition of the metric. Submit "
            f"{answer}."
        )
        return ctx.task(
            instruction=instruction,
            answer_kind="number",
            expected=float(truth),
            verifier=verifier,
            oracle=(
                ToolCall("read_file", {"path": METRICS_YML}),
                ToolCall("read_file", {"path": SEMANTIC_YML}),
                sql(truth_q),
                submit(shown),
            ),
            wrong_readings=wrong,
            metadata={
                "metric": metric.name,
                "period": [start, end],
                **definitions_metadata(
                    (
                        *DEFINITIONS,
                        Definition(f"metric {metric.name}", "file", METRICS_YML, metric.name),
                    ),
                    naive_reading=metric.naive,
                ),
            },
        )
