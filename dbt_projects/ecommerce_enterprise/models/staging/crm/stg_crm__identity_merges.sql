with

source as (

    select * from {{ source('crm', 'identity_merges') }}

),

renamed as (

    select
        merge_id,
        surviving_customer_id,
        merged_customer_id,
        merged_at

    from source

)

select * from renamed
