with

source as (

    select * from {{ source('fin', 'fx_rates') }}

),

renamed as (

    select
        rate_date,
        currency_code,
        rate_to_usd,
        usd_to_currency,
        rate_source

    from source

)

select * from renamed
