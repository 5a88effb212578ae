"""``ecommerce_enterprise.refactor_split-v1``: split a monolithic legacy model into the project's
layers without changing what it computes.

The sandbox gains ``models/marts/legacy/rpt_channel_performance.sql``: a long model that reads
seven sources directly and re-implements staging (renames, schema-drift handling, test-account
filtering), the as-of FX rule, restated-spend de-duplication and last-touch attribution in
CTEs. The seed draws its attribution window, the months it covers and the channels it reports,
so the monolith and its split differ per seed. The agent must move it onto the project's
conventions (``__overview__`` docs page): sources only in staging, joins and rules in
intermediate models ``int_channel_orders`` (one row per attributed revenue order) and
``int_channel_spend`` (one row per channel and month), and a thin mart on top, each documented
in YAML.

Grading: all three models are rebuilt on the visible data and on hidden datasets and compared
with the monolith's own CTEs (output equality), then the structure is checked: no ``source()``
in the three models, the mart reads both intermediate models, the intermediate models read only
staging or intermediate models, and each model has a YAML entry with a description.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from replicas.families.ecommerce_enterprise._common import (
    REPLICA,
    Definition,
    definitions_metadata,
    render,
)
from replicas.tasks import (
    BuildContext,
    Task,
    TaskFamily,
    VerifierConfig,
    dbt,
    register_family,
    submit,
    write_file,
)
from replicas.tasks.grading import GradeContext, default_grade
from replicas.verifiers.verdict import Reason, Verdict

MART = "rpt_channel_performance"
ORDERS_INT = "int_channel_orders"
SPEND_INT = "int_channel_spend"
MART_PATH = f"models/marts/legacy/{MART}.sql"
ORDERS_PATH = f"models/intermediate/marketing/{ORDERS_INT}.sql"
SPEND_PATH = f"models/intermediate/marketing/{SPEND_INT}.sql"
YAML_PATH = "models/intermediate/marketing/_channel_performance.yml"
CHANNEL_SETS = (
    ("paid_search", "social", "affiliate", "email", "display"),
    ("paid_search", "social", "display"),
    ("paid_search", "affiliate", "email"),
    ("social", "affiliate", "display", "email"),
)


@dataclass(frozen=True)
class Params:
    window_days: int
    start: str
    end: str
    channels: tuple[str, ...]

    @property
    def channel_list(self) -> str:
        return ", ".join(f"'{c}'" for c in self.channels)


#: name → (body reading sources, body reading the project's models). The two bodies of a
#: staging-like CTE return the same columns and rows.
def _ctes(p: Params) -> list[tuple[str, str, str]]:
    return [
        (
            "orders",
            """select
        order_id,
        customer_id,
        created_at,
        cast(created_at as date) as order_date,
        order_status,
        currency_code
    from {{ source('shop', 'orders') }}""",
            "select order_id, customer_id, created_at, order_date, order_status, currency_code\n"
            "    from {{ ref('stg_shop__orders') }}",
        ),
        (
            "customers",
            """select customer_id, is_test_account
    from {{ source('shop', 'customers') }}""",
            "select customer_id, is_test_account from {{ ref('stg_shop__customers') }}",
        ),
        (
            "order_lines",
            """select
        order_id,
        sum(quantity * unit_price) as items_subtotal,
        sum(discount_amount) as items_discount
    from {{ source('shop', 'order_items') }}
    group by order_id""",
            "select\n        order_id,\n        sum(quantity * unit_price) as items_subtotal,\n"
            "        sum(discount_amount) as items_discount\n"
            "    from {{ ref('stg_shop__order_items') }}\n    group by order_id",
        ),
        (
            "refunds",
            """-- the processor's export switched to a text amount in spring 2026
    select
        order_id,
        sum(coalesce(amount, cast(refund_amount_text as double))) as refunds_amount
    from {{ source('pay', 'refunds') }}
    group by order_id""",
            "select order_id, sum(refund_amount) as refunds_amount\n"
            "    from {{ ref('stg_pay__refunds') }}\n    group by order_id",
        ),
        (
            "fx",
            """-- Treasury publishes business days only: carry the last rate forward (as-of)
    select
        days.date_day,
        rates.currency_code,
        rates.rate_to_usd
    from (
        select cast(range as date) as date_day
        from range(date '2024-01-01', date '2026-07-01', interval 1 day)
    ) as days
    cross join (select distinct currency_code from {{ source('fin', 'fx_rates') }}) as currencies
    asof left join {{ source('fin', 'fx_rates') }} as rates
        on currencies.currency_code = rates.currency_code
        and days.date_day >= rates.rate_date""",
            "select rate_date as date_day, currency_code, rate_to_usd\n"
            "    from {{ ref('int_fx_rates_daily') }}",
        ),
        (
            "touches",
            """select touchpoint_id, customer_id, channel as touch_channel, touched_at, order_id
    from {{ source('mkt', 'touchpoints') }}""",
            "select touchpoint_id, customer_id, touch_channel, touched_at, order_id\n"
            "    from {{ ref('stg_mkt__touchpoints') }}",
        ),
        (
            "spend_latest",
            """-- platforms restate days: keep the latest extract of each (day, campaign)
    select spend_date, campaign_id, spend as spend_amount, currency_code
    from {{ source('mkt', 'ad_spend') }}
    qualify row_number() over (
        partition by spend_date, campaign_id order by _extracted_at desc
    ) = 1""",
            "select spend_date, campaign_id, spend_amount, currency_code\n"
            "    from {{ ref('int_ad_spend_latest') }}",
        ),
        (
            "campaigns",
            """select campaign_id, channel as campaign_channel
    from {{ source('mkt', 'campaigns') }}""",
            "select campaign_id, campaign_channel from {{ ref('stg_mkt__campaigns') }}",
        ),
    ]


def _logic(p: Params) -> list[tuple[str, str]]:
    return [
        (
            "revenue_orders",
            f"""select
        orders.order_id,
        orders.customer_id,
        orders.created_at,
        cast(date_trunc('month', orders.order_date) as date) as order_month,
        round(
            (coalesce(order_lines.items_subtotal, 0) - coalesce(order_lines.items_discount, 0)
             - coalesce(refunds.refunds_amount, 0)) * fx.rate_to_usd,
            2
        ) as net_revenue_usd
    from orders
    inner join customers on orders.customer_id = customers.customer_id
    left join order_lines on orders.order_id = order_lines.order_id
    left join refunds on orders.order_id = refunds.order_id
    left join fx on orders.order_date = fx.date_day and orders.currency_code = fx.currency_code
    where not customers.is_test_account
        and orders.order_status <> 'cancelled'
        and orders.order_date between date '{p.start}' and date '{p.end}'""",
        ),
        (
            ORDERS_INT,
            f"""select
        revenue_orders.order_id,
        revenue_orders.order_month,
        revenue_orders.net_revenue_usd,
        touches.touchpoint_id,
        touches.touch_channel as channel
    from revenue_orders
    inner join touches
        on revenue_orders.customer_id = touches.customer_id
        and touches.touched_at <= revenue_orders.created_at
        and touches.touched_at > revenue_orders.created_at - interval {p.window_days} day
        and (touches.order_id is null or touches.order_id = revenue_orders.order_id)
    where touches.touch_channel in ({p.channel_list})
    qualify row_number() over (
        partition by revenue_orders.order_id
        order by touches.touched_at desc, touches.touchpoint_id desc
    ) = 1""",
        ),
        (
            SPEND_INT,
            f"""select
        campaigns.campaign_channel as channel,
        cast(date_trunc('month', spend_latest.spend_date) as date) as spend_month,
        round(sum(round(spend_latest.spend_amount * fx.rate_to_usd, 2)), 2) as spend_usd
    from spend_latest
    inner join campaigns on spend_latest.campaign_id = campaigns.campaign_id
    left join fx
        on spend_latest.spend_date = fx.date_day
        and spend_latest.currency_code = fx.currency_code
    where campaigns.campaign_channel in ({p.channel_list})
        and spend_latest.spend_date between date '{p.start}' and date '{p.end}'
    group by 1, 2""",
        ),
        (
            MART,
            f"""select
        coalesce(spend.channel, attributed.channel) as channel,
        coalesce(spend.spend_month, attributed.order_month) as month_start,
        coalesce(attributed.orders, 0) as attributed_orders,
        round(coalesce(attributed.revenue_usd, 0), 2) as attributed_revenue_usd,
        coalesce(spend.spend_usd, 0) as spend_usd,
        case when coalesce(spend.spend_usd, 0) = 0 then null
             else round(coalesce(attributed.revenue_usd, 0) / spend.spend_usd, 4) end as roas
    from (
        select channel, order_month, count(*) as orders, sum(net_revenue_usd) as revenue_usd
        from {ORDERS_INT}
        group by 1, 2
    ) as attributed
    full outer join {SPEND_INT} as spend
        on attributed.channel = spend.channel
        and attributed.order_month = spend.spend_month""",
        ),
    ]


def _with(ctes: list[tuple[str, str]], final: str) -> str:
    body = ",\n\n".join(f"{name} as (\n\n    {sql}\n\n)" for name, sql in ctes)
    return f"with\n\n{body}\n\nselect * from {final}\n"


def monolith(p: Params) -> str:
    head = (
        "-- rpt_channel_performance: monthly attributed revenue, spend and ROAS per channel.\n"
        f"-- Last touch within {p.window_days} days before the order; channels "
        f"{', '.join(p.channels)}; orders and spend from {p.start} to {p.end}.\n"
        "-- Written in 2023 before the project had a staging layer; reads sources directly.\n"
    )
    ctes = [(n, src) for n, src, _ in _ctes(p)] + _logic(p)
    return head + _with(ctes, MART)


def reference(p: Params, model: str) -> str:
    ctes = [(n, src) for n, src, _ in _ctes(p)] + _logic(p)
    upto = [c for c in ctes[: [n for n, _ in ctes].index(model) + 1]]
    return render(_with(upto, model))


def _split(p: Params) -> dict[str, str]:
    """The oracle's refactor: staging-backed CTEs, two intermediate models and a thin mart."""
    staged = {n: ref for n, _, ref in _ctes(p)}
    logic = dict(_logic(p))
    orders_ctes = [(n, staged[n]) for n in ("orders", "customers", "order_lines", "refunds", "fx",
                                           "touches")]  # fmt: skip
    orders_ctes += [("revenue_orders", logic["revenue_orders"]), (ORDERS_INT, logic[ORDERS_INT])]
    spend_ctes = [(n, staged[n]) for n in ("spend_latest", "campaigns", "fx")]
    spend_ctes.append((SPEND_INT, logic[SPEND_INT]))
    mart = logic[MART].replace(f"from {ORDERS_INT}", f"from {{{{ ref('{ORDERS_INT}') }}}}")
    mart = mart.replace(f"join {SPEND_INT} as", f"join {{{{ ref('{SPEND_INT}') }}}} as")
    yaml = f"""version: 2

models:
  - name: {ORDERS_INT}
    description: One row per revenue order of a real customer from {p.start} to {p.end} with its last ad touch within {p.window_days} days (channels {", ".join(p.channels)}).
  - name: {SPEND_INT}
    description: One row per channel and month with paid spend in USD (latest extract, Treasury rate as of the spend date).
  - name: {MART}
    description: Monthly attributed revenue, spend and ROAS per channel, built on {ORDERS_INT} and {SPEND_INT}.
"""
    return {
        ORDERS_PATH: _with(orders_ctes, ORDERS_INT),
        SPEND_PATH: _with(spend_ctes, SPEND_INT),
        MART_PATH: f"select *\nfrom (\n    {mart}\n) as channel_performance\n",
        YAML_PATH: yaml,
    }


