select
    chargebacks.chargeback_id,
    chargebacks.payment_id,
    chargebacks.order_id,
    chargebacks.chargeback_amount,
    chargebacks.currency_code,
    chargebacks.reason_code,
    chargebacks.opened_at,
    chargebacks.resolved_at,
    chargebacks.outcome,
    round(chargebacks.chargeback_amount * fx.rate_to_usd, 2) as chargeback_amount_usd
from {{ ref('stg_pay__chargebacks') }} as chargebacks
left join {{ ref('int_fx_rates_daily') }} as fx
    on
        cast(chargebacks.opened_at as date) = fx.rate_date
        and chargebacks.currency_code = fx.currency_code
