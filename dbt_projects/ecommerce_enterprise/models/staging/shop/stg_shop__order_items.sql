with

source as (

    select * from {{ source('shop', 'order_items') }}

),

renamed as (

    select
        order_item_id,
        order_id,
        product_id,
        quantity,
        unit_price,
        discount_amount,
        _loaded_at as loaded_at

    from source

)

select * from renamed
