select
    orders.order_id,
    orders.currency_code,
    coalesce(payments.payment_attempts, 0) as payment_attempts,
    coalesce(payments.successful_captures, 0) as successful_captures,
    coalesce(payments.duplicate_captures, 0) as duplicate_captures,
    coalesce(payments.captured_amount, 0) as captured_amount
from {{ ref('fct_orders') }} as orders
left join {{ ref('int_payments_by_order') }} as payments on orders.order_id = payments.order_id
