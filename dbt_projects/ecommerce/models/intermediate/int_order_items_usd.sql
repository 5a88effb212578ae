with

order_items as (

    select * from {{ ref('stg_order_items') }}
    where not is_orphan

),

orders as (

    select order_id, order_date, currency_code from {{ ref('stg_orders') }}

),

fx_rates as (

    select * from {{ ref('stg_fx_rates') }}

),

converted as (

    select
        order_items.order_item_id,
        order_items.order_id,
        order_items.product_id,
        orders.order_date,
        orders.currency_code,
        order_items.quantity,
        order_items.unit_price,
        order_items.line_amount,
        order_items.discount_amount,
        order_items.net_line_amount,
        fx_rates.rate_to_usd as fx_rate_to_usd,
        -- Converted per line at the order date's rate and rounded to cents before any sum.
        round(order_items.line_amount * fx_rates.rate_to_usd, 2) as line_amount_usd,
        round(order_items.discount_amount * fx_rates.rate_to_usd, 2) as discount_amount_usd

    from order_items
    inner join orders on order_items.order_id = orders.order_id
    inner join fx_rates
        on fx_rates.rate_date = orders.order_date
        and fx_rates.currency_code = orders.currency_code

)

select
    *,
    round(line_amount_usd - discount_amount_usd, 2) as net_line_amount_usd
from converted
