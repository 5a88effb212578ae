select
    subscription_event_id,
    subscription_id,
    event_type,
    event_at,
    plan_id
from {{ ref('stg_sub__subscription_events') }}
