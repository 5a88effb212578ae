with

source as (

    select * from {{ source('mkt', 'ad_spend') }}

),

renamed as (

    select
        spend_date,
        campaign_id,
        spend as spend_amount,
        currency_code,
        impressions,
        clicks,
        _extracted_at as extracted_at

    from source

)

select * from renamed
