select
    spend.spend_date,
    spend.campaign_id,
    spend.spend_amount,
    spend.currency_code,
    spend.impressions,
    spend.clicks,
    round(spend.spend_amount * fx.rate_to_usd, 2) as spend_usd
from {{ ref('int_ad_spend_latest') }} as spend
left join {{ ref('int_fx_rates_daily') }} as fx
    on
        spend.spend_date = fx.rate_date
        and spend.currency_code = fx.currency_code
