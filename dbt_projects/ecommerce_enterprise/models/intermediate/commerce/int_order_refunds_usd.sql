with refunds as (

    select * from {{ ref('stg_pay__refunds') }}

),

orders as (

    select order_id, order_date, currency_code from {{ ref('stg_shop__orders') }}

),

fx as (

    select rate_date, currency_code, rate_to_usd from {{ ref('int_fx_rates_daily') }}

)

select
    refunds.order_id,
    count(*) as refund_count,
    round(sum(refunds.refund_amount), 2) as refunds_amount,
    round(sum(round(refunds.refund_amount * fx.rate_to_usd, 2)), 2) as refunds_usd,
    max(refunds.refunded_at) as last_refunded_at
from refunds
inner join orders on refunds.order_id = orders.order_id
left join fx
    on
        orders.order_date = fx.rate_date
        and orders.currency_code = fx.currency_code
group by refunds.order_id
