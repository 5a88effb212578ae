-- Every connector column of the order header beside the commercial amounts (BI extract).
select
    orders.*,
    facts.is_revenue_order,
    facts.sales_region,
    facts.fx_rate_to_usd,
    facts.gross_revenue_usd,
    facts.net_revenue_usd,
    facts.refunds_usd
from {{ ref('stg_shop__orders') }} as orders
inner join {{ ref('fct_orders') }} as facts on orders.order_id = facts.order_id
