select
    refunds.refund_id,
    refunds.order_id,
    refunds.refund_date,
    refunds.refund_reason,
    refunds.refund_amount,
    refunds.currency_code,
    refunds.refund_amount_usd
from {{ ref('int_refunds_usd') }} as refunds
