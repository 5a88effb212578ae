-- Finance's recognised revenue never includes an internal QA account's order.
select recognized.order_id
from {{ ref('fct_revenue_recognized') }} as recognized
inner join {{ ref('stg_shop__customers') }} as customers
    on recognized.customer_id = customers.customer_id
where customers.is_test_account
