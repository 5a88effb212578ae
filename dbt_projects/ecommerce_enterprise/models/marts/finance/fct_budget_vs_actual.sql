with actual as (

    select recognized_month, sales_region, net_revenue_usd
    from {{ ref('fct_revenue_recognized_monthly') }}

)

select
    budgets.budget_month,
    budgets.budget_region,
    budgets.budget_net_revenue_usd,
    coalesce(actual.net_revenue_usd, 0) as actual_net_revenue_usd,
    round(coalesce(actual.net_revenue_usd, 0) - budgets.budget_net_revenue_usd, 2) as variance_usd
from {{ ref('stg_fin__budgets') }} as budgets
left join actual
    on
        budgets.budget_month = actual.recognized_month
        and budgets.budget_region = actual.sales_region
