with

source as (

    select * from {{ source('mkt', 'campaigns') }}

),

renamed as (

    select
        campaign_id,
        campaign_name,
        channel as campaign_channel,
        platform,
        target_region,
        started_on,
        ended_on,
        budget_usd,
        owner_team

    from source

)

select * from renamed
