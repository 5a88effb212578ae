select
    snapshot_date,
    warehouse_id,
    product_id,
    on_hand_units,
    reserved_units,
    available_units,
    is_uncounted,
    is_stocked_out
from {{ ref('int_stock_month_end') }}
