with revenue as (

    select recognized_month as month_start, sum(net_revenue_usd) as net_revenue_usd
    from {{ ref('fct_revenue_recognized_monthly') }}
    group by 1

),

mrr as (

    select month_start, mrr_usd from {{ ref('fct_mrr_monthly') }}

)

select
    revenue.month_start,
    round(revenue.net_revenue_usd, 2) as recognized_net_revenue_usd,
    mrr.mrr_usd
from revenue
left join mrr on revenue.month_start = mrr.month_start
