-- The tracker re-sends some events: same session, type and timestamp, new event_id.
select *
from {{ ref('stg_web__events') }}
qualify row_number() over (partition by session_id, event_type, event_at order by event_id) = 1
