select
    order_date,
    count(*) filter (where is_revenue_order) as revenue_orders,
    round(sum(gross_revenue_usd), 2) as gross_revenue_usd,
    round(sum(net_revenue_usd), 2) as net_revenue_usd
from {{ ref('fct_orders') }}
group by order_date
