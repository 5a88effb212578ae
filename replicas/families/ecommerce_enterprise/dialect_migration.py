"""``ecommerce_enterprise.dialect_migration-v1``: port a model written in Snowflake SQL to DuckDB
with identical output; graded on the visible data and on hidden datasets.

The sandbox holds the model as it ran on Snowflake, under ``migration/snowflake/`` (outside the
model paths, so dbt ignores it). The agent writes ``models/marts/migrated/<name>.sql``. Every
template uses Snowflake idioms DuckDB lacks — ``IFF``, ``DATEADD``, ``NVL``, ``ZEROIFNULL``,
``DIV0``, ``TO_CHAR``, ``LATERAL FLATTEN(SPLIT(...))``, ``LISTAGG ... WITHIN GROUP``,
``ARRAY_SIZE``, ``DAYOFWEEKISO`` — and semantics a mechanical translation gets wrong:
Snowflake's ``CONCAT`` is NULL when an argument is NULL (DuckDB's skips NULLs), ``DIV0`` gives
0 where DuckDB's division raises. The seed draws the template's parameters (windows,
thresholds), so the expected output and the port differ per seed. The reference is the
hand-written DuckDB port run on the pristine snapshot (and on every hidden dataset).
"""

from __future__ import annotations

from dataclasses import dataclass

