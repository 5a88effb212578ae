select
    snapshot_date,
    warehouse_id,
    count(*) filter (where is_stocked_out) as stocked_out_products,
    count(*) filter (where is_uncounted) as uncounted_products
from {{ ref('int_stock_month_end') }}
group by 1, 2
