select
    payments.payment_id,
    payments.order_id,
    payments.processor,
    payments.payment_method,
    payments.amount,
    payments.currency_code,
    payments.payment_status,
    payments.is_successful,
    payments.is_duplicate_capture,
    payments.paid_at
from {{ ref('int_payments_deduped') }} as payments
