select
    chargeback_id,
    payment_id,
    order_id,
    chargeback_amount,
    currency_code,
    chargeback_amount_usd,
    reason_code,
    opened_at,
    resolved_at,
    outcome,
    outcome in ('lost', 'accepted') as is_loss
from {{ ref('int_chargebacks_usd') }}
