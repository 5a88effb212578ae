select
    session_id,
    min(customer_id) as customer_id,
    min(platform) as platform,
    min(event_at) as session_started_at,
    max(event_at) as session_ended_at,
    count(*) as events,
    bool_or(event_type = 'add_to_cart') as has_cart,
    bool_or(event_type = 'checkout') as has_checkout,
    bool_or(event_type = 'purchase') as has_purchase,
    min(order_id) as order_id
from {{ ref('int_web_events_deduped') }}
group by session_id
