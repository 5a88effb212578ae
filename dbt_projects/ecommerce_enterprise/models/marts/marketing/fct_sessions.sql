select
    session_id,
    customer_id,
    platform,
    session_started_at,
    session_ended_at,
    events,
    has_cart,
    has_checkout,
    has_purchase,
    order_id
from {{ ref('int_sessions') }}
