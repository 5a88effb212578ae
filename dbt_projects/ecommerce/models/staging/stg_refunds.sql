with

source as (

    select * from {{ source('raw', 'refunds') }}

),

renamed as (

    select
        refund_id,
        order_id,
        amount as refund_amount,
        currency as currency_code,
        reason as refund_reason,
        refunded_at,
        cast(refunded_at as date) as refund_date

    from source

)

select * from renamed
