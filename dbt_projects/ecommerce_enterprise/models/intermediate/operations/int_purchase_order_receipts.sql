select
    purchase_order_id,
    supplier_id,
    warehouse_id,
    product_id,
    ordered_at,
    expected_at,
    received_at,
    ordered_units,
    unit_cost_usd,
    round(ordered_units * unit_cost_usd, 2) as order_value_usd,
    date_diff('day', ordered_at, received_at) as lead_time_days,
    received_at > expected_at as is_late
from {{ ref('stg_inv__purchase_orders') }}
