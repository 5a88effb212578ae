with

source as (

    select * from {{ source('inv', 'suppliers') }}

),

renamed as (

    select
        supplier_id,
        supplier_name,
        country_code,
        lead_time_days

    from source

)

select * from renamed
