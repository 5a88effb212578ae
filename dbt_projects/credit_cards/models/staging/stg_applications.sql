with source as (
    select * from {{ source('raw', 'applications') }}
),

renamed as (
    select
        cast(application_id as integer) as application_id,
        cast(customer_id as integer) as customer_id,
        card_id,
        cast(applied_on as date) as applied_on,
        decision,
        decline_reason
    from source
)

select * from renamed
