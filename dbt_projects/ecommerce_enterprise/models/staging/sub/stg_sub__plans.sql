with

source as (

    select * from {{ source('sub', 'plans') }}

),

renamed as (

    select
        plan_id,
        plan_code,
        billing_period,
        price_usd,
        is_legacy

    from source

)

select * from renamed
