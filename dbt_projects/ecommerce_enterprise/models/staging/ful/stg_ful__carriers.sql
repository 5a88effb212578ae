with

source as (

    select * from {{ source('ful', 'carriers') }}

),

renamed as (

    select
        carrier_id,
        carrier_name,
        service_level

    from source

)

select * from renamed
