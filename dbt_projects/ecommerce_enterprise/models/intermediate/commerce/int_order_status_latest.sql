-- The latest status event of each order, as the event log saw it.
select
    order_id,
    order_status as latest_event_status,
    event_at as latest_event_at,
    loaded_at as latest_event_loaded_at
from {{ ref('stg_shop__order_status_events') }}
qualify row_number() over (partition by order_id order by event_at desc, status_event_id desc) = 1
