select
    campaign_id,
    campaign_name,
    campaign_channel,
    platform,
    target_region,
    started_on,
    ended_on,
    budget_usd,
    owner_team
from {{ ref('stg_mkt__campaigns') }}
