with

products as (

    select * from {{ ref('stg_products') }}

),

sales as (

    select
        product_id,
        count(*) as order_lines,
        count(distinct order_id) as orders,
        sum(quantity) as units_sold,
        round(sum(line_amount_usd), 2) as gross_revenue_usd,
        round(sum(net_line_amount_usd), 2) as net_sales_usd,
        count(*) filter (where is_returned_order) as returned_order_lines

    from {{ ref('fct_order_items') }}
    where is_revenue_order
    group by product_id

),

final as (

    select
        products.product_id,
        products.sku,
        products.product_name,
        products.category,
        products.brand,
        products.cost_usd,
        products.list_price_usd,
        products.list_margin_pct,
        products.launched_at,
        products.is_active,
        coalesce(sales.order_lines, 0) as order_lines,
        coalesce(sales.orders, 0) as orders,
        coalesce(sales.units_sold, 0) as units_sold,
        coalesce(sales.gross_revenue_usd, 0) as gross_revenue_usd,
        coalesce(sales.net_sales_usd, 0) as net_sales_usd,
        coalesce(sales.returned_order_lines, 0) as returned_order_lines,
        round(sales.returned_order_lines / sales.order_lines, 4) as return_rate

    from products
    left join sales on products.product_id = sales.product_id

)

select * from final
