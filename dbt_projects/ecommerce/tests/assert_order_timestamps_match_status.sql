-- Every order's timestamps must match its status (as of 2026-06-30 23:59:59 UTC):
-- placed: none; shipped: shipped_at; completed: shipped_at + delivered_at;
-- returned: shipped_at + delivered_at + returned_at; cancelled: cancelled_at only.
-- Returns the offending orders.

select order_id, order_status, shipped_at, delivered_at, cancelled_at, returned_at
from {{ ref('stg_orders') }}
where
    (shipped_at is not null) <> (order_status in ('shipped', 'completed', 'returned'))
    or (delivered_at is not null) <> (order_status in ('completed', 'returned'))
    or (returned_at is not null) <> (order_status = 'returned')
    or (cancelled_at is not null) <> (order_status = 'cancelled')
    or greatest(created_at, shipped_at, delivered_at, cancelled_at, returned_at)
        > timestamp '2026-06-30 23:59:59'
