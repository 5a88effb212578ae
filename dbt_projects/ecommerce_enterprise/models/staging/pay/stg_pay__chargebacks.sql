with

source as (

    select * from {{ source('pay', 'chargebacks') }}

),

renamed as (

    select
        chargeback_id,
        payment_id,
        order_id,
        amount as chargeback_amount,
        currency_code,
        reason_code,
        opened_at,
        resolved_at,
        outcome

    from source

)

select * from renamed
