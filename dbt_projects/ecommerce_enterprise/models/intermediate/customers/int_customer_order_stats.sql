select
    customer_id,
    count(*) filter (where is_revenue_order) as revenue_orders,
    min(created_at) filter (where is_revenue_order) as first_order_at,
    max(created_at) filter (where is_revenue_order) as last_order_at
from {{ ref('int_orders') }}
group by customer_id
