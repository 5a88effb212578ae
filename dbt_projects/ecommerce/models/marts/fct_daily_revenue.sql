with

calendar as (

    -- Every UTC date of the data window (the FX table has one row per day and currency).
    select distinct rate_date as revenue_date from {{ ref('stg_fx_rates') }}

),

revenue_orders as (

    select * from {{ ref('fct_orders') }}
    where is_revenue_order

),

daily as (

    select
        order_date,
        count(*) as orders,
        sum(unit_count) as units,
        round(sum(gross_revenue_usd), 2) as gross_revenue_usd,
        round(sum(items_discount_usd), 2) as discounts_usd,
        round(sum(refunds_usd), 2) as refunds_usd,
        round(sum(net_revenue_usd), 2) as net_revenue_usd,
        round(sum(shipping_usd), 2) as shipping_usd,
        round(sum(tax_usd), 2) as tax_usd

    from revenue_orders
    group by order_date

),

final as (

    select
        calendar.revenue_date,
        coalesce(daily.orders, 0) as orders,
        coalesce(daily.units, 0) as units,
        coalesce(daily.gross_revenue_usd, 0) as gross_revenue_usd,
        coalesce(daily.discounts_usd, 0) as discounts_usd,
        coalesce(daily.refunds_usd, 0) as refunds_usd,
        coalesce(daily.net_revenue_usd, 0) as net_revenue_usd,
        coalesce(daily.shipping_usd, 0) as shipping_usd,
        coalesce(daily.tax_usd, 0) as tax_usd

    from calendar
    left join daily on calendar.revenue_date = daily.order_date

)

select * from final
