with orders as (

    select * from {{ ref('stg_shop__orders') }}

),

customers as (

    select * from {{ ref('int_customers_enriched') }}

)

select
    orders.order_id,
    orders.customer_id,
    customers.person_id,
    orders.created_at,
    orders.created_at_local,
    orders.order_date,
    cast(orders.created_at_local as date) as order_date_local,
    orders.order_status,
    orders.order_status in ('placed', 'shipped', 'completed', 'returned') as is_revenue_order,
    orders.channel,
    orders.currency_code,
    orders.promo_code,
    orders.shipping_amount,
    orders.tax_amount,
    orders.shipped_at,
    orders.delivered_at,
    cast(orders.delivered_at as date) as delivered_date,
    orders.cancelled_at,
    orders.returned_at,
    customers.country_code,
    customers.sales_region,
    customers.is_test_account
from orders
inner join customers on orders.customer_id = customers.customer_id
