with

source as (

    select * from {{ source('pay', 'payouts') }}

),

renamed as (

    select
        payout_id,
        payout_date,
        processor,
        currency_code,
        {{ cents_to_units('gross_cents') }} as gross_amount,
        {{ cents_to_units('fee_cents') }} as fee_amount,
        {{ cents_to_units('net_cents') }} as net_amount

    from source

)

select * from renamed
