select
    shipment_id,
    event_type as latest_scan_type,
    event_at as latest_scan_at
from {{ ref('stg_ful__shipment_events') }}
qualify row_number() over (partition by shipment_id order by event_at desc, shipment_event_id desc) = 1
