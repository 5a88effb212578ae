with

source as (

    select * from {{ source('shop', 'products') }}

),

renamed as (

    select
        product_id,
        sku,
        product_name,
        category as category_name,
        brand,
        cost_usd,
        list_price_usd,
        launched_at,
        is_active,
        updated_at,
        weight_grams

    from source

)

select * from renamed
