with

source as (

    select * from {{ source('shop', 'customer_addresses') }}

),

renamed as (

    select
        address_id,
        customer_id,
        address_type,
        country_code,
        postal_code,
        is_default

    from source

)

select * from renamed
