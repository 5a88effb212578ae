with

source as (

    select * from {{ source('shop', 'orders') }}

),

renamed as (

    select
        order_id,
        customer_id,
        created_at,
        created_at_local,
        store_timezone,
        cast(created_at as date) as order_date,
        order_status,
        channel,
        currency_code,
        promo_code,
        coalesce(shipping_amount, round(shipping_amount_cents / 100.0, 2)) as shipping_amount,
        tax_amount,
        revenue_old,
        shipped_at,
        delivered_at,
        cancelled_at,
        returned_at,
        _loaded_at as loaded_at,
        utm_source,
        utm_medium,
        utm_campaign,
        device_type,
        app_version,
        is_gift,
        gift_message_present,
        fraud_score,
        warehouse_hint,
        columns('^custom_attr_[0-9]+$')

    from source

)

select * from renamed
