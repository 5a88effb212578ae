with source as (
    select * from {{ source('raw', 'card_spend') }}
),

renamed as (
    select
        cast(customer_id as integer) as customer_id,
        cast(month as date) as spend_month,
        category,
        amount_usd
    from source
)

select * from renamed
