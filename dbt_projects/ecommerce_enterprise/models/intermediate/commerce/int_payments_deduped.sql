-- A successful capture repeating the previous one of the same order (same method and amount)
-- within duplicate_payment_window_seconds is the same money recorded twice.
with payments as (

    select * from {{ ref('stg_pay__payments') }}

),

ordered as (

    select
        *,
        lag(paid_at) over (
            partition by order_id, payment_method, amount_cents, is_successful
            order by paid_at, payment_id
        ) as previous_paid_at
    from payments

)

select
    payment_id,
    order_id,
    processor,
    payment_method,
    amount,
    currency_code,
    payment_status,
    is_successful,
    paid_at,
    is_successful
    and previous_paid_at is not null
    and date_diff('second', previous_paid_at, paid_at) <= {{ var('duplicate_payment_window_seconds') }}
        as is_duplicate_capture
from ordered
