with source as (
    select * from {{ source('raw', 'card_rewards') }}
),

renamed as (
    select
        card_id,
        category,
        rate,
        annual_cap_usd
    from source
)

select * from renamed
