with

source as (

    select * from {{ source('inv', 'purchase_orders') }}

),

renamed as (

    select
        purchase_order_id,
        supplier_id,
        warehouse_id,
        product_id,
        ordered_at,
        expected_at,
        received_at,
        quantity as ordered_units,
        unit_cost_usd

    from source

)

select * from renamed
