select
    snapshot_date,
    warehouse_id,
    product_id,
    on_hand_units,
    reserved_units,
    on_hand_units is null as is_uncounted,
    greatest(coalesce(on_hand_units, 0) - reserved_units, 0) as available_units,
    coalesce(on_hand_units, 0) = 0 and on_hand_units is not null as is_stocked_out
from {{ ref('stg_inv__stock_snapshots') }}
