select
    cast(date_trunc('month', recognized_date) as date) as recognized_month,
    sales_region,
    count(*) as recognized_orders,
    round(sum(net_revenue_usd), 2) as net_revenue_usd
from {{ ref('fct_revenue_recognized') }}
group by 1, 2
