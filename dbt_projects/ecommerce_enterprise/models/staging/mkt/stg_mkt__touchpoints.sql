with

source as (

    select * from {{ source('mkt', 'touchpoints') }}

),

renamed as (

    select
        touchpoint_id,
        customer_id,
        campaign_id,
        channel as touch_channel,
        touched_at,
        order_id

    from source

)

select * from renamed
