select
    person_id,
    count(*) filter (where is_revenue_order) as revenue_orders,
    round(sum(net_revenue_usd), 2) as lifetime_net_revenue_usd,
    min(order_date) as first_order_date,
    max(order_date) as last_order_date
from {{ ref('fct_orders') }}
group by person_id
