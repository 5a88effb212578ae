with

order_items as (

    select * from {{ ref('int_order_items_usd') }}

),

orders as (

    select order_id, customer_id, order_status, channel, is_revenue_order
    from {{ ref('fct_orders') }}

),

products as (

    select product_id, category, brand from {{ ref('stg_products') }}

),

joined as (

    select
        order_items.order_item_id,
        order_items.order_id,
        orders.customer_id,
        order_items.product_id,
        products.category,
        products.brand,
        order_items.order_date,
        orders.order_status,
        orders.channel,
        orders.is_revenue_order,
        orders.order_status = 'returned' as is_returned_order,
        order_items.currency_code,
        order_items.quantity,
        order_items.unit_price,
        order_items.line_amount,
        order_items.discount_amount,
        order_items.fx_rate_to_usd,
        order_items.line_amount_usd,
        order_items.discount_amount_usd,
        order_items.net_line_amount_usd

    from order_items
    inner join orders on order_items.order_id = orders.order_id
    inner join products on order_items.product_id = products.product_id

)

select * from joined
