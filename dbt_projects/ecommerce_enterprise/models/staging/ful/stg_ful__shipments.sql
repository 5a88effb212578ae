with

source as (

    select * from {{ source('ful', 'shipments') }}

),

renamed as (

    select
        shipment_id,
        order_id,
        warehouse_id,
        carrier_id,
        shipped_at,
        delivered_at,
        shipping_cost,
        currency_code,
        weight_kg

    from source

)

select * from renamed
