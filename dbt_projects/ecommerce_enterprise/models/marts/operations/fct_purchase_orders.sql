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
    order_value_usd,
    lead_time_days,
    is_late
from {{ ref('int_purchase_order_receipts') }}
