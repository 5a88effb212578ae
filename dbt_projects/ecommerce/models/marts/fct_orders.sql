with

orders as (

    select * from {{ ref('int_orders') }}
    where not is_test_account

),

payments as (

    select * from {{ ref('int_payments_pivoted') }}

),

refunds as (

    select * from {{ ref('int_order_refunds') }}

),

joined as (

    select
        orders.order_id,
        orders.customer_id,
        orders.created_at,
        orders.order_date,
        orders.order_status,
        orders.channel,
        orders.country_code,
        orders.currency_code,
        orders.promo_code,
        orders.is_revenue_order,
        row_number() over (
            partition by orders.customer_id order by orders.created_at, orders.order_id
        ) as customer_order_number,
        orders.fx_rate_to_usd,
        orders.item_count,
        orders.unit_count,
        orders.order_total,
        coalesce(payments.total_paid_amount, 0) as paid_amount,
        orders.items_subtotal_usd,
        orders.items_discount_usd,
        orders.shipping_usd,
        orders.tax_usd,
        orders.order_total_usd,
        coalesce(refunds.refund_amount_usd, 0) as refunds_usd,
        coalesce(refunds.refund_count, 0) as refund_count,
        coalesce(refunds.has_refund_after_order_quarter, false) as has_refund_after_order_quarter,
        coalesce(payments.successful_payment_count, 0) as successful_payment_count,
        coalesce(payments.failed_payment_count, 0) as failed_payment_count,
        coalesce(payments.duplicate_payment_count, 0) as duplicate_payment_count,
        orders.shipped_at,
        orders.delivered_at,
        orders.cancelled_at,
        orders.returned_at

    from orders
    left join payments on orders.order_id = payments.order_id
    left join refunds on orders.order_id = refunds.order_id

),

final as (

    select
        *,
        customer_order_number = 1 as is_first_order,
        case when is_revenue_order then items_subtotal_usd else 0 end as gross_revenue_usd,
        case
            when is_revenue_order
                then round(items_subtotal_usd - items_discount_usd - refunds_usd, 2)
            else 0
        end as net_revenue_usd,
        round(paid_amount - order_total, 2) as payment_gap_amount,
        is_revenue_order and abs(paid_amount - order_total) > 0.005 as has_payment_mismatch

    from joined

)

select * from final
