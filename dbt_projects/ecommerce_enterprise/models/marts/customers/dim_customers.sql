select
    customers.customer_id,
    customers.person_id,
    customers.email_normalized,
    customers.first_name,
    customers.last_name,
    customers.country_code,
    customers.sales_region,
    customers.signup_at,
    customers.signup_at_local,
    customers.acquisition_channel,
    customers.loyalty_tier,
    customers.marketing_opt_in,
    customers.is_secondary_account,
    coalesce(stats.revenue_orders, 0) as revenue_orders,
    stats.first_order_at,
    stats.last_order_at
from {{ ref('int_customers_enriched') }} as customers
left join {{ ref('int_customer_order_stats') }} as stats on customers.customer_id = stats.customer_id
where not customers.is_test_account
