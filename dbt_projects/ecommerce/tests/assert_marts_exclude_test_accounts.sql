-- No mart may contain an internal test account or anything they did.
-- Returns (mart, key) pairs that leak a test account.

with test_accounts as (

    select customer_id from {{ ref('stg_customers') }} where is_test_account

)

select 'fct_orders' as mart, order_id as key
from {{ ref('fct_orders') }}
where customer_id in (select customer_id from test_accounts)

union all

select 'fct_order_items', order_item_id
from {{ ref('fct_order_items') }}
where customer_id in (select customer_id from test_accounts)

union all

select 'dim_customers', customer_id
from {{ ref('dim_customers') }}
where customer_id in (select customer_id from test_accounts)

union all

select 'fct_sessions', session_id
from {{ ref('fct_sessions') }}
where customer_id in (select customer_id from test_accounts)
