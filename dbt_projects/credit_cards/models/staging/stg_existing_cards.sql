with source as (
    select * from {{ source('raw', 'existing_cards') }}
),

renamed as (
    select
        cast(customer_id as integer) as customer_id,
        card_id,
        cast(opened_on as date) as opened_on,
        cast(application_id as integer) as application_id
    from source
)

select * from renamed
