with

source as (

    select * from {{ source('sup', 'ticket_events') }}

),

renamed as (

    select
        ticket_event_id,
        ticket_id,
        event_type,
        event_at

    from source

)

select * from renamed
