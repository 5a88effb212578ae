with

source as (

    select * from {{ source('ful', 'shipment_events') }}

),

renamed as (

    select
        shipment_event_id,
        shipment_id,
        event_type,
        event_at,
        event_at_local,
        _loaded_at as loaded_at

    from source

)

select * from renamed