_REF = re.compile(r"ref\(\s*['\"](\w+)['\"]\s*\)")


def structure_problems(project: Path) -> list[str]:
    """What the agent's project breaks of the layering the task asks for."""
    models = {p.stem: p for p in (project / "models").rglob("*.sql")}
    problems: list[str] = []
    for name in (ORDERS_INT, SPEND_INT, MART):
        if name not in models:
            problems.append(f"{name}.sql is missing")
    if problems:
        return problems
    texts = {name: models[name].read_text(encoding="utf-8", errors="replace")
             for name in (ORDERS_INT, SPEND_INT, MART)}  # fmt: skip
    for name, text in texts.items():
        if "source(" in text:
            problems.append(f"{name} reads a source directly (sources belong in staging)")
    mart_refs = set(_REF.findall(texts[MART]))
    for needed in (ORDERS_INT, SPEND_INT):
        if needed not in mart_refs:
            problems.append(f"{MART} does not build on {needed}")
    for name in (ORDERS_INT, SPEND_INT):
        for parent in _REF.findall(texts[name]):
            if not parent.startswith(("stg_", "int_")):
                problems.append(
                    f"{name} reads {parent}: intermediate models read staging or intermediate models only"
                )
    yaml_text = "\n".join(p.read_text(encoding="utf-8", errors="replace")
                          for p in (project / "models").rglob("*.yml"))  # fmt: skip
    for name in (ORDERS_INT, SPEND_INT, MART):
        entry = re.search(rf"name:\s*{name}\s*\n\s*description:\s*\S", yaml_text)
        if not entry:
            problems.append(f"{name} has no YAML entry with a description")
    return problems


