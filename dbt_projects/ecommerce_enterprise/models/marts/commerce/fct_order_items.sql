select
    items.order_item_id,
    items.order_id,
    items.product_id,
    items.order_date,
    items.quantity,
    items.unit_price,
    items.discount_amount,
    items.fx_rate_to_usd,
    items.line_gross_usd,
    items.line_discount_usd,
    items.line_net_usd,
    orders.is_revenue_order,
    orders.sales_region
from {{ ref('int_order_items_usd') }} as items
inner join {{ ref('fct_orders') }} as orders on items.order_id = orders.order_id
