with

source as (

    select * from {{ source('raw', 'fx_rates') }}

),

renamed as (

    select
        cast(date as date) as rate_date,
        currency as currency_code,
        rate_to_usd

    from source

)

select * from renamed
