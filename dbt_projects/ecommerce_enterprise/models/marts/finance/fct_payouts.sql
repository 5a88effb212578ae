select
    payout_id,
    payout_date,
    processor,
    currency_code,
    gross_amount,
    fee_amount,
    net_amount
from {{ ref('stg_pay__payouts') }}
