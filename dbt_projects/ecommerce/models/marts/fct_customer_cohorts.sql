with

revenue_orders as (

    select customer_id, order_date, net_revenue_usd
    from {{ ref('fct_orders') }}
    where is_revenue_order

),

first_orders as (

    select
        customer_id,
        cast(date_trunc('month', min(order_date)) as date) as cohort_month
    from revenue_orders
    group by customer_id

),

activity as (

    select
        first_orders.cohort_month,
        date_diff(
            'month', first_orders.cohort_month, cast(date_trunc('month', revenue_orders.order_date) as date)
        ) as months_since_first_order,
        revenue_orders.customer_id,
        revenue_orders.net_revenue_usd

    from revenue_orders
    inner join first_orders on revenue_orders.customer_id = first_orders.customer_id

),

cohort_sizes as (

    select cohort_month, count(*) as cohort_size
    from first_orders
    group by cohort_month

),

last_month as (

    select cast(date_trunc('month', max(order_date)) as date) as last_activity_month
    from revenue_orders

),

grid as (

    -- Every (cohort, month offset) up to the last month of data, so inactive months show as 0.
    select
        cohort_sizes.cohort_month,
        cohort_sizes.cohort_size,
        unnest(range(0, date_diff('month', cohort_sizes.cohort_month, last_month.last_activity_month) + 1))
            as months_since_first_order

    from cohort_sizes
    cross join last_month

),

activity_stats as (

    select
        cohort_month,
        months_since_first_order,
        count(distinct customer_id) as active_customers,
        count(*) as orders,
        round(sum(net_revenue_usd), 2) as net_revenue_usd

    from activity
    group by cohort_month, months_since_first_order

),

final as (

    select
        grid.cohort_month,
        grid.months_since_first_order,
        cast(grid.cohort_month + to_months(cast(grid.months_since_first_order as integer)) as date)
            as activity_month,
        grid.cohort_size,
        coalesce(activity_stats.active_customers, 0) as active_customers,
        round(coalesce(activity_stats.active_customers, 0) / grid.cohort_size, 6) as retention_rate,
        coalesce(activity_stats.orders, 0) as orders,
        coalesce(activity_stats.net_revenue_usd, 0) as net_revenue_usd

    from grid
    left join activity_stats
        on grid.cohort_month = activity_stats.cohort_month
        and grid.months_since_first_order = activity_stats.months_since_first_order

)

select * from final
