with

source as (

    select * from {{ source('inv', 'stock_snapshots') }}

),

renamed as (

    select
        snapshot_date,
        warehouse_id,
        product_id,
        on_hand_units,
        reserved_units

    from source

)

select * from renamed
