-- Order lines in USD at the Treasury rate as of the order's UTC date.
with items as (

    select * from {{ ref('stg_shop__order_items') }}

),

orders as (

    select order_id, order_date, currency_code from {{ ref('stg_shop__orders') }}

),

fx as (

    select rate_date, currency_code, rate_to_usd from {{ ref('int_fx_rates_daily') }}

)

select
    items.order_item_id,
    items.order_id,
    items.product_id,
    orders.order_date,
    items.quantity,
    items.unit_price,
    items.discount_amount,
    fx.rate_to_usd as fx_rate_to_usd,
    round(items.quantity * items.unit_price * fx.rate_to_usd, 2) as line_gross_usd,
    round(items.discount_amount * fx.rate_to_usd, 2) as line_discount_usd,
    round((items.quantity * items.unit_price - items.discount_amount) * fx.rate_to_usd, 2) as line_net_usd
from items
inner join orders on items.order_id = orders.order_id
left join fx
    on
        orders.order_date = fx.rate_date
        and orders.currency_code = fx.currency_code
