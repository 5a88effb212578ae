with

events as (

    select * from {{ ref('stg_web_events') }}

),

customers as (

    select customer_id, is_test_account from {{ ref('stg_customers') }}

),

sessions as (

    -- A re-sent event is an exact copy of its original, so min / max / bool_or / any_value are
    -- unaffected by duplicates; only the counts need the is_duplicate flag.
    select
        session_id,
        any_value(customer_id) as customer_id,
        any_value(platform) as platform,
        min(event_at) as started_at,
        max(event_at) as ended_at,
        any_value(page_path) filter (where event_type = 'session_start') as landing_page,
        count(*) filter (where not is_duplicate) as event_count,
        count(*) filter (where is_duplicate) as duplicate_event_count,
        count(*) filter (where event_type = 'page_view' and not is_duplicate) as page_view_count,
        count(*) filter (where event_type = 'add_to_cart' and not is_duplicate)
            as add_to_cart_count,
        bool_or(event_type = 'add_to_cart') as reached_cart,
        bool_or(event_type = 'checkout') as reached_checkout,
        bool_or(event_type = 'purchase') as reached_purchase,
        max(order_id) as order_id

    from events
    group by session_id

),

final as (

    select
        sessions.session_id,
        sessions.customer_id,
        sessions.customer_id is not null as is_logged_in,
        sessions.platform,
        cast(sessions.started_at as date) as session_date,
        sessions.started_at,
        sessions.ended_at,
        date_diff('second', sessions.started_at, sessions.ended_at) as duration_seconds,
        sessions.landing_page,
        sessions.event_count,
        sessions.duplicate_event_count,
        sessions.page_view_count,
        sessions.add_to_cart_count,
        sessions.page_view_count = 0 and not sessions.reached_cart as is_bounce,
        sessions.reached_cart,
        sessions.reached_checkout,
        sessions.reached_purchase,
        sessions.order_id

    from sessions
    left join customers on sessions.customer_id = customers.customer_id
    where not coalesce(customers.is_test_account, false)

)

select * from final
