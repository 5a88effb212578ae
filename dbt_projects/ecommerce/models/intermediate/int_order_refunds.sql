with

refunds as (

    select * from {{ ref('stg_refunds') }}

),

orders as (

    select order_id, order_date, currency_code from {{ ref('stg_orders') }}

),

fx_rates as (

    select * from {{ ref('stg_fx_rates') }}

),

converted as (

    select
        refunds.order_id,
        refunds.refund_amount,
        refunds.refund_reason,
        refunds.refunded_at,
        orders.order_date,
        -- At the ORDER date's rate (not the refund date's), so refunds net against the revenue
        -- they reverse; rounded to cents per refund.
        round(refunds.refund_amount * fx_rates.rate_to_usd, 2) as refund_amount_usd

    from refunds
    inner join orders on refunds.order_id = orders.order_id
    inner join fx_rates
        on fx_rates.rate_date = orders.order_date
        and fx_rates.currency_code = orders.currency_code

),

per_order as (

    select
        order_id,
        count(*) as refund_count,
        round(sum(refund_amount), 2) as refund_amount,
        round(sum(refund_amount_usd), 2) as refund_amount_usd,
        bool_or(refund_reason = 'return') as has_return_refund,
        min(refunded_at) as first_refunded_at,
        max(refunded_at) as last_refunded_at,
        -- Late-arriving: refunded in a later calendar quarter than the order was created in.
        bool_or(date_trunc('quarter', refunded_at) > date_trunc('quarter', order_date))
            as has_refund_after_order_quarter

    from converted
    group by order_id

)

select * from per_order
