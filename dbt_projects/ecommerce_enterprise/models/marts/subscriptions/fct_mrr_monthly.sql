select
    month_start,
    count(*) as active_subscriptions,
    round(sum(mrr_usd), 2) as mrr_usd
from {{ ref('int_subscription_months') }}
group by month_start
