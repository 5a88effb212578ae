with

source as (

    select * from {{ source('inv', 'warehouses') }}

),

renamed as (

    select
        warehouse_id,
        warehouse_name,
        country_code,
        timezone as warehouse_timezone

    from source

)

select * from renamed
