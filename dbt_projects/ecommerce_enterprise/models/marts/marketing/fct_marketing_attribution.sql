select
    orders.order_id,
    orders.order_date,
    orders.net_revenue_usd,
    touch.campaign_id,
    coalesce(touch.touch_channel, 'unattributed') as attributed_channel,
    touch.touched_at
from {{ ref('fct_orders') }} as orders
left join {{ ref('int_order_last_touch') }} as touch on orders.order_id = touch.order_id
where orders.is_revenue_order
