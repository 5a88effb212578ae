-- Commercial view of orders (the trading dashboard): order-date basis, FX as of the order date.
with orders as (

    select * from {{ ref('int_orders') }}
    where not is_test_account

),

amounts as (

    select * from {{ ref('int_order_amounts_local') }}

),

items as (

    select
        order_id,
        sum(line_gross_usd) as items_subtotal_usd,
        sum(line_discount_usd) as items_discount_usd
    from {{ ref('int_order_items_usd') }}
    group by order_id

),

refunds as (

    select order_id, refunds_usd from {{ ref('int_order_refunds_usd') }}

),

fx as (

    select rate_date, currency_code, rate_to_usd from {{ ref('int_fx_rates_daily') }}

)

select
    orders.order_id,
    orders.customer_id,
    orders.person_id,
    orders.created_at,
    orders.created_at_local,
    orders.order_date,
    orders.order_date_local,
    orders.order_status,
    orders.is_revenue_order,
    orders.channel,
    orders.currency_code,
    orders.country_code,
    orders.sales_region,
    orders.delivered_date,
    fx.rate_to_usd as fx_rate_to_usd,
    amounts.items_subtotal as items_subtotal_local,
    round(coalesce(items.items_subtotal_usd, 0), 2) as items_subtotal_usd,
    round(coalesce(items.items_discount_usd, 0), 2) as items_discount_usd,
    round(coalesce(refunds.refunds_usd, 0), 2) as refunds_usd,
    case when orders.is_revenue_order then round(coalesce(items.items_subtotal_usd, 0), 2) else 0 end
        as gross_revenue_usd,
    case
        when orders.is_revenue_order
            then
                round(
                    coalesce(items.items_subtotal_usd, 0)
                    - coalesce(items.items_discount_usd, 0)
                    - coalesce(refunds.refunds_usd, 0),
                    2
                )
        else 0
    end as net_revenue_usd,
    round(orders.shipping_amount * fx.rate_to_usd, 2) as shipping_usd,
    round(orders.tax_amount * fx.rate_to_usd, 2) as tax_usd
from orders
left join amounts on orders.order_id = amounts.order_id
left join items on orders.order_id = items.order_id
left join refunds on orders.order_id = refunds.order_id
left join fx
    on
        orders.order_date = fx.rate_date
        and orders.currency_code = fx.currency_code
