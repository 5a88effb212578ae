with

source as (

    select * from {{ source('shop', 'order_status_events') }}

),

renamed as (

    select
        status_event_id,
        order_id,
        status as order_status,
        event_at,
        _loaded_at as loaded_at

    from source

)

select * from renamed
