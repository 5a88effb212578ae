with

source as (

    select * from {{ source('raw', 'web_events') }}

),

renamed as (

    select
        event_id,
        session_id,
        customer_id,
        platform,
        event_type,
        event_at,
        page_path,
        order_id

    from source

),

flagged as (

    select
        *,
        -- Trackers re-send events: the same session, type and timestamp under a new event_id.
        -- The first (lowest event_id) copy is the real one.
        row_number() over (
            partition by session_id, event_type, event_at
            order by event_id
        ) > 1 as is_duplicate

    from renamed

)

select * from flagged
