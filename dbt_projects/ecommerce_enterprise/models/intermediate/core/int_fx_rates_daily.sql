-- Treasury publishes rates on business days only. Every calendar day gets the last rate
-- published on or before it (as-of), so weekend and holiday amounts still convert.
with days as (

    select date_day from {{ ref('int_calendar_days') }}

),

rates as (

    select rate_date, currency_code, rate_to_usd from {{ ref('stg_fin__fx_rates') }}

),

currencies as (

    select distinct currency_code from rates

),

grid as (

    select days.date_day, currencies.currency_code
    from days
    cross join currencies

)

select
    grid.date_day as rate_date,
    grid.currency_code,
    rates.rate_date as published_rate_date,
    rates.rate_to_usd,
    grid.date_day <> rates.rate_date as is_carried_forward
from grid
asof left join rates
    on
        grid.currency_code = rates.currency_code
        and grid.date_day >= rates.rate_date
