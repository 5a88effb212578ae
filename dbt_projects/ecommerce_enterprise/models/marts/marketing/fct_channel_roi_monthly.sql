with revenue as (

    select
        cast(date_trunc('month', order_date) as date) as month_start,
        attributed_channel as channel,
        sum(net_revenue_usd) as attributed_revenue_usd
    from {{ ref('fct_marketing_attribution') }}
    group by 1, 2

),

spend as (

    select
        cast(date_trunc('month', spend_date) as date) as month_start,
        campaign_channel as channel,
        sum(spend_usd) as spend_usd
    from {{ ref('fct_ad_spend_daily') }}
    group by 1, 2

)

select
    coalesce(revenue.month_start, spend.month_start) as month_start,
    coalesce(revenue.channel, spend.channel) as channel,
    round(coalesce(revenue.attributed_revenue_usd, 0), 2) as attributed_revenue_usd,
    round(coalesce(spend.spend_usd, 0), 2) as spend_usd,
    round({{ safe_divide('revenue.attributed_revenue_usd', 'spend.spend_usd') }}, 4) as roas
from revenue
full outer join spend
    on
        revenue.month_start = spend.month_start
        and revenue.channel = spend.channel
