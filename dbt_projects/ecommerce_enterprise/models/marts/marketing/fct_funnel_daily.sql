select
    cast(session_started_at as date) as session_date,
    platform,
    count(*) as sessions,
    count(*) filter (where has_cart) as cart_sessions,
    count(*) filter (where has_checkout) as checkout_sessions,
    count(*) filter (where has_purchase) as purchase_sessions
from {{ ref('int_sessions') }}
group by 1, 2
