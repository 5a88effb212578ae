-- Revenue is recognised on delivery: every recognised order has a delivery time.
select recognized.order_id
from {{ ref('fct_revenue_recognized') }} as recognized
inner join {{ ref('stg_shop__orders') }} as orders on recognized.order_id = orders.order_id
where orders.delivered_at is null
