-- Finance's revenue: recognised on delivery (UTC date of delivered_at), net of discounts and
-- every refund of the order, converted at the Treasury rate as of the recognition date.
with orders as (

    select * from {{ ref('int_orders') }}
    where
        not is_test_account
        and is_revenue_order
        and delivered_at is not null

),

amounts as (

    select * from {{ ref('int_order_amounts_local') }}

),

fx as (

    select rate_date, currency_code, rate_to_usd from {{ ref('int_fx_rates_daily') }}

)

select
    orders.order_id,
    orders.customer_id,
    orders.person_id,
    orders.delivered_date as recognized_date,
    orders.country_code,
    orders.sales_region,
    orders.currency_code,
    fx.rate_to_usd as fx_rate_to_usd,
    amounts.items_subtotal,
    amounts.items_discount,
    amounts.refunds_amount,
    round(amounts.items_subtotal - amounts.items_discount - amounts.refunds_amount, 2) as net_revenue_local,
    round(amounts.items_subtotal * fx.rate_to_usd, 2) as gross_revenue_usd,
    round((amounts.items_subtotal - amounts.items_discount - amounts.refunds_amount) * fx.rate_to_usd, 2)
        as net_revenue_usd
from orders
inner join amounts on orders.order_id = amounts.order_id
left join fx
    on
        orders.delivered_date = fx.rate_date
        and orders.currency_code = fx.currency_code
