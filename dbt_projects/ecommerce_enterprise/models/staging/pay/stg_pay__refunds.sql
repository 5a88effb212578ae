with

source as (

    select * from {{ source('pay', 'refunds') }}

),

renamed as (

    select
        refund_id,
        order_id,
        coalesce(amount, cast(refund_amount_text as double)) as refund_amount,
        currency_code,
        reason as refund_reason,
        refunded_at,
        cast(refunded_at as date) as refund_date

    from source

)

select * from renamed
