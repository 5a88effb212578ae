with

source as (

    select * from {{ source('shop', 'promotions') }}

),

renamed as (

    select
        promo_code,
        description as promo_description,
        discount_type,
        discount_pct,
        discount_amount,
        min_order_amount,
        starts_at,
        ends_at,
        channel as promo_channel,
        first_order_only

    from source

)

select * from renamed
