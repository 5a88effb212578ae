with

source as (

    select * from {{ source('sub', 'subscription_events') }}

),

renamed as (

    select
        subscription_event_id,
        subscription_id,
        event_type,
        event_at,
        plan_id

    from source

)

select * from renamed
