select
    product_id,
    cast(date_trunc('month', order_date) as date) as sales_month,
    sum(quantity) filter (where is_revenue_order) as units_sold,
    round(sum(line_net_usd) filter (where is_revenue_order), 2) as net_sales_usd
from {{ ref('fct_order_items') }}
group by 1, 2
