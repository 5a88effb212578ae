with

orders as (

    select * from {{ ref('stg_orders') }}

),

customers as (

    select customer_id, country_code, is_test_account from {{ ref('stg_customers') }}

),

fx_rates as (

    select * from {{ ref('stg_fx_rates') }}

),

line_totals as (

    select
        order_id,
        count(*) as item_count,
        sum(quantity) as unit_count,
        round(sum(line_amount), 2) as items_subtotal,
        round(sum(discount_amount), 2) as items_discount,
        round(sum(line_amount_usd), 2) as items_subtotal_usd,
        round(sum(discount_amount_usd), 2) as items_discount_usd

    from {{ ref('int_order_items_usd') }}
    group by order_id

),

joined as (

    select
        orders.order_id,
        orders.customer_id,
        orders.created_at,
        orders.order_date,
        orders.order_status,
        orders.channel,
        customers.country_code,
        orders.currency_code,
        orders.promo_code,
        customers.is_test_account,
        orders.order_status in (
            {%- for status in var('revenue_statuses') %}'{{ status }}'{{ "," if not loop.last }}{% endfor -%}
        ) as is_revenue_order,
        fx_rates.rate_to_usd as fx_rate_to_usd,
        coalesce(line_totals.item_count, 0) as item_count,
        coalesce(line_totals.unit_count, 0) as unit_count,
        coalesce(line_totals.items_subtotal, 0) as items_subtotal,
        coalesce(line_totals.items_discount, 0) as items_discount,
        orders.shipping_amount,
        orders.tax_amount,
        coalesce(line_totals.items_subtotal_usd, 0) as items_subtotal_usd,
        coalesce(line_totals.items_discount_usd, 0) as items_discount_usd,
        round(orders.shipping_amount * fx_rates.rate_to_usd, 2) as shipping_usd,
        round(orders.tax_amount * fx_rates.rate_to_usd, 2) as tax_usd,
        orders.shipped_at,
        orders.delivered_at,
        orders.cancelled_at,
        orders.returned_at

    from orders
    inner join customers on orders.customer_id = customers.customer_id
    inner join fx_rates
        on fx_rates.rate_date = orders.order_date
        and fx_rates.currency_code = orders.currency_code
    left join line_totals on orders.order_id = line_totals.order_id

)

select
    *,
    -- What the customer owes: lines - discounts + shipping + tax.
    round(items_subtotal - items_discount + shipping_amount + tax_amount, 2) as order_total,
    round(items_subtotal_usd - items_discount_usd + shipping_usd + tax_usd, 2) as order_total_usd
from joined
