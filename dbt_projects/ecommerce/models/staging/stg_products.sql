with

source as (

    select * from {{ source('raw', 'products') }}

),

renamed as (

    select
        product_id,
        sku,
        name as product_name,
        category,
        brand,
        cost_usd,
        list_price_usd,
        round(1 - cost_usd / list_price_usd, 4) as list_margin_pct,
        launched_at,
        is_active

    from source

)

select * from renamed
