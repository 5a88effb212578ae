-- One row per subscription and calendar month it was active on the month's first day.
with subscriptions as (

    select * from {{ ref('stg_sub__subscriptions') }}

),

plans as (

    select * from {{ ref('stg_sub__plans') }}

),

months as (

    select distinct month_start from {{ ref('int_calendar_days') }}

)

select
    subscriptions.subscription_id,
    subscriptions.customer_id,
    months.month_start,
    plans.plan_code,
    case
        when plans.billing_period = 'annual' then round(plans.price_usd / 12, 2)
        else plans.price_usd
    end as mrr_usd
from subscriptions
inner join plans on subscriptions.plan_id = plans.plan_id
inner join months
    on
        months.month_start >= cast(subscriptions.started_at as date)
        and (subscriptions.cancelled_at is null or months.month_start < cast(subscriptions.cancelled_at as date))
