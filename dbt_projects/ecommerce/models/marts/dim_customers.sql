with

customers as (

    select * from {{ ref('stg_customers') }}
    where not is_test_account

),

orders as (

    select * from {{ ref('fct_orders') }}

),

order_stats as (

    select
        customer_id,
        count(*) as orders_placed,
        count(*) filter (where is_revenue_order) as lifetime_orders,
        min(created_at) filter (where is_revenue_order) as first_order_at,
        max(created_at) filter (where is_revenue_order) as last_order_at,
        round(sum(gross_revenue_usd), 2) as lifetime_gross_revenue_usd,
        round(sum(net_revenue_usd), 2) as lifetime_net_revenue_usd

    from orders
    group by customer_id

),

final as (

    select
        customers.customer_id,
        customers.email,
        customers.first_name,
        customers.last_name,
        customers.country_code,
        customers.signup_at,
        customers.acquisition_channel,
        order_stats.first_order_at,
        order_stats.last_order_at,
        cast(date_trunc('month', order_stats.first_order_at) as date) as first_order_month,
        coalesce(order_stats.orders_placed, 0) as orders_placed,
        coalesce(order_stats.lifetime_orders, 0) as lifetime_orders,
        coalesce(order_stats.lifetime_gross_revenue_usd, 0) as lifetime_gross_revenue_usd,
        coalesce(order_stats.lifetime_net_revenue_usd, 0) as lifetime_net_revenue_usd,
        coalesce(order_stats.lifetime_orders, 0) >= 2 as is_repeat_customer

    from customers
    left join order_stats on customers.customer_id = order_stats.customer_id

)

select * from final
