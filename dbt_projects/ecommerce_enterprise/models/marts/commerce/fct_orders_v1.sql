-- DEPRECATED (2025-03): replaced by fct_orders (commercial) and fct_revenue_recognized (Finance).
-- revenue_old is the connector's pre-2025 field: items + shipping + tax in local currency,
-- before discounts and refunds. Kept for the legacy exec dashboard only.
select
    orders.order_id,
    orders.customer_id,
    orders.order_date,
    orders.order_status,
    orders.channel,
    orders.currency_code,
    orders.revenue_old,
    orders.revenue_old as revenue
from {{ ref('stg_shop__orders') }} as orders
