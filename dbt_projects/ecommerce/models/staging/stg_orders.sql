with

source as (

    select * from {{ source('raw', 'orders') }}

),

renamed as (

    select
        order_id,
        customer_id,
        created_at,
        cast(created_at as date) as order_date,
        status as order_status,
        channel,
        currency as currency_code,
        promo_code,
        shipping_amount,
        tax_amount,
        shipped_at,
        delivered_at,
        cancelled_at,
        returned_at

    from source

)

select * from renamed
