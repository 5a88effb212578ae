with

source as (

    select * from {{ source('shop', 'categories') }}

),

renamed as (

    select
        category_id,
        category_name,
        department

    from source

)

select * from renamed
