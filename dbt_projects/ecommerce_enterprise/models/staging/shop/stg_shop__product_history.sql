with

source as (

    select * from {{ source('shop', 'product_history') }}

),

renamed as (

    select
        history_id,
        product_id,
        category as category_name,
        list_price_usd,
        valid_from,
        valid_to,
        _cdc_captured_at as cdc_captured_at

    from source

)

select * from renamed
