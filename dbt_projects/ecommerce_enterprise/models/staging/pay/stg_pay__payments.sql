with

source as (

    select * from {{ source('pay', 'payments') }}

),

renamed as (

    select
        payment_id,
        order_id,
        processor,
        payment_method,
        amount_cents,
        {{ cents_to_units('amount_cents') }} as amount,
        currency_code,
        payment_status,
        payment_status = 'success' as is_successful,
        paid_at

    from source

)

select * from renamed
