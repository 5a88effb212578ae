with

source as (

    select * from {{ source('shop', 'countries') }}

),

renamed as (

    select
        country_code,
        country_name,
        sales_region,
        is_eu,
        currency_code as local_currency_code

    from source

)

select * from renamed
