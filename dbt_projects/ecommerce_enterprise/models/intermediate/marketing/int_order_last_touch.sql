-- Last-touch attribution: the latest ad click of the ordering account in the 30 days before
-- the order (clicks the tracker linked to another order are ignored).
with orders as (

    select order_id, customer_id, created_at from {{ ref('stg_shop__orders') }}

),

touches as (

    select * from {{ ref('stg_mkt__touchpoints') }}

)

select
    orders.order_id,
    touches.touchpoint_id,
    touches.campaign_id,
    touches.touch_channel,
    touches.touched_at
from orders
inner join touches
    on
        orders.customer_id = touches.customer_id
        and touches.touched_at <= orders.created_at
        and touches.touched_at > orders.created_at - interval 30 day
        and (touches.order_id is null or touches.order_id = orders.order_id)
qualify
    row_number() over (partition by orders.order_id order by touches.touched_at desc, touches.touchpoint_id desc) = 1
