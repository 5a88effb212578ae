with source as (
    select * from {{ source('raw', 'issuers') }}
),

renamed as (
    select
        cast(issuer_id as integer) as issuer_id,
        issuer_name,
        network
    from source
)

select * from renamed
