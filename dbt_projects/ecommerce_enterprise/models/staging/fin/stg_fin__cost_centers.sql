with

source as (

    select * from {{ source('fin', 'cost_centers') }}

),

renamed as (

    select
        cost_center_id,
        cost_center_name,
        region as cost_center_region

    from source

)

select * from renamed