@register_family
class RefactorSplit(TaskFamily):
    name = "ecommerce_enterprise.refactor_split-v1"
    replica = REPLICA
    description = "Split a source-reading monolith into staging/intermediate/mart, same output."
    difficulty = "hard"
    n_variants = 4

    def make(self, ctx: BuildContext) -> Task:
        rng = ctx.rng("params")
        year = int(rng.integers(2024, 2026))
        first = int(rng.integers(1, 7))
        params = Params(
            window_days=int(rng.choice([7, 10, 14, 21, 30])),
            start=f"{year}-{first:02d}-01",
            end=f"{year + 1}-{first:02d}-01",
            channels=CHANNEL_SETS[int(rng.integers(0, len(CHANNEL_SETS)))],
        )
        instruction = (
            f"{MART_PATH} is a legacy model that reads raw sources directly and re-implements "
            "half the project inside one query. Refactor it onto the project's conventions "
            "(see the __overview__ docs page) without changing what it computes: move its logic "
            f"into two intermediate models, {ORDERS_INT} (one row per attributed revenue "
            f"order: order_id, order_month, net_revenue_usd, touchpoint_id, channel) and "
            f"{SPEND_INT} (one row per channel and month: channel, spend_month, spend_usd), "
            "that read only staging or intermediate models, and keep "
            f"{MART} as a thin mart on top of both. Document all three in YAML. Graded by "
            "rebuilding the three models on this data and on hidden datasets (exact output) "
            "and by checking that structure. Submit a one-sentence summary when done."
        )
        split = _split(params)
        models = (ORDERS_INT, SPEND_INT, MART)
        keys = {ORDERS_INT: ("order_id",), SPEND_INT: ("channel", "spend_month")}
        return ctx.task(
            instruction=instruction,
            answer_kind="dbt",
            verifier=VerifierConfig(
                dbt_models=models,
                reference_sql={m: reference(params, m) for m in models},
                abs_tol=0.005,
                hidden_data=True,
            ),
            sandbox_patch={MART_PATH: monolith(params)},
            oracle=(
                *(write_file(path, text) for path, text in sorted(split.items())),
                dbt(f"run --select +{MART}"),
                submit(f"Split {MART} into {ORDERS_INT}, {SPEND_INT} and a thin mart."),
            ),
            metadata={
                "window_days": params.window_days,
                "period": [params.start, params.end],
                "channels": list(params.channels),
                "keys": {k: list(v) for k, v in keys.items()},
                **definitions_metadata(
                    (
                        Definition(
                            "layering conventions",
                            "file",
                            "models/docs/overview.md",
                            "sources only in staging",
                        ),
                    )
                ),
            },
        )

    def grade(self, task: Task, answer: str, ctx: GradeContext) -> Verdict:
        verdict = default_grade(task, answer, ctx)
        problems = structure_problems(ctx.project_dir)
        if not problems:
            return verdict
        reasons = (*verdict.reasons, *(Reason("structure", p) for p in problems))
        return Verdict(
            score=0.0,
            passed=False,
            reasons=tuple(reasons),
            feedback=" ".join(r.message for r in reasons[:5]),
            objective_scores={**dict(verdict.objective_scores), "structure": 0.0},
        )
