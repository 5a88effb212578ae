with

source as (

    select * from {{ source('sup', 'tickets') }}

),

renamed as (

    select
        ticket_id,
        customer_id,
        order_id,
        channel as ticket_channel,
        category as ticket_category,
        priority,
        created_at,
        first_response_at,
        resolved_at,
        ticket_status,
        agent_id

    from source

)

select * from renamed
