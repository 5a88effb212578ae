-- Each order line with the category its product had when the order was placed.
with items as (

    select * from {{ ref('int_order_items_usd') }}

),

orders as (

    select order_id, created_at from {{ ref('stg_shop__orders') }}

),

versions as (

    select * from {{ ref('int_product_versions') }}

)

select
    items.order_item_id,
    items.order_id,
    items.product_id,
    items.order_date,
    versions.category_name as category_at_order,
    items.line_gross_usd,
    items.line_discount_usd,
    items.line_net_usd
from items
inner join orders on items.order_id = orders.order_id
left join versions
    on
        items.product_id = versions.product_id
        and orders.created_at >= versions.valid_from
        and orders.created_at < versions.valid_to
