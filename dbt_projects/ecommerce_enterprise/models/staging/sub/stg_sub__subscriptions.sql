with

source as (

    select * from {{ source('sub', 'subscriptions') }}

),

renamed as (

    select
        subscription_id,
        customer_id,
        plan_id,
        started_at,
        cancelled_at,
        subscription_status,
        currency_code

    from source

)

select * from renamed
