select
    spend.spend_date,
    spend.campaign_id,
    campaigns.campaign_channel,
    campaigns.target_region,
    spend.currency_code,
    spend.spend_amount,
    spend.spend_usd,
    spend.impressions,
    spend.clicks
from {{ ref('int_ad_spend_usd') }} as spend
left join {{ ref('stg_mkt__campaigns') }} as campaigns on spend.campaign_id = campaigns.campaign_id
