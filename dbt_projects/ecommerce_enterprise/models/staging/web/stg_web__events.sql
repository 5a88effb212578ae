with

source as (

    select * from {{ source('web', 'events') }}

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
        order_id,
        _loaded_at as loaded_at

    from source

)

select * from renamed
