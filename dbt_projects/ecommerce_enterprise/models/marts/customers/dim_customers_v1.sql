-- DEPRECATED (2025-06): one row per shop account, no identity resolution, test accounts
-- included. Replaced by dim_customers (accounts) and dim_persons (people).
select
    customer_id,
    email,
    country_code,
    signup_at,
    is_test_account,
    legacy_customer_ref
from {{ ref('stg_shop__customers') }}
