-- Item subtotal, discounts and refunds of each order in the order's own currency.
with items as (

    select
        order_id,
        sum(quantity * unit_price) as items_subtotal,
        sum(discount_amount) as items_discount
    from {{ ref('stg_shop__order_items') }}
    group by order_id

),

refunds as (

    select order_id, sum(refund_amount) as refunds_amount
    from {{ ref('stg_pay__refunds') }}
    group by order_id

)

select
    orders.order_id,
    orders.currency_code,
    round(coalesce(items.items_subtotal, 0), 2) as items_subtotal,
    round(coalesce(items.items_discount, 0), 2) as items_discount,
    round(coalesce(refunds.refunds_amount, 0), 2) as refunds_amount
from {{ ref('stg_shop__orders') }} as orders
left join items on orders.order_id = items.order_id
left join refunds on orders.order_id = refunds.order_id
