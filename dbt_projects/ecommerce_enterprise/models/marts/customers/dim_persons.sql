-- One row per person (identity-resolved): accounts sharing a normalized email or merged by
-- Customer Care are one person. Test accounts excluded.
select
    person_id,
    count(*) as accounts,
    min(signup_at) as first_signup_at,
    min(country_code) as country_code,
    sum(revenue_orders) as revenue_orders,
    min(first_order_at) as first_order_at
from {{ ref('dim_customers') }}
group by person_id