from replicas.families.ecommerce_enterprise._common import (
    GRADING_WALL_S,
    REPLICA,
    Definition,
    as_family,
    definitions_metadata,
    render,
    with_v1_draws,
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


@dataclass(frozen=True)
class Template:
    name: str
    key: str
    owner: str
    snowflake: str
    duckdb: str
    tolerances: tuple[tuple[str, float], ...] = ()


SESSIONS = Template(
    "mart_session_paths",
    "session_id",
    "growth-analytics",
    """-- Migrated from Snowflake: ANALYTICS.MARTS.MART_SESSION_PATHS (owner: growth-analytics).
-- One row per web/app session of the last {days} days with at least {min_segments} path
-- segments: the distinct segments it visited, its deepest page and whether it bought.
select
    e.session_id,
    count(*) as path_segments_seen,
    listagg(distinct f.value::string, '|') within group (order by f.value::string) as segments,
    max(array_size(split(e.page_path, '/'))) as max_depth,
    iff(count_if(e.event_type = 'purchase') > 0, 'buyer', 'browser') as session_kind,
    to_char(min(e.event_at), 'YYYY-MM-DD') as first_seen_day
from {{{{ ref('stg_web__events') }}}} as e,
    lateral flatten(input => split(e.page_path, '/')) as f
where e.event_at >= dateadd(day, -{days}, '2026-06-30 23:59:59'::timestamp)
    and f.value::string <> ''
group by e.session_id
having count(*) >= {min_segments}
""",
    """with segments as (

    select
        e.session_id,
        e.page_path,
        e.event_type,
        e.event_at,
        t.segment
    from {{{{ ref('stg_web__events') }}}} as e,
        unnest(string_split(e.page_path, '/')) as t (segment)
    where e.event_at >= timestamp '2026-06-30 23:59:59' - interval {days} day
        and t.segment <> ''

)

select
    session_id,
    count(*) as path_segments_seen,
    string_agg(distinct segment, '|' order by segment) as segments,
    max(len(string_split(page_path, '/'))) as max_depth,
    case when count_if(event_type = 'purchase') > 0 then 'buyer' else 'browser' end
        as session_kind,
    strftime(min(event_at), '%Y-%m-%d') as first_seen_day
from segments
group by session_id
having count(*) >= {min_segments}
""",
)

CUSTOMERS = Template(
    "mart_customer_recency",
    "customer_id",
    "crm-analytics",
    """-- Migrated from Snowflake: ANALYTICS.MARTS.MART_CUSTOMER_RECENCY (owner: crm-analytics).
-- One row per real customer (first account per normalized email): orders and shipping of the
-- last {days} days, 'active' with at least {min_orders} of them, tenure, a tel: URI.
with recent as (
    select
        customer_id,
        count(*) as orders_recent,
        zeroifnull(sum(shipping_amount)) as shipping_recent
    from {{{{ ref('stg_shop__orders') }}}}
    where created_at >= dateadd(day, -{days}, '2026-06-30'::timestamp)
        and order_status <> 'cancelled'
    group by customer_id
)
select
    c.customer_id,
    concat('tel:', c.phone_number) as phone_uri,
    nvl(r.orders_recent, 0) as recent_orders,
    round(zeroifnull(r.shipping_recent), 2) as recent_shipping,
    iff(nvl(r.orders_recent, 0) >= {min_orders}, 'active', 'lapsed') as activity_status,
    datediff('day', c.signup_at, '2026-06-30'::timestamp) as tenure_days,
    to_char(c.signup_at, 'YYYY-MM') as signup_month
from {{{{ ref('stg_shop__customers') }}}} as c
left join recent as r on r.customer_id = c.customer_id
where not c.is_test_account
qualify row_number() over (partition by c.email_normalized order by c.customer_id) = 1
""",
    """with recent as (

    select
        customer_id,
        count(*) as orders_recent,
        coalesce(sum(shipping_amount), 0) as shipping_recent
    from {{{{ ref('stg_shop__orders') }}}}
    where created_at >= timestamp '2026-06-30' - interval {days} day
        and order_status <> 'cancelled'
    group by customer_id

)

select
    c.customer_id,
    'tel:' || c.phone_number as phone_uri,
    coalesce(r.orders_recent, 0) as recent_orders,
    round(coalesce(r.shipping_recent, 0), 2) as recent_shipping,
    case when coalesce(r.orders_recent, 0) >= {min_orders} then 'active' else 'lapsed' end
        as activity_status,
    date_diff('day', c.signup_at, timestamp '2026-06-30') as tenure_days,
    strftime(c.signup_at, '%Y-%m') as signup_month
from {{{{ ref('stg_shop__customers') }}}} as c
left join recent as r on r.customer_id = c.customer_id
where not c.is_test_account
qualify row_number() over (partition by c.email_normalized order by c.customer_id) = 1
""",
    (("recent_shipping", 0.011),),
)

TICKETS = Template(
    "mart_ticket_sla_outcomes",
    "ticket_id",
    "care-ops",
    """-- Migrated from Snowflake: ANALYTICS.MARTS.MART_TICKET_SLA_OUTCOMES (owner: care-ops).
-- One row per ticket created more than {months} month(s) before the data cut-off, with its
-- SLA outcome against a {hours}-hour first-response target.
select
    t.ticket_id,
    t.priority,
    datediff('hour', t.created_at, t.first_response_at) as first_response_hours,
    round(div0(datediff('minute', t.created_at, t.resolved_at),
               datediff('hour', t.created_at, t.first_response_at)), 2) as resolution_per_response_hour,
    iff(t.first_response_at is null, 'no_reply',
        iff(datediff('hour', t.created_at, t.first_response_at) <= {hours}, 'met', 'missed'))
        as sla_outcome,
    dayofweekiso(t.created_at) as created_weekday,
    nvl(t.ticket_channel, 'unknown') || '/' || t.priority as queue
from {{{{ ref('stg_sup__tickets') }}}} as t
where t.created_at < dateadd(month, -{months}, '2026-06-30'::timestamp)
""",
    """select
    t.ticket_id,
    t.priority,
    date_diff('hour', t.created_at, t.first_response_at) as first_response_hours,
    round(
        case
            when date_diff('hour', t.created_at, t.first_response_at) = 0 then 0
            else date_diff('minute', t.created_at, t.resolved_at)
                / date_diff('hour', t.created_at, t.first_response_at)
        end, 2
    ) as resolution_per_response_hour,
    case
        when t.first_response_at is null then 'no_reply'
        when date_diff('hour', t.created_at, t.first_response_at) <= {hours} then 'met'
        else 'missed'
    end as sla_outcome,
    isodow(t.created_at) as created_weekday,
    coalesce(t.ticket_channel, 'unknown') || '/' || t.priority as queue
from {{{{ ref('stg_sup__tickets') }}}} as t
where t.created_at < timestamp '2026-06-30' - interval {months} month
""",
    (("resolution_per_response_hour", 0.011),),
)

TEMPLATES = (SESSIONS, CUSTOMERS, TICKETS)


def _params(ctx: BuildContext, template: Template) -> dict[str, int]:
    rng = ctx.rng("params")
    if template is SESSIONS:
        return {"days": int(rng.integers(20, 90)), "min_segments": int(rng.integers(2, 6))}
    if template is CUSTOMERS:
        return {"days": int(rng.integers(45, 400)), "min_orders": int(rng.integers(1, 4))}
    return {"months": int(rng.integers(0, 7)), "hours": int(rng.choice([4, 8, 12, 24, 48]))}


@register_family
class DialectMigration(TaskFamily):
    name = "ecommerce_enterprise.dialect_migration-v1"
    replica = REPLICA
    description = "Port a Snowflake-SQL model to DuckDB with identical output (hidden data)."
    difficulty = "hard"
    n_variants = 4

    def make(self, ctx: BuildContext) -> Task:
        template = TEMPLATES[(ctx.variant + ctx.seed) % len(TEMPLATES)]
        params = _params(ctx, template)
        snowflake = template.snowflake.format(**params)
        duck = template.duckdb.format(**params)
        source_path = f"migration/snowflake/{template.name}.sql"
        target_path = f"models/marts/migrated/{template.name}.sql"
        instruction = (
            f"We are moving off Snowflake. {source_path} is the Snowflake SQL of the "
            f"{template.name} model ({template.owner}); it does not run on DuckDB. Port it to "
            f"DuckDB as the dbt model {target_path}: same name, same columns, and exactly the "
            "output Snowflake would give on the same data (mind functions whose NULL and "
            "division-by-zero behaviour differ between the two engines). Build it with the dbt "
            "tool. It is graded by rebuilding it on this data and on hidden datasets of the same "
            "schema. Submit a one-sentence summary when done."
        )
        return ctx.task(
            instruction=instruction,
            answer_kind="dbt",
            verifier=VerifierConfig(
                dbt_models=(template.name,),
                key_columns=(template.key,),
                reference_sql={template.name: render(duck)},
                column_tolerances=dict(template.tolerances),
                abs_tol=1e-6,
                hidden_data=True,
            ),
            sandbox_patch={source_path: snowflake},
            oracle=(
                write_file(target_path, duck),
                dbt(f"run --select {template.name}"),
                submit(f"Ported {template.name} to DuckDB."),
            ),
            metadata={
                "template": template.name,
                "params": params,
                **definitions_metadata(
                    (Definition("the model's Snowflake definition", "file", source_path, "select"),)
                ),
            },
        )


@register_family
class DialectMigrationV2(DialectMigration):
    """``ecommerce_enterprise.dialect_migration-v2``: v1's ports, graded on their own clock.

    What changed from v1, and why: grading has its own budget (``GRADING_WALL_S`` from
    ``submit``, ``Limits.grading_wall_s``) instead of what is left of the agent's 300 s. The
    hard-v1 audit found v1's oracle scoring 0 on a loaded machine because the rebuild on the
    fourth hidden dataset did not finish in the episode's remaining time (a second grading of
    the same port scored 1.0). The templates, parameters, instruction, reference and oracle are
    v1's, drawn with v1's randomness: a v2 task is its v1 twin under a new id.
    """

    name = "ecommerce_enterprise.dialect_migration-v2"
    description = (
        "Port a Snowflake-SQL model to DuckDB with identical output (hidden data; grading on "
        "its own time budget)."
    )

    def make(self, ctx: BuildContext) -> Task:
        task = super().make(with_v1_draws(ctx, DialectMigration()))
        return as_family(task, self.name, grading_wall_s=GRADING_WALL_S)
