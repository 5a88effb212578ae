with entries as (

    select * from {{ ref('stg_fin__gl_entries') }}

),

fx as (

    select rate_date, currency_code, rate_to_usd from {{ ref('int_fx_rates_daily') }}

),

mapping as (

    select * from {{ ref('gl_account_mapping') }}

)

select
    entries.gl_entry_id,
    entries.posting_date,
    cast(date_trunc('month', entries.posting_date) as date) as posting_month,
    entries.account_code,
    mapping.pnl_line,
    entries.cost_center_id,
    entries.amount,
    entries.currency_code,
    round(entries.amount * fx.rate_to_usd, 2) as amount_usd,
    entries.source_document,
    entries.order_id
from entries
left join fx
    on
        entries.posting_date = fx.rate_date
        and entries.currency_code = fx.currency_code
left join mapping on entries.account_code = cast(mapping.account_code as varchar)
