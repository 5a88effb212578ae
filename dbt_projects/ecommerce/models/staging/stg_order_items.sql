with

source as (

    select * from {{ source('raw', 'order_items') }}

),

order_headers as (

    select order_id from {{ source('raw', 'orders') }}

),

renamed as (

    select
        source.order_item_id,
        source.order_id,
        source.product_id,
        source.quantity,
        source.unit_price,
        source.discount_amount,
        round(source.quantity * source.unit_price, 2) as line_amount,
        round(source.quantity * source.unit_price - source.discount_amount, 2) as net_line_amount,
        -- Lines whose order header has not been loaded: kept for auditing, excluded downstream.
        order_headers.order_id is null as is_orphan

    from source
    left join order_headers on source.order_id = order_headers.order_id

)

select * from renamed
